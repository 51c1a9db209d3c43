//! OCM `Placement`: the scheduler's decisions, groups and conditions.

use crate::model::time::format_rfc3339;
use crate::model::{ConditionStatus, Group, ObjectRef, Plan, PlanItem, PreviousDecision, Workload};
use crate::ocm::conditions::Status;
use crate::ocm::model::placement::PlacementSpec;
use crate::ocm::{self, PlacementInput, Warning};

use crate::plan::trace::ItemTrace;
use crate::plan::{Diagnostic, DiagnosticKind, Planned, Run, Trace};

const KIND: &str = "Placement";

pub(crate) fn plan(run: &Run, workload: &Workload, spec: &PlacementSpec) -> Planned<'static> {
    let (scheduler, now, trace) = (
        run.placements,
        run.options.now,
        run.options.trace == Trace::Full,
    );
    let namespace = workload.object.namespace.as_deref().unwrap_or("default");
    let result = ocm::schedule(&PlacementInput {
        scheduler,
        namespace,
        name: &workload.object.name,
        spec,
        now,
        trace,
        enforce_spread: run.options.enforce_spread,
    });
    let mut errors = Vec::new();
    // Inputs the scheduler cannot use (a clusterset of an unknown selector type) fail the
    // item, as upstream's sync fails: the design calls other selector types an error.
    if let Status::Error { message } = &result.status {
        errors.push(message.clone());
    }
    // A placement the scheduler cannot even configure is a broken manifest: CI must fail.
    if result.misconfigured.status == ConditionStatus::True {
        errors.push(format!(
            "{}: {}",
            result.misconfigured.type_, result.misconfigured.message
        ));
    }
    let warnings = result
        .warnings
        .iter()
        .map(|warning| {
            let kind = match warning {
                Warning::Plugin { .. } => DiagnosticKind::PluginWarning,
                Warning::SpreadNotEnforced => DiagnosticKind::NotEnforced,
            };
            Diagnostic::about(workload, kind, warning.to_string())
        })
        .collect();
    let item = PlanItem {
        source: workload.object.clone(),
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
        conditions: result.conditions(),
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

/// The PlacementDecisions the scheduler sees as previous: those in the inputs, except where
/// `--previous` names the placement (then its clusters stand for all its decisions).
pub(crate) fn previous_decisions(
    decisions: &[PreviousDecision],
    previous: Option<&Plan>,
) -> Vec<PreviousDecision> {
    let from_plan: Vec<PreviousDecision> = previous
        .map(|plan| {
            plan.items
                .iter()
                .filter(|item| item.source.kind == KIND)
                .map(|item| PreviousDecision {
                    object: ObjectRef {
                        api_version: "cluster.open-cluster-management.io/v1beta1".to_string(),
                        kind: "PlacementDecision".to_string(),
                        namespace: item.source.namespace.clone(),
                        name: format!("{}-decision-1", item.source.name),
                    },
                    placement: item.source.name.clone(),
                    clusters: item.clusters.to_vec(),
                    source: Default::default(),
                })
                .collect()
        })
        .unwrap_or_default();
    let replaced: std::collections::HashSet<(Option<String>, String)> = from_plan
        .iter()
        .map(|d| (d.object.namespace.clone(), d.placement.clone()))
        .collect();
    decisions
        .iter()
        .filter(|d| d.object.kind == "PlacementDecision")
        .filter(|d| !replaced.contains(&(d.object.namespace.clone(), d.placement.clone())))
        .cloned()
        .chain(from_plan)
        .collect()
}
