//! Stage assignment of a (Cluster)StagedUpdateRun (`pkg/controllers/updaterun/
//! initialization.go computeRunStageStatus` and the task checks before it): which selected
//! clusters each stage of the strategy updates, in which order, and which clusters the
//! deletion stage removes.

use std::borrow::Borrow;
use std::collections::HashSet;
use std::num::IntErrorKind;

use serde::Deserialize;

use super::model::member_cluster::MemberCluster;
pub(crate) use super::model::stage_config::{StageConfig, StageTask};
use crate::selector::{go_quote, Selector};

/// The name of a run's deletion stage (`apis/placement/v1beta1/commons.go
/// UpdateRunDeleteStageName`): no strategy's stage can have it, as the CRD's pattern
/// `^[a-z0-9]+$` refuses `/` and `.`.
pub(crate) const DELETE_STAGE: &str = "kubernetes-fleet.io/deleteStage";

/// The stages of a run, in the strategy's order, and the deletion stage.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Stages {
    pub(crate) stages: Vec<Stage>,
    pub(crate) deletion: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stage {
    pub name: String,
    /// In update order.
    pub clusters: Vec<String>,
}

/// Why a run cannot be initialized; `Display` is the run's `Initialized=False` message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum RunError {
    /// A user error in the strategy or the clusters' labels (`controller.NewUserError`).
    #[error("cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: {0}")]
    User(String),
    /// No binding of the placement is selected or Unscheduled (`collectScheduledClusters`);
    /// the snapshot as `namespace/name`.
    #[error("cannot continue the updateRun: failed to validate the updateRun: no scheduled or to-be-deleted bindings found for the latest policy snapshot {0}")]
    NoBindings(String),
    /// A placement-state invariant the run cannot recover from (`determinePolicySnapshot`:
    /// several latest policy snapshots), upstream's error text.
    #[error("cannot continue the updateRun: failed to validate the updateRun: {0}")]
    Validation(String),
    /// The latest policy snapshot is not `Scheduled=True` (`getPolicySnapshot`).
    #[error("cannot continue the updateRun: failed to validate the updateRun: policy snapshot `{0}` not fully scheduled yet")]
    NotScheduled(String),
    /// PickN or PickFixed without as many selected bindings as it asks for
    /// (`collectScheduledClusters`, `controller.NewUnexpectedBehaviorError`).
    #[error("cannot continue the updateRun: failed to validate the updateRun: unexpected behavior which cannot be handled by the controller: the number of selected bindings {selected} is not equal to the observed cluster count {observed}")]
    Count { selected: usize, observed: usize },
}

impl RunError {
    /// `initialization.go validatePlacement` finds no placement: the hub never stored it
    /// (absent from the inputs, or refused at admission).
    pub(crate) fn parent_not_found() -> RunError {
        RunError::User("parent placement not found".to_string())
    }
}

/// `computeRunStageStatus` and the deletion stage. `strategy` is `namespace/name` (an empty
/// namespace for a ClusterStagedUpdateStrategy); `selected` are the clusters of the current
/// bindings that are not Unscheduled, `unscheduled` the clusters of the Unscheduled ones.
pub(crate) fn assign<C: Borrow<MemberCluster>>(
    strategy: &str,
    stages: &[StageConfig],
    clusters: &[C],
    selected: &[&str],
    unscheduled: &[&str],
) -> Result<Stages, RunError> {
    let selected: HashSet<&str> = selected.iter().copied().collect();
    // The hub lists clusters from its cache in no fixed order; fleetplan takes name order, so
    // a duplicate or a bad sorting label is reported for the first cluster by name.
    let mut by_name: Vec<&MemberCluster> = clusters.iter().map(Borrow::borrow).collect();
    by_name.sort_by(|a, b| a.name.cmp(&b.name));
    let mut placed: HashSet<&str> = HashSet::new();
    let mut assigned = Vec::with_capacity(stages.len());
    for stage in stages {
        validate_tasks(strategy, stage)?;
        let selector = Selector::from_label_selector(stage.label_selector.as_ref()).map_err(|error| {
            RunError::User(format!(
                "the stage label selector is invalid, updateStrategy: `{strategy}`, stage: {}, err: {error}",
                stage.name
            ))
        })?;
        let mut members: Vec<(i64, &str)> = Vec::new();
        for cluster in &by_name {
            let name = cluster.name.as_str();
            if !selected.contains(name) || !selector.matches(&cluster.labels) {
                continue;
            }
            if !placed.insert(name) {
                return Err(RunError::User(format!(
                    "cluster `{name}` appears in more than one stages"
                )));
            }
            let order = match &stage.sorting_label_key {
                Some(key) => sorting_value(key, cluster)?,
                None => 0,
            };
            members.push((order, name));
        }
        members.sort();
        assigned.push(Stage {
            name: stage.name.clone(),
            clusters: members
                .into_iter()
                .map(|(_, name)| name.to_string())
                .collect(),
        });
    }
    let mut missing: Vec<&str> = selected.difference(&placed).copied().collect();
    if !missing.is_empty() {
        missing.sort_unstable();
        let shown = missing[..missing.len().min(10)].join(", ");
        return Err(RunError::User(format!(
            "some clusters are not placed in any stage, total {}, showing up to 10: {shown}",
            missing.len()
        )));
    }
    let mut deletion: Vec<String> = unscheduled.iter().map(|name| name.to_string()).collect();
    deletion.sort();
    Ok(Stages {
        stages: assigned,
        deletion,
    })
}

/// The sorting label as `strconv.Atoi` reads it; a missing label is `""`, an error.
fn sorting_value(key: &str, cluster: &MemberCluster) -> Result<i64, RunError> {
    let value = cluster.labels.get(key).map_or("", String::as_str);
    value.parse::<i64>().map_err(|error| {
        let why = match error.kind() {
            IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => "value out of range",
            _ => "invalid syntax",
        };
        let quoted = go_quote(value);
        RunError::User(format!(
            "the sorting label `{key}:{value}` on cluster `{}` is not valid: strconv.Atoi: parsing {quoted}: {why}",
            cluster.name
        ))
    })
}

/// `validateBeforeStageTask` and `validateAfterStageTask`.
fn validate_tasks(strategy: &str, stage: &StageConfig) -> Result<(), RunError> {
    let invalid = |which: &str, error: TaskError| {
        RunError::User(format!(
            "the {which} stage tasks are invalid, updateStrategy: `{strategy}`, stage: {}, err: {error}",
            stage.name
        ))
    };
    if let Err(error) = before_stage_tasks(&stage.before_stage_tasks) {
        return Err(invalid("before", error));
    }
    if let Err(error) = after_stage_tasks(&stage.after_stage_tasks) {
        return Err(invalid("after", error));
    }
    Ok(())
}

/// Why a stage's tasks are invalid (upstream's texts).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum TaskError {
    #[error("beforeStageTasks can have at most one task")]
    TooManyBefore,
    #[error("task {0} of type {1} is not allowed in beforeStageTasks, allowed type: Approval")]
    NotApproval(usize, String),
    #[error("task {0} of type Approval cannot have wait duration set")]
    ApprovalWait(usize),
    #[error("afterStageTasks cannot have two tasks of the same type: {0}")]
    SameType(String),
    #[error("task {0} of type TimedWait has wait duration set to nil")]
    NoWait(usize),
    #[error("task {0} of type TimedWait has wait duration <= 0")]
    NonPositiveWait(usize),
}

fn before_stage_tasks(tasks: &[StageTask]) -> Result<(), TaskError> {
    if tasks.len() > 1 {
        return Err(TaskError::TooManyBefore);
    }
    for (index, task) in tasks.iter().enumerate() {
        if task.task_type != "Approval" {
            return Err(TaskError::NotApproval(index, task.task_type.clone()));
        }
        if task.wait_time.is_some() {
            return Err(TaskError::ApprovalWait(index));
        }
    }
    Ok(())
}

fn after_stage_tasks(tasks: &[StageTask]) -> Result<(), TaskError> {
    if let [first, second] = tasks {
        if first.task_type == second.task_type {
            return Err(TaskError::SameType(first.task_type.clone()));
        }
    }
    for (index, task) in tasks.iter().enumerate() {
        if task.task_type == "TimedWait" {
            match task.wait_time {
                None => return Err(TaskError::NoWait(index)),
                Some(wait) if wait <= 0 => return Err(TaskError::NonPositiveWait(index)),
                Some(_) => {}
            }
        }
    }
    Ok(())
}
