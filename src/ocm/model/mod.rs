//! OCM's specs as plain data: Placement and PlacementRule (`placement`), the consumers
//! (`consumer`).

pub(crate) mod consumer;
pub(crate) mod placement;
