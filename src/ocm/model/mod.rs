//! OCM's specs as plain data: Placement and PlacementRule (`placement`), the consumers
//! (`consumer`), what a hub's previous decisions are to it (`decision`), and the add-on
//! scores the inventory carries for it (`scores`).

pub(crate) mod consumer;
pub(crate) mod decision;
pub(crate) mod placement;
pub(crate) mod scores;
