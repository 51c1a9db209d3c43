//! The Plan document (versioned, stable) and the per-workload combination of the engines.

mod document;

pub use document::{Condition, Group, ItemSource, Plan, PlanItem, API_VERSION, KIND};
