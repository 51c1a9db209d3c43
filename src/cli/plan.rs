//! `fleetplan plan -f PATH... [-o table|yaml|json|decisions] [--out FILE] [what-if flags]`

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::inputs::{InputArgs, WhatIfArgs};
use super::{report, write, Io};
use crate::exit_code::ExitCode;
use crate::output::write_atomic;
use crate::plan::{self, PlanOptions, PlanOutcome, Trace};
use crate::render;

#[derive(Debug, Args)]
pub struct PlanArgs {
    #[command(flatten)]
    inputs: InputArgs,

    #[command(flatten)]
    what_if: WhatIfArgs,

    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value_t = PlanFormat::Table)]
    output: PlanFormat,

    /// Write the output to FILE (atomically: a failed run leaves FILE as it was).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlanFormat {
    /// Per item: its clusters, replicas, scores and what is unsatisfied.
    Table,
    /// The Plan document (fleetplan.io/v1alpha1) as YAML.
    Yaml,
    /// The Plan document as JSON.
    Json,
    /// Apply-ready PlacementDecision objects for the OCM Placements.
    Decisions,
    /// The ResourceBindings karmada-scheduler would write for the Karmada resources.
    Bindings,
    /// One `Kind/namespace/name` per item, in plan order (what `explain` takes).
    Name,
}

/// Loads the inputs, applies the what-if flags and plans: what plan, explain, diff and check
/// share. `None` means an error was reported and the run stops with exit code 1.
pub fn plan_inputs(
    inputs: &InputArgs,
    what_if: &WhatIfArgs,
    trace: Trace,
    io: &mut Io<'_>,
) -> Option<(crate::model::Model, PlanRun)> {
    let scenario = match what_if.scenario(inputs, io) {
        Ok(scenario) => scenario,
        Err(message) => {
            report(io, &format!("error: {message}"));
            return None;
        }
    };
    let mut model = inputs.load(io)?;
    if let Err(message) = scenario.what_if.apply(&mut model) {
        report(io, &format!("error: {message}"));
        return None;
    }
    Some((
        model,
        PlanRun {
            previous: scenario.previous,
            previous_kind: scenario.previous_kind,
            now: scenario.now,
            trace,
            enforce_spread: scenario.enforce_spread,
        },
    ))
}

/// Everything besides the model that a plan run takes.
pub struct PlanRun {
    pub previous: Option<plan::Plan>,
    pub previous_kind: crate::load::PreviousKind,
    pub now: i64,
    pub trace: Trace,
    pub enforce_spread: bool,
}

impl PlanRun {
    pub fn build<'m>(&self, model: &'m crate::model::Model, io: &mut Io<'_>) -> PlanOutcome<'m> {
        let outcome = plan::build(
            model,
            &PlanOptions {
                previous: self.previous.as_ref(),
                now: self.now,
                trace: self.trace,
                enforce_spread: self.enforce_spread,
            },
        );
        for warning in &outcome.warnings {
            report(io, &format!("warning: {warning}"));
        }
        for error in &outcome.errors {
            report(io, &format!("error: {error}"));
        }
        outcome
    }
}

pub fn run(args: PlanArgs, io: &mut Io<'_>) -> ExitCode {
    let trace = if args.output == PlanFormat::Table {
        Trace::Table
    } else {
        Trace::Plan
    };
    let Some((model, run)) = plan_inputs(&args.inputs, &args.what_if, trace, io) else {
        return ExitCode::Error;
    };
    let outcome = run.build(&model, io);
    let text = match args.output {
        PlanFormat::Table => render::plan::table(&outcome, io.width),
        PlanFormat::Yaml => render::plan::yaml(&outcome.plan),
        PlanFormat::Json => render::plan::json(&outcome.plan),
        PlanFormat::Decisions => render::decisions::yaml(&outcome),
        PlanFormat::Bindings => render::bindings::yaml(&outcome),
        PlanFormat::Name => render::plan::names(&outcome.plan),
    };
    // One bad manifest never hides the rest: the whole plan is printed, and the exit code
    // says some item failed. A file is another matter: a failed run leaves the last good
    // plan in place, so a pipeline never picks up a partial one.
    let status = match &args.out {
        Some(path) if outcome.has_errors() => {
            report(
                io,
                &format!(
                    "error: {}: not written, the plan has errors",
                    path.display()
                ),
            );
            ExitCode::Error
        }
        Some(path) => match write_atomic(path, text.as_bytes()) {
            Ok(()) => ExitCode::Success,
            Err(error) => {
                report(io, &format!("error: {}: {error}", path.display()));
                return ExitCode::Error;
            }
        },
        None => write(io.stdout, &text),
    };
    let code = if outcome.has_errors() {
        ExitCode::Error
    } else {
        status
    };
    // The process ends right after this: handing a large fleet's millions of small
    // allocations back to the allocator one by one would only add to the run's wall time
    // (about a tenth of it at 100k clusters).
    std::mem::forget(outcome);
    std::mem::forget(model);
    code
}
