//! The OCM Placement API (`cluster.open-cluster-management.io`): `Placement`, and the hub
//! objects its scheduler reads: `ManagedCluster`, `ManagedClusterSet`(`Binding`),
//! `AddOnPlacementScore` and previous `PlacementDecision`s.

mod cluster_sets;
mod decisions;
mod scores;

pub(crate) use cluster_sets::parse_cluster_set;

use super::managed_cluster::managed_cluster;
use super::spec_error;
use crate::load::kinds::{json_text, subtree, workload, Api, KnownKind};
use crate::load::model_builder::Decoded;
use crate::load::names::Names;
use crate::load::object::{Object, Scope};
use crate::load::{LoadError, Strict};
use crate::model::WorkloadKind;
use crate::ocm::model::decision::{DECISION_KIND, PLACEMENT_KIND};
use crate::ocm::model::placement::{decode_placement_spec, decode_placement_spec_untracked};

const GROUP: &str = "cluster.open-cluster-management.io";

pub(crate) const API: Api = Api {
    kinds: &[
        KnownKind {
            group: GROUP,
            kind: "ManagedCluster",
            versions: &["v1"],
            scope: Scope::Cluster,
            names: Names::Label,
            read: managed_cluster,
        },
        KnownKind {
            group: GROUP,
            kind: "ManagedClusterSet",
            versions: &["v1beta1", "v1beta2"],
            scope: Scope::Cluster,
            names: cluster_sets::SET_NAMES,
            read: cluster_sets::cluster_set,
        },
        KnownKind {
            group: GROUP,
            kind: "ManagedClusterSetBinding",
            versions: &["v1beta1", "v1beta2"],
            scope: Scope::Namespaced,
            names: Names::Subdomain,
            read: cluster_sets::binding,
        },
        KnownKind {
            group: GROUP,
            kind: "AddOnPlacementScore",
            versions: &["v1alpha1"],
            scope: Scope::Namespaced,
            names: Names::Subdomain,
            read: scores::addon_score,
        },
        KnownKind {
            group: GROUP,
            kind: DECISION_KIND,
            versions: &["v1alpha1", "v1beta1"],
            scope: Scope::Namespaced,
            names: Names::Subdomain,
            read: decisions::placement_decision,
        },
        KnownKind {
            group: GROUP,
            kind: PLACEMENT_KIND,
            versions: &["v1alpha1", "v1beta1"],
            scope: Scope::Namespaced,
            names: Names::Subdomain,
            read: placement,
        },
    ],
    claims: None,
};

fn placement(object: Object<'_>) -> Result<Decoded, LoadError> {
    let api_version = &object.object.api_version;
    // Straight from JSON text when it decodes; else from the tree, whose error and path are
    // the ones reported. Structs are taken only from mappings, as the API server's schema
    // takes objects.
    let from_text = json_text(&object, "spec").and_then(|text| {
        let text = &mut serde_json::Deserializer::from_str(text);
        decode_placement_spec_untracked(api_version, Strict(text))
    });
    let spec = match from_text {
        Some(spec) => spec,
        None => decode_placement_spec(api_version, Strict(subtree(&object, "spec")?))
            .map_err(|error| spec_error(&object, "spec", error))?,
    };
    Ok(workload(
        object,
        WorkloadKind::Placement(Box::new(spec)),
        None,
    ))
}
