//! A consumer's item, once the placements its routes go through are planned: the union of
//! what each route gives (a placement that failed gives nothing), less what a route leaves
//! out (a PolicySet's exclusions, clusters not registered with Argo CD).

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::resolve::{Decisions, Resolution};
use super::{ConsumerTrace, RouteTrace};
use crate::model::{ClusterNames, ItemSource, PlanItem, Workload};
use crate::plan::{ItemTrace, Planned};

/// Upstream's wording of a rollout strategy's order over the decision groups
/// (sdk-go `pkg/apis/cluster/v1alpha1/rollout.go`).
fn rollout_order(strategy: &str) -> &'static str {
    match strategy {
        "Progressive" => "mandatory decision groups first, then the other clusters maxConcurrency at a time, in decision group order",
        "ProgressivePerGroup" => "mandatory decision groups first, then one decision group after another, in index order",
        _ => "every cluster at once",
    }
}

/// The clusters of `item`'s decision objects `decisions` reads (every cluster for `All`: the
/// item's own names, shared rather than copied, as most consumers take them whole).
fn decided(item: &PlanItem, trace: &ItemTrace, decisions: &Decisions) -> (ClusterNames, bool) {
    let objects = match trace {
        ItemTrace::Placement(result) => result.decisions.as_slice(),
        _ => &[],
    };
    let mut found = false;
    let mut clusters = BTreeSet::new();
    match decisions {
        Decisions::All => return (item.clusters.clone(), true),
        Decisions::Matching(selector) => {
            for object in objects
                .iter()
                .filter(|object| selector.matches(&object.labels))
            {
                found = true;
                clusters.extend(object.clusters.iter().map(str::to_string));
            }
        }
        Decisions::Named(name) => {
            for object in objects.iter().filter(|object| &object.name == name) {
                found = true;
                clusters.extend(object.clusters.iter().map(str::to_string));
            }
        }
    }
    (clusters.into_iter().collect::<Vec<_>>().into(), found)
}

/// The consumer's planned item. `placed` gives a placement's planned item (every route's
/// target was planned); `registered` the clusters registered with Argo CD, when known.
pub fn land<'a, 'p>(
    workload: &'a Workload,
    resolution: Resolution<'a>,
    placed: &dyn Fn(&Workload) -> Option<&'p Planned<'a>>,
    registered: Option<&HashSet<&str>>,
    full: bool,
) -> Planned<'a>
where
    'a: 'p,
{
    let mut errors = resolution.errors;
    let mut notes = resolution.notes;
    let mut routes = Vec::new();
    let mut placements: Vec<(PlanItem, ItemTrace<'a>)> = Vec::new();
    let mut generators_found = vec![false; resolution.needs_decisions.len()];
    let mut single_groups = None;
    let route_count = resolution.routes.len();
    for route in resolution.routes {
        let placement = ItemSource::from(&route.target.object);
        let Some(planned) = placed(route.target) else {
            continue;
        };
        if full && !placements.iter().any(|(item, _)| item.source == placement) {
            placements.push((planned.item.clone(), planned.trace.clone()));
        }
        if !planned.item.errors.is_empty() {
            notes.push(format!(
                "{placement} has errors: it places nothing (its errors say why)"
            ));
            continue;
        }
        let (chosen, found) = decided(&planned.item, &planned.trace, &route.decisions);
        if let Some(at) = route.generator {
            if let Some(slot) = generators_found.get_mut(at) {
                *slot |= found;
            }
        }
        if let Some(strategy) = &route.rollout {
            notes.push(format!(
                "rollout {strategy} over {placement}: {}",
                rollout_order(strategy)
            ));
            if route_count == 1 {
                single_groups = Some(planned.item.groups.clone());
            }
        }
        let excluded: BTreeMap<&str, &str> = route
            .excluded
            .iter()
            .map(|(cluster, why)| (cluster.as_str(), why.as_str()))
            .collect();
        let mut dropped = Vec::new();
        let filtered = !excluded.is_empty() || (resolution.registered_only && registered.is_some());
        let kept = if filtered {
            let mut kept = Vec::new();
            for cluster in chosen.iter() {
                if let Some(why) = excluded.get(cluster) {
                    dropped.push((cluster.to_string(), why.to_string()));
                } else if resolution.registered_only
                    && registered.is_some_and(|names| !names.contains(cluster))
                {
                    dropped.push((
                        cluster.to_string(),
                        "not registered with Argo CD (no cluster Secret names it)".to_string(),
                    ));
                } else {
                    kept.push(cluster.to_string());
                }
            }
            ClusterNames::from(kept)
        } else {
            chosen
        };
        let mut chain = route.chain;
        chain.push(placement.to_string());
        routes.push(RouteTrace {
            chain,
            placement,
            clusters: kept,
            dropped,
        });
    }
    // One route and nothing else: its names as they are; else the union, sorted.
    let clusters: ClusterNames = match (routes.as_slice(), &resolution.inline) {
        ([only], None) => only.clusters.clone(),
        _ => {
            let mut union: BTreeSet<&str> = routes
                .iter()
                .flat_map(|route| route.clusters.iter())
                .collect();
            union.extend(resolution.inline.iter().flatten().map(String::as_str));
            union.into_iter().map(str::to_string).collect()
        }
    };
    for (path, found) in resolution.needs_decisions.iter().zip(generators_found) {
        if !found {
            errors.push(format!(
                "{path}: no clusterDecisionResources found: no PlacementDecision of the inputs' Placements matches"
            ));
        }
    }
    if resolution.registered_only && registered.is_none() && !routes.is_empty() {
        notes.push(
            "no Argo CD cluster Secret in the inputs: every decided cluster is taken as registered"
                .to_string(),
        );
    }
    let failed = !errors.is_empty();
    let item = PlanItem {
        source: (&workload.object).into(),
        clusters: if failed { Default::default() } else { clusters },
        groups: if failed {
            Vec::new()
        } else {
            single_groups.unwrap_or_default()
        },
        via: routes.iter().map(|route| route.chain.clone()).collect(),
        errors,
        ..PlanItem::default()
    };
    let warnings = resolution
        .warnings
        .into_iter()
        .map(|warning| format!("{}: {}: {warning}", workload.source, workload.object))
        .collect();
    Planned {
        item,
        trace: ItemTrace::Consumer(Box::new(ConsumerTrace {
            routes,
            notes,
            placements,
        })),
        warnings,
    }
}
