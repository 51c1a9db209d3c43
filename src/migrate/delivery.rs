//! The workload of an object with the federation cluster-selector annotation, delivered to the
//! clusters its Placement selects: a `ManifestWorkReplicaSet`
//! (`work.open-cluster-management.io/v1alpha1`) in the Placement's namespace, named like it,
//! whose `spec.manifestWorkTemplate.workload.manifests` holds the object without the
//! federation annotations. Written back as a bare object instead, the workload would run on
//! the hub itself and nothing would tie it to the Placement.
//!
//! What a ManifestWorkReplicaSet cannot carry is reported:
//! - a manifest is applied as written, so a namespaced workload without a namespace gets the
//!   one the input was read in (`-n`, else `default`); no ManifestWork creates that namespace
//!   on the clusters;
//! - every cluster gets the same manifest, so per-cluster replicas (replica-set-preferences)
//!   are not split, and the kubefed ReplicaSchedulingPreference written for them acts only
//!   in kubefed;
//! - `status` and the server-written `metadata` fields are dropped;
//! - an apiVersion removed from current Kubernetes would be refused by every cluster.

use serde_yaml::Value;

use crate::model::ObjectRef;

use super::manifest::{self, Metadata};
use super::report::FieldReport;
use super::Converted;

/// `metadata` fields the API server writes; a manifest carrying them would be refused or
/// would pin the object to the hub's copy.
const SERVER_METADATA: &[&str] = &[
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "managedFields",
    "ownerReferences",
    "selfLink",
];

/// The ManifestWorkReplicaSet delivering `workload` (already without the federation
/// annotations) to the clusters of the Placement `placement` selects.
pub fn convert(
    object: &ObjectRef,
    placement: &ObjectRef,
    workload: &Value,
    written_namespace: bool,
    replicas_split: bool,
) -> Converted {
    let mut manifest = workload.clone();
    let mut fields = Vec::new();
    let made = format!(
        "ManifestWorkReplicaSet/{} spec.manifestWorkTemplate.workload.manifests[0]",
        placement.name
    );
    fields.push(FieldReport::exact(
        "(the object itself)",
        format!(
            "{made}, delivered to the clusters Placement/{} selects",
            placement.name
        ),
    ));
    let namespace = object.namespace.as_deref().unwrap_or_default();
    if let Some(Value::Mapping(metadata)) = manifest.get_mut("metadata") {
        if !written_namespace {
            metadata.insert("namespace".into(), namespace.into());
            fields.push(FieldReport::approximate(
                "metadata.namespace (none)",
                format!("{made} metadata.namespace {namespace}"),
                "a ManifestWork applies a manifest as written, so it names the namespace the input was read in (-n, else default)",
            ));
        }
        for field in SERVER_METADATA {
            if metadata.remove(*field).is_some() {
                fields.push(FieldReport::lost(
                    format!("metadata.{field}"),
                    "written by the API server, not by a manifest",
                ));
            }
        }
    }
    fields.push(FieldReport::approximate(
        format!("(namespace {namespace} on the clusters)"),
        "nothing",
        "a ManifestWork creates only its manifests: the namespace must exist on every selected cluster, or be added to the manifests",
    ));
    if let Value::Mapping(root) = &mut manifest {
        if root.remove("status").is_some() {
            fields.push(FieldReport::lost(
                "status",
                "status is written by each cluster's controllers",
            ));
        }
    }
    if replicas_split {
        fields.push(FieldReport::approximate(
            "spec.replicas (split by replica-set-preferences)",
            format!("{made} spec.replicas on every selected cluster"),
            "a ManifestWorkReplicaSet sends the same manifest to every cluster; the per-cluster split is the ReplicaSchedulingPreference's, which only kubefed reads",
        ));
    }
    if let Some(removal) = removed_api(object) {
        fields.push(FieldReport::lost(
            format!("apiVersion {}", object.api_version),
            removal,
        ));
    }
    let metadata = Metadata::of(placement);
    Converted {
        outputs: vec![manifest::manifest_work_replica_set(
            metadata,
            &placement.name,
            manifest,
        )],
        fields,
    }
}

/// The loss when delivery is turned off (`migrate --no-manifest-work`): the object is
/// written back bare, and on a hub it runs there, tied to no Placement.
pub fn not_delivered(placement: &ObjectRef) -> FieldReport {
    FieldReport::lost(
        "(delivery to the selected clusters)",
        format!(
            "--no-manifest-work: the object is written back without the annotation and, applied to the hub, runs there; deliver it to the clusters Placement/{} selects yourself (a ManifestWorkReplicaSet with spec.placementRefs naming it, a Subscription, or a GitOps tool reading its PlacementDecisions), and do not apply it to the hub",
            placement.name
        ),
    )
}

/// API versions removed from Kubernetes (the deprecated API migration guide,
/// kubernetes.io/docs/reference/using-api/deprecation-guide/): (group/version, kinds, the
/// release that stopped serving them, what replaces them). An empty kind list is every kind.
const REMOVED: &[(&str, &[&str], &str, &str)] = &[
    (
        "extensions/v1beta1",
        &["Deployment", "DaemonSet", "ReplicaSet"],
        "1.16",
        "apps/v1",
    ),
    (
        "extensions/v1beta1",
        &["NetworkPolicy"],
        "1.16",
        "networking.k8s.io/v1",
    ),
    (
        "extensions/v1beta1",
        &["PodSecurityPolicy"],
        "1.16",
        "nothing: PodSecurityPolicy is gone since 1.25",
    ),
    (
        "extensions/v1beta1",
        &["Ingress"],
        "1.22",
        "networking.k8s.io/v1",
    ),
    ("apps/v1beta1", &[], "1.16", "apps/v1"),
    ("apps/v1beta2", &[], "1.16", "apps/v1"),
    (
        "networking.k8s.io/v1beta1",
        &[],
        "1.22",
        "networking.k8s.io/v1",
    ),
    (
        "rbac.authorization.k8s.io/v1beta1",
        &[],
        "1.22",
        "rbac.authorization.k8s.io/v1",
    ),
    (
        "scheduling.k8s.io/v1beta1",
        &[],
        "1.22",
        "scheduling.k8s.io/v1",
    ),
    (
        "apiextensions.k8s.io/v1beta1",
        &[],
        "1.22",
        "apiextensions.k8s.io/v1",
    ),
    (
        "admissionregistration.k8s.io/v1beta1",
        &[],
        "1.22",
        "admissionregistration.k8s.io/v1",
    ),
    (
        "apiregistration.k8s.io/v1beta1",
        &[],
        "1.22",
        "apiregistration.k8s.io/v1",
    ),
    (
        "certificates.k8s.io/v1beta1",
        &[],
        "1.22",
        "certificates.k8s.io/v1",
    ),
    (
        "coordination.k8s.io/v1beta1",
        &[],
        "1.22",
        "coordination.k8s.io/v1",
    ),
    (
        "storage.k8s.io/v1beta1",
        &["CSIDriver", "CSINode", "StorageClass", "VolumeAttachment"],
        "1.22",
        "storage.k8s.io/v1",
    ),
    (
        "storage.k8s.io/v1beta1",
        &["CSIStorageCapacity"],
        "1.27",
        "storage.k8s.io/v1",
    ),
    ("batch/v1beta1", &["CronJob"], "1.25", "batch/v1"),
    (
        "discovery.k8s.io/v1beta1",
        &[],
        "1.25",
        "discovery.k8s.io/v1",
    ),
    ("events.k8s.io/v1beta1", &[], "1.25", "events.k8s.io/v1"),
    ("autoscaling/v2beta1", &[], "1.25", "autoscaling/v2"),
    ("autoscaling/v2beta2", &[], "1.26", "autoscaling/v2"),
    (
        "policy/v1beta1",
        &["PodSecurityPolicy"],
        "1.25",
        "nothing: PodSecurityPolicy has no successor",
    ),
    ("policy/v1beta1", &[], "1.25", "policy/v1"),
    ("node.k8s.io/v1beta1", &[], "1.25", "node.k8s.io/v1"),
    (
        "flowcontrol.apiserver.k8s.io/v1beta1",
        &[],
        "1.26",
        "flowcontrol.apiserver.k8s.io/v1",
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1beta2",
        &[],
        "1.29",
        "flowcontrol.apiserver.k8s.io/v1",
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1beta3",
        &[],
        "1.32",
        "flowcontrol.apiserver.k8s.io/v1",
    ),
];

/// Why `object`'s apiVersion cannot be applied to a current cluster, when it cannot.
pub fn removed_api(object: &ObjectRef) -> Option<String> {
    REMOVED
        .iter()
        .find(|(version, kinds, _, _)| {
            *version == object.api_version && (kinds.is_empty() || kinds.contains(&object.kind.as_str()))
        })
        .map(|(version, _, release, replacement)| {
            format!(
                "{version} {} is not served since Kubernetes {release}: every cluster refuses it; write it as {replacement}",
                object.kind
            )
        })
}
