//! The division-only vectors of testdata/upstream/karmada.yaml (`division_vectors`): Webster
//! allocations with initial seats that no manifest can reach. The manifest cases run through
//! the CLI (tests/cli/karmada_vectors.rs).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::webster::{allocate, TieBreak};

const VECTORS: &str = include_str!("../../testdata/upstream/karmada.yaml");

#[derive(Deserialize)]
struct Vectors {
    division_vectors: Vec<DivisionVector>,
}

#[derive(Deserialize)]
struct DivisionVector {
    id: String,
    input: DivisionInput,
    expected: BTreeMap<String, i64>,
}

#[derive(Deserialize)]
struct DivisionInput {
    replicas: i64,
    weights: BTreeMap<String, i64>,
    #[serde(default)]
    initial: BTreeMap<String, i64>,
    #[serde(default)]
    uid: String,
}

#[test]
fn every_division_vector_allocates_as_upstream() {
    let vectors: Vectors = match serde_yaml::from_str(VECTORS) {
        Ok(vectors) => vectors,
        Err(error) => panic!("testdata/upstream/karmada.yaml: {error}"),
    };
    assert_eq!(vectors.division_vectors.len(), 8);
    for vector in vectors.division_vectors {
        let input = &vector.input;
        let got: BTreeMap<String, i64> = allocate(
            input.replicas,
            &borrowed(&input.weights),
            &borrowed(&input.initial),
            TieBreak::for_uid(&input.uid),
            None,
        )
        .into_iter()
        .map(|party| (party.key.to_string(), party.seats))
        .collect();
        assert_eq!(got, vector.expected, "{}", vector.id);
    }
}

/// The map's pairs in name order, as `allocate` takes them.
fn borrowed(map: &BTreeMap<String, i64>) -> Vec<(&str, i64)> {
    map.iter()
        .map(|(name, seats)| (name.as_str(), *seats))
        .collect()
}
