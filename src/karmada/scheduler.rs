//! One scheduling of a binding (`generic_scheduler.go Schedule`) and the outcome the scheduler
//! writes (`scheduler.go scheduleResourceBinding*`, `helper.go getConditionByError`), with the
//! `clusterAffinities` failover.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use crate::karmada::model::{KarmadaCluster, TargetCluster};

use super::assignment::{self, Division, Strategy, Target};
use super::cluster_locality;
use super::filter::{self, FilterContext, TermAffinity, Verdict};
use super::fleet::{FilterTable, Fleet};
use super::spread::{self, ClusterDetail, Selection};
use super::Binding;

/// The `Scheduled` condition's reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Success,
    NoClusterFit,
    Unschedulable,
    SchedulerError,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Success => "Success",
            Reason::NoClusterFit => "NoClusterFit",
            Reason::Unschedulable => "Unschedulable",
            Reason::SchedulerError => "SchedulerError",
        }
    }
}

/// `successfulSchedulingMessage`.
pub(crate) const SUCCESS_MESSAGE: &str = "Binding has been scheduled successfully.";

/// One run of the pipeline (one affinity term, or the placement's single affinity).
#[derive(Clone, Debug)]
pub struct Attempt<'a> {
    /// The `clusterAffinities` term tried.
    pub term: Option<String>,
    /// Every cluster's verdict (fleet order), kept only when traced.
    pub verdicts: Vec<Verdict>,
    /// The feasible clusters with scores and available replicas, sorted.
    pub feasible: Vec<ClusterDetail<'a>>,
    pub selection: Option<Selection>,
    pub selected: Vec<ClusterDetail<'a>>,
    pub strategy: Option<Strategy>,
    pub divisions: Vec<Division>,
    pub result: Result<Vec<Target>, Failure>,
}

/// Why an attempt failed: the condition's reason and upstream's error text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub reason: Reason,
    pub message: String,
}

/// What the scheduler writes into the binding.
#[derive(Clone, Debug)]
pub struct Outcome<'a> {
    pub attempts: Vec<Attempt<'a>>,
    pub reason: Reason,
    pub message: String,
    /// `spec.clusters` afterwards: the result, cleared on a FitError, else unchanged.
    pub clusters: Clusters,
    /// The term that succeeded.
    pub term: Option<String>,
    /// `status.schedulerObservingAffinityName` afterwards.
    pub observed_affinity: Option<String>,
}

impl Outcome<'_> {
    pub fn scheduled(&self) -> bool {
        self.reason == Reason::Success
    }
}

/// `spec.clusters` after scheduling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Clusters {
    /// The result of this run, on the fleet's clusters.
    Placed(Vec<Target>),
    /// The previous `spec.clusters`, kept as they were (the run failed, or there was no
    /// affinity term to try): they may name clusters the fleet no longer has.
    Kept(Vec<TargetCluster>),
}

/// A `spec.clusters` entry as it is written out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<'c> {
    /// The cluster's index in the fleet when the run placed it; `None` for a kept entry,
    /// which may name a cluster the fleet no longer has.
    pub index: Option<usize>,
    pub name: &'c str,
    pub replicas: i64,
}

impl Clusters {
    pub fn len(&self) -> usize {
        match self {
            Clusters::Placed(targets) => targets.len(),
            Clusters::Kept(targets) => targets.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each entry in name order, a repeated name keeping its order; `fleet` is the clusters
    /// the run scheduled over.
    pub fn entries<'c>(&'c self, fleet: &'c [KarmadaCluster]) -> Vec<Entry<'c>> {
        match self {
            Clusters::Placed(targets) => {
                let mut sorted: Vec<&Target> = targets.iter().collect();
                sorted.sort_by_key(|target| target.rank);
                sorted
                    .into_iter()
                    .map(|target| Entry {
                        index: Some(target.index as usize),
                        name: fleet[target.index as usize].name.as_str(),
                        replicas: target.replicas,
                    })
                    .collect()
            }
            Clusters::Kept(targets) => {
                let mut named: Vec<Entry> = targets
                    .iter()
                    .map(|target| Entry {
                        index: None,
                        name: target.name.as_str(),
                        replicas: target.replicas,
                    })
                    .collect();
                named.sort_by(|a, b| a.name.cmp(b.name));
                named
            }
        }
    }

    /// The replicas of the first entry for each of the fleet's clusters, by fleet index: one
    /// walk over the entries, where a search per cluster was quadratic in a large fleet.
    pub fn replicas_by_index(&self, fleet: &[KarmadaCluster]) -> Vec<Option<i64>> {
        match self {
            Clusters::Placed(targets) => {
                let mut replicas = vec![None; fleet.len()];
                // Backwards, so the first entry of a cluster is the one left.
                for target in targets.iter().rev() {
                    if let Some(slot) = replicas.get_mut(target.index as usize) {
                        *slot = Some(target.replicas);
                    }
                }
                replicas
            }
            Clusters::Kept(targets) => {
                let mut first: HashMap<&str, i64> = HashMap::with_capacity(targets.len());
                for target in targets {
                    first.entry(&target.name).or_insert(target.replicas);
                }
                fleet
                    .iter()
                    .map(|cluster| first.get(cluster.name.as_str()).copied())
                    .collect()
            }
        }
    }
}

/// Schedules `binding` over `fleet` as `scheduleResourceBinding` does.
pub(crate) fn schedule<'a>(fleet: &Fleet<'a>, binding: &Binding, trace: bool) -> Outcome<'a> {
    match &binding.placement.cluster_affinities {
        Some(terms) => with_affinities(fleet, binding, terms, trace),
        None => {
            let mut attempt = run(fleet, binding, None, trace);
            let outcome = finish(binding, result_of(&mut attempt, trace), None);
            Outcome {
                attempts: vec![attempt],
                observed_affinity: binding.observed_affinity.map(str::to_string),
                ..outcome
            }
        }
    }
}

/// `scheduleResourceBindingWithClusterAffinities`: from the observed term (or the first on a
/// reschedule) onwards, the first term that schedules wins; when all fail, the first error
/// decides and the observed term stays.
fn with_affinities<'a>(
    fleet: &Fleet<'a>,
    binding: &Binding,
    terms: &[crate::karmada::model::ClusterAffinityTerm],
    trace: bool,
) -> Outcome<'a> {
    let mut start = terms
        .iter()
        .position(|term| Some(term.name.as_str()) == binding.observed_affinity)
        .unwrap_or(0);
    if binding.reschedule {
        start = 0;
    }
    let mut attempts = Vec::new();
    for term in &terms[start.min(terms.len())..] {
        let mut attempt = run(fleet, binding, Some(&term.name), trace);
        if attempt.result.is_ok() {
            let outcome = finish(binding, result_of(&mut attempt, trace), Some(&term.name));
            attempts.push(attempt);
            return Outcome {
                attempts,
                observed_affinity: Some(term.name.clone()),
                ..outcome
            };
        }
        attempts.push(attempt);
    }
    let observed_affinity = binding.observed_affinity.map(str::to_string);
    match attempts.first().map(|attempt| attempt.result.clone()) {
        Some(first) => Outcome {
            attempts,
            observed_affinity,
            ..finish(binding, first, None)
        },
        // An empty `clusterAffinities` list: nothing ran and no error came back, so upstream
        // reports success and leaves the binding as it was.
        None => Outcome {
            attempts,
            reason: Reason::Success,
            message: SUCCESS_MESSAGE.to_string(),
            clusters: Clusters::Kept(binding.clusters.to_vec()),
            term: None,
            observed_affinity,
        },
    }
}

/// The binding after a result (`getConditionByError` and the patch that follows).
fn finish(
    binding: &Binding,
    result: Result<Vec<Target>, Failure>,
    term: Option<&str>,
) -> Outcome<'static> {
    let success = result.is_ok();
    let (reason, message, clusters) = match result {
        Ok(clusters) => (
            Reason::Success,
            SUCCESS_MESSAGE.to_string(),
            Clusters::Placed(clusters),
        ),
        // No cluster fit: the result is patched in, i.e. spec.clusters is cleared.
        Err(failure) if failure.reason == Reason::NoClusterFit => (
            failure.reason,
            failure.message,
            Clusters::Placed(Vec::new()),
        ),
        Err(failure) => (
            failure.reason,
            failure.message,
            Clusters::Kept(binding.clusters.to_vec()),
        ),
    };
    Outcome {
        attempts: Vec::new(),
        reason,
        message,
        clusters,
        term: term.filter(|_| success).map(str::to_string),
        observed_affinity: None,
    }
}

/// The attempt's result for the binding: a copy when traced (`explain` shows it with the
/// attempt), else moved out (a Duplicated result names thousands of clusters).
fn result_of(attempt: &mut Attempt, trace: bool) -> Result<Vec<Target>, Failure> {
    if trace {
        attempt.result.clone()
    } else {
        std::mem::replace(&mut attempt.result, Ok(Vec::new()))
    }
}

/// `genericScheduler.Schedule` with `term` as the observed affinity.
fn run<'a>(fleet: &Fleet<'a>, binding: &Binding, term: Option<&str>, trace: bool) -> Attempt<'a> {
    let observed = term.or(binding.observed_affinity);
    let affinity = TermAffinity::new(binding.placement, observed, binding.is_workload());
    let context = FilterContext {
        binding,
        affinity: &affinity,
    };
    let mut attempt = Attempt {
        term: term.map(str::to_string),
        verdicts: Vec::new(),
        feasible: Vec::new(),
        selection: None,
        selected: Vec::new(),
        strategy: None,
        divisions: Vec::new(),
        result: Ok(Vec::new()),
    };
    let table = fleet.filter_table(binding, observed, &affinity);
    let (feasible, reasons) = fit(
        fleet,
        &context,
        &table,
        trace.then_some(&mut attempt.verdicts),
    );
    if feasible.is_empty() {
        attempt.result = Err(Failure {
            reason: Reason::NoClusterFit,
            message: filter::fit_error(fleet.clusters.len(), &reasons),
        });
        return attempt;
    }
    let mut details = prioritized(fleet, binding, &affinity, &feasible);
    spread::sort_clusters(&mut details);
    if trace {
        attempt.feasible = details.clone();
    }
    let selected = spread::select_best_clusters(
        binding.placement,
        details,
        |index| fleet.clusters[index].region.as_str(),
        binding.resource.replicas,
    );
    let selected = match selected {
        Ok((selected, selection)) => {
            attempt.selection = Some(selection);
            selected
        }
        Err((error, selection)) => {
            attempt.selection = Some(selection);
            attempt.result = Err(Failure {
                reason: Reason::SchedulerError,
                message: format!("failed to select clusters: {}", error.0),
            });
            return attempt;
        }
    };
    let overflow = term.is_some_and(|name| has_overflow(binding, name));
    let assignment = assignment::assign(binding, fleet, &selected, overflow, trace);
    if trace {
        attempt.selected = selected;
    }
    attempt.strategy = assignment.strategy;
    attempt.divisions = assignment.divisions;
    attempt.result = assignment.result.map_err(|error| Failure {
        reason: if error.unschedulable {
            Reason::Unschedulable
        } else {
            Reason::SchedulerError
        },
        message: format!("failed to assign replicas: {}", error.message),
    });
    attempt
}

/// `findClustersThatFit`: the feasible clusters (fleet order) and how many gave each failure
/// reason, from the policy's shared table (fleet.rs) except for the clusters the binding
/// targets or is evicted from, whose verdicts differ from an empty binding's. `verdicts`,
/// when traced, receives every cluster's verdict.
fn fit<'t>(
    fleet: &Fleet,
    context: &FilterContext,
    table: &'t FilterTable,
    verdicts: Option<&mut Vec<Verdict>>,
) -> (Cow<'t, [usize]>, Cow<'t, BTreeMap<String, usize>>) {
    let binding = context.binding;
    let mut own: Vec<usize> = binding
        .clusters
        .iter()
        .map(|target| target.name.as_str())
        .chain(binding.eviction_from.iter().map(String::as_str))
        .filter_map(|name| fleet.position(name))
        .collect();
    own.sort_unstable();
    own.dedup();
    let verdict = |index: usize| -> Cow<'_, Verdict> {
        if own.binary_search(&index).is_ok() {
            Cow::Owned(filter::verdict(context, &fleet.clusters[index]))
        } else {
            Cow::Borrowed(table.verdict(index))
        }
    };
    let fit = if own.is_empty() {
        (
            Cow::Borrowed(table.feasible.as_slice()),
            Cow::Borrowed(&table.reasons),
        )
    } else {
        let mut feasible = Vec::new();
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        for index in 0..fleet.clusters.len() {
            match &*verdict(index) {
                Verdict::Fit => feasible.push(index),
                Verdict::Unfit { reason, .. } => {
                    *reasons.entry(reason.to_string()).or_default() += 1;
                }
                Verdict::Deleting => {}
            }
        }
        (Cow::Owned(feasible), Cow::Owned(reasons))
    };
    if let Some(verdicts) = verdicts {
        *verdicts = (0..fleet.clusters.len())
            .map(|index| verdict(index).into_owned())
            .collect();
    }
    fit
}

/// `prioritizeClusters` and the estimate: each feasible cluster's locality score, overflow
/// order and available replicas (the estimator's, plus what the binding already has there),
/// unsorted.
fn prioritized<'a>(
    fleet: &Fleet<'a>,
    binding: &Binding,
    affinity: &TermAffinity,
    feasible: &[usize],
) -> Vec<ClusterDetail<'a>> {
    let resource = binding.resource;
    let requests = fleet.estimator.requests(resource.requirements.as_ref());
    // `spec.clusters` by name, the first entry of a name winning as `TargetContains` and the
    // estimator's lookup find it.
    let mut previous: HashMap<&str, i64> = HashMap::new();
    for target in binding.clusters {
        previous
            .entry(target.name.as_str())
            .or_insert(target.replicas);
    }
    feasible
        .iter()
        .map(|&index| {
            let cluster = &fleet.clusters[index];
            let allocatable =
                fleet
                    .estimator
                    .available_replicas(index, resource.replicas, &requests);
            let assigned = previous.get(cluster.name.as_str()).copied();
            ClusterDetail {
                index,
                name: cluster.name.as_str(),
                rank: fleet.rank(index),
                score: cluster_locality::score(assigned.is_some()),
                overflow_order: affinity.overflow_order(cluster),
                available: allocatable + assigned.unwrap_or(0),
                allocatable,
            }
        })
        .collect()
}

/// `enableOverflow`: the term being tried has overflow affinities.
fn has_overflow(binding: &Binding, term: &str) -> bool {
    binding.placement.cluster_affinity.is_none()
        && binding
            .placement
            .cluster_affinities
            .iter()
            .flatten()
            .any(|candidate| candidate.name == term && candidate.overflow.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::karmada_cluster;

    fn entry(index: Option<usize>, name: &str, replicas: i64) -> Entry<'_> {
        Entry {
            index,
            name,
            replicas,
        }
    }

    #[test]
    fn a_result_is_listed_by_name_whatever_its_order_or_the_fleets() {
        // Fleet order b, c, a: ranks 1, 2, 0.
        let fleet: Vec<KarmadaCluster> = ["b", "c", "a"]
            .into_iter()
            .map(|name| karmada_cluster(name).build())
            .collect();
        let target = |index: u32, rank: u32, replicas: i64| Target {
            index,
            rank,
            replicas,
        };
        let placed = Clusters::Placed(vec![target(1, 2, 3), target(2, 0, 1), target(0, 1, 0)]);
        assert_eq!(
            placed.entries(&fleet),
            [
                entry(Some(2), "a", 1),
                entry(Some(0), "b", 0),
                entry(Some(1), "c", 3)
            ]
        );
        assert_eq!(
            placed.replicas_by_index(&fleet),
            [Some(0), Some(3), Some(1)]
        );
    }

    #[test]
    fn a_kept_result_is_listed_by_name_a_repeated_name_in_its_order() {
        let fleet = [karmada_cluster("a").build()];
        let kept = |name: &str, replicas: i64| TargetCluster {
            name: name.to_string(),
            replicas,
        };
        let clusters = Clusters::Kept(vec![kept("gone", 2), kept("a", 5), kept("a", 1)]);
        assert_eq!(
            clusters.entries(&fleet),
            [
                entry(None, "a", 5),
                entry(None, "a", 1),
                entry(None, "gone", 2)
            ]
        );
        // The first entry of a name is the one `explain` shows.
        assert_eq!(clusters.replicas_by_index(&fleet), [Some(5)]);
    }
}
