//! The replica planner of federation v1 (`federation/pkg/federation-controller/util/planner`),
//! shipped unchanged in kubefed (`pkg/controller/util/planner`). Same plan, replica for
//! replica; see docs/design replicas.md for the rules and their upstream tests.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::preferences::{ClusterPreferences, ReplicaPreferences};

use super::order::{fnv1_extend, fnv1_step, serving_order, FNV_OFFSET_BASIS};
use super::trace::{ClusterTrace, PreferenceSource, ReplicaTrace, RoundTrace, ShareTrace};

/// What the controllers used when a workload gave no cluster entries.
const DEFAULT_WILDCARD: ClusterPreferences = ClusterPreferences::new(0, None, 1);

/// `'n` is the lifetime of the cluster names, which the plan borrows.
pub struct PlannerInput<'a, 'n> {
    /// Replicas to place (`spec.replicas`, or RSP `spec.totalReplicas`).
    pub total: i64,
    /// `"<namespace>/<name>"`, hashed after each cluster name to vary the order per workload.
    pub key: &'a str,
    pub preferences: &'a ReplicaPreferences,
    /// Clusters the workload may use, in inventory order. A repeated name counts once.
    pub available: &'a [&'n str],
    /// Replicas running now; only read when `rebalance` is false.
    pub current: &'a BTreeMap<String, i64>,
    /// Replicas a cluster can hold; absent = unbounded.
    pub capacity: &'a BTreeMap<String, i64>,
}

/// Cluster names are borrowed from `PlannerInput::available`: the planner allocates no
/// strings. Counts are vectors sorted by cluster name rather than maps: building two small
/// trees per plan was a third of a ten-cluster plan's instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaPlan<'a> {
    /// Every available cluster, zeros included, sorted by name, each name once.
    pub replicas: Vec<(&'a str, i64)>,
    /// Replicas a cluster was due but could not hold (capacity), sorted by name. The
    /// controllers wrote `replicas + overflow` to the cluster; it is kept apart here.
    pub overflow: Vec<(&'a str, i64)>,
    /// `total` minus what the plan placed (every cluster capped, or all weights 0).
    pub unassigned: i64,
}

/// Plans like the reference. Negative numbers in the input (which the loaders reject) read as
/// 0: with a negative weight the reference loops forever.
pub fn plan<'n>(input: &PlannerInput<'_, 'n>) -> ReplicaPlan<'n> {
    run(input, None).0
}

/// `plan`, and what it did on the way, for `explain`. The same run: the trace cannot disagree.
pub fn plan_with_trace<'n>(input: &PlannerInput<'_, 'n>) -> (ReplicaPlan<'n>, ReplicaTrace<'n>) {
    let mut recorder = Recorder::default();
    let (plan, slots) = run(input, Some(&mut recorder));
    let prefs = input.preferences;
    let trace = ReplicaTrace {
        total: input.total.max(0),
        rebalance: prefs.rebalance,
        defaulted: prefs.clusters.is_empty(),
        clusters: slots.iter().map(Slot::trace).collect(),
        rounds: recorder.rounds,
        shares: recorder.shares,
    };
    (plan, trace)
}

#[derive(Default)]
struct Recorder {
    rounds: Vec<RoundTrace>,
    shares: Vec<ShareTrace>,
}

/// One available cluster while planning.
struct Slot<'a> {
    name: &'a str,
    source: PreferenceSource,
    prefs: ClusterPreferences,
    capacity: Option<i64>,
    hash: u32,
    position: Option<usize>,
    minimum: i64,
    kept: i64,
    /// Pre-allocation not yet absorbed by a share.
    pending: i64,
    /// Share of the last round it took part in.
    last_share: i64,
    full_in_round: Option<usize>,
    overflow: i64,
    replicas: i64,
}

impl<'a> Slot<'a> {
    fn takes_part(&self) -> bool {
        self.source != PreferenceSource::None
    }

    fn trace(&self) -> ClusterTrace<'a> {
        ClusterTrace {
            cluster: self.name,
            source: self.source,
            preferences: self.prefs.clone(),
            capacity: self.capacity,
            hash: self.takes_part().then_some(self.hash),
            position: self.position,
            minimum: self.minimum,
            kept: self.kept,
            full_in_round: self.full_in_round,
            overflow: self.overflow,
            replicas: self.replicas,
        }
    }
}

fn run<'n>(
    input: &PlannerInput<'_, 'n>,
    mut recorder: Option<&mut Recorder>,
) -> (ReplicaPlan<'n>, Vec<Slot<'n>>) {
    // Clusters usually come in name order: then they are distinct and already in the plan's
    // order, which one pass shows for fewer name comparisons than sorting them.
    if input.available.is_sorted_by(|a, b| a < b) {
        return run_distinct(input, NameOrder::Given, recorder);
    }
    let (plan, slots) = run_distinct(input, NameOrder::Sort, recorder.as_deref_mut());
    if !plan.replicas.windows(2).any(|pair| pair[0].0 == pair[1].0) {
        return (plan, slots);
    }
    // A name was repeated: plan again over first occurrences. An inventory has unique names,
    // so this path pays only the look at neighbours in the sorted output.
    let mut seen = BTreeSet::new();
    let distinct: Vec<&'n str> = input
        .available
        .iter()
        .copied()
        .filter(|&name| seen.insert(name))
        .collect();
    if let Some(recorder) = recorder.as_deref_mut() {
        *recorder = Recorder::default();
    }
    let input = PlannerInput {
        available: &distinct,
        ..*input
    };
    run_distinct(&input, NameOrder::Sort, recorder)
}

/// Whether `PlannerInput::available` still has to be sorted by name for the plan.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NameOrder {
    /// Strictly ascending already.
    Given,
    Sort,
}

/// Plans over `available` taken as distinct names.
fn run_distinct<'n>(
    input: &PlannerInput<'_, 'n>,
    names: NameOrder,
    mut recorder: Option<&mut Recorder>,
) -> (ReplicaPlan<'n>, Vec<Slot<'n>>) {
    let prefs = input.preferences;
    let rebalance = prefs.rebalance;
    let total = input.total.max(0);

    let wildcard = if prefs.clusters.is_empty() {
        Some(&DEFAULT_WILDCARD)
    } else {
        prefs.clusters.get("*")
    };
    let own = ByName::new(&prefs.clusters);
    let capacity = ByName::new(input.capacity);
    let mut slots = Vec::with_capacity(input.available.len());
    for &name in input.available {
        let (source, found) = match own.get(name) {
            Some(own) => (PreferenceSource::Own, Some(own)),
            None if wildcard.is_some() => (PreferenceSource::Wildcard, wildcard),
            None => (PreferenceSource::None, None),
        };
        slots.push(Slot {
            name,
            source,
            prefs: found.map_or_else(ClusterPreferences::default, non_negative),
            capacity: capacity.get(name).map(|&c| c.max(0)),
            hash: fnv1_extend(FNV_OFFSET_BASIS, name.as_bytes()),
            position: None,
            minimum: 0,
            kept: 0,
            pending: 0,
            last_share: 0,
            full_in_round: None,
            overflow: 0,
            replicas: 0,
        });
    }

    // The key half of every cluster's hash side by side: independent multiply chains overlap
    // in the CPU, where one cluster at a time would wait on each multiply.
    for &byte in input.key.as_bytes() {
        for slot in &mut slots {
            slot.hash = fnv1_step(slot.hash, byte);
        }
    }

    let mut order = Vec::with_capacity(slots.len());
    order.extend((0..slots.len()).filter(|&i| slots[i].takes_part()));
    order.sort_by(|&a, &b| {
        let (a, b) = (&slots[a], &slots[b]);
        serving_order((a.prefs.weight, a.hash), (b.prefs.weight, b.hash))
    });
    for (position, &i) in order.iter().enumerate() {
        slots[i].position = Some(position);
    }

    let mut remaining = total;
    give_minimums(&mut slots, &order, &mut remaining);
    if !rebalance {
        keep_current(&mut slots, &order, input.current, &mut remaining);
    }
    weighted_rounds(&mut slots, &mut order, &mut remaining, &mut recorder);

    // The rounds are over: `order` now lists every cluster in name order.
    order.clear();
    order.extend(0..slots.len());
    if names == NameOrder::Sort {
        order.sort_unstable_by_key(|&i| slots[i].name);
    }
    let replicas = order
        .iter()
        .map(|&i| (slots[i].name, slots[i].replicas))
        .collect();
    // With rebalance false the reference only over-asks for what it failed to place.
    let overflow = order
        .iter()
        .map(|&i| {
            let slot = &slots[i];
            let due = if rebalance {
                slot.overflow
            } else {
                slot.overflow.min(remaining)
            };
            (slot.name, due)
        })
        .filter(|&(_, due)| due > 0)
        .collect();
    let plan = ReplicaPlan {
        replicas,
        overflow,
        unassigned: remaining,
    };
    (plan, slots)
}

/// A map keyed by cluster name, asked once per cluster. A small map's entries are gathered
/// once per plan and scanned: an equality test rejects most keys on their length alone, where
/// the tree's ordering compare always compares bytes, and walking the tree's nodes again for
/// each cluster cost more than the scan itself.
struct ByName<'m, V> {
    tree: &'m BTreeMap<String, V>,
    few: [Option<(&'m str, &'m V)>; SCAN_UP_TO],
}

const SCAN_UP_TO: usize = 8;

impl<'m, V> ByName<'m, V> {
    fn new(tree: &'m BTreeMap<String, V>) -> Self {
        let mut few = [None; SCAN_UP_TO];
        if tree.len() <= SCAN_UP_TO {
            for (entry, (key, value)) in few.iter_mut().zip(tree) {
                *entry = Some((key.as_str(), value));
            }
        }
        ByName { tree, few }
    }

    fn get(&self, name: &str) -> Option<&'m V> {
        if self.tree.len() > SCAN_UP_TO {
            return self.tree.get(name);
        }
        self.few
            .iter()
            .map_while(|&entry| entry)
            .find(|&(key, _)| key == name)
            .map(|(_, value)| value)
    }
}

fn non_negative(p: &ClusterPreferences) -> ClusterPreferences {
    ClusterPreferences::new(
        p.min_replicas.max(0),
        p.max_replicas.map(|max| max.max(0)),
        p.weight.max(0),
    )
}

/// Minimums come before weights (kubefed#319) and ignore maxReplicas.
fn give_minimums(slots: &mut [Slot], order: &[usize], remaining: &mut i64) {
    for &i in order {
        let slot = &mut slots[i];
        let mut given = slot.prefs.min_replicas.min(*remaining);
        if let Some(capacity) = slot.capacity {
            given = given.min(capacity);
        }
        *remaining = remaining.saturating_sub(given);
        slot.minimum = given;
        slot.replicas = given;
    }
}

/// `rebalance: false`: what already runs stays, as a pre-allocation that the weighted
/// shares use up first.
fn keep_current(
    slots: &mut [Slot],
    order: &[usize],
    current: &BTreeMap<String, i64>,
    remaining: &mut i64,
) {
    let current = ByName::new(current);
    for &i in order {
        let slot = &mut slots[i];
        let planned = slot.replicas;
        let Some(&count) = current.get(slot.name) else {
            continue;
        };
        if count <= planned {
            continue;
        }
        let mut target = count;
        if let Some(max) = slot.prefs.max_replicas {
            target = target.min(max);
        }
        if let Some(capacity) = slot.capacity {
            target = target.min(capacity);
        }
        let extra = target.saturating_sub(planned).min(*remaining).max(0);
        *remaining = remaining.saturating_sub(extra);
        slot.kept = extra;
        slot.pending = extra;
        slot.replicas = planned.saturating_add(extra);
    }
}

/// `ceil(distribute·weight/weight_sum)` as the reference computes it, without its overflow.
fn ceil_share(distribute: i64, weight: i64, weight_sum: i128) -> i64 {
    // 64-bit when it cannot overflow: 128-bit division is a library call.
    if let Ok(sum) = i64::try_from(weight_sum) {
        if let Some(numerator) = distribute
            .checked_mul(weight)
            .and_then(|product| product.checked_add(sum - 1))
        {
            return numerator / sum;
        }
    }
    let numerator = i128::from(distribute) * i128::from(weight) + weight_sum - 1;
    i64::try_from(numerator / weight_sum).unwrap_or(i64::MAX)
}

fn weighted_rounds(
    slots: &mut [Slot],
    in_play: &mut Vec<usize>,
    remaining: &mut i64,
    recorder: &mut Option<&mut Recorder>,
) {
    let mut round = 0;
    let mut modified = true;
    while modified && *remaining > 0 {
        modified = false;
        let weight_sum: i128 = in_play
            .iter()
            .map(|&i| i128::from(slots[i].prefs.weight))
            .sum();
        if weight_sum <= 0 {
            break;
        }
        let distribute = *remaining;
        let mut only_absorbed = true;
        let first_share = recorder.as_ref().map_or(0, |r| r.shares.len());
        for &i in in_play.iter() {
            let slot = &mut slots[i];
            let start = slot.replicas;
            let share = ceil_share(distribute, slot.prefs.weight, weight_sum).min(*remaining);
            let absorbed = share.min(slot.pending);
            slot.pending -= absorbed;
            slot.last_share = share;
            if absorbed > 0 {
                modified = true;
            }
            let mut planned = start.saturating_add(share - absorbed);
            let mut hit_max = false;
            let mut hit_capacity = false;
            if let Some(max) = slot.prefs.max_replicas {
                if planned > max {
                    planned = max;
                    hit_max = true;
                }
            }
            if let Some(capacity) = slot.capacity {
                if planned > capacity {
                    slot.overflow = planned - capacity;
                    planned = capacity;
                    hit_capacity = true;
                }
            }
            if hit_max || hit_capacity {
                slot.full_in_round = Some(round);
            }
            let added = planned.saturating_sub(start);
            *remaining = remaining.saturating_sub(added);
            slot.replicas = planned;
            if added > 0 {
                modified = true;
            }
            only_absorbed &= absorbed == share && added == 0 && !hit_max && !hit_capacity;
            if let Some(recorder) = recorder.as_mut() {
                recorder.shares.push(ShareTrace {
                    cluster: i,
                    share,
                    absorbed,
                    added,
                    hit_max,
                    hit_capacity,
                });
            }
        }
        in_play.retain(|&i| slots[i].full_in_round.is_none());
        let repeats = if only_absorbed {
            skip_repeats(slots, in_play)
        } else {
            0
        };
        if let Some(recorder) = recorder.as_mut() {
            recorder.rounds.push(RoundTrace {
                remaining: distribute,
                weight_sum,
                repeated: repeats.saturating_add(1),
                first_share,
                share_count: recorder.shares.len() - first_share,
            });
        }
        round += 1;
    }
}

/// A round in which every share was absorbed by a pre-allocation changes nothing but the
/// pre-allocations, so the next round is the same again until one runs short. The reference
/// iterates them one by one (with total 1e18 and R = 1 that never ends); they are applied at
/// once here. Returns how many further identical rounds were applied.
fn skip_repeats(slots: &mut [Slot], in_play: &[usize]) -> i64 {
    let repeats = in_play
        .iter()
        .map(|&i| &slots[i])
        .filter(|slot| slot.last_share > 0)
        .map(|slot| slot.pending / slot.last_share)
        .min()
        .unwrap_or(0);
    if repeats > 0 {
        for &i in in_play {
            let slot = &mut slots[i];
            slot.pending -= repeats * slot.last_share;
        }
    }
    repeats
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replicas::fnv1_32;

    fn counts(pairs: &[(&str, i64)]) -> BTreeMap<String, i64> {
        pairs.iter().map(|&(n, c)| (n.to_string(), c)).collect()
    }

    fn expected<'a>(pairs: &[(&'a str, i64)]) -> Vec<(&'a str, i64)> {
        pairs.to_vec()
    }

    struct Case<'a> {
        total: i64,
        key: &'a str,
        rebalance: bool,
        clusters: &'a [(&'a str, ClusterPreferences)],
        available: &'static [&'static str],
        current: &'a [(&'a str, i64)],
        capacity: &'a [(&'a str, i64)],
    }

    impl Default for Case<'_> {
        fn default() -> Self {
            Case {
                total: 0,
                key: "",
                rebalance: true,
                clusters: &[],
                available: &[],
                current: &[],
                capacity: &[],
            }
        }
    }

    /// Both entry points, which must agree; the trace comes from `plan_with_trace`.
    struct Outcome<'a> {
        replicas: Vec<(&'a str, i64)>,
        overflow: Vec<(&'a str, i64)>,
        unassigned: i64,
        trace: ReplicaTrace<'a>,
    }

    fn run(case: &Case) -> Outcome<'static> {
        let preferences = ReplicaPreferences {
            rebalance: case.rebalance,
            clusters: case
                .clusters
                .iter()
                .map(|(n, p)| (n.to_string(), p.clone()))
                .collect(),
        };
        let current = counts(case.current);
        let capacity = counts(case.capacity);
        let input = PlannerInput {
            total: case.total,
            key: case.key,
            preferences: &preferences,
            available: case.available,
            current: &current,
            capacity: &capacity,
        };
        let (traced, trace) = plan_with_trace(&input);
        assert_eq!(plan(&input), traced);
        Outcome {
            replicas: traced.replicas,
            overflow: traced.overflow,
            unassigned: traced.unassigned,
            trace,
        }
    }

    /// Names in order skip the sort; the plan is the same in any inventory order.
    #[test]
    fn fifty_over_three_with_empty_key_gives_c17_b17_a16_in_any_order() {
        for available in [&["A", "B", "C"], &["C", "A", "B"]] {
            let result = run(&Case {
                total: 50,
                clusters: &[("*", ClusterPreferences::new(0, None, 1))],
                available,
                ..Case::default()
            });
            assert_eq!(
                result.replicas,
                expected(&[("A", 16), ("B", 17), ("C", 17)]),
                "{available:?}"
            );
        }
    }

    #[test]
    fn the_split_moves_with_the_key() {
        let result = run(&Case {
            total: 50,
            key: "test-ns/test-deployment",
            clusters: &[("*", ClusterPreferences::new(0, None, 1))],
            available: &["A", "B", "C"],
            ..Case::default()
        });
        assert_eq!(
            result.replicas,
            expected(&[("A", 17), ("B", 17), ("C", 16)])
        );
    }

    /// Upstream's test notes the ideal answer would keep A's 10 (kubernetes/kubernetes#31816);
    /// kubefed's planner empties A, and so does fleetplan.
    #[test]
    fn without_rebalance_keeping_current_replicas_can_empty_the_smaller_cluster() {
        let result = run(&Case {
            total: 50,
            rebalance: false,
            clusters: &[("*", ClusterPreferences::new(0, None, 1))],
            available: &["A", "B"],
            current: &[("A", 10), ("B", 70)],
            ..Case::default()
        });
        assert_eq!(result.replicas, expected(&[("A", 0), ("B", 50)]));
    }

    /// The case of kubernetes-retired/kubefed#319: minimums are given before any weight.
    #[test]
    fn minimums_are_given_before_weights_share_the_rest() {
        let result = run(&Case {
            total: 10,
            key: "test-namespace/test-deployment",
            clusters: &[
                ("cluster1", ClusterPreferences::new(2, Some(6), 2)),
                ("cluster2", ClusterPreferences::new(4, Some(8), 3)),
            ],
            available: &["cluster1", "cluster2"],
            ..Case::default()
        });
        assert_eq!(
            result.replicas,
            expected(&[("cluster1", 3), ("cluster2", 7)])
        );
    }

    #[test]
    fn minimum_above_max_stands_when_no_round_runs() {
        let result = run(&Case {
            total: 5,
            clusters: &[("A", ClusterPreferences::new(5, Some(2), 1))],
            available: &["A"],
            ..Case::default()
        });
        assert_eq!(result.replicas, expected(&[("A", 5)]));
    }

    #[test]
    fn minimum_above_max_is_cut_back_when_rounds_run() {
        let result = run(&Case {
            total: 10,
            clusters: &[
                ("A", ClusterPreferences::new(5, Some(2), 1)),
                ("B", ClusterPreferences::new(0, None, 1)),
            ],
            available: &["A", "B"],
            ..Case::default()
        });
        assert_eq!(result.replicas, expected(&[("A", 2), ("B", 8)]));
        let a = &result.trace.clusters[0];
        assert_eq!((a.minimum, a.full_in_round), (5, Some(0)));
    }

    #[test]
    fn empty_clusters_map_means_wildcard_weight_one() {
        let result = run(&Case {
            total: 4,
            available: &["A", "B"],
            ..Case::default()
        });
        assert_eq!(result.replicas, expected(&[("A", 2), ("B", 2)]));
        assert!(result.trace.defaulted);
        assert_eq!(result.trace.clusters[0].source, PreferenceSource::Wildcard);
    }

    #[test]
    fn clusters_without_an_entry_get_zero_and_take_no_part() {
        let result = run(&Case {
            total: 4,
            clusters: &[("A", ClusterPreferences::new(0, None, 1))],
            available: &["A", "B"],
            ..Case::default()
        });
        assert_eq!(result.replicas, expected(&[("A", 4), ("B", 0)]));
        let b = &result.trace.clusters[1];
        assert_eq!(
            (b.source, b.hash, b.position),
            (PreferenceSource::None, None, None)
        );
    }

    #[test]
    fn entries_for_unavailable_clusters_are_ignored() {
        let result = run(&Case {
            total: 4,
            clusters: &[
                ("A", ClusterPreferences::new(3, None, 1)),
                ("Z", ClusterPreferences::new(3, None, 9)),
            ],
            available: &["A"],
            ..Case::default()
        });
        assert_eq!(result.replicas, expected(&[("A", 4)]));
    }

    #[test]
    fn own_entry_wins_over_wildcard() {
        let result = run(&Case {
            total: 6,
            clusters: &[
                ("*", ClusterPreferences::new(0, None, 1)),
                ("A", ClusterPreferences::new(0, None, 2)),
            ],
            available: &["A", "B"],
            ..Case::default()
        });
        assert_eq!(result.replicas, expected(&[("A", 4), ("B", 2)]));
        assert_eq!(result.trace.clusters[0].source, PreferenceSource::Own);
    }

    #[test]
    fn a_repeated_available_cluster_counts_once() {
        let result = run(&Case {
            total: 4,
            clusters: &[("*", ClusterPreferences::new(0, None, 1))],
            available: &["A", "B", "A"],
            ..Case::default()
        });
        assert_eq!(result.replicas, expected(&[("A", 2), ("B", 2)]));
        assert_eq!(result.trace.clusters.len(), 2);
    }

    #[test]
    fn zero_capacity_is_a_real_limit() {
        let result = run(&Case {
            total: 4,
            clusters: &[("*", ClusterPreferences::new(0, None, 1))],
            available: &["A", "B"],
            capacity: &[("A", 0)],
            ..Case::default()
        });
        assert_eq!(result.replicas, expected(&[("A", 0), ("B", 4)]));
        assert_eq!(result.overflow, expected(&[("A", 2)]));
    }

    #[test]
    fn what_no_cluster_can_take_is_unassigned() {
        let result = run(&Case {
            total: 10,
            clusters: &[("*", ClusterPreferences::new(0, Some(2), 1))],
            available: &["A", "B"],
            ..Case::default()
        });
        assert_eq!(result.replicas, expected(&[("A", 2), ("B", 2)]));
        assert_eq!(result.unassigned, 6);
    }

    #[test]
    fn weight_zero_only_gets_its_minimum() {
        let result = run(&Case {
            total: 10,
            clusters: &[
                ("A", ClusterPreferences::new(1, None, 0)),
                ("B", ClusterPreferences::new(0, Some(3), 1)),
            ],
            available: &["A", "B"],
            ..Case::default()
        });
        assert_eq!(result.replicas, expected(&[("A", 1), ("B", 3)]));
        assert_eq!(result.unassigned, 6);
    }

    #[test]
    fn rebalance_false_trims_overflow_to_what_was_not_placed() {
        let result = run(&Case {
            total: 10,
            rebalance: false,
            clusters: &[
                ("A", ClusterPreferences::new(0, None, 1)),
                ("B", ClusterPreferences::new(0, Some(4), 1)),
            ],
            available: &["A", "B"],
            capacity: &[("A", 3)],
            ..Case::default()
        });
        assert_eq!(result.replicas, expected(&[("A", 3), ("B", 4)]));
        assert_eq!(result.trace.clusters[0].overflow, 2);
        assert_eq!(result.overflow, expected(&[("A", 2)]));
        assert_eq!(result.unassigned, 3);
    }

    #[test]
    fn negative_inputs_read_as_zero_instead_of_looping() {
        let result = run(&Case {
            total: 6,
            clusters: &[
                ("A", ClusterPreferences::new(-3, Some(-1), -1)),
                ("B", ClusterPreferences::new(0, None, 2)),
            ],
            available: &["A", "B"],
            capacity: &[("B", -5)],
            ..Case::default()
        });
        assert_eq!(result.replicas, expected(&[("A", 0), ("B", 0)]));
        assert_eq!(result.unassigned, 6);
    }

    #[test]
    fn extreme_weights_and_totals_do_not_overflow() {
        let result = run(&Case {
            total: i64::MAX,
            clusters: &[
                ("A", ClusterPreferences::new(0, None, i64::MAX)),
                ("B", ClusterPreferences::new(0, None, i64::MAX)),
                (
                    "C",
                    ClusterPreferences::new(0, Some(i64::MAX), i64::MAX - 1),
                ),
            ],
            available: &["A", "B", "C"],
            ..Case::default()
        });
        let placed: i64 = result.replicas.iter().map(|(_, count)| count).sum();
        assert_eq!(placed, i64::MAX);
        assert_eq!(result.unassigned, 0);
    }

    #[test]
    fn rounds_that_only_drain_preallocations_are_applied_at_once() {
        let result = run(&Case {
            total: 11,
            rebalance: false,
            clusters: &[("*", ClusterPreferences::new(0, None, 1))],
            available: &["A", "B"],
            current: &[("A", 5), ("B", 5)],
            ..Case::default()
        });
        // B comes first for key '' (TestEqual#3), so it takes the last replica.
        assert_eq!(result.replicas, expected(&[("A", 5), ("B", 6)]));
        let repeats: Vec<i64> = result.trace.rounds.iter().map(|r| r.repeated).collect();
        assert_eq!(repeats, vec![5, 1]);
    }

    #[test]
    fn draining_huge_preallocations_finishes() {
        let result = run(&Case {
            total: 8_000_000_000_000_000_001,
            rebalance: false,
            clusters: &[("*", ClusterPreferences::new(0, None, 1))],
            available: &["A", "B"],
            current: &[
                ("A", 4_000_000_000_000_000_000),
                ("B", 4_000_000_000_000_000_000),
            ],
            ..Case::default()
        });
        assert_eq!(
            result.replicas,
            expected(&[
                ("A", 4_000_000_000_000_000_000),
                ("B", 4_000_000_000_000_000_001)
            ])
        );
    }

    #[test]
    fn trace_records_order_minimum_preallocation_and_shares() {
        let result = run(&Case {
            total: 15,
            rebalance: false,
            clusters: &[("*", ClusterPreferences::new(1, None, 1))],
            available: &["A", "B"],
            current: &[("A", 4)],
            ..Case::default()
        });
        assert_eq!(result.replicas, expected(&[("A", 7), ("B", 8)]));
        let trace = &result.trace;
        let [a, b] = &trace.clusters[..] else {
            panic!("two clusters expected, got {:?}", trace.clusters);
        };
        assert_eq!((a.position, b.position), (Some(1), Some(0)));
        assert_eq!(a.hash, Some(fnv1_32("A", "")));
        assert_eq!((a.minimum, a.kept, b.minimum, b.kept), (1, 3, 1, 0));
        let round = &trace.rounds[0];
        assert_eq!((round.remaining, round.weight_sum), (10, 2));
        let shares: Vec<(usize, i64, i64, i64)> = trace
            .round_shares(round)
            .iter()
            .map(|s| (s.cluster, s.share, s.absorbed, s.added))
            .collect();
        assert_eq!(shares, vec![(1, 5, 0, 5), (0, 5, 3, 2)]);
    }
}
