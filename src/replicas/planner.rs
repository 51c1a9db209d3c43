//! The replica planner of federation v1 (`federation/pkg/federation-controller/util/planner`),
//! shipped unchanged in kubefed (`pkg/controller/util/planner`). Same plan, replica for
//! replica; see docs/design replicas.md for the rules and their upstream tests.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::preferences::{ClusterPreferences, ReplicaPreferences};

use super::order::{fnv1_extend, fnv1_step, serving_key, FNV_OFFSET_BASIS};
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
/// strings. The counts are one vector sorted by cluster name, not maps: building two small
/// trees per plan was a third of a ten-cluster plan's instructions, and a second vector for
/// the few clusters with overflow cost as much as the first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaPlan<'a> {
    /// Every available cluster, zeros included, sorted by name, each name once.
    pub clusters: Vec<ClusterPlan<'a>>,
    /// `total` minus what the plan placed (every cluster capped, or all weights 0).
    pub unassigned: i64,
}

/// One cluster's counts in a `ReplicaPlan`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClusterPlan<'a> {
    pub cluster: &'a str,
    pub replicas: i64,
    /// Replicas the cluster was due but could not hold (capacity), 0 for none. The
    /// controllers wrote `replicas + overflow` to the cluster; it is kept apart here.
    pub overflow: i64,
}

impl<'a> ReplicaPlan<'a> {
    /// Every available cluster's replicas (zeros included), in name order.
    pub fn replicas(&self) -> impl Iterator<Item = (&'a str, i64)> + '_ {
        self.clusters.iter().map(|c| (c.cluster, c.replicas))
    }

    /// The clusters with overflow, in name order.
    pub fn overflow(&self) -> impl Iterator<Item = (&'a str, i64)> + '_ {
        self.clusters
            .iter()
            .filter(|c| c.overflow > 0)
            .map(|c| (c.cluster, c.overflow))
    }
}

/// Plans like the reference. Negative numbers in the input (which the loaders reject) read as
/// 0: with a negative weight the reference loops forever.
pub fn plan<'n>(input: &PlannerInput<'_, 'n>) -> ReplicaPlan<'n> {
    run(input, None)
}

/// `plan`, and what it did on the way, for `explain`. The same run: the trace cannot disagree.
pub(crate) fn plan_with_trace<'n>(
    input: &PlannerInput<'_, 'n>,
) -> (ReplicaPlan<'n>, ReplicaTrace<'n>) {
    let mut recorder = Recorder::default();
    let plan = run(input, Some(&mut recorder));
    let prefs = input.preferences;
    let trace = ReplicaTrace {
        total: input.total.max(0),
        rebalance: prefs.rebalance,
        defaulted: prefs.clusters.is_empty(),
        clusters: recorder.clusters,
        rounds: recorder.rounds,
        shares: recorder.shares,
    };
    (plan, trace)
}

#[derive(Default)]
struct Recorder<'n> {
    clusters: Vec<ClusterTrace<'n>>,
    rounds: Vec<RoundTrace>,
    shares: Vec<ShareTrace>,
}

/// One available cluster while planning, at its index in `PlannerInput::available`. Kept
/// within 128 bytes and `Copy`, so that filling one is a few moves rather than a `memcpy`.
#[derive(Clone, Copy)]
struct Slot {
    source: PreferenceSource,
    /// FNV-1 of the name alone until the key is hashed in.
    hash: u32,
    /// The preferences used (`ClusterPreferences`), negative numbers read as 0.
    weight: i64,
    min_replicas: i64,
    max_replicas: Option<i64>,
    capacity: Option<i64>,
    /// Replicas running now, when `rebalance` is false.
    current: Option<i64>,
    minimum: i64,
    kept: i64,
    /// Pre-allocation not yet absorbed by a share.
    pending: i64,
    /// Share of the last round it took part in.
    last_share: i64,
    /// The round that took it out of play; rounds never reach 2^32 (each one fills a
    /// cluster or takes a share of what is left), and only the trace reads the number.
    full_in_round: Option<u32>,
    overflow: i64,
    replicas: i64,
}

const _: () = assert!(std::mem::size_of::<Slot>() <= 128);

impl Slot {
    const UNUSED: Slot = Slot {
        source: PreferenceSource::None,
        hash: FNV_OFFSET_BASIS,
        weight: 0,
        min_replicas: 0,
        max_replicas: None,
        capacity: None,
        current: None,
        minimum: 0,
        kept: 0,
        pending: 0,
        last_share: 0,
        full_in_round: None,
        overflow: 0,
        replicas: 0,
    };

    /// Negative numbers read as 0.
    fn prefer(&mut self, source: PreferenceSource, prefs: &ClusterPreferences) {
        self.source = source;
        self.weight = prefs.weight.max(0);
        self.min_replicas = prefs.min_replicas.max(0);
        self.max_replicas = prefs.max_replicas.map(|max| max.max(0));
    }

    fn takes_part(&self) -> bool {
        self.source != PreferenceSource::None
    }

    fn in_play(&self) -> bool {
        self.full_in_round.is_none()
    }

    fn trace<'n>(&self, cluster: &'n str, position: Option<usize>) -> ClusterTrace<'n> {
        ClusterTrace {
            cluster,
            source: self.source,
            preferences: ClusterPreferences::new(self.min_replicas, self.max_replicas, self.weight),
            capacity: self.capacity,
            hash: self.takes_part().then_some(self.hash),
            position,
            minimum: self.minimum,
            kept: self.kept,
            full_in_round: self.full_in_round.map(|round| round as usize),
            overflow: self.overflow,
            replicas: self.replicas,
        }
    }
}

/// Up to this many clusters plan in arrays on the stack: a plan over a few clusters is short
/// enough that allocating and freeing its working vectors was a tenth of it.
const ON_STACK: usize = 16;

fn run<'n>(input: &PlannerInput<'_, 'n>, recorder: Option<&mut Recorder<'n>>) -> ReplicaPlan<'n> {
    let Some(names) = NameOrder::new(input.available) else {
        // A name was repeated: plan over first occurrences. An inventory has unique names, so
        // only a hand-written list pays for this.
        let mut seen = BTreeSet::new();
        let distinct: Vec<&'n str> = input
            .available
            .iter()
            .copied()
            .filter(|&name| seen.insert(name))
            .collect();
        let input = PlannerInput {
            available: &distinct,
            ..*input
        };
        return run(&input, recorder);
    };
    let count = input.available.len();
    if count <= ON_STACK {
        let mut slots = [Slot::UNUSED; ON_STACK];
        let mut keys = [0; ON_STACK];
        run_distinct(input, &names, &mut slots[..count], &mut keys, recorder)
    } else {
        let mut slots = vec![Slot::UNUSED; count];
        let mut keys = vec![0; count];
        run_distinct(input, &names, &mut slots, &mut keys, recorder)
    }
}

/// The order in which the plan lists the available clusters (by name), worked out once at
/// the entry.
enum NameOrder<'n> {
    /// `available` is strictly ascending (an inventory's names are): its own order, which
    /// one pass shows for fewer name comparisons than sorting.
    Given,
    /// `(name, index in available)` sorted by name.
    Sorted(Vec<(&'n str, usize)>),
}

impl<'n> NameOrder<'n> {
    /// `None` when a name is repeated.
    fn new(available: &[&'n str]) -> Option<Self> {
        if available.is_sorted_by(|a, b| a < b) {
            return Some(NameOrder::Given);
        }
        let mut sorted: Vec<(&'n str, usize)> = available.iter().copied().zip(0..).collect();
        sorted.sort_unstable();
        let repeated = sorted.windows(2).any(|pair| pair[0].0 == pair[1].0);
        (!repeated).then_some(NameOrder::Sorted(sorted))
    }
}

/// Maps with up to this many entries are matched entry by entry against the clusters; larger
/// ones (a fleet's capacities) are searched once per cluster.
const SCAN_UP_TO: usize = 8;

/// Calls `found` with the index of every available cluster that has an entry in `map`, and
/// the entry. `slots` still hold the hash of each name alone: a small map's key is hashed
/// once and compared to them as integers, the names themselves only when the hashes agree.
/// The per-cluster scans of small maps compared names and were a third of the name
/// comparisons of a plan.
fn for_each_entry<'m, V>(
    map: &'m BTreeMap<String, V>,
    available: &[&str],
    slots: &mut [Slot],
    mut found: impl FnMut(&mut Slot, &'m V),
) {
    if map.len() <= SCAN_UP_TO {
        for (name, value) in map {
            let hash = fnv1_extend(FNV_OFFSET_BASIS, name.as_bytes());
            if let Some((slot, _)) = slots
                .iter_mut()
                .zip(available)
                .find(|(slot, &other)| slot.hash == hash && other == name)
            {
                found(slot, value);
            }
        }
    } else {
        for (slot, &name) in slots.iter_mut().zip(available) {
            if let Some(value) = map.get(name) {
                found(slot, value);
            }
        }
    }
}

/// Plans over `available` taken as distinct names. `slots` has one entry per available
/// cluster, `keys` at least as many.
fn run_distinct<'n>(
    input: &PlannerInput<'_, 'n>,
    names: &NameOrder<'n>,
    slots: &mut [Slot],
    keys: &mut [u128],
    mut recorder: Option<&mut Recorder<'n>>,
) -> ReplicaPlan<'n> {
    let prefs = input.preferences;
    let rebalance = prefs.rebalance;
    let total = input.total.max(0);
    let available = input.available;

    let wildcard = if prefs.clusters.is_empty() {
        Some(&DEFAULT_WILDCARD)
    } else {
        prefs.clusters.get("*")
    };
    let mut everyone = Slot::UNUSED;
    if let Some(wildcard) = wildcard {
        everyone.prefer(PreferenceSource::Wildcard, wildcard);
    }
    for (slot, name) in slots.iter_mut().zip(available) {
        *slot = Slot {
            hash: fnv1_extend(FNV_OFFSET_BASIS, name.as_bytes()),
            ..everyone
        };
    }
    for_each_entry(&prefs.clusters, available, slots, |slot, own| {
        slot.prefer(PreferenceSource::Own, own);
    });
    for_each_entry(input.capacity, available, slots, |slot, &capacity| {
        slot.capacity = Some(capacity.max(0));
    });
    if !rebalance {
        for_each_entry(input.current, available, slots, |slot, &count| {
            slot.current = Some(count);
        });
    }

    // The key half of every cluster's hash side by side: independent multiply chains overlap
    // in the CPU, where one cluster at a time would wait on each multiply.
    for &byte in input.key.as_bytes() {
        for slot in slots.iter_mut() {
            slot.hash = fnv1_step(slot.hash, byte);
        }
    }

    let mut taking_part = 0;
    for ((index, slot), key) in slots
        .iter()
        .enumerate()
        .filter(|(_, slot)| slot.takes_part())
        .zip(keys.iter_mut())
    {
        *key = serving_key(slot.weight, slot.hash, index);
        taking_part += 1;
    }
    let order = &mut keys[..taking_part];
    order.sort_unstable();

    let mut remaining = total;
    give_minimums(slots, order, &mut remaining);
    if !rebalance {
        keep_current(slots, order, &mut remaining);
    }
    weighted_rounds(slots, order, &mut remaining, &mut recorder);

    // With rebalance false the reference only over-asks for what it failed to place.
    let counts = |cluster, slot: &Slot| ClusterPlan {
        cluster,
        replicas: slot.replicas,
        overflow: if rebalance {
            slot.overflow
        } else {
            slot.overflow.min(remaining)
        },
    };
    let clusters = match names {
        NameOrder::Given => available
            .iter()
            .zip(slots.iter())
            .map(|(&name, slot)| counts(name, slot))
            .collect(),
        NameOrder::Sorted(sorted) => sorted
            .iter()
            .filter_map(|&(name, index)| slots.get(index).map(|slot| counts(name, slot)))
            .collect(),
    };
    if let Some(recorder) = recorder {
        recorder.clusters = cluster_traces(available, slots, order);
    }
    ReplicaPlan {
        clusters,
        unassigned: remaining,
    }
}

/// Each available cluster's trace (when traced): its preferences and replicas, and its place
/// in the serving `order` if it took part.
fn cluster_traces<'n>(
    available: &[&'n str],
    slots: &[Slot],
    order: &[u128],
) -> Vec<ClusterTrace<'n>> {
    let mut positions = vec![None; slots.len()];
    for (position, &key) in order.iter().enumerate() {
        if let Some(place) = positions.get_mut(slot_index(key)) {
            *place = Some(position);
        }
    }
    available
        .iter()
        .zip(slots.iter())
        .zip(positions)
        .map(|((&name, slot), position)| slot.trace(name, position))
        .collect()
}

/// The slot a serving key stands for.
fn slot_index(key: u128) -> usize {
    // The low 32 bits of a key are the cluster's index (`order::serving_key`).
    (key as u32) as usize
}

/// Minimums come before weights (kubefed#319) and ignore maxReplicas.
fn give_minimums(slots: &mut [Slot], order: &[u128], remaining: &mut i64) {
    for &key in order {
        let Some(slot) = slots.get_mut(slot_index(key)) else {
            continue;
        };
        let mut given = slot.min_replicas.min(*remaining);
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
fn keep_current(slots: &mut [Slot], order: &[u128], remaining: &mut i64) {
    for &key in order {
        let Some(slot) = slots.get_mut(slot_index(key)) else {
            continue;
        };
        let planned = slot.replicas;
        let Some(count) = slot.current else {
            continue;
        };
        if count <= planned {
            continue;
        }
        let mut target = count;
        if let Some(max) = slot.max_replicas {
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

/// The sum of the weights in play in one round (`S`), and the share it gives.
struct WeightSum {
    sum: i128,
    /// `sum` when it fits 64 bits: 128-bit division is a library call.
    narrow: Option<i64>,
}

impl WeightSum {
    fn new(sum: i128) -> Self {
        WeightSum {
            sum,
            narrow: i64::try_from(sum).ok(),
        }
    }

    /// `ceil(distribute·weight/sum)` as the reference computes it, without its overflow.
    fn ceil_share(&self, distribute: i64, weight: i64) -> i64 {
        if let Some(sum) = self.narrow {
            if let Some(numerator) = distribute
                .checked_mul(weight)
                .and_then(|product| product.checked_add(sum - 1))
            {
                return numerator / sum;
            }
        }
        let numerator = i128::from(distribute) * i128::from(weight) + self.sum - 1;
        i64::try_from(numerator / self.sum).unwrap_or(i64::MAX)
    }
}

/// Clusters that max or capacity took out of play keep their place in `order` and are
/// passed over; the sum of the weights in play loses theirs when they leave, rather than
/// being added up again each round.
fn weighted_rounds(
    slots: &mut [Slot],
    order: &[u128],
    remaining_out: &mut i64,
    recorder: &mut Option<&mut Recorder>,
) {
    let mut in_play: i128 = order
        .iter()
        .filter_map(|&key| slots.get(slot_index(key)))
        .map(|slot| i128::from(slot.weight))
        .sum();
    // A local, not the caller's through the reference, so that it stays in a register.
    let mut remaining = *remaining_out;
    let mut round: u32 = 0;
    let mut modified = true;
    while modified && remaining > 0 {
        modified = false;
        if in_play <= 0 {
            break;
        }
        let weight_sum = WeightSum::new(in_play);
        let distribute = remaining;
        let mut only_absorbed = true;
        let first_share = recorder.as_ref().map_or(0, |r| r.shares.len());
        for &key in order {
            let i = slot_index(key);
            let Some(slot) = slots.get_mut(i) else {
                continue;
            };
            if !slot.in_play() {
                continue;
            }
            let start = slot.replicas;
            let share = weight_sum
                .ceil_share(distribute, slot.weight)
                .min(remaining);
            let absorbed = share.min(slot.pending);
            slot.pending -= absorbed;
            slot.last_share = share;
            if absorbed > 0 {
                modified = true;
            }
            let mut planned = start.saturating_add(share - absorbed);
            let mut hit_max = false;
            let mut hit_capacity = false;
            if let Some(max) = slot.max_replicas {
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
                in_play -= i128::from(slot.weight);
            }
            let added = planned.saturating_sub(start);
            remaining = remaining.saturating_sub(added);
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
        let repeats = if only_absorbed {
            skip_repeats(slots, order)
        } else {
            0
        };
        if let Some(recorder) = recorder.as_mut() {
            recorder.rounds.push(RoundTrace {
                remaining: distribute,
                weight_sum: weight_sum.sum,
                repeated: repeats.saturating_add(1),
                first_share,
                share_count: recorder.shares.len() - first_share,
            });
        }
        round = round.saturating_add(1);
    }
    *remaining_out = remaining;
}

/// A round in which every share was absorbed by a pre-allocation changes nothing but the
/// pre-allocations, so the next round is the same again until one runs short. The reference
/// iterates them one by one (with total 1e18 and R = 1 that never ends); they are applied at
/// once here. Returns how many further identical rounds were applied.
fn skip_repeats(slots: &mut [Slot], order: &[u128]) -> i64 {
    let repeats = order
        .iter()
        .filter_map(|&key| slots.get(slot_index(key)))
        .filter(|slot| slot.in_play())
        .filter(|slot| slot.last_share > 0)
        .map(|slot| slot.pending / slot.last_share)
        .min()
        .unwrap_or(0);
    if repeats > 0 {
        for &key in order {
            if let Some(slot) = slots.get_mut(slot_index(key)) {
                if slot.in_play() {
                    slot.pending -= repeats * slot.last_share;
                }
            }
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
            replicas: traced.replicas().collect(),
            overflow: traced.overflow().collect(),
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

    /// More clusters than a plan keeps on the stack, out of name order: the same plan as the
    /// planner before the stack arrays (computed with it), capacity and current included.
    #[test]
    fn more_clusters_than_fit_on_the_stack_plan_the_same() {
        let result = run(&Case {
            total: 47,
            key: "team/app",
            rebalance: false,
            clusters: &[
                ("*", ClusterPreferences::new(0, None, 1)),
                ("member-03", ClusterPreferences::new(2, Some(5), 4)),
            ],
            available: &[
                "member-19",
                "member-18",
                "member-17",
                "member-16",
                "member-15",
                "member-14",
                "member-13",
                "member-12",
                "member-11",
                "member-10",
                "member-09",
                "member-08",
                "member-07",
                "member-06",
                "member-05",
                "member-04",
                "member-03",
                "member-02",
                "member-01",
                "member-00",
            ],
            current: &[("member-15", 9)],
            capacity: &[("member-07", 1), ("member-11", 0)],
        });
        let want = expected(&[
            ("member-00", 2),
            ("member-01", 2),
            ("member-02", 2),
            ("member-03", 5),
            ("member-04", 2),
            ("member-05", 2),
            ("member-06", 2),
            ("member-07", 1),
            ("member-08", 2),
            ("member-09", 2),
            ("member-10", 2),
            ("member-11", 0),
            ("member-12", 2),
            ("member-13", 2),
            ("member-14", 2),
            ("member-15", 9),
            ("member-16", 2),
            ("member-17", 2),
            ("member-18", 2),
            ("member-19", 2),
        ]);
        assert_eq!(result.replicas, want);
        assert_eq!(result.overflow, expected(&[]));
        assert_eq!(result.unassigned, 0);
        assert_eq!(result.trace.clusters.len(), 20);
    }

    /// FNV-1 gives these two names one hash: the small-map scan matches on the hash first and
    /// must then compare the names, or the first of the two would take the other's entries.
    #[test]
    fn names_with_equal_hashes_keep_their_own_preferences_and_capacity() {
        const OWN: &str = "member-412789";
        const OTHER: &str = "member-649192";
        let (own, other) = (OWN, OTHER);
        assert_eq!(fnv1_32(own, ""), fnv1_32(other, ""));
        for available in [&[OWN, OTHER], &[OTHER, OWN]] {
            let result = run(&Case {
                total: 5,
                clusters: &[(own, ClusterPreferences::new(0, None, 1))],
                available,
                capacity: &[(own, 2)],
                ..Case::default()
            });
            assert_eq!(
                result.replicas,
                expected(&[(own, 2), (other, 0)]),
                "{available:?}"
            );
            assert_eq!(result.overflow, expected(&[(own, 3)]), "{available:?}");
            assert_eq!(result.unassigned, 3, "{available:?}");
            let sources: Vec<_> = result
                .trace
                .clusters
                .iter()
                .map(|cluster| (cluster.cluster, cluster.source, cluster.capacity))
                .collect();
            let want = |name| match name {
                "member-412789" => (name, PreferenceSource::Own, Some(2)),
                _ => (name, PreferenceSource::None, None),
            };
            assert_eq!(
                sources,
                available.iter().map(|&name| want(name)).collect::<Vec<_>>()
            );
        }
    }

    /// `plan` over at most `ON_STACK` clusters works in stack arrays; the same input through
    /// heap vectors, as more clusters take, gives the same plan and trace.
    #[test]
    fn the_stack_arrays_plan_as_the_heap_vectors_do() {
        let ascending: Vec<String> = (0..ON_STACK).map(|i| format!("member-{i:02}")).collect();
        let ascending: Vec<&str> = ascending.iter().map(String::as_str).collect();
        let descending: Vec<&str> = ascending.iter().rev().copied().collect();
        // Names already in order (listed as given) and reversed (sorted by the planner).
        for available in [&ascending, &descending] {
            stack_and_heap_agree(available);
        }
    }

    fn stack_and_heap_agree(available: &[&str]) {
        let preferences = ReplicaPreferences {
            rebalance: false,
            clusters: [
                ("*", ClusterPreferences::new(0, None, 1)),
                ("member-03", ClusterPreferences::new(2, Some(5), 4)),
                ("member-09", ClusterPreferences::new(1, None, 3)),
            ]
            .into_iter()
            .map(|(name, prefs)| (name.to_string(), prefs))
            .collect(),
        };
        let current = counts(&[("member-15", 9), ("member-02", 1)]);
        let capacity = counts(&[("member-07", 1), ("member-11", 0)]);
        let input = PlannerInput {
            total: 47,
            key: "team/app",
            preferences: &preferences,
            available,
            current: &current,
            capacity: &capacity,
        };
        let names = NameOrder::new(available).expect("distinct names");
        let mut slots = vec![Slot::UNUSED; available.len()];
        let mut keys = vec![0; available.len()];
        let mut recorder = Recorder::default();
        let on_heap = run_distinct(&input, &names, &mut slots, &mut keys, Some(&mut recorder));
        let (on_stack, trace) = plan_with_trace(&input);
        assert_eq!(on_stack, on_heap);
        assert_eq!(on_stack.clusters.len(), ON_STACK);
        assert_eq!(trace.clusters, recorder.clusters);
        assert_eq!(trace.rounds, recorder.rounds);
        assert_eq!(trace.shares, recorder.shares);
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
