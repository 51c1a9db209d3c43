//! `work.open-cluster-management.io/v1alpha1` `ManifestWorkReplicaSet`: its
//! `spec.placementRefs` (open-cluster-management-io/api `work/v1alpha1`).

use serde::Deserialize;

use super::{consumer, not_empty, WithSpec};
use crate::load::decode::null_as_default;
use crate::load::kinds::{Api, KnownKind};
use crate::load::model_builder::Decoded;
use crate::load::names::Names;
use crate::load::object::{Object, Scope};
use crate::load::LoadError;
use crate::model::consumer::ConsumerSpec;

pub const API: Api = Api {
    kinds: &[KnownKind {
        group: "work.open-cluster-management.io",
        kind: "ManifestWorkReplicaSet",
        versions: &["v1alpha1"],
        scope: Scope::Namespaced,
        names: Names::Subdomain,
        read: manifest_work_replica_set,
    }],
    claims: None,
};

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    #[serde(default, deserialize_with = "null_as_default")]
    placement_refs: Vec<PlacementRef>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PlacementRef {
    #[serde(default, deserialize_with = "null_as_default")]
    name: String,
    #[serde(default, deserialize_with = "null_as_default")]
    rollout_strategy: Rollout,
}

#[derive(Default, Deserialize)]
struct Rollout {
    #[serde(default, rename = "type", deserialize_with = "null_as_default")]
    type_: String,
}

fn manifest_work_replica_set(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: WithSpec<Spec> = object.decode()?;
    let mut placements = Vec::new();
    for (at, reference) in doc.spec.placement_refs.into_iter().enumerate() {
        not_empty(&format!("spec.placementRefs[{at}].name"), &reference.name)
            .map_err(|e| object.invalid(e))?;
        // The CRD defaults the strategy's type to All.
        let strategy = match reference.rollout_strategy.type_.as_str() {
            "" => "All".to_string(),
            other => other.to_string(),
        };
        placements.push((reference.name, strategy));
    }
    Ok(consumer(
        object,
        ConsumerSpec::ManifestWorkReplicaSet { placements },
    ))
}
