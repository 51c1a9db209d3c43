//! Routing each document to the reader for its `apiVersion`/`kind`, expanding `List`s.

use super::cluster_sets::{binding, cluster_set};
use super::clusters::{federation_cluster, inventory, managed_cluster};
use super::content::{Content, Shape};
use super::decisions::placement_decision;
use super::model_builder::ModelBuilder;
use super::object::{join, Object, TypeMeta};
use super::scores::addon_score;
use super::workloads::{
    annotated, federated, placement, placement_rule, replica_scheduling_preference,
    CLUSTER_SELECTOR_ANNOTATION, REPLICA_SET_PREFERENCES_ANNOTATION,
};
use super::LoadError;
use crate::model::Source;

type Reader = fn(&Object<'_>, &mut ModelBuilder) -> Result<(), LoadError>;

/// A kind fleetplan reads: its API group, the versions it understands, and its reader.
struct KnownKind {
    group: &'static str,
    kind: &'static str,
    versions: &'static [&'static str],
    read: Reader,
}

const OCM_CLUSTER: &str = "cluster.open-cluster-management.io";

const KNOWN_KINDS: &[KnownKind] = &[
    KnownKind {
        group: "fleetplan.io",
        kind: "ClusterInventory",
        versions: &["v1alpha1"],
        read: inventory,
    },
    KnownKind {
        group: OCM_CLUSTER,
        kind: "ManagedCluster",
        versions: &["v1"],
        read: managed_cluster,
    },
    KnownKind {
        group: OCM_CLUSTER,
        kind: "ManagedClusterSet",
        versions: &["v1beta1", "v1beta2"],
        read: cluster_set,
    },
    KnownKind {
        group: OCM_CLUSTER,
        kind: "ManagedClusterSetBinding",
        versions: &["v1beta1", "v1beta2"],
        read: binding,
    },
    KnownKind {
        group: OCM_CLUSTER,
        kind: "AddOnPlacementScore",
        versions: &["v1alpha1"],
        read: addon_score,
    },
    KnownKind {
        group: OCM_CLUSTER,
        kind: "PlacementDecision",
        versions: &["v1alpha1", "v1beta1"],
        read: placement_decision,
    },
    KnownKind {
        group: OCM_CLUSTER,
        kind: "Placement",
        versions: &["v1alpha1", "v1beta1"],
        read: placement,
    },
    KnownKind {
        group: "apps.open-cluster-management.io",
        kind: "PlacementRule",
        versions: &["v1"],
        read: placement_rule,
    },
    KnownKind {
        group: "core.kubefed.io",
        kind: "KubeFedCluster",
        versions: &["v1beta1"],
        read: federation_cluster,
    },
    KnownKind {
        group: "federation",
        kind: "Cluster",
        versions: &["v1beta1"],
        read: federation_cluster,
    },
    KnownKind {
        group: "scheduling.kubefed.io",
        kind: "ReplicaSchedulingPreference",
        versions: &["v1alpha1"],
        read: replica_scheduling_preference,
    },
];

const KUBEFED_TYPES: &str = "types.kubefed.io";
const KUBEFED_TYPES_VERSIONS: &[&str] = &["v1beta1"];

/// How a (group, kind) is handled.
enum Route {
    Read(Reader),
    /// A kind fleetplan knows, in a version it does not.
    UnsupportedVersion(&'static str, &'static [&'static str]),
    Unknown,
}

fn route(type_meta: &TypeMeta) -> Route {
    let group = type_meta.group();
    let version = type_meta
        .api_version
        .rsplit_once('/')
        .map_or(type_meta.api_version.as_str(), |(_group, version)| version);
    let known = KNOWN_KINDS
        .iter()
        .find(|known| known.group == group && known.kind == type_meta.kind)
        .map(|known| (known.group, known.versions, known.read));
    let known = known.or_else(|| {
        (group == KUBEFED_TYPES && type_meta.kind.starts_with("Federated")).then_some((
            KUBEFED_TYPES,
            KUBEFED_TYPES_VERSIONS,
            federated as Reader,
        ))
    });
    match known {
        Some((_, versions, read)) if versions.contains(&version) => Route::Read(read),
        Some((group, versions, _)) => Route::UnsupportedVersion(group, versions),
        None => Route::Unknown,
    }
}

/// Reads one document into the model. Empty documents are skipped.
pub fn load_document(content: Content<'_>, source: &Source, builder: &mut ModelBuilder) {
    load_value(content, source, "", builder);
}

fn load_value(content: Content<'_>, source: &Source, prefix: &str, builder: &mut ModelBuilder) {
    let invalid = |path: &str, message: String| LoadError::Invalid {
        at: source.clone(),
        object: None,
        path: join(prefix, path),
        message,
    };
    match content.shape() {
        Shape::Null => return,
        Shape::Mapping => {}
        other => {
            let message = format!(
                "expected a Kubernetes object (a mapping with apiVersion and kind), found {}",
                other.describe()
            );
            return builder.error(invalid("", message));
        }
    }
    let type_meta: TypeMeta = match content.decode() {
        Ok(type_meta) => type_meta,
        Err(error) => return builder.error(invalid(&error.path, error.message)),
    };
    if type_meta.kind.ends_with("List") {
        if let Some(items) = content.get("items") {
            return load_list(items, source, prefix, builder);
        }
    }
    let read = match route(&type_meta) {
        Route::Read(read) => read,
        Route::UnsupportedVersion(group, versions) => {
            let expected: Vec<String> = versions
                .iter()
                .map(|version| format!("{group}/{version}"))
                .collect();
            let message = format!(
                "expected {} for {}, found {}",
                expected.join(" or "),
                type_meta.kind,
                type_meta.api_version
            );
            return builder.error(invalid("apiVersion", message));
        }
        Route::Unknown if has_placement_annotation(content) => annotated,
        Route::Unknown => {
            let what = format!("{}/{}", type_meta.api_version, type_meta.kind);
            return builder.skip(source.clone(), what);
        }
    };
    let namespace = builder.namespace().to_string();
    let read = Object::new(
        type_meta,
        content,
        source.clone(),
        prefix.to_string(),
        &namespace,
    )
    .and_then(|object| read(&object, builder));
    if let Err(error) = read {
        builder.error(error);
    }
}

fn load_list(items: Content<'_>, source: &Source, prefix: &str, builder: &mut ModelBuilder) {
    match items.shape() {
        Shape::List => {
            for (index, item) in items.elements().unwrap_or_default().into_iter().enumerate() {
                let prefix = format!("{prefix}items[{index}].");
                load_value(item, source, &prefix, builder);
            }
        }
        Shape::Null => {}
        other => builder.error(LoadError::Invalid {
            at: source.clone(),
            object: None,
            path: join(prefix, "items"),
            message: format!("expected a list of objects, found {}", other.describe()),
        }),
    }
}

/// Looked up without decoding `metadata`, so the documents fleetplan skips (a
/// Kustomization without a name, say) are never rejected for their metadata.
fn has_placement_annotation(content: Content<'_>) -> bool {
    content
        .get("metadata")
        .and_then(|metadata| metadata.get("annotations"))
        .is_some_and(|annotations| {
            annotations.get(CLUSTER_SELECTOR_ANNOTATION).is_some()
                || annotations
                    .get(REPLICA_SET_PREFERENCES_ANNOTATION)
                    .is_some()
        })
}
