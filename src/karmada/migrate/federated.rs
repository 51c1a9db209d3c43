//! A kubefed `Federated<Kind>` → the plain `<Kind>` it federates (the resource template
//! Karmada propagates) and, for its `spec.overrides`, an OverridePolicy.
//!
//! - The template is `spec.template` with the target type's apiVersion and kind, and the
//!   federated object's name and namespace: what kubefed's sync controller writes to each
//!   cluster before overrides.
//! - The target type is the one its FederatedTypeConfig names (`type_configs`): kubefed's
//!   defaults, or one in the inputs; a kind neither names is an error naming it. A
//!   cluster-scoped target is written without a namespace.
//! - `spec.overrides[].clusterOverrides[]` (`op` add/remove/replace, default replace) become
//!   `plaintext` overriders (the same JSON-patch operations) of one rule per cluster, in
//!   input order. With a replica division (a ReplicaSchedulingPreference), its controller
//!   wrote `/spec/replicas` per cluster over any such override, so those are left out: the
//!   divided replicas take their place.

use serde::Deserialize;
use serde_yaml::{Mapping, Value};

use crate::model::ObjectRef;

use super::policy::{ClusterAffinity, OverrideRule, Overriders, Plaintext};
use super::type_configs::TypeConfigs;
use crate::migrate::division::ReplicaDivision;
use crate::migrate::hub_version::KarmadaVersion;
use crate::migrate::object_error::ObjectError;
use crate::migrate::report::FieldReport;

/// The plain object a federated one federates, without a namespace when its type is
/// cluster-scoped.
pub(super) fn target(federated: &ObjectRef, types: &TypeConfigs) -> Result<ObjectRef, ObjectError> {
    let target = types
        .get(&federated.kind)
        .ok_or_else(|| ObjectError::UnknownFederatedKind {
            kind: federated.kind.clone(),
            known: types.known(),
        })?;
    Ok(ObjectRef {
        api_version: target.api_version.clone(),
        kind: target.kind.clone(),
        namespace: if target.namespaced {
            federated.namespace.clone()
        } else {
            None
        },
        name: federated.name.clone(),
    })
}

/// `spec.template` as the `target` object; `namespace` is the federated object's as written.
pub(super) fn template(
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

/// Karmada's namespace sync controller creates every namespace of the control plane on every
/// member cluster, unless it carries this label (`pkg/apis/policy/v1alpha1`
/// `NamespaceSkipAutoPropagationLabel`, karmada-io/karmada f8fdd02df376).
pub(super) const SKIP_AUTO_PROPAGATION: &str = "namespace.karmada.io/skip-auto-propagation";

/// A FederatedNamespace's Namespace: labelled so that Karmada leaves it to its
/// ClusterPropagationPolicy instead of creating it on every cluster, where the control plane
/// serves the label; before, the namespace goes to every cluster.
pub(super) fn skip_auto_propagation(template: &mut Value, version: &KarmadaVersion) -> FieldReport {
    let field = "(the namespace on the placed clusters only)";
    if !version.skip_auto_propagation {
        return FieldReport::approximate(
            field,
            "the ClusterPropagationPolicy, on every cluster",
            format!("{version}'s namespace sync controller creates every namespace on every member cluster; the {SKIP_AUTO_PROPAGATION} label that leaves it to the policy is served from v1.4 (karmada-io/karmada ecfec33ec)"),
        );
    }
    if let Some(Value::Mapping(metadata)) = template.get_mut("metadata") {
        let labels = metadata
            .entry("labels".into())
            .or_insert_with(|| Value::Mapping(Mapping::new()));
        if let Value::Mapping(labels) = labels {
            labels.insert(SKIP_AUTO_PROPAGATION.into(), "true".into());
        }
    }
    FieldReport::exact(
        field,
        format!("metadata.labels[{SKIP_AUTO_PROPAGATION}] \"true\""),
    )
    .because("Karmada's namespace sync controller creates every namespace on every member cluster unless it carries this label; with it, the ClusterPropagationPolicy places the namespace where kubefed did")
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

/// `spec.overrides` as override rules, and what each became. `division`: what divides the
/// replicas, so `/spec/replicas` is not carried.
pub(super) fn overrides(
    raw: &Value,
    division: Option<&ReplicaDivision<'_>>,
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
            if let Some(division) = division.filter(|_| change.path == "/spec/replicas") {
                fields.push(FieldReport::exact(field, "not carried").because(format!(
                    "{}; the PropagationPolicy divides the replicas instead",
                    division.words.overrode_replicas
                )));
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

    fn types() -> TypeConfigs {
        TypeConfigs::new(&[]).0
    }

    #[test]
    fn the_template_becomes_the_plain_object() {
        let target = target(&federated("FederatedDeployment"), &types()).ok();
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
        let error = target(&federated("FederatedWidget"), &types())
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default();
        assert!(error.starts_with("kind FederatedWidget: "), "{error}");
    }

    #[test]
    fn a_cluster_scoped_target_has_no_namespace() {
        let mut role = federated("FederatedClusterRole");
        role.namespace = None;
        let made = target(&role, &types())
            .ok()
            .map(|t| (t.api_version, t.namespace));
        assert_eq!(
            made,
            Some(("rbac.authorization.k8s.io/v1".to_string(), None))
        );
        let made = target(&federated("FederatedNamespace"), &types()).ok();
        assert_eq!(
            made.map(|t| (t.kind, t.namespace)),
            Some(("Namespace".to_string(), None))
        );
    }

    #[test]
    fn overrides_become_one_rule_per_cluster_and_replicas_yield_to_the_division() {
        let raw = value(
            "spec: {overrides: [{clusterName: a, clusterOverrides: [{path: /spec/replicas, value: 5}, {op: add, path: /metadata/labels/x, value: y}]}]}",
        );
        let (rules, _) = overrides(&raw, None).unwrap_or_default();
        assert_eq!(rules.len(), 1);
        assert_eq!(rules[0].overriders.plaintext.len(), 2);
        assert_eq!(rules[0].overriders.plaintext[0].operator, "replace");
        let preferences = Default::default();
        let division = ReplicaDivision {
            target_kind: "FederatedDeployment",
            total_replicas: 3,
            preferences: &preferences,
            within_placement: false,
            acted: true,
            words: &crate::registry::DIVISION_WORDS,
        };
        let (rules, fields) = overrides(&raw, Some(&division)).unwrap_or_default();
        assert!(
            fields[0]
                .reason
                .as_deref()
                .is_some_and(|reason| reason.ends_with(
                    "/spec/replicas over it; the PropagationPolicy divides the replicas instead"
                )),
            "{fields:?}"
        );
        assert_eq!(rules[0].overriders.plaintext.len(), 1);
        assert_eq!(rules[0].overriders.plaintext[0].path, "/metadata/labels/x");
    }

    #[test]
    fn an_unknown_op_is_an_error() {
        let raw = value(
            "spec: {overrides: [{clusterName: a, clusterOverrides: [{op: move, path: /x}]}]}",
        );
        let error = overrides(&raw, None)
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default();
        assert!(
            error.ends_with("op \"move\": expected add, remove or replace"),
            "{error}"
        );
    }
}
