//! Items for federation v1 annotations and kubefed objects: cluster selection, then the replica
//! planner where the workload asks for replicas.

use std::collections::BTreeMap;

use crate::model::preferences::ReplicaPreferences;
use crate::model::{FederatedPlacement, Workload};
use crate::replicas::{self, parse_replica_set_preferences, PlannerInput};
use crate::selector::{ClusterBits, Selector};

use super::fleet::Fleet;
use super::trace::{ItemTrace, SelectionRule, SelectionTrace};
use super::Planned;
use crate::model::Condition;
use crate::model::PlanItem;

/// An object placed by its `federation.alpha.kubernetes.io/cluster-selector` annotation (or
/// everywhere without one), with replicas when it carries replica-set-preferences.
pub fn annotated<'a>(
    fleet: &Fleet<'a, '_>,
    workload: &Workload,
    preferences: Option<&str>,
    replicas: i64,
    previous: Option<&PlanItem>,
    trace: bool,
) -> Planned<'a> {
    let selection = match annotation_selection(fleet, workload) {
        Ok(selection) => selection,
        Err(message) => return Planned::failed(workload, message),
    };
    let Some(preferences) = preferences else {
        return Planned::selection(workload, fleet, selection);
    };
    match parse_replica_set_preferences(preferences) {
        Ok(preferences) => plan_replicas(
            fleet,
            workload,
            selection,
            &preferences,
            replicas,
            previous,
            trace,
        ),
        Err(error) => Planned::failed(workload, error.to_string()),
    }
}

/// A kubefed `Federated*` object: `spec.placement.clusters` wins over `clusterSelector`.
pub fn federated<'a>(
    fleet: &Fleet<'a, '_>,
    workload: &Workload,
    placement: &FederatedPlacement,
) -> Planned<'a> {
    match federated_selection(fleet, placement) {
        Ok(selection) => Planned::selection(workload, fleet, selection),
        Err(message) => Planned::failed(workload, message),
    }
}

/// A kubefed `ReplicaSchedulingPreference`. With `intersectWithClusterSelector` it only uses
/// the clusters its same-named target (of `targetKind`) selects.
pub fn replica_scheduling_preference<'a>(
    fleet: &Fleet<'a, '_>,
    workload: &Workload,
    spec: &crate::model::preferences::RspSpec,
    target: Option<&Workload>,
    previous: Option<&PlanItem>,
    trace: bool,
) -> Planned<'a> {
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
        trace,
    )
}

fn annotation_selection(
    fleet: &Fleet<'_, '_>,
    workload: &Workload,
) -> Result<SelectionTrace, String> {
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

fn plan_replicas<'a>(
    fleet: &Fleet<'a, '_>,
    workload: &Workload,
    selection: SelectionTrace,
    preferences: &ReplicaPreferences,
    total: i64,
    previous: Option<&PlanItem>,
    trace: bool,
) -> Planned<'a> {
    let available = fleet.names(&selection.selected);
    let no_current = BTreeMap::new();
    let current = previous.map_or(&no_current, |item| &item.replicas);
    let key = workload.object.key();
    let input = PlannerInput {
        total,
        key: &key,
        preferences,
        available: &available,
        current,
        capacity: fleet.capacity(),
    };
    let (result, planner) = if trace {
        let (result, planner) = replicas::plan_with_trace(&input);
        (result, Some(planner))
    } else {
        (replicas::plan(&input), None)
    };
    // Clusters with neither their own entry nor "*" took no part in the plan.
    let wildcard = preferences.clusters.is_empty() || preferences.clusters.contains_key("*");
    let mut clusters: Vec<String> = available
        .iter()
        .filter(|name| wildcard || preferences.clusters.contains_key(**name))
        .map(|name| name.to_string())
        .collect();
    clusters.sort();
    let warnings = preferences
        .min_above_max()
        .map(|name| {
            format!(
                "{}: {}: preferences for {name:?}: minReplicas exceeds maxReplicas (accepted, as the reference planner does)",
                workload.source, workload.object
            )
        })
        .collect();
    let item = PlanItem {
        source: (&workload.object).into(),
        clusters,
        replicas: owned_non_zero(&result.replicas),
        overflow: owned_non_zero(&result.overflow),
        conditions: vec![assigned_condition(total, result.unassigned)],
        ..PlanItem::default()
    };
    Planned {
        item,
        trace: match planner {
            Some(planner) => ItemTrace::Replicas { selection, planner },
            None => ItemTrace::Selection(selection),
        },
        warnings,
    }
}

fn owned_non_zero(counts: &BTreeMap<&str, i64>) -> BTreeMap<String, i64> {
    counts
        .iter()
        .filter(|(_, count)| **count != 0)
        .map(|(name, count)| (name.to_string(), *count))
        .collect()
}

/// Unassigned replicas are no error upstream; the plan states them as a condition.
fn assigned_condition(total: i64, unassigned: i64) -> Condition {
    let (status, reason, message) = if unassigned > 0 {
        (
            "False",
            "ReplicasUnassigned",
            format!("{unassigned} of {total} replicas left unassigned"),
        )
    } else {
        (
            "True",
            "AllReplicasAssigned",
            format!("{total} of {total} replicas assigned"),
        )
    };
    Condition {
        type_: "ReplicasAssigned".to_string(),
        status: status.to_string(),
        reason: reason.to_string(),
        message,
    }
}
