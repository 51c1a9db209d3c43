//! Karmada: which policy claimed the resource and why the others did not, the previous
//! binding, each affinity term tried, every cluster's filter verdict, score and available
//! replicas, the spread selection and the division step by step.

pub(crate) mod bindings;

use super::fields::KarmadaFields;
use super::plan::{BindingTrace, KarmadaTrace};
use crate::karmada::assignment::{Division, Target};
use crate::karmada::detector::ImplicitPriority;
use crate::karmada::filter::Verdict;
use crate::karmada::model::{KarmadaCluster, TargetCluster};
use crate::karmada::scheduler::Attempt;
use crate::karmada::spread::{ClusterDetail, Selection};
use crate::karmada::Claim;
use crate::plan::PlanItem;
use crate::render::plan::{header, Rows};

use crate::render::explain::{clusters_text, list, ClusterVerdict, Code, Explanation};

pub(crate) fn explain(explanation: &mut Explanation, trace: &KarmadaTrace) {
    verdicts(explanation, trace);
    // What-if flags: said on the cluster they changed, whatever its verdict.
    for (verdict, cluster) in explanation.clusters.iter_mut().zip(trace.clusters) {
        if !cluster.edits.is_empty() {
            verdict.reason = format!("{}; what-if {}", verdict.reason, cluster.edits.join(", "));
        }
    }
}

fn verdicts(explanation: &mut Explanation, trace: &KarmadaTrace) {
    let total = trace.clusters.len();
    claim_notes(explanation, trace);
    let Some(outcome) = &trace.outcome else {
        explanation.summary = match &trace.claim {
            Claim::Blocked { why } => format!("not scheduled: {why}"),
            Claim::Unclaimed { why } => format!("no binding: {why}"),
            Claim::Claimed { .. } => "not scheduled".to_string(),
        };
        explanation.clusters = trace
            .clusters
            .iter()
            .map(|cluster| {
                ClusterVerdict::new(
                    &cluster.name,
                    false,
                    Code::NotClaimed,
                    "no policy schedules the resource".to_string(),
                )
            })
            .collect();
        return;
    };
    if let Some(binding) = &trace.binding {
        binding_notes(explanation, binding);
    }
    explanation.summary = format!(
        "{} of {}: Scheduled={} ({}): {}",
        clusters_text(outcome.clusters.len()),
        clusters_text(total),
        if outcome.scheduled() { "True" } else { "False" },
        outcome.reason.as_str(),
        outcome.message
    );
    for attempt in &outcome.attempts {
        attempt_notes(explanation, attempt, trace.clusters);
    }
    // The verdicts of the attempt that decided: the one that succeeded, else the first.
    let decisive = outcome
        .attempts
        .iter()
        .find(|attempt| attempt.result.is_ok())
        .or_else(|| outcome.attempts.first());
    let results = outcome.clusters.replicas_by_index(trace.clusters);
    let Some(attempt) = decisive else {
        explanation.clusters = trace
            .clusters
            .iter()
            .zip(&results)
            .map(|(cluster, result)| {
                ClusterVerdict::new(
                    &cluster.name,
                    result.is_some(),
                    Code::NotScheduled,
                    "no affinity term was tried".to_string(),
                )
            })
            .collect();
        return;
    };
    explanation.clusters = cluster_verdicts(trace, &outcome.attempts, attempt, results);
}

/// What explain says of the binding before this run: its previous result, a triggered
/// reschedule, the affinity term it had observed.
fn binding_notes(explanation: &mut Explanation, binding: &BindingTrace) {
    explanation.notes.push(match &binding.from {
        Some(from) => format!(
            "binding {}: previous spec.clusters {} (from {from})",
            binding.name,
            targets(&binding.clusters)
        ),
        None => format!(
            "binding {}: no previous result (a first schedule)",
            binding.name
        ),
    });
    if binding.reschedule {
        explanation
            .notes
            .push("a reschedule was triggered (rescheduleTriggeredAt is after lastScheduledTime): fresh division, affinity terms from the first".to_string());
    }
    if let Some(term) = &binding.observed_affinity {
        explanation
            .notes
            .push(format!("observed affinity term before this run: {term}"));
    }
}

/// Every cluster's verdict in the attempt that decided (`attempt`, one of `attempts`), with
/// what each earlier affinity term made of it when the cluster was feasible there but the
/// term failed. `results` is each cluster's replicas in the outcome.
fn cluster_verdicts(
    trace: &KarmadaTrace,
    attempts: &[Attempt],
    attempt: &Attempt,
    results: Vec<Option<i64>>,
) -> Vec<ClusterVerdict> {
    let total = trace.clusters.len();
    let decisive = ByIndex::new(attempt, total);
    let earlier: Vec<(&Attempt, ByIndex)> = attempts
        .iter()
        .filter(|a| !std::ptr::eq(*a, attempt))
        .map(|earlier| (earlier, ByIndex::new(earlier, total)))
        .collect();
    trace
        .clusters
        .iter()
        .zip(results)
        .enumerate()
        .map(|(index, (cluster, result))| {
            let mut verdict = verdict(attempt, &decisive, index, &cluster.name, result);
            if let Some(term) = &attempt.term {
                verdict.reason = format!("affinity term {term}: {}", verdict.reason);
            }
            for (earlier, by_index) in &earlier {
                if let (Some(term), Some(detail), Err(failure)) = (
                    &earlier.term,
                    by_index.feasible[index],
                    &earlier.result,
                ) {
                    verdict.reason.push_str(&format!(
                        "; in affinity term {term} it was feasible (available replicas {}) but the term failed: {}",
                        detail.available, failure.message
                    ));
                }
            }
            verdict
        })
        .collect()
}

fn claim_notes(explanation: &mut Explanation, trace: &KarmadaTrace) {
    let chosen = match &trace.claim {
        Claim::Claimed { policy, how } => {
            explanation
                .notes
                .push(format!("claimed by {}: {how}", policy.reference()));
            Some(policy.reference())
        }
        Claim::Unclaimed { why } | Claim::Blocked { why } => {
            explanation.notes.push(format!("not claimed: {why}"));
            None
        }
    };
    for candidate in &trace.candidates {
        let reference = candidate.policy.reference();
        if Some(&reference) == chosen.as_ref() {
            continue;
        }
        let why = match candidate.skipped {
            Some(skipped) => skipped.to_string(),
            None if candidate.implicit == ImplicitPriority::MisMatch => {
                "no resource selector matches".to_string()
            }
            None => format!(
                "lost: priority {}, {} (explicit priority, then how the selector matched, then the name decide)",
                candidate.policy.priority,
                candidate.implicit.as_str()
            ),
        };
        explanation.notes.push(format!("  {reference}: {why}"));
    }
}

fn attempt_notes(explanation: &mut Explanation, attempt: &Attempt, fleet: &[KarmadaCluster]) {
    let term = attempt
        .term
        .as_ref()
        .map_or(String::new(), |term| format!("affinity term {term}: "));
    let result = match &attempt.result {
        Ok(clusters) => format!("scheduled to {}", placed(clusters, fleet)),
        Err(failure) => format!("failed ({}): {}", failure.reason.as_str(), failure.message),
    };
    explanation.notes.push(format!("{term}{result}"));
    if let Some(selection) = &attempt.selection {
        explanation
            .notes
            .push(format!("  selection: {}", selection_text(selection)));
    }
    if let Some(strategy) = attempt.strategy {
        explanation
            .notes
            .push(format!("  division: {}", strategy.as_str()));
    }
    for division in &attempt.divisions {
        division_notes(explanation, division, fleet);
    }
}

fn selection_text(selection: &Selection) -> String {
    match selection {
        Selection::All { why } => format!("every feasible cluster ({why})"),
        Selection::ByCluster {
            min_groups,
            max_groups,
            need,
            swaps,
        } => {
            let mut text = format!(
                "cluster spread constraint minGroups {min_groups}, maxGroups {max_groups}: the first {need} in order"
            );
            for (out, into) in swaps {
                text.push_str(&format!(
                    "; swapped {out} for {into} (more available replicas)"
                ));
            }
            text
        }
        Selection::ByRegion { groups, chosen } => {
            let regions: Vec<String> = groups
                .iter()
                .map(|group| {
                    format!(
                        "{} (weight {}: {})",
                        group.name,
                        group.weight,
                        group.clusters.join(", ")
                    )
                })
                .collect();
            format!("regions {}; chosen {}", regions.join(", "), list(chosen))
        }
    }
}

fn division_notes(explanation: &mut Explanation, division: &Division, fleet: &[KarmadaCluster]) {
    let tier = if division.tier > 0 {
        format!("overflow tier {}: ", division.tier)
    } else {
        String::new()
    };
    let step = division
        .step
        .map_or(String::new(), |step| format!("{}: ", step.as_str()));
    let weights: Vec<String> = division
        .weights
        .iter()
        .map(|(name, weight)| format!("{name}={weight}"))
        .collect();
    explanation.notes.push(format!(
        "  {tier}{step}{} replicas by weights {}",
        division.target,
        if weights.is_empty() {
            "none".to_string()
        } else {
            weights.join(", ")
        }
    ));
    if !division.kept.is_empty() {
        explanation.notes.push(format!(
            "    added to the replicas kept: {}",
            placed(&division.kept, fleet)
        ));
    }
    // The division records its first seats only (a 10k-replica division has 10k seats).
    for (seat, round) in division.rounds.iter().enumerate() {
        explanation.notes.push(format!(
            "    Webster seat {}: {} (priority {:.4} = weight / (2×{} + 1))",
            seat + 1,
            round.party,
            round.priority,
            round.seats_before
        ));
    }
    let shown = division.rounds.len() as i64;
    if shown > 0 && division.target > shown {
        explanation
            .notes
            .push(format!("    ... {} more seats", division.target - shown));
    }
}

/// An attempt's feasible and selected clusters by fleet index, found in one walk each: a
/// search per cluster was quadratic in a large fleet.
struct ByIndex<'t, 'a> {
    feasible: Vec<Option<&'t ClusterDetail<'a>>>,
    selected: Vec<bool>,
}

impl<'t, 'a> ByIndex<'t, 'a> {
    fn new(attempt: &'t Attempt<'a>, clusters: usize) -> Self {
        let mut feasible = vec![None; clusters];
        // Backwards, so a cluster's first detail is the one left.
        for detail in attempt.feasible.iter().rev() {
            if let Some(slot) = feasible.get_mut(detail.index) {
                *slot = Some(detail);
            }
        }
        let mut selected = vec![false; clusters];
        for detail in &attempt.selected {
            if let Some(slot) = selected.get_mut(detail.index) {
                *slot = true;
            }
        }
        ByIndex { feasible, selected }
    }
}

fn verdict(
    attempt: &Attempt,
    by_index: &ByIndex,
    index: usize,
    name: &str,
    result: Option<i64>,
) -> ClusterVerdict {
    let detail = by_index.feasible[index];
    let scores = detail.map(|detail| {
        format!(
            "score {}, available replicas {} (estimate {} + already there {})",
            detail.score,
            detail.available,
            detail.allocatable,
            detail.available - detail.allocatable
        )
    });
    if let Some(replicas) = result {
        let reason = match &scores {
            Some(scores) => format!("{replicas} replicas; {scores}"),
            None => format!("{replicas} replicas (kept from the previous binding)"),
        };
        return ClusterVerdict::new(name, true, Code::Selected, reason);
    }
    match attempt.verdicts.get(index) {
        Some(Verdict::Deleting) => ClusterVerdict::new(
            name,
            false,
            Code::Deleting,
            "being deleted: skipped before the filters (still counted in N)".to_string(),
        ),
        Some(Verdict::Unfit { plugin, reason }) => {
            ClusterVerdict::new(name, false, Code::Filtered, format!("{plugin}: {reason}"))
        }
        _ => {
            let selected = by_index.selected[index];
            let scores = scores.unwrap_or_default();
            if selected {
                let why = match &attempt.result {
                    Ok(_) => {
                        "selected but divided 0 replicas (clusters at 0 are removed)".to_string()
                    }
                    Err(failure) => format!("selected, then: {}", failure.message),
                };
                ClusterVerdict::new(name, false, Code::ZeroReplicas, format!("{why}; {scores}"))
            } else if attempt.selection.is_some() {
                ClusterVerdict::new(
                    name,
                    false,
                    Code::NotSelected,
                    format!("feasible but left out by the spread selection; {scores}"),
                )
            } else {
                ClusterVerdict::new(
                    name,
                    false,
                    Code::NotScheduled,
                    "feasible; the run failed before selection".to_string(),
                )
            }
        }
    }
}

fn targets(clusters: &[TargetCluster]) -> String {
    pairs(
        clusters
            .iter()
            .map(|cluster| (cluster.name.as_str(), cluster.replicas)),
    )
}

/// A result on the fleet's clusters, in its own order.
fn placed(clusters: &[Target], fleet: &[KarmadaCluster]) -> String {
    pairs(
        clusters
            .iter()
            .map(|target| (fleet[target.index as usize].name.as_str(), target.replicas)),
    )
}

fn pairs<'n>(clusters: impl Iterator<Item = (&'n str, i64)>) -> String {
    let parts: Vec<String> = clusters
        .map(|(name, replicas)| format!("{name}:{replicas}"))
        .collect();
    if parts.is_empty() {
        "none".to_string()
    } else {
        parts.join(", ")
    }
}

/// How a Karmada resource lands (`plan --cluster`): claimed by its policy.
pub(crate) fn claimed_by(fields: &KarmadaFields) -> Option<String> {
    let policy = fields.policy.as_ref()?;
    Some(format!("claimed by {policy}"))
}

/// The plan table's rows of a Karmada resource: each cluster of the binding with its replicas, after the claiming policy.
pub(crate) fn rows(item: &PlanItem) -> Rows {
    let rows = item
        .clusters
        .iter()
        .map(|cluster| {
            vec![
                cluster.to_string(),
                item.replicas.get(cluster).copied().unwrap_or(0).to_string(),
                item.selection.karmada.policy.clone().unwrap_or_default(),
            ]
        })
        .collect();
    (header(&["CLUSTER", "REPLICAS", "POLICY"]), rows)
}
