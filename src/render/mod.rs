//! Turning plans, traces and selections into tables, YAML and JSON.

pub mod bindings;
pub mod check;
pub mod decisions;
pub mod explain;
pub mod plan;
pub mod selection;
pub mod table;
