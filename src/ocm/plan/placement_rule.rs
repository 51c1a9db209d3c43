//! `PlacementRule`: its decisions, kept stable against its previous ones.

use crate::model::{PlanItem, Workload};
use crate::ocm::model::placement::PlacementRuleSpec;
use crate::ocm::rule::{self, RuleInput};

use crate::plan::trace::ItemTrace;
use crate::plan::{Planned, Run, Trace};

pub(crate) fn plan(run: &Run, workload: &Workload, spec: &PlacementRuleSpec) -> Planned<'static> {
    let previous = previous_decisions(run, workload);
    let result = rule::evaluate(&RuleInput {
        fleet: &run.hubs.ocm.fleet,
        spec,
        previous,
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

/// A PlacementRule's previous decisions, in their order: the run's (`--previous`'s, else its
/// own `status.decisions`), looked up in the scheduler's index of them.
fn previous_decisions<'r>(run: &Run<'r, '_>, workload: &Workload) -> &'r [String] {
    run.hubs.ocm.previous.of_rule(&workload.object)
}
