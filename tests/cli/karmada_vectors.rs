//! Every manifest case of testdata/upstream/karmada.yaml (restated from karmada-io/karmada's
//! unit tests at f8fdd02df376) through the real binary: the case's Clusters, policies,
//! Deployment and previous ResourceBinding as one YAML stream, then `fleetplan plan -o json`.
//! The division-only vectors run in the library (src/karmada/upstream_vectors.rs).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::common::Test;

fn cases() -> Vec<serde_yaml::Value> {
    let text =
        std::fs::read_to_string("testdata/upstream/karmada.yaml").expect("vectors are readable");
    let vectors: serde_yaml::Value = serde_yaml::from_str(&text).expect("vectors parse");
    vectors["cases"].as_sequence().cloned().unwrap_or_default()
}

/// Karmada's webhook refuses a Cluster whose name is not a lower-case DNS label, and so does
/// fleetplan; upstream's unit tests (which skip the webhook) name some clusters `A` or
/// `PartyA`. Those names are lower-cased throughout the case (every string equal to one, as
/// a value or a key), which keeps their order among themselves: no case mixes them with
/// lower-case names.
fn lower_case_cluster_names(case: &mut serde_yaml::Value) {
    let names: Vec<String> = case["input"]["clusters"]
        .as_sequence()
        .into_iter()
        .flatten()
        .filter_map(|cluster| cluster["metadata"]["name"].as_str())
        .filter(|name| name.chars().any(|c| c.is_ascii_uppercase()))
        .map(str::to_string)
        .collect();
    fn rename(value: &mut serde_yaml::Value, names: &[String]) {
        match value {
            serde_yaml::Value::String(text) if names.contains(text) => {
                *text = text.to_ascii_lowercase();
            }
            serde_yaml::Value::Sequence(items) => {
                items.iter_mut().for_each(|item| rename(item, names));
            }
            serde_yaml::Value::Mapping(mapping) => {
                let entries = std::mem::take(mapping);
                for (mut key, mut item) in entries {
                    rename(&mut key, names);
                    rename(&mut item, names);
                    mapping.insert(key, item);
                }
            }
            _ => {}
        }
    }
    if !names.is_empty() {
        rename(case, &names);
    }
}

/// Karmada's Cluster API requires `spec.syncMode` (`ValidateClusterSpec`), and so does
/// fleetplan; upstream's unit tests build Clusters without one. Each gets `Push`, which no
/// scheduler plugin reads.
fn push_mode(case: &mut serde_yaml::Value) {
    let clusters = case["input"]["clusters"]
        .as_sequence_mut()
        .into_iter()
        .flatten();
    for cluster in clusters {
        if let Some(cluster) = cluster.as_mapping_mut() {
            let spec = cluster
                .entry("spec".into())
                .or_insert_with(|| serde_yaml::Mapping::new().into());
            if let Some(spec) = spec.as_mapping_mut() {
                spec.entry("syncMode".into()).or_insert("Push".into());
            }
        }
    }
}

/// Cases whose manifests Karmada's webhook refuses (upstream's unit tests call the scheduler
/// without it), with the error fleetplan gives, as upstream's webhook would: the case's
/// expected schedule is never reached.
const REFUSED_BY_THE_WEBHOOK: [(&str, &str); 2] = [
    (
        "upstream-023",
        "error: <stdin>#2: PropagationPolicy/default/pp: spec.placement.clusterAffinity.fieldSelector: unsupported key \"\", must be provider, region, or zone\n",
    ),
    (
        "upstream-033",
        "error: <stdin>#2: PropagationPolicy/default/pp: spec.placement.clusterAffinity.fieldSelector: unsupported key \"metadata.name\", must be provider, region, or zone\n",
    ),
];

fn manifests(input: &serde_yaml::Value) -> String {
    let mut objects: Vec<&serde_yaml::Value> = Vec::new();
    for field in ["clusters", "policies"] {
        objects.extend(input[field].as_sequence().into_iter().flatten());
    }
    objects.push(&input["resource"]);
    if !input["previousBinding"].is_null() {
        objects.push(&input["previousBinding"]);
    }
    objects
        .into_iter()
        .map(|object| {
            format!(
                "---\n{}",
                serde_yaml::to_string(object).expect("serializable")
            )
        })
        .collect()
}

#[test]
fn every_upstream_case_passes_through_the_cli() {
    let cases = cases();
    assert_eq!(cases.len(), 107, "the manifest cases of karmada.yaml");
    for mut case in cases {
        lower_case_cluster_names(&mut case);
        push_mode(&mut case);
        let id = case["id"].as_str().unwrap_or("?").to_string();
        let input = &case["input"];
        let now = input["now"].as_str().unwrap_or("2026-06-01T12:00:00Z");
        if let Some((_, error)) = REFUSED_BY_THE_WEBHOOK.iter().find(|(case, _)| *case == id) {
            Test::new()
                .args(["plan", "-o", "json", "--now", now, "-f", "-"])
                .stdin(manifests(input))
                .stderr(*error)
                .stdout("")
                .status(1)
                .run();
            continue;
        }
        let output = Test::new()
            .args(["plan", "-o", "json", "--now", now, "-f", "-"])
            .stdin(manifests(input))
            .stderr_contains("")
            .run();
        let plan: Value = serde_json::from_slice(&output.stdout).expect("plan is JSON");
        let resource = &input["resource"];
        let item = plan["items"].as_array().and_then(|items| {
            items.iter().find(|item| {
                item["source"]["kind"] == resource["kind"].as_str().unwrap_or("")
                    && item["source"]["name"] == resource["metadata"]["name"].as_str().unwrap_or("")
            })
        });
        let expected = &case["expected"];
        let policy = item.and_then(|item| item["policy"].as_str());
        assert_eq!(policy, expected["policy"].as_str(), "{id}: policy");
        let clusters: Vec<&str> = item
            .and_then(|item| item["clusters"].as_array())
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let mut wanted: Vec<&str> = expected["clusters"]
            .as_sequence()
            .into_iter()
            .flatten()
            .filter_map(serde_yaml::Value::as_str)
            .collect();
        wanted.sort_unstable();
        assert_eq!(clusters, wanted, "{id}: clusters");
        let replicas: BTreeMap<String, i64> = item
            .and_then(|item| item["replicas"].as_object())
            .into_iter()
            .flatten()
            .map(|(name, count)| (name.clone(), count.as_i64().unwrap_or(-1)))
            .collect();
        let wanted_replicas: BTreeMap<String, i64> = expected["replicas"]
            .as_mapping()
            .into_iter()
            .flatten()
            .map(|(name, count)| {
                (
                    name.as_str().unwrap_or("").to_string(),
                    count.as_i64().unwrap_or(-1),
                )
            })
            .collect();
        assert_eq!(replicas, wanted_replicas, "{id}: replicas");
        let scheduled = item.and_then(|item| {
            item["conditions"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|condition| condition["type"] == "Scheduled")
        });
        let failed = scheduled.is_some_and(|condition| condition["status"] == "False");
        assert_eq!(Some(failed), expected["failed"].as_bool(), "{id}: failed");
        if let Some(error) = expected["error"].as_str() {
            let message = scheduled.and_then(|condition| condition["message"].as_str());
            assert_eq!(message, Some(error), "{id}: error");
        }
    }
}
