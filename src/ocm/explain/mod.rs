//! Explain's pieces for OCM: a Placement's scheduler trace, a PlacementRule's, a consumer's.

pub(crate) mod consumer;
pub(crate) mod decisions;
pub(crate) mod placement;
pub(crate) mod placement_rule;
