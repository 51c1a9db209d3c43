//! The federated ReplicaSet / kubefed replica planner, replica for replica as the reference.

mod annotation;
mod order;
mod planner;
#[cfg(test)]
mod planner_properties;
#[cfg(test)]
mod seed_scenarios;
mod trace;
#[cfg(test)]
mod upstream_vectors;

pub use annotation::{
    parse_replica_set_preferences, PreferencesError, REPLICA_SET_PREFERENCES_ANNOTATION,
};
pub use order::fnv1_32;
pub use planner::{plan, plan_with_trace, ClusterPlan, PlannerInput, ReplicaPlan};
pub use trace::{ClusterTrace, PreferenceSource, ReplicaTrace, RoundTrace, ShareTrace};
