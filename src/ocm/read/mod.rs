//! OCM's kinds and their readers (the load layer): Placement with its ClusterSets,
//! PlacementDecisions and AddOnPlacementScores, PlacementRule, the consumers, and the
//! decisions `--previous` reads.

pub(crate) mod consumers;
pub(crate) mod placement;
pub(crate) mod placement_rule;
pub(crate) mod previous;
