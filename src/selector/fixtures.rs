//! Shorthands for the selector unit tests.
use std::collections::BTreeMap;

use crate::model::LabelSelectorRequirementSpec;

use super::{Operator, Requirement};

pub(crate) fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// A requirement the test knows to be valid.
pub(crate) fn req(key: &str, op: Operator, values: &[&str]) -> Requirement {
    match Requirement::new(key, op, values.iter().map(|v| v.to_string()).collect()) {
        Ok(r) => r,
        Err(e) => panic!("requirement {key} {op} {values:?}: {e}"),
    }
}

/// A `matchExpressions` entry as a manifest spells it.
pub(crate) fn expr(key: &str, operator: &str, values: &[&str]) -> LabelSelectorRequirementSpec {
    LabelSelectorRequirementSpec {
        key: key.to_string(),
        operator: operator.to_string(),
        values: values.iter().map(|v| v.to_string()).collect(),
    }
}
