//! A plan run's consumers: resolved from the model before anything is planned (which says
//! whose traces landing reads), landed once the placements they reference are planned.

use foldhash::{HashMap, HashSet};

use super::{binding_problems, land, resolve, Consumers, Resolution};
use crate::model::{Model, Workload, WorkloadKind};
use crate::parallel;
use crate::plan::{Diagnostic, Planned, Run, Trace};

/// The consumers among a run's workloads, resolved before anything is planned: where each
/// goes is known from the model alone, and it says which placements' traces landing reads.
pub(crate) struct Resolved<'a> {
    index: Consumers<'a>,
    /// Each consumer's position among the workloads, the consumer, and its routes.
    resolutions: Vec<(usize, &'a Workload, Resolution<'a>)>,
    /// The placements (by address) whose trace a route reads: its decision objects.
    read_trace: HashSet<usize>,
}

/// A workload's identity within one model: its address (a number, so the index of them can
/// be shared by the threads that land the consumers).
fn address(workload: &Workload) -> usize {
    std::ptr::from_ref(workload).addr()
}

impl<'a> Resolved<'a> {
    /// The consumers among `workloads` resolved, when the model has any consumer or
    /// PlacementBinding: from the model alone, so a run resolves them on a core of its own
    /// while it indexes its fleet (10k Policies took ~6 ms on every core between indexing
    /// and planning).
    pub(crate) fn new(model: &'a Model, workloads: &[&'a Workload]) -> Option<Resolved<'a>> {
        let any = !model.apis.consumers.bindings.is_empty()
            || model
                .workloads
                .iter()
                .any(|workload| matches!(workload.kind, WorkloadKind::Consumer(_)));
        if !any {
            return None;
        }
        let consumers: Vec<_> = workloads
            .iter()
            .enumerate()
            .filter_map(|(at, workload)| match &workload.kind {
                WorkloadKind::Consumer(spec) => Some((at, *workload, spec.as_ref())),
                _ => None,
            })
            .collect();
        if consumers.is_empty() && model.apis.consumers.bindings.is_empty() {
            return None;
        }
        let index = Consumers::new(model);
        // Each consumer is resolved, and later landed, on its own: on every core, in order
        // (10k Policies are a normal input).
        let resolutions = parallel::map_in_order(&consumers, |&(at, workload, spec)| {
            (at, workload, resolve(&index, workload, spec))
        });
        let read_trace = resolutions
            .iter()
            .flat_map(|(_, _, resolution)| &resolution.routes)
            .filter(|route| route.decisions.reads_objects())
            .map(|route| address(route.target))
            .collect();
        Some(Resolved {
            index,
            resolutions,
            read_trace,
        })
    }

    /// Whether landing a consumer reads `workload`'s trace (its decision objects).
    pub(crate) fn reads_trace(&self, workload: &Workload) -> bool {
        self.read_trace.contains(&address(workload))
    }

    /// Plans the consumers among `workloads` into their slots of `planned`, after planning
    /// the placements they reference that `workloads` does not hold; returns the
    /// PlacementBindings' errors (every binding's) and warnings (every binding's when
    /// `whole`, else those of the selected items).
    pub(crate) fn plan(
        self,
        run: &Run<'_, 'a>,
        workloads: &[&'a Workload],
        planned: &mut [Option<Planned<'a>>],
        whole: bool,
    ) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
        let Resolved {
            index, resolutions, ..
        } = self;
        // The placements already planned, by address; the others the routes need, planned now.
        let mut slots: HashMap<usize, usize> = workloads
            .iter()
            .enumerate()
            .filter(|(at, _)| planned.get(*at).is_some_and(Option::is_some))
            .map(|(at, workload)| (address(workload), at))
            .collect();
        let mut needed: Vec<&'a Workload> = Vec::new();
        for (_, _, resolution) in &resolutions {
            for route in &resolution.routes {
                let key = address(route.target);
                if let std::collections::hash_map::Entry::Vacant(slot) = slots.entry(key) {
                    slot.insert(workloads.len() + needed.len());
                    needed.push(route.target);
                }
            }
        }
        let extra: Vec<Planned<'a>> =
            parallel::map_in_order(&needed, |workload| run.item(workload));
        let full = run.options.trace == Trace::Full;
        let registered = index.argo_clusters();
        let landed = {
            let planned: &[Option<Planned<'a>>] = planned;
            let placed = |workload: &Workload| {
                let at = *slots.get(&address(workload))?;
                match at.checked_sub(workloads.len()) {
                    Some(extra_at) => extra.get(extra_at),
                    None => planned.get(at).and_then(Option::as_ref),
                }
            };
            // A trace no output reads is not made (10k Policies' routes).
            let keep_trace = run.options.trace > Trace::Plan;
            parallel::map_in_order(&resolutions, |(at, workload, resolution)| {
                let item = land(
                    workload,
                    resolution,
                    &placed,
                    &run.hubs.ocm.fleet,
                    registered,
                    (keep_trace, full),
                );
                (*at, item)
            })
        };
        for (at, item) in landed {
            if let Some(slot) = planned.get_mut(at) {
                *slot = Some(item);
            }
        }
        let selected = (!whole).then_some(workloads);
        let problems = binding_problems(&index, run.model, selected);
        if run.options.left_to_exit {
            std::mem::forget((resolutions, index));
        }
        problems
    }
}
