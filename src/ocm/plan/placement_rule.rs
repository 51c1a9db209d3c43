//! `PlacementRule`: its decisions, kept stable against its previous ones.

use crate::model::{PlanItem, Workload};
use crate::ocm::model::placement::PlacementRuleSpec;
use crate::ocm::rule::{self, RuleInput};

use crate::plan::trace::ItemTrace;
use crate::plan::{Planned, Run, Trace};

pub(crate) fn plan(run: &Run, workload: &Workload, spec: &PlacementRuleSpec) -> Planned<'static> {
    let previous = previous_decisions(run, workload);
    let result = rule::evaluate(&RuleInput {
        fleet: &run.placements.fleet,
        spec,
        previous: &previous,
        trace: run.options.trace == Trace::Full,
    });
    let item = PlanItem {
        source: workload.object.clone(),
        clusters: result.selected.clone().into(),
        errors: result.error.iter().cloned().collect(),
        ..PlanItem::default()
    };
    Planned {
        item,
        trace: ItemTrace::PlacementRule(Box::new(result)),
        warnings: Vec::new(),
    }
}

/// A PlacementRule's previous decisions: `--previous` first, else its own `status.decisions`.
fn previous_decisions(run: &Run, workload: &Workload) -> Vec<String> {
    if let Some(item) = run.previous_item(workload) {
        return item.clusters.to_vec();
    }
    run.model
        .decisions
        .iter()
        .find(|d| d.object == workload.object)
        .map(|d| d.clusters.clone())
        .unwrap_or_default()
}
