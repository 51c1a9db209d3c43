//! Turning plans, traces, selections and check reports into tables, YAML, JSON and the
//! formats CI reads (JUnit, SARIF, GitHub workflow commands).

pub mod bindings;
pub mod check;
pub mod decisions;
pub mod diff;
pub mod escape;
pub mod explain;
pub mod junit;
pub mod plan;
pub mod sarif;
pub mod select;
pub mod table;
pub mod workflow;

/// Why a document cannot be written: the serializer's own error. None of today's documents
/// fails to serialize; should one ever, the command fails and says which.
#[derive(Debug, thiserror::Error)]
pub enum Unrepresentable {
    #[error("YAML: {0}")]
    Yaml(#[from] serde_yaml::Error),
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
}
