//! What every Kubernetes object shares: `apiVersion`, `kind` and `metadata`, and the
//! context used to report a problem in one object.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_yaml::Value;

use super::content::Content;
use super::decode::{null_as_default, FieldError};
use super::names::{invalid_value, kind_errors, metadata_label_error, names_of, namespace_errors};
use super::LoadError;
use crate::model::{ObjectRef, Source};

#[derive(Clone, Debug, Deserialize)]
pub(super) struct TypeMeta {
    #[serde(rename = "apiVersion")]
    pub api_version: String,
    pub kind: String,
}

impl TypeMeta {
    /// What kubectl refuses before sending an object: an empty apiVersion or kind, an
    /// apiVersion that is not `version` or `group/version` (apimachinery's
    /// `ParseGroupVersion`). The field and its message.
    pub(super) fn invalid(&self) -> Option<(&'static str, String)> {
        if self.api_version.is_empty() {
            return Some((
                "apiVersion",
                "must not be empty (kubectl: Object 'apiVersion' is missing)".to_string(),
            ));
        }
        // `version`, or `group/version` with a version (no second slash).
        let malformed = match self.api_version.split_once('/') {
            None => None,
            Some((_group, version)) if version.contains('/') => {
                Some("expected group/version or version")
            }
            Some((_group, "")) => Some("its version is empty"),
            Some(_) => None,
        };
        if let Some(why) = malformed {
            return Some((
                "apiVersion",
                format!(
                    "unexpected GroupVersion string: {} ({why})",
                    crate::model::echo(&self.api_version)
                ),
            ));
        }
        if self.kind.is_empty() {
            return Some((
                "kind",
                "must not be empty (kubectl: Object 'Kind' is missing)".to_string(),
            ));
        }
        let errors = kind_errors(&self.kind);
        if !errors.is_empty() {
            return Some(("kind", invalid_value(&self.kind, &errors)));
        }
        None
    }

    /// `apps` of `apps/v1`; "" for the core group.
    pub(super) fn group(&self) -> &str {
        self.api_version
            .rsplit_once('/')
            .map_or("", |(group, _version)| group)
    }
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ObjectMeta {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub namespace: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub labels: BTreeMap<String, String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub annotations: BTreeMap<String, String>,
    #[serde(default)]
    pub deletion_timestamp: Option<Value>,
}

#[derive(Debug, Default, Deserialize)]
struct WithMetadata {
    #[serde(default, deserialize_with = "null_as_default")]
    metadata: ObjectMeta,
}

/// The `metadata` shape the API server decodes for any kind (`ObjectMeta`: a mapping, its
/// name and namespace strings, its labels and annotations maps of strings), checked for the
/// objects fleetplan does not read: they are still Kubernetes objects.
pub(super) fn check_metadata(content: Content<'_>) -> Result<(), FieldError> {
    content
        .decode_fields::<WithMetadata>(&["metadata"])
        .map(|_| ())
}

/// Whether a kind lives in a namespace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    Namespaced,
    Cluster,
}

/// Kinds of the built-in API groups that are cluster-scoped. The kinds fleetplan reads say
/// their scope in `load/kinds` (an API's federated forms of these among them); every other
/// kind is taken as namespaced, as kubectl does for a kind it knows nothing about when a
/// namespace is given.
const CLUSTER_SCOPED: &[(&str, &str)] = &[
    ("", "Namespace"),
    ("", "Node"),
    ("", "PersistentVolume"),
    ("rbac.authorization.k8s.io", "ClusterRole"),
    ("rbac.authorization.k8s.io", "ClusterRoleBinding"),
    ("apiextensions.k8s.io", "CustomResourceDefinition"),
    ("storage.k8s.io", "StorageClass"),
    ("storage.k8s.io", "CSIDriver"),
    ("storage.k8s.io", "CSINode"),
    ("storage.k8s.io", "VolumeAttachment"),
    ("scheduling.k8s.io", "PriorityClass"),
    ("networking.k8s.io", "IngressClass"),
    ("node.k8s.io", "RuntimeClass"),
    (
        "admissionregistration.k8s.io",
        "MutatingWebhookConfiguration",
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingWebhookConfiguration",
    ),
    ("apiregistration.k8s.io", "APIService"),
    ("policy", "PodSecurityPolicy"),
];

pub(super) fn scope_of(group: &str, kind: &str) -> Scope {
    if CLUSTER_SCOPED.contains(&(group, kind)) {
        Scope::Cluster
    } else {
        super::kinds::scope(group, kind).unwrap_or(Scope::Namespaced)
    }
}

/// One object being read: its identity (once known) and where it is, so every error can
/// say `file#document: Kind/namespace/name: path: message`.
pub(crate) struct Object<'a> {
    pub meta: ObjectMeta,
    pub content: Content<'a>,
    pub source: Source,
    /// `items[3].` for an item of a List; prefixes every field path.
    pub path_prefix: String,
    pub object: ObjectRef,
    /// A namespaced object written without `metadata.namespace` (it is in the default one).
    pub namespace_omitted: bool,
}

impl<'a> Object<'a> {
    /// Reads `metadata` and fixes the object's identity (a namespaced object without a
    /// namespace lands in `default_namespace`, as `kubectl apply -n` would put it).
    pub(super) fn new(
        type_meta: TypeMeta,
        content: Content<'a>,
        source: Source,
        path_prefix: String,
        default_namespace: &str,
    ) -> Result<Object<'a>, LoadError> {
        let invalid = |error: FieldError| LoadError::Invalid {
            at: source.clone(),
            object: None,
            path: join(&path_prefix, &error.path),
            message: error.message,
        };
        let meta = content
            .decode_fields::<WithMetadata>(&["metadata"])
            .map_err(invalid)?
            .metadata;
        let name = match meta.name.as_deref() {
            Some(name) if !name.is_empty() => name.to_string(),
            _ => {
                return Err(invalid(FieldError::new(
                    "metadata.name",
                    format!("expected the name of the {}, found none", type_meta.kind),
                )))
            }
        };
        let errors = names_of(type_meta.group(), &type_meta.kind).errors(&name);
        if !errors.is_empty() {
            return Err(invalid(FieldError::new(
                "metadata.name",
                invalid_value(&name, &errors),
            )));
        }
        // The namespace of a cluster-scoped object is dropped unread, as the API server does;
        // `default_namespace` was checked where it was given (`-n`).
        let mut namespace_omitted = false;
        let namespace = match scope_of(type_meta.group(), &type_meta.kind) {
            Scope::Cluster => None,
            Scope::Namespaced => Some(match meta.namespace.as_deref() {
                Some(namespace) if !namespace.is_empty() => {
                    let errors = namespace_errors(namespace);
                    if !errors.is_empty() {
                        return Err(invalid(FieldError::new(
                            "metadata.namespace",
                            invalid_value(namespace, &errors),
                        )));
                    }
                    namespace.to_string()
                }
                _ => {
                    namespace_omitted = true;
                    default_namespace.to_string()
                }
            }),
        };
        let object = ObjectRef {
            api_version: type_meta.api_version,
            kind: type_meta.kind,
            namespace,
            name,
        };
        Ok(Object {
            meta,
            content,
            source,
            path_prefix,
            object,
            namespace_omitted,
        })
    }

    pub(crate) fn name(&self) -> &str {
        &self.object.name
    }

    /// Decodes the whole object as `T`, naming the object and field on failure.
    pub(crate) fn decode<T: serde::de::DeserializeOwned>(&self) -> Result<T, LoadError> {
        self.content.decode().map_err(|error| self.invalid(error))
    }

    /// The API server's ObjectMeta validation of the labels (`ValidateLabels`), for the
    /// cluster objects selectors read: a label it refuses never reaches the hub, so a cluster
    /// carrying one is refused, not matched.
    pub(crate) fn admitted_labels(&self) -> Result<(), LoadError> {
        metadata_label_error(&self.meta.labels).map_or(Ok(()), |error| Err(self.invalid(error)))
    }

    pub(crate) fn invalid(&self, error: FieldError) -> LoadError {
        LoadError::Invalid {
            at: self.source.clone(),
            object: Some(self.object.to_string()),
            path: join(&self.path_prefix, &error.path),
            message: error.message,
        }
    }
}

/// `items[3].` + `spec.replicas`; the prefix alone (without its dot) for the whole item.
pub(super) fn join(prefix: &str, path: &str) -> String {
    if path.is_empty() {
        prefix.trim_end_matches('.').to_string()
    } else {
        format!("{prefix}{path}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the loader takes for an apiVersion: `version`, or `group/version` with a version
    /// after the slash and no second slash (apimachinery's `ParseGroupVersion` refuses a
    /// second slash; an empty version is the loader's own refusal, as no kind is served at
    /// one).
    #[test]
    fn an_api_version_is_a_version_or_a_group_and_version() {
        let invalid = |api_version: &str| {
            TypeMeta {
                api_version: api_version.to_string(),
                kind: "Policy".to_string(),
            }
            .invalid()
        };
        for valid in ["v1", "apps/v1", "/v1", "a.b.c/v1beta1"] {
            assert_eq!(invalid(valid), None, "{valid}");
        }
        for (api_version, why) in [
            ("apps/", "its version is empty"),
            ("/", "its version is empty"),
            ("a/b/c", "expected group/version or version"),
            ("a//", "expected group/version or version"),
            ("apps/v1/", "expected group/version or version"),
        ] {
            assert_eq!(
                invalid(api_version),
                Some((
                    "apiVersion",
                    format!("unexpected GroupVersion string: {api_version} ({why})")
                )),
                "{api_version}"
            );
        }
    }

    fn object(text: &str) -> Result<ObjectRef, LoadError> {
        let value: Value = serde_yaml::from_str(text).unwrap_or_default();
        let content = Content::Tree(&value);
        let type_meta: TypeMeta = content
            .decode()
            .map_err(|e| LoadError::input("t", e.message))?;
        Object::new(
            type_meta,
            content,
            Source::default(),
            String::new(),
            "default",
        )
        .map(|o| o.object)
    }

    #[test]
    fn namespaced_objects_default_to_the_default_namespace() {
        let object = object("{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}");
        assert_eq!(
            object.ok().and_then(|o| o.namespace).as_deref(),
            Some("default")
        );
    }

    #[test]
    fn cluster_scoped_objects_have_no_namespace() {
        let object = object(
            "{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, metadata: {name: r, namespace: x}}",
        );
        assert_eq!(object.ok().map(|o| o.namespace), Some(None));
    }

    #[test]
    fn missing_name_is_an_error_at_metadata_name() {
        let error = object("{apiVersion: v1, kind: ConfigMap, metadata: {}}")
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("#0: metadata.name: expected the name of the ConfigMap, found none")
        );
    }

    #[test]
    fn namespaces_are_dns_labels() {
        let error = object(
            "{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: a/../../esc}}",
        )
        .err()
        .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("#0: metadata.namespace: Invalid value: \"a/../../esc\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")
        );
    }

    #[test]
    fn names_follow_their_kind() {
        let name = |text: &str| object(text).err().map(|e| e.to_string());
        assert!(name("{apiVersion: v1, kind: ConfigMap, metadata: {name: a.b}}").is_none());
        assert!(
            name("{apiVersion: v1, kind: ConfigMap, metadata: {name: ../x}}")
                .is_some_and(|e| e.contains(
                    "metadata.name: Invalid value: \"../x\": a lowercase RFC 1123 subdomain"
                ))
        );
        assert!(
            name("{apiVersion: v1, kind: Service, metadata: {name: 1web}}")
                .is_some_and(|e| e.contains("a DNS-1035 label"))
        );
        assert!(name("{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, metadata: {name: 'system:x'}}").is_none());
        assert!(name("{apiVersion: cluster.open-cluster-management.io/v1, kind: ManagedCluster, metadata: {name: a.b}}")
            .is_some_and(|e| e.contains("must not contain dots")));
    }

    #[test]
    fn a_namespace_on_a_cluster_scoped_object_is_not_read() {
        let object = object(
            "{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, metadata: {name: r, namespace: a/b}}",
        );
        assert_eq!(object.ok().map(|o| o.namespace), Some(None));
    }

    #[test]
    fn kinds_are_dns1035_labels_in_lower_case() {
        let kind = |kind: &str| {
            TypeMeta {
                api_version: "v1".to_string(),
                kind: kind.to_string(),
            }
            .invalid()
        };
        assert!(kind("ConfigMap").is_none());
        assert!(kind("Federated2Deployment").is_none());
        let (field, message) = kind("../Esc").unwrap_or_default();
        assert_eq!(field, "kind");
        assert!(
            message.starts_with("Invalid value: \"../Esc\": expected a kind"),
            "{message}"
        );
    }

    #[test]
    fn list_item_paths_are_prefixed() {
        assert_eq!(join("items[2].", "spec.replicas"), "items[2].spec.replicas");
        assert_eq!(join("items[2].", ""), "items[2]");
        assert_eq!(join("", "spec"), "spec");
    }
}
