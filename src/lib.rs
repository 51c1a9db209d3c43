//! fleetplan: plans where Kubernetes workloads go across a fleet of clusters, offline.
//!
//! Data flows one way: `load` → `model` → engines (`selector`, `placement`, `replicas`) →
//! `plan` → `render`. The CLI (`cli`) only parses arguments, calls the library and renders.

pub mod baseline;
pub mod cli;
pub mod diff;
pub mod exit_code;
pub mod findings;
pub mod interrupt;
pub mod karmada;
pub mod kubefleet;
pub mod load;
pub mod migrate;
pub mod model;
pub mod output;
pub mod parallel;
pub mod placement;
pub mod plan;
pub mod render;
pub mod replicas;
pub mod selector;
pub mod verdict;
pub mod yaml11;

#[cfg(test)]
mod testing;
