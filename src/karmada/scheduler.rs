//! One scheduling of a binding (`generic_scheduler.go Schedule`) and the outcome the scheduler
//! writes (`scheduler.go scheduleResourceBinding*`, `helper.go getConditionByError`), with the
//! `clusterAffinities` failover.

use std::collections::BTreeMap;

use crate::model::karmada::{KarmadaCluster, TargetCluster};

use super::assignment::{self, Division, Strategy};
use super::cluster_locality;
use super::estimator;
use super::filter::{self, FilterContext, TermAffinity, Verdict};
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
pub const SUCCESS_MESSAGE: &str = "Binding has been scheduled successfully.";

/// One run of the pipeline (one affinity term, or the placement's single affinity).
#[derive(Clone, Debug)]
pub struct Attempt {
    /// The `clusterAffinities` term tried.
    pub term: Option<String>,
    /// Every cluster's verdict (fleet order), kept only when traced.
    pub verdicts: Vec<Verdict>,
    /// The feasible clusters with scores and available replicas, sorted.
    pub feasible: Vec<ClusterDetail>,
    pub selection: Option<Selection>,
    pub selected: Vec<ClusterDetail>,
    pub strategy: Option<Strategy>,
    pub divisions: Vec<Division>,
    pub result: Result<Vec<TargetCluster>, Failure>,
}

/// Why an attempt failed: the condition's reason and upstream's error text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub reason: Reason,
    pub message: String,
}

/// What the scheduler writes into the binding.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub attempts: Vec<Attempt>,
    pub reason: Reason,
    pub message: String,
    /// `spec.clusters` afterwards: the result, cleared on a FitError, else unchanged.
    pub clusters: Vec<TargetCluster>,
    /// The term that succeeded.
    pub term: Option<String>,
    /// `status.schedulerObservingAffinityName` afterwards.
    pub observed_affinity: Option<String>,
}

impl Outcome {
    pub fn scheduled(&self) -> bool {
        self.reason == Reason::Success
    }
}

/// Schedules `binding` over `fleet` as `scheduleResourceBinding` does.
pub fn schedule(fleet: &[KarmadaCluster], binding: &Binding, trace: bool) -> Outcome {
    match &binding.placement.cluster_affinities {
        Some(terms) => with_affinities(fleet, binding, terms, trace),
        None => {
            let attempt = run(fleet, binding, None, trace);
            let outcome = finish(binding, &attempt.result, None);
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
fn with_affinities(
    fleet: &[KarmadaCluster],
    binding: &Binding,
    terms: &[crate::model::karmada::ClusterAffinityTerm],
    trace: bool,
) -> Outcome {
    let mut start = terms
        .iter()
        .position(|term| Some(term.name.as_str()) == binding.observed_affinity)
        .unwrap_or(0);
    if binding.reschedule {
        start = 0;
    }
    let mut attempts = Vec::new();
    for term in &terms[start.min(terms.len())..] {
        let attempt = run(fleet, binding, Some(&term.name), trace);
        let success = attempt.result.is_ok();
        attempts.push(attempt);
        if success {
            let last = attempts.last().map(|a| a.result.clone());
            let outcome = finish(binding, &last.unwrap_or(Ok(Vec::new())), Some(&term.name));
            return Outcome {
                attempts,
                observed_affinity: Some(term.name.clone()),
                ..outcome
            };
        }
    }
    let observed_affinity = binding.observed_affinity.map(str::to_string);
    match attempts.first().map(|attempt| attempt.result.clone()) {
        Some(first) => Outcome {
            attempts,
            observed_affinity,
            ..finish(binding, &first, None)
        },
        // An empty `clusterAffinities` list: nothing ran and no error came back, so upstream
        // reports success and leaves the binding as it was.
        None => Outcome {
            attempts,
            reason: Reason::Success,
            message: SUCCESS_MESSAGE.to_string(),
            clusters: binding.clusters.to_vec(),
            term: None,
            observed_affinity,
        },
    }
}

/// The binding after a result (`getConditionByError` and the patch that follows).
fn finish(
    binding: &Binding,
    result: &Result<Vec<TargetCluster>, Failure>,
    term: Option<&str>,
) -> Outcome {
    let (reason, message, clusters) = match result {
        Ok(clusters) => (
            Reason::Success,
            SUCCESS_MESSAGE.to_string(),
            clusters.clone(),
        ),
        // No cluster fit: the result is patched in, i.e. spec.clusters is cleared.
        Err(failure) if failure.reason == Reason::NoClusterFit => {
            (failure.reason, failure.message.clone(), Vec::new())
        }
        Err(failure) => (
            failure.reason,
            failure.message.clone(),
            binding.clusters.to_vec(),
        ),
    };
    Outcome {
        attempts: Vec::new(),
        reason,
        message,
        clusters,
        term: term.filter(|_| result.is_ok()).map(str::to_string),
        observed_affinity: None,
    }
}

/// `genericScheduler.Schedule` with `term` as the observed affinity.
fn run(fleet: &[KarmadaCluster], binding: &Binding, term: Option<&str>, trace: bool) -> Attempt {
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
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut feasible = Vec::new();
    for (index, cluster) in fleet.iter().enumerate() {
        let verdict = filter::verdict(&context, cluster);
        match &verdict {
            Verdict::Fit => feasible.push(index),
            Verdict::Unfit { reason, .. } => *reasons.entry(reason.to_string()).or_default() += 1,
            Verdict::Deleting => {}
        }
        if trace {
            attempt.verdicts.push(verdict);
        }
    }
    if feasible.is_empty() {
        attempt.result = Err(Failure {
            reason: Reason::NoClusterFit,
            message: filter::fit_error(fleet.len(), &reasons),
        });
        return attempt;
    }
    let resource = binding.resource;
    let mut details: Vec<ClusterDetail> = feasible
        .into_iter()
        .map(|index| {
            let cluster = &fleet[index];
            let allocatable = estimator::available_replicas(
                cluster,
                resource.replicas,
                resource.requirements.as_ref(),
            );
            let assigned: i64 = binding
                .clusters
                .iter()
                .find(|target| target.name == cluster.name)
                .map_or(0, |target| target.replicas);
            ClusterDetail {
                index,
                name: cluster.name.clone(),
                score: cluster_locality::score(binding, &cluster.name),
                overflow_order: affinity.overflow_order(cluster),
                available: allocatable + assigned,
                allocatable,
            }
        })
        .collect();
    spread::sort_clusters(&mut details);
    attempt.feasible = details.clone();
    let selected = spread::select_best_clusters(
        binding.placement,
        details,
        |index| fleet[index].region.clone(),
        resource.replicas,
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
    attempt.selected = selected.clone();
    let overflow = term.is_some_and(|name| has_overflow(binding, name));
    let assignment = assignment::assign(binding, fleet, &selected, overflow, trace);
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
