//! Small plans for the diff tests.

use crate::plan::{Condition, Group, ItemSource, Plan, PlanItem};

pub(crate) fn source(
    api_version: &str,
    kind: &str,
    namespace: Option<&str>,
    name: &str,
) -> ItemSource {
    ItemSource {
        api_version: api_version.to_string(),
        kind: kind.to_string(),
        namespace: namespace.map(str::to_string),
        name: name.to_string(),
    }
}

/// A `ReplicaSet` in `default` selecting `clusters`.
pub(crate) fn replica_set(name: &str, clusters: &[&str]) -> PlanItem {
    PlanItem {
        source: source("apps/v1", "ReplicaSet", Some("default"), name),
        clusters: clusters.iter().map(|cluster| cluster.to_string()).collect(),
        ..PlanItem::default()
    }
}

pub(crate) fn with_replicas(mut item: PlanItem, replicas: &[(&str, i64)]) -> PlanItem {
    item.replicas = replicas
        .iter()
        .map(|(cluster, count)| (cluster.to_string(), *count))
        .collect();
    item
}

pub(crate) fn group(index: usize, name: &str, clusters: &[&str]) -> Group {
    Group {
        name: name.to_string(),
        index,
        clusters: clusters.iter().map(|cluster| cluster.to_string()).collect(),
    }
}

pub(crate) fn with_condition(
    mut item: PlanItem,
    type_: &str,
    status: &str,
    reason: &str,
    message: &str,
) -> PlanItem {
    item.conditions.push(Condition {
        type_: type_.to_string(),
        status: status.to_string(),
        reason: reason.to_string(),
        message: message.to_string(),
    });
    item
}

pub(crate) fn plan(items: Vec<PlanItem>) -> Plan {
    Plan {
        items,
        ..Plan::default()
    }
}

/// (previous, current) of an item whose `PlacementSatisfied` message alone changed.
pub(crate) fn condition_message_moved() -> (PlanItem, PlanItem) {
    let with_message = |message| {
        with_condition(
            replica_set("p", &["A"]),
            "PlacementSatisfied",
            "True",
            "R",
            message,
        )
    };
    (with_message("2 clusters"), with_message("3 clusters"))
}
