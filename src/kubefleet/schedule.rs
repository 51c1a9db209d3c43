//! One placement scheduled as the hub would settle it (`framework/framework.go
//! RunSchedulingCycleFor` and the three `runSchedulingCycleFor…PlacementType`): cycles run
//! until upstream would stop requeueing, each classifying the bindings, filtering and
//! scoring the fleet, and cross-referencing what it picked with the bindings it found.

use std::collections::HashMap;

use super::decisions::{self, Filtered, MAX_UNSELECTED};
use super::downscale::{self, should_downscale, should_requeue};
use super::fleet::Fleet;
use super::model::binding::{Binding, BindingState, ClusterDecision};
use super::model::member_cluster::MemberCluster;
use super::model::policy::{PlacementPolicy, PlacementType, TopologySpreadConstraint};
use super::pick_fixed;
use super::plugins::cluster_affinity::{self, AffinityError, Scorer};
use super::plugins::cluster_eligibility::Ineligible;
use super::plugins::topology_spread_constraints::{self as spread, Spread, SpreadError};
use super::plugins::{namespace_affinity, same_placement_affinity, taint_toleration};
use super::score::{best_first, pick_top_n_showing, ClusterScore, ScoredCluster, ScoredPosition};
use super::status::Status;
use crate::model::{Condition, ConditionStatus};
use crate::selector::ClusterBits;

pub(crate) use super::model::objects::Placement;

/// The (Cluster)SchedulingPolicySnapshot labelled latest for the placement, if one was given.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct PolicySnapshot {
    pub(crate) name: String,
    pub(crate) policy: Option<PlacementPolicy>,
}

/// Why a cycle failed: upstream writes no status and retries forever.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub(crate) enum CycleError {
    #[error("failed to match the cluster against a required affinity term: {0}")]
    Affinity(AffinityError),
    #[error("failed to prepare the cluster affinity scores: {0}")]
    Observe(AffinityError),
    #[error("failed to score the cluster: {0}")]
    Score(AffinityError),
    #[error("failed to evaluate the topology spread constraints: {0}")]
    Spread(SpreadError),
}

/// What the hub settles on for one placement.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Schedule {
    /// The latest policy snapshot: the given one, or the one the hub would make.
    pub(crate) snapshot: String,
    /// Whether the policy changed, so the hub makes a new snapshot (every binding obsolete).
    pub(crate) new_snapshot: bool,
    pub(crate) cycles: usize,
    /// Every binding of the placement after planning (Unscheduled ones included), by cluster.
    pub(crate) bindings: Vec<Binding>,
    /// Clusters whose bindings planning marked Unscheduled, sorted.
    pub(crate) removed: Vec<String>,
    /// The placement's Scheduled condition (`ClusterResourcePlacementScheduled` or
    /// `ResourcePlacementScheduled`).
    pub(crate) condition: Condition,
    /// `status.clusterDecisions` as the hub writes them (at most 20 unselected).
    pub(crate) decisions: Vec<ClusterDecision>,
    /// Every cluster a filter rejected in the last cycle, by fleet position, in name order
    /// (`filtered` renders them).
    pub(crate) rejected: Rejected,
    /// Every cluster scored but not picked in the last cycle, by fleet position, best first.
    pub(crate) scored_not_picked: NotPicked,
    /// The DoNotSchedule spread constraints a `Rejection::Spread` indexes.
    pub(crate) do_not_schedule: Vec<TopologySpreadConstraint>,
    pub(crate) error: Option<CycleError>,
}

/// Why a filter rejected a cluster: data until a reason is read, so the filter loop allocates
/// nothing per cluster.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Rejection {
    Affinity,
    Ineligible(Ineligible),
    Namespace(&'static str),
    /// The index of the first untolerated taint.
    Taint(usize),
    /// The index of the violated DoNotSchedule constraint.
    Spread(usize),
}

/// Upstream's reason for a rejection, as `clusterDecisions[].reason` shows it.
fn reason(
    cluster: &MemberCluster,
    why: Rejection,
    do_not_schedule: &[TopologySpreadConstraint],
) -> String {
    let reason = match why {
        Rejection::Affinity => cluster_affinity::NOT_MATCHED.to_string(),
        Rejection::Ineligible(ineligible) => ineligible.to_string(),
        Rejection::Namespace(reason) => reason.to_string(),
        Rejection::Taint(index) => cluster
            .taints
            .get(index)
            .map(taint_toleration::reason)
            .unwrap_or_default(),
        Rejection::Spread(index) => do_not_schedule
            .get(index)
            .map(spread::violation)
            .unwrap_or_default(),
    };
    Status::unschedulable(reason).to_string()
}

impl Schedule {
    /// Every rejected cluster with upstream's reason, in name order.
    pub(crate) fn filtered(&self, fleet: &Fleet<'_>) -> Vec<(String, String)> {
        self.rejected
            .iter()
            .map(|(position, why)| {
                let cluster = fleet.clusters()[position];
                (
                    cluster.name.clone(),
                    reason(cluster, why, &self.do_not_schedule),
                )
            })
            .collect()
    }

    /// Every scored cluster that was not picked, best first.
    pub(crate) fn not_picked<'f>(&self, fleet: &Fleet<'f>) -> Vec<(&'f str, ClusterScore)> {
        self.scored_not_picked
            .best_first()
            .into_iter()
            .map(|scored| {
                (
                    fleet.clusters()[scored.position].name.as_str(),
                    scored.score,
                )
            })
            .collect()
    }

    /// The clusters of current scheduled or bound bindings, sorted.
    pub(crate) fn clusters(&self) -> Vec<&str> {
        let mut clusters: Vec<&str> = self
            .bindings
            .iter()
            .filter(|binding| binding.state != BindingState::Unscheduled)
            .map(|binding| binding.target_cluster.as_str())
            .collect();
        clusters.sort_unstable();
        clusters
    }
}

/// The most cycles a placement runs: one per cluster a batch-limited PickN may add, and one
/// more. Upstream requeues while a batch is full; this bound only guards against a loop.
fn max_cycles(fleet: &Fleet<'_>) -> usize {
    fleet.clusters().len() + 2
}

/// Schedules `placement` over `fleet` from its existing `bindings` (those labelled for it).
pub(crate) fn schedule(
    placement: &Placement,
    snapshot: Option<&PolicySnapshot>,
    bindings: &[Binding],
    fleet: &Fleet<'_>,
) -> Schedule {
    let default_policy = PlacementPolicy::default();
    let policy = placement.policy.as_ref().unwrap_or(&default_policy);
    let (snapshot_name, new_snapshot) = latest_snapshot(placement, policy, snapshot, bindings);
    let mut state = State {
        placement,
        policy,
        snapshot: snapshot_name.clone(),
        fleet,
        bindings: bindings
            .iter()
            .filter(|binding| binding.deletion_timestamp.is_none())
            .cloned()
            .collect(),
        removed: Vec::new(),
    };
    let mut schedule = Schedule {
        snapshot: snapshot_name,
        new_snapshot,
        do_not_schedule: spread::classify(&policy.topology_spread_constraints)
            .0
            .into_iter()
            .cloned()
            .collect(),
        ..Schedule::default()
    };
    let mut status = None;
    loop {
        schedule.cycles += 1;
        match state.cycle() {
            Err(error) => {
                schedule.error = Some(error);
                status = None;
                break;
            }
            Ok(outcome) => {
                let requeue = outcome.requeue;
                if let Some(mut cycle_status) = outcome.status {
                    schedule.rejected = std::mem::take(&mut cycle_status.rejected);
                    schedule.scored_not_picked = std::mem::take(&mut cycle_status.not_picked);
                    status = Some(cycle_status);
                }
                if !requeue || schedule.cycles >= max_cycles(fleet) {
                    break;
                }
            }
        }
    }
    let condition_type = if placement.namespace.is_some() {
        "ResourcePlacementScheduled"
    } else {
        "ClusterResourcePlacementScheduled"
    };
    match status {
        Some(status) => {
            schedule.condition = Condition {
                type_: condition_type.to_string(),
                ..status.condition
            };
            schedule.decisions = status.decisions;
        }
        None => {
            schedule.condition = Condition {
                type_: condition_type.to_string(),
                status: ConditionStatus::Unknown,
                reason: "SchedulePending".to_string(),
                message: "Scheduling has not completed".to_string(),
            };
        }
    }
    state.removed.sort();
    state.removed.dedup();
    state
        .bindings
        .sort_by(|a, b| a.target_cluster.cmp(&b.target_cluster));
    schedule.removed = state.removed;
    schedule.bindings = state.bindings;
    schedule
}

/// Which snapshot is the latest (design §2): the given one if its policy is the placement's
/// (`numberOfClusters` aside), else the next index; with none given, the highest
/// `<placement>-<n>` a binding names (a fleetplan convention), else `<placement>-0`.
fn latest_snapshot(
    placement: &Placement,
    policy: &PlacementPolicy,
    snapshot: Option<&PolicySnapshot>,
    bindings: &[Binding],
) -> (String, bool) {
    let index_of = |name: &str| {
        name.strip_prefix(placement.name.as_str())
            .and_then(|rest| rest.strip_prefix('-'))
            .and_then(|index| index.parse::<u64>().ok())
    };
    match snapshot {
        Some(snapshot) => {
            let default_policy = PlacementPolicy::default();
            let given = snapshot.policy.as_ref().unwrap_or(&default_policy);
            if same_ignoring_count(given, policy) {
                (snapshot.name.clone(), false)
            } else {
                let next = index_of(&snapshot.name).map_or(0, |index| index + 1);
                (format!("{}-{next}", placement.name), true)
            }
        }
        None => {
            let highest = bindings
                .iter()
                .filter_map(|binding| index_of(&binding.scheduling_policy_snapshot_name))
                .max()
                .unwrap_or(0);
            (format!("{}-{highest}", placement.name), false)
        }
    }
}

/// The snapshot's hash leaves `numberOfClusters` out: changing N keeps the snapshot.
fn same_ignoring_count(a: &PlacementPolicy, b: &PlacementPolicy) -> bool {
    let without_count = |policy: &PlacementPolicy| PlacementPolicy {
        number_of_clusters: None,
        ..policy.clone()
    };
    without_count(a) == without_count(b)
}

struct State<'a, 'c> {
    placement: &'a Placement,
    policy: &'a PlacementPolicy,
    snapshot: String,
    fleet: &'a Fleet<'c>,
    bindings: Vec<Binding>,
    removed: Vec<String>,
}

/// How the cycle found a binding (`prepareBindingProcessingBundles`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Unscheduled,
    Dangling,
    Obsolete,
    Scheduled,
    Bound,
}

/// The clusters scored but not picked in one cycle, by fleet position: best first as far as
/// the status lists them, the rest after those in no particular order until read in full.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct NotPicked {
    scored: Vec<ScoredPosition>,
    /// How many of `scored` are in their place.
    ordered: usize,
}

impl NotPicked {
    /// Every one, best first.
    fn best_first(&self) -> Vec<ScoredPosition> {
        let mut scored = self.scored.clone();
        scored[self.ordered..].sort_unstable_by(best_first);
        scored
    }
}

/// The clusters the filters rejected in one cycle, by fleet position: those ClusterAffinity
/// rejected as a set (most of the fleet, for a placement that selects a few of it), the
/// others each with its reason.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Rejected {
    affinity: Option<ClusterBits>,
    /// In position order.
    others: Vec<(usize, Rejection)>,
}

impl Rejected {
    /// Every rejected cluster with why, in position (name) order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (usize, Rejection)> + '_ {
        let mut affinity = self
            .affinity
            .iter()
            .flat_map(ClusterBits::iter_ones)
            .peekable();
        let mut others = self.others.iter().copied().peekable();
        std::iter::from_fn(move || match (affinity.peek(), others.peek()) {
            (Some(&position), Some(&(other, _))) if position > other => others.next(),
            (Some(_), _) => affinity
                .next()
                .map(|position| (position, Rejection::Affinity)),
            (None, _) => others.next(),
        })
    }
}

struct Outcome {
    requeue: bool,
    status: Option<CycleStatus>,
}

struct CycleStatus {
    condition: Condition,
    decisions: Vec<ClusterDecision>,
    rejected: Rejected,
    not_picked: NotPicked,
}

impl<'c> State<'_, 'c> {
    fn class(&self, binding: &Binding) -> Class {
        if binding.state == BindingState::Unscheduled {
            return Class::Unscheduled;
        }
        match self.fleet.get(&binding.target_cluster) {
            None => return Class::Dangling,
            Some(cluster) if cluster.deletion_timestamp.is_some() => return Class::Dangling,
            Some(_) => {}
        }
        if binding.scheduling_policy_snapshot_name != self.snapshot {
            return Class::Obsolete;
        }
        match binding.state {
            BindingState::Bound => Class::Bound,
            _ => Class::Scheduled,
        }
    }

    fn unschedule(&mut self, index: usize) {
        let binding = &mut self.bindings[index];
        if binding.state != BindingState::Unscheduled {
            binding.previous_state = Some(binding.state);
            binding.state = BindingState::Unscheduled;
            self.removed.push(binding.target_cluster.clone());
        }
    }

    /// Marks dangling bindings Unscheduled and returns every binding's class.
    fn classify(&mut self) -> Vec<Class> {
        let classes: Vec<Class> = self
            .bindings
            .iter()
            .map(|binding| self.class(binding))
            .collect();
        for (index, class) in classes.iter().enumerate() {
            if *class == Class::Dangling {
                self.unschedule(index);
            }
        }
        classes
    }

    fn cycle(&mut self) -> Result<Outcome, CycleError> {
        match self.policy.placement_type {
            PlacementType::PickAll => self.pick_all(),
            PlacementType::PickN => self.pick_n(),
            PlacementType::PickFixed => Ok(self.pick_fixed()),
        }
    }

    /// Bindings per cluster, for cross-referencing picks (the last one wins, as upstream's map).
    fn by_cluster(&self) -> HashMap<String, usize> {
        self.bindings
            .iter()
            .enumerate()
            .map(|(index, binding)| (binding.target_cluster.clone(), index))
            .collect()
    }

    /// PickAll: only the filters run; every cluster that passes is picked, scored 0/0.
    fn pick_all(&mut self) -> Result<Outcome, CycleError> {
        let classes = self.classify();
        let (passed, filtered) = self.filter(&classes, None)?;
        let picked: Vec<(String, Option<ClusterScore>)> = passed
            .iter()
            .map(|position| {
                let name = self.fleet.clusters()[*position].name.clone();
                (name, Some(ClusterScore::default()))
            })
            .collect();
        let touched = self.cross_reference(&classes, &picked);
        let status =
            self.status_from_bindings(&classes, &touched, None, NotPicked::default(), filtered);
        Ok(Outcome {
            requeue: false,
            status: Some(status),
        })
    }

    fn pick_n(&mut self) -> Result<Outcome, CycleError> {
        let classes = self.classify();
        let desired = usize::try_from(self.policy.number_of_clusters()).unwrap_or(0);
        let present = classes
            .iter()
            .filter(|class| matches!(class, Class::Scheduled | Class::Bound))
            .count();
        let obsolete = classes
            .iter()
            .filter(|class| **class == Class::Obsolete)
            .count();
        if let Some(count) = should_downscale(PlacementType::PickN, desired, present, obsolete) {
            return Ok(self.downscale(&classes, count, desired));
        }
        if desired <= present {
            let status = self.status_from_bindings(
                &classes,
                &[],
                Some(desired),
                NotPicked::default(),
                Rejected::default(),
            );
            return Ok(Outcome {
                requeue: false,
                status: Some(status),
            });
        }
        let wanted = desired - present;
        let batch_limit = match spread::batch_limit(Some(self.policy)) {
            Ok(limit) => limit.min(wanted),
            Err(_) => wanted,
        };
        let (filtered, scored) = self.filter_and_score(&classes)?;
        let count = downscale::num_to_select(wanted, batch_limit, scored.len());
        let scored: Vec<ScoredPosition> = scored
            .into_iter()
            .map(|(position, score)| ScoredPosition { position, score })
            .collect();
        let (picked, not_picked) = pick_top_n_showing(scored, count, MAX_UNSELECTED);
        let clusters = self.fleet.clusters();
        let picked: Vec<(String, Option<ClusterScore>)> = picked
            .iter()
            .map(|scored| (clusters[scored.position].name.clone(), Some(scored.score)))
            .collect();
        // With nothing to pick the rest keeps its order, which is then the one listed.
        let ordered = if count == 0 {
            not_picked.len()
        } else {
            not_picked.len().min(MAX_UNSELECTED)
        };
        let not_picked = NotPicked {
            scored: not_picked,
            ordered,
        };
        let touched = self.cross_reference(&classes, &picked);
        let requeue = should_requeue(wanted, batch_limit, touched.len());
        let status =
            self.status_from_bindings(&classes, &touched, Some(desired), not_picked, filtered);
        Ok(Outcome {
            requeue,
            status: Some(status),
        })
    }

    fn downscale(&mut self, classes: &[Class], count: usize, desired: usize) -> Outcome {
        for (index, class) in classes.iter().enumerate() {
            if *class == Class::Obsolete {
                self.unschedule(index);
            }
        }
        let of = |wanted: Class| -> Vec<Binding> {
            classes
                .iter()
                .zip(&self.bindings)
                .filter(|(class, _)| **class == wanted)
                .map(|(_, binding)| binding.clone())
                .collect()
        };
        let (scheduled, bound) = (of(Class::Scheduled), of(Class::Bound));
        // `should_downscale` never asks for more than the current bindings.
        let trimmed = downscale::downscale(scheduled, bound, count).unwrap_or_default();
        for binding in &trimmed.unscheduled {
            if let Some(index) = self.bindings.iter().position(|candidate| {
                candidate.name == binding.name && candidate.target_cluster == binding.target_cluster
            }) {
                self.unschedule(index);
            }
        }
        let kept = [
            trimmed.kept_scheduled.as_slice(),
            trimmed.kept_bound.as_slice(),
        ];
        let count = kept.iter().map(|bindings| bindings.len()).sum();
        Outcome {
            requeue: false,
            status: Some(CycleStatus {
                condition: decisions::scheduled_condition(desired, count),
                decisions: decisions::from_bindings(MAX_UNSELECTED, &[], &[], &kept),
                rejected: Rejected::default(),
                not_picked: NotPicked::default(),
            }),
        }
    }

    /// PickFixed: no plugin runs; an empty list skips the cycle (no status) once the
    /// dangling bindings are unscheduled.
    fn pick_fixed(&mut self) -> Outcome {
        // Dangling bindings are unscheduled before the cycle, even one upstream skips
        // (`runSchedulingCycleFor`, then `runSchedulingCycleForPickFixedPlacementType`).
        let classes = self.classify();
        if self.policy.cluster_names.is_empty() {
            return Outcome {
                requeue: false,
                status: None,
            };
        }
        let fleet = self.fleet;
        let eligibility = |name: &str| {
            fleet
                .position(name)
                .map(|position| fleet.eligibility(position))
        };
        let targets = pick_fixed::cross_reference(&self.policy.cluster_names, eligibility);
        let picked: Vec<(String, Option<ClusterScore>)> = targets
            .valid
            .iter()
            .map(|name| (name.to_string(), None))
            .collect();
        self.cross_reference(&classes, &picked);
        let condition = decisions::pick_fixed_condition(
            targets.valid.len(),
            targets.invalid.len(),
            targets.not_found.len(),
        );
        let decisions = decisions::pick_fixed(&targets.valid, &targets.invalid, &targets.not_found);
        Outcome {
            requeue: false,
            status: Some(CycleStatus {
                condition,
                decisions,
                rejected: Rejected::default(),
                not_picked: NotPicked::default(),
            }),
        }
    }

    /// `crossReferencePickedClustersAndDeDupBindings`: a picked cluster's obsolete binding is
    /// moved to the latest snapshot with its new score, its Unscheduled one restored, otherwise
    /// a binding is made; an obsolete binding whose cluster was not picked is unscheduled.
    /// Returns the indexes of the bindings made or patched, in pick order.
    fn cross_reference(
        &mut self,
        classes: &[Class],
        picked: &[(String, Option<ClusterScore>)],
    ) -> Vec<usize> {
        let existing = self.by_cluster();
        let picked_names: std::collections::HashSet<&str> =
            picked.iter().map(|(name, _)| name.as_str()).collect();
        for (index, class) in classes.iter().enumerate() {
            if *class == Class::Obsolete
                && !picked_names.contains(self.bindings[index].target_cluster.as_str())
            {
                self.unschedule(index);
            }
        }
        let mut touched = Vec::with_capacity(picked.len());
        for (name, score) in picked {
            let decision = decision_for(name, *score);
            match existing.get(name) {
                Some(&index)
                    if matches!(
                        classes.get(index),
                        Some(Class::Obsolete | Class::Unscheduled | Class::Dangling)
                    ) =>
                {
                    let binding = &mut self.bindings[index];
                    if binding.state == BindingState::Unscheduled {
                        binding.state = binding
                            .previous_state
                            .take()
                            .unwrap_or(BindingState::Scheduled);
                        self.removed.retain(|removed| removed != name);
                    }
                    binding.scheduling_policy_snapshot_name = self.snapshot.clone();
                    binding.cluster_decision = decision;
                    touched.push(index);
                }
                Some(_) => {}
                None => {
                    self.bindings.push(Binding {
                        name: format!("{}-{name}", self.placement.name),
                        namespace: self.placement.namespace.clone(),
                        placement: Some(self.placement.name.clone()),
                        deletion_timestamp: None,
                        target_cluster: name.clone(),
                        state: BindingState::Scheduled,
                        scheduling_policy_snapshot_name: self.snapshot.clone(),
                        cluster_decision: decision,
                        previous_state: None,
                    });
                    touched.push(self.bindings.len() - 1);
                }
            }
        }
        touched
    }

    /// The status of a PickAll or PickN cycle: the bindings made or patched first, then the
    /// scheduled and the bound ones, then the unselected clusters.
    fn status_from_bindings(
        &self,
        classes: &[Class],
        touched: &[usize],
        desired: Option<usize>,
        not_picked: NotPicked,
        rejected: Rejected,
    ) -> CycleStatus {
        let touched_set: std::collections::HashSet<usize> = touched.iter().copied().collect();
        let made: Vec<Binding> = touched
            .iter()
            .map(|index| self.bindings[*index].clone())
            .collect();
        let of = |wanted: Class| -> Vec<Binding> {
            classes
                .iter()
                .enumerate()
                .filter(|(index, class)| **class == wanted && !touched_set.contains(index))
                .map(|(index, _)| self.bindings[index].clone())
                .collect()
        };
        let mut scheduled = of(Class::Scheduled);
        let mut bound = of(Class::Bound);
        // Upstream lists them in binding-name order, and names carry a random suffix.
        scheduled.sort_by(|a, b| a.name.cmp(&b.name));
        bound.sort_by(|a, b| a.name.cmp(&b.name));
        let existing = [made.as_slice(), scheduled.as_slice(), bound.as_slice()];
        let count: usize = existing.iter().map(|bindings| bindings.len()).sum();
        let clusters = self.fleet.clusters();
        let scored: Vec<ScoredCluster<'_>> = not_picked
            .scored
            .iter()
            .take(MAX_UNSELECTED)
            .map(|scored| ScoredCluster {
                name: &clusters[scored.position].name,
                score: scored.score,
            })
            .collect();
        // Only the first MAX_UNSELECTED rejections can reach the status (the filtered loop
        // counts the ones it skips), so only those are rendered.
        let do_not_schedule: Vec<TopologySpreadConstraint> =
            spread::classify(&self.policy.topology_spread_constraints)
                .0
                .into_iter()
                .cloned()
                .collect();
        let filtered: Vec<Filtered<'_>> = rejected
            .iter()
            .take(MAX_UNSELECTED)
            .map(|(position, why)| Filtered {
                cluster: &clusters[position].name,
                reason: reason(clusters[position], why, &do_not_schedule),
            })
            .collect();
        CycleStatus {
            // PickAll is always fulfilled: it wants whatever it found.
            condition: decisions::scheduled_condition(desired.unwrap_or(count), count),
            decisions: decisions::from_bindings(MAX_UNSELECTED, &scored, &filtered, &existing),
            rejected,
            not_picked,
        }
    }

    /// Runs the filters over the fleet in name order. Returns the positions that passed and
    /// every rejected cluster with its reason; clusters with a current binding are neither.
    fn filter(
        &self,
        classes: &[Class],
        verdicts: Option<&[Spread]>,
    ) -> Result<(Vec<usize>, Rejected), CycleError> {
        let current = self.current_positions(classes);
        let affinity = cluster_affinity::Filter::new(Some(self.policy)).ok();
        let matched = match &affinity {
            Some(filter) => Some(
                filter
                    .over(self.fleet)
                    .matched()
                    .map_err(CycleError::Affinity)?,
            ),
            None => None,
        };
        let namespace = self.placement.namespace.as_deref();
        let clusters = self.fleet.clusters();
        let mut passed = Vec::new();
        let mut others = Vec::new();
        let every;
        let candidates = match &matched {
            Some(matched) => matched,
            None => {
                every = ClusterBits::full(clusters.len());
                &every
            }
        };
        for position in candidates.iter_ones() {
            if let Err(ineligible) = self.fleet.eligibility(position) {
                others.push((position, Rejection::Ineligible(ineligible)));
                continue;
            }
            if let Some(reason) = namespace
                .and_then(|namespace| namespace_affinity::rejection(namespace, clusters[position]))
            {
                others.push((position, Rejection::Namespace(reason)));
                continue;
            }
            if self.fleet.tainted(position) {
                let tolerations = &self.policy.tolerations;
                if let Some(index) = taint_toleration::untolerated(clusters[position], tolerations)
                {
                    others.push((position, Rejection::Taint(index)));
                    continue;
                }
            }
            if same_placement_affinity::filter(current[position]).is_some() {
                continue;
            }
            if let Some(Spread::Violated(index)) =
                verdicts.and_then(|verdicts| verdicts.get(position))
            {
                others.push((position, Rejection::Spread(*index)));
                continue;
            }
            passed.push(position);
        }
        let rejected = Rejected {
            affinity: matched.map(|matched| matched.not()),
            others,
        };
        Ok((passed, rejected))
    }

    /// PickN: the spread state over the whole fleet, the filters, then the scores. Returns
    /// the rejected clusters and the scored ones.
    fn filter_and_score(
        &self,
        classes: &[Class],
    ) -> Result<(Rejected, Vec<(usize, ClusterScore)>), CycleError> {
        let current = self.current_positions(classes);
        let (_, verdicts) = spread::prepare_fleet(Some(self.policy), self.fleet, &current)
            .map_err(CycleError::Spread)?;
        let verdicts = (!verdicts.is_empty()).then_some(verdicts);
        let (passed, filtered) = self.filter(classes, verdicts.as_deref())?;
        let scorer = match cluster_affinity::observe_fleet(Some(self.policy), self.fleet) {
            Err(_skip) => None,
            Ok(Err(error)) => return Err(CycleError::Observe(error)),
            Ok(Ok(observed)) => Some(Scorer::new(self.policy, observed)),
        };
        let scorer = scorer.as_ref().map(|scorer| scorer.over(self.fleet));
        let obsolete = self.obsolete_positions(classes);
        let mut scored = Vec::with_capacity(passed.len());
        for position in &passed {
            let affinity = match &scorer {
                Some(scorer) => scorer.score(*position).map_err(CycleError::Score)?,
                None => 0,
            };
            let topology_spread = match verdicts
                .as_ref()
                .and_then(|verdicts| verdicts.get(*position))
            {
                Some(Spread::Score(score)) => *score,
                _ => 0,
            };
            scored.push((
                *position,
                ClusterScore {
                    topology_spread,
                    affinity,
                    obsolete_placement_affinity: same_placement_affinity::score(
                        obsolete[*position],
                    ),
                },
            ));
        }
        Ok((filtered, scored))
    }

    fn current_positions(&self, classes: &[Class]) -> Vec<bool> {
        self.positions(classes, |class| {
            matches!(class, Class::Scheduled | Class::Bound)
        })
    }

    fn obsolete_positions(&self, classes: &[Class]) -> Vec<bool> {
        self.positions(classes, |class| class == Class::Obsolete)
    }

    fn positions(&self, classes: &[Class], wanted: impl Fn(Class) -> bool) -> Vec<bool> {
        let mut marks = vec![false; self.fleet.clusters().len()];
        for (binding, class) in self.bindings.iter().zip(classes) {
            if wanted(*class) {
                if let Some(position) = self.fleet.position(&binding.target_cluster) {
                    marks[position] = true;
                }
            }
        }
        marks
    }
}

/// The decision a made or patched binding records.
fn decision_for(cluster: &str, score: Option<ClusterScore>) -> ClusterDecision {
    match score {
        Some(score) => ClusterDecision {
            cluster_name: cluster.to_string(),
            selected: true,
            cluster_score: Some(score.binding_score()),
            reason: decisions::picked_reason(cluster, score.affinity, score.topology_spread),
        },
        None => ClusterDecision {
            cluster_name: cluster.to_string(),
            selected: true,
            cluster_score: None,
            reason: decisions::picked_fixed_reason(cluster),
        },
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{json, Value};

    use super::*;
    use crate::kubefleet::model::wire::read;

    const NOW: &str = "2026-06-01T12:00:00Z";
    const NOW_SECONDS: i64 = 1_780_315_200;

    fn member(name: &str, labels: Value, heartbeat: &str) -> MemberCluster {
        let cluster = read(&json!({
            "metadata": {"name": name, "labels": labels},
            "status": {"agentStatus": [{
                "type": "MemberAgent",
                "lastReceivedHeartbeat": heartbeat,
                "conditions": [
                    {"type": "Joined", "status": "True"},
                    {"type": "Healthy", "status": "True", "lastTransitionTime": heartbeat}
                ]
            }]}
        }));
        cluster.unwrap_or_default()
    }

    fn healthy(name: &str, labels: Value) -> MemberCluster {
        member(name, labels, NOW)
    }

    fn placement(policy: Value) -> Placement {
        Placement {
            namespace: None,
            name: "crp".to_string(),
            policy: read(&policy).ok(),
            strategy_type: "RollingUpdate".to_string(),
        }
    }

    fn run(placement: &Placement, bindings: &[Binding], clusters: &[MemberCluster]) -> Schedule {
        let fleet = Fleet::new(clusters, NOW_SECONDS);
        schedule(placement, None, bindings, &fleet)
    }

    /// The rejected clusters with their reasons, as explain will read them.
    fn filtered(schedule: &Schedule, clusters: &[MemberCluster]) -> Vec<(String, String)> {
        schedule.filtered(&Fleet::new(clusters, NOW_SECONDS))
    }

    fn bound(cluster: &str, snapshot: &str) -> Binding {
        Binding {
            name: format!("crp-{cluster}"),
            target_cluster: cluster.to_string(),
            state: BindingState::Bound,
            scheduling_policy_snapshot_name: snapshot.to_string(),
            ..Binding::default()
        }
    }

    #[test]
    fn pick_n_with_a_spread_constraint_picks_one_cluster_per_cycle() {
        // The design's worked example (§5), run on upstream.
        let clusters = [
            healthy("a", json!({"zone": "1"})),
            healthy("b", json!({"zone": "1"})),
            healthy("c", json!({})),
            member("d", json!({"zone": "2"}), "2026-06-01T11:00:00Z"),
        ];
        let placement = placement(json!({
            "placementType": "PickN", "numberOfClusters": 3,
            "topologySpreadConstraints": [{"topologyKey": "zone"}]
        }));
        let schedule = run(&placement, &[], &clusters);
        assert_eq!(schedule.clusters(), ["b", "c"]);
        assert_eq!(schedule.cycles, 3);
        assert_eq!(
            schedule.condition.message,
            "could not find all clusters needed as specified by the scheduling policy, found 2 cluster(s) instead"
        );
        assert_eq!(
            schedule.condition.type_,
            "ClusterResourcePlacementScheduled"
        );
        assert!(filtered(&schedule, &clusters)
            .iter()
            .any(|(cluster, reason)| cluster == "a"
                && reason == "ClusterUnschedulable, violated doNotSchedule topology spread constraint \"zone\" (max skew 1)"));
    }

    #[test]
    fn a_pick_n_tie_goes_to_the_larger_name() {
        let clusters = [
            healthy("cluster-3", json!({})),
            healthy("cluster-4", json!({})),
        ];
        let placement = placement(json!({"placementType": "PickN", "numberOfClusters": 1}));
        assert_eq!(run(&placement, &[], &clusters).clusters(), ["cluster-4"]);
    }

    #[test]
    fn pick_all_keeps_a_current_binding_on_a_tainted_cluster() {
        let mut tainted = healthy("a", json!({}));
        tainted.taints.push(crate::kubefleet::model::taint::Taint {
            key: "k".to_string(),
            value: String::new(),
            effect: "NoSchedule".to_string(),
        });
        let clusters = [tainted, healthy("b", json!({}))];
        let schedule = run(&placement(json!({})), &[bound("a", "crp-0")], &clusters);
        assert_eq!(schedule.clusters(), ["a", "b"]);
        assert!(schedule.removed.is_empty());
        assert_eq!(
            schedule.condition.message,
            "found all cluster needed as specified by the scheduling policy, found 2 cluster(s)"
        );
    }

    #[test]
    fn a_smaller_n_trims_the_smaller_name_first() {
        let clusters = [healthy("a", json!({})), healthy("b", json!({}))];
        let placement = placement(json!({"placementType": "PickN", "numberOfClusters": 1}));
        let bindings = [bound("a", "crp-0"), bound("b", "crp-0")];
        let schedule = run(&placement, &bindings, &clusters);
        assert_eq!(schedule.clusters(), ["b"]);
        assert_eq!(schedule.removed, ["a"]);
    }

    #[test]
    fn a_policy_change_makes_a_new_snapshot_and_drops_unpicked_bindings() {
        let clusters = [
            healthy("a", json!({"env": "prod"})),
            healthy("b", json!({})),
        ];
        let placement = placement(json!({"affinity": {"clusterAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"clusterSelectorTerms": [
                {"labelSelector": {"matchLabels": {"env": "prod"}}}
            ]}
        }}}));
        let snapshot = PolicySnapshot {
            name: "crp-0".to_string(),
            policy: None,
        };
        let fleet = Fleet::new(&clusters, NOW_SECONDS);
        let bindings = [bound("a", "crp-0"), bound("b", "crp-0")];
        let schedule = schedule(&placement, Some(&snapshot), &bindings, &fleet);
        assert!(schedule.new_snapshot);
        assert_eq!(schedule.snapshot, "crp-1");
        assert_eq!(schedule.clusters(), ["a"]);
        assert_eq!(schedule.removed, ["b"]);
        // The re-picked binding keeps its state.
        assert_eq!(schedule.bindings[0].state, BindingState::Bound);
    }

    #[test]
    fn pick_fixed_reports_invalid_and_missing_names() {
        let clusters = [
            healthy("a", json!({})),
            member("b", json!({}), "2026-06-01T11:00:00Z"),
        ];
        let placement =
            placement(json!({"placementType": "PickFixed", "clusterNames": ["a", "b", "c"]}));
        let schedule = run(&placement, &[], &clusters);
        assert_eq!(schedule.clusters(), ["a"]);
        assert_eq!(schedule.condition.status, ConditionStatus::False);
        let reasons: Vec<&str> = schedule
            .decisions
            .iter()
            .map(|decision| decision.reason.as_str())
            .collect();
        assert_eq!(
            reasons,
            [
                "Successfully scheduled resources for placement in \"a\": picked by scheduling policy",
                "Cluster \"b\" is not eligible for resource placement yet: cluster is not connected to the fleet: no recent heartbeat signals (last received 60.00 minutes ago)",
                "Specified cluster \"c\" is not found",
            ]
        );
    }

    #[test]
    fn one_bad_property_anywhere_fails_the_cycle() {
        let mut odd = healthy("b", json!({}));
        odd.properties
            .insert("k8s.io/k8s-version".to_string(), "1.30.2".to_string());
        let clusters = [healthy("a", json!({})), odd];
        let placement = placement(json!({"affinity": {"clusterAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"clusterSelectorTerms": [
                {"propertySelector": {"matchExpressions": [
                    {"name": "k8s.io/k8s-version", "operator": "Ge", "values": ["1"]}
                ]}}
            ]}
        }}}));
        let schedule = run(&placement, &[], &clusters);
        assert!(schedule.error.is_some());
        assert!(schedule.clusters().is_empty());
        assert_eq!(schedule.condition.reason, "SchedulePending");
    }

    #[test]
    fn a_resource_placement_skips_clusters_without_its_namespace() {
        let mut collecting = healthy("a", json!({}));
        collecting
            .conditions
            .push(crate::kubefleet::model::member_cluster::Condition {
                condition_type: "NamespaceCollectionSucceeded".to_string(),
                status: "False".to_string(),
                last_transition_time: None,
            });
        let clusters = [collecting, healthy("b", json!({}))];
        let placement = Placement {
            namespace: Some("team".to_string()),
            ..placement(json!({}))
        };
        let schedule = run(&placement, &[], &clusters);
        assert_eq!(schedule.clusters(), ["b"]);
        assert_eq!(schedule.condition.type_, "ResourcePlacementScheduled");
        assert_eq!(
            filtered(&schedule, &clusters),
            [(
                "a".to_string(),
                "ClusterUnschedulable, cluster has no namespace information available".to_string()
            )]
        );
    }

    proptest! {
        #[test]
        fn pick_n_never_exceeds_n_and_ignores_input_order(
            zones in prop::collection::vec(0u8..3, 1..8),
            n in 0i32..10,
            spread in any::<bool>(),
            rotate in 0usize..8,
        ) {
            let clusters: Vec<MemberCluster> = zones
                .iter()
                .enumerate()
                .map(|(index, zone)| healthy(&format!("c{index}"), json!({"zone": zone.to_string()})))
                .collect();
            let mut policy = json!({"placementType": "PickN", "numberOfClusters": n});
            if spread {
                policy["topologySpreadConstraints"] = json!([{"topologyKey": "zone", "whenUnsatisfiable": "ScheduleAnyway"}]);
            }
            let placement = placement(policy);
            let first = run(&placement, &[], &clusters);
            let mut rotated = clusters.clone();
            rotated.rotate_left(rotate % clusters.len());
            let second = run(&placement, &[], &rotated);
            prop_assert!(first.clusters().len() <= usize::try_from(n).unwrap_or(0));
            prop_assert_eq!(first.clusters(), second.clusters());
            prop_assert_eq!(first.decisions, second.decisions);
        }
    }
}
