//! `fleetplan check -f PATH... [ITEM...|-l SELECTOR] [-o text|json|github|junit|sarif|markdown]
//! [what-if flags]`: the CI gate.
//!
//! Exit codes: 0 clean, 1 an input or item error, 3 everything valid but some item
//! unsatisfied. The report goes to stdout (GitHub reads workflow commands there); only
//! warnings and bad flags go to stderr.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum, ValueHint};

use super::args::{InputArgs, ItemArgs, VerdictArgs, WhatIfArgs};
use super::context::{load_partial, selected, Diagnostics, RunContext, Scenario};
use super::error::Error;
use super::io::{write, write_file_with, Io};
use crate::baseline::{self, Baseline};
use crate::exit_code::ExitCode;
use crate::findings::{CheckReport, CheckResult, Hints};
use crate::load;
use crate::plan::Trace;
use crate::render::check as render;
use crate::render::junit::junit;
use crate::render::sarif::sarif;
use crate::verdict::{self, Scope};

#[derive(Debug, Args)]
pub(super) struct CheckArgs {
    #[command(flatten)]
    pub(super) inputs: InputArgs,

    #[command(flatten)]
    pub(super) what_if: WhatIfArgs,

    #[command(flatten)]
    verdict: VerdictArgs,

    #[command(flatten)]
    items: ItemArgs,

    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value_t = CheckFormat::Text)]
    output: CheckFormat,

    /// Findings FILE (written by --write-baseline) holds are known: reported as such, they do
    /// not fail the run; new ones do, and entries no longer found are reported as resolved.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub(super) baseline: Option<PathBuf>,

    /// Record this run's findings in FILE (sorted YAML, for --baseline) and exit 0.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, conflicts_with = "baseline")]
    pub(super) write_baseline: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum CheckFormat {
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
    /// A pull-request comment: the summary, a table of findings (new ones marked against a
    /// baseline, known ones folded), resolved entries.
    Markdown,
}

pub(super) fn run(args: CheckArgs, io: &mut Io<'_>) -> Result<ExitCode, Error> {
    let scenario = Scenario::new(&args.what_if, &args.inputs, io)?;
    // Like kubeconform, every file's problems are reported and what did load is checked.
    let (model, load_errors) = load_partial(&args.inputs, io);
    let selection = args.items.select(&model)?;
    // With items or -l, baseline entries about items left out were not looked at.
    let partial = selection.is_some();
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
    // Annotations, SARIF regions and text lines point at the field at fault.
    let max_bytes = args.inputs.options().max_input_bytes;
    let check = check.at_fields(|file, queries| load::field_lines(file, queries, max_bytes));
    if let Some(path) = &args.write_baseline {
        return write_baseline(path, &check, io);
    }
    let check = match &args.baseline {
        Some(path) => {
            let baseline = read_baseline(path)?;
            let judged = |entry: &baseline::Entry| {
                !partial
                    || check
                        .checked
                        .iter()
                        .any(|item| entry.object.as_ref() == Some(&item.object))
            };
            let comparison = baseline::compare(&check, &baseline, judged);
            check.with_baseline(comparison)
        }
        None => check,
    };
    let text = match args.output {
        CheckFormat::Text => render::text(&check),
        CheckFormat::Json => render::json(&check)?,
        CheckFormat::Github => render::github(&check),
        CheckFormat::Junit => junit(&check),
        CheckFormat::Sarif => sarif(&check)?,
        CheckFormat::Markdown => render::markdown(&check),
    };
    write(io.stdout, &text)?;
    Ok(match check.result {
        CheckResult::Errors => ExitCode::Error,
        CheckResult::Unsatisfied => ExitCode::Unsatisfied,
        CheckResult::Clean => ExitCode::Success,
    })
}

/// `--write-baseline`: every finding of `check`, as a baseline file (all of it or nothing).
fn write_baseline(path: &Path, check: &CheckReport, io: &mut Io<'_>) -> Result<ExitCode, Error> {
    let baseline = Baseline::of(check);
    let yaml = crate::yaml11::to_string(&baseline).map_err(|error| Error::Flag {
        flag: "--write-baseline",
        message: error.to_string(),
    })?;
    let text = format!("{}{yaml}", baseline::HEADER);
    write_file_with(path, |out| Ok(out.write_all(text.as_bytes())?))?;
    let entries = baseline.findings.len();
    write(
        io.stdout,
        &format!(
            "{}: baseline of {entries} finding{} written ({} checked)\n",
            path.display(),
            if entries == 1 { "" } else { "s" },
            match check.items {
                1 => "1 item".to_string(),
                n => format!("{n} items"),
            }
        ),
    )?;
    Ok(ExitCode::Success)
}

/// The baseline at `path`: a missing or unreadable one is an error, never an empty baseline.
fn read_baseline(path: &Path) -> Result<Baseline, Error> {
    let error = |message: String| Error::Flag {
        flag: "--baseline",
        message: format!("{}: {message}", path.display()),
    };
    let text = std::fs::read_to_string(path).map_err(|e| error(e.to_string()))?;
    let baseline: Baseline = serde_yaml::from_str(&text).map_err(|e| error(e.to_string()))?;
    baseline
        .check_type()
        .map_err(|wrong| error(wrong.to_string()))?;
    Ok(baseline)
}
