//! `fleetplan diff -f PATH... --previous PLAN [-o text|json|markdown|github] [what-if flags]`
//!
//! Exit codes follow terraform's `-detailed-exitcode`: 0 no change, 2 changes, 1 error. An
//! item error is an error even when the diff is printed.

use clap::{Args, ValueEnum};

use super::args::{InputArgs, VerdictArgs, WhatIfArgs};
use super::context::{Diagnostics, RunContext};
use super::error::Error;
use super::io::{write, Io};
use crate::diff;
use crate::exit_code::ExitCode;
use crate::model::{Model, Previous};
use crate::plan::Trace;
use crate::render::diff as render;
use crate::verdict::{self, Nothing, Scope, NOT_EVALUATED};

#[derive(Debug, Args)]
pub(super) struct DiffArgs {
    #[command(flatten)]
    pub(super) inputs: InputArgs,

    #[command(flatten)]
    pub(super) what_if: WhatIfArgs,

    #[command(flatten)]
    verdict: VerdictArgs,

    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value_t = DiffFormat::Text)]
    output: DiffFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum DiffFormat {
    /// What changed per item, then a unified diff of the two plans' YAML.
    Text,
    /// The change set as JSON (`{}` when nothing changed).
    Json,
    /// A pull-request comment: the summary and a table, then each item's changes (long ones
    /// folded in <details>).
    Markdown,
    /// GitHub Actions annotations (`::notice file=…::…`) on each item's file, then the summary.
    Github,
}

pub(super) fn run(args: DiffArgs, color: bool, io: &mut Io<'_>) -> Result<ExitCode, Error> {
    let context = RunContext::load(&args.inputs, &args.what_if, Trace::Plan, io)?;
    let Some(previous) = context.previous() else {
        return Err(Error::MissingFlag("--previous"));
    };
    let model = &context.model;
    let scope = Scope::new(args.verdict.manifests_only);
    let nothing = match verdict::require(model, scope) {
        // Items only in the previous plan were all removed: that is a comparison.
        Err(Nothing::NoItems) if scope == Scope::Placements && !previous.is_empty() => None,
        result => result.err(),
    };
    if let Some(nothing) = nothing {
        return Err(nothing.into());
    }
    if scope == Scope::ManifestsOnly {
        let items = model.workloads.len();
        let text = format!(
            "{NOT_EVALUATED}: {items} item{} and the previous plan read, nothing was compared\n",
            if items == 1 { "" } else { "s" }
        );
        write(io.stdout, &text)?;
        return Ok(ExitCode::Success);
    }
    let outcome = context.plan(Diagnostics::All, io);
    // PlacementDecisions say only which clusters each Placement chose: compare just that.
    let (previous, current) = match previous {
        Previous::Plan(plan) => (plan.clone(), outcome.plan.clone()),
        Previous::Decisions(decisions) => diff::decisions_view(decisions, &outcome.plan),
    };
    let changes = diff::compare(&previous, &current);
    let text = match args.output {
        DiffFormat::Text => render::text(&changes, &previous, &current, color)?,
        DiffFormat::Json => render::json(&changes)?,
        DiffFormat::Markdown => render::markdown(&changes),
        DiffFormat::Github => render::github(&changes, &sources(model)),
    };
    write(io.stdout, &text)?;
    Ok(if outcome.has_errors() {
        ExitCode::Error
    } else if changes.is_empty() {
        ExitCode::Success
    } else {
        ExitCode::Changes
    })
}

/// Where each workload was read, for annotations.
fn sources(model: &Model) -> render::Sources {
    model
        .workloads
        .iter()
        .map(|workload| (workload.object.to_string(), workload.source.clone()))
        .collect()
}
