//! OCM `Placement`: the scheduler's decisions, groups and conditions.

use crate::model::time::format_rfc3339;
use crate::model::{ConditionStatus, PlanItem, Workload};
use crate::ocm::conditions::Status;
use crate::ocm::fields::DecisionGroup;
use crate::ocm::model::placement::PlacementSpec;
use crate::ocm::{self, PlacementInput, Warning};

use crate::plan::trace::ItemTrace;
use crate::plan::{Diagnostic, DiagnosticKind, Planned, Run, Trace};

pub(crate) fn plan(run: &Run, workload: &Workload, spec: &PlacementSpec) -> Planned<'static> {
    let (scheduler, now, trace) = (
        &run.hubs.ocm,
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
    let mut item = PlanItem {
        source: workload.object.clone(),
        clusters: result.selected.clone(),
        conditions: result.conditions(),
        errors,
        ..PlanItem::default()
    };
    item.selection.ocm.groups = result
        .groups
        .iter()
        .map(|group| DecisionGroup {
            name: group.decision_group_name.clone(),
            index: group.decision_group_index,
            clusters: group.clusters.clone(),
        })
        .collect();
    item.api.ocm.changes_at = result.changes_at.map(format_rfc3339);
    Planned {
        item,
        trace: ItemTrace::Placement(Box::new(result)),
        warnings,
    }
}
