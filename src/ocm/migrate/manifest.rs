//! The OCM objects a migration writes besides Placements: the cluster set of every cluster,
//! the bindings Placements need, and the ManifestWorkReplicaSets that deliver workloads.

use serde::Serialize;
use serde_yaml::Value;

use crate::migrate::manifest::{emit, Emitted, Unwritten};
use crate::model::{LabelSelectorSpec, Metadata};

const CLUSTER_SET_API_VERSION: &str = "cluster.open-cluster-management.io/v1beta2";
const MANIFEST_WORK_API_VERSION: &str = "work.open-cluster-management.io/v1alpha1";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ClusterSetSpec {
    cluster_selector: SetSelector,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SetSelector {
    selector_type: &'static str,
    label_selector: LabelSelectorSpec,
}

/// A ManagedClusterSet of every cluster (`LabelSelector` `{}`), like OCM's own `global`.
pub(crate) fn every_cluster_set(name: &str) -> Result<Emitted, Unwritten> {
    emit(
        CLUSTER_SET_API_VERSION,
        "ManagedClusterSet",
        Metadata::named(name, None),
        ClusterSetSpec {
            cluster_selector: SetSelector {
                selector_type: "LabelSelector",
                label_selector: LabelSelectorSpec::default(),
            },
        },
    )
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BindingSpec<'a> {
    cluster_set: &'a str,
}

/// A ManagedClusterSetBinding; OCM requires its name to be the set's name.
pub(crate) fn binding(namespace: &str, set: &str) -> Result<Emitted, Unwritten> {
    emit(
        CLUSTER_SET_API_VERSION,
        "ManagedClusterSetBinding",
        Metadata::named(set, Some(namespace)),
        BindingSpec { cluster_set: set },
    )
}

/// `spec` of a ManifestWorkReplicaSet: one Placement, the CRD's default rollout (`All`) and
/// cascade deletion policy written out, and the manifests.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ManifestWorkReplicaSetSpec<'a> {
    /// Required by the CRD (it has a default, which a client-side schema check does not apply).
    cascade_deletion_policy: &'static str,
    placement_refs: Vec<PlacementRef<'a>>,
    manifest_work_template: ManifestWorkTemplate,
}

#[derive(Serialize)]
struct PlacementRef<'a> {
    name: &'a str,
}

#[derive(Serialize)]
struct ManifestWorkTemplate {
    workload: WorkloadManifests,
}

#[derive(Serialize)]
struct WorkloadManifests {
    manifests: Vec<Value>,
}

/// A ManifestWorkReplicaSet delivering `manifest` to the clusters `placement` selects.
pub(crate) fn manifest_work_replica_set(
    metadata: Metadata<'_>,
    placement: &str,
    manifest: Value,
) -> Result<Emitted, Unwritten> {
    emit(
        MANIFEST_WORK_API_VERSION,
        "ManifestWorkReplicaSet",
        metadata,
        ManifestWorkReplicaSetSpec {
            cascade_deletion_policy: "Background",
            placement_refs: vec![PlacementRef { name: placement }],
            manifest_work_template: ManifestWorkTemplate {
                workload: WorkloadManifests {
                    manifests: vec![manifest],
                },
            },
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_written_in_manifest_order() {
        let emitted = binding("shop", "global").map(|emitted| emitted.value);
        let text = serde_yaml::to_string(&emitted.unwrap_or_default()).unwrap_or_default();
        assert_eq!(
            text,
            "apiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSetBinding\nmetadata:\n  name: global\n  namespace: shop\nspec:\n  clusterSet: global\n"
        );
    }

    #[test]
    fn every_cluster_set_has_an_empty_label_selector() {
        let set = every_cluster_set("global").map(|emitted| emitted.value);
        let text = serde_yaml::to_string(&set.unwrap_or_default()).unwrap_or_default();
        assert!(
            text.ends_with("spec:\n  clusterSelector:\n    selectorType: LabelSelector\n    labelSelector: {}\n"),
            "{text}"
        );
    }
}
