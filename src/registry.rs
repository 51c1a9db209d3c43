//! The registry: every placement API fleetplan knows, one line per API in each list the
//! frameworks loop over: what `load` reads, the plan step `plan` runs for a workload, the
//! piece `explain` renders a trace with, and `migrate`'s targets. An API's code lives in its
//! folder (`src/<api>/`: `read`, `plan`, `explain`, `migrate`, and its engine); this file is
//! the one place the compiler shows every API together, as upstream OCM's `schedule.go` and
//! Karmada's `registry.go` list their plugins. Adding an API: ARCHITECTURE.md, "Adding a
//! placement API".

use crate::load::kinds::{self, Api};
use crate::migrate::{Migrate, Target};
use crate::model::{Cluster, Model, PlanItem, Workload, WorkloadKind};
use crate::plan::{ItemTrace, Planned, Run};
use crate::render::explain::{self, Explanation};
use crate::{federation, karmada, kubefed, kubefleet, ocm};

/// What `load` reads, in the order the APIs' claims are tried (an object of a kind no API
/// defines goes to the first API that claims it).
pub(crate) const APIS: &[&Api] = &[
    &kinds::inventory::API,
    &federation::read::API,
    &kubefed::read::API,
    &ocm::read::placement::API,
    &ocm::read::placement_rule::API,
    // The objects that consume a placement.
    &ocm::read::consumers::policy::API,
    &ocm::read::consumers::subscription::API,
    &ocm::read::consumers::work::API,
    &ocm::read::consumers::addon::API,
    // Claims core ConfigMaps and Secrets of its shapes, which Karmada's claim would take.
    &ocm::read::consumers::argo::API,
    &kubefleet::read::API,
    // Last: its claim takes any other named object as a possible resource template.
    &karmada::read::API,
];

/// Plans one workload with its API's plan step.
pub(crate) fn plan<'a>(run: &Run<'_, 'a>, workload: &'a Workload) -> Planned<'a> {
    match &workload.kind {
        WorkloadKind::Annotated {
            replica_set_preferences,
            replicas,
        } => federation::plan::plan(run, workload, replica_set_preferences.as_deref(), *replicas),
        WorkloadKind::Federated(placement) => kubefed::plan::federated(run, workload, placement),
        WorkloadKind::ReplicaSchedulingPreference(spec) => {
            kubefed::plan::replica_scheduling_preference(run, workload, spec)
        }
        WorkloadKind::Placement(spec) => ocm::plan::placement::plan(run, workload, spec),
        WorkloadKind::PlacementRule(spec) => ocm::plan::placement_rule::plan(run, workload, spec),
        WorkloadKind::Karmada(resource) => karmada::plan::plan(run, workload, resource),
        WorkloadKind::KubeFleet(placement) => kubefleet::plan::plan(run, workload, placement),
        // Planned after the placements it references (`plan::plan_consumers`), never here.
        WorkloadKind::Consumer(_) => Planned::failed(
            workload,
            "a placement consumer is planned through its placements".to_string(),
        ),
    }
}

/// What is wrong with the objects around the placements, per API: admission refusals that
/// need every object, and (in a `whole` run) references that resolve to nothing; errors at
/// the object at fault (OCM's PlacementBindings are judged with its consumers).
pub(crate) fn problems(model: &Model, whole: bool) -> Vec<crate::plan::diagnostic::Diagnostic> {
    kubefleet::plan::problems(model, whole)
}

/// Explains one item from the trace its API's engine returned.
pub(crate) fn explain(
    explanation: &mut Explanation,
    item: &PlanItem,
    trace: &ItemTrace,
    clusters: &[Cluster],
) {
    match trace {
        ItemTrace::Selection(selection) => {
            explain::label_selection::explain(explanation, selection, clusters)
        }
        ItemTrace::Replicas { selection, planner } => {
            explain::label_selection::explain(explanation, selection, clusters);
            explain::replicas::explain(explanation, item, planner);
        }
        ItemTrace::Placement(result) => {
            ocm::explain::placement::explain(explanation, result, clusters)
        }
        ItemTrace::PlacementRule(result) => {
            ocm::explain::placement_rule::explain(explanation, result, clusters)
        }
        ItemTrace::Karmada(trace) => karmada::explain::explain(explanation, trace),
        ItemTrace::Consumer(trace) => ocm::explain::consumer::explain(explanation, trace, clusters),
        ItemTrace::KubeFleet(trace) => kubefleet::explain::explain(explanation, item, trace),
        ItemTrace::Failed => explain::failed(explanation, item, clusters),
    }
}

/// The migration of the loaded inputs to `target`'s API.
pub(crate) fn migrate(target: Target) -> Migrate {
    match target {
        Target::Ocm => crate::migrate::migrate,
        Target::Karmada => karmada::migrate::migrate,
    }
}
