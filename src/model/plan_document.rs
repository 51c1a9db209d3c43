//! The Plan document: fleetplan's versioned, machine-readable output and `--previous` input.
//! Plain data, so `load` reads a previous plan without depending on `plan`, which builds one.
//!
//! Stability rules (formats.md): items sorted by (apiVersion group, kind, namespace, name),
//! cluster names sorted, maps with sorted keys, fields that do not apply omitted.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{ClusterNames, Condition, ConditionStatus, ObjectRef};

pub(crate) const PLAN_API_VERSION: &str = "fleetplan.io/v1alpha1";
pub(crate) const PLAN_KIND: &str = "Plan";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Plan {
    pub api_version: String,
    pub kind: String,
    #[serde(default)]
    pub items: Vec<PlanItem>,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            api_version: PLAN_API_VERSION.to_string(),
            kind: PLAN_KIND.to_string(),
            items: Vec::new(),
        }
    }
}

impl Plan {
    pub fn item(&self, source: &ObjectRef) -> Option<&PlanItem> {
        self.items.iter().find(|item| &item.source == source)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlanItem {
    pub source: ObjectRef,
    /// Selected clusters, sorted by name (ranks into the fleet's names when planned).
    #[serde(default)]
    pub clusters: ClusterNames,
    /// Replica workloads: non-zero counts only.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub replicas: BTreeMap<String, i64>,
    /// Replicas asked beyond a cluster's capacity (the controllers wrote plan + overflow).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub overflow: BTreeMap<String, i64>,
    /// OCM decision groups, in index order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Group>,
    /// Karmada: the PropagationPolicy or ClusterPropagationPolicy that claims the resource
    /// (`PropagationPolicy/ns/name`, `ClusterPropagationPolicy/name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
    /// Karmada: the `clusterAffinities` term the result came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub affinity_term: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// KubeFleet: each selected cluster's score as its binding records it (none without one).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub scores: BTreeMap<String, crate::registry::BindingScore>,
    /// KubeFleet: the clusters whose bindings the scheduler marks Unscheduled.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    /// KubeFleet: the stages of the placement's staged update run, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<crate::registry::Stage>,
    /// KubeFleet: the overrides that apply to each selected cluster.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub overrides: BTreeMap<String, crate::registry::ClusterOverrides>,
    /// When a toleration expires and the plan would change (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes_at: Option<String>,
    /// A placement consumer: each way it lands, as the objects from it to the placement
    /// (`[PlacementBinding/ns/b, Placement/ns/p]`), in the order its controller reads them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub via: Vec<Vec<String>>,
    /// A ManifestWorkReplicaSet: for each placement, the order its rollout strategy gives
    /// the work to the clusters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rollout: Vec<Rollout>,
    /// An item with errors selected nothing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
}

impl PlanItem {
    /// Conditions in their bad state: `PlacementMisconfigured=True`, any other `False`.
    /// `check` calls an item with such a condition (and no errors) unsatisfied.
    pub fn problems(&self) -> impl Iterator<Item = &Condition> {
        self.conditions.iter().filter(|condition| {
            let bad = if condition.type_ == "PlacementMisconfigured" {
                ConditionStatus::True
            } else {
                ConditionStatus::False
            };
            condition.status == bad
        })
    }
}

/// The waves in which a ManifestWorkReplicaSet's rollout strategy reaches the clusters of one
/// placement, each wave starting once the one before has succeeded.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Rollout {
    /// `Placement/ns/name`.
    pub placement: String,
    /// `All`, `Progressive` or `ProgressivePerGroup`.
    pub strategy: String,
    pub waves: Vec<Wave>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Wave {
    /// A mandatory decision group: no failure tolerated.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mandatory: bool,
    /// The decision group's index, when the wave is one whole group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<usize>,
    pub clusters: ClusterNames,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Group {
    pub name: String,
    pub index: usize,
    pub clusters: ClusterNames,
}
