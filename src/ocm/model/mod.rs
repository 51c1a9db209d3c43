//! OCM's specs as plain data: Placement and PlacementRule (`placement`), the consumers
//! (`consumer`), and what a hub's previous decisions are to it (`decision`).

pub(crate) mod consumer;
pub(crate) mod decision;
pub(crate) mod placement;
