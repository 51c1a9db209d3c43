//! The Karmada objects `migrate --to karmada` writes (`policy.karmada.io/v1alpha1`
//! PropagationPolicy and OverridePolicy), as typed shapes in the order the API documents
//! their fields. Every policy selects its one resource template by apiVersion, kind and name
//! (a PropagationPolicy's selector defaults to its own namespace).

use serde::Serialize;
use serde_yaml::Value;

use crate::karmada::binding_name;
use crate::model::{LabelSelectorSpec, ObjectRef};

use crate::migrate::manifest::{self, Emitted, Unwritten};
use crate::model::Metadata;

pub(super) const POLICY_API_VERSION: &str = "policy.karmada.io/v1alpha1";

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ResourceSelector {
    pub api_version: String,
    pub kind: String,
    pub name: String,
}

impl ResourceSelector {
    pub(super) fn of(template: &ObjectRef) -> ResourceSelector {
        ResourceSelector {
            api_version: template.api_version.clone(),
            kind: template.kind.clone(),
            name: template.name.clone(),
        }
    }
}

/// `ClusterAffinity`; an empty one matches every cluster.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ClusterAffinity {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelectorSpec>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cluster_names: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<String>,
}

impl ClusterAffinity {
    pub(super) fn named(name: &str) -> ClusterAffinity {
        ClusterAffinity {
            cluster_names: vec![name.to_string()],
            ..ClusterAffinity::default()
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct StaticWeight {
    pub target_cluster: ClusterAffinity,
    pub weight: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct WeightPreference {
    pub static_weight_list: Vec<StaticWeight>,
}

/// `Divided` + `Weighted` with static weights; `None` weights is every cluster at weight 1.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ReplicaScheduling {
    pub replica_scheduling_type: &'static str,
    pub replica_division_preference: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_preference: Option<WeightPreference>,
}

impl ReplicaScheduling {
    pub(super) fn static_weights(list: Vec<StaticWeight>) -> ReplicaScheduling {
        ReplicaScheduling {
            replica_scheduling_type: "Divided",
            replica_division_preference: "Weighted",
            weight_preference: (!list.is_empty()).then_some(WeightPreference {
                static_weight_list: list,
            }),
        }
    }
}

/// `spec.placement`; no `replicaScheduling` is Duplicated.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Placement {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster_affinity: Option<ClusterAffinity>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replica_scheduling: Option<ReplicaScheduling>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PropagationSpec {
    resource_selectors: Vec<ResourceSelector>,
    placement: Placement,
}

/// The policy's identity: `<name>-<kind>` lower-cased in the template's namespace, the name
/// Karmada gives the template's ResourceBinding, so one reads the other.
pub(super) fn policy_ref(kind: &str, template: &ObjectRef) -> ObjectRef {
    ObjectRef {
        api_version: POLICY_API_VERSION.to_string(),
        kind: kind.to_string(),
        namespace: template.namespace.clone(),
        name: binding_name(&template.kind, &template.name),
    }
}

/// `PropagationPolicy` for a namespaced template, `ClusterPropagationPolicy` for a
/// cluster-scoped one (a template without a namespace).
pub(super) fn propagation_kind(template: &ObjectRef) -> &'static str {
    if template.namespace.is_some() {
        "PropagationPolicy"
    } else {
        "ClusterPropagationPolicy"
    }
}

pub(super) fn propagation_policy(
    template: &ObjectRef,
    placement: Placement,
) -> Result<Emitted, Unwritten> {
    let kind = propagation_kind(template);
    let reference = policy_ref(kind, template);
    manifest::emit(
        POLICY_API_VERSION,
        kind,
        Metadata::of(&reference),
        PropagationSpec {
            resource_selectors: vec![ResourceSelector::of(template)],
            placement,
        },
    )
}

/// One JSON-patch-like change (`plaintext` overrider).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(super) struct Plaintext {
    pub path: String,
    pub operator: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub(super) struct Overriders {
    pub plaintext: Vec<Plaintext>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct OverrideRule {
    pub target_cluster: ClusterAffinity,
    pub overriders: Overriders,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OverrideSpec {
    resource_selectors: Vec<ResourceSelector>,
    override_rules: Vec<OverrideRule>,
}

pub(super) fn override_policy(
    template: &ObjectRef,
    rules: Vec<OverrideRule>,
) -> Result<Emitted, Unwritten> {
    let kind = if template.namespace.is_some() {
        "OverridePolicy"
    } else {
        "ClusterOverridePolicy"
    };
    let reference = policy_ref(kind, template);
    manifest::emit(
        POLICY_API_VERSION,
        kind,
        Metadata::of(&reference),
        OverrideSpec {
            resource_selectors: vec![ResourceSelector::of(template)],
            override_rules: rules,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::source;

    #[test]
    fn a_propagation_policy_selects_its_template_by_name() {
        let placement = Placement {
            cluster_affinity: Some(ClusterAffinity::named("a")),
            replica_scheduling: None,
        };
        let text = serde_yaml::to_string(
            &propagation_policy(
                &source("apps/v1", "Deployment", Some("shop"), "web"),
                placement,
            )
            .map(|emitted| emitted.value)
            .unwrap_or_default(),
        )
        .unwrap_or_default();
        assert_eq!(
            text,
            "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: web-deployment\n  namespace: shop\nspec:\n  resourceSelectors:\n  - apiVersion: apps/v1\n    kind: Deployment\n    name: web\n  placement:\n    clusterAffinity:\n      clusterNames:\n      - a\n"
        );
    }

    #[test]
    fn no_weights_leave_the_weight_preference_out() {
        let text = serde_yaml::to_string(&ReplicaScheduling::static_weights(Vec::new()))
            .unwrap_or_default();
        assert_eq!(
            text,
            "replicaSchedulingType: Divided\nreplicaDivisionPreference: Weighted\n"
        );
    }
}
