//! Items for federation v1 annotations and kubefed objects: cluster selection, then the replica
//! planner where the workload asks for replicas.

use std::collections::BTreeMap;

use crate::model::preferences::ReplicaPreferences;
use crate::model::{FederatedPlacement, Workload};
use crate::replicas::{self, parse_replica_set_preferences, PlannerInput};
use crate::selector::{ClusterBits, Selector};

use super::document::{Condition, PlanItem};
use super::fleet::Fleet;
use super::trace::{ItemTrace, SelectionRule, SelectionTrace};
use super::Planned;

/// An object placed by its `federation.alpha.kubernetes.io/cluster-selector` annotation (or
/// everywhere without one), with replicas when it carries replica-set-preferences.
pub fn annotated(
    fleet: &Fleet,
    workload: &Workload,
    preferences: Option<&str>,
    replicas: i64,
    previous: Option<&PlanItem>,
) -> Planned {
    let selection = match annotation_selection(fleet, workload) {
        Ok(selection) => selection,
        Err(message) => return Planned::failed(workload, message),
    };
    let Some(preferences) = preferences else {
        return Planned::selection(workload, fleet, selection);
    };
    match parse_replica_set_preferences(preferences) {
        Ok(preferences) => {
            plan_replicas(fleet, workload, selection, &preferences, replicas, previous)
        }
        Err(error) => Planned::failed(
            workload,
            format!(
                "annotation {}: {error}",
                replicas::REPLICA_SET_PREFERENCES_ANNOTATION
            ),
        ),
    }
}

/// A kubefed `Federated*` object: `spec.placement.clusters` wins over `clusterSelector`.
pub fn federated(fleet: &Fleet, workload: &Workload, placement: &FederatedPlacement) -> Planned {
    match federated_selection(fleet, placement) {
        Ok(selection) => Planned::selection(workload, fleet, selection),
        Err(message) => Planned::failed(workload, message),
    }
}

/// A kubefed `ReplicaSchedulingPreference`. With `intersectWithClusterSelector` it only uses
/// the clusters its same-named target (of `targetKind`) selects.
pub fn replica_scheduling_preference(
    fleet: &Fleet,
    workload: &Workload,
    spec: &crate::model::preferences::RspSpec,
    target: Option<&Workload>,
    previous: Option<&PlanItem>,
) -> Planned {
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
            crate::model::WorkloadKind::Federated(placement) => {
                federated_selection(fleet, placement)
            }
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
            Err(message) => {
                return Planned::failed(workload, format!("target {}: {message}", target.object))
            }
        }
    } else {
        SelectionTrace {
            rule: SelectionRule::Everything,
            selected: fleet.online().clone(),
        }
    };
    plan_replicas(
        fleet,
        workload,
        selection,
        &spec.preferences,
        spec.total_replicas,
        previous,
    )
}

fn annotation_selection(fleet: &Fleet, workload: &Workload) -> Result<SelectionTrace, String> {
    let Some(annotation) = &workload.cluster_selector else {
        return Ok(SelectionTrace {
            rule: SelectionRule::Everything,
            selected: fleet.online().clone(),
        });
    };
    // Fail closed: the federation controllers placed an object with a bad annotation nowhere.
    let selector = Selector::from_annotation(annotation).map_err(|error| {
        format!("annotation federation.alpha.kubernetes.io/cluster-selector: {error}")
    })?;
    Ok(SelectionTrace {
        selected: fleet.online_matching(&selector),
        rule: SelectionRule::Annotation(selector),
    })
}

fn federated_selection(
    fleet: &Fleet,
    placement: &FederatedPlacement,
) -> Result<SelectionTrace, String> {
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
            let selector = Selector::from_label_selector(Some(spec))
                .map_err(|error| format!("spec.placement.clusterSelector: {error}"))?;
            SelectionTrace {
                selected: fleet.online_matching(&selector),
                rule: SelectionRule::LabelSelector(selector),
            }
        }
    })
}

fn plan_replicas(
    fleet: &Fleet,
    workload: &Workload,
    selection: SelectionTrace,
    preferences: &ReplicaPreferences,
    total: i64,
    previous: Option<&PlanItem>,
) -> Planned {
    let available = fleet.names(&selection.selected);
    let capacity: BTreeMap<String, i64> = available
        .iter()
        .filter_map(|name| fleet.id(name))
        .filter_map(|id| fleet.clusters.get(id))
        .filter_map(|cluster| Some((cluster.name.clone(), cluster.replica_capacity?)))
        .collect();
    let no_current = BTreeMap::new();
    let current = previous.map_or(&no_current, |item| &item.replicas);
    let key = workload.object.key();
    let result = replicas::plan(&PlannerInput {
        total,
        key: &key,
        preferences,
        available: &available,
        current,
        capacity: &capacity,
    });
    let clusters: Vec<String> = result
        .trace
        .clusters
        .iter()
        .filter(|cluster| cluster.source != replicas::PreferenceSource::None)
        .map(|cluster| cluster.cluster.clone())
        .collect();
    let assigned = total.saturating_sub(result.unassigned);
    let condition = if result.unassigned > 0 {
        Condition {
            type_: "ReplicasAssigned".to_string(),
            status: "False".to_string(),
            reason: "ReplicasUnassigned".to_string(),
            message: format!("{} of {total} replicas left unassigned", result.unassigned),
        }
    } else {
        Condition {
            type_: "ReplicasAssigned".to_string(),
            status: "True".to_string(),
            reason: "AllReplicasAssigned".to_string(),
            message: format!("{assigned} of {total} replicas assigned"),
        }
    };
    let warnings = preferences
        .min_above_max()
        .map(|name| {
            format!(
                "{}: {}: preferences for {name:?}: minReplicas exceeds maxReplicas (accepted, as the reference planner does)",
                workload.source, workload.object
            )
        })
        .collect();
    let mut item = PlanItem {
        source: (&workload.object).into(),
        clusters,
        replicas: result
            .replicas
            .into_iter()
            .filter(|(_, count)| *count != 0)
            .collect(),
        overflow: result.overflow,
        conditions: vec![condition],
        ..PlanItem::default()
    };
    item.clusters.sort();
    Planned {
        item,
        trace: ItemTrace::Replicas {
            selection,
            planner: result.trace,
        },
        warnings,
    }
}
