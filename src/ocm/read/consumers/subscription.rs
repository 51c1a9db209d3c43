//! `apps.open-cluster-management.io/v1` `Subscription`: its `spec.placement`
//! (open-cluster-management-io/multicloud-operators-subscription `pkg/apis/apps/v1`).

use serde::Deserialize;

use super::{consumer, WithSpec};
use crate::load::decode::null_as_default;
use crate::load::kinds::{Api, KnownKind};
use crate::load::model_builder::Decoded;
use crate::load::names::Names;
use crate::load::object::{Object, Scope};
use crate::load::LoadError;
use crate::model::LabelSelectorSpec;
use crate::ocm::model::consumer::{ConsumerSpec, SubscriptionPlacement, SubscriptionRef};

pub(crate) const API: Api = Api {
    kinds: &[KnownKind {
        group: "apps.open-cluster-management.io",
        kind: "Subscription",
        versions: &["v1"],
        scope: Scope::Namespaced,
        names: Names::Subdomain,
        read: subscription,
    }],
    claims: None,
};

#[derive(Default, Deserialize)]
struct Spec {
    #[serde(default)]
    placement: Option<Placement>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Placement {
    #[serde(default)]
    local: Option<bool>,
    #[serde(default)]
    placement_ref: Option<Reference>,
    #[serde(default)]
    clusters: Option<Vec<ClusterName>>,
    #[serde(default)]
    cluster_selector: Option<LabelSelectorSpec>,
}

/// A `corev1.ObjectReference`: every field optional.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Reference {
    #[serde(default, deserialize_with = "null_as_default")]
    kind: String,
    #[serde(default, deserialize_with = "null_as_default")]
    api_version: String,
    #[serde(default, deserialize_with = "null_as_default")]
    namespace: String,
    #[serde(default, deserialize_with = "null_as_default")]
    name: String,
}

#[derive(Deserialize)]
struct ClusterName {
    #[serde(default, deserialize_with = "null_as_default")]
    name: String,
}

fn subscription(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: WithSpec<Spec> = object.decode()?;
    let placement = match doc.spec.placement {
        None => SubscriptionPlacement::default(),
        Some(placement) => SubscriptionPlacement {
            present: true,
            local: placement.local.unwrap_or(false),
            reference: placement.placement_ref.map(|reference| SubscriptionRef {
                kind: reference.kind,
                api_version: reference.api_version,
                namespace: reference.namespace,
                name: reference.name,
            }),
            clusters: placement
                .clusters
                .map(|clusters| clusters.into_iter().map(|cluster| cluster.name).collect()),
            cluster_selector: placement.cluster_selector,
        },
    };
    Ok(consumer(object, ConsumerSpec::Subscription(placement)))
}
