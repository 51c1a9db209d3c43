//! The full-pipeline `schedule` cases of the upstream OCM vectors, run through the real binary
//! from YAML manifests: each case's clusters, sets, bindings, previous decisions, add-on scores
//! and placement are written as the Kubernetes objects a hub holds, then `fleetplan plan`.

use std::fmt::Write as _;
use std::fs;

use serde_json::{json, Value};

use crate::common::Test;

/// Upstream's fake clock in these tests.
const NOW: &str = "2022-01-01T00:00:00Z";

fn cases() -> Vec<Value> {
    let text = fs::read_to_string("testdata/upstream/ocm.yaml").expect("vectors are readable");
    let all: Vec<Value> = serde_yaml::from_str(&text).expect("vectors parse");
    all.into_iter()
        .filter(|case| case["kind"] == "schedule")
        .collect()
}

/// A ManagedClusterSet's name is a DNS subdomain, and fleetplan refuses one that is not, as
/// the API server does; upstream's unit tests (which skip the API server) name their set
/// `clusterSets`. Every string value equal to such a set name (never a mapping key: the
/// placement has a `clusterSets` field) is lower-cased.
fn lower_case_set_names(input: &mut Value) {
    let names: Vec<String> = input["clusterSets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|set| set["name"].as_str())
        .filter(|name| name.chars().any(|c| c.is_ascii_uppercase()))
        .map(str::to_string)
        .collect();
    fn rename(value: &mut Value, names: &[String]) {
        match value {
            Value::String(text) if names.contains(text) => *text = text.to_ascii_lowercase(),
            Value::Array(items) => items.iter_mut().for_each(|item| rename(item, names)),
            Value::Object(fields) => fields.values_mut().for_each(|item| rename(item, names)),
            _ => {}
        }
    }
    rename(input, &names);
}

/// One YAML stream with every object of the case's hub.
fn manifests(input: &Value) -> String {
    let mut objects = Vec::new();
    for cluster in input["clusters"].as_array().into_iter().flatten() {
        let mut status = json!({
            // A registered, healthy cluster: the scheduler itself ignores conditions, and
            // fleetplan maps a missing Available condition to the unreachable taint.
            "conditions": [{"type": "ManagedClusterConditionAvailable", "status": "True"}],
        });
        for field in ["allocatable", "capacity"] {
            if !cluster[field].is_null() {
                status[field] = cluster[field].clone();
            }
        }
        objects.push(json!({
            "apiVersion": "cluster.open-cluster-management.io/v1",
            "kind": "ManagedCluster",
            "metadata": {"name": cluster["name"], "labels": cluster["labels"]},
            "status": status,
        }));
    }
    for set in input["clusterSets"].as_array().into_iter().flatten() {
        objects.push(json!({
            "apiVersion": "cluster.open-cluster-management.io/v1beta2",
            "kind": "ManagedClusterSet",
            "metadata": {"name": set["name"]},
            "spec": {"clusterSelector": {"selectorType": set["selectorType"]}},
        }));
    }
    for binding in input["bindings"].as_array().into_iter().flatten() {
        objects.push(json!({
            "apiVersion": "cluster.open-cluster-management.io/v1beta2",
            "kind": "ManagedClusterSetBinding",
            "metadata": {"name": binding["clusterSet"], "namespace": binding["namespace"]},
            "spec": {"clusterSet": binding["clusterSet"]},
        }));
    }
    for decision in input["existingDecisions"].as_array().into_iter().flatten() {
        let decisions: Vec<Value> = decision["clusters"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|name| json!({"clusterName": name, "reason": ""}))
            .collect();
        objects.push(json!({
            "apiVersion": "cluster.open-cluster-management.io/v1beta1",
            "kind": "PlacementDecision",
            "metadata": {"name": decision["name"], "namespace": decision["namespace"], "labels": decision["labels"]},
            "status": {"decisions": decisions},
        }));
    }
    for score in input["addOnPlacementScores"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let scores: Vec<Value> = score["scores"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(name, value)| json!({"name": name, "value": value}))
            .collect();
        objects.push(json!({
            "apiVersion": "cluster.open-cluster-management.io/v1alpha1",
            "kind": "AddOnPlacementScore",
            "metadata": {"name": score["name"], "namespace": score["cluster"]},
            "status": {"scores": scores},
        }));
    }
    let placement = &input["placement"];
    objects.push(json!({
        "apiVersion": "cluster.open-cluster-management.io/v1beta1",
        "kind": "Placement",
        "metadata": {"name": placement["name"], "namespace": placement["namespace"]},
        "spec": placement["spec"],
    }));
    let mut stream = String::new();
    for object in objects {
        let _ = write!(
            stream,
            "---\n{}",
            serde_yaml::to_string(&object).expect("serializable")
        );
    }
    stream
}

#[test]
fn upstream_schedule_cases_pass_through_the_cli() {
    let cases = cases();
    assert_eq!(cases.len(), 8, "the schedule cases of ocm.yaml");
    for case in cases {
        let id = case["id"].as_str().unwrap_or("?");
        let mut input = case["input"].clone();
        lower_case_set_names(&mut input);
        let output = Test::new()
            .args(["plan", "-o", "json", "--now", NOW, "-f", "-"])
            .stdin(manifests(&input))
            .run();
        let plan: Value = serde_json::from_slice(&output.stdout).expect("plan is JSON");
        let item = plan["items"]
            .as_array()
            .and_then(|items| {
                items
                    .iter()
                    .find(|item| item["source"]["kind"] == "Placement")
            })
            .unwrap_or_else(|| panic!("{id}: no Placement item"));
        let expected = &case["expected"];
        let mut decisions: Vec<&str> = expected["decisions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        decisions.sort_unstable();
        let selected: Vec<&str> = item["clusters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(selected, decisions, "{id}: decisions");
        let satisfied = item["conditions"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|condition| condition["type"] == "PlacementSatisfied")
            .unwrap_or_else(|| panic!("{id}: no PlacementSatisfied condition"));
        match expected["unscheduled"].as_i64() {
            Some(0) => assert_eq!(satisfied["reason"], "AllDecisionsScheduled", "{id}"),
            Some(n) => {
                assert_eq!(satisfied["reason"], "NotAllDecisionsScheduled", "{id}");
                assert_eq!(
                    satisfied["message"],
                    format!("{n} cluster decisions unscheduled"),
                    "{id}"
                );
            }
            None => panic!("{id}: vector without unscheduled"),
        }
    }
}
