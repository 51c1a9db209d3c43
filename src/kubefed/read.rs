//! kubefed: `KubeFedCluster`, `ReplicaSchedulingPreference` and the `Federated*` types.

use serde::Deserialize;

use crate::kubefed::model::{FederatedPlacement, RspSpec};
use crate::load::decode::null_as_default;
use crate::load::kinds::{workload, Api, KnownKind};
use crate::load::model_builder::Decoded;
use crate::load::names::Names;
use crate::load::object::{Object, Scope};
use crate::load::LoadError;
use crate::model::{LabelSelectorSpec, WorkloadKind};
use crate::registry::federation_cluster;

pub(crate) const API: Api = Api {
    kinds: &[
        KnownKind {
            group: "core.kubefed.io",
            kind: "KubeFedCluster",
            versions: &["v1beta1"],
            scope: Scope::Namespaced,
            names: Names::Subdomain,
            read: federation_cluster,
        },
        KnownKind {
            group: "scheduling.kubefed.io",
            kind: "ReplicaSchedulingPreference",
            versions: &["v1alpha1"],
            scope: Scope::Namespaced,
            names: Names::Subdomain,
            read: replica_scheduling_preference,
        },
        // kubefed's federated types of cluster-scoped kinds are cluster-scoped; every other
        // one is namespaced.
        federated_cluster_scoped("FederatedClusterRole"),
        federated_cluster_scoped("FederatedClusterRoleBinding"),
        federated_cluster_scoped("FederatedCustomResourceDefinition"),
        KnownKind {
            group: "types.kubefed.io",
            kind: "Federated*",
            versions: &["v1beta1"],
            scope: Scope::Namespaced,
            names: Names::Subdomain,
            read: federated,
        },
    ],
    claims: None,
};

/// A cluster-scoped federated kind, read as every other `Federated*`.
const fn federated_cluster_scoped(kind: &'static str) -> KnownKind {
    KnownKind {
        group: "types.kubefed.io",
        kind,
        versions: &["v1beta1"],
        scope: Scope::Cluster,
        names: Names::Subdomain,
        read: federated,
    }
}

#[derive(Deserialize)]
struct RspDoc {
    spec: RspSpec,
}

fn replica_scheduling_preference(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: RspDoc = object.decode()?;
    let kind = WorkloadKind::ReplicaSchedulingPreference(doc.spec);
    Ok(workload(object, kind, None))
}

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

fn federated(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: FederatedDoc = object.decode()?;
    let placement = doc.spec.placement;
    // kubefed: a clusters list, even an empty one, wins over clusterSelector.
    let placement = match placement.clusters {
        Some(clusters) => {
            FederatedPlacement::Clusters(clusters.into_iter().map(|c| c.name).collect())
        }
        None => FederatedPlacement::Selector(placement.cluster_selector),
    };
    Ok(workload(object, WorkloadKind::Federated(placement), None))
}
