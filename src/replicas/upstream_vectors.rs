//! The planner suite of `fleetplan vectors`: every case of a file in the format of
//! testdata/upstream/planner.yaml (planner_test.go, key '', plus the supplementary e2e,
//! documentation and issue cases) through the replica planner. The library test runs the
//! bundled copy: all 52 pass.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::model::preferences::{ClusterPreferences, ReplicaPreferences};

use super::{plan, PlannerInput};
use crate::vectors::{self, FileError, Mismatch, Report};

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

/// Every field an expectation holds is compared: another one is refused, never ignored.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expected {
    plan: BTreeMap<String, i64>,
    overflow: Option<BTreeMap<String, i64>>,
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

/// Runs every case of `text` (the format of testdata/upstream/planner.yaml).
pub(crate) fn run_file(text: &str) -> Result<Report, FileError> {
    let file: Vectors = vectors::parse(text)?;
    let cases = (file
        .cases
        .iter()
        .enumerate()
        .map(|(at, case)| (format!("cases[{at}]"), case)))
    .chain(
        file.supplementary
            .iter()
            .enumerate()
            .map(|(at, case)| (format!("supplementary[{at}]"), case)),
    );
    vectors::report(
        "cases",
        cases.map(|(path, case)| (path, case.name.as_str(), "plan", check(case))),
    )
}

/// One case: the plan, and the overflow where the case states it.
fn check(case: &Case) -> Result<(), Mismatch> {
    let (replicas, overflow) = run(&case.input);
    let expected_plan = if case.name == DOC_CLAIM {
        DOC_CLAIM_REFERENCE_PLAN
            .iter()
            .map(|&(name, count)| (name.to_string(), count))
            .collect()
    } else {
        case.expected.plan.clone()
    };
    let mut failures = Vec::new();
    if replicas != expected_plan {
        failures.push(format!("plan: got {replicas:?}, want {expected_plan:?}"));
    }
    if let Some(expected) = &case.expected.overflow {
        if &overflow != expected {
            failures.push(format!("overflow: got {overflow:?}, want {expected:?}"));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(Mismatch::Fields(failures))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VECTORS: &str = include_str!("../../testdata/upstream/planner.yaml");

    #[test]
    fn every_bundled_case_gives_the_reference_plan() {
        assert_eq!(
            run_file(VECTORS),
            Ok(Report {
                vectors: 52,
                failures: Vec::new(),
            })
        );
    }

    #[test]
    fn doc_layout_is_the_plan_for_the_empty_key() {
        let Ok(file) = vectors::parse::<Vectors>(VECTORS) else {
            panic!("planner.yaml parses");
        };
        let Some(case) = file.supplementary.iter().find(|c| c.name == DOC_CLAIM) else {
            panic!("case {DOC_CLAIM:?} is missing from planner.yaml");
        };
        let mut input = case.input.clone();
        input.key = String::new();
        assert_eq!(run(&input).0, case.expected.plan);
    }
}
