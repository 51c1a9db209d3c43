//! Turning plans, traces, selections and check reports into tables, YAML, JSON and the
//! formats CI reads (JUnit, SARIF, GitHub workflow commands).

pub(crate) mod check;
pub(crate) mod diff;
pub mod escape;
pub(crate) mod explain;
pub(crate) mod junit;
pub(crate) mod plan;
pub(crate) mod sarif;
pub(crate) mod select;
pub(crate) mod table;
pub(crate) mod workflow;

/// Why a document cannot be written: the serializer's own error. Every document fleetplan
/// writes goes through a serializer that can refuse it (a migrated object keeps its input's
/// mapping keys, which JSON cannot write unless they are strings): the refusal is the
/// command's error, never an empty or partial output. A plan item's is an
/// [`plan::ItemError`] naming the item.
#[derive(Debug, thiserror::Error)]
pub enum Unrepresentable {
    #[error("YAML: {0}")]
    Yaml(#[from] serde_yaml::Error),
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// `value` as indented JSON and a final new line: how every JSON document is written.
pub(crate) fn json_document<T: serde::Serialize + ?Sized>(
    value: &T,
) -> Result<String, Unrepresentable> {
    let mut text = escape::json_pretty(value)?;
    text.push('\n');
    Ok(text)
}
