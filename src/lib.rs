//! fleetplan: plans where Kubernetes workloads go across a fleet of clusters, offline.
//!
//! Data flows one way: `load` → `model` → engines (`selector`, `ocm`, `replicas`, `karmada`, `kubefleet`) →
//! `plan` → `render`. The CLI (`cli`) only parses arguments, calls the library and renders.
//!
//! Every module is private to the crate and `unreachable_pub` is denied: what is `pub` is
//! the facade below, exported on purpose for the binary (`main.rs`), the benchmarks
//! (`benches/`), the fuzz targets (`fuzz/`) and the integration tests (`tests/cli/`).
#![deny(unreachable_pub)]

mod baseline;
mod cli;
mod diff;
mod exit_code;
mod federation;
mod findings;
mod interrupt;
mod karmada;
mod kubefed;
mod kubefleet;
mod load;
mod merge;
mod migrate;
mod model;
mod ocm;
mod output;
mod parallel;
mod plan;
mod registry;
mod render;
mod replicas;
mod selector;
mod vectors;
mod verdict;
mod yaml11;

#[cfg(test)]
mod testing;

// The binary: the command line, run on a deep stack (CEL's parser recurses).
pub use cli::main;
pub use parallel::with_deep_stack;

// The packaging tests: the clap definition, from which the committed completions and manual
// pages are generated, and each manual page's examples.
pub use cli::command;
pub use cli::completions::scripts as completion_scripts;
pub use cli::man::pages as man_pages;
pub use cli::man_usage::usage as man_usage;

// Load, plan and render as `fleetplan plan` does (benchmarks, fuzz bodies, property tests).
pub use load::{load, previous_plan, LoadOptions};
pub use model::{ClusterNames, Condition, ConditionStatus, Model, Previous, WorkloadKind};
pub use model::{ObjectRef, Plan, PlanItem};
// Each API's own fields of a plan item: Karmada's claim, KubeFleet's (design §9), OCM's.
pub use registry::{BindingScore, ClusterOverrides, ItemFields, KubeFleetFields, Stage};
pub use registry::{DecisionGroup, DecisionGroups, OcmFields, Rollout, Wave};
pub use registry::{KarmadaFields, SelectionFields};
// What `WorkloadKind` and `ItemTrace` hold for a KubeFleet placement (opaque outside).
pub use plan::{build, build_item, ItemTrace, PlanOptions, Trace};
pub use registry::KubeFleetPlacement;
pub use registry::KubeFleetTrace;
pub use registry::ObjectOutput as PlanObjects;
pub use render::plan::{
    json as plan_json, stream as stream_plan, yaml as plan_yaml, Output as PlanOutput,
};

// The engines and their inputs, benchmarked and fuzzed apart.
pub use model::ClusterIndex;
pub use ocm::trace::Verdict;
pub use ocm::{schedule, PlacementInput, PlacementResult, Scheduler};
pub use replicas::{parse_replica_set_preferences, plan as plan_replicas, PlannerInput};
pub use selector::{ClusterBits, LabelIndex, LabelTable, Selector};

// Diff, the output escaping and YAML as fleetplan writes it.
pub use diff::compare;
pub use render::diff::text as diff_text;
pub use render::escape;
pub use yaml11::to_string as to_yaml;
