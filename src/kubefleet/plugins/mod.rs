//! The default profile's plugins (`pkg/scheduler/profile/profile.go NewProfile`), one file
//! each as upstream's `pkg/scheduler/framework/plugins/<name>/`. Filters run in this order,
//! the first non-success deciding: ClusterAffinity, ClusterEligibility, NamespaceAffinity (RP
//! only), TaintToleration, SamePlacementAffinity, TopologySpreadConstraints.

pub(crate) mod cluster_affinity;
pub(crate) mod cluster_eligibility;
pub(crate) mod namespace_affinity;
pub(crate) mod same_placement_affinity;
pub(crate) mod taint_toleration;
pub(crate) mod topology_spread_constraints;
