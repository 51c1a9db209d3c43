//! The kinds that ask for placement: objects carrying the federation annotations, kubefed
//! `ReplicaSchedulingPreference` and `Federated*`, OCM `Placement` and `PlacementRule`.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::decisions::{placement_rule_decisions, DecisionsDoc};
use super::decode::{null_as_default, FieldError};
use super::model_builder::ModelBuilder;
use super::object::Object;
use super::LoadError;
use crate::model::preferences::{ClusterPreferences, ReplicaPreferences, RspSpec};
use crate::model::{FederatedPlacement, LabelSelectorSpec, Workload, WorkloadKind};

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

fn non_negative(value: i32, path: &str) -> Result<i64, FieldError> {
    if value < 0 {
        return Err(FieldError::new(
            path,
            format!("expected 0 or more replicas, found {value}"),
        ));
    }
    Ok(i64::from(value))
}

// ---- any object with the federation annotations ----

#[derive(Default, Deserialize)]
struct ReplicasDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    spec: ReplicasSpec,
}

/// `spec.replicas` is an int32 in every workload kind that has it.
#[derive(Default, Deserialize)]
struct ReplicasSpec {
    #[serde(default)]
    replicas: Option<i32>,
}

pub fn annotated(object: &Object<'_>, builder: &mut ModelBuilder) -> Result<(), LoadError> {
    let doc: ReplicasDoc = object.decode()?;
    let replicas = non_negative(doc.spec.replicas.unwrap_or(1), "spec.replicas")
        .map_err(|error| object.invalid(error))?;
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

// TODO(replicas branch): decode straight into model::preferences::RspSpec once it derives
// Deserialize; until then this mirrors kubefed's ReplicaSchedulingPreferenceSpec.
#[derive(Deserialize)]
struct RspDoc {
    spec: RspSpecDoc,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RspSpecDoc {
    target_kind: String,
    total_replicas: i32,
    #[serde(default)]
    rebalance: bool,
    #[serde(default, deserialize_with = "null_as_default")]
    clusters: BTreeMap<String, ClusterPreferencesDoc>,
    #[serde(default)]
    intersect_with_cluster_selector: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClusterPreferencesDoc {
    #[serde(default)]
    min_replicas: i64,
    #[serde(default)]
    max_replicas: Option<i64>,
    #[serde(default)]
    weight: i64,
}

pub fn replica_scheduling_preference(
    object: &Object<'_>,
    builder: &mut ModelBuilder,
) -> Result<(), LoadError> {
    let doc: RspDoc = object.decode()?;
    let total = non_negative(doc.spec.total_replicas, "spec.totalReplicas")
        .map_err(|error| object.invalid(error))?;
    let spec = RspSpec {
        target_kind: doc.spec.target_kind,
        total_replicas: total,
        preferences: ReplicaPreferences {
            rebalance: doc.spec.rebalance,
            clusters: doc
                .spec
                .clusters
                .into_iter()
                .map(|(name, preferences)| {
                    (
                        name,
                        ClusterPreferences {
                            min_replicas: preferences.min_replicas,
                            max_replicas: preferences.max_replicas,
                            weight: preferences.weight,
                        },
                    )
                })
                .collect(),
        },
        intersect_with_cluster_selector: doc.spec.intersect_with_cluster_selector,
    };
    add(
        object,
        WorkloadKind::ReplicaSchedulingPreference(spec),
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

pub fn placement(object: &Object<'_>, builder: &mut ModelBuilder) -> Result<(), LoadError> {
    // TODO(placement branch): decode spec with model::placement's decode function once
    // PlacementSpec is deserializable; until then the Placement is recorded undecoded.
    add(object, WorkloadKind::Placement(Box::default()), builder);
    Ok(())
}

pub fn placement_rule(object: &Object<'_>, builder: &mut ModelBuilder) -> Result<(), LoadError> {
    let doc: DecisionsDoc = object.decode()?;
    // TODO(placement branch): decode spec into model::placement::PlacementRuleSpec once it
    // is deserializable; until then the PlacementRule is recorded undecoded.
    let kind = WorkloadKind::PlacementRule(Box::default());
    if add(object, kind, builder) {
        if let Some(decision) = placement_rule_decisions(object, doc) {
            builder.decision(decision);
        }
    }
    Ok(())
}
