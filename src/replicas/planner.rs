//! The replica planner of federation v1 (`federation/pkg/federation-controller/util/planner`),
//! shipped unchanged in kubefed (`pkg/controller/util/planner`). Same plan, replica for
//! replica; see docs/design replicas.md for the rules and their upstream tests.

use std::collections::BTreeMap;

use crate::model::preferences::{ClusterPreferences, ReplicaPreferences};

use super::order::{fnv1_32, order_clusters};
use super::trace::{ClusterTrace, PreferenceSource, ReplicaTrace, RoundTrace, ShareTrace};

/// What the controllers used when a workload gave no cluster entries.
const DEFAULT_WILDCARD: ClusterPreferences = ClusterPreferences {
    min_replicas: 0,
    max_replicas: None,
    weight: 1,
};

pub struct PlannerInput<'a> {
    /// Replicas to place (`spec.replicas`, or RSP `spec.totalReplicas`).
    pub total: i64,
    /// `"<namespace>/<name>"`, hashed after each cluster name to vary the order per workload.
    pub key: &'a str,
    pub preferences: &'a ReplicaPreferences,
    /// Clusters the workload may use, in inventory order. A repeated name counts once.
    pub available: &'a [&'a str],
    /// Replicas running now; only read when `rebalance` is false.
    pub current: &'a BTreeMap<String, i64>,
    /// Replicas a cluster can hold; absent = unbounded.
    pub capacity: &'a BTreeMap<String, i64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaPlan {
    /// Every available cluster, zeros included.
    pub replicas: BTreeMap<String, i64>,
    /// Replicas a cluster was due but could not hold (capacity). The controllers wrote
    /// `replicas + overflow` to the cluster; it is kept apart here.
    pub overflow: BTreeMap<String, i64>,
    /// `total` minus what the plan placed (every cluster capped, or all weights 0).
    pub unassigned: i64,
    pub trace: ReplicaTrace,
}

/// Plans like the reference. Negative numbers in the input (which the loaders reject) read as
/// 0: with a negative weight the reference loops forever.
pub fn plan(input: &PlannerInput) -> ReplicaPlan {
    let prefs = input.preferences;
    let defaulted = prefs.clusters.is_empty();
    let rebalance = prefs.rebalance;
    let total = input.total.max(0);

    let mut replicas = BTreeMap::new();
    let mut clusters = Vec::with_capacity(input.available.len());
    for &name in input.available {
        if replicas.insert(name.to_string(), 0).is_some() {
            continue;
        }
        let (source, used) = resolve(prefs, defaulted, name);
        let takes_part = source != PreferenceSource::None;
        clusters.push(ClusterTrace {
            cluster: name.to_string(),
            source,
            preferences: used,
            capacity: input.capacity.get(name).map(|&c| c.max(0)),
            hash: takes_part.then(|| fnv1_32(name, input.key)),
            position: None,
            minimum: 0,
            kept: 0,
            full_in_round: None,
            overflow: 0,
            replicas: 0,
        });
    }

    let mut order = order_clusters(&clusters);
    for (position, &i) in order.iter().enumerate() {
        clusters[i].position = Some(position);
    }

    let mut remaining = total;
    give_minimums(&mut clusters, &order, &mut remaining);
    let mut pending = if rebalance {
        Vec::new()
    } else {
        keep_current(&mut clusters, &order, input.current, &mut remaining)
    };
    let (rounds, shares) = weighted_rounds(&mut clusters, &mut order, &mut pending, &mut remaining);

    let mut overflow = BTreeMap::new();
    for cluster in &clusters {
        if let Some(planned) = replicas.get_mut(&cluster.cluster) {
            *planned = cluster.replicas;
        }
        // With rebalance false the reference only over-asks for what it failed to place.
        let due = if rebalance {
            cluster.overflow
        } else {
            cluster.overflow.min(remaining)
        };
        if due > 0 {
            overflow.insert(cluster.cluster.clone(), due);
        }
    }

    ReplicaPlan {
        replicas,
        overflow,
        unassigned: remaining,
        trace: ReplicaTrace {
            total,
            rebalance,
            defaulted,
            clusters,
            rounds,
            shares,
        },
    }
}

fn resolve(
    prefs: &ReplicaPreferences,
    defaulted: bool,
    name: &str,
) -> (PreferenceSource, ClusterPreferences) {
    let (source, found) = if defaulted {
        (PreferenceSource::Wildcard, Some(&DEFAULT_WILDCARD))
    } else if let Some(own) = prefs.clusters.get(name) {
        (PreferenceSource::Own, Some(own))
    } else if let Some(wildcard) = prefs.clusters.get("*") {
        (PreferenceSource::Wildcard, Some(wildcard))
    } else {
        (PreferenceSource::None, None)
    };
    let used = found.map_or_else(ClusterPreferences::default, |p| ClusterPreferences {
        min_replicas: p.min_replicas.max(0),
        max_replicas: p.max_replicas.map(|max| max.max(0)),
        weight: p.weight.max(0),
    });
    (source, used)
}

/// Minimums come before weights (kubefed#319) and ignore maxReplicas.
fn give_minimums(clusters: &mut [ClusterTrace], order: &[usize], remaining: &mut i64) {
    for &i in order {
        let cluster = &mut clusters[i];
        let mut given = cluster.preferences.min_replicas.min(*remaining);
        if let Some(capacity) = cluster.capacity {
            given = given.min(capacity);
        }
        *remaining = remaining.saturating_sub(given);
        cluster.minimum = given;
        cluster.replicas = given;
    }
}

/// `rebalance: false`: what already runs stays, as a pre-allocation that the weighted
/// shares use up first. Returns the pending pre-allocation per cluster.
fn keep_current(
    clusters: &mut [ClusterTrace],
    order: &[usize],
    current: &BTreeMap<String, i64>,
    remaining: &mut i64,
) -> Vec<i64> {
    let mut pending = vec![0; clusters.len()];
    for &i in order {
        let cluster = &mut clusters[i];
        let planned = cluster.replicas;
        let Some(&count) = current.get(&cluster.cluster) else {
            continue;
        };
        if count <= planned {
            continue;
        }
        let mut target = count;
        if let Some(max) = cluster.preferences.max_replicas {
            target = target.min(max);
        }
        if let Some(capacity) = cluster.capacity {
            target = target.min(capacity);
        }
        let extra = target.saturating_sub(planned).min(*remaining).max(0);
        *remaining = remaining.saturating_sub(extra);
        cluster.kept = extra;
        cluster.replicas = planned.saturating_add(extra);
        pending[i] = extra;
    }
    pending
}

/// `ceil(distribute·weight/weight_sum)` as the reference computes it, without its overflow.
fn ceil_share(distribute: i64, weight: i64, weight_sum: i128) -> i64 {
    let numerator = i128::from(distribute) * i128::from(weight) + weight_sum - 1;
    i64::try_from(numerator / weight_sum).unwrap_or(i64::MAX)
}

fn weighted_rounds(
    clusters: &mut [ClusterTrace],
    in_play: &mut Vec<usize>,
    pending: &mut [i64],
    remaining: &mut i64,
) -> (Vec<RoundTrace>, Vec<ShareTrace>) {
    let mut rounds = Vec::new();
    let mut shares = Vec::new();
    let mut modified = true;
    while modified && *remaining > 0 {
        modified = false;
        let weight_sum: i128 = in_play
            .iter()
            .map(|&i| i128::from(clusters[i].preferences.weight))
            .sum();
        if weight_sum <= 0 {
            break;
        }
        let round = rounds.len();
        let distribute = *remaining;
        let first_share = shares.len();
        for &i in in_play.iter() {
            let cluster = &mut clusters[i];
            let start = cluster.replicas;
            let share =
                ceil_share(distribute, cluster.preferences.weight, weight_sum).min(*remaining);
            let absorbed = match pending.get_mut(i) {
                Some(left) => {
                    let used = share.min(*left);
                    *left -= used;
                    used
                }
                None => 0,
            };
            if absorbed > 0 {
                modified = true;
            }
            let mut planned = start.saturating_add(share - absorbed);
            let mut hit_max = false;
            let mut hit_capacity = false;
            if let Some(max) = cluster.preferences.max_replicas {
                if planned > max {
                    planned = max;
                    hit_max = true;
                }
            }
            if let Some(capacity) = cluster.capacity {
                if planned > capacity {
                    cluster.overflow = planned - capacity;
                    planned = capacity;
                    hit_capacity = true;
                }
            }
            if hit_max || hit_capacity {
                cluster.full_in_round = Some(round);
            }
            let added = planned.saturating_sub(start);
            *remaining = remaining.saturating_sub(added);
            cluster.replicas = planned;
            if added > 0 {
                modified = true;
            }
            shares.push(ShareTrace {
                cluster: i,
                share,
                absorbed,
                added,
                hit_max,
                hit_capacity,
            });
        }
        in_play.retain(|&i| clusters[i].full_in_round.is_none());
        let this_round = &shares[first_share..];
        let repeated = skip_repeats(this_round, pending).saturating_add(1);
        rounds.push(RoundTrace {
            remaining: distribute,
            weight_sum,
            repeated,
            first_share,
            share_count: this_round.len(),
        });
    }
    (rounds, shares)
}

/// A round in which every share was absorbed by a pre-allocation changes nothing but the
/// pre-allocations, so the next round is the same again until one runs short. The reference
/// iterates them one by one (with total 1e18 and R = 1 that never ends); they are applied at
/// once here. Returns how many further identical rounds were applied.
fn skip_repeats(round: &[ShareTrace], pending: &mut [i64]) -> i64 {
    let unchanged = round
        .iter()
        .all(|s| s.absorbed == s.share && s.added == 0 && !s.hit_max && !s.hit_capacity);
    if !unchanged {
        return 0;
    }
    let repeats = round
        .iter()
        .filter(|s| s.share > 0)
        .filter_map(|s| pending.get(s.cluster).map(|&left| left / s.share))
        .min()
        .unwrap_or(0);
    if repeats > 0 {
        for s in round {
            if let Some(left) = pending.get_mut(s.cluster) {
                *left -= repeats * s.share;
            }
        }
    }
    repeats
}
