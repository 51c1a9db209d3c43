//! The scenarios of the federated ReplicaSets design (seed `federated-replicasets.md`), 50
//! replicas over A, B, C with the upstream tests' key `''`. Offline clusters are left out of
//! `available`; "capacity for 6" is a capacity; "already has 20" is current replicas.

use std::collections::BTreeMap;

use crate::model::preferences::{ClusterPreferences, ReplicaPreferences};

use super::{plan, PlannerInput};

struct Scenario<'a> {
    rebalance: bool,
    clusters: &'a [(&'a str, ClusterPreferences)],
    available: &'a [&'a str],
    current: &'a [(&'a str, i64)],
    capacity: &'a [(&'a str, i64)],
}

const ALL: &[&str] = &["A", "B", "C"];

fn layout(scenario: &Scenario) -> Vec<(String, i64)> {
    layout_for_key(scenario, "")
}

fn layout_for_key(scenario: &Scenario, key: &str) -> Vec<(String, i64)> {
    let owned = |pairs: &[(&str, i64)]| -> BTreeMap<String, i64> {
        pairs.iter().map(|&(n, c)| (n.to_string(), c)).collect()
    };
    let preferences = ReplicaPreferences {
        rebalance: scenario.rebalance,
        clusters: scenario
            .clusters
            .iter()
            .map(|(n, p)| (n.to_string(), p.clone()))
            .collect(),
    };
    let result = plan(&PlannerInput {
        total: 50,
        key,
        preferences: &preferences,
        available: scenario.available,
        current: &owned(scenario.current),
        capacity: &owned(scenario.capacity),
    });
    result.replicas().map(|(n, c)| (n.to_string(), c)).collect()
}

fn expect(pairs: &[(&str, i64)]) -> Vec<(String, i64)> {
    pairs.iter().map(|&(n, c)| (n.to_string(), c)).collect()
}

const EVEN: ClusterPreferences = ClusterPreferences::new(0, None, 1);

/// Rebalancing, all of A, B, C online, nothing running, no capacity limit.
fn scenario<'a>(clusters: &'a [(&'a str, ClusterPreferences)]) -> Scenario<'a> {
    Scenario {
        rebalance: true,
        clusters,
        available: ALL,
        current: &[],
        capacity: &[],
    }
}

#[test]
fn scenario_1_spreads_evenly() {
    let s = scenario(&[("*", EVEN)]);
    assert_eq!(layout(&s), expect(&[("A", 16), ("B", 17), ("C", 17)]));
}

#[test]
fn scenario_1_moves_what_c_cannot_hold() {
    let s = Scenario {
        capacity: &[("C", 6)],
        ..scenario(&[("*", EVEN)])
    };
    assert_eq!(layout(&s), expect(&[("A", 22), ("B", 22), ("C", 6)]));
}

#[test]
fn scenario_1_puts_everything_on_the_only_online_cluster() {
    let s = Scenario {
        available: &["A"],
        ..scenario(&[("*", EVEN)])
    };
    assert_eq!(layout(&s), expect(&[("A", 50)]));
}

#[test]
fn scenario_2_caps_each_cluster_at_two_three_ways() {
    for prefs in [
        ClusterPreferences::new(0, Some(2), 1),
        ClusterPreferences::new(2, None, 0),
        ClusterPreferences::new(2, Some(2), 0),
    ] {
        let clusters = [("*", prefs.clone())];
        let s = scenario(&clusters);
        assert_eq!(
            layout(&s),
            expect(&[("A", 2), ("B", 2), ("C", 2)]),
            "{prefs:?}"
        );
    }
}

/// The seed writes A=20 B=20 C=10; which cluster gets 10 depends on the hash order, and for
/// key '' the reference serves C, B, A (TestMin#2).
#[test]
fn scenario_3_gives_minimums_in_hash_order() {
    let clusters = [("*", ClusterPreferences::new(20, None, 0))];
    assert_eq!(
        layout(&scenario(&clusters)),
        expect(&[("A", 10), ("B", 20), ("C", 20)])
    );
}

#[test]
fn scenario_4_spreads_evenly_under_c_max() {
    let clusters = [("*", EVEN), ("C", ClusterPreferences::new(0, Some(20), 1))];
    assert_eq!(
        layout(&scenario(&clusters)),
        expect(&[("A", 16), ("B", 17), ("C", 17)])
    );
    let b_offline = Scenario {
        available: &["A", "C"],
        ..scenario(&clusters)
    };
    assert_eq!(layout(&b_offline), expect(&[("A", 30), ("C", 20)]));
    let only_c = Scenario {
        available: &["C"],
        ..scenario(&clusters)
    };
    assert_eq!(layout(&only_c), expect(&[("C", 20)]));
}

const PREFER_A: &[(&str, ClusterPreferences)] = &[
    ("A", ClusterPreferences::new(0, None, 1_000_000)),
    ("B", EVEN),
    ("C", EVEN),
];

#[test]
fn scenario_5_keeps_everything_on_a() {
    let s = Scenario {
        rebalance: false,
        ..scenario(PREFER_A)
    };
    assert_eq!(layout(&s), expect(&[("A", 50), ("B", 0), ("C", 0)]));
}

#[test]
fn scenario_5_spills_equally_when_a_is_short() {
    let s = Scenario {
        rebalance: false,
        capacity: &[("A", 40)],
        ..scenario(PREFER_A)
    };
    assert_eq!(layout(&s), expect(&[("A", 40), ("B", 5), ("C", 5)]));
}

/// The seed gives no layout; twice the weight gives twice the replicas, the odd one going to
/// the first of B and C in hash order.
#[test]
fn scenario_6_gives_a_twice_the_others() {
    let clusters = [
        ("A", ClusterPreferences::new(0, None, 2)),
        ("B", EVEN),
        ("C", EVEN),
    ];
    let s = Scenario {
        rebalance: false,
        ..scenario(&clusters)
    };
    assert_eq!(layout(&s), expect(&[("A", 25), ("B", 12), ("C", 13)]));
}

#[test]
fn scenario_7_keeps_what_a_runs() {
    let s = Scenario {
        rebalance: false,
        current: &[("A", 20)],
        ..scenario(&[("*", EVEN)])
    };
    assert_eq!(layout(&s), expect(&[("A", 20), ("B", 15), ("C", 15)]));
}

/// The seed's A=22 B=22 C=6 is the plan when A is served first (key `ns/w0` orders A, C, B);
/// key '' orders C, B, A, and B's shares then run ahead while A's absorb its 20.
#[test]
fn scenario_7_keeps_what_a_runs_when_c_is_short() {
    let s = Scenario {
        rebalance: false,
        current: &[("A", 20)],
        capacity: &[("C", 6)],
        ..scenario(&[("*", EVEN)])
    };
    assert_eq!(layout(&s), expect(&[("A", 21), ("B", 23), ("C", 6)]));
    assert_eq!(
        layout_for_key(&s, "ns/w0"),
        expect(&[("A", 22), ("B", 22), ("C", 6)])
    );
}

#[test]
fn scenario_7_keeps_thirty_on_a_when_c_is_short() {
    let s = Scenario {
        rebalance: false,
        current: &[("A", 30)],
        capacity: &[("C", 6)],
        ..scenario(&[("*", EVEN)])
    };
    assert_eq!(layout(&s), expect(&[("A", 30), ("B", 14), ("C", 6)]));
}
