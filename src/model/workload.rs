use std::collections::BTreeMap;

use super::{LabelSelectorSpec, ObjectRef, Source};
use crate::karmada::model::ResourceTemplate;
use crate::kubefed::model::RspSpec;
use crate::ocm::model::consumer::ConsumerSpec;
use crate::ocm::model::placement::{PlacementRuleSpec, PlacementSpec};

/// Anything in the inputs that asks for placement.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    pub object: ObjectRef,
    pub source: Source,
    /// Raw `federation.alpha.kubernetes.io/cluster-selector` annotation. Parsed by the selector
    /// engine at plan time so a malformed value becomes an item error, not a load error.
    pub cluster_selector: Option<String>,
    /// `metadata.labels`, which `plan -l` and `check -l` select workloads by.
    pub labels: BTreeMap<String, String>,
    /// Written without `metadata.namespace`: its namespace is the one of `-n` (or the
    /// default), which `check` names in its hints.
    pub namespace_omitted: bool,
    pub kind: WorkloadKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum WorkloadKind {
    /// Any other object carrying federation annotations (ConfigMap, ReplicaSet, Deployment…).
    Annotated {
        /// Raw `federation.kubernetes.io/replica-set-preferences` annotation, if any.
        replica_set_preferences: Option<String>,
        /// `spec.replicas`, default 1.
        replicas: i64,
    },
    /// kubefed `ReplicaSchedulingPreference` (`scheduling.kubefed.io/v1alpha1`).
    ReplicaSchedulingPreference(RspSpec),
    /// kubefed `Federated*` (`types.kubefed.io/v1beta1`).
    Federated(FederatedPlacement),
    /// OCM `Placement` (v1alpha1 or v1beta1, normalised to one shape).
    Placement(Box<PlacementSpec>),
    /// `PlacementRule` (`apps.open-cluster-management.io/v1`).
    PlacementRule(Box<PlacementRuleSpec>),
    /// A resource template of a kind some Karmada policy selects (which one claims it is
    /// decided at plan time, against the model's `karmada` objects).
    Karmada(Box<ResourceTemplate>),
    /// An object that lands where the OCM placements it references land (Policy, PolicySet,
    /// Subscription, ManifestWorkReplicaSet, ApplicationSet, ClusterManagementAddOn).
    Consumer(Box<ConsumerSpec>),
    /// A KubeFleet ClusterResourcePlacement or ResourcePlacement.
    KubeFleet(Box<crate::kubefleet::model::objects::PlacementObject>),
}

/// `spec.placement` of a kubefed federated object.
#[derive(Clone, Debug, PartialEq)]
pub enum FederatedPlacement {
    /// `clusters[].name` was present (even empty): it wins over `clusterSelector`.
    Clusters(Vec<String>),
    /// `clusterSelector`: `None` (absent) selects no cluster, `{}` every cluster.
    Selector(Option<LabelSelectorSpec>),
}
