//! `addon.open-cluster-management.io` `ClusterManagementAddOn`: its
//! `spec.installStrategy` (open-cluster-management-io/api `addon/v1alpha1`, `addon/v1beta1`).

use serde::Deserialize;

use super::{consumer, not_empty, one_of, WithSpec};
use crate::load::decode::null_as_default;
use crate::load::kinds::{Api, KnownKind};
use crate::load::model_builder::Decoded;
use crate::load::names::Names;
use crate::load::object::{Object, Scope};
use crate::load::LoadError;
use crate::ocm::model::consumer::ConsumerSpec;

pub(crate) const API: Api = Api {
    kinds: &[KnownKind {
        group: "addon.open-cluster-management.io",
        kind: "ClusterManagementAddOn",
        versions: &["v1alpha1", "v1beta1"],
        scope: Scope::Cluster,
        names: Names::Subdomain,
        read: cluster_management_addon,
    }],
    claims: None,
};

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    #[serde(default, deserialize_with = "null_as_default")]
    install_strategy: Strategy,
}

#[derive(Default, Deserialize)]
struct Strategy {
    #[serde(default, rename = "type", deserialize_with = "null_as_default")]
    type_: String,
    #[serde(default, deserialize_with = "null_as_default")]
    placements: Vec<PlacementRef>,
}

#[derive(Deserialize)]
struct PlacementRef {
    #[serde(default, deserialize_with = "null_as_default")]
    name: String,
    #[serde(default, deserialize_with = "null_as_default")]
    namespace: String,
}

fn cluster_management_addon(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: WithSpec<Spec> = object.decode()?;
    let strategy = doc.spec.install_strategy;
    // The CRD's enum; an empty type is the default, Manual.
    if !strategy.type_.is_empty() {
        one_of(
            "spec.installStrategy.type",
            &strategy.type_,
            &["Manual", "Placements"],
        )
        .map_err(|e| object.invalid(e))?;
    }
    let mut placements = Vec::new();
    for (at, reference) in strategy.placements.into_iter().enumerate() {
        let path = format!("spec.installStrategy.placements[{at}]");
        not_empty(&format!("{path}.name"), &reference.name).map_err(|e| object.invalid(e))?;
        not_empty(&format!("{path}.namespace"), &reference.namespace)
            .map_err(|e| object.invalid(e))?;
        placements.push((reference.namespace, reference.name));
    }
    let spec = ConsumerSpec::AddOn {
        strategy: strategy.type_,
        placements,
    };
    Ok(consumer(object, spec))
}
