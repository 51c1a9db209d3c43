//! KubeFleet's render pieces: `explain` of a placement cluster by cluster (the filter that
//! rejected it and upstream's reason, or its score and rank, and PickN's tie-break), and the
//! rows of its block in the plan table.

use super::item::NotScheduled;
use super::model::policy::PlacementType;
use super::plan::{KubeFleetTrace, Verdict};
use super::stages::DELETE_STAGE;
use crate::model::PlanItem;
use crate::render::explain::{ClusterVerdict, Code, Explanation};
use crate::render::plan::Rows;

/// The column headers and rows of a KubeFleet item in the plan table: each selected cluster
/// with its recorded score, its stage and the overrides that apply to it, then each cluster
/// whose binding the scheduler marks Unscheduled.
pub(crate) fn rows(item: &PlanItem) -> Rows {
    let header = ["CLUSTER", "AFFINITY", "SPREAD", "STAGE", "OVERRIDES"]
        .iter()
        .map(|name| name.to_string())
        .collect();
    let score = |value: Option<i32>| value.map(|value| value.to_string()).unwrap_or_default();
    let fields = &item.api.kubefleet;
    let mut rows: Vec<Vec<String>> = item
        .clusters
        .iter()
        .map(|cluster| {
            let recorded = fields.scores.get(cluster);
            let stage = stage_of(item, cluster);
            let overrides = fields
                .overrides
                .get(cluster)
                .map(|found| {
                    let mut names = found.cluster_resource_overrides.clone();
                    names.extend(found.resource_overrides.iter().cloned());
                    names.join(", ")
                })
                .unwrap_or_default();
            vec![
                cluster.to_string(),
                score(recorded.and_then(|recorded| recorded.affinity_score)),
                score(recorded.and_then(|recorded| recorded.priority_score)),
                stage,
                overrides,
            ]
        })
        .collect();
    rows.extend(fields.removed.iter().map(|cluster| {
        vec![
            format!("{cluster} (removed)"),
            String::new(),
            String::new(),
            stage_of(item, cluster),
            String::new(),
        ]
    }));
    (header, rows)
}

/// The stages of the item's staged update runs that update `cluster` (the deletion stage for
/// a cluster whose binding is Unscheduled), one per run; empty without a run.
fn stage_of(item: &PlanItem, cluster: &str) -> String {
    let stages: Vec<&str> = item
        .api
        .kubefleet
        .stages
        .iter()
        .filter(|stage| stage.clusters.iter().any(|name| name == cluster))
        .map(|stage| stage.name.as_str())
        .collect();
    stages.join(", ")
}

fn verdict(cluster: &str, selected: bool, code: Code, reason: String) -> ClusterVerdict {
    ClusterVerdict {
        cluster: cluster.to_string(),
        selected,
        verdict: code,
        reason,
        score: None,
        decision: None,
        planner: None,
    }
}

fn policy_text(trace: &KubeFleetTrace) -> String {
    match (trace.placement_type, trace.wanted) {
        (PlacementType::PickN, Some(wanted)) => format!("PickN of {wanted}"),
        (PlacementType::PickFixed, Some(wanted)) => format!("PickFixed of {wanted} named"),
        (placement_type, _) => placement_type.as_str().to_string(),
    }
}

/// Fills `explanation` for a KubeFleet item from its trace.
pub(crate) fn explain(explanation: &mut Explanation, item: &PlanItem, trace: &KubeFleetTrace) {
    let selected = item.clusters.len();
    let clusters = if selected == 1 {
        "1 cluster".to_string()
    } else {
        format!("{selected} clusters")
    };
    if let Some(why) = &trace.not_scheduled {
        let (summary, reason) = match why {
            NotScheduled::Refused => (
                "refused at admission".to_string(),
                "the placement was refused at admission".to_string(),
            ),
            NotScheduled::SeveralLatest(count) => (
                format!("{count} policy snapshots labelled latest"),
                format!("the hub schedules nothing while {count} policy snapshots of the placement are labelled latest"),
            ),
        };
        explanation.summary = format!("{}: {summary}, not scheduled", policy_text(trace));
        explanation.clusters = trace
            .clusters
            .iter()
            .map(|(name, _)| verdict(name, false, Code::Failed, reason.clone()))
            .collect();
        return;
    }
    let condition = item
        .conditions
        .first()
        .map(|condition| {
            format!(
                "; {}={} ({}): {}",
                condition.type_,
                condition.status.as_str(),
                condition.reason,
                condition.message
            )
        })
        .unwrap_or_default();
    explanation.summary = format!("{}: {clusters} selected{condition}", policy_text(trace));
    notes(explanation, item, trace);
    explanation.clusters = trace
        .clusters
        .iter()
        .map(|(name, outcome)| {
            let mut verdict = cluster_verdict(name, outcome, trace);
            if let Some(edits) = trace.edits.get(name) {
                verdict.reason = format!("{}; what-if {}", verdict.reason, edits.join(", "));
            }
            verdict
        })
        .collect();
}

fn notes(explanation: &mut Explanation, item: &PlanItem, trace: &KubeFleetTrace) {
    let notes = &mut explanation.notes;
    if trace.new_snapshot {
        notes.push(format!(
            "the policy differs from the latest snapshot's: the hub makes snapshot {}, and every existing binding is obsolete",
            trace.snapshot
        ));
    } else {
        notes.push(format!("policy snapshot {}", trace.snapshot));
    }
    if trace.cycles > 1 {
        notes.push(format!(
            "{} scheduling cycles (the hub requeues while a batch-limited PickN fills its batch; the verdicts are the last cycle's)",
            trace.cycles
        ));
    }
    if !trace.edits.is_empty() {
        notes.push(
            "what-if: the hub keeps a current binding on a cluster that is relabelled, tainted or goes offline (only a policy change, which makes a new snapshot, a smaller numberOfClusters or a leaving cluster removes one); the edits change where new bindings go".to_string(),
        );
    }
    if let Some(note) = tie_break(trace) {
        notes.push(note);
    }
    if !item.api.kubefleet.removed.is_empty() {
        notes.push(format!(
            "bindings marked Unscheduled: {}",
            item.api.kubefleet.removed.join(", ")
        ));
    }
    for failed in &trace.schedule_failed {
        notes.push(format!(
            "placement status: Scheduled=False ({}): {}",
            failed.reason, failed.message
        ));
    }
    for stage in &item.api.kubefleet.stages {
        // Among several runs, `<run>/kubernetes-fleet.io/deleteStage`.
        let what = if stage.name.ends_with(DELETE_STAGE) {
            " (the deletion stage: after every stage, removes the resources from the clusters whose bindings are Unscheduled)"
        } else {
            ""
        };
        notes.push(format!(
            "stage {}{what}: {}",
            stage.name,
            if stage.clusters.is_empty() {
                "no cluster".to_string()
            } else {
                stage.clusters.join(", ")
            }
        ));
    }
}

/// PickN: when the best cluster not picked scored the same as a picked one, the larger name
/// won (`ScoredClusters.Less` sorts ties by name, and the pick takes them in reverse).
fn tie_break(trace: &KubeFleetTrace) -> Option<String> {
    if trace.placement_type != PlacementType::PickN {
        return None;
    }
    let (loser, score) = trace
        .clusters
        .iter()
        .find_map(|(name, outcome)| match outcome {
            Verdict::NotPicked { score, rank: 1, .. } => Some((name, score)),
            _ => None,
        })?;
    let winners: Vec<&str> = trace
        .clusters
        .iter()
        .filter_map(|(name, outcome)| match outcome {
            Verdict::Selected(Some(recorded))
                if recorded.affinity_score == Some(score.affinity)
                    && recorded.priority_score == Some(score.topology_spread)
                    && name > loser =>
            {
                Some(name.as_str())
            }
            _ => None,
        })
        .collect();
    (!winners.is_empty()).then(|| {
        format!(
            "tie-break: {loser} scored the same as {} and lost on its name (on equal scores the larger name wins)",
            winners.join(", ")
        )
    })
}

fn cluster_verdict(name: &str, outcome: &Verdict, trace: &KubeFleetTrace) -> ClusterVerdict {
    match outcome {
        Verdict::Selected(recorded) => {
            let decision = trace
                .decisions
                .iter()
                .find(|decision| decision.selected && decision.cluster_name == name);
            let reason = match (decision, recorded) {
                (Some(decision), _) => decision.reason.clone(),
                (None, Some(recorded)) => format!(
                    "holds a current binding (affinity score: {}, topology spread score: {})",
                    recorded.affinity_score.unwrap_or_default(),
                    recorded.priority_score.unwrap_or_default()
                ),
                (None, None) => "holds a current binding".to_string(),
            };
            verdict(name, true, Code::Selected, reason)
        }
        Verdict::Filtered { plugin, reason } => {
            verdict(name, false, Code::Filtered, format!("{plugin}: {reason}"))
        }
        Verdict::NotPicked { score, rank, of } => verdict(
            name,
            false,
            Code::CutByNumberOfClusters,
            format!(
                "does not score high enough: topology spread score {}, affinity score {}, obsolete placement affinity score {}; rank {rank} of the {of} scored clusters not picked",
                score.topology_spread, score.affinity, score.obsolete_placement_affinity
            ),
        ),
        Verdict::NotConsidered if trace.failed => verdict(
            name,
            false,
            Code::NotSelected,
            "not considered: the scheduling cycle failed".to_string(),
        ),
        Verdict::NotConsidered => match trace.placement_type {
            PlacementType::PickFixed => verdict(
                name,
                false,
                Code::NotNamed,
                "not in spec.policy.clusterNames".to_string(),
            ),
            PlacementType::PickN => verdict(
                name,
                false,
                Code::NotSelected,
                "not considered: the placement already holds as many current bindings as numberOfClusters asks for, so the last cycle picked no cluster".to_string(),
            ),
            PlacementType::PickAll => verdict(
                name,
                false,
                Code::NotSelected,
                "not considered by the last cycle".to_string(),
            ),
        },
    }
}
