//! The kinds that ask for placement: objects carrying the federation annotations, kubefed
//! `ReplicaSchedulingPreference` and `Federated*`, OCM `Placement` and `PlacementRule`.

use serde::{Deserialize, Deserializer};

use super::decode::{null_as_default, FieldError};
use super::model_builder::ModelBuilder;
use super::object::Object;
use super::LoadError;
use crate::model::placement::{
    decode_placement_rule_decisions, decode_placement_rule_spec, decode_placement_spec, SpecError,
};
use crate::model::preferences::{check_non_negative, RspSpec};
use crate::model::{
    FederatedPlacement, LabelSelectorSpec, PreviousDecision, Workload, WorkloadKind,
};

pub const CLUSTER_SELECTOR_ANNOTATION: &str = "federation.alpha.kubernetes.io/cluster-selector";
pub const REPLICA_SET_PREFERENCES_ANNOTATION: &str =
    "federation.kubernetes.io/replica-set-preferences";

/// Adds the workload; false when it duplicates an earlier object (already reported).
fn add(object: &Object<'_>, kind: WorkloadKind, builder: &mut ModelBuilder) -> bool {
    let unique = builder.claim(&object.object, &object.source);
    if unique {
        builder.workload(Workload {
            object: object.object.clone(),
            source: object.source.clone(),
            cluster_selector: object
                .meta
                .annotations
                .get(CLUSTER_SELECTOR_ANNOTATION)
                .cloned(),
            kind,
        });
    }
    unique
}

// ---- any object with the federation annotations ----

#[derive(Default, Deserialize)]
struct ReplicasDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    spec: ReplicasSpec,
}

#[derive(Default, Deserialize)]
struct ReplicasSpec {
    #[serde(default, deserialize_with = "optional_replicas")]
    replicas: Option<i64>,
}

/// `spec.replicas` is an int32 in every workload kind that has it.
fn optional_replicas<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    Option::<i32>::deserialize(deserializer)?
        .map(|replicas| check_non_negative(i64::from(replicas)))
        .transpose()
}

pub fn annotated(object: &Object<'_>, builder: &mut ModelBuilder) -> Result<(), LoadError> {
    let doc: ReplicasDoc = object.decode()?;
    let replicas = doc.spec.replicas.unwrap_or(1);
    let preferences = object
        .meta
        .annotations
        .get(REPLICA_SET_PREFERENCES_ANNOTATION)
        .cloned();
    let kind = WorkloadKind::Annotated {
        replica_set_preferences: preferences,
        replicas,
    };
    add(object, kind, builder);
    Ok(())
}

// ---- ReplicaSchedulingPreference (scheduling.kubefed.io/v1alpha1) ----

#[derive(Deserialize)]
struct RspDoc {
    spec: RspSpec,
}

pub fn replica_scheduling_preference(
    object: &Object<'_>,
    builder: &mut ModelBuilder,
) -> Result<(), LoadError> {
    let doc: RspDoc = object.decode()?;
    add(
        object,
        WorkloadKind::ReplicaSchedulingPreference(doc.spec),
        builder,
    );
    Ok(())
}

// ---- Federated* (types.kubefed.io/v1beta1) ----

#[derive(Default, Deserialize)]
struct FederatedDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    spec: FederatedSpec,
}

#[derive(Default, Deserialize)]
struct FederatedSpec {
    #[serde(default, deserialize_with = "null_as_default")]
    placement: PlacementDoc,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PlacementDoc {
    /// `null` decodes to `None` like Go's nil slice, which kubefed treats as absent.
    #[serde(default)]
    clusters: Option<Vec<ClusterReference>>,
    #[serde(default)]
    cluster_selector: Option<LabelSelectorSpec>,
}

#[derive(Deserialize)]
struct ClusterReference {
    #[serde(default, deserialize_with = "null_as_default")]
    name: String,
}

pub fn federated(object: &Object<'_>, builder: &mut ModelBuilder) -> Result<(), LoadError> {
    let doc: FederatedDoc = object.decode()?;
    let placement = doc.spec.placement;
    // kubefed: a clusters list, even an empty one, wins over clusterSelector.
    let placement = match placement.clusters {
        Some(clusters) => {
            FederatedPlacement::Clusters(clusters.into_iter().map(|c| c.name).collect())
        }
        None => FederatedPlacement::Selector(placement.cluster_selector),
    };
    add(object, WorkloadKind::Federated(placement), builder);
    Ok(())
}

// ---- Placement and PlacementRule ----

/// The `spec` or `status` subtree in the JSON form model::placement decodes.
fn subtree(object: &Object<'_>, field: &str) -> Result<serde_json::Value, LoadError> {
    let Some(content) = object.content.get(field) else {
        return Ok(serde_json::Value::Null);
    };
    content.to_json().map_err(|error| {
        object.invalid(FieldError::new(
            field,
            format!("expected a mapping with string keys: {error}"),
        ))
    })
}

fn spec_error(object: &Object<'_>, field: &str, error: SpecError) -> LoadError {
    let path = match error.path.as_str() {
        "" | "." => field.to_string(),
        path if path.starts_with(&format!("{field}.")) => path.to_string(),
        path => format!("{field}.{path}"),
    };
    object.invalid(FieldError::new(path, error.message))
}

pub fn placement(object: &Object<'_>, builder: &mut ModelBuilder) -> Result<(), LoadError> {
    let spec = decode_placement_spec(&object.object.api_version, subtree(object, "spec")?)
        .map_err(|error| spec_error(object, "spec", error))?;
    add(object, WorkloadKind::Placement(Box::new(spec)), builder);
    Ok(())
}

pub fn placement_rule(object: &Object<'_>, builder: &mut ModelBuilder) -> Result<(), LoadError> {
    let spec = decode_placement_rule_spec(subtree(object, "spec")?)
        .map_err(|error| spec_error(object, "spec", error))?;
    let clusters = decode_placement_rule_decisions(subtree(object, "status")?)
        .map_err(|error| spec_error(object, "status", error))?;
    if add(object, WorkloadKind::PlacementRule(Box::new(spec)), builder) && !clusters.is_empty() {
        builder.decision(PreviousDecision {
            object: object.object.clone(),
            placement: object.name().to_string(),
            clusters,
            source: object.source.clone(),
        });
    }
    Ok(())
}
