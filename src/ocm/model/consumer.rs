//! The objects that consume an OCM placement (a Policy through its PlacementBindings, a
//! Subscription, a ManifestWorkReplicaSet, an Argo CD ApplicationSet, a
//! ClusterManagementAddOn) and the objects on the way to it (PlacementBinding, the
//! ApplicationSet's ConfigMap, Argo CD cluster Secrets). Plain data as written; which
//! placement a reference names is decided at plan time (`plan/items/consumers`), so a
//! reference that resolves to nothing is an error of the run, not of loading.

use std::collections::BTreeMap;

use crate::model::{LabelSelectorSpec, ObjectRef, Source};

/// A consumer, as its kind's controller reads it.
#[derive(Clone, Debug, PartialEq)]
pub enum ConsumerSpec {
    /// `policy.open-cluster-management.io/v1` `Policy`: placed by the PlacementBindings of
    /// its namespace that name it or a PolicySet holding it.
    Policy { disabled: bool },
    /// `policy.open-cluster-management.io/v1beta1` `PolicySet`.
    PolicySet {
        /// `spec.policies`: Policy names in the set's namespace.
        policies: Vec<String>,
        /// `spec.exclusions`: (policy, clusters it is not propagated to through this set).
        exclusions: Vec<(String, Vec<String>)>,
    },
    /// `apps.open-cluster-management.io/v1` `Subscription` `spec.placement`.
    Subscription(SubscriptionPlacement),
    /// `work.open-cluster-management.io/v1alpha1` `ManifestWorkReplicaSet`.
    ManifestWorkReplicaSet {
        /// `spec.placementRefs[]`: (name, its `rolloutStrategy`).
        placements: Vec<(String, RolloutStrategy)>,
    },
    /// `addon.open-cluster-management.io` `ClusterManagementAddOn` `spec.installStrategy`.
    AddOn {
        /// `type`: `Manual` (or empty) installs nothing through placements.
        strategy: String,
        /// `placements[]`: (namespace, name).
        placements: Vec<(String, String)>,
    },
    /// `argoproj.io/v1alpha1` `ApplicationSet`: its generators and template destination.
    ApplicationSet(ApplicationSetSpec),
}

/// A `rolloutStrategy` (open-cluster-management-io/api `cluster/v1alpha1`), the part of it its
/// `type` reads: sdk-go's rollout helper reads only the block named after the type.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RolloutStrategy {
    /// `All` (the CRD's default), `Progressive` or `ProgressivePerGroup`.
    pub type_: String,
    /// `mandatoryDecisionGroups[]`, as written.
    pub mandatory: Vec<MandatoryGroup>,
    /// `progressive.maxConcurrency`.
    pub max_concurrency: Option<Threshold>,
    /// `maxFailures` of the type's block: read for the error upstream stops with.
    pub max_failures: Option<Threshold>,
}

/// A mandatory decision group: by name when `groupName` is set, else by `groupIndex`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MandatoryGroup {
    Name(String),
    Index(i64),
}

/// An int-or-string count of clusters (`5`, `"25%"`), as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Threshold {
    Count(i64),
    Text(String),
}

/// A Subscription's `spec.placement`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SubscriptionPlacement {
    /// `spec.placement` was written at all.
    pub present: bool,
    pub local: bool,
    /// `placementRef`: (kind as written, apiVersion as written, namespace, name).
    pub reference: Option<SubscriptionRef>,
    /// `clusters[].name`; `Some` when the field was written, even empty.
    pub clusters: Option<Vec<String>>,
    pub cluster_selector: Option<LabelSelectorSpec>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SubscriptionRef {
    pub kind: String,
    pub api_version: String,
    pub namespace: String,
    pub name: String,
}

/// An ApplicationSet's `spec`: what decides where its Applications go.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ApplicationSetSpec {
    pub generators: Vec<Generator>,
    /// `spec.goTemplate`: parameters are `{{.name}}`, not `{{name}}`.
    pub go_template: bool,
    /// `spec.template.metadata.name`, as written.
    pub name: String,
    /// `spec.template.spec.destination`: (`name` or else `server`, its value), as written.
    pub destination: Option<(String, String)>,
    /// The paths of `selector`s on generators other than a clusterDecisionResource: they
    /// filter parameter sets fleetplan does not know, so they are not applied.
    pub unapplied_selectors: Vec<String>,
}

/// One generator of an ApplicationSet: those that decide which clusters the Applications
/// target, and where another was that fleetplan does not plan.
#[derive(Clone, Debug, PartialEq)]
pub enum Generator {
    ClusterDecisionResource {
        /// `spec.generators[0]`, or `spec.generators[1].matrix.generators[0]` when nested.
        path: String,
        config_map: String,
        /// `name`: one decision object by name.
        name: String,
        label_selector: Option<LabelSelectorSpec>,
        /// `values`: parameters added to every set it generates (`values.<key>`).
        values: BTreeMap<String, String>,
        /// The generator's `selector` over the parameter sets it generates, with its path.
        selector: Option<(String, LabelSelectorSpec)>,
    },
    /// `matrix`: every combination of its two children's parameter sets.
    Matrix {
        /// `spec.generators[0].matrix`.
        path: String,
        children: Vec<Generator>,
    },
    /// `merge`: its first child's parameter sets, overridden by the others' by `mergeKeys`.
    Merge {
        path: String,
        merge_keys: Vec<String>,
        children: Vec<Generator>,
    },
    /// `list` with literal `elements`: how many parameter sets it yields.
    List { path: String, elements: usize },
    /// A generator of another type (`clusters`, `git`, `scmProvider`…): noted, not planned.
    Other { path: String, kind: String },
    /// A child of a matrix or merge that Argo CD refuses (no generator, or two), with its
    /// error: the ApplicationSet generates nothing.
    Refused { path: String, message: &'static str },
}

/// A `policy.open-cluster-management.io/v1` `PlacementBinding`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PlacementBinding {
    pub object: ObjectRef,
    pub source: Source,
    /// `placementRef`: apiGroup, kind, name (as written; the CRD requires all three).
    pub api_group: String,
    pub kind: String,
    pub name: String,
    /// `subjects[]`: (apiGroup, kind, name).
    pub subjects: Vec<(String, String, String)>,
    /// `subFilter: restricted`: the binding only overrides, it places nothing.
    pub restricted: bool,
    /// `bindingOverrides.remediationAction`, as written.
    pub remediation_override: Option<String>,
}

/// A core `ConfigMap` shaped as an ApplicationSet duck-type reference: its `data`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DuckConfigMap {
    pub object: ObjectRef,
    pub api_version: String,
    pub kind: String,
    pub status_list_key: String,
    pub match_key: String,
}

/// An Argo CD cluster Secret (`argocd.argoproj.io/secret-type: cluster`): the cluster it
/// registers.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ArgoCluster {
    pub object: ObjectRef,
    pub name: String,
    /// Its `server` (empty when the Secret has none).
    pub server: String,
}

/// The objects on the way from a consumer to its placement.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ConsumerObjects {
    pub bindings: Vec<PlacementBinding>,
    pub config_maps: Vec<DuckConfigMap>,
    pub argo_clusters: Vec<ArgoCluster>,
}
