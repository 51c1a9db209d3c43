//! The default profile's plugins (`pkg/scheduler/profile/profile.go NewProfile`), one file
//! each as upstream's `pkg/scheduler/framework/plugins/<name>/`. Filters run in this order,
//! the first non-success deciding: ClusterAffinity, ClusterEligibility, NamespaceAffinity (RP
//! only), TaintToleration, SamePlacementAffinity, TopologySpreadConstraints.

pub mod cluster_affinity;
pub mod cluster_eligibility;
pub mod namespace_affinity;
pub mod same_placement_affinity;
pub mod taint_toleration;
pub mod topology_spread_constraints;
