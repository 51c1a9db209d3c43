//! Items for OCM `Placement` and `PlacementRule`.

use crate::model::placement::{PlacementRuleSpec, PlacementSpec};
use crate::model::time::format_rfc3339;
use crate::model::Workload;
use crate::placement::conditions::Status;
use crate::placement::rule::{self, RuleInput};
use crate::placement::{self, FleetIndex, PlacementInput};

use super::trace::ItemTrace;
use super::Planned;
use crate::model::{Group, PlanItem};

pub fn placement(
    fleet: &FleetIndex,
    workload: &Workload,
    spec: &PlacementSpec,
    now: i64,
    trace: bool,
) -> Planned<'static> {
    let namespace = workload.object.namespace.as_deref().unwrap_or("default");
    let result = placement::schedule(&PlacementInput {
        fleet,
        namespace,
        name: &workload.object.name,
        spec,
        now,
        trace,
    });
    let mut errors = Vec::new();
    // Inputs the scheduler cannot use (a clusterset of an unknown selector type) fail the
    // item, as upstream's sync fails: the design calls other selector types an error.
    if let Status::Error { message } = &result.status {
        errors.push(message.clone());
    }
    // A placement the scheduler cannot even configure is a broken manifest: CI must fail.
    if result.misconfigured.status == "True" {
        errors.push(format!(
            "{}: {}",
            result.misconfigured.type_, result.misconfigured.message
        ));
    }
    let warnings = result
        .warnings
        .iter()
        .map(|warning| format!("{}: {}: {warning}", workload.source, workload.object))
        .collect();
    let item = PlanItem {
        source: (&workload.object).into(),
        clusters: result.selected.clone(),
        groups: result
            .groups
            .iter()
            .map(|group| Group {
                name: group.decision_group_name.clone(),
                index: group.decision_group_index,
                clusters: group.clusters.clone(),
            })
            .collect(),
        conditions: vec![result.satisfied.clone(), result.misconfigured.clone()],
        changes_at: result.changes_at.map(format_rfc3339),
        errors,
        ..PlanItem::default()
    };
    Planned {
        item,
        trace: ItemTrace::Placement(Box::new(result)),
        warnings,
    }
}

pub fn placement_rule(
    fleet: &FleetIndex,
    workload: &Workload,
    spec: &PlacementRuleSpec,
    previous: &[String],
    trace: bool,
) -> Planned<'static> {
    let result = rule::evaluate(&RuleInput {
        fleet,
        spec,
        previous,
        trace,
    });
    let item = PlanItem {
        source: (&workload.object).into(),
        clusters: result.selected.clone(),
        errors: result.error.iter().cloned().collect(),
        ..PlanItem::default()
    };
    Planned {
        item,
        trace: ItemTrace::PlacementRule(Box::new(result)),
        warnings: Vec::new(),
    }
}
