//! `fleetplan plan -f PATH... [ITEM...|-l SELECTOR] [-o table|yaml|json|decisions|bindings|name]
//! [--out FILE] [what-if flags]`

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::args::{InputArgs, ItemArgs, WhatIfArgs};
use super::context::{Diagnostics, RunContext};
use super::error::Error;
use super::io::{report, write_file_with, write_with, Io};
use crate::exit_code::ExitCode;
use crate::plan::{self, Trace};
use crate::registry::ObjectOutput;
use crate::render;
use crate::render::plan::Output;
use crate::verdict::{self, PLANNED_KINDS};

#[derive(Debug, Args)]
pub(super) struct PlanArgs {
    #[command(flatten)]
    pub(super) inputs: InputArgs,

    #[command(flatten)]
    pub(super) what_if: WhatIfArgs,

    #[command(flatten)]
    items: ItemArgs,

    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value_t = PlanFormat::Table)]
    output: PlanFormat,

    /// Only what lands on cluster NAME: every item of every engine (Placements,
    /// PlacementRules, consumers, kubefed, Karmada, replica workloads), with its chain. The
    /// blast radius of taking NAME down.
    #[arg(long, value_name = "NAME")]
    cluster: Option<String>,

    /// Write the output to FILE (atomically: a failed run leaves FILE as it was).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum PlanFormat {
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

pub(super) fn run(args: PlanArgs, io: &mut Io<'_>) -> Result<ExitCode, Error> {
    let trace = match args.output {
        PlanFormat::Table => Trace::Table,
        PlanFormat::Decisions | PlanFormat::Bindings => Trace::Objects,
        PlanFormat::Yaml | PlanFormat::Json | PlanFormat::Name => Trace::Plan,
    };
    let context = RunContext::load(&args.inputs, &args.what_if, trace, io)?;
    // `-o name` lists the items (what shell completion offers) and says nothing of clusters.
    if args.output != PlanFormat::Name {
        verdict::clusters_to_plan(&context.model)?;
    }
    if let Some(cluster) = &args.cluster {
        let (known, searched) = plan::every_cluster(&context.model);
        plan::find_cluster(&known, searched, cluster)?;
    }
    let selection = args.items.select(&context.model)?;
    let context = context.select(selection);
    let outcome = context.plan(Diagnostics::All, io);
    let outcome = match &args.cluster {
        Some(cluster) => outcome.landing_on(cluster),
        None => outcome,
    };
    let output = match (args.output, &args.cluster) {
        (PlanFormat::Table, Some(cluster)) => Output::Landing(cluster),
        (PlanFormat::Table, None) => Output::Table(io.width),
        (PlanFormat::Yaml, _) => Output::Yaml,
        (PlanFormat::Json, _) => Output::Json,
        (PlanFormat::Decisions, _) => Output::Objects(ObjectOutput::Decisions),
        (PlanFormat::Bindings, _) => Output::Objects(ObjectOutput::Bindings),
        (PlanFormat::Name, _) => Output::Names,
    };
    // Streamed as the items are rendered: a large fleet's plan is hundreds of megabytes.
    let stream = |out: &mut dyn std::io::Write| render::plan::stream(output, &outcome, out);
    // One bad manifest never hides the rest: the whole plan is printed, and the exit code
    // says some item failed. A file is another matter: a failed run leaves the last good
    // plan in place, so a pipeline never picks up a partial one.
    match &args.out {
        Some(path) if outcome.has_errors() => return Err(Error::NotWritten(path.clone())),
        Some(path) => write_file_with(path, stream)?,
        None => write_with(io.stdout, stream)?,
    }
    // An empty table is easy to read as "everything is fine"; say that nothing was planned,
    // as kubectl says "No resources found" (machine formats carry their empty item list).
    if args.output == PlanFormat::Table && outcome.plan.items.is_empty() {
        // Item arguments and `-l` that select nothing are already errors.
        report(
            io,
            &format!("no items planned: the inputs hold no {PLANNED_KINDS}"),
        );
    }
    let code = if outcome.has_errors() {
        ExitCode::Error
    } else {
        ExitCode::Success
    };
    // The process ends right after this: handing a large fleet's millions of small
    // allocations back to the allocator one by one would only add to the run's wall time
    // (about a tenth of it at 100k clusters).
    std::mem::forget(outcome);
    std::mem::forget(context);
    Ok(code)
}
