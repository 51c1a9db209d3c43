//! The OCM migration target: PlacementRules and the federation cluster-selector annotation to
//! Placements, the consumers' references rewritten, and the workloads delivered by
//! ManifestWorkReplicaSets.

pub(crate) mod cluster_selector;
pub(crate) mod consumers;
pub(crate) mod delivery;
pub(crate) mod placement_rule;
