//! The Plan document (versioned, stable) and the per-workload combination of the engines.

pub(crate) mod diagnostic;
pub(crate) mod federated_fleet;
pub(crate) mod items;
mod lookup;
pub(crate) mod trace;
mod whatif;

use std::sync::OnceLock;

use foldhash::HashMap;

pub(crate) use crate::model::Condition;
pub(crate) use crate::model::{ObjectRef, Plan, PlanItem};
pub(crate) use crate::registry::every_cluster;
pub(crate) use diagnostic::{Diagnostic, Kind as DiagnosticKind};
pub(crate) use federated_fleet::FederatedFleet;
pub(crate) use lookup::{find_cluster, find_item, LookupError};
pub use trace::ItemTrace;
pub(crate) use trace::{Engine, SelectionRule, SelectionTrace};
pub(crate) use whatif::{close_matches, TaintEdit, WhatIf, WhatIfError};

use crate::model::{ClusterIndex, Model, Previous, Workload};
use crate::parallel;
use crate::registry::{Dependents, Hubs};

/// What a plan run may take besides the model.
#[derive(Clone, Debug)]
pub struct PlanOptions<'a> {
    /// What `--previous` held: a previous plan (current replicas for `rebalance: false`,
    /// previous decisions for OCM), or a hub's previous decisions.
    pub previous: Option<&'a Previous>,
    /// Unix seconds; toleration expiry is judged against it.
    pub now: i64,
    pub trace: Trace,
    /// Enforce Placements' spreadPolicy, a fleetplan extension (the OCM scheduler does not).
    pub enforce_spread: bool,
    /// What only planning needs (the placement consumers' routes and index) is left to the
    /// process's exit rather than freed on the thread that plans, as
    /// [`LoadOptions::left_to_exit`](crate::load::LoadOptions) does for loading: for a process
    /// that exits after its run (the CLI). 10k Policies' routes took ~4 ms to free, serially.
    pub left_to_exit: bool,
}

impl PlanOptions<'_> {
    /// A first plan judged at `now` (no previous plan, spreadPolicy as the hub ignores it),
    /// recording `trace`: how callers without a command line (tests, benchmarks, fuzzing)
    /// plan. The CLI builds its options in `Scenario::plan_options`.
    pub fn at(now: i64, trace: Trace) -> Self {
        PlanOptions {
            previous: None,
            now,
            trace,
            enforce_spread: false,
            left_to_exit: false,
        }
    }
}

/// How much of each engine's reasoning a run keeps besides the plan, each level keeping what
/// the one before it keeps. A placement's full trace holds a verdict for every cluster of the
/// fleet: 100k clusters × 10k placements would not fit in memory, so only `explain`, which
/// plans one item, asks for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Trace {
    /// The plan alone (the plan documents, `diff`, `check`, `migrate --verify`): no item's
    /// trace is kept ([`ItemTrace::NotKept`]), so a placement's scores and decision objects
    /// are freed as soon as its item is made, not held to the end of the run.
    #[default]
    Plan,
    /// What the outputs that write an API's objects read (`-o decisions`, `-o bindings`):
    /// each item's trace.
    Objects,
    /// What the plan table shows: the replica planner's view of each cluster. (A placement's
    /// trace holds its selected clusters' scores at every level that keeps traces.)
    Table,
    /// Every cluster's verdict and scores, and upstream's debug shape (`explain`).
    Full,
}

/// A plan with, per item (same order), the trace `explain` renders.
#[derive(Clone, Debug)]
pub struct PlanOutcome<'a> {
    pub plan: Plan,
    pub traces: Vec<ItemTrace<'a>>,
    /// Every item error and problem.
    pub errors: Vec<Diagnostic>,
    /// Errors of objects that are not plan items (a policy binding whose placementRef
    /// resolves to nothing), also in `errors`.
    pub problems: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

impl PlanOutcome<'_> {
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// Only the items that land on `cluster` (of every engine), with their traces: the
    /// blast radius of taking it down. Errors and warnings are kept.
    pub fn landing_on(mut self, cluster: &str) -> Self {
        let items = std::mem::take(&mut self.plan.items);
        let traces = std::mem::take(&mut self.traces);
        for (item, trace) in items.into_iter().zip(traces) {
            if item.clusters.binary_search(cluster).is_ok() {
                self.plan.items.push(item);
                self.traces.push(trace);
            }
        }
        self
    }
}

/// One item, as an engine produced it.
pub(crate) struct Planned<'a> {
    pub(crate) item: PlanItem,
    pub(crate) trace: ItemTrace<'a>,
    pub(crate) warnings: Vec<Diagnostic>,
}

impl<'a> Planned<'a> {
    /// The item without its trace, for a run that keeps none.
    pub(crate) fn untraced(self) -> Planned<'a> {
        Planned {
            trace: ItemTrace::NotKept,
            ..self
        }
    }

    pub(crate) fn failed(workload: &Workload, message: String) -> Planned<'a> {
        Planned {
            item: PlanItem {
                source: workload.object.clone(),
                errors: vec![message],
                ..PlanItem::default()
            },
            trace: ItemTrace::Failed,
            warnings: Vec::new(),
        }
    }

    pub(crate) fn selection(
        workload: &Workload,
        fleet: &FederatedFleet,
        selection: SelectionTrace,
    ) -> Planned<'a> {
        let mut clusters: Vec<String> = fleet
            .names(&selection.selected)
            .into_iter()
            .map(str::to_string)
            .collect();
        clusters.sort();
        Planned {
            item: PlanItem {
                source: workload.object.clone(),
                clusters: clusters.into(),
                ..PlanItem::default()
            },
            trace: ItemTrace::Selection(selection),
            warnings: Vec::new(),
        }
    }
}

/// Plans every workload of the model. Items keep the model's workload order, which the
/// loader sorted by (apiVersion group, kind, namespace, name).
pub fn build<'a>(model: &'a Model, options: &PlanOptions) -> PlanOutcome<'a> {
    let workloads: Vec<&Workload> = model.workloads.iter().collect();
    build_workloads(model, options, &workloads)
}

/// Plans the workload at `index` alone (see [`build_items`]).
pub fn build_item<'a>(model: &'a Model, options: &PlanOptions, index: usize) -> PlanOutcome<'a> {
    build_items(model, options, &[index])
}

/// Plans the workloads at `indices` (in that order) as [`build`] would: items are
/// independent given the run's indexes, which are built from the whole model, so `explain`
/// traces one item and `plan ITEM…` plans a few without tracing or planning the whole fleet.
pub(crate) fn build_items<'a>(
    model: &'a Model,
    options: &PlanOptions,
    indices: &[usize],
) -> PlanOutcome<'a> {
    let workloads: Vec<&Workload> = indices
        .iter()
        .filter_map(|&index| model.workloads.get(index))
        .collect();
    build_workloads(model, options, &workloads)
}

fn build_workloads<'a>(
    model: &'a Model,
    options: &PlanOptions,
    workloads: &[&'a Workload],
) -> PlanOutcome<'a> {
    std::thread::scope(|scope| {
        // The dependents are resolved from the model alone: on another core while this one
        // indexes the inventory (10k placement consumers' index and routes are ~10 ms of one
        // core). No thread to be had: they are resolved here when needed.
        let dependents = std::thread::Builder::new()
            .spawn_scoped(scope, || Dependents::new(model, workloads))
            .ok();
        // The inventory is indexed once per run, for every engine that plans over it.
        let clusters = ClusterIndex::new(&model.inventory.clusters);
        let decisions = crate::registry::run_decisions(model, options.previous);
        let hubs = Hubs::new(model, options.now, &clusters, &decisions);
        let fleet = FederatedFleet::new(&model.inventory.clusters, &clusters);
        let previous: HashMap<&ObjectRef, &PlanItem> = match options.previous {
            Some(Previous::Plan(plan)) => {
                plan.items.iter().map(|item| (&item.source, item)).collect()
            }
            _ => HashMap::default(),
        };
        let targets = Targets::new(model);
        let run = Run {
            model,
            options,
            fleet: &fleet,
            hubs: &hubs,
            previous: &previous,
            targets: &targets,
        };
        let dependents = match dependents {
            Some(resolving) => resolving
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            None => Dependents::new(model, workloads),
        };
        // A trace nothing reads is dropped as soon as its item is made (10k placements'
        // decision objects and scores are tens of megabytes), unless a dependent reads it
        // when it lands through the item (an Argo CD application set reads a placement's
        // decision objects).
        let keep = options.trace > Trace::Plan;
        // Items are independent given the run's indexes: planned on every core, in order. A
        // dependent (a placement consumer) is planned after the items it lands through.
        let mut planned: Vec<Option<Planned>> = parallel::map_in_order(workloads, |workload| {
            (!Dependents::is_dependent(workload)).then(|| {
                let planned = run.item(workload);
                if keep || dependents.reads_trace(workload) {
                    planned
                } else {
                    planned.untraced()
                }
            })
        });
        let whole = workloads.len() == model.workloads.len();
        let (mut problems, problem_warnings) =
            dependents.plan(&run, workloads, &mut planned, whole);
        problems.extend(crate::registry::problems(model));
        outcome(workloads, planned, keep, problems, problem_warnings)
    })
}

/// Each workload by (kind, namespace, name): what a replica scheduling preference names.
/// Indexed the first time one asks: most runs have none, and indexing 10k Policies with their
/// Placements was ~2.5 ms of the thread every other waits for.
pub(crate) struct Targets<'a> {
    model: &'a Model,
    index: OnceLock<HashMap<Identity<'a>, &'a Workload>>,
}

/// A workload's (kind, namespace, name).
type Identity<'a> = (&'a str, Option<&'a str>, &'a str);

impl<'a> Targets<'a> {
    fn new(model: &'a Model) -> Targets<'a> {
        Targets {
            model,
            index: OnceLock::new(),
        }
    }

    /// The workload of `kind` named `name` in `namespace` (the last one read, if several).
    pub(crate) fn get(
        &self,
        kind: &str,
        namespace: Option<&str>,
        name: &str,
    ) -> Option<&'a Workload> {
        let index = self.index.get_or_init(|| {
            self.model
                .workloads
                .iter()
                .map(|workload| {
                    let object = &workload.object;
                    (
                        (
                            object.kind.as_str(),
                            object.namespace.as_deref(),
                            object.name.as_str(),
                        ),
                        workload,
                    )
                })
                .collect()
        });
        index.get(&(kind, namespace, name)).copied()
    }
}

/// The run's outcome: each workload's planned item in order (its trace only when `keep`), its
/// errors, then the run-wide `problems` and warnings.
fn outcome<'a>(
    workloads: &[&'a Workload],
    planned: Vec<Option<Planned<'a>>>,
    keep: bool,
    problems: Vec<Diagnostic>,
    problem_warnings: Vec<Diagnostic>,
) -> PlanOutcome<'a> {
    let mut outcome = PlanOutcome {
        // Sized once: an item is large to move, and these grow on one core.
        plan: Plan {
            items: Vec::with_capacity(workloads.len()),
            ..Plan::default()
        },
        traces: Vec::with_capacity(workloads.len()),
        errors: Vec::new(),
        problems: Vec::new(),
        warnings: Vec::new(),
    };
    for (workload, planned) in workloads.iter().zip(planned) {
        let planned = planned.unwrap_or_else(|| {
            Planned::failed(
                workload,
                "a placement consumer that was not planned".to_string(),
            )
        });
        let planned = if keep { planned } else { planned.untraced() };
        for error in &planned.item.errors {
            outcome.errors.push(Diagnostic::about(
                workload,
                DiagnosticKind::ItemFailed,
                error.clone(),
            ));
        }
        outcome.warnings.extend(planned.warnings);
        outcome.plan.items.push(planned.item);
        outcome.traces.push(planned.trace);
    }
    outcome.errors.extend(problems.iter().cloned());
    outcome.problems = problems;
    outcome.warnings.extend(problem_warnings);
    outcome
}

/// What every item of one plan run shares.
pub(crate) struct Run<'r, 'a> {
    pub(crate) model: &'a Model,
    pub(crate) options: &'r PlanOptions<'r>,
    pub(crate) fleet: &'r FederatedFleet<'a, 'r>,
    /// What each API computes once per run over its own objects.
    pub(crate) hubs: &'r Hubs<'r, 'a>,
    /// The items of a previous Plan, by object.
    pub(crate) previous: &'r HashMap<&'r ObjectRef, &'r PlanItem>,
    pub(crate) targets: &'r Targets<'a>,
}

impl<'a> Run<'_, 'a> {
    pub(crate) fn item(&self, workload: &'a Workload) -> Planned<'a> {
        crate::registry::plan(self, workload)
    }

    /// The item a previous Plan holds for this workload.
    pub(crate) fn previous_item(&self, workload: &Workload) -> Option<&PlanItem> {
        self.previous.get(&workload.object.clone()).copied()
    }
}
