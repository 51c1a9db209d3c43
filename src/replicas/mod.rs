//! The federated ReplicaSet / kubefed replica planner, replica for replica as the reference.

mod annotation;
mod order;
mod planner;
#[cfg(test)]
mod planner_properties;
#[cfg(test)]
mod seed_scenarios;
mod trace;
pub(crate) mod upstream_vectors;

pub use annotation::parse_replica_set_preferences;
pub(crate) use annotation::{PreferencesError, REPLICA_SET_PREFERENCES_ANNOTATION};
#[cfg(test)]
use order::fnv1_32;
pub(crate) use planner::plan_with_trace;
pub use planner::{plan, PlannerInput};
pub(crate) use trace::{ClusterTrace, PreferenceSource, ReplicaTrace, RoundTrace};
