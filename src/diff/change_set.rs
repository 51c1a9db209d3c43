//! The change set between two plans, serialized as `fleetplan diff -o json`.
//!
//! Field names are camelCase like the Plan document; empty fields are omitted, so an empty
//! change set serializes as `{}`.

use serde::Serialize;

use crate::model::ConditionStatus;
use crate::plan::{ObjectRef, PlanItem};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanDiff {
    /// Items only in the current plan, in plan order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items_added: Vec<PlanItem>,
    /// Items only in the previous plan, in plan order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items_removed: Vec<PlanItem>,
    /// Items in both plans that differ, in plan order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items_changed: Vec<ItemChange>,
    /// How many errors the current plan's items have (every summary counts them).
    #[serde(skip)]
    pub errors: usize,
}

impl PlanDiff {
    pub fn is_empty(&self) -> bool {
        self.items_added.is_empty()
            && self.items_removed.is_empty()
            && self.items_changed.is_empty()
    }
}

/// How one item differs; every list is sorted by its key (cluster name, group index,
/// condition type, error text).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemChange {
    pub source: ObjectRef,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clusters_added: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub clusters_removed: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub replicas: Vec<CountChange>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overflow: Vec<CountChange>,
    /// The changes of the item's per-API fields written before its conditions' (an OCM
    /// Placement's decision groups).
    #[serde(flatten)]
    pub(crate) selection: crate::registry::SelectionChanges,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<ConditionChange>,
    /// The changes of the item's other per-API fields (a Karmada resource's claiming policy
    /// and affinity term; an OCM Placement's `changesAt`, a placement consumer's routes, a
    /// work replica set's rollouts; a KubeFleet placement's scores, Unscheduled
    /// bindings, stages and overrides).
    #[serde(flatten)]
    pub(crate) apis: crate::registry::ApiChanges,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors_added: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors_removed: Vec<String>,
    /// Whether the item started or stopped failing: a change of its own type, told apart
    /// from a change of placement in every format.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_state: Option<ErrorState>,
}

/// An item that had no error and has one now, or had errors and has none now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ErrorState {
    /// No error in the previous plan, some in the current one.
    Gained,
    /// Errors in the previous plan, none in the current one.
    Lost,
}

impl ErrorState {
    /// What happened to the item, in the words every format uses.
    pub fn describe(self) -> &'static str {
        match self {
            ErrorState::Gained => "gained an error",
            ErrorState::Lost => "lost its errors",
        }
    }
}

impl ItemChange {
    pub fn is_empty(&self) -> bool {
        self.clusters_added.is_empty()
            && self.clusters_removed.is_empty()
            && self.replicas.is_empty()
            && self.overflow.is_empty()
            && self.conditions.is_empty()
            && self.selection.is_empty()
            && self.apis.is_empty()
            && self.errors_added.is_empty()
            && self.errors_removed.is_empty()
    }
}

/// A per-cluster count that moved; a cluster absent from a plan counts 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CountChange {
    pub cluster: String,
    pub before: i64,
    pub after: i64,
}

/// A condition (matched by type) that appeared, disappeared or changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConditionChange {
    #[serde(rename = "type")]
    pub type_: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<ConditionState>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<ConditionState>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConditionState {
    pub status: ConditionStatus,
    pub reason: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
}
