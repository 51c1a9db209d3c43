//! What `explain` renders: one verdict per cluster, plus upstream's debug shape
//! (`/debug/placements/<ns>/<name>` on a live hub) so the two can be compared.

use std::collections::BTreeMap;

use serde::Serialize;

/// Why a cluster was or was not selected. Exactly one per cluster of the inventory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "camelCase")]
pub enum Verdict {
    /// Not a member of any eligible clusterset (`PlacementResult::eligible_sets`).
    NotInEligibleSet,
    BeingDeleted,
    /// Scheduling stopped before judging clusters (misconfigured placement, scheduling error).
    NotScheduled {
        reason: String,
    },
    /// Per predicate, the first requirement that failed, with the cluster's actual value.
    NoPredicateMatched {
        reasons: Vec<String>,
    },
    TaintNotTolerated {
        taint: String,
    },
    /// A toleration matched but its `tolerationSeconds` ran out at `at` (Unix seconds).
    TolerationExpired {
        taint: String,
        at: i64,
    },
    /// Kept out by a spread constraint or the seed's anti-affinity (a fleetplan extension:
    /// upstream's scheduler implements neither). `domain` is `None` when the cluster lacks
    /// the topology key.
    Spread {
        rule: String,
        domain: Option<String>,
        taken_by: Vec<String>,
        score: Score,
    },
    CutByNumberOfClusters {
        score: Score,
    },
    Selected {
        score: Score,
        group_index: usize,
        group_name: String,
        decision: String,
    },
}

/// A feasible cluster's place in the score order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Score {
    /// 1-based position in the order (total descending, then name).
    pub rank: usize,
    pub total: i64,
    pub parts: Vec<ScorePart>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScorePart {
    pub prioritizer: String,
    /// `None` when the prioritizer gave this cluster no score (it adds 0).
    pub score: Option<i64>,
    pub weight: i32,
}

/// Upstream's `FilterResult`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FilterResult {
    /// The filters applied so far, comma-joined (`Predicate`, `Predicate,TaintToleration`).
    pub name: String,
    pub filtered_clusters: Vec<String>,
}

/// Upstream's `PrioritizerResult`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PrioritizerResult {
    pub name: String,
    pub weight: i32,
    pub scores: BTreeMap<String, i64>,
}

/// Upstream's debugger `DebugResult`; its JSON key keeps upstream's spelling
/// (`filteredPiplieResults`) so output diffs cleanly against a live hub.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DebugResult {
    #[serde(rename = "filteredPiplieResults")]
    pub filtered_pipeline_results: Vec<FilterResult>,
    pub prioritize_results: Vec<PrioritizerResult>,
    pub aggregated_scores: BTreeMap<String, i64>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Trace {
    pub verdicts: BTreeMap<String, Verdict>,
    pub debug: DebugResult,
}
