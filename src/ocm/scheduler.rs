//! Upstream `pluginScheduler.Schedule`: the filters, then the prioritizers, then the sort and
//! the selection, over what every placement of a run shares ([`Scheduler`], built once).
//!
//! One loop serves `plan` and `explain`: the trace level decides what is recorded (each
//! filtered cluster's reason, the pipeline results, every cluster's place in the order), not
//! which filter or prioritizer runs.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::Arc;

use crate::model::{Cluster, ClusterIndex, Inventory, PreviousDecision};

use super::conditions::Status;
use super::feasible::Feasible;
use super::filters::predicate::Scope;
use super::filters::{self, taint, FilterContext, Filtered, FILTERS};
use super::fleet::FleetIndex;
use super::model::placement::PlacementSpec;
use super::previous::{OwnClusters, PreviousDecisions};
use super::prioritizers::{self, Context, PerCluster, Scores, Totals, Weighted};
use super::select::{self, Selection};
use super::spread::SpreadRules;
use super::trace::{FilterResult, Verdict};
use super::{PlacementInput, Warning};

/// What every placement of a run shares, built once: the fleet index, the previous
/// decisions, and each plugin's own data. 100k clusters × 1k placements must not redo
/// per-fleet work per placement.
pub struct Scheduler<'a> {
    pub fleet: FleetIndex<'a>,
    pub previous: PreviousDecisions<'a>,
    pub taints: taint::Taints<'a>,
    pub prioritizers: prioritizers::Data<'a>,
}

impl<'a> Scheduler<'a> {
    /// `clusters` must index `inventory`'s clusters (the run's index, shared with the
    /// other engines).
    pub fn new(
        clusters: &'a ClusterIndex<'a>,
        inventory: &'a Inventory,
        previous: &'a [PreviousDecision],
    ) -> Scheduler<'a> {
        Self::with_ahead(clusters, inventory, previous, Ahead::default())
    }

    /// [`Self::new`], building what `ahead` names on a core of its own while the fleet's
    /// clustersets and taints are indexed on this one (a serial step): else the first
    /// placement to ask builds it while the other scheduling threads wait.
    pub(crate) fn with_ahead(
        clusters: &'a ClusterIndex<'a>,
        inventory: &'a Inventory,
        previous: &'a [PreviousDecision],
        ahead: Ahead,
    ) -> Scheduler<'a> {
        let prioritizers = prioritizers::Data::new(inventory, previous);
        let (fleet, taints) = std::thread::scope(|scope| {
            let building = (ahead != Ahead::default())
                .then(|| {
                    std::thread::Builder::new()
                        .spawn_scoped(scope, || {
                            if ahead.claims {
                                clusters.claims();
                            }
                            if ahead.allocatable {
                                prioritizers.resource.build();
                            }
                        })
                        .ok()
                })
                .flatten();
            let built = (
                FleetIndex::new(clusters, inventory),
                taint::Taints::new(&inventory.clusters),
            );
            if let Some(building) = building {
                building
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            }
            built
        });
        Scheduler {
            fleet,
            previous: PreviousDecisions::new(previous),
            taints,
            prioritizers,
        }
    }
}

/// The fleet-wide tables a run's placements will read (each built on first use otherwise):
/// the clusters' claims indexed, for a claim selector; their allocatable amounts, for a
/// resource prioritizer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ahead {
    pub(crate) claims: bool,
    pub(crate) allocatable: bool,
}

impl Ahead {
    /// What `placements` will read.
    pub(crate) fn of<'s>(placements: impl IntoIterator<Item = &'s PlacementSpec>) -> Ahead {
        placements
            .into_iter()
            .fold(Ahead::default(), |ahead, spec| Ahead {
                claims: ahead.claims
                    || spec.predicates.iter().any(|predicate| {
                        !predicate
                            .required_cluster_selector
                            .claim_selector
                            .is_empty()
                    }),
                allocatable: ahead.allocatable
                    || spec.prioritizer_policy.configurations.iter().any(|config| {
                        prioritizers::reads_allocatable(&config.score_coordinate.built_in)
                    }),
            })
    }
}

/// What the filters and prioritizers produced before grouping.
#[derive(Default)]
pub(super) struct Scheduled {
    pub status: Option<Status>,
    /// Verdicts of candidates the filters removed (recorded when traced).
    pub filtered_out: HashMap<usize, Verdict>,
    pub filter_results: Vec<FilterResult>,
    pub weights: Vec<Weighted>,
    /// Feasible clusters (inventory indices) in score order, with their totals.
    pub ranked: Vec<usize>,
    pub totals: Vec<i64>,
    /// Per weighted prioritizer, scores aligned with `ranked` (recorded when traced).
    pub scores: Vec<Vec<Option<i64>>>,
    pub selection: Option<Selection>,
    pub unscheduled: i64,
    pub requeue_at: Option<i64>,
    pub changes_at: Option<i64>,
    pub warnings: Vec<Warning>,
}

impl Scheduled {
    pub(super) fn stop(mut self, status: Status) -> Scheduled {
        self.status = Some(status);
        self
    }
}

fn earliest(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Positions in `feasible` in score order: total descending, then name. Names are ranked
/// uniquely, so the order is one. With a `head`, only its first `head` positions.
/// `ascending`: the positions come in name order (see [`in_key_order`]).
fn score_order(
    feasible: &[usize],
    totals: &Totals,
    head: Option<usize>,
    ascending: bool,
    name_rank: impl Fn(usize) -> usize,
) -> Vec<usize> {
    let rank = |position: usize| name_rank(feasible[position]);
    match totals {
        // Equal totals: the name alone decides.
        Totals::Same(_) => in_key_order(feasible.len(), head, ascending, |_| (), rank),
        Totals::Each(totals) => in_key_order(
            feasible.len(),
            head,
            ascending,
            |position| Reverse(totals[position]),
            rank,
        ),
    }
}

/// Positions `0..len` by their keys: `first`, then the (unique) `rank`. With a `head`, only
/// its first `head` positions: those are kept in a bounded heap while walking the positions
/// once, so a placement that takes 10 of 15k clusters neither builds nor partially sorts 15k
/// keys, and a position whose `first` already ranks it below the heap's worst is passed over
/// without looking up its rank (a name rank is a read anywhere in the fleet's table).
///
/// `ascending`: each position ranks after every earlier one, so one whose `first` only ties
/// the heap's worst is passed over too. Allocatable amounts take few values, and a placement
/// that wants 10 of 20k clusters has thousands tied with its worst.
fn in_key_order<K: Ord>(
    len: usize,
    head: Option<usize>,
    ascending: bool,
    first: impl Fn(usize) -> K,
    rank: impl Fn(usize) -> usize,
) -> Vec<usize> {
    let key = |position: usize| (first(position), rank(position), position);
    let Some(head) = head.filter(|&head| head < len) else {
        let mut keys: Vec<(K, usize, usize)> = (0..len).map(key).collect();
        keys.sort_unstable();
        return keys.into_iter().map(|(_, _, position)| position).collect();
    };
    let mut best: BinaryHeap<(K, usize, usize)> = BinaryHeap::with_capacity(head + 1);
    for position in 0..len {
        if best.len() < head {
            best.push(key(position));
            continue;
        }
        let Some(worst) = best.peek() else { break };
        let entry = first(position);
        if entry > worst.0 || (ascending && entry == worst.0) {
            continue;
        }
        let entry = (entry, rank(position), position);
        if entry < *worst {
            best.pop();
            best.push(entry);
        }
    }
    best.into_sorted_vec()
        .into_iter()
        .map(|(_, _, position)| position)
        .collect()
}

fn names(fleet: &FleetIndex, indices: &[usize]) -> Vec<String> {
    indices
        .iter()
        .map(|&index| fleet.cluster(index).name.clone())
        .collect()
}

/// Upstream `pluginScheduler.Schedule`: filters, prioritizers, sort, select.
pub(super) fn run(
    input: &PlacementInput,
    candidates: &Arc<Vec<usize>>,
    candidate_sets: &[String],
    scopes: &[Scope],
) -> Scheduled {
    let scheduler = input.scheduler;
    let fleet = &scheduler.fleet;
    let own = scheduler
        .previous
        .own_clusters(fleet, input.namespace, input.name);
    let context = FilterContext {
        input,
        candidate_sets,
        scopes,
        own: own.as_ref(),
    };
    let mut out = Scheduled::default();
    let mut filtered = Filtered::default();
    let passed = filter(
        &context,
        Feasible::Candidates(Arc::clone(candidates)),
        &mut filtered,
        &mut out.filter_results,
    );
    out.filtered_out = std::mem::take(&mut filtered.rejected);
    let feasible = match passed {
        Ok(feasible) => feasible,
        Err(status) => return out.stop(status),
    };
    let record_feasible = |out: &mut Scheduled, clusters: &[usize]| {
        if input.trace {
            out.filter_results.push(FilterResult {
                name: filters::pipeline(FILTERS.len()),
                filtered_clusters: names(fleet, clusters),
            });
        }
    };

    out.weights = match prioritizers::weights(&input.spec.prioritizer_policy) {
        Ok(weights) => weights,
        Err(error) => {
            record_feasible(&mut out, feasible.list());
            return out.stop(Status::Misconfigured {
                plugin: String::new(),
                message: error.to_string(),
            });
        }
    };
    let prioritizing = Context {
        scheduler,
        namespace: input.namespace,
        name: input.name,
        now: input.now,
        own: own.as_ref(),
    };
    let prioritized = prioritize(&mut out, &prioritizing, &feasible, input);
    rank(&mut out, input, &feasible, prioritized);
    // Upstream sorts the filters' last list in place, so its debugger shows that record in
    // score order (schedule.go at 2f4ff9f: `sort.SliceStable(filtered, ...)`).
    let ranked = std::mem::take(&mut out.ranked);
    record_feasible(&mut out, &ranked);
    out.ranked = ranked;

    let (selection, unscheduled) = select(&out.ranked, input, &filtered, own.as_ref());
    out.unscheduled = unscheduled;
    out.requeue_at = FILTERS.iter().fold(None, |seen, filter| {
        earliest(seen, filter.requeue_at(&context))
    });
    out.changes_at = selection
        .selected
        .iter()
        .filter_map(|&position| filtered.until.get(&out.ranked[position]).copied())
        .fold(out.requeue_at, |seen, expiry| earliest(seen, Some(expiry)));
    out.selection = Some(selection);
    out
}

/// The filters in the registry's order, each given what the one before it kept. When
/// traced, what is left after each is recorded (upstream's `filteredRecords`), but after
/// the last: [`run`] records that list once it is in score order.
fn filter<'f>(
    context: &FilterContext<'f>,
    mut clusters: Feasible,
    filtered: &mut Filtered<'f>,
    records: &mut Vec<FilterResult>,
) -> Result<Feasible, Status> {
    for (position, plugin) in FILTERS.iter().enumerate() {
        clusters = plugin.filter(context, clusters, filtered)?;
        let applied = position + 1;
        if context.input.trace && applied < FILTERS.len() {
            records.push(FilterResult {
                name: filters::pipeline(applied),
                filtered_clusters: names(context.fleet(), clusters.list()),
            });
        }
    }
    Ok(clusters)
}

/// What the prioritizers made of the feasible clusters.
enum Prioritized {
    /// Each cluster's total (Σ score × weight), and when traced each weighted prioritizer's
    /// scores: [`rank`] puts them in score order.
    Totals(Totals, Vec<PerCluster>),
    /// Already in score order: the last prioritizer ordered them ([`Prioritizer::order`]).
    ///
    /// [`Prioritizer::order`]: super::prioritizers::Prioritizer::order
    Ordered(prioritizers::Ordered),
}

/// The feasible clusters' totals (Σ score × weight), and when traced each weighted
/// prioritizer's scores; or, untraced, their score order when the last prioritizer can make
/// it and every earlier one gave every cluster the same total. A prioritizer's warning is
/// kept, and becomes the status: scheduling goes on.
fn prioritize(
    out: &mut Scheduled,
    context: &Context,
    feasible: &Feasible,
    input: &PlacementInput,
) -> Prioritized {
    let trace = input.trace;
    let by_index = feasible
        .bits_in_name_order(input.scheduler.fleet.in_name_order())
        .filter(|_| !trace);
    let mut totals = Totals::default();
    let mut scores = Vec::with_capacity(out.weights.len());
    for (at, weighted) in out.weights.iter().enumerate() {
        if let (Some(bits), Totals::Same(base)) = (by_index, &totals) {
            if at + 1 == out.weights.len() {
                let head = head(input);
                let ordered =
                    weighted
                        .prioritizer
                        .order(context, bits, *base, weighted.weight, head);
                if let Some(ordered) = ordered {
                    return Prioritized::Ordered(ordered);
                }
            }
        }
        let warning = if trace {
            let Scores {
                scores: prioritized,
                warning,
            } = weighted.prioritizer.score(context, feasible);
            prioritized.add_weighted(weighted.weight, feasible.len(), &mut totals);
            scores.push(prioritized);
            warning
        } else {
            weighted
                .prioritizer
                .add_weighted(context, feasible, weighted.weight, &mut totals)
        };
        if let Some(message) = warning {
            out.warnings.push(Warning::Plugin {
                plugin: weighted.name.clone(),
                message: message.clone(),
            });
            out.status = Some(Status::Warning {
                plugin: weighted.name.clone(),
                message,
            });
        }
    }
    Prioritized::Totals(totals, scores)
}

/// How many clusters of the score order the selection reads: plain v1beta1 selection only
/// needs the first `numberOfClusters`; a trace records every feasible cluster's place, and
/// spread and anti-affinity pass over clusters, so they keep the whole order.
fn head(input: &PlacementInput) -> Option<usize> {
    let spec = input.spec;
    let plain = spec.spread_policy.spread_constraints.is_empty()
        && spec.anti_affinity.is_empty()
        && !spec.per_predicate();
    spec.number_of_clusters
        .filter(|_| plain && !input.trace)
        .and_then(|wanted| usize::try_from(wanted).ok())
}

/// The feasible clusters in score order with their totals (`ranked`, `totals`), and when
/// traced each prioritizer's scores in that order.
fn rank(
    out: &mut Scheduled,
    input: &PlacementInput,
    feasible: &Feasible,
    prioritized: Prioritized,
) {
    let fleet = &input.scheduler.fleet;
    let (totals, scores) = match prioritized {
        Prioritized::Totals(totals, scores) => (totals, scores),
        Prioritized::Ordered(ordered) => {
            out.ranked = ordered.clusters;
            out.totals = ordered.totals;
            return;
        }
    };
    let head = head(input);
    // Equal totals order by name alone: the order (or its head) can come straight off the
    // filters' bitset. A trace records each prioritizer's scores in that order, below.
    let by_name = match totals {
        Totals::Same(total) if !input.trace => feasible
            .first_by_name(head, fleet.in_name_order())
            .map(|first| (first, total)),
        Totals::Same(_) | Totals::Each(_) => None,
    };
    match by_name {
        Some((first, total)) => {
            out.totals = vec![total; first.len()];
            out.ranked = first;
        }
        None => {
            let ascending = feasible.bits_in_name_order(fleet.in_name_order()).is_some();
            let feasible = feasible.list();
            let order = score_order(feasible, &totals, head, ascending, |index| {
                fleet.name_rank(index)
            });
            out.ranked = order.iter().map(|&position| feasible[position]).collect();
            out.totals = order.iter().map(|&position| totals.get(position)).collect();
            if input.trace {
                out.scores = scores
                    .iter()
                    .map(|prioritized| {
                        order
                            .iter()
                            .map(|&position| prioritized.get(position))
                            .collect()
                    })
                    .collect();
            }
        }
    }
}

/// The clusters taken from the score order (positions in `ranked`), and how many of
/// `numberOfClusters` are left unscheduled: v1beta1's selection (with the spread extension),
/// or the seed's predicate by predicate.
fn select(
    ranked: &[usize],
    input: &PlacementInput,
    filtered: &Filtered,
    own: Option<&OwnClusters>,
) -> (Selection, i64) {
    let fleet = &input.scheduler.fleet;
    let spec = input.spec;
    let clusters: Vec<&Cluster> = ranked.iter().map(|&index| fleet.cluster(index)).collect();
    if spec.per_predicate() {
        let counts: Vec<Option<i32>> = spec
            .predicates
            .iter()
            .map(|predicate| predicate.number_of_clusters)
            .collect();
        return select::per_predicate(
            &clusters,
            &counts,
            |predicate, position| {
                filtered.predicates.as_ref().is_some_and(|compiled| {
                    compiled.predicate_matches(predicate, ranked[position], clusters[position])
                })
            },
            |position| {
                ranked
                    .get(position)
                    .is_some_and(|&index| own.is_some_and(|own| own.contains(index)))
            },
            spec,
        );
    }
    let limit = spec.number_of_clusters.map_or(clusters.len(), |wanted| {
        usize::try_from(wanted).unwrap_or(0)
    });
    let selection = select::select(&clusters, limit, SpreadRules::new(spec, &clusters));
    let unscheduled = spec.number_of_clusters.map_or(0, |wanted| {
        i64::from(wanted) - selection.selected.len() as i64
    });
    (selection, unscheduled)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feasible clusters 7, 3, 5 and 1 (inventory indices) whose names rank 3, 7, 5 and 9.
    const FEASIBLE: [usize; 4] = [7, 3, 5, 1];

    fn rank(index: usize) -> usize {
        10 - index
    }

    #[test]
    fn equal_totals_are_in_name_order() {
        let totals = Totals::Same(200);
        assert_eq!(
            score_order(&FEASIBLE, &totals, None, false, rank),
            [0, 2, 1, 3]
        );
        assert_eq!(
            score_order(&FEASIBLE, &totals, Some(2), false, rank),
            [0, 2]
        );
    }

    #[test]
    fn higher_totals_come_first_and_names_break_ties() {
        let totals = Totals::Each(vec![1, 5, 5, 0]);
        assert_eq!(
            score_order(&FEASIBLE, &totals, None, false, rank),
            [2, 1, 0, 3]
        );
        assert_eq!(
            score_order(&FEASIBLE, &totals, Some(3), false, rank),
            [2, 1, 0]
        );
    }

    /// `len` totals of `distinct` values, as allocatable amounts give, in no particular order.
    fn few_totals(len: usize, distinct: usize) -> Vec<i64> {
        (0..len)
            .map(|position| (position * 37 % distinct) as i64)
            .collect()
    }

    /// [`in_key_order`]'s head of the positions by `totals` (descending) and `name_rank`,
    /// checked to be the start of the whole order, and how many ranks it read.
    fn head_of(
        totals: &[i64],
        head: usize,
        ascending: bool,
        name_rank: impl Fn(usize) -> usize,
    ) -> usize {
        let first = |position: usize| Reverse(totals[position]);
        let whole = in_key_order(totals.len(), None, false, first, &name_rank);
        let read = std::cell::Cell::new(0);
        let counted = |position: usize| {
            read.set(read.get() + 1);
            name_rank(position)
        };
        let some = in_key_order(totals.len(), Some(head), ascending, first, counted);
        assert_eq!(some, whole[..head.min(totals.len())], "head {head}");
        read.get()
    }

    /// Every head is the start of the whole order, whatever the totals' ties; and a position
    /// whose total is below the heap's worst is passed over without its rank being read.
    #[test]
    fn a_head_is_the_start_of_the_order_and_low_totals_skip_the_rank() {
        let len = 200;
        let totals = few_totals(len, 11);
        for head in [0, 1, 5, 17, 199, 200, 250] {
            let read = head_of(&totals, head, false, |position| (position * 53) % len);
            if (5..len / 2).contains(&head) {
                assert!(read < len, "head {head}: {read} ranks read");
            }
        }
    }

    /// Positions in name order: a head taken passing over ties with the heap's worst is the
    /// start of the whole order, and reads a rank only for a total that beats the worst (at
    /// most `head` times for each of the 7 totals, where reading ties reads far more).
    #[test]
    fn positions_in_name_order_pass_over_ties_with_the_worst() {
        let len = 300;
        let totals = few_totals(len, 7);
        for head in [0, 1, 5, 43, 44, 45, 100, 299, 300, 400] {
            let passing = head_of(&totals, head, true, |position| position);
            let reading = head_of(&totals, head, false, |position| position);
            if (1..len / 7).contains(&head) {
                assert!(passing <= 7 * head, "head {head}: {passing} ranks read");
                assert!(passing < reading, "head {head}: {passing}, {reading}");
            }
        }
    }

    /// A run builds ahead what its placements read: the claims' index for a claim selector
    /// in any predicate, the allocatable amounts for either resource prioritizer.
    #[test]
    fn a_run_builds_ahead_what_its_placements_read() {
        let spec = |spec: serde_json::Value| {
            crate::ocm::model::placement::decode_placement_spec(
                "cluster.open-cluster-management.io/v1beta1",
                spec,
            )
            .expect("a valid spec")
        };
        let plain = spec(
            serde_json::json!({"predicates": [{"requiredClusterSelector": {
            "labelSelector": {"matchLabels": {"env": "prod"}}}}]}),
        );
        let claims = spec(
            serde_json::json!({"predicates": [{}, {"requiredClusterSelector": {
            "claimSelector": {"matchExpressions": [
                {"key": "region", "operator": "Exists"}]}}}]}),
        );
        let memory = spec(serde_json::json!({"prioritizerPolicy": {"configurations": [
            {"scoreCoordinate": {"builtIn": "Steady"}},
            {"scoreCoordinate": {"builtIn": "ResourceAllocatableMemory"}}]}}));
        let cpu = spec(serde_json::json!({"prioritizerPolicy": {"mode": "Exact",
            "configurations": [{"scoreCoordinate": {"builtIn": "ResourceAllocatableCPU"}}]}}));
        let ahead = |claims, allocatable| Ahead {
            claims,
            allocatable,
        };
        assert_eq!(Ahead::of([]), Ahead::default());
        assert_eq!(Ahead::of([&plain]), ahead(false, false));
        assert_eq!(Ahead::of([&plain, &claims]), ahead(true, false));
        assert_eq!(Ahead::of([&memory, &plain]), ahead(false, true));
        assert_eq!(Ahead::of([&cpu]), ahead(false, true));
        assert_eq!(Ahead::of([&cpu, &claims, &plain]), ahead(true, true));
    }
}
