//! Karmada objects as the scheduler sees them: `Cluster` (cluster.karmada.io/v1alpha1),
//! `PropagationPolicy` / `ClusterPropagationPolicy` (policy.karmada.io/v1alpha1) after admission
//! defaults, the resource templates they select, and `ResourceBinding`
//! (work.karmada.io/v1alpha2) as the previous result. Plain data; the loader fills it and
//! `crate::karmada` schedules it.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{LabelSelectorSpec, ObjectRef, Source};

/// Every Karmada object of one run except the resource templates (those are workloads).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct KarmadaObjects {
    /// In input order (upstream lists them from an informer cache; fleetplan keeps input
    /// order, and every place order could matter sorts by name).
    pub clusters: Vec<KarmadaCluster>,
    pub policies: Vec<PropagationPolicy>,
    pub bindings: Vec<ResourceBinding>,
}

/// A member cluster (`cluster.karmada.io/v1alpha1` `Cluster`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KarmadaCluster {
    pub name: String,
    pub labels: BTreeMap<String, String>,
    pub provider: String,
    pub region: String,
    pub zone: String,
    pub zones: Vec<String>,
    pub taints: Vec<ClusterTaint>,
    /// `status.apiEnablements`: groupVersion → kinds.
    pub api_enablements: BTreeMap<String, BTreeSet<String>>,
    pub resource_summary: Option<ResourceSummary>,
    /// `status.conditions[type=Ready].status`, if any (shown, never filtered on: upstream has no
    /// readiness filter).
    pub ready: Option<String>,
    /// `metadata.deletionTimestamp` is set.
    pub deleting: bool,
    /// `spec.syncMode` (`Push` or `Pull`): decides which controller reports an unreachable
    /// member, and so which taint it gets (`crate::karmada::cluster_controller`).
    pub sync_mode: String,
    /// `--capacity`: the estimate the general estimator gives for every workload, instead of
    /// the one `status.resourceSummary` gives.
    pub replica_capacity: Option<i64>,
    /// The what-if flags that changed this cluster, as `explain` says them.
    pub edits: Vec<String>,
    pub source: Source,
}

/// A `corev1.Taint` on a cluster; the effect stays a string (upstream compares strings).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClusterTaint {
    pub key: String,
    pub value: String,
    pub effect: String,
}

/// `status.resourceSummary`, every quantity in exact nano-units.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceSummary {
    pub allocatable: BTreeMap<String, i128>,
    pub allocated: BTreeMap<String, i128>,
    pub allocating: BTreeMap<String, i128>,
    /// `allocatableModelings` is present: upstream then simulates the models instead.
    pub has_modelings: bool,
}

/// Which of the two policy kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PolicyKind {
    PropagationPolicy,
    ClusterPropagationPolicy,
}

impl PolicyKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PolicyKind::PropagationPolicy => "PropagationPolicy",
            PolicyKind::ClusterPropagationPolicy => "ClusterPropagationPolicy",
        }
    }
}

/// A PropagationPolicy or ClusterPropagationPolicy with the admission defaults applied.
#[derive(Clone, Debug, PartialEq)]
pub struct PropagationPolicy {
    pub kind: PolicyKind,
    /// `None` for a ClusterPropagationPolicy.
    pub namespace: Option<String>,
    pub name: String,
    /// `spec.priority` (default 0).
    pub priority: i32,
    pub resource_selectors: Vec<ResourceSelector>,
    pub placement: Placement,
    /// `spec.schedulerName` (default `default-scheduler`).
    pub scheduler_name: String,
    pub dependent_overrides: Vec<String>,
    pub deleting: bool,
    pub source: Source,
}

impl PropagationPolicy {
    /// `PropagationPolicy/ns/name` or `ClusterPropagationPolicy/name`, how plans name it.
    pub fn reference(&self) -> String {
        match &self.namespace {
            Some(namespace) => format!("{}/{namespace}/{}", self.kind.as_str(), self.name),
            None => format!("{}/{}", self.kind.as_str(), self.name),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResourceSelector {
    pub api_version: String,
    pub kind: String,
    /// Empty = any namespace (a PropagationPolicy's selectors get its own by default).
    pub namespace: String,
    pub name: String,
    pub label_selector: Option<LabelSelectorSpec>,
}

/// `spec.placement`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Placement {
    pub cluster_affinity: Option<ClusterAffinity>,
    /// `None` when absent (an empty list is kept: upstream tests `!= nil`).
    pub cluster_affinities: Option<Vec<ClusterAffinityTerm>>,
    pub cluster_tolerations: Vec<Toleration>,
    pub spread_constraints: Vec<SpreadConstraint>,
    pub replica_scheduling: Option<ReplicaScheduling>,
}

impl Placement {
    /// `Placement.ReplicaSchedulingType()`: absent means Duplicated.
    pub fn divided(&self) -> bool {
        self.replica_scheduling
            .as_ref()
            .is_some_and(|strategy| strategy.scheduling_type == SchedulingType::Divided)
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClusterAffinity {
    pub label_selector: Option<LabelSelectorSpec>,
    pub field_selector: Option<Vec<FieldRequirement>>,
    pub cluster_names: Vec<String>,
    pub exclude: Vec<String>,
}

/// A `corev1.NodeSelectorRequirement` of a field selector (`provider`, `region`, `zone`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldRequirement {
    pub key: String,
    pub operator: String,
    pub values: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClusterAffinityTerm {
    pub name: String,
    pub affinity: ClusterAffinity,
    /// `overflowAffinities`; `Some(vec![])` (written but empty) still turns overflow on.
    pub overflow: Option<Vec<(String, ClusterAffinity)>>,
}

/// A `corev1.Toleration`; operator and effect stay strings (upstream compares strings).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Toleration {
    pub key: String,
    pub operator: String,
    pub value: String,
    pub effect: String,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SpreadField {
    Cluster,
    Region,
    Zone,
    Provider,
}

impl SpreadField {
    pub fn as_str(&self) -> &'static str {
        match self {
            SpreadField::Cluster => "cluster",
            SpreadField::Region => "region",
            SpreadField::Zone => "zone",
            SpreadField::Provider => "provider",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpreadConstraint {
    /// `None` with a `spreadByLabel` (admission turns "neither" into `cluster`).
    pub field: Option<SpreadField>,
    pub label: String,
    pub max_groups: i64,
    pub min_groups: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchedulingType {
    Duplicated,
    Divided,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DivisionPreference {
    Aggregated,
    Weighted,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ReplicaScheduling {
    pub scheduling_type: SchedulingType,
    /// Defaulted to Weighted for Divided by admission; `None` for Duplicated.
    pub division: Option<DivisionPreference>,
    pub weight_preference: Option<WeightPreference>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct WeightPreference {
    pub static_weights: Vec<(ClusterAffinity, i64)>,
    /// `dynamicWeight` (only `AvailableReplicas` exists); empty when absent.
    pub dynamic_weight: String,
}

/// An object a policy may select, with what the native interpreter reads from it.
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceTemplate {
    pub object: ObjectRef,
    pub uid: String,
    pub labels: BTreeMap<String, String>,
    /// `propagationpolicy.karmada.io/{namespace,name}` + permanent-id label, or the CPP pair.
    pub claimed_by: Option<(PolicyKind, Option<String>, String)>,
    /// `spec.replicas` (or the kind's equivalent); 0 for kinds without an interpreter.
    pub replicas: i64,
    /// `None` when the template has neither requests nor a node claim (or no interpreter).
    pub requirements: Option<ReplicaRequirements>,
    /// The kind has a native replica interpreter (Deployment, ReplicaSet, StatefulSet, Job, Pod).
    pub interpreted: bool,
    pub source: Source,
}

/// `ReplicaRequirements`: the per-replica requests (cpu in milli-units, everything else in
/// whole units, as `util.Resource` keeps them) and whether a node claim exists.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplicaRequirements {
    pub requests: BTreeMap<String, i128>,
    pub node_claim: bool,
}

/// One `spec.clusters` entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TargetCluster {
    pub name: String,
    pub replicas: i64,
}

/// A `ResourceBinding` or `ClusterResourceBinding` read as the previous result.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ResourceBinding {
    pub namespace: Option<String>,
    pub name: String,
    pub clusters: Vec<TargetCluster>,
    pub eviction_from: Vec<String>,
    /// Unix seconds.
    pub reschedule_triggered_at: Option<i64>,
    pub last_scheduled_time: Option<i64>,
    pub observed_affinity: Option<String>,
    pub source: Source,
}
