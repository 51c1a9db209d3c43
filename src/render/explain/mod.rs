//! `explain`: one item of a plan run, cluster by cluster, rendered from the trace the engines
//! returned with the plan (never recomputed, so it cannot disagree with the plan).

#[cfg(test)]
mod agreement;
pub(crate) mod label_selection;
pub(crate) mod replicas;
mod text;

use super::{json_document, Unrepresentable};
use serde::Serialize;

use crate::model::{Cluster, Condition};
pub(crate) use crate::plan::Engine;
use crate::plan::{ItemTrace, ObjectRef, PlanItem};
use crate::registry::{ClusterScore, EngineDebug};

pub(crate) use text::text;

/// Everything `explain` says about one item, in a stable serializable shape (`-o json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Explanation {
    pub source: ObjectRef,
    /// Which engine chose the clusters.
    pub engine: Engine,
    /// One line: how many clusters were chosen, and by what.
    pub summary: String,
    /// Further lines a reader needs before the table (the selector, clustersets, conditions).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The answer to `--cluster`, one sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// One verdict per inventory cluster, sorted by name (one only with `--cluster`).
    pub clusters: Vec<ClusterVerdict>,
    /// Replica workloads: the planner's totals and weighted rounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<replicas::ReplicaRun>,
    /// What the item's engine shows of its run in its own shape (OCM Placements: upstream's
    /// debug result).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub debug: Option<EngineDebug>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
}

/// Why one cluster was or was not chosen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ClusterVerdict {
    pub cluster: String,
    pub selected: bool,
    pub verdict: Code,
    /// The reason in words, with the cluster's actual values.
    pub reason: String,
    /// The cluster's score by the item's engine (OCM Placements: rank, total and each
    /// prioritizer's score × weight).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<ClusterScore>,
    /// OCM Placements: where a selected cluster was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<DecisionPlace>,
    /// Replica workloads: what the planner did for this cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planner: Option<replicas::ClusterRun>,
}

/// A verdict's stable code: what `-o json` writes (camelCase) and the table's VERDICT
/// column shows. Scripts match on them, so a code is never renamed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum Code {
    Selected,
    // Label selection (federation, kubefed) and OCM's older placement kind.
    Offline,
    SelectorMismatch,
    NoSelector,
    NotNamed,
    NotSelected,
    NotListed,
    ConditionMismatch,
    CutByClusterReplicas,
    NoPreference,
    // OCM Placement.
    NotInEligibleSet,
    BeingDeleted,
    NotScheduled,
    NoPredicateMatched,
    TaintNotTolerated,
    TolerationExpired,
    Spread,
    CutByNumberOfClusters,
    // Karmada.
    NotClaimed,
    Deleting,
    Filtered,
    ZeroReplicas,
    // Placement consumers, and an item that failed.
    NotPlaced,
    Failed,
}

impl Code {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Code::Selected => "selected",
            Code::Offline => "offline",
            Code::SelectorMismatch => "selectorMismatch",
            Code::NoSelector => "noSelector",
            Code::NotNamed => "notNamed",
            Code::NotSelected => "notSelected",
            Code::NotListed => "notListed",
            Code::ConditionMismatch => "conditionMismatch",
            Code::CutByClusterReplicas => "cutByClusterReplicas",
            Code::NoPreference => "noPreference",
            Code::NotInEligibleSet => "notInEligibleSet",
            Code::BeingDeleted => "beingDeleted",
            Code::NotScheduled => "notScheduled",
            Code::NoPredicateMatched => "noPredicateMatched",
            Code::TaintNotTolerated => "taintNotTolerated",
            Code::TolerationExpired => "tolerationExpired",
            Code::Spread => "spread",
            Code::CutByNumberOfClusters => "cutByNumberOfClusters",
            Code::NotClaimed => "notClaimed",
            Code::Deleting => "deleting",
            Code::Filtered => "filtered",
            Code::ZeroReplicas => "zeroReplicas",
            Code::NotPlaced => "notPlaced",
            Code::Failed => "failed",
        }
    }
}

impl ClusterVerdict {
    pub(crate) fn new(
        cluster: &str,
        selected: bool,
        verdict: Code,
        reason: String,
    ) -> ClusterVerdict {
        ClusterVerdict {
            cluster: cluster.to_string(),
            selected,
            verdict,
            reason,
            score: None,
            decision: None,
            planner: None,
        }
    }

    /// `NAME was selected: REASON.`
    pub(crate) fn sentence(&self) -> String {
        let was = if self.selected {
            "was selected"
        } else {
            "was not selected"
        };
        let reason = self.reason.trim_end_matches('.');
        format!("{} {was}: {reason}.", self.cluster)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DecisionPlace {
    pub group_index: usize,
    pub group_name: String,
    /// The hub's decision object.
    pub name: String,
}

/// Explains one item of a plan run from its trace. `clusters` is the inventory the run used
/// (its order gives the dense ids of selection traces).
pub(crate) fn explain(item: &PlanItem, trace: &ItemTrace, clusters: &[Cluster]) -> Explanation {
    let mut explanation = Explanation {
        source: item.source.clone(),
        engine: trace.engine(),
        summary: String::new(),
        notes: Vec::new(),
        answer: None,
        clusters: Vec::new(),
        replicas: None,
        debug: None,
        conditions: item.conditions.clone(),
        errors: item.errors.clone(),
    };
    crate::registry::explain(&mut explanation, item, trace, clusters);
    explanation
        .clusters
        .sort_by(|a, b| a.cluster.cmp(&b.cluster));
    explanation
}

/// An item that failed before any engine ran: every cluster unselected, for its first error.
pub(crate) fn failed(explanation: &mut Explanation, item: &PlanItem, clusters: &[Cluster]) {
    explanation.summary =
        "the item failed before any engine ran: no cluster is selected".to_string();
    let reason = match item.errors.first() {
        Some(error) => format!("the item failed: {error}"),
        None => "the item failed".to_string(),
    };
    explanation.clusters = clusters
        .iter()
        .map(|cluster| ClusterVerdict::new(&cluster.name, false, Code::Failed, reason.clone()))
        .collect();
}

impl Explanation {
    /// Keeps only `cluster`'s verdict (already checked to exist) and answers in one sentence.
    pub(crate) fn narrow(&mut self, cluster: &str) {
        self.clusters.retain(|verdict| verdict.cluster == cluster);
        self.answer = self.clusters.first().map(ClusterVerdict::sentence);
        if let Some(run) = &mut self.replicas {
            run.narrow(cluster);
        }
    }

    pub(crate) fn verdict(&self, cluster: &str) -> Option<&ClusterVerdict> {
        self.clusters
            .iter()
            .find(|verdict| verdict.cluster == cluster)
    }
}

pub(crate) fn json(explanation: &Explanation) -> Result<String, Unrepresentable> {
    json_document(explanation)
}

/// Names joined by commas, or "none".
pub(crate) fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

/// "1 cluster" / "3 clusters".
pub(crate) fn clusters_text(count: usize) -> String {
    match count {
        1 => "1 cluster".to_string(),
        n => format!("{n} clusters"),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An explanation before any engine filled it in.
    pub(crate) fn empty() -> Explanation {
        explain(&PlanItem::default(), &ItemTrace::Failed, &[])
    }

    /// `-o json` and the table show the same code.
    #[test]
    fn a_code_serializes_as_it_reads() {
        for code in [
            Code::Selected,
            Code::NotInEligibleSet,
            Code::CutByNumberOfClusters,
            Code::NoPreference,
            Code::ZeroReplicas,
            Code::Failed,
        ] {
            let json = serde_json::to_string(&code).ok();
            assert_eq!(json, Some(format!("\"{}\"", code.as_str())));
        }
    }

    #[test]
    fn the_sentence_says_whether_and_why() {
        let verdict = ClusterVerdict::new("a", false, Code::Offline, "offline".to_string());
        assert_eq!(verdict.sentence(), "a was not selected: offline.");
    }
}
