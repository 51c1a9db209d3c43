//! `fleetplan explain -f PATH... [KIND/][NAMESPACE/]NAME [--cluster NAME] [-o table|json]
//! [what-if flags]`

use clap::{Args, ValueEnum};

use super::args::{InputArgs, WhatIfArgs};
use super::context::RunContext;
use super::error::Error;
use super::io::{plan_diagnostic, write, Io, Level};
use crate::exit_code::ExitCode;
use crate::model::Model;
use crate::plan::{self, ObjectRef, Trace};
use crate::render::explain;
use crate::verdict;

#[derive(Debug, Args)]
pub(super) struct ExplainArgs {
    #[command(flatten)]
    pub(super) inputs: InputArgs,

    #[command(flatten)]
    pub(super) what_if: WhatIfArgs,

    /// The item to explain: [KIND/][NAMESPACE/]NAME (kind case-insensitive; plural and
    /// short forms like deploy, rs, cm, rsp work).
    #[arg(value_name = "[KIND/][NAMESPACE/]NAME")]
    item: String,

    /// Only this cluster: one sentence first, then its detail.
    #[arg(long, value_name = "NAME")]
    cluster: Option<String>,

    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value_t = ExplainFormat::Table)]
    output: ExplainFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum ExplainFormat {
    /// A summary, then each cluster's verdict and reason.
    Table,
    /// The same as JSON; placements also carry upstream's debug shape.
    Json,
}

pub(super) fn run(args: ExplainArgs, io: &mut Io<'_>) -> Result<ExitCode, Error> {
    let context = RunContext::load(&args.inputs, &args.what_if, Trace::Full, io)?;
    verdict::clusters_to_plan(&context.model)?;
    let model = &context.model;
    let sources: Vec<ObjectRef> = model
        .workloads
        .iter()
        .map(|workload| workload.object.clone())
        .collect();
    let index = plan::find_item(&sources, &args.item)?;
    // The item as `plan` plans it, alone: a full trace of every item of a large fleet would
    // not fit in memory.
    let outcome = context.plan_item(index);
    let clusters = &model.inventory.clusters;
    if let Some(cluster) = &args.cluster {
        if let Some(workload) = model.workloads.get(index) {
            let known = model.fleet_names(workload);
            plan::find_cluster(&known, Model::fleet_searched(workload), cluster)?;
        }
    }
    let (Some(item), Some(trace), Some(workload)) = (
        outcome.plan.items.first(),
        outcome.traces.first(),
        model.workloads.get(index),
    ) else {
        return Ok(ExitCode::Error);
    };
    for warning in outcome.warnings.iter().filter(|w| w.is_about(workload)) {
        plan_diagnostic(io, Level::Warning, warning);
    }
    // The item's errors, then those of the objects around the placements (a reference that
    // resolves to nothing), which fail a run whatever it selects.
    for error in &outcome.errors {
        plan_diagnostic(io, Level::Error, error);
    }

    let mut explanation = explain::explain(item, trace, clusters);
    explanation.notes.extend(context.taint_notes());
    if let Some(cluster) = &args.cluster {
        explanation.narrow(cluster);
    }
    let text = match args.output {
        ExplainFormat::Table => explain::text(&explanation, io.width),
        ExplainFormat::Json => explain::json(&explanation)?,
    };
    write(io.stdout, &text)?;
    Ok(if outcome.errors.is_empty() {
        ExitCode::Success
    } else {
        ExitCode::Error
    })
}
