//! A kubefed `Federated<Kind>` → the plain `<Kind>` it federates (the resource template
//! Karmada propagates) and, for its `spec.overrides`, an OverridePolicy.
//!
//! - The template is `spec.template` with the target type's apiVersion and kind, and the
//!   federated object's name and namespace: what kubefed's sync controller writes to each
//!   cluster before overrides.
//! - The target type is the one `kubefedctl enable` gives each kind (its
//!   FederatedTypeConfig); a kind outside that list cannot be migrated without knowing its
//!   group, and is an error naming it.
//! - `spec.overrides[].clusterOverrides[]` (`op` add/remove/replace, default replace) become
//!   `plaintext` overriders (the same JSON-patch operations) of one rule per cluster, in
//!   input order. With a ReplicaSchedulingPreference, kubefed's controller wrote
//!   `/spec/replicas` per cluster over any such override, so those are left out: the divided
//!   replicas take their place.

use serde::Deserialize;
use serde_yaml::{Mapping, Value};

use crate::model::ObjectRef;

use super::super::object_error::ObjectError;
use super::super::report::FieldReport;
use super::policy::{ClusterAffinity, OverrideRule, Overriders, Plaintext};

/// `Federated<Kind>` → the target's apiVersion, for the kinds kubefed federates by default
/// and the workload kinds commonly enabled next to them (namespaced ones only: a
/// cluster-scoped target needs a ClusterPropagationPolicy and a federated object kubefed
/// keeps in a namespace).
const TARGETS: &[(&str, &str)] = &[
    ("ConfigMap", "v1"),
    ("CronJob", "batch/v1"),
    ("DaemonSet", "apps/v1"),
    ("Deployment", "apps/v1"),
    ("HorizontalPodAutoscaler", "autoscaling/v2"),
    ("Ingress", "networking.k8s.io/v1"),
    ("Job", "batch/v1"),
    ("ReplicaSet", "apps/v1"),
    ("Secret", "v1"),
    ("Service", "v1"),
    ("ServiceAccount", "v1"),
    ("StatefulSet", "apps/v1"),
];

/// The plain object a federated one federates.
pub fn target(federated: &ObjectRef) -> Result<ObjectRef, ObjectError> {
    let kind = federated.kind.strip_prefix("Federated").unwrap_or("");
    let api_version = TARGETS
        .iter()
        .find(|(known, _)| *known == kind)
        .map(|(_, api_version)| *api_version)
        .ok_or_else(|| ObjectError::UnknownFederatedKind {
            kind: federated.kind.clone(),
            known: TARGETS
                .iter()
                .map(|(kind, _)| format!("Federated{kind}"))
                .collect(),
        })?;
    Ok(ObjectRef {
        api_version: api_version.to_string(),
        kind: kind.to_string(),
        namespace: federated.namespace.clone(),
        name: federated.name.clone(),
    })
}

/// `spec.template` as the `target` object; `namespace` is the federated object's as written.
pub fn template(
    raw: &Value,
    target: &ObjectRef,
    namespace: Option<&str>,
) -> Result<Value, ObjectError> {
    let template = match raw.get("spec").and_then(|spec| spec.get("template")) {
        None | Some(Value::Null) => Mapping::new(),
        Some(Value::Mapping(template)) => template.clone(),
        Some(_) => {
            return Err(ObjectError::NotAMapping {
                field: "spec.template",
            })
        }
    };
    let written = match template.get("metadata") {
        None | Some(Value::Null) => Mapping::new(),
        Some(Value::Mapping(metadata)) => metadata.clone(),
        Some(_) => {
            return Err(ObjectError::NotAMapping {
                field: "spec.template.metadata",
            })
        }
    };
    let mut metadata = Mapping::new();
    metadata.insert("name".into(), target.name.clone().into());
    if let Some(namespace) = namespace {
        metadata.insert("namespace".into(), namespace.into());
    }
    for (key, value) in written {
        if !matches!(key.as_str(), Some("name" | "namespace")) {
            metadata.insert(key, value);
        }
    }
    let mut object = Mapping::new();
    object.insert("apiVersion".into(), target.api_version.clone().into());
    object.insert("kind".into(), target.kind.clone().into());
    object.insert("metadata".into(), Value::Mapping(metadata));
    for (key, value) in template {
        if !matches!(key.as_str(), Some("apiVersion" | "kind" | "metadata")) {
            object.insert(key, value);
        }
    }
    Ok(Value::Mapping(object))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OverrideDoc {
    cluster_name: String,
    #[serde(default)]
    cluster_overrides: Vec<ClusterOverrideDoc>,
}

#[derive(Deserialize)]
struct ClusterOverrideDoc {
    #[serde(default)]
    op: Option<String>,
    path: String,
    #[serde(default)]
    value: Option<Value>,
}

/// `spec.overrides` as override rules, and what each became. `replicas_divided`: a
/// ReplicaSchedulingPreference divides the replicas, so `/spec/replicas` is not carried.
pub fn overrides(
    raw: &Value,
    replicas_divided: bool,
) -> Result<(Vec<OverrideRule>, Vec<FieldReport>), ObjectError> {
    let Some(value) = raw.get("spec").and_then(|spec| spec.get("overrides")) else {
        return Ok((Vec::new(), Vec::new()));
    };
    let overrides: Vec<OverrideDoc> = match value {
        Value::Null => Vec::new(),
        value => serde_yaml::from_value(value.clone()).map_err(ObjectError::Overrides)?,
    };
    let mut rules = Vec::new();
    let mut fields = Vec::new();
    for (index, cluster) in overrides.iter().enumerate() {
        let mut plaintext = Vec::new();
        for (inner, change) in cluster.cluster_overrides.iter().enumerate() {
            let field = format!(
                "spec.overrides[{index}] ({}).clusterOverrides[{inner}] {}",
                cluster.cluster_name, change.path
            );
            let operator = change.op.as_deref().unwrap_or("replace");
            if !matches!(operator, "add" | "remove" | "replace") {
                return Err(ObjectError::OverrideOperator {
                    field,
                    op: operator.to_string(),
                });
            }
            if replicas_divided && change.path == "/spec/replicas" {
                fields.push(
                    FieldReport::exact(field, "not carried").because(
                        "kubefed's ReplicaSchedulingPreference controller wrote its own /spec/replicas over it; the PropagationPolicy divides the replicas instead",
                    ),
                );
                continue;
            }
            fields.push(FieldReport::exact(
                field,
                format!(
                    "OverridePolicy overrideRules[{}] plaintext {operator} {}",
                    rules.len(),
                    change.path
                ),
            ));
            plaintext.push(Plaintext {
                path: change.path.clone(),
                operator: operator.to_string(),
                value: change.value.clone(),
            });
        }
        if !plaintext.is_empty() {
            rules.push(OverrideRule {
                target_cluster: ClusterAffinity::named(&cluster.cluster_name),
                overriders: Overriders { plaintext },
            });
        }
    }
    Ok((rules, fields))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn federated(kind: &str) -> ObjectRef {
        ObjectRef {
            api_version: "types.kubefed.io/v1beta1".into(),
            kind: kind.into(),
            namespace: Some("shop".into()),
            name: "web".into(),
        }
    }

    fn value(text: &str) -> Value {
        serde_yaml::from_str(text).unwrap_or_default()
    }

    #[test]
    fn the_template_becomes_the_plain_object() {
        let target = target(&federated("FederatedDeployment")).ok();
        let target = target.unwrap_or_else(|| federated("missing"));
        let raw = value("spec: {template: {metadata: {labels: {app: web}}, spec: {replicas: 3}}, placement: {clusters: []}}");
        let made = template(&raw, &target, Some("shop")).unwrap_or_default();
        assert_eq!(
            serde_yaml::to_string(&made).unwrap_or_default(),
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n  labels:\n    app: web\nspec:\n  replicas: 3\n"
        );
    }

    #[test]
    fn an_unknown_federated_kind_is_an_error_naming_it() {
        let error = target(&federated("FederatedWidget"))
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default();
        assert!(error.starts_with("kind FederatedWidget: "), "{error}");
    }

    #[test]
    fn overrides_become_one_rule_per_cluster_and_replicas_yield_to_the_division() {
        let raw = value(
            "spec: {overrides: [{clusterName: a, clusterOverrides: [{path: /spec/replicas, value: 5}, {op: add, path: /metadata/labels/x, value: y}]}]}",
        );
        let (rules, _) = overrides(&raw, false).unwrap_or_default();
        assert_eq!(rules.len(), 1);
        assert_eq!(rules[0].overriders.plaintext.len(), 2);
        assert_eq!(rules[0].overriders.plaintext[0].operator, "replace");
        let (rules, _) = overrides(&raw, true).unwrap_or_default();
        assert_eq!(rules[0].overriders.plaintext.len(), 1);
        assert_eq!(rules[0].overriders.plaintext[0].path, "/metadata/labels/x");
    }

    #[test]
    fn an_unknown_op_is_an_error() {
        let raw = value(
            "spec: {overrides: [{clusterName: a, clusterOverrides: [{op: move, path: /x}]}]}",
        );
        let error = overrides(&raw, false)
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default();
        assert!(
            error.ends_with("op \"move\": expected add, remove or replace"),
            "{error}"
        );
    }
}
