//! Explain's verdicts agree with the plan: for every item of every example input, the clusters
//! explain calls selected are exactly the plan's `clusters`, every inventory cluster has one
//! verdict, and none is the "left out by the engine" fallback that only a rule disagreeing
//! with the engine's own selection could produce. Inputs: testdata/fleet, testdata/explain,
//! every testdata/scenarios/*/ and every testdata/stories placement.

use std::path::{Path, PathBuf};

use super::{explain, Code, Engine};
use crate::load::{self, LoadOptions};
use crate::model::time::parse_rfc3339;
use crate::plan::{self, PlanOptions, Trace};

fn testdata(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(path)
        .to_string_lossy()
        .into_owned()
}

/// Plans `paths` with tracing and checks every item's explanation against the plan.
fn assert_agreement(paths: &[String], previous: Option<&str>, now: &str) {
    let model = load::load(paths, &mut std::io::empty(), &LoadOptions::default())
        .unwrap_or_else(|errors| panic!("{paths:?} should load: {errors:?}"));
    let previous = previous.map(|path| {
        load::previous_plan(path, &mut std::io::empty())
            .unwrap_or_else(|errors| panic!("{path} should load: {errors:?}"))
    });
    let outcome = plan::build(
        &model,
        &PlanOptions {
            previous: previous.as_ref(),
            ..PlanOptions::at(parse_rfc3339(now).unwrap(), Trace::Full)
        },
    );
    let clusters = &model.inventory.clusters;
    let mut inventory: Vec<&str> = clusters.iter().map(|c| c.name.as_str()).collect();
    inventory.sort_unstable();
    assert!(!outcome.plan.items.is_empty(), "{paths:?} has no items");
    for (item, trace) in outcome.plan.items.iter().zip(&outcome.traces) {
        let explanation = explain(item, trace, clusters);
        let context = format!("{paths:?} {:?}", item.source);
        let verdicts: Vec<&str> = explanation
            .clusters
            .iter()
            .map(|v| v.cluster.as_str())
            .collect();
        assert_eq!(verdicts, inventory, "one verdict per cluster: {context}");
        let selected: Vec<&str> = explanation
            .clusters
            .iter()
            .filter(|v| v.selected)
            .map(|v| v.cluster.as_str())
            .collect();
        assert_eq!(item.clusters, selected, "selected clusters: {context}");
        for verdict in &explanation.clusters {
            assert_ne!(verdict.verdict, Code::NotSelected, "{context}: {verdict:?}");
            assert_eq!(
                verdict.selected,
                verdict.verdict == Code::Selected,
                "{context}: {verdict:?}"
            );
            if let Some(run) = &verdict.planner {
                let planned = item.replicas.get(&verdict.cluster).copied().unwrap_or(0);
                assert_eq!(run.replicas, planned, "replicas: {context}: {verdict:?}");
            }
            if explanation.engine == Engine::Placement && verdict.selected {
                assert!(
                    verdict.score.is_some() && verdict.decision.is_some(),
                    "{context}: {verdict:?}"
                );
            }
        }
    }
}

#[test]
fn explain_agrees_with_the_plan_on_the_example_fleet() {
    assert_agreement(&[testdata("fleet")], None, "2024-06-01T00:00:00Z");
    // After aws-eu-west-prod-2's maintenance taint was added.
    assert_agreement(&[testdata("fleet")], None, "2026-06-01T00:00:00Z");
}

#[test]
fn explain_agrees_with_the_plan_on_the_explain_fixtures() {
    let paths = [
        testdata("explain/inventory.yaml"),
        testdata("explain/workloads.yaml"),
    ];
    let previous = testdata("explain/previous.yaml");
    for now in ["2024-06-01T00:30:00Z", "2024-06-01T02:00:00Z"] {
        assert_agreement(&paths, Some(&previous), now);
        assert_agreement(&paths, None, now);
    }
}

/// The entries of `testdata/<dir>`, sorted.
fn entries(dir: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(testdata(dir))
        .unwrap_or_else(|error| panic!("testdata/{dir}: {error}"))
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "testdata/{dir} is empty");
    paths
}

fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

#[test]
fn explain_agrees_with_the_plan_on_every_scenario() {
    for scenario in entries("scenarios").iter().filter(|path| path.is_dir()) {
        let paths = [
            display(&scenario.join("inventory.yaml")),
            display(&scenario.join("workload.yaml")),
        ];
        let previous = scenario.join("previous.yaml");
        let previous = previous.exists().then(|| display(&previous));
        assert_agreement(&paths, previous.as_deref(), "2024-06-01T00:00:00Z");
    }
}

#[test]
fn explain_agrees_with_the_plan_on_every_story() {
    for story in entries("stories/placements") {
        let paths = [testdata("stories/fleet.yaml"), display(&story)];
        // Before and after the toleration of story 9 expires.
        for now in ["2026-06-01T00:30:00Z", "2026-06-01T01:30:00Z"] {
            assert_agreement(&paths, None, now);
        }
    }
}
