//! Federation annotations and kubefed placements: per cluster, offline, not named, the first
//! requirement of the engine's selector that failed (with the cluster's actual value), or
//! selected.

use crate::model::Cluster;
use crate::plan::{SelectionRule, SelectionTrace};

use super::{clusters_text, ClusterVerdict, Code, Explanation};

pub(crate) fn explain(
    explanation: &mut Explanation,
    selection: &SelectionTrace,
    clusters: &[Cluster],
) {
    explanation.summary = format!(
        "{} of {} selected by {}",
        selection.selected.count(),
        clusters_text(clusters.len()),
        describe(&selection.rule)
    );
    explanation.clusters = clusters
        .iter()
        .enumerate()
        .map(|(id, cluster)| verdict(&selection.rule, selection.selected.contains(id), cluster))
        .collect();
}

/// What the rule is, for the summary line.
pub(super) fn describe(rule: &SelectionRule) -> String {
    match rule {
        SelectionRule::Everything => "no cluster selector (every online cluster)".to_string(),
        SelectionRule::Annotation(selector) if selector.is_everything() => {
            "an empty cluster-selector annotation (every online cluster)".to_string()
        }
        SelectionRule::Annotation(selector) => {
            format!("the cluster-selector annotation {selector}")
        }
        SelectionRule::LabelSelector(selector) if selector.is_everything() => {
            "an empty spec.placement.clusterSelector (every online cluster)".to_string()
        }
        SelectionRule::LabelSelector(selector) => {
            format!("spec.placement.clusterSelector {selector}")
        }
        SelectionRule::NoSelector => {
            "spec.placement without clusters or clusterSelector (no cluster)".to_string()
        }
        SelectionRule::ClusterNames(names) if names.is_empty() => {
            "an empty spec.placement.clusters list (no cluster)".to_string()
        }
        SelectionRule::ClusterNames(names) => {
            format!("spec.placement.clusters [{}]", names.join(", "))
        }
        SelectionRule::Target { target, rule } => {
            format!(
                "intersectWithClusterSelector: what {target} selects, {}",
                describe(rule)
            )
        }
    }
}

fn verdict(rule: &SelectionRule, selected: bool, cluster: &Cluster) -> ClusterVerdict {
    let name = cluster.name.as_str();
    if selected {
        return ClusterVerdict::new(name, true, Code::Selected, chosen(rule));
    }
    if !cluster.online {
        return ClusterVerdict::new(name, false, Code::Offline, "offline".to_string());
    }
    match rejection(rule, cluster) {
        Some((code, reason)) => ClusterVerdict::new(name, false, code, reason),
        // The selection is the engine's own bitset; a rule that explains no rejection for an
        // online cluster it left out would be a bug the agreement test catches.
        None => ClusterVerdict::new(
            name,
            false,
            Code::NotSelected,
            "left out by the engine".to_string(),
        ),
    }
}

/// Why the rule chose an online cluster.
fn chosen(rule: &SelectionRule) -> String {
    match rule {
        SelectionRule::Annotation(selector) | SelectionRule::LabelSelector(selector)
            if !selector.is_everything() =>
        {
            format!("matches {}", describe(rule))
        }
        SelectionRule::ClusterNames(_) => "named in spec.placement.clusters".to_string(),
        SelectionRule::Target { target, rule } => format!("{target} selects it: {}", chosen(rule)),
        _ => format!("online, chosen by {}", describe(rule)),
    }
}

/// Why the rule left out an online cluster: a verdict code and the reason.
fn rejection(rule: &SelectionRule, cluster: &Cluster) -> Option<(Code, String)> {
    match rule {
        SelectionRule::Everything => None,
        SelectionRule::Annotation(selector) => {
            selector.first_mismatch(&cluster.labels).map(|why| {
                (
                    Code::SelectorMismatch,
                    format!("cluster-selector annotation: {why}"),
                )
            })
        }
        SelectionRule::LabelSelector(selector) => {
            selector.first_mismatch(&cluster.labels).map(|why| {
                (
                    Code::SelectorMismatch,
                    format!("spec.placement.clusterSelector: {why}"),
                )
            })
        }
        SelectionRule::NoSelector => Some((
            Code::NoSelector,
            "spec.placement has no clusterSelector, which selects no cluster".to_string(),
        )),
        SelectionRule::ClusterNames(names) => (!names.contains(&cluster.name)).then(|| {
            (
                Code::NotNamed,
                "not named in spec.placement.clusters".to_string(),
            )
        }),
        SelectionRule::Target { target, rule } => rejection(rule, cluster)
            .map(|(code, why)| (code, format!("{target} does not select it: {why}"))),
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::selector::{ClusterBits, Selector};
    use crate::testing::cluster;

    fn explained(rule: SelectionRule, clusters: &[Cluster], selected: &[usize]) -> Explanation {
        let mut explanation = crate::render::explain::tests::empty();
        let selection = SelectionTrace {
            rule,
            selected: ClusterBits::from_ids(clusters.len(), selected.iter().copied()),
        };
        explain(&mut explanation, &selection, clusters);
        explanation
    }

    #[test]
    fn a_selector_mismatch_names_the_requirement_and_the_actual_value() {
        let selector = Selector::parse("location in (europe)").unwrap();
        let clusters = [
            cluster("a").label("location", "us").build(),
            cluster("b").build(),
        ];
        let explanation = explained(SelectionRule::Annotation(selector), &clusters, &[]);
        let reasons: Vec<&str> = explanation
            .clusters
            .iter()
            .map(|v| v.reason.as_str())
            .collect();
        assert_eq!(
            reasons,
            [
                r#"cluster-selector annotation: location: got "us", wanted in (europe)"#,
                "cluster-selector annotation: location: key missing",
            ]
        );
    }

    #[test]
    fn offline_clusters_are_never_selected_and_say_so() {
        let clusters = [cluster("a").offline().build(), cluster("b").build()];
        let explanation = explained(SelectionRule::Everything, &clusters, &[1]);
        let verdicts: Vec<(&str, bool)> = explanation
            .clusters
            .iter()
            .map(|v| (v.verdict.as_str(), v.selected))
            .collect();
        assert_eq!(verdicts, [("offline", false), ("selected", true)]);
        assert_eq!(
            explanation.summary,
            "1 of 2 clusters selected by no cluster selector (every online cluster)"
        );
    }

    #[test]
    fn clusters_missing_from_a_name_list_are_not_named() {
        let clusters = [cluster("a").build(), cluster("b").build()];
        let rule = SelectionRule::ClusterNames(vec!["b".to_string()]);
        let explanation = explained(rule, &clusters, &[1]);
        assert_eq!(explanation.clusters[0].verdict, Code::NotNamed);
        assert_eq!(
            explanation.clusters[1].reason,
            "named in spec.placement.clusters"
        );
    }

    #[test]
    fn an_intersected_target_names_the_target_in_the_reason() {
        let clusters = [cluster("a").label("location", "us").build()];
        let rule = SelectionRule::Target {
            target: "FederatedDeployment/shop/web".to_string(),
            rule: Box::new(SelectionRule::LabelSelector(
                Selector::parse("location=europe").unwrap(),
            )),
        };
        let explanation = explained(rule, &clusters, &[]);
        assert_eq!(
            explanation.clusters[0].reason,
            r#"FederatedDeployment/shop/web does not select it: spec.placement.clusterSelector: location: got "us", wanted = europe"#
        );
    }
}
