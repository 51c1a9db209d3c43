//! The plan step for one KubeFleet placement, and the data a plan item and explain read
//! (design §9): admission, the schedule, the stages of a staged update run, and the overrides
//! that apply to each selected cluster.

use serde_json::Value;

use super::admission::{self, Refusal};
use super::fields::{ClusterOverrides, KubeFleetFields};
use super::fleet::Fleet;
use super::model::binding::{Binding, BindingState};
use super::model::policy::{PlacementPolicy, PlacementType};
use super::overrides::{self, Override};
use super::schedule::{self, Placement, PolicySnapshot, Schedule};
use super::stages::{self, RunError, Stage, StageConfig};
use crate::model::{Condition, ConditionStatus};

/// A (Cluster)StagedUpdateRun against the placement, with its strategy's stages.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct StagedRun {
    /// The run's name.
    pub(crate) name: String,
    /// `namespace/name` of the (Cluster)StagedUpdateStrategy (empty namespace when
    /// cluster-scoped), as upstream names it in its messages.
    pub(crate) strategy: String,
    /// The strategy's stages; `None` when the inputs lack the strategy.
    pub(crate) stages: Option<Vec<StageConfig>>,
}

/// Everything one placement is planned from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Input<'a> {
    pub(crate) placement: &'a Placement,
    /// `spec.policy` as written, for the CRD's CEL rules (which test presence).
    pub(crate) raw_policy: Option<&'a Value>,
    /// The (Cluster)SchedulingPolicySnapshots labelled latest for the placement, in input
    /// order: upstream requires one at most.
    pub(crate) snapshots: &'a [PolicySnapshot],
    /// The bindings labelled for the placement (in its namespace for a ResourcePlacement).
    pub(crate) bindings: &'a [Binding],
    /// Every staged update run naming the placement, by name: upstream's run controller
    /// initializes each on its own (`pkg/controllers/updaterun/controller.go Reconcile`).
    pub(crate) runs: &'a [StagedRun],
    /// The ClusterResourceOverrides and ResourceOverrides that apply to the placement (those
    /// whose `spec.placement` is absent or names it and whose selectors name its resources).
    pub(crate) cluster_resource_overrides: &'a [Override],
    pub(crate) resource_overrides: &'a [Override],
}

/// A planned placement: the fields of design §9.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Item {
    /// Current scheduled or bound bindings after planning, sorted.
    pub(crate) clusters: Vec<String>,
    /// The placement's Scheduled condition, and `Initialized` for a staged update run.
    pub(crate) conditions: Vec<Condition>,
    /// What the plan item holds of it: the scores recorded on the bindings (a binding without
    /// one is absent), the clusters whose bindings became Unscheduled, the strategy's stages
    /// then the deletion stage ([`stages::DELETE_STAGE`]), each cluster's overrides.
    pub(crate) fields: KubeFleetFields,
    /// The placement's per-cluster `Scheduled=False` / `ScheduleFailed` entries
    /// (`placement_status.go`): one per missing cluster, from the first unselected decisions,
    /// each with the decision's reason and no cluster name.
    pub(crate) schedule_failed: Vec<Condition>,
    /// Admission refusals, a failed cycle, a run that cannot start.
    pub(crate) errors: Vec<String>,
    /// The schedule behind it (every filtered and scored cluster, for explain); `None` when
    /// the hub would not schedule the placement (`not_scheduled`).
    pub(crate) schedule: Option<Schedule>,
    pub(crate) not_scheduled: Option<NotScheduled>,
}

/// Why the hub schedules nothing for a placement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NotScheduled {
    /// The API server or the webhook refuses its policy.
    Refused,
    /// This many policy snapshots are labelled latest for it.
    SeveralLatest(usize),
}

/// The scheduler's, the placement controller's and a staged update run's refusal of a
/// placement with several latest snapshots (`pkg/utils/controller/policy_snapshot_resolver.go
/// LookupLatestPolicySnapshot`: `ErrUnexpectedBehavior`, `ErrMultipleActivePolicySnapshots`).
fn several_latest(placement: &Placement, count: usize) -> String {
    format!(
        "unexpected behavior which cannot be handled by the controller: multiple active policy snapshots found for placement {}/{}: got {count}, want 1",
        placement.namespace.as_deref().unwrap_or_default(),
        placement.name,
    )
}

/// The item error for several latest snapshots: upstream's text, then which snapshots they are.
fn several_latest_error(placement: &Placement, snapshots: &[PolicySnapshot]) -> String {
    let names: Vec<&str> = snapshots
        .iter()
        .map(|snapshot| snapshot.name.as_str())
        .collect();
    format!(
        "{} (labelled kubernetes-fleet.io/is-latest-snapshot=true: {})",
        several_latest(placement, snapshots.len()),
        names.join(", ")
    )
}

/// The run's `Initialized` condition (`recordInitializationSucceeded`,
/// `recordInitializationFailed`).
fn initialized(placement: &Placement, outcome: Result<(), &RunError>) -> Condition {
    let kind = if placement.namespace.is_some() {
        "StagedUpdateRun"
    } else {
        "ClusterStagedUpdateRun"
    };
    match outcome {
        Ok(()) => Condition {
            type_: "Initialized".to_string(),
            status: ConditionStatus::True,
            reason: "UpdateRunInitializedSuccessfully".to_string(),
            message: format!("{kind} initialized successfully"),
        },
        Err(error) => Condition {
            type_: "Initialized".to_string(),
            status: ConditionStatus::False,
            reason: "UpdateRunInitializedFailed".to_string(),
            message: error.to_string(),
        },
    }
}

/// `initialization.go validatePlacement`: only a placement that leaves its rollout to runs.
fn validate_placement(placement: &Placement) -> Result<(), RunError> {
    if placement.strategy_type == "External" {
        return Ok(());
    }
    Err(RunError::User(format!(
        "parent placement does not have an external rollout strategy, current strategy: {}",
        placement.strategy_type
    )))
}

/// Plans one placement over the run's fleet, in the hub's order (design §1, §6–§9):
/// admission and the latest snapshot's lookup, the scheduler's cycle, the placement's
/// per-cluster failures, each selected cluster's overrides, a staged update run's
/// initialization.
pub(crate) fn plan(input: Input<'_>, fleet: &Fleet<'_>) -> Item {
    let default_policy = PlacementPolicy::default();
    let policy = input.placement.policy.as_ref().unwrap_or(&default_policy);
    let snapshot = match admitted_snapshot(input, policy) {
        Ok(snapshot) => snapshot,
        Err(not_scheduled) => return *not_scheduled,
    };
    let schedule = schedule::schedule(input.placement, snapshot, input.bindings, fleet);
    let mut item = scheduled(&schedule);
    item.schedule_failed = schedule_failed(policy, &schedule, item.clusters.len());
    add_overrides(input, fleet, &mut item);
    for run in input.runs {
        let outcome = initialize(run, policy, &schedule, fleet, input.placement);
        add_run(
            run,
            input.runs.len() > 1,
            outcome,
            input.placement,
            &mut item,
        );
    }
    item.schedule = Some(schedule);
    item
}

/// Admission (design §1), then the latest policy snapshot the scheduler reads
/// (`LookupLatestPolicySnapshot`): the snapshot, if any, or the item of a placement the hub
/// does not schedule.
fn admitted_snapshot<'a>(
    input: Input<'a>,
    policy: &PlacementPolicy,
) -> Result<Option<&'a PolicySnapshot>, Box<Item>> {
    if let Err(refusals) = admission::admit(input.raw_policy, policy) {
        let mut item = Item {
            errors: refusals.iter().map(Refusal::to_string).collect(),
            not_scheduled: Some(NotScheduled::Refused),
            ..Item::default()
        };
        // The hub never stores the placement, so each run's `validatePlacement` finds none.
        for run in input.runs {
            let error = RunError::parent_not_found();
            add_run(
                run,
                input.runs.len() > 1,
                Err(error),
                input.placement,
                &mut item,
            );
        }
        return Err(Box::new(item));
    }
    match input.snapshots {
        [] => Ok(None),
        [snapshot] => Ok(Some(snapshot)),
        several => {
            let mut item = Item {
                errors: vec![several_latest_error(input.placement, several)],
                not_scheduled: Some(NotScheduled::SeveralLatest(several.len())),
                ..Item::default()
            };
            // A run stops at the same lookup (`determinePolicySnapshot`), once its placement
            // passed `validatePlacement`; its error is the item's own, not repeated.
            for run in input.runs {
                let error = validate_placement(input.placement)
                    .err()
                    .unwrap_or_else(|| {
                        RunError::Validation(several_latest(input.placement, several.len()))
                    });
                let condition =
                    run_condition(run, input.runs.len() > 1, input.placement, Err(&error));
                item.conditions.push(condition);
            }
            Err(Box::new(item))
        }
    }
}

/// What the scheduler's cycle leaves (design §9): the current clusters, the placement's
/// Scheduled condition (§6), the removed clusters, the bindings' scores, a cycle error.
fn scheduled(schedule: &Schedule) -> Item {
    let mut item = Item {
        clusters: schedule
            .clusters()
            .into_iter()
            .map(str::to_string)
            .collect(),
        conditions: vec![schedule.condition.clone()],
        fields: KubeFleetFields {
            removed: schedule.removed.clone(),
            ..KubeFleetFields::default()
        },
        ..Item::default()
    };
    for binding in &schedule.bindings {
        if binding.state == BindingState::Unscheduled {
            continue;
        }
        if let Some(score) = binding.cluster_decision.cluster_score {
            item.fields
                .scores
                .insert(binding.target_cluster.clone(), score);
        }
    }
    if let Some(error) = &schedule.error {
        item.errors.push(error.to_string());
    }
    item
}

/// The placement status's `Scheduled=False` / `ScheduleFailed` entries (design §6,
/// `placement_status.go`): the first (wanted − selected) unselected decisions.
fn schedule_failed(
    policy: &PlacementPolicy,
    schedule: &Schedule,
    selected: usize,
) -> Vec<Condition> {
    let wanted = match policy.placement_type {
        PlacementType::PickN => usize::try_from(policy.number_of_clusters()).unwrap_or(0),
        PlacementType::PickFixed => policy.cluster_names.len(),
        PlacementType::PickAll => 0,
    };
    schedule
        .decisions
        .iter()
        .filter(|decision| !decision.selected)
        .take(wanted.saturating_sub(selected))
        .map(|decision| Condition {
            type_: "Scheduled".to_string(),
            status: ConditionStatus::False,
            reason: "ScheduleFailed".to_string(),
            message: decision.reason.clone(),
        })
        .collect()
}

/// The overrides that apply to each selected cluster (design §7,
/// `pkg/utils/overrider/overrider.go`); a rule that cannot be matched, or a cluster the fleet
/// does not hold, is an item error. The scheduler has unscheduled every binding of a cluster
/// that left the fleet (`classifyBindings`' dangling bindings), so the second cannot occur
/// for a scheduled placement; upstream's rollout controller fails the pick the same way.
fn add_overrides(input: Input<'_>, fleet: &Fleet<'_>, item: &mut Item) {
    for cluster in &item.clusters {
        match overrides::for_cluster(
            |name| fleet.get(name),
            cluster,
            input.cluster_resource_overrides,
            input.resource_overrides,
        ) {
            Ok((cluster_scoped, namespaced)) => {
                if !cluster_scoped.is_empty() || !namespaced.is_empty() {
                    item.fields.overrides.insert(
                        cluster.clone(),
                        ClusterOverrides {
                            cluster_resource_overrides: cluster_scoped,
                            resource_overrides: namespaced,
                        },
                    );
                }
            }
            Err(error) => item
                .errors
                .push(format!("overrides of cluster {cluster}: {error}")),
        }
    }
}

/// A staged update run's outcome in the item (design §8): its stages then the deletion stage
/// and `Initialized=True`, or its error and `Initialized=False`. With `several` runs on the
/// placement, each stage is named `<run>/<stage>` and the condition's message and the error
/// start with `<run>: `, so every run's status is there and says whose it is.
fn add_run(
    run: &StagedRun,
    several: bool,
    outcome: Result<stages::Stages, RunError>,
    placement: &Placement,
    item: &mut Item,
) {
    let stage_name = |name: &str| {
        if several {
            format!("{}/{name}", run.name)
        } else {
            name.to_string()
        }
    };
    match outcome {
        Ok(assigned) => {
            item.fields
                .stages
                .extend(assigned.stages.into_iter().map(|stage| Stage {
                    name: stage_name(&stage.name),
                    clusters: stage.clusters,
                }));
            // Upstream keeps it apart (`status.deletionStageStatus`), always set once the
            // run is initialized; the plan lists it last, as it runs after every stage.
            item.fields.stages.push(Stage {
                name: stage_name(stages::DELETE_STAGE),
                clusters: assigned.deletion,
            });
            item.conditions
                .push(run_condition(run, several, placement, Ok(())));
        }
        Err(error) => {
            item.errors.push(run_text(run, several, error.to_string()));
            item.conditions
                .push(run_condition(run, several, placement, Err(&error)));
        }
    }
}

/// The run's `Initialized` condition, its message led by the run's name among several.
fn run_condition(
    run: &StagedRun,
    several: bool,
    placement: &Placement,
    outcome: Result<(), &RunError>,
) -> Condition {
    let mut condition = initialized(placement, outcome);
    condition.message = run_text(run, several, condition.message);
    condition
}

fn run_text(run: &StagedRun, several: bool, text: String) -> String {
    if several {
        format!("{}: {text}", run.name)
    } else {
        text
    }
}

/// The run's initialization (design §8): the latest snapshot must be fully scheduled, some
/// binding must be selected or Unscheduled and, for PickN and PickFixed, as many selected as
/// it asks for; then the stages and the deletion stage (`collectScheduledClusters`,
/// `generateStagesByStrategy`).
fn initialize(
    run: &StagedRun,
    policy: &PlacementPolicy,
    schedule: &Schedule,
    fleet: &Fleet<'_>,
    placement: &Placement,
) -> Result<stages::Stages, RunError> {
    // `validatePlacement` comes first: only a placement that leaves its rollout to runs.
    validate_placement(placement)?;
    let namespace = placement.namespace.as_deref();
    if schedule.condition.status != ConditionStatus::True {
        return Err(RunError::NotScheduled(schedule.snapshot.clone()));
    }
    let (selected, unscheduled): (Vec<&Binding>, Vec<&Binding>) = schedule
        .bindings
        .iter()
        .filter(|binding| {
            binding.scheduling_policy_snapshot_name == schedule.snapshot
                || binding.state == BindingState::Unscheduled
        })
        .partition(|binding| binding.state != BindingState::Unscheduled);
    if selected.is_empty() && unscheduled.is_empty() {
        return Err(RunError::NoBindings(format!(
            "{}/{}",
            namespace.unwrap_or_default(),
            schedule.snapshot
        )));
    }
    let observed = match policy.placement_type {
        PlacementType::PickN => usize::try_from(policy.number_of_clusters()).ok(),
        PlacementType::PickFixed => Some(policy.cluster_names.len()),
        PlacementType::PickAll => None,
    };
    if let Some(observed) = observed {
        if observed != selected.len() {
            return Err(RunError::Count {
                selected: selected.len(),
                observed,
            });
        }
    }
    let selected: Vec<&str> = selected
        .iter()
        .map(|binding| binding.target_cluster.as_str())
        .collect();
    let unscheduled: Vec<&str> = unscheduled
        .iter()
        .map(|binding| binding.target_cluster.as_str())
        .collect();
    // `generateStagesByStrategy` looks the strategy up only now.
    let Some(strategy_stages) = &run.stages else {
        return Err(RunError::User(format!(
            "referenced updateStrategy not found: `{}`",
            run.strategy
        )));
    };
    stages::assign(
        &run.strategy,
        strategy_stages,
        fleet.clusters(),
        &selected,
        &unscheduled,
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::kubefleet::model::binding::BindingScore;
    use crate::kubefleet::model::member_cluster::MemberCluster;
    use crate::kubefleet::model::wire::read;
    use crate::kubefleet::overrides::OverrideRule;

    const NOW: i64 = 1_780_315_200;

    fn healthy(name: &str, labels: Value) -> MemberCluster {
        read(&json!({
            "metadata": {"name": name, "labels": labels},
            "status": {"agentStatus": [{
                "type": "MemberAgent",
                "lastReceivedHeartbeat": "2026-06-01T12:00:00Z",
                "conditions": [
                    {"type": "Joined", "status": "True"},
                    {"type": "Healthy", "status": "True", "lastTransitionTime": "2026-06-01T12:00:00Z"}
                ]
            }]}
        }))
        .unwrap_or_default()
    }

    fn placement(raw: &Value) -> Placement {
        Placement {
            namespace: None,
            name: "crp".to_string(),
            policy: read(raw).ok(),
            strategy_type: "External".to_string(),
        }
    }

    fn input<'a>(placement: &'a Placement, raw: &'a Value) -> Input<'a> {
        Input {
            placement,
            raw_policy: Some(raw),
            snapshots: &[],
            bindings: &[],
            runs: &[],
            cluster_resource_overrides: &[],
            resource_overrides: &[],
        }
    }

    fn run() -> StagedRun {
        StagedRun {
            name: "run".to_string(),
            strategy: "/strategy".to_string(),
            stages: read(&json!([
                {"name": "canary", "labelSelector": {"matchLabels": {"ring": "0"}}},
                {"name": "rest", "labelSelector": {"matchLabels": {"ring": "1"}}}
            ]))
            .ok(),
        }
    }

    #[test]
    fn each_missing_cluster_gets_a_failed_entry_without_its_name() {
        let raw = json!({"placementType": "PickFixed", "clusterNames": ["a", "b", "c"]});
        let placement = placement(&raw);
        let clusters = [healthy("a", json!({}))];
        let item = plan(input(&placement, &raw), &Fleet::new(&clusters, NOW));
        let messages: Vec<&str> = item
            .schedule_failed
            .iter()
            .map(|condition| condition.message.as_str())
            .collect();
        assert_eq!(
            messages,
            [
                "Specified cluster \"b\" is not found",
                "Specified cluster \"c\" is not found"
            ]
        );
    }

    #[test]
    fn a_refused_placement_is_not_planned() {
        let raw = json!({"placementType": "PickN"});
        let placement = placement(&raw);
        let clusters = [healthy("a", json!({}))];
        let item = plan(input(&placement, &raw), &Fleet::new(&clusters, NOW));
        assert!(item.schedule.is_none());
        assert_eq!(
            item.errors,
            ["spec.policy: Invalid value: \"object\": clusterNames cannot be set and numberOfClusters must be set when placementType is PickN"]
        );
    }

    #[test]
    fn a_planned_placement_lists_clusters_scores_stages_and_overrides() {
        let raw = json!({"placementType": "PickN", "numberOfClusters": 2});
        let placement = placement(&raw);
        let clusters = [
            healthy("a", json!({"ring": "0"})),
            healthy("b", json!({"ring": "1"})),
            healthy("c", json!({"ring": "1"})),
        ];
        let run = run();
        let overrides = [Override {
            namespace: None,
            name: "cro".to_string(),
            rules: vec![OverrideRule {
                cluster_selector: read(&json!({"clusterSelectorTerms": [{"labelSelector": {"matchLabels": {"ring": "1"}}}]})).ok(),
            }],
        }];
        let item = plan(
            Input {
                runs: std::slice::from_ref(&run),
                cluster_resource_overrides: &overrides,
                ..input(&placement, &raw)
            },
            &Fleet::new(&clusters, NOW),
        );
        // Equal scores: the larger names win.
        assert_eq!(item.clusters, ["b", "c"]);
        assert_eq!(
            item.fields.scores.get("b"),
            Some(&BindingScore {
                affinity_score: Some(0),
                priority_score: Some(0)
            })
        );
        assert_eq!(item.fields.stages[0].clusters, Vec::<String>::new());
        assert_eq!(item.fields.stages[1].clusters, ["b", "c"]);
        assert_eq!(item.fields.stages[2].name, stages::DELETE_STAGE);
        assert_eq!(item.fields.stages[2].clusters, Vec::<String>::new());
        assert_eq!(item.conditions[1].status, ConditionStatus::True);
        assert_eq!(
            item.fields
                .overrides
                .get("c")
                .map(|found| found.cluster_resource_overrides.clone()),
            Some(vec!["cro".to_string()])
        );
        assert!(item.errors.is_empty());
    }

    #[test]
    fn a_run_cannot_start_while_pick_n_is_unfulfilled() {
        let raw = json!({"placementType": "PickN", "numberOfClusters": 3});
        let placement = placement(&raw);
        let clusters = [healthy("a", json!({"ring": "0"}))];
        let run = run();
        let item = plan(
            Input {
                runs: std::slice::from_ref(&run),
                ..input(&placement, &raw)
            },
            &Fleet::new(&clusters, NOW),
        );
        assert_eq!(item.conditions[1].status, ConditionStatus::False);
        // Two clusters are missing but no decision is unselected (`a`, the only cluster, was
        // picked), so there is no failed entry.
        assert!(item.schedule_failed.is_empty());
        assert_eq!(
            item.conditions[1].message,
            "cannot continue the updateRun: failed to validate the updateRun: policy snapshot `crp-0` not fully scheduled yet"
        );
    }
}
