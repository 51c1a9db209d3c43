//! Objects of an apiVersion current Kubernetes no longer serves, converted to the version
//! that replaced it, the way `kubectl convert` does: the old version's defaulting applied
//! first where the new version would default differently (or not at all), then the upstream
//! conversion functions.
//!
//! Followed (kubernetes/kubernetes, release-1.21, the last to serve most of these):
//! - `pkg/apis/networking/v1beta1/conversion.go` and `pkg/apis/extensions/v1beta1/conversion.go`
//!   (`Convert_v1beta1_IngressBackend_To_networking_IngressBackend`): `serviceName` and
//!   `servicePort` become `service.name` and `service.port.number` (an integer) or
//!   `service.port.name` (a string); `spec.backend` becomes `spec.defaultBackend`;
//!   `pkg/apis/networking/v1beta1/defaults.go` gives a path without `pathType`
//!   `ImplementationSpecific`.
//! - `pkg/apis/extensions/v1beta1/defaults.go`, `pkg/apis/apps/v1beta1/defaults.go`: a workload
//!   without `spec.selector` selects its template's labels (`apps/v1` requires the selector);
//!   what these versions defaulted differently from `apps/v1` (rolling-update surge and
//!   unavailability, revision history, progress deadline, DaemonSet and StatefulSet update
//!   strategies) is written out so the object behaves as before.
//! - `policy/v1beta1` PodDisruptionBudget: an empty selector selected no pod, in `policy/v1`
//!   every pod of the namespace (the API removal guide), so it is reported.
//! - The versions whose schema is the same as their replacement's (`batch/v1beta1` CronJob,
//!   `rbac.authorization.k8s.io/v1beta1`, `scheduling.k8s.io/v1beta1`, ...) change only
//!   their apiVersion.
//!
//! The list of removed versions is the deprecated API migration guide's
//! (kubernetes.io/docs/reference/using-api/deprecation-guide/).

use serde_yaml::{Mapping, Value};

use crate::model::ObjectRef;

use super::report::FieldReport;

/// How one removed apiVersion is written in a served one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Conversion {
    /// Same schema: only the apiVersion changes.
    Rename,
    Ingress,
    /// extensions/v1beta1 (`true`: DaemonSet and Deployment defaults of that group) or
    /// apps/v1beta1 and apps/v1beta2 workloads.
    Workload,
    PodDisruptionBudget,
    /// No served version holds it (PodSecurityPolicy), or the new schema differs too much
    /// to convert a manifest blindly (CustomResourceDefinition, webhooks, CSRs, events,
    /// autoscaling/v2beta1 metrics).
    None,
}

/// (group/version, kinds (empty: every kind), the release that stopped serving it, what
/// replaces it, how to convert).
const REMOVED: &[(&str, &[&str], &str, &str, Conversion)] = &[
    (
        "extensions/v1beta1",
        &["Deployment", "DaemonSet", "ReplicaSet"],
        "1.16",
        "apps/v1",
        Conversion::Workload,
    ),
    (
        "extensions/v1beta1",
        &["NetworkPolicy"],
        "1.16",
        "networking.k8s.io/v1",
        Conversion::Rename,
    ),
    (
        "extensions/v1beta1",
        &["PodSecurityPolicy"],
        "1.16",
        "nothing: PodSecurityPolicy is gone since 1.25",
        Conversion::None,
    ),
    (
        "extensions/v1beta1",
        &["Ingress"],
        "1.22",
        "networking.k8s.io/v1",
        Conversion::Ingress,
    ),
    (
        "apps/v1beta1",
        &["Deployment", "StatefulSet"],
        "1.16",
        "apps/v1",
        Conversion::Workload,
    ),
    (
        "apps/v1beta2",
        &["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"],
        "1.16",
        "apps/v1",
        Conversion::Workload,
    ),
    ("apps/v1beta1", &[], "1.16", "apps/v1", Conversion::Rename),
    ("apps/v1beta2", &[], "1.16", "apps/v1", Conversion::Rename),
    (
        "networking.k8s.io/v1beta1",
        &["Ingress"],
        "1.22",
        "networking.k8s.io/v1",
        Conversion::Ingress,
    ),
    (
        "networking.k8s.io/v1beta1",
        &[],
        "1.22",
        "networking.k8s.io/v1",
        Conversion::Rename,
    ),
    (
        "rbac.authorization.k8s.io/v1beta1",
        &[],
        "1.22",
        "rbac.authorization.k8s.io/v1",
        Conversion::Rename,
    ),
    (
        "scheduling.k8s.io/v1beta1",
        &[],
        "1.22",
        "scheduling.k8s.io/v1",
        Conversion::Rename,
    ),
    (
        "apiextensions.k8s.io/v1beta1",
        &[],
        "1.22",
        "apiextensions.k8s.io/v1",
        Conversion::None,
    ),
    (
        "admissionregistration.k8s.io/v1beta1",
        &[],
        "1.22",
        "admissionregistration.k8s.io/v1",
        Conversion::None,
    ),
    (
        "apiregistration.k8s.io/v1beta1",
        &[],
        "1.22",
        "apiregistration.k8s.io/v1",
        Conversion::Rename,
    ),
    (
        "certificates.k8s.io/v1beta1",
        &[],
        "1.22",
        "certificates.k8s.io/v1",
        Conversion::None,
    ),
    (
        "coordination.k8s.io/v1beta1",
        &[],
        "1.22",
        "coordination.k8s.io/v1",
        Conversion::Rename,
    ),
    (
        "storage.k8s.io/v1beta1",
        &["CSIDriver", "CSINode", "StorageClass", "VolumeAttachment"],
        "1.22",
        "storage.k8s.io/v1",
        Conversion::Rename,
    ),
    (
        "storage.k8s.io/v1beta1",
        &["CSIStorageCapacity"],
        "1.27",
        "storage.k8s.io/v1",
        Conversion::Rename,
    ),
    (
        "batch/v1beta1",
        &["CronJob"],
        "1.25",
        "batch/v1",
        Conversion::Rename,
    ),
    (
        "discovery.k8s.io/v1beta1",
        &[],
        "1.25",
        "discovery.k8s.io/v1",
        Conversion::None,
    ),
    (
        "events.k8s.io/v1beta1",
        &[],
        "1.25",
        "events.k8s.io/v1",
        Conversion::None,
    ),
    (
        "autoscaling/v2beta1",
        &[],
        "1.25",
        "autoscaling/v2",
        Conversion::None,
    ),
    (
        "autoscaling/v2beta2",
        &[],
        "1.26",
        "autoscaling/v2",
        Conversion::Rename,
    ),
    (
        "policy/v1beta1",
        &["PodSecurityPolicy"],
        "1.25",
        "nothing: PodSecurityPolicy has no successor",
        Conversion::None,
    ),
    (
        "policy/v1beta1",
        &["PodDisruptionBudget"],
        "1.25",
        "policy/v1",
        Conversion::PodDisruptionBudget,
    ),
    (
        "node.k8s.io/v1beta1",
        &[],
        "1.25",
        "node.k8s.io/v1",
        Conversion::Rename,
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1beta1",
        &[],
        "1.26",
        "flowcontrol.apiserver.k8s.io/v1",
        Conversion::None,
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1beta2",
        &[],
        "1.29",
        "flowcontrol.apiserver.k8s.io/v1",
        Conversion::None,
    ),
    (
        "flowcontrol.apiserver.k8s.io/v1beta3",
        &[],
        "1.32",
        "flowcontrol.apiserver.k8s.io/v1",
        Conversion::Rename,
    ),
];

fn removal(
    api_version: &str,
    kind: &str,
) -> Option<&'static (
    &'static str,
    &'static [&'static str],
    &'static str,
    &'static str,
    Conversion,
)> {
    REMOVED.iter().find(|(version, kinds, ..)| {
        *version == api_version && (kinds.is_empty() || kinds.contains(&kind))
    })
}

/// Why `object`'s apiVersion cannot be applied to a current cluster, when it cannot.
pub(super) fn removed_api(object: &ObjectRef) -> Option<String> {
    removal(&object.api_version, &object.kind).map(|(version, _, release, replacement, _)| {
        format!(
            "{version} {} is not served since Kubernetes {release}: every cluster refuses it; write it as {replacement}",
            object.kind
        )
    })
}

/// An object converted to a served apiVersion, with what each change carried.
pub(crate) struct Served {
    pub api_version: String,
    pub value: Value,
    pub fields: Vec<FieldReport>,
}

/// `value` (the object `object`) in a served apiVersion: unchanged when its own is served;
/// converted when a conversion is known (the fields say what changed); else as it was, with
/// the apiVersion reported lost.
pub(crate) fn serve(object: &ObjectRef, value: &Value) -> Served {
    let Some((version, _, release, replacement, conversion)) =
        removal(&object.api_version, &object.kind)
    else {
        return Served {
            api_version: object.api_version.clone(),
            value: value.clone(),
            fields: Vec::new(),
        };
    };
    if *conversion == Conversion::None {
        return Served {
            api_version: object.api_version.clone(),
            value: value.clone(),
            fields: removed_api(object)
                .map(|reason| FieldReport::lost(format!("apiVersion {version}"), reason))
                .into_iter()
                .collect(),
        };
    }
    let mut value = value.clone();
    if let Value::Mapping(root) = &mut value {
        root.insert("apiVersion".into(), (*replacement).into());
    }
    let mut fields = vec![FieldReport::exact(
        format!("apiVersion {version}"),
        format!("apiVersion {replacement}"),
    )
    .because(format!(
        "{version} {} is not served since Kubernetes {release}",
        object.kind
    ))];
    let spec = match value.get_mut("spec") {
        Some(Value::Mapping(spec)) => Some(spec),
        _ => None,
    };
    if let Some(spec) = spec {
        match conversion {
            Conversion::Ingress => ingress(spec, &mut fields),
            Conversion::Workload => workload(version, &object.kind, spec, &mut fields),
            Conversion::PodDisruptionBudget => pod_disruption_budget(spec, &mut fields),
            Conversion::Rename | Conversion::None => {}
        }
    } else if *conversion == Conversion::Workload {
        fields.push(FieldReport::lost(
            "spec.selector",
            "the object has no spec, so no template labels to select: apps/v1 requires spec.selector",
        ));
    }
    Served {
        api_version: replacement.to_string(),
        value,
        fields,
    }
}

/// `serviceName`/`servicePort` → `service.name`/`service.port.{number|name}`.
fn backend(backend: &mut Mapping, field: &str, fields: &mut Vec<FieldReport>) {
    let name = backend.remove("serviceName");
    let port = backend.remove("servicePort");
    if name.is_none() && port.is_none() {
        return;
    }
    let mut service = Mapping::new();
    if let Some(name) = name {
        service.insert("name".into(), name);
    }
    if let Some(port) = port {
        let mut service_port = Mapping::new();
        let key = if port.is_number() { "number" } else { "name" };
        service_port.insert(key.into(), port);
        fields.push(FieldReport::exact(
            format!("{field}.servicePort"),
            format!("{field}.service.port.{key}"),
        ));
        service.insert("port".into(), Value::Mapping(service_port));
    }
    fields.push(FieldReport::exact(
        format!("{field}.serviceName"),
        format!("{field}.service.name"),
    ));
    backend.insert("service".into(), Value::Mapping(service));
}

fn ingress(spec: &mut Mapping, fields: &mut Vec<FieldReport>) {
    if let Some(mut default) = spec.remove("backend") {
        if let Value::Mapping(default) = &mut default {
            backend(default, "spec.defaultBackend", fields);
        }
        fields.push(FieldReport::exact("spec.backend", "spec.defaultBackend"));
        spec.insert("defaultBackend".into(), default);
    }
    let Some(Value::Sequence(rules)) = spec.get_mut("rules") else {
        return;
    };
    for (r, rule) in rules.iter_mut().enumerate() {
        let Some(Value::Sequence(paths)) =
            rule.get_mut("http").and_then(|http| http.get_mut("paths"))
        else {
            continue;
        };
        for (p, path) in paths.iter_mut().enumerate() {
            let Value::Mapping(path) = path else { continue };
            let field = format!("spec.rules[{r}].http.paths[{p}]");
            if let Some(Value::Mapping(target)) = path.get_mut("backend") {
                backend(target, &format!("{field}.backend"), fields);
            }
            if !path.contains_key("pathType") {
                path.insert("pathType".into(), "ImplementationSpecific".into());
                fields.push(
                    FieldReport::exact(
                        format!("{field}.pathType (absent)"),
                        format!("{field}.pathType ImplementationSpecific"),
                    )
                    .because("the v1beta1 default, which networking.k8s.io/v1 requires written"),
                );
            }
        }
    }
}

/// The defaults `version` gave `kind` where `apps/v1` gives another (or none).
fn old_defaults(version: &str, kind: &str) -> Vec<(&'static [&'static str], Value)> {
    let max = Value::from(i64::from(i32::MAX));
    match (version, kind) {
        ("extensions/v1beta1", "Deployment") => vec![
            (&["revisionHistoryLimit"][..], max.clone()),
            (&["progressDeadlineSeconds"][..], max),
        ],
        ("extensions/v1beta1", "DaemonSet") => {
            vec![(&["updateStrategy", "type"][..], Value::from("OnDelete"))]
        }
        ("apps/v1beta1", "Deployment") => vec![(&["revisionHistoryLimit"][..], Value::from(2))],
        ("apps/v1beta1", "StatefulSet") => {
            vec![(&["updateStrategy", "type"][..], Value::from("OnDelete"))]
        }
        _ => Vec::new(),
    }
}

fn workload(version: &str, kind: &str, spec: &mut Mapping, fields: &mut Vec<FieldReport>) {
    // apps/v1beta2 required the selector as apps/v1 does; the older versions defaulted it.
    if !spec.contains_key("selector") && version != "apps/v1beta2" {
        let labels = spec
            .get("template")
            .and_then(|template| template.get("metadata"))
            .and_then(|metadata| metadata.get("labels"))
            .cloned();
        match labels {
            Some(Value::Mapping(labels)) if !labels.is_empty() => {
                let mut selector = Mapping::new();
                selector.insert("matchLabels".into(), Value::Mapping(labels));
                spec.insert("selector".into(), Value::Mapping(selector));
                fields.push(
                    FieldReport::exact(
                        "spec.selector (absent)",
                        "spec.selector.matchLabels (the template's labels)",
                    )
                    .because(format!(
                        "{version} defaulted the selector to the template's labels; apps/v1 requires it written"
                    )),
                );
            }
            _ => fields.push(FieldReport::lost(
                "spec.selector (absent)",
                "the template has no labels to select: apps/v1 requires spec.selector",
            )),
        }
    }
    if version == "extensions/v1beta1" && kind == "Deployment" {
        rolling_update(spec, fields);
    }
    for (path, default) in old_defaults(version, kind) {
        set_absent(spec, path, default, version, fields);
    }
}

/// extensions/v1beta1 Deployments surged and went unavailable by 1 pod; apps/v1 by 25%.
fn rolling_update(spec: &mut Mapping, fields: &mut Vec<FieldReport>) {
    let strategy = spec.get("strategy");
    let rolling = strategy
        .and_then(|strategy| strategy.get("type"))
        .and_then(Value::as_str)
        .is_none_or(|kind| kind == "RollingUpdate")
        || strategy.is_some_and(|strategy| strategy.get("rollingUpdate").is_some());
    if !rolling {
        return;
    }
    for key in ["maxUnavailable", "maxSurge"] {
        set_absent(
            spec,
            &["strategy", "rollingUpdate", key],
            Value::from(1),
            "extensions/v1beta1",
            fields,
        );
    }
}

fn set_absent(
    spec: &mut Mapping,
    path: &[&str],
    value: Value,
    version: &str,
    fields: &mut Vec<FieldReport>,
) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = spec;
    for parent in parents {
        let entry = at
            .entry((*parent).into())
            .or_insert_with(|| Value::Mapping(Mapping::new()));
        let Value::Mapping(inner) = entry else { return };
        at = inner;
    }
    if at.contains_key(*last) {
        return;
    }
    let field = format!("spec.{}", path.join("."));
    // The defaults are integers and plain words (`old_defaults`, `rolling_update`), which
    // serde_yaml always writes; were one refused, the report shows its debug form, never
    // nothing.
    let written = crate::yaml11::to_string(&value)
        .map_or_else(|_| format!("{value:?}"), |text| text.trim_end().to_string());
    fields.push(
        FieldReport::exact(format!("{field} (absent)"), format!("{field} {written}")).because(
            format!("the {version} default, written out: apps/v1 would default it otherwise"),
        ),
    );
    at.insert((*last).into(), value);
}

fn pod_disruption_budget(spec: &mut Mapping, fields: &mut Vec<FieldReport>) {
    let empty = match spec.get("selector") {
        None | Some(Value::Null) => true,
        Some(Value::Mapping(selector)) => selector.values().all(|value| match value {
            Value::Mapping(map) => map.is_empty(),
            Value::Sequence(list) => list.is_empty(),
            Value::Null => true,
            _ => false,
        }),
        Some(_) => false,
    };
    if empty {
        fields.push(FieldReport::lost(
            "spec.selector (empty)",
            "in policy/v1beta1 an empty selector selected no pod; in policy/v1 it selects every pod of the namespace: give it the selector of the pods it should protect",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(api_version: &str, kind: &str) -> ObjectRef {
        ObjectRef {
            api_version: api_version.into(),
            kind: kind.into(),
            namespace: Some("shop".into()),
            name: "web".into(),
        }
    }

    fn yaml(value: &Value) -> String {
        serde_yaml::to_string(value).unwrap_or_default()
    }

    #[test]
    fn an_extensions_ingress_becomes_a_v1_ingress() {
        let value: Value = serde_yaml::from_str(
            "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: web}\nspec:\n  backend: {serviceName: default, servicePort: http}\n  rules:\n  - host: a.example.com\n    http:\n      paths:\n      - backend: {serviceName: web, servicePort: 80}\n      - path: /x\n        pathType: Prefix\n        backend: {serviceName: x, servicePort: 8080}\n",
        )
        .unwrap_or_default();
        let served = serve(&object("extensions/v1beta1", "Ingress"), &value);
        assert_eq!(served.api_version, "networking.k8s.io/v1");
        assert_eq!(
            yaml(&served.value),
            "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  rules:\n  - host: a.example.com\n    http:\n      paths:\n      - backend:\n          service:\n            name: web\n            port:\n              number: 80\n        pathType: ImplementationSpecific\n      - path: /x\n        pathType: Prefix\n        backend:\n          service:\n            name: x\n            port:\n              number: 8080\n  defaultBackend:\n    service:\n      name: default\n      port:\n        name: http\n"
        );
        assert!(served
            .fields
            .iter()
            .all(|field| field.fidelity == super::super::report::Fidelity::Exact));
    }

    #[test]
    fn an_extensions_deployment_keeps_its_selector_and_old_defaults() {
        let value: Value = serde_yaml::from_str(
            "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template: {metadata: {labels: {app: web}}}\n",
        )
        .unwrap_or_default();
        let served = serve(&object("extensions/v1beta1", "Deployment"), &value);
        assert_eq!(
            yaml(&served.value),
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    metadata:\n      labels:\n        app: web\n  selector:\n    matchLabels:\n      app: web\n  strategy:\n    rollingUpdate:\n      maxUnavailable: 1\n      maxSurge: 1\n  revisionHistoryLimit: 2147483647\n  progressDeadlineSeconds: 2147483647\n"
        );
    }

    #[test]
    fn a_template_without_labels_loses_the_selector() {
        let value: Value =
            serde_yaml::from_str("apiVersion: apps/v1beta1\nkind: StatefulSet\nspec: {}\n")
                .unwrap_or_default();
        let served = serve(&object("apps/v1beta1", "StatefulSet"), &value);
        assert!(served
            .fields
            .iter()
            .any(|field| field.field == "spec.selector (absent)"
                && field.fidelity == super::super::report::Fidelity::Lost));
    }

    #[test]
    fn an_empty_pdb_selector_is_lost_and_a_served_version_is_untouched() {
        let value: Value = serde_yaml::from_str(
            "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nspec: {selector: {}, minAvailable: 1}\n",
        )
        .unwrap_or_default();
        let served = serve(&object("policy/v1beta1", "PodDisruptionBudget"), &value);
        assert_eq!(served.api_version, "policy/v1");
        assert!(served
            .fields
            .iter()
            .any(|field| field.field == "spec.selector (empty)"));
        let served = serve(&object("apps/v1", "Deployment"), &value);
        assert!(served.fields.is_empty());
        assert_eq!(served.value, value);
    }
}
