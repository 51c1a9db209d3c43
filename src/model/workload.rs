use std::collections::BTreeMap;

use super::{ObjectRef, Source};
use crate::registry::WorkloadKind;

/// Anything in the inputs that asks for placement.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    pub object: ObjectRef,
    pub source: Source,
    /// Raw `federation.alpha.kubernetes.io/cluster-selector` annotation. Parsed by the selector
    /// engine at plan time so a malformed value becomes an item error, not a load error.
    pub cluster_selector: Option<String>,
    /// `metadata.labels`, which `plan -l` and `check -l` select workloads by.
    pub labels: BTreeMap<String, String>,
    /// Written without `metadata.namespace`: its namespace is the one of `-n` (or the
    /// default), which `check` names in its hints.
    pub namespace_omitted: bool,
    pub kind: WorkloadKind,
}
