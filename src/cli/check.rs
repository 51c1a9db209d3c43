//! `fleetplan check -f PATH... [-o text|json|github] [what-if flags]`: the CI gate.
//!
//! Exit codes: 0 clean, 1 an input or item error, 3 everything valid but some item
//! unsatisfied. The report goes to stdout (GitHub reads workflow commands there); only
//! warnings and bad flags go to stderr.

use clap::{Args, ValueEnum};

use super::inputs::{InputArgs, VerdictArgs, WhatIfArgs};
use super::{report, write, Io};
use crate::exit_code::ExitCode;
use crate::plan::{self, PlanOptions, Trace};
use crate::render::check::{self as render, CheckReport, CheckResult};
use crate::verdict::{self, Scope};

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    inputs: InputArgs,

    #[command(flatten)]
    what_if: WhatIfArgs,

    #[command(flatten)]
    verdict: VerdictArgs,

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
}

pub fn run(args: CheckArgs, io: &mut Io<'_>) -> ExitCode {
    let scenario = match args.what_if.scenario(&args.inputs, io) {
        Ok(scenario) => scenario,
        Err(message) => {
            report(io, &format!("error: {message}"));
            return ExitCode::Error;
        }
    };
    // Like kubeconform, every file's problems are reported and what did load is checked.
    let (mut model, load_errors) = args.inputs.load_partial(io);
    let scope = Scope::new(args.verdict.manifests_only);
    let check = CheckReport::new(&model, &load_errors);
    let check = match verdict::require(&model, scope) {
        // The inputs' errors already fail the run; without them, a verdict about nothing
        // is refused.
        Err(nothing) if load_errors.is_empty() => {
            report(io, &format!("error: {nothing}"));
            return ExitCode::Error;
        }
        Err(_) => check,
        Ok(()) if scope == Scope::ManifestsOnly => check.validated(&model),
        Ok(()) => {
            if let Err(message) = scenario.what_if.apply(&mut model) {
                report(io, &format!("error: {message}"));
                return ExitCode::Error;
            }
            let outcome = plan::build(
                &model,
                &PlanOptions {
                    previous: scenario.previous.as_ref(),
                    now: scenario.now,
                    trace: Trace::Plan,
                    enforce_spread: scenario.enforce_spread,
                },
            );
            for warning in &outcome.warnings {
                report(io, &format!("warning: {warning}"));
            }
            check.planned(&model, &outcome)
        }
    };
    let text = match args.output {
        CheckFormat::Text => render::text(&check),
        CheckFormat::Json => render::json(&check),
        CheckFormat::Github => render::github(&check),
    };
    let status = write(io.stdout, &text);
    match check.result {
        CheckResult::Errors => ExitCode::Error,
        _ if status == ExitCode::Error => ExitCode::Error,
        CheckResult::Unsatisfied => ExitCode::Unsatisfied,
        CheckResult::Clean => ExitCode::Success,
    }
}
