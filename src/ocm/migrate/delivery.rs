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
//!   are not split, and kubefed's replica division written for them acts only in kubefed;
//! - `status` and the server-written `metadata` fields are dropped;
//! - an apiVersion removed from current Kubernetes is converted to the one that replaced it
//!   (`api_versions`), or reported lost when no conversion is known.

use serde_yaml::Value;

use crate::model::ObjectRef;

use crate::migrate::api_versions;
use crate::migrate::manifest::Unwritten;
use crate::migrate::report::FieldReport;
use crate::migrate::Converted;
use crate::model::Metadata;

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
/// annotations) to the clusters of the Placement `placement` selects; `split_is` says whose
/// the per-cluster split of its replicas is, when replica-set-preferences split them.
pub(crate) fn convert(
    object: &ObjectRef,
    placement: &ObjectRef,
    workload: &Value,
    written_namespace: bool,
    split_is: Option<&str>,
) -> Result<Converted, Unwritten> {
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
    fields.push(feature_gate());
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
    if let Some(split_is) = split_is {
        fields.push(FieldReport::approximate(
            "spec.replicas (split by replica-set-preferences)",
            format!("{made} spec.replicas on every selected cluster"),
            format!("a ManifestWorkReplicaSet sends the same manifest to every cluster; the per-cluster split is {split_is}"),
        ));
    }
    let served = api_versions::serve(object, &manifest);
    fields.extend(served.fields);
    let manifest = served.value;
    let metadata = Metadata::of(placement);
    Ok(Converted {
        outputs: vec![super::manifest::manifest_work_replica_set(
            metadata,
            &placement.name,
            manifest,
        )?],
        fields,
    })
}

/// The hub runs the ManifestWorkReplicaSet controller only with its feature gate, which is
/// off by default (alpha): a default hub accepts the object and delivers nothing. The OCM
/// documentation (open-cluster-management-io.github.io,
/// `content/en/docs/concepts/work-distribution/manifestworkreplicaset.md`, "Release and Enable
/// Feature") says how to turn it on.
pub(super) const FEATURE_GATE: &str = "ManifestWorkReplicaSet";

fn feature_gate() -> FieldReport {
    FieldReport::approximate(
        "(delivery by the hub)",
        format!("the {FEATURE_GATE} feature gate of the hub"),
        format!("the hub runs the {FEATURE_GATE} controller only with the {FEATURE_GATE} feature gate, off by default: a default hub accepts the object and delivers nothing; enable it on the ClusterManager (kubectl edit clustermanager cluster-manager): add {{feature: {FEATURE_GATE}, mode: Enable}} to spec.workConfiguration.featureGates"),
    )
}

/// The loss when delivery is turned off (`migrate --no-manifest-work`): the object is
/// written back bare, and on a hub it runs there, tied to no Placement.
pub(crate) fn not_delivered(placement: &ObjectRef) -> FieldReport {
    FieldReport::lost(
        "(delivery to the selected clusters)",
        format!(
            "--no-manifest-work: the object is written back without the annotation and, applied to the hub, runs there; deliver it to the clusters Placement/{} selects yourself (a ManifestWorkReplicaSet with spec.placementRefs naming it, a Subscription, or a GitOps tool reading its PlacementDecisions), and do not apply it to the hub",
            placement.name
        ),
    )
}
