//! What is wrong with a PlacementBinding itself: a `placementRef` that resolves to nothing
//! is an error (the propagator ignores the binding, so what it binds lands nowhere through
//! it), subjects not in the inputs a warning.

use foldhash::HashSet;

use super::{name_of, namespace, Consumers, POLICY_GROUP};
use crate::model::{Model, Workload, WorkloadKind};
use crate::ocm::model::consumer::{ConsumerSpec, PlacementBinding};
use crate::plan::diagnostic::{Diagnostic, Kind};

/// Whether `binding` binds one of `selected` (Policy and PolicySet items), directly or
/// through a PolicySet holding a selected Policy.
fn concerns(
    consumers: &Consumers,
    binding: &PlacementBinding,
    selected: &HashSet<(&str, &str, &str)>,
) -> bool {
    let ns = namespace(&binding.object);
    binding.subjects.iter().any(|(_, kind, name)| {
        selected.contains(&(kind.as_str(), ns, name.as_str()))
            || (kind == "PolicySet"
                && consumers
                    .policies
                    .get(&("PolicySet", ns, name.as_str()))
                    .is_some_and(|set| match &set.kind {
                        WorkloadKind::Consumer(spec) => match spec.as_ref() {
                            ConsumerSpec::PolicySet { policies, .. } => policies
                                .iter()
                                .any(|policy| selected.contains(&("Policy", ns, policy.as_str()))),
                            _ => false,
                        },
                        _ => false,
                    }))
    })
}

/// The errors and warnings of the model's PlacementBindings, in input order: every binding's
/// errors (a `placementRef` that resolves to nothing is an error whatever is selected), and
/// the warnings about subjects of every binding when `selected` is `None` (a whole plan),
/// else of those binding a selected workload.
pub(crate) fn binding_problems(
    consumers: &Consumers,
    model: &Model,
    selected: Option<&[&Workload]>,
) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
    let selected: Option<HashSet<(&str, &str, &str)>> = selected.map(|workloads| {
        workloads
            .iter()
            .map(|workload| {
                let object = &workload.object;
                (
                    object.kind.as_str(),
                    namespace(object),
                    object.name.as_str(),
                )
            })
            .collect()
    });
    // Each binding is judged on its own: on every core, in input order (a hub's 10k bindings
    // were a few milliseconds of one core at the end of every run).
    let bindings: Vec<(usize, &PlacementBinding)> =
        model.apis.consumers.bindings.iter().enumerate().collect();
    let judged = crate::parallel::chunks_in_order(&bindings, JUDGED_TOGETHER, |bindings| {
        bindings
            .iter()
            .map(|&(at, binding)| judged(consumers, at, binding, selected.as_ref()))
            .collect::<Vec<_>>()
    });
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for (error, warning) in judged.into_iter().flatten() {
        errors.extend(error);
        warnings.extend(warning);
    }
    (errors, warnings)
}

/// Bindings judged on one thread at least: fewer take less time than another thread takes to
/// start.
const JUDGED_TOGETHER: usize = 1024;

/// One binding's (the model's `position`-th) error (a `placementRef` that resolves to nothing) and
/// warning (subjects not in the inputs, judged when it binds one of `selected`, or always
/// without a selection).
fn judged(
    consumers: &Consumers,
    position: usize,
    binding: &PlacementBinding,
    selected: Option<&HashSet<(&str, &str, &str)>>,
) -> (Option<Diagnostic>, Option<Diagnostic>) {
    let error = consumers
        .binding_target(position, binding)
        .err()
        .map(|why| Diagnostic {
            field: Some("placementRef"),
            ..diagnostic(binding, Kind::Unresolved, why.to_string())
        });
    if selected.is_some_and(|selected| !concerns(consumers, binding, selected)) {
        return (error, None);
    }
    // Without any Policy or PolicySet the inputs are taken as a part of the hub (a
    // migration's output holds the bindings it rewrote, not their policies): subjects
    // are judged only when some are there.
    if consumers.policies.is_empty() {
        return (error, None);
    }
    let ns = namespace(&binding.object);
    let missing: Vec<String> = binding
        .subjects
        .iter()
        .enumerate()
        .filter(|(_, (group, kind, name))| {
            group == POLICY_GROUP
                && !consumers
                    .policies
                    .contains_key(&(kind.as_str(), ns, name.as_str()))
        })
        .map(|(at, (_, kind, name))| format!("subjects[{at}] {}", name_of(kind, ns, name)))
        .collect();
    let warning = if missing.len() == binding.subjects.len() {
        Some(diagnostic(
            binding,
            Kind::PlacedNowhere,
            format!(
                "binds nothing: none of its subjects is in the inputs ({})",
                missing.join(", ")
            ),
        ))
    } else if !missing.is_empty() {
        Some(diagnostic(
            binding,
            Kind::MissingSubjects,
            format!("not in the inputs: {}", missing.join(", ")),
        ))
    } else {
        None
    };
    (error, warning)
}

fn diagnostic(binding: &PlacementBinding, kind: Kind, message: String) -> Diagnostic {
    Diagnostic {
        source: binding.source.clone(),
        object: binding.object.clone(),
        kind,
        field: None,
        message,
    }
}
