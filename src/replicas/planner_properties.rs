//! Properties of the planner over generated fleets and preferences.

use std::collections::BTreeMap;

use proptest::prelude::*;

use crate::model::preferences::{ClusterPreferences, ReplicaPreferences};

use super::{fnv1_32, plan, plan_with_trace, PlannerInput};

/// A plan that outlives its input.
#[derive(Debug, PartialEq)]
struct Placed {
    replicas: BTreeMap<String, i64>,
    overflow: BTreeMap<String, i64>,
    unassigned: i64,
}

#[derive(Clone, Debug)]
struct Fleet {
    total: i64,
    key: String,
    preferences: ReplicaPreferences,
    available: Vec<String>,
    current: BTreeMap<String, i64>,
    capacity: BTreeMap<String, i64>,
}

impl Fleet {
    fn with_input<R>(&self, f: impl FnOnce(&PlannerInput) -> R) -> R {
        let available: Vec<&str> = self.available.iter().map(String::as_str).collect();
        f(&PlannerInput {
            total: self.total,
            key: &self.key,
            preferences: &self.preferences,
            available: &available,
            current: &self.current,
            capacity: &self.capacity,
        })
    }

    fn plan(&self) -> Placed {
        self.with_input(|input| {
            let result = plan(input);
            Placed {
                replicas: owned(result.replicas()),
                overflow: owned(result.overflow()),
                unassigned: result.unassigned,
            }
        })
    }

    fn entry(&self, cluster: &str) -> Option<&ClusterPreferences> {
        let clusters = &self.preferences.clusters;
        clusters.get(cluster).or_else(|| clusters.get("*"))
    }
}

fn owned<'a>(counts: impl Iterator<Item = (&'a str, i64)>) -> BTreeMap<String, i64> {
    counts.map(|(k, v)| (k.to_string(), v)).collect()
}

/// Minimum never above maximum: that case is accepted but may exceed max by design.
fn preferences() -> impl Strategy<Value = ClusterPreferences> {
    (0..20i64, proptest::option::of(0..30i64), 0..6i64).prop_map(|(min, extra, weight)| {
        ClusterPreferences::new(min, extra.map(|extra| min + extra), weight)
    })
}

fn fleet() -> impl Strategy<Value = Fleet> {
    proptest::collection::btree_set("[a-f][a-z0-9]{0,3}", 1..9).prop_flat_map(|names| {
        let names: Vec<String> = names.into_iter().collect();
        let n = names.len();
        (
            0..120i64,
            "[a-z/]{0,12}",
            any::<bool>(),
            proptest::collection::vec(proptest::option::of(preferences()), n),
            proptest::option::of(preferences()),
            proptest::collection::vec(proptest::option::of(0..50i64), n),
            proptest::collection::vec(proptest::option::of(0..30i64), n),
            Just(names).prop_shuffle(),
        )
            .prop_map(
                |(total, key, rebalance, own, wildcard, current, capacity, available)| {
                    let mut sorted = available.clone();
                    sorted.sort();
                    let pick = |values: Vec<Option<i64>>| -> BTreeMap<String, i64> {
                        sorted
                            .iter()
                            .zip(values)
                            .filter_map(|(name, v)| v.map(|v| (name.clone(), v)))
                            .collect()
                    };
                    let mut clusters: BTreeMap<String, ClusterPreferences> = sorted
                        .iter()
                        .zip(own)
                        .filter_map(|(name, p)| p.map(|p| (name.clone(), p)))
                        .collect();
                    if let Some(wildcard) = wildcard {
                        clusters.insert("*".to_string(), wildcard);
                    }
                    Fleet {
                        total,
                        key,
                        preferences: ReplicaPreferences {
                            rebalance,
                            clusters,
                        },
                        available,
                        current: pick(current),
                        capacity: pick(capacity),
                    }
                },
            )
    })
}

/// Two taking part clusters that the order cannot tell apart (same weight, same hash).
fn has_exact_tie(fleet: &Fleet) -> bool {
    let mut seen = std::collections::BTreeSet::new();
    let defaulted = fleet.preferences.clusters.is_empty();
    fleet
        .available
        .iter()
        .filter_map(|c| match fleet.entry(c) {
            Some(p) => Some((p.weight.max(0), c)),
            None => defaulted.then_some((1, c)),
        })
        .any(|(weight, c)| !seen.insert((weight, fnv1_32(c, &fleet.key))))
}

proptest! {
    #[test]
    fn never_exceeds_max_or_capacity(fleet in fleet()) {
        let result = fleet.plan();
        for (cluster, &replicas) in &result.replicas {
            if let Some(max) = fleet.entry(cluster).and_then(|p| p.max_replicas) {
                prop_assert!(replicas <= max, "{cluster}: {replicas} > max {max}");
            }
            if let Some(&capacity) = fleet.capacity.get(cluster.as_str()) {
                prop_assert!(replicas <= capacity, "{cluster}: {replicas} > capacity {capacity}");
            }
        }
    }

    #[test]
    fn placed_plus_unassigned_is_the_total(fleet in fleet()) {
        let result = fleet.plan();
        let placed: i64 = result.replicas.values().sum();
        prop_assert_eq!(placed + result.unassigned, fleet.total);
    }

    #[test]
    fn sums_to_the_total_when_a_weighted_cluster_is_uncapped(fleet in fleet()) {
        let defaulted = fleet.preferences.clusters.is_empty();
        let uncapped = fleet.available.iter().any(|c| {
            !fleet.capacity.contains_key(c)
                && (defaulted
                    || fleet.entry(c).is_some_and(|p| p.weight > 0 && p.max_replicas.is_none()))
        });
        prop_assume!(uncapped);
        let result = fleet.plan();
        prop_assert_eq!(result.replicas.values().sum::<i64>(), fleet.total);
        prop_assert_eq!(result.unassigned, 0);
    }

    #[test]
    fn order_of_available_clusters_changes_nothing_but_exact_ties(
        (fleet, reordered) in fleet().prop_flat_map(|fleet| {
            let shuffled = Just(fleet.available.clone()).prop_shuffle();
            (Just(fleet), shuffled)
        })
    ) {
        prop_assume!(!has_exact_tie(&fleet));
        let result = fleet.plan();
        let other = Fleet { available: reordered, ..fleet.clone() }.plan();
        prop_assert_eq!(result, other);
    }

    #[test]
    fn same_input_gives_the_same_plan_and_trace(fleet in fleet()) {
        let (repeatable, untraced_agrees) = fleet.with_input(|input| {
            let first = plan_with_trace(input);
            (first == plan_with_trace(input), first.0 == plan(input))
        });
        prop_assert!(repeatable);
        prop_assert!(untraced_agrees);
    }
}
