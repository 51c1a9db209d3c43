//! Which plain type each `Federated<Kind>` federates: kubefed's FederatedTypeConfigs, as the
//! template types a migration reads (`registry::template_types`).
//!
//! - The defaults are the FederatedTypeConfigs kubefed's Helm chart installs
//!   (`charts/kubefed/templates/federatedtypeconfig.yaml`, kubernetes-sigs/kubefed
//!   16fb853905f930eff43ef16e24f479f60b6eaa9b): ClusterRole, ConfigMap, Deployment, Ingress
//!   (`extensions/v1beta1`, as the chart has it), Job, Namespace, ReplicaSet, Secret,
//!   ServiceAccount, Service; then the types `kubefedctl enable` is most often asked for, at
//!   the version it would pick on a current cluster (the preferred version discovery names).
//! - A `FederatedTypeConfig` (`core.kubefed.io/v1beta1`) in the inputs maps its
//!   `spec.federatedType.kind` to its `spec.targetType` (group, version, kind, scope), over a
//!   default of the same federated kind, as the kubefed controller reads it.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_yaml::Value;

use crate::migrate::objects::RawObject;
use crate::migrate::template::{TargetType, TemplateTypes, TypeWords};

/// (target kind, target apiVersion, namespaced); the federated kind is `Federated<kind>`.
const DEFAULTS: &[(&str, &str, bool)] = &[
    // kubefed's chart.
    ("ClusterRole", "rbac.authorization.k8s.io/v1", false),
    ("ConfigMap", "v1", true),
    ("Deployment", "apps/v1", true),
    ("Ingress", "extensions/v1beta1", true),
    ("Job", "batch/v1", true),
    ("Namespace", "v1", false),
    ("ReplicaSet", "apps/v1", true),
    ("Secret", "v1", true),
    ("ServiceAccount", "v1", true),
    ("Service", "v1", true),
    // `kubefedctl enable`, at today's preferred versions.
    ("ClusterRoleBinding", "rbac.authorization.k8s.io/v1", false),
    ("CronJob", "batch/v1", true),
    ("DaemonSet", "apps/v1", true),
    ("HorizontalPodAutoscaler", "autoscaling/v2", true),
    ("Role", "rbac.authorization.k8s.io/v1", true),
    ("RoleBinding", "rbac.authorization.k8s.io/v1", true),
    ("StatefulSet", "apps/v1", true),
];

const FEDERATED_TYPE_CONFIG_GROUP: &str = "core.kubefed.io";

/// How the error about a federated kind no type config maps names them.
static WORDS: TypeWords = TypeWords {
    config: "FederatedTypeConfig",
    defaults: "kubefed's defaults",
};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TypeConfigDoc {
    spec: TypeConfigSpec,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TypeConfigSpec {
    target_type: ApiResource,
    federated_type: ApiResource,
}

#[derive(Deserialize)]
struct ApiResource {
    #[serde(default)]
    group: String,
    version: String,
    kind: String,
    #[serde(default)]
    scope: Option<String>,
}

/// Federated kind → its target type: the defaults, then every FederatedTypeConfig of `raws`
/// in input order; one that does not decode is an error (`source: FederatedTypeConfig/name:
/// message`).
pub(crate) fn types(raws: &[RawObject<'_>]) -> (TemplateTypes, Vec<String>) {
    let mut types: BTreeMap<String, TargetType> = DEFAULTS
        .iter()
        .map(|(kind, api_version, namespaced)| {
            (
                format!("Federated{kind}"),
                TargetType {
                    api_version: api_version.to_string(),
                    kind: kind.to_string(),
                    namespaced: *namespaced,
                },
            )
        })
        .collect();
    let mut errors = Vec::new();
    for raw in raws {
        if raw.kind != "FederatedTypeConfig" || raw.group() != FEDERATED_TYPE_CONFIG_GROUP {
            continue;
        }
        match read(raw.value) {
            Ok((federated, target)) => {
                types.insert(federated, target);
            }
            Err(message) => errors.push(format!(
                "{}: FederatedTypeConfig/{}: {message}",
                raw.location.source, raw.name
            )),
        }
    }
    (TemplateTypes::new(types, &WORDS), errors)
}

/// Why a FederatedTypeConfig cannot be read.
#[derive(Debug, PartialEq, thiserror::Error)]
enum TypeConfigError {
    #[error("{0}")]
    Decode(String),
    #[error("spec.targetType.scope: expected Namespaced or Cluster, found {}", .0.as_deref().map_or("nothing".to_string(), |scope| format!("{scope:?}")))]
    Scope(Option<String>),
}

fn read(value: &Value) -> Result<(String, TargetType), TypeConfigError> {
    let doc: TypeConfigDoc = serde_yaml::from_value(value.clone())
        .map_err(|error| TypeConfigError::Decode(error.to_string()))?;
    let target = doc.spec.target_type;
    let namespaced = match target.scope.as_deref() {
        Some("Namespaced") => true,
        Some("Cluster") => false,
        other => return Err(TypeConfigError::Scope(other.map(String::from))),
    };
    let api_version = if target.group.is_empty() {
        target.version
    } else {
        format!("{}/{}", target.group, target.version)
    };
    Ok((
        doc.spec.federated_type.kind,
        TargetType {
            api_version,
            kind: target.kind,
            namespaced,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type_config_names_group_version_kind_and_scope() {
        let value: Value = serde_yaml::from_str(
            "spec: {federatedType: {group: types.kubefed.io, version: v1beta1, kind: FederatedWidget, scope: Namespaced}, targetType: {group: example.com, version: v2, kind: Widget, scope: Cluster}}",
        )
        .unwrap_or_default();
        assert_eq!(
            read(&value),
            Ok((
                "FederatedWidget".to_string(),
                TargetType {
                    api_version: "example.com/v2".to_string(),
                    kind: "Widget".to_string(),
                    namespaced: false,
                }
            ))
        );
    }

    #[test]
    fn a_type_config_without_scope_is_an_error() {
        let value: Value = serde_yaml::from_str(
            "spec: {federatedType: {version: v1beta1, kind: FederatedWidget}, targetType: {version: v1, kind: Widget}}",
        )
        .unwrap_or_default();
        assert_eq!(
            read(&value).err().map(|error| error.to_string()).as_deref(),
            Some("spec.targetType.scope: expected Namespaced or Cluster, found nothing")
        );
    }

    #[test]
    fn the_defaults_hold_every_type_kubefed_enables() {
        let (types, errors) = types(&[]);
        assert!(errors.is_empty());
        for kind in [
            "FederatedClusterRole",
            "FederatedConfigMap",
            "FederatedDeployment",
            "FederatedIngress",
            "FederatedJob",
            "FederatedNamespace",
            "FederatedReplicaSet",
            "FederatedSecret",
            "FederatedServiceAccount",
            "FederatedService",
        ] {
            assert!(types.get(kind).is_some(), "{kind}");
        }
        assert_eq!(
            types.get("FederatedNamespace").map(|t| t.namespaced),
            Some(false)
        );
    }

    fn federated(kind: &str) -> crate::model::ObjectRef {
        crate::model::ObjectRef {
            api_version: "types.kubefed.io/v1beta1".into(),
            kind: kind.into(),
            namespace: Some("shop".into()),
            name: "web".into(),
        }
    }

    #[test]
    fn an_unknown_federated_kind_is_an_error_naming_it() {
        let error = types(&[])
            .0
            .target(&federated("FederatedWidget"))
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default();
        assert!(
            error.starts_with("kind FederatedWidget: no FederatedTypeConfig says which type it federates (kubefed's defaults and the inputs' FederatedTypeConfigs know FederatedClusterRole, "),
            "{error}"
        );
        assert!(
            error.ends_with("; add its FederatedTypeConfig with -f"),
            "{error}"
        );
    }

    #[test]
    fn a_cluster_scoped_target_has_no_namespace() {
        let (types, _) = types(&[]);
        let mut role = federated("FederatedClusterRole");
        role.namespace = None;
        let made = types
            .target(&role)
            .ok()
            .map(|t| (t.api_version, t.namespace));
        assert_eq!(
            made,
            Some(("rbac.authorization.k8s.io/v1".to_string(), None))
        );
        let made = types.target(&federated("FederatedNamespace")).ok();
        assert_eq!(
            made.map(|t| (t.kind, t.namespace)),
            Some(("Namespace".to_string(), None))
        );
    }
}
