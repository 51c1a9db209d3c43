//! What the planner did, step by step, as data: `explain` renders it, so it always agrees
//! with the plan it explains.

use crate::model::preferences::ClusterPreferences;

/// Which preference entry a cluster used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreferenceSource {
    /// The entry under the cluster's own name.
    Own,
    /// The `"*"` entry (or the `{"*": {weight: 1}}` default, see `ReplicaTrace::defaulted`).
    Wildcard,
    /// Neither: the cluster gets 0 and takes no part.
    None,
}

/// One available cluster, in inventory order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterTrace<'a> {
    pub cluster: &'a str,
    pub source: PreferenceSource,
    /// The entry used, negative numbers read as 0; all zero for `PreferenceSource::None`.
    pub preferences: ClusterPreferences,
    /// `capacity` input, negative read as 0; `None` = unbounded.
    pub capacity: Option<i64>,
    /// FNV-1 32 of name ++ key; `None` when the cluster takes no part.
    pub hash: Option<u32>,
    /// 0-based place in the planner's order (weight descending, hash ascending).
    pub position: Option<usize>,
    /// Given by the minimum step.
    pub minimum: i64,
    /// Replicas kept because they already run there (`rebalance: false` only): the
    /// pre-allocation that later shares absorb first.
    pub kept: i64,
    /// The weighted round (index into `ReplicaTrace::rounds`) in which max or capacity took
    /// the cluster out of play.
    pub full_in_round: Option<usize>,
    /// Overflow as computed, before `rebalance: false` trims it.
    pub overflow: i64,
    /// The final plan for the cluster.
    pub replicas: i64,
}

/// One weighted round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundTrace {
    /// Replicas left to distribute at the start of the round (`D`).
    pub remaining: i64,
    /// Sum of the weights still in play (`S`).
    pub weight_sum: i128,
    /// How many identical rounds this entry stands for: rounds whose shares were all absorbed
    /// by pre-allocations repeat unchanged until a pre-allocation runs short, and are
    /// recorded (and computed) once.
    pub repeated: i64,
    /// Range of `ReplicaTrace::shares` that belongs to this round.
    pub first_share: usize,
    pub share_count: usize,
}

/// One cluster's share in one round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShareTrace {
    /// Index into `ReplicaTrace::clusters`.
    pub cluster: usize,
    /// `min(ceil(D·w/S), R)`, before the pre-allocation absorbs it.
    pub share: i64,
    /// Taken from the pre-allocation instead of adding replicas.
    pub absorbed: i64,
    /// Change to the cluster's plan (negative when a minimum above max is cut back to max).
    pub added: i64,
    pub hit_max: bool,
    pub hit_capacity: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplicaTrace<'a> {
    /// Total asked for (negative read as 0).
    pub total: i64,
    pub rebalance: bool,
    /// The preferences had no cluster entries, so `{"*": {weight: 1}}` was used.
    pub defaulted: bool,
    pub clusters: Vec<ClusterTrace<'a>>,
    pub rounds: Vec<RoundTrace>,
    pub shares: Vec<ShareTrace>,
}

impl ReplicaTrace<'_> {
    /// The shares of one round, in the planner's order.
    pub fn round_shares(&self, round: &RoundTrace) -> &[ShareTrace] {
        let end = round.first_share.saturating_add(round.share_count);
        self.shares.get(round.first_share..end).unwrap_or(&[])
    }
}
