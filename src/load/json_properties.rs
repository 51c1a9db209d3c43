//! Differential property: valid JSON is decoded straight from its text (`load`), while
//! `load_with_documents` always goes through the parsed tree. Whatever a field holds, the two
//! must give the same model or the same errors.

use proptest::prelude::*;
use serde_json::{json, Value};

use super::{load, load_with_documents, LoadErrors, LoadOptions};
use crate::model::Model;

const WORKLOADS: [&str; 8] = [
    include_str!("../../testdata/fleet/workloads/federation-annotations.yaml"),
    include_str!("../../testdata/fleet/workloads/kubefed.yaml"),
    include_str!("../../testdata/fleet/workloads/placements.yaml"),
    include_str!("../../testdata/fleet/workloads/placementrule.json"),
    include_str!("../../testdata/consumers/policies.yaml"),
    include_str!("../../testdata/consumers/apps.yaml"),
    include_str!("../../testdata/consumers/appsets.yaml"),
    include_str!("../../testdata/consumers/rollouts.yaml"),
];
const SETS: &str = include_str!("../../testdata/fleet/clustersets.yaml");

/// Two fleets that each load cleanly, so a mutation's effect on the model is compared, not
/// only error lists: the example inventory with its add-on scores, and the same clusters as
/// a hub's cluster objects. Together they hold every kind the loader reads.
fn fleets() -> [Vec<&'static str>; 2] {
    let with = |clusters: &[&'static str]| {
        let mut sources = clusters.to_vec();
        sources.push(SETS);
        sources.extend(WORKLOADS);
        sources
    };
    [
        with(&[
            include_str!("../../testdata/fleet/inventory.yaml"),
            include_str!("../../testdata/fleet/addonscores.yaml"),
        ]),
        with(&[include_str!(
            "../../testdata/managedclusters/managedclusters.yaml"
        )]),
    ]
}

fn documents(sources: &[&str]) -> Vec<Value> {
    sources
        .iter()
        .flat_map(|text| serde_yaml::Deserializer::from_str(text))
        .filter_map(|document| serde::Deserialize::deserialize(document).ok())
        .filter(|value: &Value| !value.is_null())
        .collect()
}

/// What a field may be replaced with: each JSON type, and values near the edges.
fn replacement() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        Just(json!(u64::MAX)),
        Just(json!(1.5)),
        Just(json!(-1)),
        "[a-zA-Z0-9./=-]{0,12}".prop_map(Value::from),
        Just(json!("NoSelect")),
        Just(json!("2024-01-01T00:00:00Z")),
        Just(json!([])),
        Just(json!(["a", 1])),
        Just(json!({})),
        Just(json!({"NoSelect": null})),
        Just(json!({"a": "b", "c": 1})),
    ]
}

/// Replaces the node that `choices` lead to (each choice picks a key or an element).
fn replace(value: &mut Value, choices: &[usize], with: Value) {
    let Some((&choice, rest)) = choices.split_first() else {
        *value = with;
        return;
    };
    let child = match value {
        Value::Object(map) if !map.is_empty() => {
            let key = map.keys().nth(choice % map.len()).cloned();
            key.and_then(|key| map.get_mut(&key))
        }
        Value::Array(items) if !items.is_empty() => {
            let len = items.len();
            items.get_mut(choice % len)
        }
        _ => None,
    };
    match child {
        Some(child) => replace(child, rest, with),
        None => *value = with,
    }
}

/// The documents as one List: its items are decoded from the fields found in each (a field
/// the reader's type lacks is not read again), where a document's are decoded from its text.
fn list(documents: &[Value]) -> String {
    stream(&[json!({"apiVersion": "v1", "kind": "List", "items": documents})])
}

/// [`list`], with an item of a kind no reader knows that makes the List over a megabyte: its
/// items are checked on every core, their fields found as they are checked
/// (`Fields::read_checked`).
fn large_list(documents: &[Value]) -> String {
    let padding = json!({
        "apiVersion": "example.com/v1",
        "kind": "Padding",
        "metadata": {"name": "padding"},
        "data": "x".repeat(1 << 20),
    });
    let mut items = documents.to_vec();
    items.push(padding);
    list(&items)
}

fn text_of(documents: &[Value], form: usize) -> String {
    match form {
        0 => stream(documents),
        1 => list(documents),
        _ => large_list(documents),
    }
}

fn stream(documents: &[Value]) -> String {
    documents
        .iter()
        // A `Value` always writes; were one refused, the property fails here rather than
        // comparing two loads of an empty input.
        .map(|document| {
            serde_json::to_string(document).unwrap_or_else(|error| panic!("{document}: {error}"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The outcome as text: the model's debug form, or every error message.
fn outcome(result: Result<Model, LoadErrors>) -> Result<String, String> {
    result
        .map(|model| format!("{model:#?}"))
        .map_err(|errors| errors.to_string())
}

fn both_ways(text: &str) -> (Result<String, String>, Result<String, String>) {
    let options = LoadOptions::default();
    let paths = ["-".to_string()];
    let direct = load(&paths, &mut text.as_bytes(), &options);
    let tree = match load_with_documents(&paths, &mut text.as_bytes(), &options) {
        (model, _, errors) if errors.is_empty() => Ok(model),
        (_, _, errors) => Err(LoadErrors(errors)),
    };
    (outcome(direct), outcome(tree))
}

#[test]
fn the_unchanged_fixtures_load_alike_both_ways() {
    for sources in fleets() {
        let documents = documents(&sources);
        for text in [stream(&documents), list(&documents), large_list(&documents)] {
            let (direct, tree) = both_ways(&text);
            assert!(direct.is_ok(), "{direct:?}");
            assert_eq!(direct, tree);
        }
    }
}

/// What the property first found: serde takes a JSON array for a struct (its fields in
/// order), where the tree, like Kubernetes, wants a mapping.
#[test]
fn a_list_where_an_object_belongs_is_refused_both_ways() {
    for (choices, with) in [(&[3][..], json!([])), (&[1, 0], json!(["a"]))] {
        // The inventory's keys in order: apiVersion, clusters, kind, metadata.
        let mut documents = documents(&fleets()[0]);
        if let Some(inventory) = documents.first_mut() {
            replace(inventory, choices, with);
        }
        let (direct, tree) = both_ways(&stream(&documents));
        assert!(direct.is_err(), "{choices:?}: {direct:?}");
        assert_eq!(direct, tree);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_field_decodes_alike_both_ways(
        fleet in 0usize..2,
        document in any::<prop::sample::Index>(),
        choices in prop::collection::vec(0usize..64, 1..8),
        with in replacement(),
        form in 0usize..3,
    ) {
        let sources = fleets();
        let mut documents = documents(sources.get(fleet).map_or(&[][..], Vec::as_slice));
        let at = document.index(documents.len());
        if let Some(target) = documents.get_mut(at) {
            replace(target, &choices, with);
        }
        let text = text_of(&documents, form);
        let (direct, tree) = both_ways(&text);
        prop_assert_eq!(direct, tree);
    }
}
