//! Turning plans, traces, selections and check reports into tables, YAML, JSON and the
//! formats CI reads (JUnit, SARIF, GitHub workflow commands).

pub mod bindings;
pub mod check;
pub mod decisions;
pub mod diff;
pub mod explain;
pub mod junit;
pub mod plan;
pub mod sarif;
pub mod select;
pub mod table;
pub mod workflow;
