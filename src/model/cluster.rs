use super::{LabelSelectorSpec, Labels, Quantity, Source, VecMap};

/// The label that puts a hub's cluster object into an exclusive cluster set.
pub(crate) const CLUSTERSET_LABEL: &str = "cluster.open-cluster-management.io/clusterset";

/// One member cluster of the fleet, from any of the cluster kinds the loader reads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cluster {
    pub name: String,
    pub labels: Labels,
    /// ClusterClaims (`status.clusterClaims[]` or inventory `claims:`), name → value.
    pub claims: Labels,
    pub taints: Vec<Taint>,
    /// `status.allocatable` / inventory `allocatable:` by resource name (`cpu`, `memory`).
    pub allocatable: VecMap<String, Quantity>,
    /// `status.capacity` by resource name. The resource prioritizers need both.
    pub resource_capacity: VecMap<String, Quantity>,
    /// How many more replicas the cluster can run; `None` = unbounded (0 is a real capacity).
    pub replica_capacity: Option<i64>,
    /// Offline clusters never get replicas; OCM sees them as tainted unavailable/unreachable.
    pub online: bool,
    /// Condition type → status ("True", "False", "Unknown").
    pub conditions: VecMap<String, String>,
    /// `metadata.deletionTimestamp` is set: the scheduler drops it.
    pub deleting: bool,
    pub source: Source,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TaintEffect {
    NoSelect,
    PreferNoSelect,
    NoSelectIfNew,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taint {
    pub key: String,
    pub value: String,
    pub effect: TaintEffect,
    /// Unix seconds; `None` is Go's zero time (year 1).
    pub time_added: Option<i64>,
}

/// An OCM cluster set and how it picks its members.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterSet {
    pub name: String,
    pub selector: ClusterSetSelector,
    pub source: Source,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ClusterSetSelector {
    /// Members carry `cluster.open-cluster-management.io/clusterset=<set name>`.
    ExclusiveClusterSetLabel,
    /// Members match the selector; `None` (absent) matches no cluster, `{}` every cluster.
    LabelSelector(Option<LabelSelectorSpec>),
    /// A selector type this version does not know: an error when a placement uses the set.
    Unknown(String),
}

/// A cluster set binding: makes the set `cluster_set` usable from `namespace`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    pub namespace: String,
    pub name: String,
    pub cluster_set: String,
    pub source: Source,
}

/// The fleet: clusters in input order (the order the replica planner's "available" uses
/// before hashing), plus the OCM objects that organise them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inventory {
    pub clusters: Vec<Cluster>,
    pub cluster_sets: Vec<ClusterSet>,
    pub bindings: Vec<Binding>,
    /// What each API adds to the fleet its placements are scheduled over (OCM's add-on
    /// scores), one store per API, listed in the registry.
    pub(crate) apis: crate::registry::InventoryExtras,
}
