//! Upstream `pluginScheduler.Schedule`: the filters, then the prioritizers, then the sort and
//! the selection, over what every placement of a run shares ([`Scheduler`], built once).
//!
//! One loop serves `plan` and `explain`: the trace level decides what is recorded (each
//! filtered cluster's reason, the pipeline results, every cluster's place in the order), not
//! which filter or prioritizer runs.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap};

use crate::model::placement::PlacementSpec;
use crate::model::{Cluster, Inventory, PreviousDecision};
use crate::selector::ClusterBits;

use super::clustersets;
use super::conditions::Status;
use super::feasible::Feasible;
use super::filters::predicate::{self, Predicates};
use super::filters::taint::{self, Tolerance};
use super::fleet::{ClusterSetError, FleetIndex};
use super::previous::PreviousDecisions;
use super::prioritizers::{self, Context, Scores, Totals, Weighted};
use super::select::{self, Selection};
use super::spread::SpreadRules;
use super::trace::{FilterResult, Verdict};
use super::PlacementInput;

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
    pub fn new(inventory: &'a Inventory, previous: &'a [PreviousDecision]) -> Scheduler<'a> {
        Scheduler {
            fleet: FleetIndex::new(inventory),
            previous: PreviousDecisions::new(previous),
            taints: taint::Taints::new(&inventory.clusters),
            prioritizers: prioritizers::Data::new(inventory, previous),
        }
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
    pub warnings: Vec<String>,
}

impl Scheduled {
    pub fn stop(mut self, status: Status) -> Scheduled {
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
fn score_order(
    feasible: &[usize],
    totals: &Totals,
    head: Option<usize>,
    name_rank: impl Fn(usize) -> usize,
) -> Vec<usize> {
    let rank = |position: usize| name_rank(feasible[position]);
    match totals {
        // Equal totals: the name alone decides.
        Totals::Same(_) => in_key_order(feasible.len(), head, rank),
        Totals::Each(totals) => in_key_order(feasible.len(), head, |position| {
            (Reverse(totals[position]), rank(position))
        }),
    }
}

/// Positions `0..len` by their (unique) keys. With a `head`, only its first `head` positions:
/// those are kept in a bounded heap while walking the positions once, so a placement that
/// takes 10 of 15k clusters neither builds nor partially sorts 15k keys.
fn in_key_order<K: Ord>(len: usize, head: Option<usize>, key: impl Fn(usize) -> K) -> Vec<usize> {
    let Some(head) = head.filter(|&head| head < len) else {
        let mut keys: Vec<(K, usize)> =
            (0..len).map(|position| (key(position), position)).collect();
        keys.sort_unstable();
        return keys.into_iter().map(|(_, position)| position).collect();
    };
    let mut best: BinaryHeap<(K, usize)> = BinaryHeap::with_capacity(head + 1);
    for position in 0..len {
        let entry = (key(position), position);
        if best.len() < head {
            best.push(entry);
        } else if best.peek().is_some_and(|worst| entry < *worst) {
            best.pop();
            best.push(entry);
        }
    }
    best.into_sorted_vec()
        .into_iter()
        .map(|(_, position)| position)
        .collect()
}

fn names(fleet: &FleetIndex, indices: &[usize]) -> Vec<String> {
    indices
        .iter()
        .map(|&index| fleet.cluster(index).name.clone())
        .collect()
}

/// Seed v1alpha1: the eligible clusterSets of one predicate that names its own, and their
/// members (inventory indices).
pub(super) struct Scope {
    predicate: usize,
    sets: Vec<String>,
    members: ClusterBits,
}

/// Seed v1alpha1 per-predicate clusterSets: each predicate's sets ∩ the placement's
/// eligible sets, and the union of what the predicates can pick from (the placement's
/// eligible sets, as `explain` and the conditions see them).
pub(super) fn predicate_scopes(
    fleet: &FleetIndex,
    spec: &PlacementSpec,
    eligible: &[String],
) -> Result<(Vec<String>, Vec<Scope>), Box<ClusterSetError>> {
    let mut union = BTreeSet::new();
    let mut scopes = Vec::new();
    for (predicate, written) in spec.predicates.iter().enumerate() {
        if written.cluster_sets.is_empty() {
            union.extend(eligible.iter().cloned());
            continue;
        }
        let sets = clustersets::eligible_sets(eligible, &written.cluster_sets);
        let members = if sets.is_empty() {
            ClusterBits::empty(fleet.len())
        } else {
            ClusterBits::from_ids(fleet.len(), fleet.candidates(&sets)?.iter().copied())
        };
        union.extend(sets.iter().cloned());
        scopes.push(Scope {
            predicate,
            sets,
            members,
        });
    }
    Ok((union.into_iter().collect(), scopes))
}

/// Filters, prioritizers, sort, select.
pub(super) fn run(
    input: &PlacementInput,
    candidates: &[usize],
    candidate_sets: &[String],
    scopes: Vec<Scope>,
) -> Scheduled {
    let scheduler = input.scheduler;
    let fleet = &scheduler.fleet;
    let spec = input.spec;
    let mut out = Scheduled::default();
    let own = scheduler
        .previous
        .own_clusters(fleet, input.namespace, input.name);
    let in_own = |index: usize| own.as_ref().is_some_and(|own| own.contains(index));

    // Upstream's filters return early on an empty cluster list, before validating.
    let mut predicates = None;
    let passed = if spec.predicates.is_empty() || candidates.is_empty() {
        Feasible::from(candidates.to_vec())
    } else {
        let mut compiled =
            match Predicates::compile(&spec.predicates, fleet, &fleet.inventory.addon_scores) {
                Ok(compiled) => compiled,
                Err(error) => {
                    return out.stop(Status::Misconfigured {
                        plugin: predicate::NAME.to_string(),
                        message: error.to_string(),
                    })
                }
            };
        let scoped = !scopes.is_empty();
        for scope in scopes {
            compiled.restrict(scope.predicate, scope.sets, &scope.members);
        }
        let rejected = input.trace.then_some(&mut out.filtered_out);
        let passed = compiled.filter(fleet, candidates, candidate_sets, scoped, rejected);
        // fleetplan stops where OCM's controller would leave the cluster unselected and
        // log it: a plan that silently drops clusters would mislead (docs/reliability.md).
        if let Some(message) = compiled.cel_limit_exceeded() {
            return out.stop(Status::Error { message });
        }
        predicates = Some(compiled);
        passed
    };
    if input.trace {
        out.filter_results.push(FilterResult {
            name: predicate::NAME.to_string(),
            filtered_clusters: names(fleet, passed.list()),
        });
    }

    let tolerated = scheduler.taints.filter(
        passed,
        &spec.tolerations,
        own.as_ref(),
        input.now,
        input.trace.then_some(&mut out.filtered_out),
    );
    let (feasible, until) = match tolerated {
        Ok(tolerated) => tolerated,
        Err(error) => {
            return out.stop(Status::Misconfigured {
                plugin: taint::NAME.to_string(),
                message: error.to_string(),
            })
        }
    };
    let pipeline_name = format!("{},{}", predicate::NAME, taint::NAME);

    out.weights = match prioritizers::weights(&spec.prioritizer_policy) {
        Ok(weights) => weights,
        Err(error) => {
            if input.trace {
                out.filter_results.push(FilterResult {
                    name: pipeline_name,
                    filtered_clusters: names(fleet, feasible.list()),
                });
            }
            return out.stop(Status::Misconfigured {
                plugin: String::new(),
                message: error.to_string(),
            });
        }
    };

    let context = Context {
        scheduler,
        namespace: input.namespace,
        name: input.name,
        now: input.now,
        own: own.as_ref(),
    };
    let mut totals = Totals::default();
    let mut scores = Vec::with_capacity(out.weights.len());
    for weighted in &out.weights {
        let Scores {
            scores: prioritized,
            warning,
        } = weighted.prioritizer.score(&context, &feasible);
        if let Some(message) = warning {
            out.warnings.push(message.clone());
            out.status = Some(Status::Warning {
                plugin: weighted.name.clone(),
                message,
            });
        }
        prioritized.add_weighted(weighted.weight, feasible.len(), &mut totals);
        scores.push(prioritized);
    }

    // Plain v1beta1 selection only needs the head of the order; a trace records every
    // feasible cluster's place, so it keeps the whole order.
    let plain = spec.spread_policy.spread_constraints.is_empty()
        && spec.anti_affinity.is_empty()
        && !spec.per_predicate();
    let head = spec
        .number_of_clusters
        .filter(|_| plain && !input.trace)
        .and_then(|wanted| usize::try_from(wanted).ok());
    // Equal totals order by name alone: the head can come straight off the filters' bitset.
    let by_name = match totals {
        Totals::Same(total) => head
            .and_then(|head| feasible.first_by_name(head, fleet.in_name_order()))
            .map(|first| (first, total)),
        Totals::Each(_) => None,
    };
    match by_name {
        Some((first, total)) => {
            out.totals = vec![total; first.len()];
            out.ranked = first;
        }
        None => {
            let feasible = feasible.list();
            let order = score_order(feasible, &totals, head, |index| fleet.name_rank(index));
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
    if input.trace {
        out.filter_results.push(FilterResult {
            name: pipeline_name,
            filtered_clusters: names(fleet, &out.ranked),
        });
    }

    let ranked: Vec<&Cluster> = out
        .ranked
        .iter()
        .map(|&index| fleet.cluster(index))
        .collect();
    let selection = if spec.per_predicate() {
        let counts: Vec<Option<i32>> = spec
            .predicates
            .iter()
            .map(|predicate| predicate.number_of_clusters)
            .collect();
        let (selection, unscheduled) = select::per_predicate(
            &ranked,
            &counts,
            |predicate, position| {
                predicates.as_ref().is_some_and(|compiled| {
                    compiled.predicate_matches(predicate, out.ranked[position], ranked[position])
                })
            },
            |position| out.ranked.get(position).is_some_and(|&index| in_own(index)),
            spec,
        );
        out.unscheduled = unscheduled;
        selection
    } else {
        let limit = spec
            .number_of_clusters
            .map_or(ranked.len(), |wanted| usize::try_from(wanted).unwrap_or(0));
        let selection = select::select(&ranked, limit, SpreadRules::new(spec, &ranked));
        if let Some(wanted) = spec.number_of_clusters {
            out.unscheduled = i64::from(wanted) - selection.selected.len() as i64;
        }
        selection
    };

    // Upstream TaintToleration.RequeueAfter: over the clusters of the previous decisions.
    if let Some(own) = &own {
        for index in own.indices() {
            if let Tolerance::Tolerated { until: expiry } =
                taint::check(fleet.cluster(index), &spec.tolerations, true, input.now)
            {
                out.requeue_at = earliest(out.requeue_at, expiry);
            }
        }
    }
    out.changes_at = selection
        .selected
        .iter()
        .filter_map(|&position| until.get(&out.ranked[position]).copied())
        .fold(out.requeue_at, |seen, expiry| earliest(seen, Some(expiry)));
    out.selection = Some(selection);
    out
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
        assert_eq!(score_order(&FEASIBLE, &totals, None, rank), [0, 2, 1, 3]);
        assert_eq!(score_order(&FEASIBLE, &totals, Some(2), rank), [0, 2]);
    }

    #[test]
    fn higher_totals_come_first_and_names_break_ties() {
        let totals = Totals::Each(vec![1, 5, 5, 0]);
        assert_eq!(score_order(&FEASIBLE, &totals, None, rank), [2, 1, 0, 3]);
        assert_eq!(score_order(&FEASIBLE, &totals, Some(3), rank), [2, 1, 0]);
    }
}
