//! The validated run every planning subcommand shares. As ripgrep turns its raw flags into one
//! validated configuration, the shared flags ([`super::args`]) become a [`Scenario`] (the
//! what-if flags, the previous plan, the time) and, with the loaded model, a [`RunContext`]
//! that plans. This is the one place the clock is read, the one place [`PlanOptions`] is
//! built, and the one place load → what-if → plan → warnings is written.

use super::args::{InputArgs, WhatIfArgs};
use super::error::Error;
use super::io::{object_diagnostic, plan_diagnostic, report, Io, Level};
use crate::load::{self, LoadError};
use crate::model::time::parse_rfc3339;
use crate::model::{Model, Previous, Workload};
use crate::plan::{self, PlanOptions, PlanOutcome, Trace, WhatIf};

/// The what-if flags, validated, with the previous plan they name.
pub(super) struct Scenario {
    previous: Option<Previous>,
    what_if: WhatIf,
    /// Unix seconds the run is judged at: `--now`, else the clock.
    now: i64,
    enforce_spread: bool,
}

impl Scenario {
    /// The what-if flags, validated; `--previous` is read under the inputs' limits.
    pub(super) fn new(
        flags: &WhatIfArgs,
        inputs: &InputArgs,
        io: &mut Io<'_>,
    ) -> Result<Self, Error> {
        let now = match &flags.now {
            Some(text) => parse_rfc3339(text).map_err(|error| Error::Flag {
                flag: "--now",
                message: error.to_string(),
            })?,
            None => current_time(),
        };
        let previous_error = |message: String| Error::Flag {
            flag: "--previous",
            message,
        };
        let previous = match &flags.previous {
            // Standard input can be read once, as with `-f - -f -`.
            Some(path) if path == "-" && inputs.filenames.iter().any(|name| name == "-") => {
                return Err(previous_error(format!(
                    "{}: standard input (-) given more than once (-f - reads it)",
                    load::STDIN_NAME
                )));
            }
            Some(path) => Some(
                load::previous_plan_limited(path, io.stdin, &inputs.options())
                    .map_err(|errors| previous_error(errors.to_string()))?,
            ),
            None => None,
        };
        Ok(Scenario {
            previous,
            what_if: flags.what_if()?,
            now,
            enforce_spread: flags.enforce_spread_policy,
        })
    }

    /// The scenario of a subcommand without what-if flags: no previous plan, judged now.
    pub(super) fn current() -> Self {
        Scenario {
            previous: None,
            what_if: WhatIf::default(),
            now: current_time(),
            enforce_spread: false,
        }
    }

    /// How the engines plan this scenario, recording `trace`.
    pub(super) fn plan_options(&self, trace: Trace) -> PlanOptions<'_> {
        PlanOptions {
            previous: self.previous.as_ref(),
            now: self.now,
            trace,
            enforce_spread: self.enforce_spread,
            // The CLI exits after its run, and forgets the outcome too (`cli::plan`).
            left_to_exit: true,
        }
    }
}

/// The model with the scenario applied, ready to plan.
pub(super) struct RunContext {
    pub model: Model,
    scenario: Scenario,
    trace: Trace,
    /// The workloads to plan, by index; `None` for all (see [`super::args::ItemArgs`]).
    selection: Option<Vec<usize>>,
}

/// Which of a plan's diagnostics go to stderr.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Diagnostics {
    /// Warnings and item errors.
    All,
    /// Warnings only: the caller reports item errors itself (`check`, as findings).
    Warnings,
}

impl RunContext {
    /// Validates the what-if flags, loads the inputs and applies the flags to them.
    pub(super) fn load(
        inputs: &InputArgs,
        what_if: &WhatIfArgs,
        trace: Trace,
        io: &mut Io<'_>,
    ) -> Result<Self, Error> {
        let scenario = Scenario::new(what_if, inputs, io)?;
        let model = load_model(inputs, io)?;
        RunContext::new(model, scenario, trace)
    }

    /// Applies the scenario's what-if flags to a loaded model.
    pub(super) fn new(mut model: Model, scenario: Scenario, trace: Trace) -> Result<Self, Error> {
        scenario.what_if.apply(&mut model, scenario.now)?;
        Ok(RunContext {
            model,
            scenario,
            trace,
            selection: None,
        })
    }

    /// What `--previous` held.
    pub(super) fn previous(&self) -> Option<&Previous> {
        self.scenario.previous.as_ref()
    }

    /// When the upstream controllers would act on each `--taint` (`explain` says it).
    pub(super) fn taint_notes(&self) -> Vec<String> {
        let taints = &self.scenario.what_if.taints;
        taints
            .iter()
            .map(|taint| taint.when_upstream_acts(&self.model))
            .collect()
    }

    /// Plans only the workloads at `selection` (`None`: all of them).
    pub(super) fn select(mut self, selection: Option<Vec<usize>>) -> Self {
        self.selection = selection;
        self
    }

    /// The workloads [`RunContext::plan`] plans, in plan order.
    pub(super) fn workloads(&self) -> Vec<&Workload> {
        selected(&self.model, self.selection.as_deref())
    }

    /// Plans every selected workload, reporting its `diagnostics` on stderr.
    pub(super) fn plan(&self, diagnostics: Diagnostics, io: &mut Io<'_>) -> PlanOutcome<'_> {
        let options = self.scenario.plan_options(self.trace);
        let outcome = match &self.selection {
            Some(indices) => plan::build_items(&self.model, &options, indices),
            None => plan::build(&self.model, &options),
        };
        for warning in &outcome.warnings {
            plan_diagnostic(io, Level::Warning, warning);
        }
        if diagnostics == Diagnostics::All {
            for error in &outcome.errors {
                plan_diagnostic(io, Level::Error, error);
            }
        }
        outcome
    }

    /// Plans the workload at `index` alone, as [`RunContext::plan`] plans it; the caller
    /// reports what concerns it.
    pub(super) fn plan_item(&self, index: usize) -> PlanOutcome<'_> {
        plan::build_item(&self.model, &self.scenario.plan_options(self.trace), index)
    }
}

/// The workloads of `model` at `selection` (`None`: all), in plan order.
pub(super) fn selected<'m>(model: &'m Model, selection: Option<&[usize]>) -> Vec<&'m Workload> {
    match selection {
        Some(indices) => indices
            .iter()
            .filter_map(|&index| model.workloads.get(index))
            .collect(),
        None => model.workloads.iter().collect(),
    }
}

/// Loads the model, reporting warnings (and skipped documents with --verbose) on stderr.
pub(super) fn load_model(inputs: &InputArgs, io: &mut Io<'_>) -> Result<Model, Error> {
    let model = load::load(&inputs.filenames, io.stdin, &inputs.options())?;
    notes(inputs, &model, io);
    Ok(model)
}

/// Every object that loaded, and every error for the caller to report (`check` reports them
/// as findings); warnings and skipped documents as [`load_model`] does.
pub(super) fn load_partial(inputs: &InputArgs, io: &mut Io<'_>) -> (Model, Vec<LoadError>) {
    let (model, errors) = load::load_partial(&inputs.filenames, io.stdin, &inputs.options());
    notes(inputs, &model, io);
    (model, errors)
}

fn notes(inputs: &InputArgs, model: &Model, io: &mut Io<'_>) {
    for warning in &model.warnings {
        object_diagnostic(io, Level::Warning, warning);
    }
    if inputs.verbose {
        for (source, what) in &model.skipped {
            report(io, &format!("skipped {source}: {what}"));
        }
        for source in &model.not_objects {
            report(
                io,
                &format!("skipped {source}: not a Kubernetes object (no apiVersion or kind)"),
            );
        }
        for (path, what) in &model.skipped_files {
            report(io, &format!("skipped {path}: {what}"));
        }
    }
}

/// The clock is read here, at the edge: engines take time as an input.
fn current_time() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| {
            i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX)
        })
}
