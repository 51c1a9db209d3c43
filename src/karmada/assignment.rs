//! Replica assignment (`core/common.go AssignReplicas`, `assignment.go`,
//! `division_algorithm.go`): Duplicated, static weights, dynamic weights (scale up, scale down,
//! fresh) and Aggregated, each ending in a Webster division.
//!
//! `spec.clusters` replica counts are int32 upstream and their sums wrap (`GetSumOfReplicas`);
//! the sums here wrap the same way, so a 0-replica workload with requests divided by dynamic
//! weight on a fresh reschedule fails as upstream does.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::karmada::model::{DivisionPreference, Placement, ReplicaScheduling};

use super::fleet::Fleet;
use super::spread::ClusterDetail;
use super::webster::{self, Round, TieBreak};
use super::Binding;

/// The replica scheduling strategy (`assignment.go` constants).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Duplicated,
    Aggregated,
    StaticWeight,
    DynamicWeight,
}

impl Strategy {
    pub fn of(placement: &Placement) -> Option<Strategy> {
        let Some(ReplicaScheduling {
            division,
            weight_preference,
            ..
        }) = placement
            .replica_scheduling
            .as_ref()
            .filter(|_| placement.divided())
        else {
            return Some(Strategy::Duplicated);
        };
        match division {
            Some(DivisionPreference::Aggregated) => Some(Strategy::Aggregated),
            Some(DivisionPreference::Weighted) => Some(
                if weight_preference
                    .as_ref()
                    .is_some_and(|preference| !preference.dynamic_weight.is_empty())
                {
                    Strategy::DynamicWeight
                } else {
                    Strategy::StaticWeight
                },
            ),
            None => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::Duplicated => "Duplicated",
            Strategy::Aggregated => "Aggregated",
            Strategy::StaticWeight => "StaticWeight",
            Strategy::DynamicWeight => "DynamicWeight",
        }
    }
}

/// Which dynamic step ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// First schedule or more replicas: the new ones by available replicas, added on.
    ScaleUp,
    /// Fewer replicas: the new total by the previous assignment.
    ScaleDown,
    /// A reschedule was triggered: everything again by available + current replicas.
    Fresh,
    /// As many replicas as assigned: kept.
    Unchanged,
}

impl Step {
    pub fn as_str(self) -> &'static str {
        match self {
            Step::ScaleUp => "scale up",
            Step::ScaleDown => "scale down",
            Step::Fresh => "do fresh scale",
            Step::Unchanged => "unchanged",
        }
    }
}

/// A `spec.clusters` entry on one of the fleet's clusters: its index and its place in the
/// fleet's name order instead of an owned name. A Duplicated result names thousands of
/// clusters; names are read from the fleet only when the plan item is built or a result is
/// rendered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// Index into the scheduled fleet's clusters.
    pub index: u32,
    /// The cluster's place in the fleet's name order: orders as its name does.
    pub rank: u32,
    pub replicas: i64,
}

impl Target {
    fn new(member: Member, replicas: i64) -> Target {
        Target {
            rank: member.0,
            index: member.1,
            replicas,
        }
    }

    fn member(&self) -> Member {
        (self.rank, self.index)
    }
}

/// One division, for `explain`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Division {
    /// The overflow tier (0 without overflow affinities).
    pub tier: i64,
    /// The replicas this division handed out.
    pub target: i64,
    pub step: Option<Step>,
    /// The Webster weights, in the order upstream lists them.
    pub weights: Vec<(String, i64)>,
    /// Previous replicas the new ones were added to.
    pub kept: Vec<Target>,
    pub rounds: Vec<Round<String>>,
    pub result: Vec<Target>,
}

/// Why assignment failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AssignError {
    /// Upstream's text, after `failed to assign replicas: `.
    pub message: String,
    /// An `UnschedulableError` (not enough available replicas): reason `Unschedulable`.
    pub unschedulable: bool,
}

/// A cluster as a Webster party: its rank in the fleet's name order first, so parties compare
/// as integers in name order (ranks are unique), then its index in the fleet.
type Member = (u32, u32);

pub(crate) struct Assignment {
    pub strategy: Option<Strategy>,
    pub divisions: Vec<Division>,
    pub result: Result<Vec<Target>, AssignError>,
}

/// `AssignReplicas` over the selected clusters, in selection order.
pub(crate) fn assign(
    binding: &Binding,
    fleet: &Fleet,
    selected: &[ClusterDetail],
    overflow: bool,
    trace: bool,
) -> Assignment {
    let strategy = Strategy::of(binding.placement);
    let mut assignment = Assignment {
        strategy,
        divisions: Vec::new(),
        result: Ok(Vec::new()),
    };
    if selected.is_empty() {
        assignment.result = Err(AssignError {
            message: "no clusters available to schedule".to_string(),
            unschedulable: false,
        });
        return assignment;
    }
    let resource = binding.resource;
    if resource.replicas == 0 && resource.requirements.is_none() {
        // Not a workload (or an empty one): every candidate, 0 replicas, any strategy.
        assignment.result = Ok(selected
            .iter()
            .map(|cluster| Target::new(member(cluster), 0))
            .collect());
        return assignment;
    }
    let Some(strategy) = strategy else {
        assignment.result = Err(AssignError {
            message: "unsupported replica scheduling strategy".to_string(),
            unschedulable: false,
        });
        return assignment;
    };
    let mut run = Run {
        binding,
        fleet,
        strategy,
        trace,
        divisions: Vec::new(),
    };
    assignment.result = if overflow {
        run.by_tiers(selected)
    } else {
        run.assign_tier(selected, resource.replicas, 0)
    };
    assignment.divisions = run.divisions;
    assignment
}

struct Run<'r, 'a> {
    binding: &'r Binding<'a>,
    fleet: &'r Fleet<'r>,
    strategy: Strategy,
    trace: bool,
    divisions: Vec<Division>,
}

impl Run<'_, '_> {
    /// `assignWorkloadReplicas` with overflow: each tier, in order, takes what it can.
    fn by_tiers(&mut self, selected: &[ClusterDetail]) -> Result<Vec<Target>, AssignError> {
        let mut tiers: BTreeMap<i64, Vec<ClusterDetail>> = BTreeMap::new();
        for cluster in selected {
            tiers
                .entry(cluster.overflow_order)
                .or_default()
                .push(*cluster);
        }
        let mut remaining = self.binding.resource.replicas;
        let mut results = Vec::new();
        for (tier, clusters) in &tiers {
            let available: i64 = clusters.iter().map(|cluster| cluster.available).sum();
            let share = remaining.min(available);
            results.extend(self.assign_tier(clusters, share, *tier)?);
            remaining -= share;
            if remaining <= 0 {
                break;
            }
        }
        if remaining > 0 {
            return Err(AssignError {
                message: "Clusters available replicas are not enough to schedule.".to_string(),
                unschedulable: true,
            });
        }
        Ok(results)
    }

    /// `assignReplicasToClusters`: the strategy, then clusters at 0 replicas are dropped.
    fn assign_tier(
        &mut self,
        candidates: &[ClusterDetail],
        replicas: i64,
        tier: i64,
    ) -> Result<Vec<Target>, AssignError> {
        let mut division = Division {
            tier,
            ..Division::default()
        };
        let result = match self.strategy {
            // In name order, as the plan lists them.
            Strategy::Duplicated => Ok(by_name(candidates)
                .into_iter()
                .map(|cluster| Target::new(member(cluster), replicas))
                .collect()),
            Strategy::StaticWeight => Ok(self.static_weight(candidates, replicas, &mut division)),
            Strategy::DynamicWeight | Strategy::Aggregated => {
                self.dynamic(candidates, replicas, &mut division)
            }
        };
        let result = result.map(|mut clusters| {
            clusters.retain(|cluster| cluster.replicas > 0);
            // A division of thousands of parties seats a few: the result outlives the run
            // (the binding `-o bindings` writes), so it gives the rest of its room back.
            clusters.shrink_to_fit();
            clusters
        });
        if let (true, Ok(clusters)) = (self.trace, &result) {
            division.result = clusters.clone();
        }
        if self.strategy != Strategy::Duplicated {
            self.divisions.push(division);
        }
        result
    }

    /// `assignByStaticWeightStrategy`: a fresh Webster over the matched weights.
    fn static_weight(
        &self,
        candidates: &[ClusterDetail],
        replicas: i64,
        division: &mut Division,
    ) -> Vec<Target> {
        let rules = self
            .binding
            .placement
            .replica_scheduling
            .as_ref()
            .and_then(|strategy| strategy.weight_preference.as_ref())
            .map(|preference| &preference.static_weights);
        let mut weights: Vec<(Member, i64)> = match rules {
            // No weight preference: every candidate weighs 1.
            None => candidates.iter().map(|c| (member(c), 1)).collect(),
            Some(rules) => {
                let weights = self.fleet.static_weights(self.binding.placement, rules);
                candidates
                    .iter()
                    .filter(|candidate| weights[candidate.index] > 0)
                    .map(|candidate| (member(candidate), weights[candidate.index]))
                    .collect()
            }
        };
        if weights.iter().map(|(_, weight)| weight).sum::<i64>() == 0 {
            weights = candidates.iter().map(|c| (member(c), 1)).collect();
        }
        division.target = replicas;
        seated(self.webster(replicas, weights, division))
    }

    /// `assignByDynamicStrategy` (dynamic weights and Aggregated).
    fn dynamic(
        &self,
        candidates: &[ClusterDetail],
        replicas: i64,
        division: &mut Division,
    ) -> Result<Vec<Target>, AssignError> {
        let mut scheduled = self.scheduled(candidates);
        let assigned = sum_int32(&scheduled);
        let (step, target, mut available): (Step, i64, Vec<(Member, i64)>) =
            if self.binding.reschedule {
                let current: HashMap<u32, i64> = scheduled
                    .iter()
                    .map(|cluster| (cluster.index, cluster.replicas))
                    .collect();
                let available = candidates
                    .iter()
                    .map(|c| {
                        let plus = current.get(&(c.index as u32)).copied().unwrap_or(0);
                        let replicas = (c.allocatable as i32).wrapping_add(plus as i32);
                        (member(c), i64::from(replicas))
                    })
                    .collect();
                scheduled.clear();
                (Step::Fresh, replicas, available)
            } else if assigned > replicas {
                // In `spec.clusters` order; every one of them is a candidate.
                let available = scheduled
                    .iter()
                    .map(|cluster| (cluster.member(), cluster.replicas))
                    .collect();
                scheduled.clear();
                (Step::ScaleDown, replicas, available)
            } else if assigned < replicas {
                let available = candidates
                    .iter()
                    .map(|c| (member(c), c.allocatable))
                    .collect();
                (Step::ScaleUp, replicas - assigned, available)
            } else {
                division.step = Some(Step::Unchanged);
                division.target = 0;
                division.kept = scheduled.clone();
                return Ok(scheduled);
            };
        division.step = Some(step);
        division.target = target;
        // `sort.Sort` by replicas descending: an insertion sort (stable) up to 12 clusters.
        available.sort_by_key(|(_, replicas)| std::cmp::Reverse(*replicas));
        let wrap = |message: String| AssignError {
            message: format!("failed to {}: {message}", step.as_str()),
            unschedulable: true,
        };
        if self.trace {
            division.weights = self.owned(&available);
        }
        let total = sum_pairs_int32(&available);
        if total < target {
            return Err(wrap(format!(
                "Clusters available replicas {total} are not enough to schedule."
            )));
        }
        if self.strategy == Strategy::Aggregated {
            available = aggregate(available, &scheduled, target);
        }
        if self.trace {
            division.kept = scheduled.clone();
        }
        let divided = self.webster(target, available, division);
        Ok(merge(scheduled, divided))
    }

    /// The binding's `spec.clusters` that are candidates, in `spec.clusters` order (a repeated
    /// cluster as often as it is listed).
    fn scheduled(&self, candidates: &[ClusterDetail]) -> Vec<Target> {
        let previous = self.binding.clusters;
        if previous.is_empty() {
            return Vec::new();
        }
        let names: HashMap<&str, Member> = candidates.iter().map(|c| (c.name, member(c))).collect();
        previous
            .iter()
            .filter_map(|cluster| {
                let member = names.get(cluster.name.as_str())?;
                Some(Target::new(*member, cluster.replicas))
            })
            .collect()
    }

    /// `Dispenser.AllocateByWeight` with no initial seats: all weights 0 hands out nothing.
    /// Every party comes back, in name order, with its seats (0 included: a merge adds the
    /// previous replicas to them in place).
    fn webster(
        &self,
        replicas: i64,
        mut weights: Vec<(Member, i64)>,
        division: &mut Division,
    ) -> Vec<(Member, i64)> {
        if self.trace {
            division.weights = self.owned(&weights);
        }
        if weights.iter().map(|(_, weight)| weight).sum::<i64>() == 0 {
            return Vec::new();
        }
        // Upstream's votes are a map by name: name order (by rank), the last weight of a
        // repeated cluster counts.
        weights.sort_by_key(|(member, _)| member.0);
        let mut votes: Vec<(Member, i64)> = Vec::with_capacity(weights.len());
        for (member, weight) in weights {
            match votes.last_mut() {
                Some(last) if last.0 == member => last.1 = weight,
                _ => votes.push((member, weight)),
            }
        }
        let tie_break = TieBreak::for_uid(&self.binding.resource.uid);
        let mut rounds = Vec::new();
        let parties = webster::allocate(
            replicas,
            &votes,
            &[],
            tie_break,
            self.trace.then_some(&mut rounds),
        );
        division.rounds = rounds
            .into_iter()
            .map(|round| Round {
                party: self.name(round.party).to_string(),
                priority: round.priority,
                seats_before: round.seats_before,
            })
            .collect();
        parties
            .into_iter()
            .map(|party| (party.key, party.seats))
            .collect()
    }

    fn name(&self, member: Member) -> &str {
        &self.fleet.clusters[member.1 as usize].name
    }

    /// Weights as `explain` keeps them.
    fn owned(&self, weights: &[(Member, i64)]) -> Vec<(String, i64)> {
        weights
            .iter()
            .map(|(member, weight)| (self.name(*member).to_string(), *weight))
            .collect()
    }
}

/// Aggregated: clusters already holding replicas first (keeping order), then the shortest
/// prefix whose weights reach the target.
fn aggregate(
    available: Vec<(Member, i64)>,
    scheduled: &[Target],
    target: i64,
) -> Vec<(Member, i64)> {
    let prior: HashSet<u32> = scheduled
        .iter()
        .filter(|cluster| cluster.replicas > 0)
        .map(|cluster| cluster.index)
        .collect();
    let (mut ordered, rest): (Vec<_>, Vec<_>) = available
        .into_iter()
        .partition(|((_, index), _)| prior.contains(index));
    ordered.extend(rest);
    let mut sum: i32 = 0;
    for (index, (_, weight)) in ordered.iter().enumerate() {
        sum = sum.wrapping_add(*weight as i32);
        if i64::from(sum) >= target {
            ordered.truncate(index + 1);
            break;
        }
    }
    ordered
}

/// `util.MergeTargetClusters`: the new counts added to the old; old clusters the division did
/// not name are appended (in name order; upstream appends them in map order). The new
/// division's clusters at 0 replicas are dropped here; old ones left at 0 are kept, and the
/// caller drops them.
fn merge(old: Vec<Target>, new: Vec<(Member, i64)>) -> Vec<Target> {
    if old.is_empty() {
        return seated(new);
    }
    if new.is_empty() {
        return old;
    }
    // By rank, i.e. by name: a repeated cluster's last count wins, as in upstream's map.
    let mut leftover: BTreeMap<Member, i64> = old
        .into_iter()
        .map(|cluster| (cluster.member(), cluster.replicas))
        .collect();
    let new: Vec<(Member, i64)> = new
        .into_iter()
        .map(|(member, replicas)| match leftover.remove(&member) {
            Some(old) => (
                member,
                i64::from((replicas as i32).wrapping_add(old as i32)),
            ),
            None => (member, replicas),
        })
        .collect();
    let mut new = seated(new);
    new.extend(
        leftover
            .into_iter()
            .map(|(member, replicas)| Target::new(member, replicas)),
    );
    new
}

/// `GetSumOfReplicas`: an int32 sum, wrapping.
fn sum_int32(clusters: &[Target]) -> i64 {
    i64::from(clusters.iter().fold(0i32, |sum, cluster| {
        sum.wrapping_add(cluster.replicas as i32)
    }))
}

/// The clusters in name order.
fn by_name<'c, 'a>(clusters: &'c [ClusterDetail<'a>]) -> Vec<&'c ClusterDetail<'a>> {
    let mut sorted: Vec<&ClusterDetail> = clusters.iter().collect();
    sorted.sort_unstable_by_key(|cluster| cluster.rank);
    sorted
}

fn member(cluster: &ClusterDetail) -> Member {
    (cluster.rank, cluster.index as u32)
}

/// A division's clusters with replicas.
fn seated(seats: Vec<(Member, i64)>) -> Vec<Target> {
    seats
        .into_iter()
        .filter(|(_, replicas)| *replicas > 0)
        .map(|(member, replicas)| Target::new(member, replicas))
        .collect()
}

fn sum_pairs_int32(pairs: &[(Member, i64)]) -> i64 {
    i64::from(pairs.iter().fold(0i32, |sum, (_, replicas)| {
        sum.wrapping_add(*replicas as i32)
    }))
}
