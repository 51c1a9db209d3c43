//! `fleetplan check -f PATH... [ITEM...|-l SELECTOR] [-o text|json|github|junit|sarif]
//! [what-if flags]`: the CI gate.
//!
//! Exit codes: 0 clean, 1 an input or item error, 3 everything valid but some item
//! unsatisfied. The report goes to stdout (GitHub reads workflow commands there); only
//! warnings and bad flags go to stderr.

use clap::{Args, ValueEnum};

use super::args::{InputArgs, ItemArgs, VerdictArgs, WhatIfArgs};
use super::context::{load_partial, selected, Diagnostics, RunContext, Scenario};
use super::error::Error;
use super::io::{write, Io};
use crate::exit_code::ExitCode;
use crate::findings::{CheckReport, CheckResult, Hints};
use crate::plan::Trace;
use crate::render::check as render;
use crate::render::junit::junit;
use crate::render::sarif::sarif;
use crate::verdict::{self, Scope};

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    inputs: InputArgs,

    #[command(flatten)]
    what_if: WhatIfArgs,

    #[command(flatten)]
    verdict: VerdictArgs,

    #[command(flatten)]
    items: ItemArgs,

    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value_t = CheckFormat::Text)]
    output: CheckFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// One line per error and unsatisfied condition, then a summary.
    Text,
    /// The report as JSON: result, items, errors, unsatisfied.
    Json,
    /// GitHub Actions annotations (`::error file=…,line=…::…`), then the summary.
    Github,
    /// JUnit XML, one test case per item (GitLab, Jenkins, Azure Pipelines test reports).
    Junit,
    /// SARIF 2.1.0, one result per finding (GitHub code scanning).
    Sarif,
}

pub fn run(args: CheckArgs, io: &mut Io<'_>) -> Result<ExitCode, Error> {
    let scenario = Scenario::new(&args.what_if, &args.inputs, io)?;
    // Like kubeconform, every file's problems are reported and what did load is checked.
    let (model, load_errors) = load_partial(&args.inputs, io);
    let selection = args.items.select(&model)?;
    let scope = Scope::new(args.verdict.manifests_only);
    let check = CheckReport::new(&model, &load_errors);
    let check = match verdict::require(&model, scope) {
        // The inputs' errors already fail the run; without them, a verdict about nothing
        // is refused.
        Err(nothing) if load_errors.is_empty() => return Err(nothing.into()),
        Err(_) => check,
        Ok(()) if scope == Scope::ManifestsOnly => {
            check.validated(&selected(&model, selection.as_deref()))
        }
        Ok(()) => {
            let context = RunContext::new(model, scenario, Trace::Plan)?.select(selection);
            // Item errors are findings of the report, not diagnostics.
            let outcome = context.plan(Diagnostics::Warnings, io);
            let hints = Hints {
                inventory: &context.model.inventory,
                default_namespace: args.inputs.defaulted_namespace(),
            };
            check.planned(&context.workloads(), &outcome, &hints)
        }
    };
    let text = match args.output {
        CheckFormat::Text => render::text(&check),
        CheckFormat::Json => render::json(&check),
        CheckFormat::Github => render::github(&check),
        CheckFormat::Junit => junit(&check),
        CheckFormat::Sarif => sarif(&check),
    };
    write(io.stdout, &text)?;
    Ok(match check.result {
        CheckResult::Errors => ExitCode::Error,
        CheckResult::Unsatisfied => ExitCode::Unsatisfied,
        CheckResult::Clean => ExitCode::Success,
    })
}
