//! Replica workloads: per cluster the preference it used, its place in the hash order, the
//! minimum it was given, replicas kept where they run (`rebalance: false`), and each weighted
//! round's shares, caps and overflow.

use std::collections::HashMap;

use serde::Serialize;

use crate::plan::PlanItem;
use crate::replicas::{ClusterTrace, PreferenceSource, ReplicaTrace, RoundTrace};

use super::{clusters_text, Code, Explanation};

/// The planner's run as a whole.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReplicaRun {
    pub total: i64,
    pub rebalance: bool,
    /// The preferences had no cluster entries, so `{"*": {weight: 1}}` was used.
    pub defaulted: bool,
    pub assigned: i64,
    pub unassigned: i64,
    pub rounds: Vec<Round>,
}

/// One weighted round (or several identical ones, see `repeated`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Round {
    /// 1-based number of the (first) round.
    pub round: i64,
    /// Rounds whose shares were all absorbed by kept replicas repeat unchanged; this entry
    /// stands for that many.
    pub repeated: i64,
    /// Replicas left to distribute at the start of the round.
    pub remaining: i64,
    /// Sum of the weights still in play.
    pub weight_sum: i128,
    pub shares: Vec<Share>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Share {
    pub cluster: String,
    /// `min(ceil(remaining × weight / weightSum), left)`.
    pub share: i64,
    /// Taken from replicas kept where they run instead of adding new ones.
    pub absorbed: i64,
    pub added: i64,
    pub hit_max: bool,
    pub hit_capacity: bool,
}

/// What the planner did for one cluster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ClusterRun {
    /// `own`, `*`, or `* (default)`.
    pub preference: String,
    pub min_replicas: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_replicas: Option<i64>,
    pub weight: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capacity: Option<i64>,
    /// FNV-1 32 of the cluster name followed by `namespace/name`, in hex.
    pub hash: String,
    /// 1-based place in the planner's order (weight descending, hash ascending).
    pub position: usize,
    /// Given by the minimum step.
    pub minimum: i64,
    /// Kept because they already run there (`rebalance: false`).
    pub kept: i64,
    /// The round in which max or capacity took the cluster out of play.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full_in_round: Option<i64>,
    /// `max` or `capacity`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full_at: Option<String>,
    /// Replicas asked beyond capacity, as the plan reports them.
    pub overflow: i64,
    pub replicas: i64,
}

impl ReplicaRun {
    /// Keeps only `cluster`'s shares, and only the rounds it had one in.
    pub(crate) fn narrow(&mut self, cluster: &str) {
        for round in &mut self.rounds {
            round.shares.retain(|share| share.cluster == cluster);
        }
        self.rounds.retain(|round| !round.shares.is_empty());
    }
}

impl Round {
    /// `3`, or `3-5` for a repeated round.
    pub(crate) fn label(&self) -> String {
        if self.repeated > 1 {
            format!(
                "{}-{}",
                self.round,
                self.round.saturating_add(self.repeated - 1)
            )
        } else {
            self.round.to_string()
        }
    }
}

impl Share {
    /// `+3`, with what limited it: `+2 (1 absorbed, max)`.
    pub(crate) fn text(&self) -> String {
        let mut notes = Vec::new();
        if self.absorbed > 0 {
            notes.push(format!("{} absorbed", self.absorbed));
        }
        if self.hit_max {
            notes.push("max".to_string());
        }
        if self.hit_capacity {
            notes.push("capacity".to_string());
        }
        let added = format!("{:+}", self.added);
        if notes.is_empty() {
            added
        } else {
            format!("{added} ({})", notes.join(", "))
        }
    }
}

pub(crate) fn explain(explanation: &mut Explanation, item: &PlanItem, trace: &ReplicaTrace) {
    let rounds = rounds(trace);
    let by_name: HashMap<&str, &ClusterTrace> = trace
        .clusters
        .iter()
        .map(|cluster| (cluster.cluster, cluster))
        .collect();
    let ordered = trace
        .clusters
        .iter()
        .filter(|cluster| cluster.position.is_some())
        .count();
    let mut taking_part = 0;
    for verdict in &mut explanation.clusters {
        if !verdict.selected {
            continue;
        }
        let Some(cluster) = by_name.get(verdict.cluster.as_str()) else {
            continue;
        };
        if cluster.source == PreferenceSource::None {
            verdict.selected = false;
            verdict.verdict = Code::NoPreference;
            verdict.reason =
                "available, but the preferences have neither an entry for it nor \"*\"".to_string();
            continue;
        }
        taking_part += 1;
        let overflow = item.overflow.get(cluster.cluster).copied().unwrap_or(0);
        let run = cluster_run(cluster, trace, &rounds, overflow);
        verdict.reason = reason(&run, cluster.cluster, ordered, &rounds);
        verdict.planner = Some(run);
    }
    let assigned: i64 = trace
        .clusters
        .iter()
        .map(|cluster| cluster.replicas)
        .fold(0, i64::saturating_add);
    let unassigned = trace.total.saturating_sub(assigned).max(0);
    let selection = std::mem::take(&mut explanation.summary);
    explanation.summary = format!(
        "{assigned} of {} replicas over {} (rebalance: {}){}",
        trace.total,
        clusters_text(taking_part),
        trace.rebalance,
        if unassigned > 0 {
            format!(", {unassigned} unassigned")
        } else {
            String::new()
        }
    );
    explanation.notes.push(format!("available: {selection}"));
    if trace.defaulted {
        explanation
            .notes
            .push("preferences: no cluster entries, so {\"*\": {weight: 1}} is used".to_string());
    }
    explanation.notes.push(
        "order: weight descending, then FNV-1 32 of cluster name + namespace/name ascending"
            .to_string(),
    );
    explanation.replicas = Some(ReplicaRun {
        total: trace.total,
        rebalance: trace.rebalance,
        defaulted: trace.defaulted,
        assigned,
        unassigned,
        rounds,
    });
}

fn rounds(trace: &ReplicaTrace) -> Vec<Round> {
    let mut number: i64 = 1;
    trace
        .rounds
        .iter()
        .map(|round: &RoundTrace| {
            let entry = Round {
                round: number,
                repeated: round.repeated,
                remaining: round.remaining,
                weight_sum: round.weight_sum,
                shares: trace
                    .round_shares(round)
                    .iter()
                    .filter_map(|share| {
                        let cluster = trace.clusters.get(share.cluster)?;
                        Some(Share {
                            cluster: cluster.cluster.to_string(),
                            share: share.share,
                            absorbed: share.absorbed,
                            added: share.added,
                            hit_max: share.hit_max,
                            hit_capacity: share.hit_capacity,
                        })
                    })
                    .collect(),
            };
            number = number.saturating_add(round.repeated.max(1));
            entry
        })
        .collect()
}

fn cluster_run(
    cluster: &ClusterTrace,
    trace: &ReplicaTrace,
    rounds: &[Round],
    overflow: i64,
) -> ClusterRun {
    let full = cluster.full_in_round.and_then(|index| rounds.get(index));
    let full_at = full
        .and_then(|round| round.shares.iter().find(|s| s.cluster == cluster.cluster))
        .map(|share| {
            if share.hit_capacity {
                "capacity"
            } else {
                "max"
            }
            .to_string()
        });
    let preference = match cluster.source {
        PreferenceSource::Own => "own",
        _ if trace.defaulted => "* (default)",
        _ => "*",
    };
    ClusterRun {
        preference: preference.to_string(),
        min_replicas: cluster.preferences.min_replicas,
        max_replicas: cluster.preferences.max_replicas,
        weight: cluster.preferences.weight,
        capacity: cluster.capacity,
        hash: cluster
            .hash
            .map_or_else(String::new, |hash| format!("{hash:#010x}")),
        position: cluster
            .position
            .map_or(0, |position| position.saturating_add(1)),
        minimum: cluster.minimum,
        kept: cluster.kept,
        full_in_round: full.map(|round| round.round),
        full_at,
        overflow,
        replicas: cluster.replicas,
    }
}

/// `7 replicas: own preference (min 2, max -, weight 2), 1st of 8 in order (hash 0x…);
/// minimum 2, round 1 +4, round 2 +1; full at max in round 2`
fn reason(run: &ClusterRun, name: &str, ordered: usize, rounds: &[Round]) -> String {
    let replicas = match run.replicas {
        1 => "1 replica".to_string(),
        n => format!("{n} replicas"),
    };
    let max = run
        .max_replicas
        .map_or_else(|| "-".to_string(), |max| max.to_string());
    let mut steps = vec![format!("minimum {}", run.minimum)];
    if run.kept > 0 {
        steps.push(format!("kept {} already running", run.kept));
    }
    for round in rounds {
        for share in round.shares.iter().filter(|share| share.cluster == name) {
            steps.push(format!("round {} {}", round.label(), share.text()));
        }
    }
    let mut text = format!(
        "{replicas}: {} preference (min {}, max {max}, weight {}), {} of {ordered} in order (hash {}); {}",
        run.preference,
        run.min_replicas,
        run.weight,
        run.position,
        run.hash,
        steps.join(", ")
    );
    if let (Some(round), Some(at)) = (run.full_in_round, &run.full_at) {
        text.push_str(&format!("; full at {at} in round {round}"));
    }
    if run.overflow > 0 {
        text.push_str(&format!("; overflow {}", run.overflow));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn share(added: i64, absorbed: i64, hit_max: bool, hit_capacity: bool) -> Share {
        Share {
            cluster: "a".to_string(),
            share: added + absorbed,
            absorbed,
            added,
            hit_max,
            hit_capacity,
        }
    }

    #[test]
    fn a_share_names_what_limited_it() {
        assert_eq!(share(3, 0, false, false).text(), "+3");
        assert_eq!(share(1, 2, true, false).text(), "+1 (2 absorbed, max)");
        assert_eq!(share(-1, 0, true, false).text(), "-1 (max)");
        assert_eq!(share(0, 0, false, true).text(), "+0 (capacity)");
    }

    #[test]
    fn repeated_rounds_are_labelled_with_their_range() {
        let round = |number, repeated| Round {
            round: number,
            repeated,
            remaining: 0,
            weight_sum: 0,
            shares: Vec::new(),
        };
        assert_eq!(round(2, 1).label(), "2");
        assert_eq!(round(2, 3).label(), "2-4");
    }
}
