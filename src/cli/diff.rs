//! `fleetplan diff -f PATH... --previous PLAN [-o text|json] [what-if flags]`
//!
//! Exit codes follow terraform's `-detailed-exitcode`: 0 no change, 2 changes, 1 error. An
//! item error is an error even when the diff is printed.

use clap::{Args, ValueEnum};

use super::args::{InputArgs, VerdictArgs, WhatIfArgs};
use super::context::{Diagnostics, RunContext};
use super::error::Error;
use super::io::{write, Io};
use crate::diff::{self, PlanDiff};
use crate::exit_code::ExitCode;
use crate::load::PreviousKind;
use crate::plan::{Plan, Trace};
use crate::render;
use crate::verdict::{self, Nothing, Scope, NOT_EVALUATED};

#[derive(Debug, Args)]
pub struct DiffArgs {
    #[command(flatten)]
    inputs: InputArgs,

    #[command(flatten)]
    what_if: WhatIfArgs,

    #[command(flatten)]
    verdict: VerdictArgs,

    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value_t = DiffFormat::Text)]
    output: DiffFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// What changed per item, then a unified diff of the two plans' YAML.
    Text,
    /// The change set as JSON (`{}` when nothing changed).
    Json,
}

pub fn run(args: DiffArgs, color: bool, io: &mut Io<'_>) -> Result<ExitCode, Error> {
    let context = RunContext::load(&args.inputs, &args.what_if, Trace::Plan, io)?;
    let Some((previous, previous_kind)) = context.previous() else {
        return Err(Error::MissingFlag("--previous"));
    };
    let model = &context.model;
    let scope = Scope::new(args.verdict.manifests_only);
    let nothing = match verdict::require(model, scope) {
        // Items only in the previous plan were all removed: that is a comparison.
        Err(Nothing::NoItems) if scope == Scope::Placements && !previous.items.is_empty() => None,
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
    let (previous, current) = match previous_kind {
        PreviousKind::Plan => (previous.clone(), outcome.plan.clone()),
        PreviousKind::Decisions => diff::decisions_view(previous, &outcome.plan),
    };
    let changes = diff::compare(&previous, &current);
    let text = match args.output {
        DiffFormat::Text => text(&changes, &previous, &current, color),
        DiffFormat::Json => json(&changes),
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

/// The summary, then (when something changed) the unified diff of the two plans' YAML.
fn text(changes: &PlanDiff, previous: &Plan, current: &Plan, color: bool) -> String {
    let mut text = diff::render_text(changes, color);
    if !changes.is_empty() {
        let unified = diff::unified_yaml_diff(
            &render::plan::yaml(previous),
            &render::plan::yaml(current),
            color,
        );
        if !unified.is_empty() {
            text.push('\n');
            text.push_str(&unified);
        }
    }
    text
}

fn json(changes: &PlanDiff) -> String {
    // Plain structs of strings, integers and maps always serialize.
    let mut text = serde_json::to_string_pretty(changes).unwrap_or_default();
    text.push('\n');
    text
}
