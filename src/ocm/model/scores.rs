//! OCM's `AddOnPlacementScore` (cluster.open-cluster-management.io/v1alpha1): scores an add-on
//! reports for its cluster, which CEL predicates (`managedCluster.scores`) and the AddOn
//! prioritizer read.

use std::collections::BTreeMap;

use crate::model::Source;

/// An `AddOnPlacementScore` (namespace = the cluster's name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AddOnPlacementScore {
    pub(crate) namespace: String,
    pub(crate) name: String,
    pub(crate) scores: BTreeMap<String, i64>,
    /// Unix seconds; after it the scores are stale and count as 0.
    pub(crate) valid_until: Option<i64>,
    pub(crate) source: Source,
}
