//! Property tests: the canonical text parses back to the same selector, and the index agrees
//! with per-cluster matching.
use std::collections::{BTreeMap, BTreeSet};

use proptest::collection::{btree_map, btree_set, vec};
use proptest::prelude::*;

use super::{LabelIndex, Operator, Requirement, Selector};
use crate::model::{Interner, Labels};

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("in".to_string()),
        Just("notin".to_string()),
        "([a-z0-9]{1,4}(\\.[a-z0-9]{1,3})?/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,5}[A-Za-z0-9])?",
    ]
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("in".to_string()),
        Just("notin".to_string()),
        "[A-Za-z0-9]([-A-Za-z0-9_.]{0,5}[A-Za-z0-9])?",
    ]
}

fn integer() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..1000).prop_map(|n| n.to_string()),
        (0u32..100).prop_map(|n| format!("00{n}")),
    ]
}

/// A valid requirement with its values sorted and deduplicated, as the parser yields them.
fn requirement(key: impl Strategy<Value = String>) -> impl Strategy<Value = Requirement> {
    let operator = proptest::sample::select(Operator::ALL.to_vec());
    (key, operator, btree_set(value(), 1..4), value(), integer()).prop_filter_map(
        "valid requirement",
        |(key, operator, set, one, bound): (String, Operator, BTreeSet<String>, String, String)| {
            let values = match operator {
                Operator::In | Operator::NotIn => set.into_iter().collect(),
                Operator::Equals | Operator::DoubleEquals | Operator::NotEquals => vec![one],
                Operator::Exists | Operator::DoesNotExist => vec![],
                Operator::GreaterThan | Operator::LessThan => vec![bound],
            };
            Requirement::new(&key, operator, values).ok()
        },
    )
}

fn fleet_key() -> impl Strategy<Value = String> {
    proptest::sample::select(vec!["a", "b", "c", "in"]).prop_map(str::to_string)
}

fn fleet_value() -> impl Strategy<Value = String> {
    proptest::sample::select(vec!["", "x", "y", "1", "5", "05", "-2", "10", "+3"])
        .prop_map(str::to_string)
}

fn fleet() -> impl Strategy<Value = Vec<BTreeMap<String, String>>> {
    vec(btree_map(fleet_key(), fleet_value(), 0..4), 0..150)
}

/// Requirements over the fleet's keys and values, so they actually select something.
fn fleet_requirement() -> impl Strategy<Value = Requirement> {
    let operator = proptest::sample::select(Operator::ALL.to_vec());
    let valid_value = proptest::sample::select(vec!["", "x", "y", "1", "5", "05", "10"]);
    (
        fleet_key(),
        operator,
        btree_set(valid_value.clone(), 1..3),
        valid_value,
        proptest::sample::select(vec!["0", "1", "4", "5", "9", "10"]),
    )
        .prop_filter_map("valid requirement", |(key, operator, set, one, bound)| {
            let values: Vec<String> = match operator {
                Operator::In | Operator::NotIn => set.iter().map(|v| v.to_string()).collect(),
                Operator::Equals | Operator::DoubleEquals | Operator::NotEquals => {
                    vec![one.to_string()]
                }
                Operator::Exists | Operator::DoesNotExist => vec![],
                Operator::GreaterThan | Operator::LessThan => vec![bound.to_string()],
            };
            Requirement::new(&key, operator, values).ok()
        })
}

proptest! {
    #[test]
    fn canonical_text_parses_back_to_the_same_selector(
        requirements in vec(requirement(key()), 0..5)
    ) {
        let selector = Selector::from_requirements(requirements);
        let text = selector.to_string();
        prop_assert_eq!(Selector::parse(&text), Ok(selector), "text {:?}", text);
    }

    #[test]
    fn the_index_and_its_label_table_select_and_explain_as_each_clusters_map(
        fleet in fleet(),
        requirements in vec(fleet_requirement(), 0..4),
        nothing in proptest::bool::weighted(0.05),
    ) {
        let selector = if nothing {
            Selector::nothing()
        } else {
            Selector::from_requirements(requirements)
        };
        let index = LabelIndex::new(&fleet, |labels| labels);
        let selected: Vec<usize> = index.select(&selector).iter_ones().collect();
        let expected: Vec<usize> = fleet
            .iter()
            .enumerate()
            .filter(|(_, labels)| selector.matches(*labels))
            .map(|(id, _)| id)
            .collect();
        prop_assert_eq!(&selected, &expected, "selector {}", selector);
        let resolved = index.table().resolve(selector.clone());
        let by_table: Vec<usize> = (0..fleet.len()).filter(|&id| resolved.matches(id)).collect();
        prop_assert_eq!(by_table, expected, "selector {}", selector);
        for (id, labels) in fleet.iter().enumerate() {
            prop_assert_eq!(resolved.first_mismatch(id), selector.first_mismatch(labels));
        }
    }

    #[test]
    fn interned_labels_select_like_string_maps(
        fleet in fleet(),
        requirements in vec(fleet_requirement(), 0..4),
    ) {
        let selector = Selector::from_requirements(requirements);
        let mut interner = Interner::default();
        let interned: Vec<Labels> = fleet.iter().map(|labels| interner.labels(labels)).collect();
        for (strings, labels) in fleet.iter().zip(&interned) {
            prop_assert_eq!(selector.matches(labels), selector.matches(strings));
            prop_assert_eq!(selector.first_mismatch(labels), selector.first_mismatch(strings));
        }
        let by_interned: Vec<usize> =
            LabelIndex::new(&interned, |labels| labels).select(&selector).iter_ones().collect();
        let by_strings: Vec<usize> =
            LabelIndex::new(&fleet, |labels| labels).select(&selector).iter_ones().collect();
        prop_assert_eq!(by_interned, by_strings, "selector {}", selector);
    }
}
