//! The federated ReplicaSet planner after a federation or kubefed selection: what both APIs'
//! replica workloads share.

use std::collections::BTreeMap;

use crate::model::preferences::ReplicaPreferences;
use crate::model::{Condition, ConditionStatus, PlanItem, Workload};
use crate::replicas::{self, PlannerInput};

use crate::plan::trace::{ItemTrace, SelectionTrace};
use crate::plan::{Diagnostic, DiagnosticKind, Planned, Run, Trace};

pub(crate) fn plan<'a>(
    run: &Run<'_, 'a>,
    workload: &Workload,
    selection: SelectionTrace,
    preferences: &ReplicaPreferences,
    total: i64,
) -> Planned<'a> {
    let fleet = run.fleet;
    let previous = run.previous_item(workload);
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
    let (result, planner) = if run.options.trace >= Trace::Table {
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
            Diagnostic::about(
                workload,
                DiagnosticKind::Inconsistent,
                format!("preferences for {name:?}: minReplicas exceeds maxReplicas (accepted, as the reference planner does)"),
            )
        })
        .collect();
    let item = PlanItem {
        source: workload.object.clone(),
        clusters: clusters.into(),
        replicas: owned_non_zero(result.replicas()),
        overflow: owned_non_zero(result.overflow()),
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

fn owned_non_zero<'a>(counts: impl Iterator<Item = (&'a str, i64)>) -> BTreeMap<String, i64> {
    counts
        .filter(|&(_, count)| count != 0)
        .map(|(name, count)| (name.to_string(), count))
        .collect()
}

/// Unassigned replicas are no error upstream; the plan states them as a condition.
fn assigned_condition(total: i64, unassigned: i64) -> Condition {
    let (status, reason, message) = if unassigned > 0 {
        (
            ConditionStatus::False,
            "ReplicasUnassigned",
            format!("{unassigned} of {total} replicas left unassigned"),
        )
    } else {
        (
            ConditionStatus::True,
            "AllReplicasAssigned",
            format!("{total} of {total} replicas assigned"),
        )
    };
    Condition {
        type_: "ReplicasAssigned".to_string(),
        status,
        reason: reason.to_string(),
        message,
    }
}
