//! Comparing a plan with the decision objects a live hub exported. Decisions carry only which
//! clusters a Placement chose (and an older OCM placement's `status.decisions` which clusters
//! the rule chose), so the current plan is cut down to the same: the items the export names,
//! their clusters only. Items the export does not name (federation workloads, placements outside
//! the export) are not compared.

use std::collections::BTreeMap;

use crate::model::{ClusterNames, PreviousDecision};
use crate::plan::{ObjectRef, Plan, PlanItem};
use crate::registry::previous_decision_owner;

/// `(previous, current)` ready for `compare`: what the `decisions` say each object chose,
/// beside the current plan as they would show it ([`view`]).
pub(crate) fn decisions_view(decisions: &[PreviousDecision], current: &Plan) -> (Plan, Plan) {
    view(&chosen(decisions), current)
}

/// What the decisions say each object chose, as plan items of clusters only: the union of
/// each object's decisions (a Placement's decision objects, an older OCM placement's own), sorted
/// by object.
fn chosen(decisions: &[PreviousDecision]) -> Plan {
    let mut items: BTreeMap<ObjectRef, Vec<String>> = BTreeMap::new();
    for decision in decisions {
        items
            .entry(previous_decision_owner(decision))
            .or_default()
            .extend(decision.clusters.iter().cloned());
    }
    Plan {
        items: items
            .into_iter()
            .map(|(source, mut clusters)| {
                clusters.sort();
                clusters.dedup();
                PlanItem {
                    source,
                    clusters: clusters.into(),
                    ..PlanItem::default()
                }
            })
            .collect(),
        ..Plan::default()
    }
}

/// `(previous, current)` ready for `compare`: the current plan as the hub's decision objects
/// would show it, beside `previous` (a plan of clusters only, [`chosen`]). Items are matched by
/// kind, namespace and name, because decisions do not say which apiVersion their Placement
/// has (v1alpha1 or v1beta1); a matched pair takes the current item's source. A previous
/// item with no current one stays, and shows as removed.
fn view(previous: &Plan, current: &Plan) -> (Plan, Plan) {
    let current_items: BTreeMap<Key<'_>, &PlanItem> = current
        .items
        .iter()
        .map(|item| (key(&item.source), item))
        .collect();
    let mut previous_view = Plan::default();
    let mut current_view = Plan::default();
    for item in &previous.items {
        match current_items.get(&key(&item.source)) {
            Some(now) => {
                previous_view
                    .items
                    .push(clusters_only(&now.source, &item.clusters));
                current_view
                    .items
                    .push(clusters_only(&now.source, &now.clusters));
            }
            None => previous_view
                .items
                .push(clusters_only(&item.source, &item.clusters)),
        }
    }
    (previous_view, current_view)
}

type Key<'a> = (&'a str, Option<&'a str>, &'a str);

fn key(source: &ObjectRef) -> Key<'_> {
    (&source.kind, source.namespace.as_deref(), &source.name)
}

fn clusters_only(source: &ObjectRef, clusters: &ClusterNames) -> PlanItem {
    PlanItem {
        source: source.clone(),
        clusters: clusters.clone(),
        ..PlanItem::default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::compare::compare;
    use super::*;
    use crate::model::ConditionStatus;
    use crate::testing::{plan, replica_set, source, with_condition, with_replicas};

    const V1BETA1: &str = "cluster.open-cluster-management.io/v1beta1";
    const APPS_V1: &str = "apps.open-cluster-management.io/v1";

    fn placement(api_version: &str, name: &str, clusters: &[&str]) -> PlanItem {
        PlanItem {
            source: source(api_version, "Placement", Some("shop"), name),
            clusters: clusters.iter().map(|cluster| cluster.to_string()).collect(),
            ..PlanItem::default()
        }
    }

    /// A Placement's decisions are compared as the union of their clusters; a
    /// PlacementRule's `status.decisions` as its own.
    #[test]
    fn each_object_s_decisions_are_the_clusters_it_chose() {
        let decision =
            |api_version: &str, kind: &str, name: &str, placement: &str, clusters: &[&str]| {
                PreviousDecision {
                    object: source(api_version, kind, Some("shop"), name),
                    placement: placement.to_string(),
                    clusters: clusters.iter().map(|cluster| cluster.to_string()).collect(),
                    source: Default::default(),
                }
            };
        let decisions = [
            decision(
                V1BETA1,
                "PlacementDecision",
                "web-decision-2",
                "web",
                &["C", "A"],
            ),
            decision(
                V1BETA1,
                "PlacementDecision",
                "web-decision-1",
                "web",
                &["B", "A"],
            ),
            decision(APPS_V1, "PlacementRule", "rule", "rule", &["B"]),
        ];
        let rule = PlanItem {
            source: source(APPS_V1, "PlacementRule", Some("shop"), "rule"),
            clusters: ["B".to_string()].into_iter().collect(),
            ..PlanItem::default()
        };
        assert_eq!(
            chosen(&decisions),
            plan(vec![rule, placement(V1BETA1, "web", &["A", "B", "C"])])
        );
    }

    #[test]
    fn items_the_decisions_do_not_name_are_left_out() {
        let previous = plan(vec![placement(V1BETA1, "web", &["A"])]);
        let current = plan(vec![
            with_replicas(replica_set("frontend", &["A"]), &[("A", 3)]),
            placement(V1BETA1, "web", &["A"]),
            placement(V1BETA1, "batch", &["B"]),
        ]);
        let (previous_view, current_view) = view(&previous, &current);
        assert_eq!(previous_view, previous);
        assert_eq!(current_view, previous);
    }

    #[test]
    fn only_clusters_are_compared() {
        let previous = plan(vec![placement(V1BETA1, "web", &["A", "B"])]);
        let current = plan(vec![with_condition(
            placement(V1BETA1, "web", &["A", "C"]),
            "PlacementSatisfied",
            ConditionStatus::True,
            "AllDecisionsScheduled",
            "",
        )]);
        let (previous_view, current_view) = view(&previous, &current);
        assert_eq!(
            current_view,
            plan(vec![placement(V1BETA1, "web", &["A", "C"])])
        );
        let diff = compare(&previous_view, &current_view);
        let [change] = diff.items_changed.as_slice() else {
            panic!("expected one changed item, found {diff:?}");
        };
        assert_eq!(change.clusters_added, ["C"]);
        assert_eq!(change.clusters_removed, ["B"]);
        assert!(change.conditions.is_empty());
    }

    #[test]
    fn a_placement_of_another_api_version_is_the_same_item() {
        let alpha = "cluster.open-cluster-management.io/v1alpha1";
        let previous = plan(vec![placement(V1BETA1, "web", &["A"])]);
        let current = plan(vec![placement(alpha, "web", &["A"])]);
        let (previous_view, current_view) = view(&previous, &current);
        assert_eq!(previous_view, current);
        assert!(compare(&previous_view, &current_view).is_empty());
    }

    #[test]
    fn a_placement_gone_from_the_inputs_is_removed() {
        let gone = placement(V1BETA1, "old", &["A"]);
        let (previous_view, current_view) = view(&plan(vec![gone.clone()]), &plan(vec![]));
        assert_eq!(compare(&previous_view, &current_view).items_removed, [gone]);
    }
}
