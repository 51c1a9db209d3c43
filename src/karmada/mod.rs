//! The Karmada scheduling pipeline, offline: which policy claims a resource template (the
//! resource detector), then what `karmada-scheduler` writes into its ResourceBinding.
//!
//! Upstream: `karmada-io/karmada` at f8fdd02df376 (`pkg/detector`, `pkg/scheduler`,
//! `pkg/estimator/client/general.go`, `pkg/util/helper/webstermethod.go`). One file per
//! upstream concern; every function here is pure (no I/O, no clock: time is an input).

pub(crate) mod assignment;
pub(crate) mod cluster_controller;
pub(crate) mod cluster_locality;
pub(crate) mod cluster_matches;
pub(crate) mod detector;
pub(crate) mod diff;
pub(crate) mod estimator;
pub(crate) mod explain;
pub(crate) mod fields;
pub(crate) mod filter;
pub(crate) mod fleet;
pub(crate) mod migrate;
pub(crate) mod model;
pub(crate) mod plan;
pub(crate) mod read;
pub(crate) mod scheduler;
pub(crate) mod spread;
#[cfg(test)]
mod upstream_vectors;
pub(crate) mod webster;

use crate::karmada::model::{Placement, ResourceTemplate, TargetCluster};

pub(crate) use detector::{claim, ignored, Candidate, Claim};
pub(crate) use scheduler::schedule;

/// The ResourceBinding the scheduler reads: the resource's replicas and requirements, the
/// claiming policy's placement, and what the previous binding kept (`ApplyPolicy` keeps
/// `spec.clusters`, `gracefulEvictionTasks`, `rescheduleTriggeredAt` and `status`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Binding<'a> {
    pub resource: &'a ResourceTemplate,
    pub placement: &'a Placement,
    /// The previous `spec.clusters`.
    pub clusters: &'a [TargetCluster],
    /// `spec.gracefulEvictionTasks[].fromCluster`.
    pub eviction_from: &'a [String],
    /// `RescheduleRequired`: `rescheduleTriggeredAt` after `status.lastScheduledTime`.
    pub reschedule: bool,
    /// `status.schedulerObservingAffinityName`.
    pub observed_affinity: Option<&'a str>,
}

impl Binding<'_> {
    /// `ResourceBindingSpec.TargetContains`.
    pub(crate) fn targets(&self, cluster: &str) -> bool {
        self.clusters.iter().any(|target| target.name == cluster)
    }

    /// `ResourceBindingSpec.IsWorkload` (without components).
    pub(crate) fn is_workload(&self) -> bool {
        self.resource.replicas > 0 || self.resource.requirements.is_some()
    }
}

/// `names.GenerateBindingName`: `<name>-<kind>` lower-cased, `:` replaced by `.`.
pub(crate) fn binding_name(kind: &str, name: &str) -> String {
    format!("{}-{kind}", name.replace(':', ".")).to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binding_names_are_lower_case_name_dash_kind() {
        assert_eq!(binding_name("Deployment", "App"), "app-deployment");
        assert_eq!(
            binding_name("ClusterRole", "system:viewer"),
            "system.viewer-clusterrole"
        );
    }
}
