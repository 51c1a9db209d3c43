//! `ClusterResourceBinding` / `ResourceBinding`: the scheduler's decision for one cluster,
//! and what a placement's status lists (`ClusterDecision`).

use serde::{Deserialize, Serialize};

use super::wire::Metadata;

/// The label that ties a binding or a policy snapshot to its placement.
pub(crate) const PARENT_PLACEMENT_LABEL: &str = "kubernetes-fleet.io/parent-CRP";
/// Where upstream keeps a binding's state while it is Unscheduled (`markAsUnscheduled`).
pub(crate) const PREVIOUS_STATE_ANNOTATION: &str = "kubernetes-fleet.io/previous-binding-state";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub(crate) enum BindingState {
    #[default]
    Scheduled,
    Bound,
    Unscheduled,
}

/// A binding as read from its manifest.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(from = "Wire")]
pub(crate) struct Binding {
    pub(crate) name: String,
    pub(crate) namespace: Option<String>,
    /// The placement it belongs to (label `kubernetes-fleet.io/parent-CRP`).
    pub(crate) placement: Option<String>,
    pub(crate) deletion_timestamp: Option<i64>,
    pub(crate) target_cluster: String,
    pub(crate) state: BindingState,
    pub(crate) scheduling_policy_snapshot_name: String,
    pub(crate) cluster_decision: ClusterDecision,
    /// The state an Unscheduled binding had, restored if its cluster is picked again.
    pub(crate) previous_state: Option<BindingState>,
}

/// `ClusterDecision`: one line of `status.clusterDecisions` (and of a binding's spec).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ClusterDecision {
    #[serde(default)]
    pub(crate) cluster_name: String,
    #[serde(default)]
    pub(crate) selected: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) cluster_score: Option<BindingScore>,
    #[serde(default)]
    pub(crate) reason: String,
}

/// `ClusterScore` of the API: `priorityScore` is the topology spread score (the Go field
/// `TopologySpreadScore` is serialized under that name).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BindingScore {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affinity_score: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority_score: Option<i32>,
}

#[derive(Deserialize)]
struct Wire {
    #[serde(default)]
    metadata: Metadata,
    #[serde(default)]
    spec: Spec,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    #[serde(default)]
    target_cluster: String,
    #[serde(default)]
    state: BindingState,
    #[serde(default)]
    scheduling_policy_snapshot_name: String,
    #[serde(default)]
    cluster_decision: ClusterDecision,
}

impl From<Wire> for Binding {
    fn from(wire: Wire) -> Binding {
        let previous_state = match wire.metadata.annotations.get(PREVIOUS_STATE_ANNOTATION) {
            Some(state) if state == "Bound" => Some(BindingState::Bound),
            Some(state) if state == "Scheduled" => Some(BindingState::Scheduled),
            _ => None,
        };
        Binding {
            name: wire.metadata.name,
            namespace: wire.metadata.namespace,
            placement: wire.metadata.labels.get(PARENT_PLACEMENT_LABEL).cloned(),
            deletion_timestamp: wire.metadata.deletion_timestamp,
            target_cluster: wire.spec.target_cluster,
            state: wire.spec.state,
            scheduling_policy_snapshot_name: wire.spec.scheduling_policy_snapshot_name,
            cluster_decision: wire.spec.cluster_decision,
            previous_state,
        }
    }
}
