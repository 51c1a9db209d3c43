//! The load layer of KubeFleet: the kinds fleetplan reads ([`API`], one line in the load
//! registry) and their readers, each decoding one object alone with the field path of what
//! is wrong (`spec.policy.tolerations[0].operator`); and the wire helpers the CRD types share.

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

use super::model::binding::{Binding, PARENT_PLACEMENT_LABEL};
use super::model::member_cluster::MemberCluster;
use super::model::objects::{
    Object as KubeFleetObject, OverrideObject, Placement, PlacementObject, PlacementRef,
    PlacementReference, ResourceSelector, Snapshot, Strategy, UpdateRun, IS_LATEST_SNAPSHOT_LABEL,
    RUN_PLACEMENT_FIELD,
};
use super::model::override_rules::{Override, OverrideRule};
use super::model::stage_config::StageConfig;
/// Decoding with the failing field's path, as the readers decode (tests decode fixtures
/// with it; the engine's code reads decoded types only).
pub(crate) use super::model::wire::read;
use super::model::wire::ReadError;
use crate::load::api::{
    claimed, workload, Api, Decoded, Entry, FieldError, KnownKind, Names, Object, Scope,
};
use crate::load::LoadError;
use crate::model::WorkloadKind;
use crate::registry::ApiObject;

mod admission;

const CLUSTER_GROUP: &str = "cluster.kubernetes-fleet.io";
const PLACEMENT_GROUP: &str = "placement.kubernetes-fleet.io";

/// A KubeFleet kind (every one is a custom resource, named as a DNS subdomain).
const fn kind(
    group: &'static str,
    kind: &'static str,
    versions: &'static [&'static str],
    scope: Scope,
    read: fn(Object<'_>) -> Result<Decoded, LoadError>,
) -> KnownKind {
    KnownKind {
        group,
        kind,
        versions,
        scope,
        names: Names::Subdomain,
        read,
    }
}

const V1: &[&str] = &["v1", "v1beta1"];
const V1_ALPHA: &[&str] = &["v1", "v1alpha1", "v1beta1"];
const BETA: &[&str] = &["v1beta1"];

/// Every KubeFleet kind, at the versions its CRD serves (`testdata/crds/kubefleet/`).
pub(crate) const API: Api = Api {
    kinds: &[
        kind(
            CLUSTER_GROUP,
            "MemberCluster",
            V1,
            Scope::Cluster,
            member_cluster,
        ),
        kind(
            PLACEMENT_GROUP,
            "ClusterResourcePlacement",
            V1,
            Scope::Cluster,
            placement,
        ),
        kind(
            PLACEMENT_GROUP,
            "ResourcePlacement",
            V1,
            Scope::Namespaced,
            placement,
        ),
        kind(
            PLACEMENT_GROUP,
            "ClusterResourceBinding",
            V1,
            Scope::Cluster,
            binding,
        ),
        kind(
            PLACEMENT_GROUP,
            "ResourceBinding",
            BETA,
            Scope::Namespaced,
            binding,
        ),
        kind(
            PLACEMENT_GROUP,
            "ClusterSchedulingPolicySnapshot",
            V1,
            Scope::Cluster,
            snapshot,
        ),
        kind(
            PLACEMENT_GROUP,
            "SchedulingPolicySnapshot",
            BETA,
            Scope::Namespaced,
            snapshot,
        ),
        kind(
            PLACEMENT_GROUP,
            "ClusterStagedUpdateStrategy",
            V1_ALPHA,
            Scope::Cluster,
            strategy,
        ),
        kind(
            PLACEMENT_GROUP,
            "StagedUpdateStrategy",
            V1,
            Scope::Namespaced,
            strategy,
        ),
        kind(
            PLACEMENT_GROUP,
            "ClusterStagedUpdateRun",
            V1_ALPHA,
            Scope::Cluster,
            run,
        ),
        kind(
            PLACEMENT_GROUP,
            "StagedUpdateRun",
            V1,
            Scope::Namespaced,
            run,
        ),
        kind(
            PLACEMENT_GROUP,
            "ClusterResourceOverride",
            V1_ALPHA,
            Scope::Cluster,
            override_,
        ),
        kind(
            PLACEMENT_GROUP,
            "ResourceOverride",
            V1_ALPHA,
            Scope::Namespaced,
            override_,
        ),
    ],
    claims: None,
};

/// Decodes the whole object as `T`, naming the object and the field on failure.
fn decode<T: DeserializeOwned>(object: &Object<'_>) -> Result<T, LoadError> {
    decode_value(object, &json(object)?)
}

/// The object as JSON: admission's rules read its `spec` as written (they test which fields
/// are present), before it is decoded.
fn json(object: &Object<'_>) -> Result<Value, LoadError> {
    object.content.to_json().map_err(|error| {
        object.invalid(FieldError::new(
            "",
            format!("expected a mapping with string keys: {error}"),
        ))
    })
}

fn decode_value<T: DeserializeOwned>(object: &Object<'_>, value: &Value) -> Result<T, LoadError> {
    read(value).map_err(|error| object.invalid(error.into()))
}

/// The object's `spec` as written (`null` when absent).
fn spec_of(value: &Value) -> &Value {
    value.get("spec").unwrap_or(&Value::Null)
}

/// The object refused as upstream's API server or webhook refuses it, when it is: the
/// refusal of its metadata (`labels`), then every refusal of its spec, each an error at its
/// field.
fn refused(
    object: &Object<'_>,
    labels: Option<LoadError>,
    refusals: Vec<FieldError>,
) -> Option<Decoded> {
    let errors: Vec<LoadError> = labels
        .into_iter()
        .chain(refusals.into_iter().map(|refusal| object.invalid(refusal)))
        .collect();
    (!errors.is_empty()).then_some(Decoded::Refused(errors))
}

impl From<ReadError> for FieldError {
    fn from(error: ReadError) -> FieldError {
        let path = if error.path == "." { "" } else { &error.path };
        FieldError::new(path, error.message)
    }
}

fn kept(object: Object<'_>, kubefleet: KubeFleetObject) -> Decoded {
    claimed(object, Entry::Api(ApiObject::KubeFleet(kubefleet)))
}

/// The placement `object` names in `field`: a ResourcePlacement of its namespace when
/// `namespaced`, else a ClusterResourcePlacement.
fn reference(
    object: &Object<'_>,
    field: &'static str,
    namespaced: bool,
    name: Option<String>,
) -> PlacementReference {
    PlacementReference {
        source: object.source.clone(),
        object: object.object.clone(),
        field,
        namespace: object.object.namespace.clone().filter(|_| namespaced),
        name,
    }
}

/// The field path of a binding's or snapshot's parent label.
const PARENT_LABEL_FIELD: &str = "metadata.labels[kubernetes-fleet.io/parent-CRP]";

fn member_cluster(object: Object<'_>) -> Result<Decoded, LoadError> {
    let value = json(&object)?;
    // The API server reports the labels' refusals and the spec's together.
    let labels = object.admitted_labels().err();
    if let Some(refused) = refused(
        &object,
        labels,
        admission::member_cluster(object.name(), spec_of(&value)),
    ) {
        return Ok(refused);
    }
    let cluster: MemberCluster = decode_value(&object, &value)?;
    Ok(kept(object, KubeFleetObject::MemberCluster(cluster)))
}

fn binding(object: Object<'_>) -> Result<Decoded, LoadError> {
    let mut binding: Binding = decode(&object)?;
    binding.namespace.clone_from(&object.object.namespace);
    let parent = reference(&object, PARENT_LABEL_FIELD, true, binding.placement.clone());
    Ok(kept(object, KubeFleetObject::Binding(binding, parent)))
}

/// `spec.resourceSelectors[]`, `spec.clusterResourceSelectors[]`: what they name.
#[derive(Deserialize)]
struct SelectorWire {
    #[serde(default)]
    group: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    name: String,
}

fn named(selectors: Vec<SelectorWire>) -> Vec<ResourceSelector> {
    let mut named: Vec<ResourceSelector> = selectors
        .into_iter()
        .filter(|selector| !selector.name.is_empty())
        .map(|selector| ResourceSelector {
            group: selector.group,
            kind: selector.kind,
            name: selector.name,
        })
        .collect();
    named.sort();
    named.dedup();
    named
}

#[derive(Deserialize)]
struct PlacementWire {
    #[serde(default)]
    spec: Option<PlacementSpec>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PlacementSpec {
    #[serde(default)]
    policy: Option<Value>,
    #[serde(default)]
    resource_selectors: Option<Vec<SelectorWire>>,
    #[serde(default)]
    strategy: Option<Value>,
}

/// `spec.policy` read with the CRD's defaults, its field path under `spec.policy`.
fn policy<T: DeserializeOwned>(object: &Object<'_>, raw: &Value) -> Result<T, LoadError> {
    read(raw).map_err(|error| {
        let path = match error.path.as_str() {
            "." => "spec.policy".to_string(),
            path => format!("spec.policy.{path}"),
        };
        object.invalid(FieldError::new(path, error.message))
    })
}

fn placement(object: Object<'_>) -> Result<Decoded, LoadError> {
    let wire: PlacementWire = decode(&object)?;
    let spec = wire.spec.unwrap_or_default();
    let raw_policy = spec.policy.filter(|policy| !policy.is_null());
    let parsed = raw_policy
        .as_ref()
        .map(|raw| policy(&object, raw))
        .transpose()?;
    let placement = PlacementObject {
        placement: Placement {
            namespace: object.object.namespace.clone(),
            name: object.name().to_string(),
            policy: parsed,
            strategy_type: admission::strategy_type(spec.strategy.as_ref())
                .map_err(|refusal| object.invalid(refusal))?,
        },
        raw_policy,
        selectors: named(spec.resource_selectors.unwrap_or_default()),
    };
    Ok(workload(
        object,
        WorkloadKind::KubeFleet(Box::new(placement)),
        None,
    ))
}

#[derive(Deserialize)]
struct SnapshotWire {
    #[serde(default)]
    spec: Option<SnapshotSpec>,
}

#[derive(Default, Deserialize)]
struct SnapshotSpec {
    #[serde(default)]
    policy: Option<Value>,
}

fn snapshot(object: Object<'_>) -> Result<Decoded, LoadError> {
    let wire: SnapshotWire = decode(&object)?;
    let raw = wire.spec.unwrap_or_default().policy;
    let parsed = raw
        .as_ref()
        .filter(|raw| !raw.is_null())
        .map(|raw| policy(&object, raw))
        .transpose()?;
    let labels = &object.meta.labels;
    let snapshot = Snapshot {
        namespace: object.object.namespace.clone(),
        name: object.name().to_string(),
        placement: labels.get(PARENT_PLACEMENT_LABEL).cloned(),
        latest: labels
            .get(IS_LATEST_SNAPSHOT_LABEL)
            .is_some_and(|value| value == "true"),
        policy: parsed,
    };
    let parent = reference(
        &object,
        PARENT_LABEL_FIELD,
        true,
        snapshot.placement.clone(),
    );
    Ok(kept(object, KubeFleetObject::Snapshot(snapshot, parent)))
}

#[derive(Deserialize)]
struct StrategyWire {
    #[serde(default)]
    spec: Option<StrategySpec>,
}

#[derive(Default, Deserialize)]
struct StrategySpec {
    #[serde(default)]
    stages: Option<Vec<StageConfig>>,
}

fn strategy(object: Object<'_>) -> Result<Decoded, LoadError> {
    let value = json(&object)?;
    if let Some(refused) = refused(&object, None, admission::strategy(spec_of(&value))) {
        return Ok(refused);
    }
    let wire: StrategyWire = decode_value(&object, &value)?;
    let strategy = Strategy {
        namespace: object.object.namespace.clone(),
        name: object.name().to_string(),
        stages: wire.spec.unwrap_or_default().stages.unwrap_or_default(),
    };
    Ok(kept(object, KubeFleetObject::Strategy(strategy)))
}

#[derive(Deserialize)]
struct RunWire {
    spec: RunSpec,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RunSpec {
    placement_name: String,
    staged_rollout_strategy_name: String,
}

fn run(object: Object<'_>) -> Result<Decoded, LoadError> {
    let value = json(&object)?;
    let version = object
        .object
        .api_version
        .rsplit('/')
        .next()
        .unwrap_or_default();
    let refusals = admission::run(version, object.name(), spec_of(&value));
    if let Some(refused) = refused(&object, None, refusals) {
        return Ok(refused);
    }
    let wire: RunWire = decode_value(&object, &value)?;
    let run = UpdateRun {
        placement: reference(
            &object,
            RUN_PLACEMENT_FIELD,
            true,
            Some(wire.spec.placement_name),
        ),
        strategy: wire.spec.staged_rollout_strategy_name,
    };
    Ok(kept(object, KubeFleetObject::Run(run)))
}

#[derive(Deserialize)]
struct OverrideWire {
    spec: OverrideSpec,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OverrideSpec {
    #[serde(default)]
    placement: Option<PlacementRefWire>,
    #[serde(default)]
    cluster_resource_selectors: Option<Vec<SelectorWire>>,
    #[serde(default)]
    resource_selectors: Option<Vec<SelectorWire>>,
    #[serde(default)]
    policy: Option<OverrideRules>,
}

#[derive(Deserialize)]
struct PlacementRefWire {
    name: String,
    #[serde(default)]
    scope: Option<String>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct OverrideRules {
    #[serde(default)]
    override_rules: Option<Vec<OverrideRule>>,
}

fn override_(object: Object<'_>) -> Result<Decoded, LoadError> {
    let value = json(&object)?;
    let raw = spec_of(&value);
    let cluster_scoped = object.object.namespace.is_none();
    if let Some(refused) = refused(&object, None, admission::override_(raw, cluster_scoped)) {
        return Ok(refused);
    }
    let wire: OverrideWire = decode_value(&object, &value)?;
    let spec = wire.spec;
    let selectors = spec
        .cluster_resource_selectors
        .or(spec.resource_selectors)
        .unwrap_or_default();
    let names = spec.placement.as_ref().map(|placement| {
        reference(
            &object,
            "spec.placement.name",
            placement.scope.as_deref() == Some("Namespaced"),
            Some(placement.name.clone()),
        )
    });
    let override_ = OverrideObject {
        rules: Override {
            namespace: object.object.namespace.clone(),
            name: object.name().to_string(),
            rules: spec
                .policy
                .unwrap_or_default()
                .override_rules
                .unwrap_or_default(),
        },
        placement: spec.placement.map(|reference| PlacementRef {
            name: reference.name,
            namespaced: reference.scope.as_deref() == Some("Namespaced"),
        }),
        selector_terms: raw
            .get(admission::selectors_field(cluster_scoped))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|selector| admission::shown_selector(selector, cluster_scoped))
            .collect(),
        selectors: named(selectors),
        source: object.source.clone(),
        object: object.object.clone(),
    };
    Ok(kept(object, KubeFleetObject::Override(override_, names)))
}
