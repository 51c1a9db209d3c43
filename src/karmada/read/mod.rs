//! The Karmada kinds: `Cluster` (cluster.karmada.io/v1alpha1), `PropagationPolicy` and
//! `ClusterPropagationPolicy` (policy.karmada.io/v1alpha1, with the admission webhook's defaults
//! and validation), `ResourceBinding` / `ClusterResourceBinding` (work.karmada.io/v1alpha2) as
//! the previous result, and the resource templates a policy may select (with what Karmada's
//! native replica interpreter reads from them).

use std::collections::{BTreeMap, BTreeSet};

use foldhash::HashSet;
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_yaml::Value;

mod admission;

use crate::karmada::model::{
    ClusterAffinity, ClusterAffinityTerm, ClusterTaint, DivisionPreference, FieldRequirement,
    KarmadaCluster, KarmadaObjects, Placement, PolicyKind, PropagationPolicy, ReplicaRequirements,
    ReplicaScheduling, ResourceBinding, ResourceSelector, ResourceSummary, ResourceTemplate,
    SchedulingType, SpreadConstraint, SpreadField, TargetCluster, Toleration, WeightPreference,
};
use crate::load::content::{Content, Shape};
use crate::load::decode::{null_as_default, optional_time, FieldError};
use crate::load::kinds::{claimed, Api, KnownKind, Reader};
use crate::load::model_builder::{Decoded, Entry};
use crate::load::names::{metadata_label_error, Names};
use crate::load::object::{Object, Scope};
use crate::load::LoadError;
use crate::model::{LabelSelectorSpec, ObjectRef, Quantity, Workload};
use crate::registry::{ApiObject, Deferred, WorkloadKind};
use crate::selector::validate_label_selector;
use admission::{
    FailoverDoc, PolicyFields, SchedulePriorityDoc, SuspensionDoc, WorkloadAffinityDoc,
};

const CLUSTER_GROUP: &str = "cluster.karmada.io";
const POLICY_GROUP: &str = "policy.karmada.io";
const WORK_GROUP: &str = "work.karmada.io";

pub(crate) const API: Api = Api {
    kinds: &[
        KnownKind {
            group: CLUSTER_GROUP,
            kind: "Cluster",
            versions: &["v1alpha1"],
            scope: Scope::Cluster,
            names: Names::KarmadaCluster,
            read: karmada_cluster,
        },
        KnownKind {
            group: POLICY_GROUP,
            kind: "PropagationPolicy",
            versions: &["v1alpha1"],
            scope: Scope::Namespaced,
            names: Names::Subdomain,
            read: propagation_policy,
        },
        KnownKind {
            group: POLICY_GROUP,
            kind: "ClusterPropagationPolicy",
            versions: &["v1alpha1"],
            scope: Scope::Cluster,
            names: Names::Subdomain,
            read: propagation_policy,
        },
        KnownKind {
            group: WORK_GROUP,
            kind: "ResourceBinding",
            versions: &["v1alpha2"],
            scope: Scope::Namespaced,
            names: Names::Subdomain,
            read: resource_binding,
        },
        KnownKind {
            group: WORK_GROUP,
            kind: "ClusterResourceBinding",
            versions: &["v1alpha2"],
            scope: Scope::Cluster,
            names: Names::Subdomain,
            read: resource_binding,
        },
    ],
    claims: Some(claims),
};

/// Any other named object may be a resource template a policy selects; whether one does is
/// only known once every document is read (`ModelBuilder::finish`). Objects without a usable
/// name or metadata stay skipped documents, as before.
fn claims(content: Content<'_>) -> Option<Reader> {
    let metadata = content.get("metadata")?;
    let named = metadata
        .get("name")
        .is_some_and(|name| name.shape() == Shape::String);
    let maps = ["labels", "annotations"].iter().all(|field| {
        metadata
            .get(field)
            .is_none_or(|value| matches!(value.shape(), Shape::Mapping | Shape::Null))
    });
    (named && maps).then_some(resource_template as Reader)
}

/// The claim a policy leaves on a resource template (`policyv1alpha1` constants).
const PP_NAMESPACE_ANNOTATION: &str = "propagationpolicy.karmada.io/namespace";
const PP_NAME_ANNOTATION: &str = "propagationpolicy.karmada.io/name";
const PP_ID_LABEL: &str = "propagationpolicy.karmada.io/permanent-id";
const CPP_NAME_ANNOTATION: &str = "clusterpropagationpolicy.karmada.io/name";
const CPP_ID_LABEL: &str = "clusterpropagationpolicy.karmada.io/permanent-id";

// ---- Cluster ----

#[derive(Deserialize)]
struct ClusterDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    spec: ClusterSpecDoc,
    #[serde(default, deserialize_with = "null_as_default")]
    status: ClusterStatusDoc,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClusterSpecDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    sync_mode: String,
    #[serde(default, deserialize_with = "null_as_default")]
    provider: String,
    #[serde(default, deserialize_with = "null_as_default")]
    region: String,
    #[serde(default, deserialize_with = "null_as_default")]
    zone: String,
    #[serde(default, deserialize_with = "null_as_default")]
    zones: Vec<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    taints: Vec<TaintDoc>,
}

#[derive(Deserialize)]
struct TaintDoc {
    key: String,
    #[serde(default, deserialize_with = "null_as_default")]
    value: String,
    effect: String,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClusterStatusDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    conditions: Vec<ConditionDoc>,
    #[serde(default, deserialize_with = "null_as_default")]
    api_enablements: Vec<ApiEnablementDoc>,
    #[serde(default)]
    resource_summary: Option<ResourceSummaryDoc>,
}

#[derive(Deserialize)]
struct ConditionDoc {
    #[serde(rename = "type")]
    condition_type: String,
    status: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ApiEnablementDoc {
    group_version: String,
    #[serde(default, deserialize_with = "null_as_default")]
    resources: Vec<ApiResourceDoc>,
}

#[derive(Deserialize)]
struct ApiResourceDoc {
    kind: String,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResourceSummaryDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    allocatable: BTreeMap<String, Quantity>,
    #[serde(default, deserialize_with = "null_as_default")]
    allocated: BTreeMap<String, Quantity>,
    #[serde(default, deserialize_with = "null_as_default")]
    allocating: BTreeMap<String, Quantity>,
    #[serde(default)]
    allocatable_modelings: Option<Value>,
}

fn nanos(list: BTreeMap<String, Quantity>) -> BTreeMap<String, i128> {
    list.into_iter()
        .map(|(name, quantity)| (name, quantity.nanos()))
        .collect()
}

/// Reads a Karmada `Cluster`.
fn karmada_cluster(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: ClusterDoc = object.decode()?;
    // `ValidateCluster`: ObjectMeta (the name is checked with every object's), then the spec.
    let mut errors: Vec<FieldError> = metadata_label_error(&object.meta.labels)
        .into_iter()
        .collect();
    let spec = &doc.spec;
    admission::cluster_sync_mode(&spec.sync_mode, &mut errors);
    admission::cluster_location(
        &spec.provider,
        &spec.region,
        &spec.zone,
        &spec.zones,
        &mut errors,
    );
    admission::cluster_taints(
        spec.taints.iter().map(|taint| {
            (
                taint.key.as_str(),
                taint.value.as_str(),
                taint.effect.as_str(),
            )
        }),
        &mut errors,
    );
    if let Some(error) = errors.into_iter().next() {
        return Err(object.invalid(error));
    }
    let mut api_enablements: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for enablement in doc.status.api_enablements {
        api_enablements
            .entry(enablement.group_version)
            .or_default()
            .extend(
                enablement
                    .resources
                    .into_iter()
                    .map(|resource| resource.kind),
            );
    }
    let mut warning = None;
    let resource_summary = doc.status.resource_summary.map(|summary| {
        if summary.allocatable_modelings.is_some() {
            warning = Some(format!(
                "{}: {}: status.resourceSummary.allocatableModelings: resource models are not simulated; \
                 fleetplan estimates from allocatable - allocated - allocating",
                object.source, object.object
            ));
        }
        ResourceSummary {
            has_modelings: summary.allocatable_modelings.is_some(),
            allocatable: nanos(summary.allocatable),
            allocated: nanos(summary.allocated),
            allocating: nanos(summary.allocating),
        }
    });
    let ready = doc
        .status
        .conditions
        .into_iter()
        .find(|condition| condition.condition_type == "Ready")
        .map(|condition| condition.status);
    let cluster = KarmadaCluster {
        name: object.name().to_string(),
        labels: object.meta.labels.clone(),
        provider: doc.spec.provider,
        region: doc.spec.region,
        zone: doc.spec.zone,
        zones: doc.spec.zones,
        taints: doc
            .spec
            .taints
            .into_iter()
            .map(|taint| ClusterTaint {
                key: taint.key,
                value: taint.value,
                effect: taint.effect,
            })
            .collect(),
        api_enablements,
        resource_summary,
        ready,
        deleting: object.meta.deletion_timestamp.is_some(),
        sync_mode: doc.spec.sync_mode,
        replica_capacity: None,
        edits: Vec::new(),
        source: object.source.clone(),
    };
    Ok(claimed(
        object,
        Entry::Api(ApiObject::KarmadaCluster { cluster, warning }),
    ))
}

// ---- PropagationPolicy / ClusterPropagationPolicy ----

#[derive(Deserialize)]
struct PolicyDoc {
    spec: PolicySpecDoc,
}

/// Every field of `PropagationSpec`; the ones the scheduler does not read are accepted and
/// ignored, a misspelt one is an error (as `kubectl apply`'s strict field validation).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PolicySpecDoc {
    resource_selectors: Vec<ResourceSelectorDoc>,
    #[serde(default)]
    placement: Option<PlacementDoc>,
    #[serde(default)]
    priority: Option<i32>,
    #[serde(default)]
    scheduler_name: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    dependent_overrides: Vec<String>,
    #[serde(default, rename = "association")]
    _association: Option<IgnoredAny>,
    #[serde(default, deserialize_with = "null_as_default")]
    propagate_deps: bool,
    #[serde(default, deserialize_with = "null_as_default")]
    preemption: String,
    #[serde(default)]
    failover: Option<FailoverDoc>,
    #[serde(default, deserialize_with = "null_as_default")]
    conflict_resolution: String,
    #[serde(default, deserialize_with = "null_as_default")]
    activation_preference: String,
    #[serde(default)]
    suspension: Option<SuspensionDoc>,
    #[serde(default, rename = "preserveResourcesOnDeletion")]
    _preserve_resources_on_deletion: Option<IgnoredAny>,
    #[serde(default)]
    schedule_priority: Option<SchedulePriorityDoc>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ResourceSelectorDoc {
    api_version: String,
    kind: String,
    #[serde(default, deserialize_with = "null_as_default")]
    namespace: String,
    #[serde(default, deserialize_with = "null_as_default")]
    name: String,
    #[serde(default)]
    label_selector: Option<LabelSelectorSpec>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PlacementDoc {
    #[serde(default)]
    cluster_affinity: Option<ClusterAffinityDoc>,
    #[serde(default)]
    cluster_affinities: Option<Vec<ClusterAffinityTermDoc>>,
    #[serde(default, deserialize_with = "null_as_default")]
    cluster_tolerations: Vec<TolerationDoc>,
    #[serde(default, deserialize_with = "null_as_default")]
    spread_constraints: Vec<SpreadConstraintDoc>,
    #[serde(default)]
    replica_scheduling: Option<ReplicaSchedulingDoc>,
    #[serde(default)]
    workload_affinity: Option<WorkloadAffinityDoc>,
}

/// Also flattened into affinity terms, so unknown fields cannot be refused here.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClusterAffinityDoc {
    #[serde(default)]
    label_selector: Option<LabelSelectorSpec>,
    #[serde(default)]
    field_selector: Option<FieldSelectorDoc>,
    #[serde(default, deserialize_with = "null_as_default")]
    cluster_names: Vec<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    exclude: Vec<String>,
}

impl ClusterAffinityDoc {
    /// `emptyClusterAffinity`: no selection criteria at all.
    fn is_empty(&self) -> bool {
        self.label_selector.is_none()
            && self.field_selector.is_none()
            && self.cluster_names.is_empty()
            && self.exclude.is_empty()
    }

    /// `ValidateClusterAffinity` of the affinity at `path`.
    fn validate(&self, path: &str, errors: &mut Vec<FieldError>) {
        if let Some(selector) = &self.field_selector {
            let requirements: Vec<(&str, &str)> = selector
                .match_expressions
                .iter()
                .map(|requirement| (requirement.key.as_str(), requirement.operator.as_str()))
                .collect();
            admission::field_selector(path, &requirements, errors);
        }
    }
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct FieldSelectorDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    match_expressions: Vec<FieldRequirementDoc>,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldRequirementDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    key: String,
    #[serde(default, deserialize_with = "null_as_default")]
    operator: String,
    #[serde(default, deserialize_with = "null_as_default")]
    values: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClusterAffinityTermDoc {
    affinity_name: String,
    #[serde(flatten)]
    affinity: ClusterAffinityDoc,
    #[serde(default)]
    overflow_affinities: Option<Vec<OverflowAffinityDoc>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OverflowAffinityDoc {
    affinity_name: String,
    #[serde(flatten)]
    affinity: ClusterAffinityDoc,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct TolerationDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    key: String,
    #[serde(default, deserialize_with = "null_as_default")]
    operator: String,
    #[serde(default, deserialize_with = "null_as_default")]
    value: String,
    #[serde(default, deserialize_with = "null_as_default")]
    effect: String,
    /// Only for NoExecute taints on nodes; the scheduler ignores it.
    #[serde(default, rename = "tolerationSeconds")]
    _toleration_seconds: Option<i64>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SpreadConstraintDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    spread_by_field: String,
    #[serde(default, deserialize_with = "null_as_default")]
    spread_by_label: String,
    #[serde(default)]
    max_groups: i64,
    #[serde(default)]
    min_groups: i64,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ReplicaSchedulingDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    replica_scheduling_type: String,
    #[serde(default, deserialize_with = "null_as_default")]
    replica_division_preference: String,
    #[serde(default)]
    weight_preference: Option<WeightPreferenceDoc>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct WeightPreferenceDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    static_weight_list: Vec<StaticWeightDoc>,
    #[serde(default, deserialize_with = "null_as_default")]
    dynamic_weight: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct StaticWeightDoc {
    target_cluster: ClusterAffinityDoc,
    weight: i64,
}

impl From<ClusterAffinityDoc> for ClusterAffinity {
    fn from(doc: ClusterAffinityDoc) -> ClusterAffinity {
        let field_selector = doc.field_selector.map(|selector| {
            selector
                .match_expressions
                .into_iter()
                .map(|requirement| FieldRequirement {
                    key: requirement.key,
                    operator: requirement.operator,
                    values: requirement.values,
                })
                .collect()
        });
        ClusterAffinity {
            label_selector: doc.label_selector,
            field_selector,
            cluster_names: doc.cluster_names,
            exclude: doc.exclude,
        }
    }
}

/// Reads a PropagationPolicy or ClusterPropagationPolicy, applies the admission defaults and
/// refuses what the validating webhook (or the CRD schema) would refuse.
fn propagation_policy(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: PolicyDoc = object.decode()?;
    let kind = if object.object.kind == "ClusterPropagationPolicy" {
        PolicyKind::ClusterPropagationPolicy
    } else {
        PolicyKind::PropagationPolicy
    };
    let namespace = object.object.namespace.clone();
    let spec = doc.spec;
    let placement_doc = spec.placement.unwrap_or_default();
    let mut errors: Vec<FieldError> = Vec::new();
    let resource_selectors: Vec<ResourceSelector> = spec
        .resource_selectors
        .into_iter()
        .enumerate()
        .map(|(index, selector)| {
            if let Some(labels) = &selector.label_selector {
                let path = format!("spec.resourceSelectors[{index}].labelSelector");
                for error in validate_label_selector(labels, &path) {
                    let text = error.to_string();
                    let message = text
                        .strip_prefix(&format!("{}: ", error.field()))
                        .unwrap_or(&text)
                        .to_string();
                    errors.push(FieldError::new(error.field(), message));
                }
            }
            // Mutating webhook: a PropagationPolicy's selectors default to its namespace.
            let namespace = match (kind, selector.namespace.is_empty()) {
                (PolicyKind::PropagationPolicy, true) => namespace.clone().unwrap_or_default(),
                _ => selector.namespace,
            };
            ResourceSelector {
                api_version: selector.api_version,
                kind: selector.kind,
                namespace,
                name: selector.name,
                label_selector: selector.label_selector,
            }
        })
        .collect();
    let placement = placement(placement_doc, &mut errors);
    admission::policy(
        &PolicyFields {
            selectors: resource_selectors
                .iter()
                .map(|selector| {
                    (
                        selector.api_version.as_str(),
                        selector.kind.as_str(),
                        selector.namespace.as_str(),
                        selector.name.as_str(),
                    )
                })
                .collect(),
            namespace: match kind {
                PolicyKind::PropagationPolicy => namespace.as_deref(),
                PolicyKind::ClusterPropagationPolicy => None,
            },
            propagate_deps: spec.propagate_deps,
            preemption: &spec.preemption,
            conflict_resolution: &spec.conflict_resolution,
            activation_preference: &spec.activation_preference,
            failover: spec.failover.as_ref(),
            suspension: spec.suspension.as_ref(),
            schedule_priority: spec.schedule_priority.as_ref(),
        },
        &mut errors,
    );
    if let Some(error) = errors.into_iter().next() {
        return Err(object.invalid(error));
    }
    let policy = PropagationPolicy {
        kind,
        namespace,
        name: object.name().to_string(),
        priority: spec.priority.unwrap_or(0),
        resource_selectors,
        placement,
        scheduler_name: spec
            .scheduler_name
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| "default-scheduler".to_string()),
        dependent_overrides: spec.dependent_overrides,
        deleting: object.meta.deletion_timestamp.is_some(),
        source: object.source.clone(),
    };
    Ok(claimed(
        object,
        Entry::Api(ApiObject::KarmadaPolicy(policy)),
    ))
}

fn placement(doc: PlacementDoc, errors: &mut Vec<FieldError>) -> Placement {
    const PATH: &str = "spec.placement";
    if doc.cluster_affinity.is_some() && doc.cluster_affinities.is_some() {
        errors.push(FieldError::new(
            PATH,
            "clusterAffinities cannot co-exist with clusterAffinity",
        ));
    }
    if let Some(affinity) = &doc.cluster_affinity {
        affinity.validate(&format!("{PATH}.clusterAffinity"), errors);
    }
    let replica_scheduling = doc
        .replica_scheduling
        .map(|strategy| replica_scheduling(strategy, errors));
    let overflow_allowed = replica_scheduling.as_ref().is_some_and(|strategy| {
        strategy.scheduling_type == SchedulingType::Divided
            && (strategy.division == Some(DivisionPreference::Aggregated)
                || strategy
                    .weight_preference
                    .as_ref()
                    .is_some_and(|preference| !preference.dynamic_weight.is_empty()))
    });
    let mut names = BTreeSet::new();
    let cluster_affinities = doc.cluster_affinities.map(|terms| {
        terms
            .into_iter()
            .enumerate()
            .map(|(index, term)| {
                let path = format!("{PATH}.clusterAffinities[{index}]");
                if !names.insert(term.affinity_name.clone()) {
                    errors.push(FieldError::new(
                        format!("{PATH}.clusterAffinities"),
                        "each affinity term in a policy must have a unique name",
                    ));
                }
                if term.overflow_affinities.is_some() && !overflow_allowed {
                    errors.push(FieldError::new(
                        format!("{path}.overflowAffinities"),
                        "overflowAffinities can only be used together with dynamic weight or aggregated scheduling",
                    ));
                }
                let overflow_names: Option<Vec<&str>> =
                    term.overflow_affinities.as_ref().map(|overflow| {
                        overflow
                            .iter()
                            .map(|doc| doc.affinity_name.as_str())
                            .collect()
                    });
                admission::affinity_term_names(
                    &path,
                    &term.affinity_name,
                    term.affinity.is_empty(),
                    overflow_names.as_deref(),
                    errors,
                );
                term.affinity.validate(&path, errors);
                for (index, overflow) in term.overflow_affinities.iter().flatten().enumerate() {
                    overflow
                        .affinity
                        .validate(&format!("{path}.overflowAffinities[{index}]"), errors);
                }
                ClusterAffinityTerm {
                    name: term.affinity_name,
                    affinity: term.affinity.into(),
                    overflow: term.overflow_affinities.map(|overflow| {
                        overflow
                            .into_iter()
                            .map(|doc| (doc.affinity_name, doc.affinity.into()))
                            .collect()
                    }),
                }
            })
            .collect()
    });
    let placement = Placement {
        cluster_affinity: doc.cluster_affinity.map(ClusterAffinity::from),
        cluster_affinities,
        cluster_tolerations: doc
            .cluster_tolerations
            .into_iter()
            .enumerate()
            .map(|(index, toleration)| {
                admission::toleration_operator(index, &toleration.operator, errors);
                toleration
            })
            .map(|toleration| Toleration {
                key: toleration.key,
                operator: toleration.operator,
                value: toleration.value,
                effect: toleration.effect,
            })
            .collect(),
        spread_constraints: spread_constraints(doc.spread_constraints, errors),
        replica_scheduling,
    };
    if let Some(workload_affinity) = &doc.workload_affinity {
        admission::workload_affinity(workload_affinity, errors);
    }
    placement
}

/// `helper.SetDefaultSpreadConstraints` and `ValidateSpreadConstraint`.
fn spread_constraints(
    docs: Vec<SpreadConstraintDoc>,
    errors: &mut Vec<FieldError>,
) -> Vec<SpreadConstraint> {
    const PATH: &str = "spec.placement.spreadConstraints";
    let mut fields = BTreeSet::new();
    let constraints: Vec<SpreadConstraint> = docs
        .into_iter()
        .enumerate()
        .map(|(index, doc)| {
            let path = format!("{PATH}[{index}]");
            if !doc.spread_by_field.is_empty() && !doc.spread_by_label.is_empty() {
                errors.push(FieldError::new(
                    &path,
                    "spreadByLabel should not co-exist with spreadByField",
                ));
            }
            let field = match doc.spread_by_field.as_str() {
                "" if doc.spread_by_label.is_empty() => Some(SpreadField::Cluster),
                "" => None,
                "cluster" => Some(SpreadField::Cluster),
                "region" => Some(SpreadField::Region),
                "zone" => Some(SpreadField::Zone),
                "provider" => Some(SpreadField::Provider),
                other => {
                    errors.push(FieldError::new(
                        format!("{path}.spreadByField"),
                        format!(
                            "Unsupported value: {other:?}: supported values: \"cluster\", \"region\", \"zone\", \"provider\""
                        ),
                    ));
                    None
                }
            };
            if doc.min_groups < 0 {
                errors.push(FieldError::new(&path, "minGroups lower than 0 is not allowed"));
            }
            if doc.max_groups < 0 {
                errors.push(FieldError::new(&path, "maxGroups lower than 0 is not allowed"));
            }
            let min_groups = if doc.min_groups == 0 { 1 } else { doc.min_groups };
            if doc.max_groups > 0 && doc.max_groups < min_groups {
                errors.push(FieldError::new(&path, "maxGroups lower than minGroups is not allowed"));
            }
            if let Some(field) = &field {
                if !fields.insert(field.clone()) {
                    errors.push(FieldError::new(
                        PATH,
                        format!("multiple {} spread constraints are not allowed", field.as_str()),
                    ));
                }
            }
            SpreadConstraint {
                field,
                label: doc.spread_by_label,
                max_groups: doc.max_groups,
                min_groups,
            }
        })
        .collect();
    if !fields.is_empty() && !fields.contains(&SpreadField::Cluster) {
        errors.push(FieldError::new(
            PATH,
            "the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled",
        ));
    }
    constraints
}

/// CRD defaults (`Divided`) and `SetReplicaDivisionPreferenceWeighted`; static weights must be
/// at least 1 (CRD minimum).
fn replica_scheduling(
    doc: ReplicaSchedulingDoc,
    errors: &mut Vec<FieldError>,
) -> ReplicaScheduling {
    const PATH: &str = "spec.placement.replicaScheduling";
    let scheduling_type = match doc.replica_scheduling_type.as_str() {
        "" | "Divided" => SchedulingType::Divided,
        "Duplicated" => SchedulingType::Duplicated,
        other => {
            errors.push(FieldError::new(
                format!("{PATH}.replicaSchedulingType"),
                format!(
                    "Unsupported value: {other:?}: supported values: \"Duplicated\", \"Divided\""
                ),
            ));
            SchedulingType::Divided
        }
    };
    let division = match doc.replica_division_preference.as_str() {
        "Aggregated" => Some(DivisionPreference::Aggregated),
        "Weighted" => Some(DivisionPreference::Weighted),
        "" if scheduling_type == SchedulingType::Divided => Some(DivisionPreference::Weighted),
        "" => None,
        other => {
            errors.push(FieldError::new(
                format!("{PATH}.replicaDivisionPreference"),
                format!(
                    "Unsupported value: {other:?}: supported values: \"Aggregated\", \"Weighted\""
                ),
            ));
            None
        }
    };
    let weight_preference = doc.weight_preference.map(|preference| {
        if !preference.dynamic_weight.is_empty() && preference.dynamic_weight != "AvailableReplicas"
        {
            errors.push(FieldError::new(
                format!("{PATH}.weightPreference.dynamicWeight"),
                format!(
                    "Unsupported value: {:?}: supported values: \"AvailableReplicas\"",
                    preference.dynamic_weight
                ),
            ));
        }
        WeightPreference {
            static_weights: preference
                .static_weight_list
                .into_iter()
                .enumerate()
                .map(|(index, rule)| {
                    if rule.weight < 1 {
                        errors.push(FieldError::new(
                            format!("{PATH}.weightPreference.staticWeightList[{index}].weight"),
                            format!(
                                "should be greater than or equal to 1, found {}",
                                rule.weight
                            ),
                        ));
                    }
                    (ClusterAffinity::from(rule.target_cluster), rule.weight)
                })
                .collect(),
            dynamic_weight: preference.dynamic_weight,
        }
    });
    ReplicaScheduling {
        scheduling_type,
        division,
        weight_preference,
    }
}

// ---- ResourceBinding / ClusterResourceBinding ----

#[derive(Deserialize)]
struct BindingDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    spec: BindingSpecDoc,
    #[serde(default, deserialize_with = "null_as_default")]
    status: BindingStatusDoc,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct BindingSpecDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    clusters: Vec<TargetClusterDoc>,
    #[serde(default, deserialize_with = "null_as_default")]
    graceful_eviction_tasks: Vec<EvictionTaskDoc>,
    #[serde(default, deserialize_with = "optional_time")]
    reschedule_triggered_at: Option<i64>,
}

#[derive(Deserialize)]
struct TargetClusterDoc {
    name: String,
    #[serde(default)]
    replicas: i32,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct EvictionTaskDoc {
    from_cluster: String,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct BindingStatusDoc {
    #[serde(default, deserialize_with = "optional_time")]
    last_scheduled_time: Option<i64>,
    #[serde(default, deserialize_with = "null_as_default")]
    scheduler_observing_affinity_name: String,
}

/// Reads a ResourceBinding or ClusterResourceBinding: its `spec.clusters` and what the
/// scheduler keeps from one run to the next.
fn resource_binding(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: BindingDoc = object.decode()?;
    let mut seen = BTreeSet::new();
    for (index, cluster) in doc.spec.clusters.iter().enumerate() {
        if !seen.insert(cluster.name.as_str()) {
            return Err(object.invalid(FieldError::new(
                format!("spec.clusters[{index}].name"),
                format!(
                    "expected each cluster once, found {:?} again",
                    crate::model::echo(&cluster.name)
                ),
            )));
        }
    }
    let binding = ResourceBinding {
        namespace: object.object.namespace.clone(),
        name: object.name().to_string(),
        clusters: doc
            .spec
            .clusters
            .into_iter()
            .map(|cluster| TargetCluster {
                name: cluster.name,
                replicas: i64::from(cluster.replicas),
            })
            .collect(),
        eviction_from: doc
            .spec
            .graceful_eviction_tasks
            .into_iter()
            .map(|task| task.from_cluster)
            .collect(),
        reschedule_triggered_at: doc.spec.reschedule_triggered_at,
        last_scheduled_time: doc.status.last_scheduled_time,
        observed_affinity: Some(doc.status.scheduler_observing_affinity_name)
            .filter(|name| !name.is_empty()),
        source: object.source.clone(),
    };
    Ok(claimed(
        object,
        Entry::Api(ApiObject::KarmadaBinding(binding)),
    ))
}

// ---- resource templates ----

#[derive(Default, Deserialize)]
struct TemplateMetaDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    metadata: UidDoc,
}

#[derive(Default, Deserialize)]
struct UidDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    uid: String,
}

#[derive(Default, Deserialize)]
struct WorkloadDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    spec: WorkloadSpecDoc,
}

#[derive(Default, Deserialize)]
struct WorkloadSpecDoc {
    #[serde(default)]
    replicas: Option<i32>,
    #[serde(default)]
    parallelism: Option<i32>,
    #[serde(default)]
    completions: Option<i32>,
    #[serde(default, deserialize_with = "null_as_default")]
    template: PodTemplateDoc,
}

#[derive(Default, Deserialize)]
struct PodTemplateDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    spec: PodSpecDoc,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PodSpecDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    containers: Vec<ContainerDoc>,
    #[serde(default, deserialize_with = "null_as_default")]
    init_containers: Vec<ContainerDoc>,
    #[serde(default)]
    overhead: Option<BTreeMap<String, Quantity>>,
    #[serde(default)]
    node_selector: Option<BTreeMap<String, String>>,
    #[serde(default)]
    affinity: Option<AffinityDoc>,
    #[serde(default, deserialize_with = "null_as_default")]
    tolerations: Vec<Value>,
}

#[derive(Default, Deserialize)]
struct ContainerDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    resources: ResourcesDoc,
}

#[derive(Default, Deserialize)]
struct ResourcesDoc {
    #[serde(default)]
    requests: Option<BTreeMap<String, Quantity>>,
    #[serde(default)]
    limits: Option<BTreeMap<String, Quantity>>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AffinityDoc {
    #[serde(default)]
    node_affinity: Option<NodeAffinityDoc>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct NodeAffinityDoc {
    #[serde(default)]
    required_during_scheduling_ignored_during_execution: Option<Value>,
}

/// The kinds with a native replica interpreter (`native/replica.go`), by exact apiVersion.
fn interpreted(api_version: &str, kind: &str) -> bool {
    matches!(
        (api_version, kind),
        ("apps/v1", "Deployment" | "ReplicaSet" | "StatefulSet")
            | ("batch/v1", "Job")
            | ("v1", "Pod")
    )
}

/// Records an object a Karmada policy may select, with its replicas and per-replica
/// requirements as the native interpreter reads them. Whether any policy selects it is
/// decided when the model is complete.
fn resource_template(object: Object<'_>) -> Result<Decoded, LoadError> {
    let what = format!("{}/{}", object.object.api_version, object.object.kind);
    Ok(Decoded::Deferred {
        deferred: Deferred::Karmada(read_template(&object)),
        skipped: (object.source, what),
        object: object.object,
    })
}

/// The apiVersion/kind pairs Karmada's policies select: a resource template of one of them
/// becomes a workload once every document is read (the registry's `Selectors`).
pub(crate) struct SelectedKinds(HashSet<(String, String)>);

impl SelectedKinds {
    pub(crate) fn new(objects: &KarmadaObjects) -> SelectedKinds {
        let kinds = objects
            .policies
            .iter()
            .flat_map(|policy| &policy.resource_selectors)
            .map(|selector| (selector.api_version.clone(), selector.kind.clone()))
            .collect();
        SelectedKinds(kinds)
    }

    /// The workload `template` (read from `object`) is when a policy selects its kind; its
    /// reading error counts only then.
    pub(crate) fn select(
        &self,
        object: &ObjectRef,
        template: Result<ResourceTemplate, LoadError>,
    ) -> Option<Result<Workload, LoadError>> {
        if !self
            .0
            .contains(&(object.api_version.clone(), object.kind.clone()))
        {
            return None;
        }
        Some(template.map(|template| Workload {
            object: object.clone(),
            source: template.source.clone(),
            cluster_selector: None,
            labels: template.labels.clone(),
            // Karmada's detector reads a template's namespace as written; no hint for it.
            namespace_omitted: false,
            kind: WorkloadKind::Karmada(Box::new(template)),
        }))
    }
}

fn read_template(object: &Object<'_>) -> Result<ResourceTemplate, LoadError> {
    let uid = object.decode::<TemplateMetaDoc>()?.metadata.uid;
    let (api_version, kind) = (
        object.object.api_version.as_str(),
        object.object.kind.as_str(),
    );
    let is_interpreted = interpreted(api_version, kind);
    let (replicas, requirements) = if is_interpreted {
        let doc: WorkloadDoc = object.decode()?;
        let mut errors = Vec::new();
        for (path, count) in [
            ("spec.replicas", doc.spec.replicas),
            ("spec.parallelism", doc.spec.parallelism),
            ("spec.completions", doc.spec.completions),
        ] {
            admission::non_negative(path, count, &mut errors);
        }
        let replicas = match kind {
            "Pod" => 1,
            "Job" => {
                let parallelism = doc.spec.parallelism.unwrap_or(0);
                parallelism.min(doc.spec.completions.unwrap_or(parallelism))
            }
            _ => doc.spec.replicas.unwrap_or(0),
        };
        let (pod, pod_path) = if kind == "Pod" {
            (object.decode::<PodDoc>()?.spec, "spec")
        } else {
            (doc.spec.template.spec, "spec.template.spec")
        };
        for (field, containers) in [
            ("containers", &pod.containers),
            ("initContainers", &pod.init_containers),
        ] {
            for (index, container) in containers.iter().enumerate() {
                let resources = &container.resources;
                admission::resources(
                    &format!("{pod_path}.{field}[{index}].resources"),
                    [
                        ("requests", resources.requests.as_ref()),
                        ("limits", resources.limits.as_ref()),
                    ],
                    &mut errors,
                );
            }
        }
        if let Some(error) = errors.into_iter().next() {
            return Err(object.invalid(error));
        }
        (i64::from(replicas), requirements(pod))
    } else {
        (0, None)
    };
    let annotations = &object.meta.annotations;
    let labels = &object.meta.labels;
    let claimed_by = match (
        annotations.get(PP_NAMESPACE_ANNOTATION),
        annotations.get(PP_NAME_ANNOTATION),
        labels.get(PP_ID_LABEL),
    ) {
        (Some(namespace), Some(name), Some(id))
            if !namespace.is_empty() && !name.is_empty() && !id.is_empty() =>
        {
            Some((
                PolicyKind::PropagationPolicy,
                Some(namespace.clone()),
                name.clone(),
            ))
        }
        _ => match (
            annotations.get(CPP_NAME_ANNOTATION),
            labels.get(CPP_ID_LABEL),
        ) {
            (Some(name), Some(id)) if !name.is_empty() && !id.is_empty() => {
                Some((PolicyKind::ClusterPropagationPolicy, None, name.clone()))
            }
            _ => None,
        },
    };
    Ok(ResourceTemplate {
        object: object.object.clone(),
        uid,
        labels: labels.clone(),
        claimed_by,
        replicas,
        requirements,
        interpreted: is_interpreted,
        source: object.source.clone(),
    })
}

#[derive(Default, Deserialize)]
struct PodDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    spec: PodSpecDoc,
}

/// A resource's amount as `util.Resource` keeps it: cpu in milli-units, the rest in units.
fn amount(resource: &str, quantity: &Quantity) -> i128 {
    use crate::model::quantity::{nanos_to_milli_value, nanos_to_value};
    if resource == "cpu" {
        nanos_to_milli_value(quantity.nanos())
    } else {
        nanos_to_value(quantity.nanos())
    }
}

/// `util.Resource.Add` keeps cpu, memory, ephemeral-storage, pods and the scalar resources
/// (extended `domain/name` outside kubernetes.io, `hugepages-*`, `attachable-volumes-*`);
/// anything else is dropped.
fn counted(resource: &str) -> bool {
    matches!(resource, "cpu" | "memory" | "ephemeral-storage" | "pods")
        || resource.starts_with("hugepages-")
        || resource.starts_with("attachable-volumes-")
        || (resource.contains('/')
            && !resource.contains("kubernetes.io/")
            && !resource.starts_with("requests."))
        || resource.contains("kubernetes.io/")
}

/// `helper.GenerateReplicaRequirements`: requests (a limit stands in for a missing request)
/// summed over containers, maxed with each init container, plus overhead; nil without requests
/// and without a node claim.
fn requirements(pod: PodSpecDoc) -> Option<ReplicaRequirements> {
    let effective = |container: &ContainerDoc| -> BTreeMap<String, i128> {
        let mut list: BTreeMap<String, i128> = BTreeMap::new();
        for (name, quantity) in container.resources.requests.iter().flatten() {
            list.insert(name.clone(), amount(name, quantity));
        }
        for (name, quantity) in container.resources.limits.iter().flatten() {
            list.entry(name.clone())
                .or_insert_with(|| amount(name, quantity));
        }
        list.retain(|name, _| counted(name));
        list
    };
    let mut total: BTreeMap<String, i128> = BTreeMap::new();
    for container in &pod.containers {
        for (name, value) in effective(container) {
            *total.entry(name).or_default() += value;
        }
    }
    for container in &pod.init_containers {
        for (name, value) in effective(container) {
            let entry = total.entry(name).or_default();
            *entry = (*entry).max(value);
        }
    }
    for (name, quantity) in pod.overhead.iter().flatten() {
        if counted(name) {
            *total.entry(name.clone()).or_default() += amount(name, quantity);
        }
    }
    total.retain(|_, value| *value > 0);
    let node_claim = pod.node_selector.is_some()
        || pod
            .affinity
            .and_then(|affinity| affinity.node_affinity)
            .and_then(|node| node.required_during_scheduling_ignored_during_execution)
            .is_some()
        || !pod.tolerations.is_empty();
    (node_claim || !total.is_empty()).then_some(ReplicaRequirements {
        requests: total,
        node_claim,
    })
}
