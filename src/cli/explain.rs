//! `fleetplan explain -f PATH... [KIND/][NAMESPACE/]NAME [--cluster NAME] [-o table|json]
//! [what-if flags]`

use clap::{Args, ValueEnum};

use super::inputs::{InputArgs, WhatIfArgs};
use super::plan::plan_inputs;
use super::{report, write, Io};
use crate::exit_code::ExitCode;
use crate::plan::{self, ItemSource, PlanOptions, Trace};
use crate::render::explain;

#[derive(Debug, Args)]
pub struct ExplainArgs {
    #[command(flatten)]
    inputs: InputArgs,

    #[command(flatten)]
    what_if: WhatIfArgs,

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
pub enum ExplainFormat {
    /// A summary, then each cluster's verdict and reason.
    Table,
    /// The same as JSON; placements also carry upstream's debug shape.
    Json,
}

pub fn run(args: ExplainArgs, io: &mut Io<'_>) -> ExitCode {
    let Some((model, run)) = plan_inputs(&args.inputs, &args.what_if, Trace::Full, io) else {
        return ExitCode::Error;
    };
    let sources: Vec<ItemSource> = model
        .workloads
        .iter()
        .map(|workload| ItemSource::from(&workload.object))
        .collect();
    let index = match explain::find_item(&sources, &args.item) {
        Ok(index) => index,
        Err(message) => {
            report(io, &format!("error: {message}"));
            return ExitCode::Error;
        }
    };
    // The item as `plan` plans it, alone: a full trace of every item of a large fleet would
    // not fit in memory.
    let outcome = plan::build_item(
        &model,
        &PlanOptions {
            previous: run.previous.as_ref(),
            now: run.now,
            trace: run.trace,
            enforce_spread: run.enforce_spread,
        },
        index,
    );
    let clusters = &model.inventory.clusters;
    if let Some(cluster) = &args.cluster {
        let known = model
            .workloads
            .get(index)
            .map(|workload| model.fleet_names(workload))
            .unwrap_or_default();
        if let Err(message) = explain::find_cluster(&known, cluster) {
            report(io, &format!("error: {message}"));
            return ExitCode::Error;
        }
    }
    let (Some(item), Some(trace), Some(workload)) = (
        outcome.plan.items.first(),
        outcome.traces.first(),
        model.workloads.get(index),
    ) else {
        return ExitCode::Error;
    };
    let prefix = format!("{}: {}: ", workload.source, workload.object);
    for warning in outcome.warnings.iter().filter(|w| w.starts_with(&prefix)) {
        report(io, &format!("warning: {warning}"));
    }
    for error in &item.errors {
        report(io, &format!("error: {prefix}{error}"));
    }

    let mut explanation = explain::explain(item, trace, clusters);
    if let Some(cluster) = &args.cluster {
        explanation.narrow(cluster);
    }
    let text = match args.output {
        ExplainFormat::Table => explain::text(&explanation, io.width),
        ExplainFormat::Json => explain::json(&explanation),
    };
    let status = write(io.stdout, &text);
    if item.errors.is_empty() {
        status
    } else {
        ExitCode::Error
    }
}
