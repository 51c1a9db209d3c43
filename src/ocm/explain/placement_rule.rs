//! PlacementRules: the rule's one verdict per cluster, in words.

use crate::model::Cluster;
use crate::ocm::rule::{RuleResult, RuleVerdict};

use crate::render::explain::{clusters_text, list, ClusterVerdict, Code, Explanation};

pub(crate) fn explain(explanation: &mut Explanation, result: &RuleResult, clusters: &[Cluster]) {
    explanation.summary = format!(
        "{} of {} selected (pick order: {})",
        result.selected.len(),
        clusters_text(clusters.len()),
        list(&result.decisions)
    );
    let chosen = result.decisions.len();
    explanation.clusters = clusters
        .iter()
        .map(|cluster| {
            let name = cluster.name.as_str();
            let Some(verdict) = result.verdicts.get(name) else {
                let reason = match &result.error {
                    Some(error) => format!("nothing is selected: {error}"),
                    None => "the rule gave no verdict".to_string(),
                };
                return ClusterVerdict::new(name, false, Code::NotScheduled, reason);
            };
            let (code, reason) = match verdict {
                RuleVerdict::BeingDeleted => (Code::BeingDeleted, "being deleted".to_string()),
                RuleVerdict::NotListed => {
                    (Code::NotListed, "not listed in spec.clusters".to_string())
                }
                RuleVerdict::SelectorMismatch { reason } => (
                    Code::SelectorMismatch,
                    format!("spec.clusterSelector: {reason}"),
                ),
                RuleVerdict::ConditionMismatch {
                    condition,
                    wanted,
                    found,
                } => (
                    Code::ConditionMismatch,
                    format!("condition {condition} is {found}, wanted {wanted}"),
                ),
                RuleVerdict::CutByClusterReplicas { position } => (
                    Code::CutByClusterReplicas,
                    format!(
                        "position {position} in the pick order, beyond clusterReplicas {chosen}"
                    ),
                ),
                RuleVerdict::Selected { position } => (
                    Code::Selected,
                    format!("position {position} in the pick order"),
                ),
            };
            ClusterVerdict::new(name, code == Code::Selected, code, reason)
        })
        .collect();
}
