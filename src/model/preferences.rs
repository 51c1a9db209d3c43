//! Replica scheduling preferences: the `federation.kubernetes.io/replica-set-preferences`
//! annotation and kubefed `ReplicaSchedulingPreference` share this shape.
// Owned by the replica planner work (issue 3).

use std::collections::BTreeMap;

/// Preferences for one cluster (or `"*"`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClusterPreferences {
    pub min_replicas: i64,
    /// `None` = unbounded.
    pub max_replicas: Option<i64>,
    pub weight: i64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplicaPreferences {
    pub rebalance: bool,
    /// Cluster name or `"*"` → preferences. Empty means `{"*": {weight: 1}}`.
    pub clusters: BTreeMap<String, ClusterPreferences>,
}

/// `spec` of a kubefed `ReplicaSchedulingPreference`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RspSpec {
    pub target_kind: String,
    pub total_replicas: i64,
    pub preferences: ReplicaPreferences,
    pub intersect_with_cluster_selector: bool,
}
