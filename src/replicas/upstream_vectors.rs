//! Every case of testdata/upstream/planner.yaml: planner_test.go (key '') plus the
//! supplementary e2e, documentation and issue cases.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::model::preferences::{ClusterPreferences, ReplicaPreferences};

use super::{plan, PlannerInput};

const VECTORS: &str = include_str!("../../testdata/upstream/planner.yaml");

/// The user guide's layout for this case is hash-dependent: its note says the stated plan is
/// what the planner gives with key '' and that the reference, with the case's key, gives
/// A:17 B:17 C:16. The reference wins; `doc_layout_is_the_plan_for_the_empty_key` checks the
/// stated layout with key ''.
const DOC_CLAIM: &str = "doc: '*' w1 + C max20 w1, total 50, all have capacity";
const DOC_CLAIM_REFERENCE_PLAN: [(&str, i64); 3] = [("A", 17), ("B", 17), ("C", 16)];

#[derive(Deserialize)]
struct Vectors {
    cases: Vec<Case>,
    supplementary: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    input: Input,
    expected: Expected,
}

#[derive(Clone, Deserialize)]
struct Input {
    replicas: i64,
    key: String,
    rebalance: bool,
    clusters: BTreeMap<String, ClusterPreferences>,
    available_clusters: Vec<String>,
    current: BTreeMap<String, i64>,
    capacity: BTreeMap<String, i64>,
}

#[derive(Deserialize)]
struct Expected {
    plan: BTreeMap<String, i64>,
    overflow: Option<BTreeMap<String, i64>>,
}

fn vectors() -> Vectors {
    match serde_yaml::from_str(VECTORS) {
        Ok(vectors) => vectors,
        Err(err) => panic!("testdata/upstream/planner.yaml: {err}"),
    }
}

fn run(input: &Input) -> (BTreeMap<String, i64>, BTreeMap<String, i64>) {
    let preferences = ReplicaPreferences {
        rebalance: input.rebalance,
        clusters: input.clusters.clone(),
    };
    let available: Vec<&str> = input
        .available_clusters
        .iter()
        .map(String::as_str)
        .collect();
    let result = plan(&PlannerInput {
        total: input.replicas,
        key: &input.key,
        preferences: &preferences,
        available: &available,
        current: &input.current,
        capacity: &input.capacity,
    });
    let owned = |counts: Vec<(&str, i64)>| -> BTreeMap<String, i64> {
        counts
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    };
    (
        owned(result.replicas().collect()),
        owned(result.overflow().collect()),
    )
}

/// Checks every case and reports all failures at once, each by name.
fn check(cases: &[Case]) -> Vec<String> {
    let mut failures = Vec::new();
    for case in cases {
        let (replicas, overflow) = run(&case.input);
        let expected_plan = if case.name == DOC_CLAIM {
            DOC_CLAIM_REFERENCE_PLAN
                .iter()
                .map(|&(name, count)| (name.to_string(), count))
                .collect()
        } else {
            case.expected.plan.clone()
        };
        if replicas != expected_plan {
            failures.push(format!(
                "{}: plan {:?}, expected {:?}",
                case.name, replicas, expected_plan
            ));
        }
        if let Some(expected) = &case.expected.overflow {
            if &overflow != expected {
                failures.push(format!(
                    "{}: overflow {:?}, expected {:?}",
                    case.name, overflow, expected
                ));
            }
        }
    }
    failures
}

#[test]
fn every_planner_test_go_case_gives_the_reference_plan() {
    let vectors = vectors();
    assert_eq!(vectors.cases.len(), 40);
    let failures = check(&vectors.cases);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_supplementary_case_gives_the_reference_plan() {
    let vectors = vectors();
    assert_eq!(vectors.supplementary.len(), 12);
    let failures = check(&vectors.supplementary);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn doc_layout_is_the_plan_for_the_empty_key() {
    let vectors = vectors();
    let Some(case) = vectors.supplementary.iter().find(|c| c.name == DOC_CLAIM) else {
        panic!("case {DOC_CLAIM:?} is missing from planner.yaml");
    };
    let mut input = case.input.clone();
    input.key = String::new();
    assert_eq!(run(&input).0, case.expected.plan);
}
