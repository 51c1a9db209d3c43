//! kubefed: a `Federated*` object placed by `spec.placement`, and a
//! `ReplicaSchedulingPreference` that plans its target's replicas.

use crate::kubefed::model::FederatedPlacement;
use crate::kubefed::model::RspSpec;
use crate::model::{Workload, WorkloadKind};
use crate::selector::{ClusterBits, Selector};

use crate::plan::federated_fleet::FederatedFleet;
use crate::plan::items::{annotation_selection, replicas, SelectionError};
use crate::plan::trace::{SelectionRule, SelectionTrace};
use crate::plan::{Planned, Run};

/// A kubefed `Federated*` object: `spec.placement.clusters` wins over `clusterSelector`.
pub(crate) fn federated<'a>(
    run: &Run<'_, 'a>,
    workload: &Workload,
    placement: &FederatedPlacement,
) -> Planned<'a> {
    match selection(run.fleet, placement) {
        Ok(selection) => Planned::selection(workload, run.fleet, selection),
        Err(error) => Planned::failed(workload, error.to_string()),
    }
}

/// A kubefed `ReplicaSchedulingPreference`. With `intersectWithClusterSelector` it only uses
/// the clusters its same-named target (of `targetKind`) selects.
pub(crate) fn replica_scheduling_preference<'a>(
    run: &Run<'_, 'a>,
    workload: &Workload,
    spec: &RspSpec,
) -> Planned<'a> {
    let fleet = run.fleet;
    let object = &workload.object;
    let target = run.targets.get(
        spec.target_kind.as_str(),
        object.namespace.as_deref(),
        object.name.as_str(),
    );
    let selection = if spec.intersect_with_cluster_selector {
        let Some(target) = target else {
            return Planned::failed(
                workload,
                format!(
                    "intersectWithClusterSelector: target {}/{}/{} not found in the inputs",
                    spec.target_kind,
                    workload.object.namespace.as_deref().unwrap_or(""),
                    workload.object.name
                ),
            );
        };
        let chosen = match &target.kind {
            WorkloadKind::Federated(placement) => selection(fleet, placement),
            _ => annotation_selection(fleet, target),
        };
        match chosen {
            Ok(chosen) => SelectionTrace {
                rule: SelectionRule::Target {
                    target: target.object.to_string(),
                    rule: Box::new(chosen.rule),
                },
                selected: chosen.selected,
            },
            Err(error) => {
                return Planned::failed(workload, format!("target {}: {error}", target.object))
            }
        }
    } else {
        SelectionTrace {
            rule: SelectionRule::Everything,
            selected: fleet.online().clone(),
        }
    };
    let (preferences, total) = (&spec.preferences, spec.total_replicas);
    replicas::plan(run, workload, selection, preferences, total)
}

fn selection(
    fleet: &FederatedFleet,
    placement: &FederatedPlacement,
) -> Result<SelectionTrace, SelectionError> {
    Ok(match placement {
        FederatedPlacement::Clusters(names) => {
            let ids = names.iter().filter_map(|name| fleet.id(name));
            let mut selected = ClusterBits::from_ids(fleet.clusters.len(), ids);
            selected.and_assign(fleet.online());
            SelectionTrace {
                rule: SelectionRule::ClusterNames(names.clone()),
                selected,
            }
        }
        FederatedPlacement::Selector(None) => SelectionTrace {
            rule: SelectionRule::NoSelector,
            selected: ClusterBits::empty(fleet.clusters.len()),
        },
        FederatedPlacement::Selector(Some(spec)) => {
            let selector =
                Selector::from_label_selector(Some(spec)).map_err(|error| SelectionError {
                    field: "spec.placement.clusterSelector",
                    error,
                })?;
            SelectionTrace {
                selected: fleet.online_matching(&selector),
                rule: SelectionRule::LabelSelector(selector),
            }
        }
    })
}
