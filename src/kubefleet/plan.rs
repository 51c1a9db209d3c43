//! The plan step of KubeFleet: each ClusterResourcePlacement or ResourcePlacement planned
//! through `item::plan` over the run's MemberClusters (one [`Hub`] per run, at `--now`), with
//! the objects the hub would find for it (design §2, §7, §8), into a plan item and the trace
//! `explain` renders.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::fleet::Fleet;
use super::item::{self, Input, NotScheduled, StagedRun};
use super::model::aggregate;
use super::model::binding::{Binding, BindingScore, ClusterDecision};
use super::model::objects::{
    Objects, OverrideObject, PlacementObject, Snapshot, Strategy, UpdateRun, RUN_PLACEMENT_FIELD,
};
use super::model::policy::{PlacementPolicy, PlacementType};
use super::overrides::Override;
use super::schedule::{PolicySnapshot, Rejection, Schedule};
use super::score::ClusterScore;
use super::stages::RunError;
use crate::model::{ClusterNames, Condition, Model, PlanItem, Workload, WorkloadKind};
use crate::plan::diagnostic::{Diagnostic, Kind};
use crate::plan::{ItemTrace, Planned, Run, Trace};
use crate::registry::ItemFields;

/// A placement's key: its namespace (a ResourcePlacement's) and name.
type Key<'a> = (Option<&'a str>, &'a str);

/// What a run computes once for every placement: the MemberClusters with their eligibility
/// at `now`, and the objects of each placement found by its key.
pub(crate) struct Hub<'a> {
    fleet: Fleet<'a>,
    /// By label `kubernetes-fleet.io/parent-CRP`, in the binding's namespace.
    bindings: HashMap<Key<'a>, Vec<Binding>>,
    /// The snapshots labelled latest for each placement, in input order.
    snapshots: HashMap<Key<'a>, Vec<&'a Snapshot>>,
    /// Every run of each placement, by name.
    runs: HashMap<Key<'a>, Vec<&'a UpdateRun>>,
    strategies: HashMap<Key<'a>, &'a Strategy>,
    /// The overrides the webhook admits (`selected_twice` refuses the others).
    overrides: Vec<&'a OverrideObject>,
}

impl<'a> Hub<'a> {
    pub(crate) fn new(objects: &'a Objects, now: i64) -> Hub<'a> {
        let mut bindings: HashMap<Key<'a>, Vec<Binding>> = HashMap::new();
        for binding in &objects.bindings {
            if let Some(placement) = &binding.placement {
                bindings
                    .entry((binding.namespace.as_deref(), placement.as_str()))
                    .or_default()
                    .push(binding.clone());
            }
        }
        let mut snapshots: HashMap<Key<'a>, Vec<&'a Snapshot>> = HashMap::new();
        for snapshot in objects.snapshots.iter().filter(|snapshot| snapshot.latest) {
            if let Some(placement) = &snapshot.placement {
                snapshots
                    .entry((snapshot.namespace.as_deref(), placement.as_str()))
                    .or_default()
                    .push(snapshot);
            }
        }
        let mut runs: HashMap<Key<'a>, Vec<&'a UpdateRun>> = HashMap::new();
        for run in &objects.runs {
            runs.entry((run.namespace(), run.placement_name()))
                .or_default()
                .push(run);
        }
        for same in runs.values_mut() {
            same.sort_by(|a, b| a.name().cmp(b.name()));
        }
        let refused: HashSet<usize> = selected_twice(&objects.overrides)
            .into_iter()
            .map(|(at, _)| at)
            .collect();
        Hub {
            fleet: Fleet::new(&objects.member_clusters, now),
            bindings,
            snapshots,
            runs,
            strategies: strategies(objects),
            overrides: objects
                .overrides
                .iter()
                .enumerate()
                .filter(|(at, _)| !refused.contains(at))
                .map(|(_, override_)| override_)
                .collect(),
        }
    }

    /// The placement's staged update runs by name, each with its strategy's stages (none
    /// when the run names a strategy the inputs do not hold, also an error at the run:
    /// `missing_strategies`).
    fn staged_runs(&self, key: Key<'_>) -> Vec<StagedRun> {
        self.runs
            .get(&key)
            .into_iter()
            .flatten()
            .map(|run| StagedRun {
                name: run.name().to_string(),
                strategy: format!("{}/{}", key.0.unwrap_or_default(), run.strategy),
                stages: self
                    .strategies
                    .get(&(key.0, run.strategy.as_str()))
                    .map(|strategy| strategy.stages.clone()),
            })
            .collect()
    }
}

/// The (Cluster)StagedUpdateStrategies by namespace (their kind's scope) and name.
fn strategies(objects: &Objects) -> HashMap<Key<'_>, &Strategy> {
    objects
        .strategies
        .iter()
        .map(|strategy| {
            (
                (strategy.namespace.as_deref(), strategy.name.as_str()),
                strategy,
            )
        })
        .collect()
}

/// Every staged update run whose `spec.stagedRolloutStrategyName` names no strategy of its
/// namespace (its kind's scope) in the inputs: a reference that resolves to nothing, an error
/// at the run in every run (its placement is planned as without it).
fn missing_strategies(objects: &Objects) -> Vec<Diagnostic> {
    let strategies = strategies(objects);
    objects
        .runs
        .iter()
        .filter(|run| !strategies.contains_key(&(run.namespace(), run.strategy.as_str())))
        .map(|run| Diagnostic {
            source: run.placement.source.clone(),
            object: run.placement.object.clone(),
            kind: Kind::Unresolved,
            field: Some("spec.stagedRolloutStrategyName"),
            message: match run.namespace() {
                Some(namespace) => format!(
                    "StagedUpdateStrategy/{namespace}/{} is not in the inputs",
                    run.strategy
                ),
                None => format!(
                    "ClusterStagedUpdateStrategy/{} is not in the inputs",
                    run.strategy
                ),
            },
        })
        .collect()
}

/// The errors of the objects around the placements, each at the object at fault, in every
/// run whatever items it selects (a dangling reference is a defect of the inputs, as a
/// refused document is): the references that resolve to nothing (`unresolved`), the runs
/// naming no strategy, and the overrides the webhook refuses for selecting what another
/// selects (`selected_twice`).
pub(crate) fn problems(model: &Model) -> Vec<Diagnostic> {
    let mut problems = unresolved(model);
    problems.extend(missing_strategies(&model.apis.kubefleet));
    let overrides = &model.apis.kubefleet.overrides;
    problems.extend(
        selected_twice(overrides)
            .into_iter()
            .filter_map(|(at, message)| {
                let override_ = overrides.get(at)?;
                let field = if override_.rules.namespace.is_some() {
                    "spec.resourceSelectors"
                } else {
                    "spec.clusterResourceSelectors"
                };
                Some(Diagnostic {
                    source: override_.source.clone(),
                    object: override_.object.clone(),
                    kind: Kind::ItemFailed,
                    field: Some(field),
                    message,
                })
            }),
    );
    problems
}

/// Every binding, policy snapshot, staged update run and override that names a placement
/// the inputs do not hold (or, a binding or snapshot, none at all), in input order: the
/// hub would never use it, so what it says lands nowhere. Each is an error at the object
/// that names it.
fn unresolved(model: &Model) -> Vec<Diagnostic> {
    let placements: HashSet<Key<'_>> = model
        .workloads
        .iter()
        .filter_map(|workload| match &workload.kind {
            WorkloadKind::KubeFleet(object) => Some((
                object.placement.namespace.as_deref(),
                object.placement.name.as_str(),
            )),
            _ => None,
        })
        .collect();
    model
        .apis
        .kubefleet
        .references
        .iter()
        .filter_map(|reference| {
            let namespace = reference.namespace.as_deref();
            let message = match &reference.name {
                None => "missing: the hub finds a placement's bindings and snapshots by this \
                         label, so no placement uses this object"
                    .to_string(),
                Some(name) if placements.contains(&(namespace, name.as_str())) => return None,
                Some(name) => {
                    let missing = match namespace {
                        Some(namespace) => {
                            format!("ResourcePlacement/{namespace}/{name} is not in the inputs")
                        }
                        None => format!("ClusterResourcePlacement/{name} is not in the inputs"),
                    };
                    if reference.field == RUN_PLACEMENT_FIELD {
                        // What the hub writes on the run (`validatePlacement`).
                        format!(
                            "{missing}; the run's condition: Initialized=False \
                             (UpdateRunInitializedFailed): {}",
                            RunError::parent_not_found()
                        )
                    } else {
                        missing
                    }
                }
            };
            Some(Diagnostic {
                source: reference.source.clone(),
                object: reference.object.clone(),
                kind: Kind::Unresolved,
                field: Some(reference.field),
                message,
            })
        })
        .collect()
}

/// The overrides the webhook refuses because another override of their kind (in their
/// namespace, a ResourceOverride) already selects one of their resources
/// (`validateClusterResourceOverrideResourceLimit`, `validateResourceOverrideResourceLimit`):
/// offline, each override in input order against those before it. Each with its message.
fn selected_twice(overrides: &[OverrideObject]) -> Vec<(usize, String)> {
    let mut claimed: HashMap<(Option<&str>, &str), &str> = HashMap::new();
    let mut refused = Vec::new();
    for (at, override_) in overrides.iter().enumerate() {
        let namespace = override_.rules.namespace.as_deref();
        let name = override_.rules.name.as_str();
        let messages: Vec<String> = override_
            .selector_terms
            .iter()
            .filter_map(|term| {
                let first = *claimed.entry((namespace, term.as_str())).or_insert(name);
                (first != name).then(|| {
                    format!("invalid resource selector {term}: the resource has been selected by both {name} and {first}, which is not supported")
                })
            })
            .collect();
        if !messages.is_empty() {
            refused.push((at, aggregate(&messages)));
        }
    }
    refused
}

/// What `explain` shows of a KubeFleet item: the schedule's view of every MemberCluster
/// (kept only when the run is traced in full).
#[derive(Clone, Debug, Default)]
pub struct KubeFleetTrace {
    pub(crate) placement_type: PlacementType,
    /// `numberOfClusters` (PickN) or the number of `clusterNames` (PickFixed).
    pub(crate) wanted: Option<usize>,
    pub(crate) snapshot: String,
    pub(crate) new_snapshot: bool,
    pub(crate) cycles: usize,
    /// Why nothing was scheduled, when the hub would not schedule the placement.
    pub(crate) not_scheduled: Option<NotScheduled>,
    /// The last scheduling cycle failed (upstream writes no status and retries).
    pub(crate) failed: bool,
    /// Every MemberCluster by name, with what the schedule did with it.
    pub(crate) clusters: Vec<(String, Verdict)>,
    /// `status.clusterDecisions` as the hub writes them.
    pub(crate) decisions: Vec<ClusterDecision>,
    /// The placement's per-cluster `Scheduled=False` entries.
    pub(crate) schedule_failed: Vec<Condition>,
    /// The what-if flags that changed a MemberCluster, by cluster.
    pub(crate) edits: BTreeMap<String, Vec<String>>,
}

/// What happened to one MemberCluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Holds a current binding after planning, with the score the binding records.
    Selected(Option<BindingScore>),
    /// The first filter plugin that rejected it, and upstream's reason.
    Filtered {
        plugin: &'static str,
        reason: String,
    },
    /// Passed every filter but scored too low: its score and rank among those not picked.
    NotPicked {
        score: ClusterScore,
        rank: usize,
        of: usize,
    },
    /// The last cycle did not look at it (PickFixed: not named; PickN: nothing to add).
    NotConsidered,
}

pub(crate) fn plan<'a>(
    run: &Run<'_, 'a>,
    workload: &'a Workload,
    object: &'a PlacementObject,
) -> Planned<'a> {
    let hub = &run.hubs.kubefleet;
    let placement = &object.placement;
    let key = (placement.namespace.as_deref(), placement.name.as_str());
    let mut errors = Vec::new();
    let runs = hub.staged_runs(key);
    let (cluster_scoped, namespaced): (Vec<&OverrideObject>, Vec<&OverrideObject>) = hub
        .overrides
        .iter()
        .copied()
        .filter(|override_| override_.applies_to(object))
        .partition(|override_| override_.rules.namespace.is_none());
    let rules = |overrides: Vec<&OverrideObject>| -> Vec<Override> {
        overrides
            .into_iter()
            .map(|override_| override_.rules.clone())
            .collect()
    };
    let cluster_resource_overrides = rules(cluster_scoped);
    let resource_overrides = rules(namespaced);
    let snapshots: Vec<PolicySnapshot> = hub
        .snapshots
        .get(&key)
        .into_iter()
        .flatten()
        .map(|snapshot| PolicySnapshot {
            name: snapshot.name.clone(),
            policy: snapshot.policy.clone(),
        })
        .collect();
    let planned = item::plan(
        Input {
            placement,
            raw_policy: object.raw_policy.as_ref(),
            snapshots: &snapshots,
            bindings: hub.bindings.get(&key).map_or(&[], Vec::as_slice),
            runs: &runs,
            cluster_resource_overrides: &cluster_resource_overrides,
            resource_overrides: &resource_overrides,
        },
        &hub.fleet,
    );
    let trace = if run.options.trace == Trace::Full {
        trace(placement.policy.as_ref(), &planned, &hub.fleet)
    } else {
        KubeFleetTrace::default()
    };
    errors.extend(planned.errors);
    let item = PlanItem {
        source: workload.object.clone(),
        clusters: ClusterNames::from(planned.clusters),
        conditions: planned.conditions,
        api: ItemFields {
            kubefleet: planned.fields,
            ..ItemFields::default()
        },
        errors,
        ..PlanItem::default()
    };
    Planned {
        item,
        trace: ItemTrace::KubeFleet(Box::new(trace)),
        warnings: Vec::new(),
    }
}

/// Every MemberCluster's verdict, from the item and its schedule.
fn trace(
    policy: Option<&PlacementPolicy>,
    planned: &item::Item,
    fleet: &Fleet<'_>,
) -> KubeFleetTrace {
    let default_policy = PlacementPolicy::default();
    let policy = policy.unwrap_or(&default_policy);
    let wanted = match policy.placement_type {
        PlacementType::PickN => usize::try_from(policy.number_of_clusters()).ok(),
        PlacementType::PickFixed => Some(policy.cluster_names.len()),
        PlacementType::PickAll => None,
    };
    let mut trace = KubeFleetTrace {
        placement_type: policy.placement_type,
        wanted,
        not_scheduled: planned.not_scheduled.clone(),
        schedule_failed: planned.schedule_failed.clone(),
        edits: fleet
            .clusters()
            .iter()
            .filter(|cluster| !cluster.edits.is_empty())
            .map(|cluster| (cluster.name.clone(), cluster.edits.clone()))
            .collect(),
        ..KubeFleetTrace::default()
    };
    let Some(schedule) = &planned.schedule else {
        return trace;
    };
    trace.snapshot.clone_from(&schedule.snapshot);
    trace.new_snapshot = schedule.new_snapshot;
    trace.cycles = schedule.cycles;
    trace.failed = schedule.error.is_some();
    trace.decisions.clone_from(&schedule.decisions);
    trace.clusters = verdicts(planned, schedule, fleet);
    trace
}

fn verdicts(
    planned: &item::Item,
    schedule: &Schedule,
    fleet: &Fleet<'_>,
) -> Vec<(String, Verdict)> {
    let mut verdicts: HashMap<&str, Verdict> = HashMap::new();
    for ((name, reason), (_, why)) in schedule
        .filtered(fleet)
        .into_iter()
        .zip(schedule.rejected.iter())
    {
        if let Some(cluster) = fleet.get(&name) {
            let plugin = plugin(why);
            verdicts.insert(cluster.name.as_str(), Verdict::Filtered { plugin, reason });
        }
    }
    // PickFixed runs no plugin: a named cluster that is not eligible is in the decisions.
    for decision in schedule
        .decisions
        .iter()
        .filter(|decision| !decision.selected)
    {
        if let Some(cluster) = fleet.get(&decision.cluster_name) {
            let reason = decision.reason.clone();
            verdicts
                .entry(cluster.name.as_str())
                .or_insert(Verdict::Filtered {
                    plugin: "PickFixed",
                    reason,
                });
        }
    }
    let not_picked = schedule.not_picked(fleet);
    let of = not_picked.len();
    for (at, (name, score)) in not_picked.into_iter().enumerate() {
        verdicts.insert(
            name,
            Verdict::NotPicked {
                score,
                rank: at + 1,
                of,
            },
        );
    }
    for cluster in &planned.clusters {
        if let Some(member) = fleet.get(cluster) {
            verdicts.insert(
                member.name.as_str(),
                Verdict::Selected(planned.fields.scores.get(cluster).copied()),
            );
        }
    }
    fleet
        .clusters()
        .iter()
        .map(|cluster| {
            let verdict = verdicts
                .remove(cluster.name.as_str())
                .unwrap_or(Verdict::NotConsidered);
            (cluster.name.clone(), verdict)
        })
        .collect()
}

/// The plugin of the default profile that made a rejection (`profile.go NewProfile`).
fn plugin(why: Rejection) -> &'static str {
    match why {
        Rejection::Affinity => "ClusterAffinity",
        Rejection::Ineligible(_) => "ClusterEligibility",
        Rejection::Namespace(_) => "NamespaceAffinity",
        Rejection::Taint(_) => "TaintToleration",
        Rejection::Spread(_) => "TopologySpreadConstraints",
    }
}
