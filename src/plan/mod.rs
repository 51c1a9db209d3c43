//! The Plan document (versioned, stable) and the per-workload combination of the engines.
