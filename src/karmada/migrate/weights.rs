//! Replica preferences (a replica division's, kubefed's, or the federation
//! `replica-set-preferences` annotation's) → `Divided` + `Weighted` static weights.
//!
//! - A cluster's weight is its own entry's, else `"*"`'s, else it takes no part: each named
//!   entry becomes a rule on its name, `"*"` a rule excluding every named cluster (Karmada
//!   takes the highest weight of the matching rules, kubefed the named entry's). A weight of
//!   0 writes no rule (Karmada refuses weight 0; a cluster no rule matches drops out).
//! - No entries is `"*"` at weight 1, written as one rule over every cluster.
//! - What has no Karmada field: `minReplicas`, `maxReplicas`, the clusters' capacity
//!   (kubefed's overflow), `rebalance: false` (Karmada's static division starts afresh each
//!   time), and the order leftover replicas go in (kubefed hashes the workload key with each
//!   cluster name; Karmada's Webster division breaks ties by cluster name). `--verify` shows
//!   whether any of them changes the layout on the inventory given.

use crate::model::preferences::ReplicaPreferences;

use super::policy::{ClusterAffinity, ReplicaScheduling, StaticWeight};
use crate::migrate::report::FieldReport;

/// The converted preferences; `field` names a preference field of the input
/// (`spec.clusters["a"].weight` or the annotation's).
pub(super) fn convert(
    preferences: &ReplicaPreferences,
    field: &dyn Fn(&str) -> String,
    bounded_capacity: bool,
) -> (ReplicaScheduling, Vec<FieldReport>) {
    let mut fields = Vec::new();
    let mut rules = Vec::new();
    if preferences.clusters.is_empty() {
        rules.push(StaticWeight {
            target_cluster: ClusterAffinity::default(),
            weight: 1,
        });
        fields.push(
            FieldReport::exact(
                field("clusters (none)"),
                "staticWeightList[0] every cluster weight 1",
            )
            .because("kubefed reads no clusters as every cluster with weight 1"),
        );
    }
    let named: Vec<String> = preferences
        .clusters
        .keys()
        .filter(|name| *name != "*")
        .cloned()
        .collect();
    for (name, prefs) in &preferences.clusters {
        let entry = format!("clusters[{name:?}]");
        let index = rules.len();
        if prefs.weight > 0 {
            let (target_cluster, target) = rule_target(name, &named);
            rules.push(StaticWeight {
                target_cluster,
                weight: prefs.weight,
            });
            fields.push(FieldReport::exact(
                field(&format!("{entry}.weight")),
                format!("staticWeightList[{index}] {target} weight {}", prefs.weight),
            ));
        } else {
            fields.push(
                FieldReport::exact(field(&format!("{entry}.weight")), "no rule (weight 0)")
                    .because("a cluster no rule matches has weight 0 and drops out, as kubefed gives it no share"),
            );
        }
        if prefs.min_replicas > 0 {
            fields.push(FieldReport::lost(
                field(&format!("{entry}.minReplicas")),
                "Karmada static weights have no per-cluster minimum: the cluster gets its weighted share only",
            ));
        }
        if let Some(max) = prefs.max_replicas {
            fields.push(FieldReport::lost(
                field(&format!("{entry}.maxReplicas {max}")),
                "Karmada static weights have no per-cluster maximum: the cluster gets its whole weighted share",
            ));
        }
    }
    if !preferences.clusters.is_empty() && rules.is_empty() {
        fields.push(FieldReport::lost(
            field("clusters (every weight 0)"),
            "kubefed gave only the minimums; with no weight above 0 Karmada divides evenly over every selected cluster",
        ));
    }
    fields.extend(division(preferences.rebalance, field, bounded_capacity));
    (ReplicaScheduling::static_weights(rules), fields)
}

/// The clusters a rule of the entry `name` targets, and how the report says it: the named
/// cluster, or for `"*"` every cluster but the `named` ones.
fn rule_target(name: &str, named: &[String]) -> (ClusterAffinity, String) {
    if name != "*" {
        return (ClusterAffinity::named(name), name.to_string());
    }
    let target = if named.is_empty() {
        "every cluster".to_string()
    } else {
        format!("every cluster but {}", named.join(", "))
    };
    (
        ClusterAffinity {
            exclude: named.to_vec(),
            ..ClusterAffinity::default()
        },
        target,
    )
}

/// How Karmada's static division differs from kubefed's: afresh on every schedule
/// (`rebalance`), leftovers by quotient, capacity ignored (when the clusters have one).
fn division(
    rebalance: bool,
    field: &dyn Fn(&str) -> String,
    bounded_capacity: bool,
) -> Vec<FieldReport> {
    let mut fields = vec![if rebalance {
        FieldReport::exact(
            field("rebalance true"),
            "replicaScheduling Divided/Weighted (static weights divide afresh on every schedule)",
        )
    } else {
        FieldReport::approximate(
            field("rebalance false"),
            "replicaScheduling Divided/Weighted",
            "static weights divide afresh on every schedule; kubefed kept the replicas clusters already ran where the preferences allowed",
        )
    }];
    fields.push(FieldReport::approximate(
        "(leftover replicas)",
        "Webster division",
        "when the weights do not divide the replicas evenly, kubefed gives the leftovers in its hash order of the workload and cluster names, Karmada by the highest remaining quotient, ties by cluster name",
    ));
    if bounded_capacity {
        fields.push(FieldReport::lost(
            "(cluster capacity)",
            "static weights ignore capacity; kubefed moved what a cluster could not run to others (overflow)",
        ));
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replicas::parse_replica_set_preferences;

    fn scheduling(annotation: &str) -> (String, Vec<FieldReport>) {
        let preferences = parse_replica_set_preferences(annotation).unwrap_or_default();
        let (scheduling, fields) = convert(&preferences, &|name| name.to_string(), false);
        (
            serde_yaml::to_string(&scheduling).unwrap_or_default(),
            fields,
        )
    }

    #[test]
    fn the_wildcard_excludes_the_named_clusters() {
        let (text, _) = scheduling(r#"{"clusters": {"*": {"weight": 1}, "a": {"weight": 3}}}"#);
        assert_eq!(
            text,
            "replicaSchedulingType: Divided\nreplicaDivisionPreference: Weighted\nweightPreference:\n  staticWeightList:\n  - targetCluster:\n      exclude:\n      - a\n    weight: 1\n  - targetCluster:\n      clusterNames:\n      - a\n    weight: 3\n"
        );
    }

    #[test]
    fn a_zero_weight_writes_no_rule_but_stays_excluded_from_the_wildcard() {
        let (text, _) = scheduling(r#"{"clusters": {"*": {"weight": 2}, "b": {"weight": 0}}}"#);
        assert!(
            text.contains("exclude:\n      - b\n    weight: 2\n"),
            "{text}"
        );
        assert!(!text.contains("clusterNames"), "{text}");
    }

    #[test]
    fn minimum_and_maximum_are_reported_lost() {
        let (_, fields) =
            scheduling(r#"{"clusters": {"a": {"weight": 1, "minReplicas": 2, "maxReplicas": 5}}}"#);
        let lost: Vec<&str> = fields
            .iter()
            .filter(|f| f.fidelity == crate::migrate::report::Fidelity::Lost)
            .map(|f| f.field.as_str())
            .collect();
        assert_eq!(
            lost,
            vec![
                "clusters[\"a\"].minReplicas",
                "clusters[\"a\"].maxReplicas 5"
            ]
        );
    }

    #[test]
    fn no_entries_is_every_cluster_at_weight_one() {
        let preferences = ReplicaPreferences::default();
        let (scheduling, _) = convert(&preferences, &|name| name.to_string(), false);
        let list = scheduling
            .weight_preference
            .map(|preference| preference.static_weight_list)
            .unwrap_or_default();
        assert_eq!(
            list,
            vec![StaticWeight {
                target_cluster: ClusterAffinity::default(),
                weight: 1
            }]
        );
    }
}
