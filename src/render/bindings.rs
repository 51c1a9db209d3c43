//! `-o bindings`: the ResourceBindings (ClusterResourceBindings for cluster-scoped resources)
//! as karmada-scheduler would leave them: `spec.clusters`, the `Scheduled` condition and the
//! observed affinity term.

use serde::Serialize;

use crate::plan::{ItemTrace, PlanItem};

/// The head of every `-o bindings` stream.
pub const HEADER: &str = "\
# ResourceBindings as karmada-scheduler would write them (spec.clusters sorted by name).
# The resource detector and the scheduler own these objects: compare them with
#   kubectl get resourcebindings -A -o yaml
# rather than applying them.
";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BindingObject<'a> {
    api_version: &'static str,
    kind: &'static str,
    metadata: Metadata<'a>,
    spec: Spec<'a>,
    status: Status<'a>,
}

#[derive(Serialize)]
struct Metadata<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    namespace: Option<&'a str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Spec<'a> {
    resource: Resource<'a>,
    #[serde(skip_serializing_if = "is_zero")]
    replicas: i64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    clusters: Vec<Target<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Resource<'a> {
    api_version: &'a str,
    kind: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    namespace: Option<&'a str>,
    name: &'a str,
}

#[derive(Serialize)]
struct Target<'a> {
    name: &'a str,
    /// `omitempty` upstream: a cluster at 0 replicas shows only its name.
    #[serde(skip_serializing_if = "is_zero")]
    replicas: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Status<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    scheduler_observing_affinity_name: Option<&'a str>,
    conditions: Vec<&'a crate::model::Condition>,
}

fn is_zero(value: &i64) -> bool {
    *value == 0
}

/// The item's binding as a YAML document after `---` (the `-o bindings` stream is
/// [`HEADER`] then every item's, in plan item order); nothing for a resource no policy claims,
/// which has no binding.
pub fn object(item: &PlanItem, trace: &ItemTrace) -> Result<String, serde_yaml::Error> {
    let ItemTrace::Karmada(trace) = trace else {
        return Ok(String::new());
    };
    let (Some(binding), Some(result)) = (&trace.binding, &trace.outcome) else {
        return Ok(String::new());
    };
    let source = &item.source;
    let object = BindingObject {
        api_version: "work.karmada.io/v1alpha2",
        kind: if source.namespace.is_some() {
            "ResourceBinding"
        } else {
            "ClusterResourceBinding"
        },
        metadata: Metadata {
            name: &binding.name,
            namespace: source.namespace.as_deref(),
        },
        spec: Spec {
            resource: Resource {
                api_version: &source.api_version,
                kind: &source.kind,
                namespace: source.namespace.as_deref(),
                name: &source.name,
            },
            replicas: binding.replicas,
            clusters: result
                .clusters
                .by_name(trace.clusters)
                .into_iter()
                .map(|(name, replicas)| Target { name, replicas })
                .collect(),
        },
        status: Status {
            scheduler_observing_affinity_name: result.observed_affinity.as_deref(),
            conditions: item.conditions.iter().collect(),
        },
    };
    Ok(format!("---\n{}", crate::yaml11::to_string(&object)?))
}
