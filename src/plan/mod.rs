//! The Plan document (versioned, stable) and the per-workload combination of the engines.

mod document;
mod federation;
mod fleet;
mod trace;

use std::collections::HashMap;

pub use document::{Condition, Group, ItemSource, Plan, PlanItem, API_VERSION, KIND};
pub use fleet::Fleet;
pub use trace::{ItemTrace, SelectionRule, SelectionTrace};

use crate::model::{Model, Workload, WorkloadKind};

/// What a plan run may take besides the model.
#[derive(Clone, Debug, Default)]
pub struct PlanOptions<'a> {
    /// A previous plan: current replicas for `rebalance: false`, previous decisions for OCM.
    pub previous: Option<&'a Plan>,
    /// Unix seconds; toleration expiry is judged against it.
    pub now: i64,
}

/// A plan with, per item (same order), the trace `explain` renders.
#[derive(Clone, Debug)]
pub struct PlanOutcome {
    pub plan: Plan,
    pub traces: Vec<ItemTrace>,
    /// `file#document: kind/namespace/name: message` for every item error.
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

impl PlanOutcome {
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }
}

/// One item, as an engine produced it.
struct Planned {
    item: PlanItem,
    trace: ItemTrace,
    warnings: Vec<String>,
}

impl Planned {
    fn failed(workload: &Workload, message: String) -> Planned {
        Planned {
            item: PlanItem {
                source: (&workload.object).into(),
                errors: vec![message],
                ..PlanItem::default()
            },
            trace: ItemTrace::Failed,
            warnings: Vec::new(),
        }
    }

    fn selection(workload: &Workload, fleet: &Fleet, selection: SelectionTrace) -> Planned {
        let mut clusters: Vec<String> = fleet
            .names(&selection.selected)
            .into_iter()
            .map(str::to_string)
            .collect();
        clusters.sort();
        Planned {
            item: PlanItem {
                source: (&workload.object).into(),
                clusters,
                ..PlanItem::default()
            },
            trace: ItemTrace::Selection(selection),
            warnings: Vec::new(),
        }
    }
}

/// Plans every workload of the model. Items keep the model's workload order, which the
/// loader sorted by (apiVersion group, kind, namespace, name).
pub fn build(model: &Model, options: &PlanOptions) -> PlanOutcome {
    let fleet = Fleet::new(&model.inventory.clusters);
    let previous: HashMap<&ItemSource, &PlanItem> = options
        .previous
        .map(|plan| plan.items.iter().map(|item| (&item.source, item)).collect())
        .unwrap_or_default();
    let targets: HashMap<(&str, Option<&str>, &str), &Workload> = model
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
        .collect();

    let mut outcome = PlanOutcome {
        plan: Plan::default(),
        traces: Vec::with_capacity(model.workloads.len()),
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    for workload in &model.workloads {
        let source = ItemSource::from(&workload.object);
        let previous_item = previous.get(&source).copied();
        let planned = match &workload.kind {
            WorkloadKind::Annotated {
                replica_set_preferences,
                replicas,
            } => federation::annotated(
                &fleet,
                workload,
                replica_set_preferences.as_deref(),
                *replicas,
                previous_item,
            ),
            WorkloadKind::Federated(placement) => {
                federation::federated(&fleet, workload, placement)
            }
            WorkloadKind::ReplicaSchedulingPreference(spec) => {
                let object = &workload.object;
                let target = targets
                    .get(&(
                        spec.target_kind.as_str(),
                        object.namespace.as_deref(),
                        object.name.as_str(),
                    ))
                    .copied();
                federation::replica_scheduling_preference(
                    &fleet,
                    workload,
                    spec,
                    target,
                    previous_item,
                )
            }
            WorkloadKind::Placement(_) | WorkloadKind::PlacementRule(_) => {
                Planned::failed(workload, "OCM placement is not planned yet".to_string())
            }
        };
        for error in &planned.item.errors {
            outcome
                .errors
                .push(format!("{}: {}: {error}", workload.source, workload.object));
        }
        outcome.warnings.extend(planned.warnings);
        outcome.plan.items.push(planned.item);
        outcome.traces.push(planned.trace);
    }
    outcome
}
