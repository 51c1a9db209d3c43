//! A consumer's item, once the placements its routes go through are planned: the union of
//! what each route gives (a placement that failed gives nothing), less what a route leaves
//! out (a PolicySet's exclusions, clusters not registered with Argo CD).

use std::collections::{BTreeMap, BTreeSet};

use foldhash::HashMap;

use super::resolve::{render, Decisions, Resolution, Route};
use super::rollout;
use super::{ConsumerTrace, RouteTrace};
use crate::model::{ClusterNames, ObjectRef, PlanItem, Workload};
use crate::ocm::fields::{DecisionGroup, Rollout};
use crate::ocm::model::consumer::RolloutStrategy;
use crate::ocm::FleetIndex;
use crate::plan::diagnostic::Diagnostic;
use crate::plan::{ItemTrace, Planned};
use crate::selector::Selector;

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
/// target was planned); `fleet` the clusters a Subscription's own selector is listed over;
/// `registered` the clusters registered with Argo CD, when known. Its
/// trace is made when `keep_trace` (a plan document reads only the item: 10k Policies' traces
/// were a tenth of landing them), and holds the placements' items when `full`.
pub(crate) fn land<'a, 'p>(
    workload: &'a Workload,
    resolution: &Resolution<'a>,
    placed: &(dyn Fn(&Workload) -> Option<&'p Planned<'a>> + Sync),
    fleet: &FleetIndex,
    registered: Option<&HashMap<&str, &str>>,
    (keep_trace, full): (bool, bool),
) -> Planned<'a>
where
    'a: 'p,
{
    let mut errors = resolution.errors.clone();
    let mut notes = Vec::new();
    let mut routes = Vec::new();
    let mut placements: Vec<(PlanItem, ItemTrace<'a>)> = Vec::new();
    let mut generators_found = vec![false; resolution.needs_decisions.len()];
    let mut single_groups = None;
    let mut rollouts = Vec::new();
    let route_count = resolution.routes.len();
    for route in &resolution.routes {
        let placement = &route.target.object;
        let Some(planned) = placed(route.target) else {
            continue;
        };
        if full && !placements.iter().any(|(item, _)| &item.source == placement) {
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
        if !route.counts {
            continue;
        }
        if let Some((field, strategy)) = &route.rollout {
            match rollout_over(placement, strategy, &planned.item) {
                Ok((rollout, note)) => {
                    rollouts.push(rollout);
                    notes.extend(note);
                }
                Err(error) => errors.push(format!("{field}.{error}")),
            }
            if route_count == 1 {
                single_groups = Some(planned.item.selection.ocm.groups.clone());
            }
        }
        let (kept, dropped) = leave_out(route, chosen, resolution.registered_only, registered);
        let mut chain = route.chain.clone();
        chain.push(placement.qualified_name());
        routes.push(RouteTrace {
            chain,
            placement,
            clusters: kept,
            dropped,
        });
    }
    let inline = resolution
        .inline
        .as_ref()
        .map(|selector| selected(fleet, selector));
    let clusters = union(&routes, inline.as_deref());
    errors.extend(no_decisions_found(
        &resolution.needs_decisions,
        generators_found,
    ));
    let failed = !errors.is_empty();
    notes.extend(argo_cd_notes(
        resolution,
        &clusters,
        full && !failed,
        registered.is_none() && !routes.is_empty(),
    ));
    let mut item = item(workload, errors, clusters, single_groups, rollouts);
    let warnings = resolution
        .warnings
        .iter()
        .map(|(kind, message)| Diagnostic::about(workload, *kind, message.clone()))
        .collect();
    if !keep_trace {
        item.api.ocm.via = routes.into_iter().map(|route| route.chain).collect();
        return Planned {
            item,
            trace: ItemTrace::NotKept,
            warnings,
        };
    }
    item.api.ocm.via = routes.iter().map(|route| route.chain.clone()).collect();
    Planned {
        item,
        trace: ItemTrace::Consumer(Box::new(ConsumerTrace {
            routes,
            notes: resolution.notes.iter().cloned().chain(notes).collect(),
            placements,
        })),
        warnings,
    }
}

/// The consumer's item: where its routes (and inline clusters) place it, in decision groups
/// when it has one route with a rollout, or, when it failed, only its errors (they say why).
fn item(
    workload: &Workload,
    errors: Vec<String>,
    clusters: ClusterNames,
    groups: Option<Vec<DecisionGroup>>,
    rollouts: Vec<Rollout>,
) -> PlanItem {
    let source = workload.object.clone();
    if !errors.is_empty() {
        return PlanItem {
            source,
            errors,
            ..PlanItem::default()
        };
    }
    let mut item = PlanItem {
        source,
        clusters,
        errors,
        ..PlanItem::default()
    };
    item.selection.ocm.groups = groups.unwrap_or_default();
    item.api.ocm.rollout = rollouts;
    item
}

/// What `route` keeps of the clusters its placement chose, and those it leaves out with why:
/// a PolicySet's exclusions, clusters not registered with Argo CD (when only registered ones
/// generate and the inputs say which are), clusters whose parameter set its generator's
/// `selector` does not match. A route that leaves nothing out shares `chosen` as it is.
fn leave_out(
    route: &Route,
    chosen: ClusterNames,
    registered_only: bool,
    registered: Option<&HashMap<&str, &str>>,
) -> (ClusterNames, Vec<(String, String)>) {
    let excluded: BTreeMap<&str, &str> = route
        .excluded
        .iter()
        .map(|(cluster, why)| (cluster.as_str(), why.as_str()))
        .collect();
    let mut dropped = Vec::new();
    let filtered = !excluded.is_empty()
        || (registered_only && registered.is_some())
        || route.parameters.is_some();
    if !filtered {
        return (chosen, dropped);
    }
    let mut kept = Vec::new();
    for cluster in chosen.iter() {
        let server = registered.and_then(|names| names.get(cluster));
        if let Some(why) = excluded.get(cluster) {
            dropped.push((cluster.to_string(), why.to_string()));
        } else if registered_only && registered.is_some() && server.is_none() {
            dropped.push((
                cluster.to_string(),
                "not registered with Argo CD (no cluster Secret names it)".to_string(),
            ));
        } else if let Some(filter) = route
            .parameters
            .as_ref()
            .filter(|filter| !filter.keeps(cluster, server.copied().unwrap_or_default()))
        {
            dropped.push((
                cluster.to_string(),
                format!("{} does not match its parameter set", filter.path),
            ));
        } else {
            kept.push(cluster.to_string());
        }
    }
    (ClusterNames::from(kept), dropped)
}

/// The consumer's clusters: one route and nothing else gives its names as they are; else
/// the union of every route's and the inline ones, sorted.
fn union(routes: &[RouteTrace<'_>], inline: Option<&[String]>) -> ClusterNames {
    match (routes, inline) {
        ([only], None) => only.clusters.clone(),
        _ => {
            let mut union: BTreeSet<&str> = routes
                .iter()
                .flat_map(|route| route.clusters.iter())
                .collect();
            union.extend(inline.into_iter().flatten().map(String::as_str));
            union.into_iter().map(str::to_string).collect()
        }
    }
}

/// The names of the clusters `selector` selects that are not being deleted, sorted: a
/// Subscription's own `clusters` or `clusterSelector`, as the subscription controller lists
/// the ManagedClusters.
fn selected(fleet: &FleetIndex, selector: &Selector) -> Vec<String> {
    let mut clusters: Vec<String> = fleet
        .select_labels(selector)
        .iter_ones()
        .map(|index| fleet.cluster(index))
        .filter(|cluster| !cluster.deleting)
        .map(|cluster| cluster.name.clone())
        .collect();
    clusters.sort();
    clusters
}

/// Upstream's error for each generator (at its field path) that must read decision objects
/// and found none on any of its routes.
fn no_decisions_found(paths: &[String], found: Vec<bool>) -> impl Iterator<Item = String> + '_ {
    paths
        .iter()
        .zip(found)
        .filter(|(_, found)| !found)
        .map(|(path, _)| {
            format!(
                "{path}: no clusterDecisionResources found: no PlacementDecision of the inputs' Placements matches"
            )
        })
}

/// An ApplicationSet's notes: the Application each cluster generates (`listed`: in a full
/// plan of an item that did not fail), and that every cluster is taken as registered with
/// Argo CD when the inputs hold no cluster Secret (`unknown`: and some route was planned).
fn argo_cd_notes(
    resolution: &Resolution,
    clusters: &ClusterNames,
    listed: bool,
    unknown: bool,
) -> Vec<String> {
    let mut notes = Vec::new();
    if let (Some(name), true) = (&resolution.applications, listed) {
        for cluster in clusters.iter() {
            notes.push(format!(
                "Application {} -> {cluster}",
                render(name, resolution.applications_go, cluster)
            ));
        }
    }
    if resolution.registered_only && unknown {
        notes.push(
            "no Argo CD cluster Secret in the inputs: every decided cluster is taken as registered"
                .to_string(),
        );
    }
    notes
}

/// The rollout over one placement (its decision groups; a placement without a decision
/// strategy has one group, index 0, of every cluster it chose), and explain's lines for it.
fn rollout_over(
    placement: &ObjectRef,
    strategy: &RolloutStrategy,
    item: &PlanItem,
) -> Result<(Rollout, Vec<String>), rollout::RolloutError> {
    let whole = [DecisionGroup {
        name: String::new(),
        index: 0,
        clusters: item.clusters.clone(),
    }];
    let groups = &item.selection.ocm.groups;
    let groups = if groups.is_empty() {
        &whole[..]
    } else {
        &groups[..]
    };
    let waves = rollout::waves(strategy, groups)?;
    let mut notes = vec![format!(
        "rollout {} over {placement}: {} wave{}",
        strategy.type_,
        waves.len(),
        if waves.len() == 1 { "" } else { "s" }
    )];
    for (at, wave) in waves.iter().enumerate() {
        let mut what = Vec::new();
        if wave.mandatory {
            what.push("mandatory".to_string());
        }
        if let Some(index) = wave.group {
            match groups.iter().find(|group| group.index == index) {
                Some(group) if !group.name.is_empty() => {
                    what.push(format!("group {index} {}", group.name))
                }
                _ => what.push(format!("group {index}")),
            }
        }
        let what = if what.is_empty() {
            String::new()
        } else {
            format!(" ({})", what.join(", "))
        };
        notes.push(format!(
            "  wave {}{what}: {}",
            at + 1,
            wave.clusters.join(", ")
        ));
    }
    let rollout = Rollout {
        placement: placement.to_string(),
        strategy: strategy.type_.clone(),
        waves,
    };
    Ok((rollout, notes))
}
