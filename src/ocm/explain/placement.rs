//! OCM Placements: the scheduler's one verdict per cluster, in words.

use crate::model::time::format_rfc3339;
use crate::model::{Cluster, ConditionStatus};
use serde::Serialize;

use crate::ocm::trace::{DebugResult, FilterResult, Score, Verdict};
use crate::ocm::{groups, PlacementResult, SPREAD_NOT_ENFORCED};
use crate::plan::PlanItem;
use crate::registry::{ClusterScore, EngineDebug};
use crate::render::plan::{header, Rows};

use crate::render::explain::{list, ClusterVerdict, Code, DecisionPlace, Explanation};

pub(crate) fn explain(
    explanation: &mut Explanation,
    result: &PlacementResult,
    clusters: &[Cluster],
) {
    let wanted = i64::try_from(result.selected.len())
        .unwrap_or(i64::MAX)
        .saturating_add(result.unscheduled);
    let Some(trace) = &result.trace else {
        // Only a run without tracing lacks verdicts; explain always traces.
        explanation.summary = "no trace was recorded for this placement".to_string();
        return;
    };
    let feasible = trace
        .verdicts
        .values()
        .filter(|verdict| score_of(verdict).is_some())
        .count();
    explanation.summary = format!(
        "{} of {} feasible selected ({} in eligible clustersets){}",
        result.selected.len(),
        feasible,
        result.available,
        if result.unscheduled > 0 {
            format!(", {} unscheduled", result.unscheduled)
        } else {
            String::new()
        }
    );
    explanation.notes.push(format!(
        "bindings: {}; eligible clustersets: {}",
        list(&result.bindings),
        list(&result.eligible_sets)
    ));
    if result.synced() {
        explanation.notes.push(format!(
            "{}={} ({}): {}",
            result.satisfied.type_,
            result.satisfied.status,
            result.satisfied.reason,
            result.satisfied.message
        ));
    } else {
        explanation.notes.push(
            "the scheduler's sync fails before scheduling: the hub writes no PlacementDecision, \
             group or condition and keeps the ones it has"
                .to_string(),
        );
    }
    if result.misconfigured.status == ConditionStatus::True {
        explanation.notes.push(format!(
            "{}={} ({}): {}",
            result.misconfigured.type_,
            result.misconfigured.status,
            result.misconfigured.reason,
            result.misconfigured.message
        ));
    }
    if !result.unread_fields.is_empty() {
        let mut note = format!(
            "fields that do not change the selection: {}",
            result.unread_fields.join(", ")
        );
        if result.unread_fields.contains(&"spec.spreadPolicy") {
            note.push_str(&format!(" ({SPREAD_NOT_ENFORCED})"));
        }
        explanation.notes.push(note);
    }
    if let Some(at) = result.changes_at {
        explanation.notes.push(format!(
            "changes at {}: a toleration expires",
            format_rfc3339(at)
        ));
    }
    explanation.clusters = trace
        .verdicts
        .iter()
        .map(|(name, verdict)| cluster_verdict(name, verdict, result, feasible, wanted))
        .collect();
    for cluster in clusters {
        if !trace.verdicts.contains_key(&cluster.name) {
            explanation.clusters.push(ClusterVerdict::new(
                &cluster.name,
                false,
                Code::NotScheduled,
                "the scheduler gave no verdict".to_string(),
            ));
        }
    }
    explanation.debug = Some(EngineDebug::Ocm(UpstreamDebug::from(&trace.debug)));
}

fn score_of(verdict: &Verdict) -> Option<&Score> {
    match verdict {
        Verdict::Spread { score, .. }
        | Verdict::CutByNumberOfClusters { score }
        | Verdict::Selected { score, .. } => Some(score),
        _ => None,
    }
}

/// `rank 1 of 5, score 400 = Balance 100×1 + Steady 100×1 + ResourceAllocatableMemory 100×2`
pub(super) fn score_text(score: &Score, feasible: usize) -> String {
    let parts: Vec<String> = score
        .parts
        .iter()
        .map(|part| match part.score {
            Some(value) => format!("{} {value}×{}", part.prioritizer, part.weight),
            None => format!("{} (no score)×{}", part.prioritizer, part.weight),
        })
        .collect();
    let sum = if parts.is_empty() {
        String::new()
    } else {
        format!(" = {}", parts.join(" + "))
    };
    format!(
        "rank {} of {feasible}, score {}{sum}",
        score.rank, score.total
    )
}

fn cluster_verdict(
    name: &str,
    verdict: &Verdict,
    result: &PlacementResult,
    feasible: usize,
    wanted: i64,
) -> ClusterVerdict {
    let (code, reason) = match verdict {
        Verdict::NotInEligibleSet => (
            Code::NotInEligibleSet,
            format!(
                "not in an eligible clusterset (eligible: {})",
                list(&result.eligible_sets)
            ),
        ),
        Verdict::BeingDeleted => (Code::BeingDeleted, "being deleted".to_string()),
        Verdict::NotScheduled { reason } => (Code::NotScheduled, reason.clone()),
        Verdict::NoPredicateMatched { reasons } => (
            Code::NoPredicateMatched,
            format!("no predicate matched: {}", reasons.join("; ")),
        ),
        Verdict::TaintNotTolerated { taint } => (
            Code::TaintNotTolerated,
            format!("taint {taint} is not tolerated"),
        ),
        Verdict::TolerationExpired { taint, at } => (
            Code::TolerationExpired,
            format!(
                "the toleration of taint {taint} expired at {}",
                format_rfc3339(*at)
            ),
        ),
        Verdict::Spread {
            rule,
            domain,
            taken_by,
            score,
        } => {
            let why = match domain {
                None => "the cluster lacks the topology key".to_string(),
                Some(domain) if taken_by.is_empty() => {
                    format!("domain {domain:?} would exceed the skew")
                }
                Some(domain) => format!(
                    "domain {domain:?} is already taken by {}",
                    taken_by.join(", ")
                ),
            };
            (
                Code::Spread,
                format!("kept out by {rule}: {why}; {}", score_text(score, feasible)),
            )
        }
        Verdict::CutByNumberOfClusters { score } => (
            Code::CutByNumberOfClusters,
            format!(
                "cut by numberOfClusters {wanted}: {}",
                score_text(score, feasible)
            ),
        ),
        Verdict::Selected {
            score,
            group_index,
            group_name,
            decision,
        } => {
            let group = if group_name.is_empty() {
                format!("group {group_index}")
            } else {
                format!("group {group_index} ({group_name})")
            };
            (
                Code::Selected,
                format!(
                    "{}; {group}, decision {decision}",
                    score_text(score, feasible)
                ),
            )
        }
    };
    let mut explained = ClusterVerdict::new(name, code == Code::Selected, code, reason);
    explained.score = score_of(verdict).cloned().map(ClusterScore::Ocm);
    if let Verdict::Selected {
        group_index,
        group_name,
        decision,
        ..
    } = verdict
    {
        explained.decision = Some(DecisionPlace {
            group_index: *group_index,
            group_name: group_name.clone(),
            name: decision.clone(),
        });
    }
    explained
}

/// How a Placement lands on `cluster` (`plan --cluster`): its decision group and
/// PlacementDecision object.
pub(crate) fn landing(result: &PlacementResult, cluster: &str) -> Option<String> {
    let placed = groups::placed(&result.decisions);
    let placed = placed.get(cluster)?;
    Some(format!(
        "group {}, {}",
        group_label(placed.group_index, placed.group_name),
        placed.decision
    ))
}

/// The plan table's rows of a Placement: its selected clusters with their score, rank, decision group and PlacementDecision object.
pub(crate) fn rows(item: &PlanItem, result: &PlacementResult) -> Rows {
    let placed = groups::placed(&result.decisions);
    let rows = item
        .clusters
        .iter()
        .map(|cluster| {
            let ranked = result
                .selected
                .binary_search(cluster)
                .ok()
                .and_then(|position| result.scores.get(position));
            match (ranked, placed.get(cluster)) {
                (Some(ranked), Some(placed)) => vec![
                    cluster.to_string(),
                    ranked.total.to_string(),
                    ranked.rank.to_string(),
                    group_label(placed.group_index, placed.group_name),
                    placed.decision.to_string(),
                ],
                _ => vec![cluster.to_string()],
            }
        })
        .collect();
    (
        header(&["CLUSTER", "SCORE", "RANK", "GROUP", "DECISION"]),
        rows,
    )
}

fn group_label(index: usize, name: &str) -> String {
    if name.is_empty() {
        index.to_string()
    } else {
        format!("{index} ({name})")
    }
}

/// Upstream's `DebugResult` (what a live hub serves at `/debug/placements/<ns>/<name>`).
/// Upstream's JSON key is misspelt `filteredPiplieResults`; it is kept so output diffs
/// cleanly against a hub, and the same list is also given under the correct spelling
/// `filteredPipelineResults` that readers look for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UpstreamDebug {
    #[serde(flatten)]
    pub upstream: DebugResult,
    pub filtered_pipeline_results: Vec<FilterResult>,
}

impl From<&DebugResult> for UpstreamDebug {
    fn from(upstream: &DebugResult) -> UpstreamDebug {
        UpstreamDebug {
            upstream: upstream.clone(),
            filtered_pipeline_results: upstream.filtered_pipeline_results.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ocm::trace::ScorePart;

    #[test]
    fn a_prioritizer_without_a_score_says_so_in_the_sum() {
        let score = Score {
            rank: 2,
            total: 100,
            parts: vec![
                ScorePart {
                    prioritizer: "Balance".to_string(),
                    score: Some(100),
                    weight: 1,
                },
                ScorePart {
                    prioritizer: "ResourceAllocatableCPU".to_string(),
                    score: None,
                    weight: 2,
                },
            ],
        };
        assert_eq!(
            score_text(&score, 3),
            "rank 2 of 3, score 100 = Balance 100×1 + ResourceAllocatableCPU (no score)×2"
        );
    }

    #[test]
    fn debug_carries_upstreams_key_and_the_correct_spelling() {
        let debug = UpstreamDebug::from(&DebugResult {
            filtered_pipeline_results: vec![FilterResult {
                name: "Predicate".to_string(),
                filtered_clusters: vec!["a".to_string()],
            }],
            ..DebugResult::default()
        });
        let value = serde_json::to_value(&debug).unwrap();
        assert_eq!(
            value["filteredPiplieResults"], value["filteredPipelineResults"],
            "{value}"
        );
        assert_eq!(value["filteredPipelineResults"][0]["name"], "Predicate");
        assert!(value["prioritizeResults"].is_array());
        assert!(value["aggregatedScores"].is_object());
    }
}
