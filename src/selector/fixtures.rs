//! Shorthands for the selector unit tests.
use std::collections::BTreeMap;

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
