//! One file per placement API: how its workloads become plan items. [`plan`] is the registry,
//! one arm per API.

mod federation;
pub(super) mod karmada;
mod kubefed;
pub(super) mod placement;
mod placement_rule;
mod replicas;

use crate::model::{Workload, WorkloadKind};
use crate::selector::SelectorError;

use super::{Planned, Run};

/// A selector a workload's clusters cannot be chosen by, named by the field it was read
/// from: the item fails closed, as the federation controllers placed it nowhere.
#[derive(Debug, thiserror::Error)]
#[error("{field}: {error}")]
struct SelectionError {
    field: &'static str,
    error: SelectorError,
}

/// Plans one workload with its API's engine.
pub(super) fn plan<'a>(run: &Run<'_, 'a>, workload: &'a Workload) -> Planned<'a> {
    match &workload.kind {
        WorkloadKind::Annotated {
            replica_set_preferences,
            replicas,
        } => federation::plan(run, workload, replica_set_preferences.as_deref(), *replicas),
        WorkloadKind::Federated(placement) => kubefed::federated(run, workload, placement),
        WorkloadKind::ReplicaSchedulingPreference(spec) => {
            kubefed::replica_scheduling_preference(run, workload, spec)
        }
        WorkloadKind::Placement(spec) => placement::plan(run, workload, spec),
        WorkloadKind::PlacementRule(spec) => placement_rule::plan(run, workload, spec),
        WorkloadKind::Karmada(resource) => karmada::plan(run, workload, resource),
        // Planned after the placements it references (`plan::plan_consumers`), never here.
        WorkloadKind::Consumer(_) => Planned::failed(
            workload,
            "a placement consumer is planned through its placements".to_string(),
        ),
    }
}
