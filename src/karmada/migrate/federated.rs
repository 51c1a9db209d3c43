//! What a template object (kubefed's federated objects, `crate::migrate::template`) adds to
//! the resource template Karmada propagates (made in `mod.rs`'s `template`): its per-cluster
//! overrides as an OverridePolicy, and a namespace's skip-auto-propagation label.
//!
//! - The overrides (`add`/`remove`/`replace` JSON-patch operations) become `plaintext`
//!   overriders (the same operations) of one rule per cluster, in input order. With a replica
//!   division, its controller wrote `/spec/replicas` per cluster over any such override, so
//!   those are left out: the divided replicas take their place.
//! - A namespace's object is labelled so that Karmada leaves the namespace to its policy.

use serde_yaml::{Mapping, Value};

use super::policy::{ClusterAffinity, OverrideRule, Overriders, Plaintext};
use crate::migrate::division::ReplicaDivision;
use crate::migrate::hub_version::KarmadaVersion;
use crate::migrate::report::FieldReport;
use crate::migrate::template::OverridesOnCluster;

/// Karmada's namespace sync controller creates every namespace of the control plane on every
/// member cluster, unless it carries this label (`pkg/apis/policy/v1alpha1`
/// `NamespaceSkipAutoPropagationLabel`, karmada-io/karmada f8fdd02df376).
pub(super) const SKIP_AUTO_PROPAGATION: &str = "namespace.karmada.io/skip-auto-propagation";

/// The Namespace a namespace's template object stands for: labelled so that Karmada leaves
/// it to its ClusterPropagationPolicy instead of creating it on every cluster, where the control plane
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

/// The per-cluster overrides as override rules, and what each became. `division`: what
/// divides the replicas, so `/spec/replicas` is not carried.
pub(super) fn overrides(
    clusters: Vec<OverridesOnCluster>,
    division: Option<&ReplicaDivision<'_>>,
) -> (Vec<OverrideRule>, Vec<FieldReport>) {
    let mut rules = Vec::new();
    let mut fields = Vec::new();
    for cluster in clusters {
        let mut plaintext = Vec::new();
        for change in cluster.changes {
            if let Some(division) = division.filter(|_| change.path == "/spec/replicas") {
                fields.push(
                    FieldReport::exact(change.field, "not carried").because(format!(
                        "{}; the PropagationPolicy divides the replicas instead",
                        division.words.overrode_replicas
                    )),
                );
                continue;
            }
            fields.push(FieldReport::exact(
                change.field,
                format!(
                    "OverridePolicy overrideRules[{}] plaintext {} {}",
                    rules.len(),
                    change.operator,
                    change.path
                ),
            ));
            plaintext.push(Plaintext {
                path: change.path,
                operator: change.operator,
                value: change.value,
            });
        }
        if !plaintext.is_empty() {
            rules.push(OverrideRule {
                target_cluster: ClusterAffinity::named(&cluster.cluster),
                overriders: Overriders { plaintext },
            });
        }
    }
    (rules, fields)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::migrate::template::OverrideChange;

    fn change(path: &str, operator: &str) -> OverrideChange {
        OverrideChange {
            field: format!("(override) {path}"),
            operator: operator.into(),
            path: path.into(),
            value: Some(Value::from(1)),
        }
    }

    #[test]
    fn overrides_become_one_rule_per_cluster_and_replicas_yield_to_the_division() {
        let clusters = vec![OverridesOnCluster {
            cluster: "a".into(),
            changes: vec![
                change("/spec/replicas", "replace"),
                change("/metadata/labels/x", "add"),
            ],
        }];
        let (rules, _) = overrides(clusters.clone(), None);
        assert_eq!(rules.len(), 1);
        assert_eq!(rules[0].overriders.plaintext.len(), 2);
        assert_eq!(rules[0].overriders.plaintext[0].operator, "replace");
        let preferences = Default::default();
        let division = ReplicaDivision {
            target_kind: "Divided",
            total_replicas: 3,
            preferences: &preferences,
            within_placement: false,
            acted: true,
            words: &crate::registry::DIVISION_WORDS,
        };
        let (rules, fields) = overrides(clusters, Some(&division));
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
}
