//! OCM's plan steps: a Placement, a PlacementRule, and the consumers, planned after the
//! placements they reference.

pub(crate) mod consumers;
pub(crate) mod placement;
pub(crate) mod placement_rule;
