//! Objects that name a PlacementRule — an application Subscription's
//! `spec.placement.placementRef` and a policy PlacementBinding's `placementRef` — rewritten
//! to name the Placement that replaces it. Only references to a PlacementRule migrated in the
//! same run (same namespace: both kinds only reference their own namespace) are rewritten.

use std::collections::BTreeSet;

use serde_yaml::Value;

use crate::migrate::objects::RawObject;
use crate::migrate::report::FieldReport;
use crate::ocm::model::placement::PLACEMENT_API_VERSION;

const PLACEMENT_GROUP: &str = "cluster.open-cluster-management.io";

/// A consumer kind and where its reference sits.
struct ConsumerKind {
    group: &'static str,
    kind: &'static str,
    path: &'static [&'static str],
    /// The Subscription controller reads a reference without `kind` as a PlacementRule.
    kind_defaults_to_rule: bool,
}

const CONSUMERS: &[ConsumerKind] = &[
    ConsumerKind {
        group: "apps.open-cluster-management.io",
        kind: "Subscription",
        path: &["spec", "placement", "placementRef"],
        kind_defaults_to_rule: true,
    },
    ConsumerKind {
        group: "policy.open-cluster-management.io",
        kind: "PlacementBinding",
        path: &["placementRef"],
        kind_defaults_to_rule: false,
    },
];

/// `raw` with its reference pointing at the Placement, when it names a migrated rule.
/// `rules` holds (namespace, name) of the migrated PlacementRules; `default_namespace` is the
/// namespace of a consumer written without one.
pub(crate) fn rewrite(
    raw: &RawObject<'_>,
    default_namespace: &str,
    rules: &BTreeSet<(String, String)>,
) -> Option<(Value, FieldReport)> {
    let consumer = CONSUMERS
        .iter()
        .find(|consumer| consumer.group == raw.group() && consumer.kind == raw.kind)?;
    let mut value = raw.value.clone();
    let mut reference = &mut value;
    for step in consumer.path {
        reference = reference.get_mut(*step)?;
    }
    let Value::Mapping(reference) = reference else {
        return None;
    };
    let kind = reference.get("kind").and_then(Value::as_str);
    let names_rule = match kind {
        Some(kind) => kind == "PlacementRule",
        None => consumer.kind_defaults_to_rule,
    };
    let name = reference.get("name").and_then(Value::as_str)?.to_string();
    let namespace = raw.namespace.unwrap_or(default_namespace).to_string();
    if !names_rule || !rules.contains(&(namespace.clone(), name.clone())) {
        return None;
    }
    reference.insert("kind".into(), "Placement".into());
    if reference.contains_key("apiGroup") {
        reference.insert("apiGroup".into(), PLACEMENT_GROUP.into());
    }
    if reference.contains_key("apiVersion") {
        reference.insert("apiVersion".into(), PLACEMENT_API_VERSION.into());
    }
    let field = consumer.path.join(".");
    let report = FieldReport::exact(
        format!("{field} PlacementRule/{name}"),
        format!("{field} Placement/{name}"),
    );
    Some((value, report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::migrate::objects::{Location, RawObject};

    fn rewritten(text: &str) -> Option<String> {
        let value: Value = serde_yaml::from_str(text).unwrap_or_default();
        let raw = RawObject {
            location: Location {
                source: Default::default(),
                items: vec![],
            },
            value: &value,
            api_version: value["apiVersion"].as_str().unwrap_or_default(),
            kind: value["kind"].as_str().unwrap_or_default(),
            name: "x",
            namespace: Some("shop"),
        };
        let rules = BTreeSet::from([("shop".to_string(), "rule".to_string())]);
        rewrite(&raw, "default", &rules)
            .map(|(value, _)| serde_yaml::to_string(&value).unwrap_or_default())
    }

    #[test]
    fn policy_binding_reference_is_rewritten_with_its_group() {
        let text = rewritten(
            "apiVersion: policy.open-cluster-management.io/v1\nkind: PlacementBinding\nplacementRef: {apiGroup: apps.open-cluster-management.io, kind: PlacementRule, name: rule}\n",
        );
        assert_eq!(
            text.as_deref(),
            Some("apiVersion: policy.open-cluster-management.io/v1\nkind: PlacementBinding\nplacementRef:\n  apiGroup: cluster.open-cluster-management.io\n  kind: Placement\n  name: rule\n")
        );
    }

    #[test]
    fn subscription_reference_without_kind_names_a_rule() {
        let text = rewritten(
            "apiVersion: apps.open-cluster-management.io/v1\nkind: Subscription\nspec: {placement: {placementRef: {name: rule}}}\n",
        );
        assert!(text.is_some_and(|t| t.contains("kind: Placement\n")));
    }

    #[test]
    fn references_to_other_rules_are_left_alone() {
        let text = rewritten(
            "apiVersion: apps.open-cluster-management.io/v1\nkind: Subscription\nspec: {placement: {placementRef: {name: other, kind: PlacementRule}}}\n",
        );
        assert_eq!(text, None);
    }
}
