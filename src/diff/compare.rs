//! Comparing two plans item by item. Items are matched by their source; everything inside an
//! item is matched by its key (cluster name, group index, condition type), never by position.

use std::collections::BTreeMap;

use super::change_set::{
    ConditionChange, ConditionState, CountChange, ErrorState, ItemChange, PlanDiff,
};
use crate::merge::{join, keyed, set_changes, Side};
use crate::plan::{Condition, ObjectRef, Plan, PlanItem};

/// What changes from `previous` to `current`, in plan order (formats.md: apiVersion group,
/// kind, namespace, name).
pub fn compare(previous: &Plan, current: &Plan) -> PlanDiff {
    fn by_source(plan: &Plan) -> Vec<(PlanOrder<'_>, &PlanItem)> {
        keyed(
            plan.items
                .iter()
                .map(|item| (plan_order(&item.source), item)),
        )
    }
    let mut diff = PlanDiff::default();
    for (_, side) in join(by_source(previous), by_source(current)) {
        match side {
            Side::Previous(item) => diff.items_removed.push(item.clone()),
            Side::Current(item) => diff.items_added.push(item.clone()),
            Side::Both(before, after) if before != after => {
                let change = compare_item(before, after);
                if !change.is_empty() {
                    diff.items_changed.push(change);
                }
            }
            Side::Both(..) => {}
        }
    }
    diff.errors = current.items.iter().map(|item| item.errors.len()).sum();
    diff
}

type PlanOrder<'a> = (&'a str, &'a str, Option<&'a str>, &'a str, &'a str);

/// The plan's item order, with the full apiVersion last so that two versions of one kind stay
/// distinct items.
fn plan_order(source: &ObjectRef) -> PlanOrder<'_> {
    let group = source
        .api_version
        .rsplit_once('/')
        .map_or("", |(group, _version)| group);
    (
        group,
        &source.kind,
        source.namespace.as_deref(),
        &source.name,
        &source.api_version,
    )
}

/// How one item changed; the source is the current item's. Every field of the item is
/// named here, so a field added to `PlanItem` does not compile until the diff compares it:
/// two items that differ never make an empty change ("no changes" about a real change).
fn compare_item(previous: &PlanItem, current: &PlanItem) -> ItemChange {
    let PlanItem {
        source,
        clusters,
        replicas,
        overflow,
        // Each API's own fields, in the item's two slots: compared by the registry's
        // `field_changes`.
        selection: _,
        conditions,
        api: _,
        errors,
    } = current;
    let (clusters_added, clusters_removed) = set_changes(&previous.clusters, clusters);
    let (selection, apis) = crate::registry::field_changes(previous, current);
    let (errors_added, errors_removed) = set_changes(
        previous.errors.iter().map(String::as_str),
        errors.iter().map(String::as_str),
    );
    ItemChange {
        source: source.clone(),
        clusters_added,
        clusters_removed,
        replicas: count_changes(&previous.replicas, replicas),
        overflow: count_changes(&previous.overflow, overflow),
        selection,
        conditions: condition_changes(&previous.conditions, conditions),
        apis,
        errors_added,
        errors_removed,
        error_state: match (previous.errors.is_empty(), errors.is_empty()) {
            (true, false) => Some(ErrorState::Gained),
            (false, true) => Some(ErrorState::Lost),
            _ => None,
        },
    }
}

/// Counts that differ, a missing cluster counting 0 (plans list non-zero counts only).
fn count_changes(
    previous: &BTreeMap<String, i64>,
    current: &BTreeMap<String, i64>,
) -> Vec<CountChange> {
    join(previous, current)
        .filter_map(|(cluster, side)| {
            let (before, after) = match side {
                Side::Previous(before) => (*before, 0),
                Side::Current(after) => (0, *after),
                Side::Both(before, after) => (*before, *after),
            };
            (before != after).then(|| CountChange {
                cluster: cluster.clone(),
                before,
                after,
            })
        })
        .collect()
}

fn condition_changes(previous: &[Condition], current: &[Condition]) -> Vec<ConditionChange> {
    fn by_type(conditions: &[Condition]) -> Vec<(&str, ConditionState)> {
        keyed(
            conditions
                .iter()
                .map(|condition| (condition.type_.as_str(), ConditionState::from(condition))),
        )
    }
    join(by_type(previous), by_type(current))
        .filter_map(|(type_, side)| {
            let (before, after) = side.sides();
            (before != after).then(|| ConditionChange {
                type_: type_.to_string(),
                before,
                after,
            })
        })
        .collect()
}

impl From<&Condition> for ConditionState {
    fn from(condition: &Condition) -> Self {
        ConditionState {
            status: condition.status,
            reason: condition.reason.clone(),
            message: condition.message.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ConditionStatus, ValueChange};
    use crate::testing::{
        condition_message_moved, plan, replica_set, source, with_condition, with_replicas,
    };

    /// The one changed item of a diff between two single-item plans.
    fn item_change(previous: PlanItem, current: PlanItem) -> ItemChange {
        let diff = compare(&plan(vec![previous]), &plan(vec![current]));
        assert!(diff.items_added.is_empty() && diff.items_removed.is_empty());
        match diff.items_changed.as_slice() {
            [change] => change.clone(),
            other => panic!("expected one changed item, found {other:?}"),
        }
    }

    fn strings(values: &[&str]) -> Vec<String> {
        values.iter().map(|value| value.to_string()).collect()
    }

    #[test]
    fn identical_plans_have_no_changes() {
        let item = with_replicas(replica_set("frontend", &["A", "B"]), &[("A", 3), ("B", 2)]);
        let diff = compare(&plan(vec![item.clone()]), &plan(vec![item]));
        assert!(diff.is_empty());
        assert_eq!(serde_json::to_string(&diff).ok().as_deref(), Some("{}"));
    }

    #[test]
    fn items_are_matched_by_source_not_position() {
        let a = replica_set("a", &["A"]);
        let b = replica_set("b", &["B"]);
        let diff = compare(&plan(vec![a.clone(), b.clone()]), &plan(vec![b, a]));
        assert!(diff.is_empty());
    }

    #[test]
    fn an_item_only_in_the_current_plan_is_added() {
        let added = replica_set("new", &["A"]);
        let diff = compare(&plan(vec![]), &plan(vec![added.clone()]));
        assert_eq!(diff.items_added, vec![added]);
        assert!(diff.items_removed.is_empty() && diff.items_changed.is_empty());
    }

    #[test]
    fn another_claiming_policy_or_affinity_term_alone_is_a_change() {
        let mut previous = replica_set("nginx", &["A"]);
        previous.selection.karmada.policy = Some("PropagationPolicy/p/old".to_string());
        previous.selection.karmada.affinity_term = Some("primary".to_string());
        let mut current = previous.clone();
        current.selection.karmada.policy = Some("ClusterPropagationPolicy/new".to_string());
        current.selection.karmada.affinity_term = None;
        let change = item_change(previous, current);
        assert_eq!(
            change.apis.karmada.policy,
            Some(ValueChange {
                before: Some("PropagationPolicy/p/old".to_string()),
                after: Some("ClusterPropagationPolicy/new".to_string()),
            })
        );
        assert_eq!(
            change.apis.karmada.affinity_term,
            Some(ValueChange {
                before: Some("primary".to_string()),
                after: None,
            })
        );
    }

    #[test]
    fn an_item_only_in_the_previous_plan_is_removed() {
        let removed = replica_set("old", &["A"]);
        let diff = compare(&plan(vec![removed.clone()]), &plan(vec![]));
        assert_eq!(diff.items_removed, vec![removed]);
        assert!(diff.items_added.is_empty() && diff.items_changed.is_empty());
    }

    #[test]
    fn another_api_version_is_another_item() {
        let mut previous = replica_set("frontend", &["A"]);
        previous.source.api_version = "extensions/v1beta1".to_string();
        let current = replica_set("frontend", &["A"]);
        let diff = compare(&plan(vec![previous.clone()]), &plan(vec![current.clone()]));
        assert_eq!(diff.items_removed, vec![previous]);
        assert_eq!(diff.items_added, vec![current]);
    }

    #[test]
    fn clusters_added_and_removed_are_sorted_whatever_the_input_order() {
        let change = item_change(
            replica_set("frontend", &["C", "A", "B"]),
            replica_set("frontend", &["E", "A", "D"]),
        );
        assert_eq!(change.clusters_added, strings(&["D", "E"]));
        assert_eq!(change.clusters_removed, strings(&["B", "C"]));
    }

    #[test]
    fn replica_moves_include_clusters_going_to_and_from_zero() {
        let change = item_change(
            with_replicas(
                replica_set("frontend", &["A", "B", "C"]),
                &[("A", 16), ("B", 17), ("C", 17)],
            ),
            with_replicas(
                replica_set("frontend", &["A", "B", "D"]),
                &[("A", 20), ("B", 17), ("D", 13)],
            ),
        );
        let moved = |cluster: &str, before, after| CountChange {
            cluster: cluster.to_string(),
            before,
            after,
        };
        assert_eq!(
            change.replicas,
            vec![moved("A", 16, 20), moved("C", 17, 0), moved("D", 0, 13)]
        );
    }

    #[test]
    fn an_explicit_zero_count_equals_an_absent_one() {
        let previous = with_replicas(replica_set("frontend", &["A"]), &[("A", 0)]);
        let diff = compare(
            &plan(vec![previous]),
            &plan(vec![replica_set("frontend", &["A"])]),
        );
        assert!(diff.is_empty());
    }

    #[test]
    fn overflow_changes_are_listed_per_cluster() {
        let mut previous = replica_set("frontend", &["C"]);
        previous.overflow.insert("C".to_string(), 4);
        let change = item_change(previous, replica_set("frontend", &["C"]));
        assert_eq!(
            change.overflow,
            vec![CountChange {
                cluster: "C".to_string(),
                before: 4,
                after: 0
            }]
        );
    }

    #[test]
    fn a_condition_changing_status_records_both_states() {
        let previous = with_condition(
            replica_set("p", &["A"]),
            "PlacementSatisfied",
            ConditionStatus::True,
            "AllDecisionsScheduled",
            "",
        );
        let current = with_condition(
            replica_set("p", &["A"]),
            "PlacementSatisfied",
            ConditionStatus::False,
            "NotAllDecisionsScheduled",
            "1 of 2",
        );
        let change = item_change(previous, current);
        assert_eq!(
            change.conditions,
            vec![ConditionChange {
                type_: "PlacementSatisfied".to_string(),
                before: Some(ConditionState {
                    status: ConditionStatus::True,
                    reason: "AllDecisionsScheduled".to_string(),
                    message: String::new(),
                }),
                after: Some(ConditionState {
                    status: ConditionStatus::False,
                    reason: "NotAllDecisionsScheduled".to_string(),
                    message: "1 of 2".to_string(),
                }),
            }]
        );
    }

    #[test]
    fn conditions_appearing_and_disappearing_have_one_side() {
        let previous = with_condition(
            replica_set("p", &["A"]),
            "Old",
            ConditionStatus::True,
            "R",
            "",
        );
        let current = with_condition(
            replica_set("p", &["A"]),
            "New",
            ConditionStatus::True,
            "R",
            "",
        );
        let change = item_change(previous, current);
        let sides: Vec<_> = change
            .conditions
            .iter()
            .map(|c| (c.type_.as_str(), c.before.is_some(), c.after.is_some()))
            .collect();
        assert_eq!(sides, vec![("New", false, true), ("Old", true, false)]);
    }

    #[test]
    fn a_condition_message_change_is_a_change() {
        let (previous, current) = condition_message_moved();
        assert_eq!(item_change(previous, current).conditions.len(), 1);
    }

    #[test]
    fn errors_added_and_removed_are_listed() {
        let mut previous = replica_set("p", &[]);
        previous.errors = strings(&["old problem"]);
        let mut current = replica_set("p", &[]);
        current.errors = strings(&["new problem"]);
        let change = item_change(previous, current);
        assert_eq!(change.errors_added, strings(&["new problem"]));
        assert_eq!(change.errors_removed, strings(&["old problem"]));
    }

    #[test]
    fn items_come_out_in_plan_order_whatever_the_input_order() {
        let config_map = PlanItem {
            source: source("v1", "ConfigMap", Some("default"), "settings"),
            ..PlanItem::default()
        };
        let placement = PlanItem {
            source: source(
                "cluster.open-cluster-management.io/v1beta1",
                "Placement",
                Some("ns1"),
                "p",
            ),
            ..PlanItem::default()
        };
        let deployment = PlanItem {
            source: source("apps/v1", "Deployment", None, "d"),
            ..PlanItem::default()
        };
        let replica_set = replica_set("r", &[]);
        let shuffled = vec![
            placement.clone(),
            replica_set.clone(),
            config_map.clone(),
            deployment.clone(),
        ];
        let reversed: Vec<_> = shuffled.iter().rev().cloned().collect();
        let expected = vec![config_map, deployment, replica_set, placement];
        assert_eq!(
            compare(&plan(vec![]), &plan(shuffled)).items_added,
            expected
        );
        assert_eq!(
            compare(&plan(vec![]), &plan(reversed)).items_added,
            expected
        );
    }

    #[test]
    fn swapping_the_plans_swaps_added_and_removed() {
        let previous = plan(vec![replica_set("a", &["A"]), replica_set("b", &["B"])]);
        let current = plan(vec![replica_set("b", &["B"]), replica_set("c", &["C"])]);
        let forward = compare(&previous, &current);
        let backward = compare(&current, &previous);
        assert_eq!(forward.items_added, backward.items_removed);
        assert_eq!(forward.items_removed, backward.items_added);
    }

    #[test]
    fn json_field_names_are_camel_case_and_empty_fields_are_omitted() {
        let mut current = replica_set("frontend", &["A", "D"]);
        current.api.ocm.changes_at = Some("2026-01-01T00:00:00Z".to_string());
        let diff = compare(
            &plan(vec![replica_set("frontend", &["A"])]),
            &plan(vec![current]),
        );
        let json = serde_json::to_value(&diff).ok();
        let expected = serde_json::json!({
            "itemsChanged": [{
                "source": {"apiVersion": "apps/v1", "kind": "ReplicaSet", "namespace": "default", "name": "frontend"},
                "clustersAdded": ["D"],
                "changesAt": {"after": "2026-01-01T00:00:00Z"}
            }]
        });
        assert_eq!(json, Some(expected));
    }

    #[test]
    fn a_large_item_compares_in_linear_time() {
        // 100k clusters: a quadratic scan would take minutes, a merge takes milliseconds.
        let names: Vec<String> = (0..100_000).map(|n| format!("cluster-{n:06}")).collect();
        let mut previous = replica_set("big", &[]);
        previous.clusters = names[..99_999].to_vec().into();
        let mut current = replica_set("big", &[]);
        current.clusters = names[1..].to_vec().into();
        let change = item_change(previous, current);
        assert_eq!(change.clusters_added, strings(&["cluster-099999"]));
        assert_eq!(change.clusters_removed, strings(&["cluster-000000"]));
    }
}
