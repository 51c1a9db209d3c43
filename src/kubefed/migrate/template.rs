//! A kubefed `Federated<Kind>` as the template object a migration reads
//! (`registry::template_object`): its `spec.placement`, whether it is a FederatedNamespace,
//! and how its `spec.template` and `spec.overrides` are read.
//!
//! - The template is `spec.template` with the target type's apiVersion and kind, and the
//!   federated object's name and namespace: what kubefed's sync controller writes to each
//!   cluster before overrides.
//! - `spec.overrides[].clusterOverrides[]` (`op` add/remove/replace, default replace) are the
//!   JSON-patch operations kubefed applies on each named cluster, in input order.

use serde::Deserialize;
use serde_yaml::{Mapping, Value};

use crate::kubefed::model::FederatedPlacement;
use crate::migrate::object_error::ObjectError;
use crate::migrate::template::{
    OverrideChange, OverridesOnCluster, TemplateApi, TemplateClusters, TemplateObject,
    TemplateWords,
};
use crate::model::{ObjectRef, Workload};

/// How kubefed's federated objects are read and named.
static API: TemplateApi = TemplateApi {
    template,
    overrides,
    words: TemplateWords {
        template: "spec.template",
        placement: "spec.placement",
        namespace_kind: "FederatedNamespace",
        scoped_by_namespace:
            "kubefed placed a namespaced object only on clusters its FederatedNamespace selects too",
    },
};

/// A federated object as the template object a migration reads.
pub(crate) fn template_object<'m>(
    workload: &Workload,
    placement: &'m FederatedPlacement,
) -> TemplateObject<'m> {
    TemplateObject {
        placement: match placement {
            FederatedPlacement::Clusters(names) => TemplateClusters::Named(names),
            FederatedPlacement::Selector(selector) => TemplateClusters::Selected(selector.as_ref()),
        },
        scopes_namespace: workload.object.kind == "FederatedNamespace",
        api: &API,
    }
}

/// `spec.template` as the `target` object; `namespace` is the federated object's as written.
fn template(
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

/// `spec.overrides`, each change named by its path in the document; an `op` other than
/// add, remove or replace is an error.
fn overrides(raw: &Value) -> Result<Vec<OverridesOnCluster>, ObjectError> {
    let Some(value) = raw.get("spec").and_then(|spec| spec.get("overrides")) else {
        return Ok(Vec::new());
    };
    let overrides: Vec<OverrideDoc> = match value {
        Value::Null => Vec::new(),
        value => serde_yaml::from_value(value.clone()).map_err(ObjectError::Overrides)?,
    };
    let mut clusters = Vec::new();
    for (index, cluster) in overrides.into_iter().enumerate() {
        let mut changes = Vec::new();
        for (inner, change) in cluster.cluster_overrides.into_iter().enumerate() {
            let field = format!(
                "spec.overrides[{index}] ({}).clusterOverrides[{inner}] {}",
                cluster.cluster_name, change.path
            );
            let operator = change.op.unwrap_or_else(|| "replace".to_string());
            if !matches!(operator.as_str(), "add" | "remove" | "replace") {
                return Err(ObjectError::OverrideOperator {
                    field,
                    op: operator,
                });
            }
            changes.push(OverrideChange {
                field,
                operator,
                path: change.path,
                value: change.value,
            });
        }
        clusters.push(OverridesOnCluster {
            cluster: cluster.cluster_name,
            changes,
        });
    }
    Ok(clusters)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> Value {
        serde_yaml::from_str(text).unwrap_or_default()
    }

    #[test]
    fn the_template_becomes_the_plain_object() {
        let target = ObjectRef {
            api_version: "apps/v1".into(),
            kind: "Deployment".into(),
            namespace: Some("shop".into()),
            name: "web".into(),
        };
        let raw = value("spec: {template: {metadata: {labels: {app: web}}, spec: {replicas: 3}}, placement: {clusters: []}}");
        let made = template(&raw, &target, Some("shop")).unwrap_or_default();
        assert_eq!(
            serde_yaml::to_string(&made).unwrap_or_default(),
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n  labels:\n    app: web\nspec:\n  replicas: 3\n"
        );
    }

    #[test]
    fn overrides_are_read_per_cluster_in_input_order_with_replace_the_default() {
        let raw = value(
            "spec: {overrides: [{clusterName: a, clusterOverrides: [{path: /spec/replicas, value: 5}, {op: add, path: /metadata/labels/x, value: y}]}]}",
        );
        let clusters = overrides(&raw).unwrap_or_default();
        assert_eq!(clusters.len(), 1);
        let changes = &clusters[0].changes;
        assert_eq!(
            changes
                .iter()
                .map(|change| (change.operator.as_str(), change.field.as_str()))
                .collect::<Vec<_>>(),
            [
                (
                    "replace",
                    "spec.overrides[0] (a).clusterOverrides[0] /spec/replicas"
                ),
                (
                    "add",
                    "spec.overrides[0] (a).clusterOverrides[1] /metadata/labels/x"
                )
            ]
        );
    }

    #[test]
    fn an_unknown_op_is_an_error() {
        let raw = value(
            "spec: {overrides: [{clusterName: a, clusterOverrides: [{op: move, path: /x}]}]}",
        );
        let error = overrides(&raw)
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default();
        assert!(
            error.ends_with("op \"move\": expected add, remove or replace"),
            "{error}"
        );
    }
}
