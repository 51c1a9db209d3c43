//! Which placements a consumer references, as its controller finds them (docs/semantics.md,
//! "Placement consumers", names the upstream files followed):
//!
//! - Policy, PolicySet: the PlacementBindings of their namespace
//!   (governance-policy-propagator `controllers/common/common.go` `HasValidPlacementRef`,
//!   `GetDecisions`; `controllers/propagator/replicatedpolicy_controller.go`
//!   `singleClusterDecision`);
//! - Subscription: `spec.placement` (multicloud-operators-subscription
//!   `pkg/controller/mcmhub/placement.go`, `pkg/placementrule/utils/placement.go`);
//! - ManifestWorkReplicaSet: `spec.placementRefs` (ocm `pkg/work/hub/controllers/
//!   manifestworkreplicasetcontroller/manifestworkreplicaset_deploy_reconcile.go`);
//! - ClusterManagementAddOn: `spec.installStrategy` (ocm `pkg/addon/controllers/
//!   addonmanagement/addon_install_reconciler.go`);
//! - ApplicationSet: its `clusterDecisionResource` generators (argo-cd
//!   `applicationset/generators/duck_type.go`).

use super::{name_of, namespace, Consumers, Unresolved};
use crate::model::consumer::{
    ConsumerSpec, Generator, PlacementBinding, RolloutStrategy, SubscriptionPlacement,
};
use crate::model::{LabelSelectorSpec, Workload, WorkloadKind};
use crate::placement::FleetIndex;
use crate::selector::{Operator, Requirement, Selector};

/// The label of a PlacementDecision that names its Placement.
pub const PLACEMENT_LABEL: &str = "cluster.open-cluster-management.io/placement";
const PLACEMENT_GROUP: &str = "cluster.open-cluster-management.io";
const RULE_GROUP: &str = "apps.open-cluster-management.io";

/// One placement a consumer goes through, before that placement is planned.
#[derive(Clone, Debug)]
pub struct Route<'a> {
    /// The objects between the consumer and the placement.
    pub chain: Vec<String>,
    pub target: &'a Workload,
    /// Clusters this route leaves out (a PolicySet's exclusions), with why.
    pub excluded: Vec<(String, String)>,
    pub decisions: Decisions,
    /// A ManifestWorkReplicaSet's `rolloutStrategy` for this placement, with its field path.
    pub rollout: Option<(String, &'a RolloutStrategy)>,
    /// The generator this route comes from: its index in [`Resolution::needs_decisions`].
    pub generator: Option<usize>,
}

/// Which of the placement's decision objects the route reads.
#[derive(Clone, Debug)]
pub enum Decisions {
    All,
    /// Those whose labels the selector matches (an ApplicationSet's `labelSelector`).
    Matching(Selector),
    /// The one of that name (an ApplicationSet's `name`).
    Named(String),
}

/// Where a consumer goes, as far as it is known before its placements are planned.
#[derive(Clone, Debug, Default)]
pub struct Resolution<'a> {
    pub routes: Vec<Route<'a>>,
    /// References that resolve to nothing, and what the controller refuses: the item fails.
    pub errors: Vec<String>,
    /// `placed nowhere` and the like, for stderr.
    pub warnings: Vec<String>,
    pub notes: Vec<String>,
    /// Clusters chosen without a placement: a Subscription's `clusters` or
    /// `clusterSelector`.
    pub inline: Option<Vec<String>>,
    /// Only clusters registered with Argo CD generate (an ApplicationSet).
    pub registered_only: bool,
    /// Planned through decision objects that must exist (an ApplicationSet): none found
    /// is upstream's error.
    pub needs_decisions: Vec<String>,
}

/// Where `workload` goes, given the run's consumers and fleet.
pub fn resolve<'a>(
    consumers: &Consumers<'a>,
    fleet: &FleetIndex,
    workload: &'a Workload,
    spec: &'a ConsumerSpec,
) -> Resolution<'a> {
    let mut resolution = Resolution::default();
    match spec {
        ConsumerSpec::Policy { disabled } => {
            if *disabled {
                resolution.notes.push(
                    "spec.disabled is true: the propagator replicates it to no cluster".to_string(),
                );
            } else {
                bound(consumers, workload, &mut resolution);
            }
        }
        ConsumerSpec::PolicySet { policies, .. } => {
            // The policy-set controller lists a member it cannot find under "Deleted
            // policies" in the set's status (event PolicyNotFound) and goes on: the other
            // members propagate, each by its own reconcile.
            let ns = namespace(&workload.object);
            let mut present = Vec::new();
            for (at, policy) in policies.iter().enumerate() {
                if consumers.policies.contains_key(&("Policy", ns, policy)) {
                    present.push(policy.as_str());
                } else {
                    resolution.warnings.push(format!(
                        "spec.policies[{at}]: {} is not in the inputs: the set's other policies are still propagated, this one is listed as deleted in its status",
                        name_of("Policy", ns, policy)
                    ));
                }
            }
            if !present.is_empty() {
                resolution.notes.push(format!(
                    "its policies land where it lands: {}",
                    present.join(", ")
                ));
            }
            bound(consumers, workload, &mut resolution);
        }
        ConsumerSpec::Subscription(placement) => {
            subscription(consumers, fleet, workload, placement, &mut resolution);
        }
        ConsumerSpec::ManifestWorkReplicaSet { placements } => {
            let ns = namespace(&workload.object);
            for (at, (name, rollout)) in placements.iter().enumerate() {
                match consumers.placement("Placement", ns, name) {
                    Ok(target) => resolution.routes.push(Route {
                        rollout: Some((
                            format!("spec.placementRefs[{at}].rolloutStrategy"),
                            rollout,
                        )),
                        ..route(Vec::new(), target)
                    }),
                    Err(why) => resolution
                        .errors
                        .push(format!("spec.placementRefs[{at}]: {why}")),
                }
            }
            if placements.is_empty() {
                resolution
                    .warnings
                    .push("placed nowhere: spec.placementRefs is empty".to_string());
            }
        }
        ConsumerSpec::AddOn {
            strategy,
            placements,
        } => {
            if strategy != "Placements" {
                resolution.notes.push(format!(
                    "installStrategy {}: the add-on manager installs it through no placement (only where a ManagedClusterAddOn is created){}",
                    if strategy.is_empty() { "Manual (the default)" } else { strategy },
                    if placements.is_empty() { "" } else { "; its placements are not read" }
                ));
                return resolution;
            }
            for (at, (ns, name)) in placements.iter().enumerate() {
                match consumers.placement("Placement", ns, name) {
                    Ok(target) => resolution.routes.push(route(Vec::new(), target)),
                    Err(why) => resolution
                        .errors
                        .push(format!("spec.installStrategy.placements[{at}]: {why}")),
                }
            }
        }
        ConsumerSpec::ApplicationSet(generators) => {
            application_set(consumers, workload, generators, &mut resolution);
        }
    }
    resolution
}

fn route<'a>(chain: Vec<String>, target: &'a Workload) -> Route<'a> {
    Route {
        chain,
        target,
        excluded: Vec::new(),
        decisions: Decisions::All,
        rollout: None,
        generator: None,
    }
}

/// The placement a PlacementBinding's `placementRef` names, or why it names none: upstream
/// ignores a binding whose apiGroup does not serve its kind (`HasValidPlacementRef`).
pub fn binding_target<'a>(
    consumers: &Consumers<'a>,
    binding: &PlacementBinding,
) -> Result<&'a Workload, Unresolved> {
    let expected = match binding.kind.as_str() {
        "Placement" => PLACEMENT_GROUP,
        _ => RULE_GROUP,
    };
    if binding.api_group != expected {
        return Err(Unresolved::WrongGroup {
            kind: binding.kind.clone(),
            group: binding.api_group.clone(),
            expected,
        });
    }
    consumers.placement(&binding.kind, namespace(&binding.object), &binding.name)
}

/// A Policy's or PolicySet's routes through the PlacementBindings of its namespace: a binding
/// names it, or (for a Policy) a PolicySet that holds it. `subFilter: restricted` bindings
/// place nothing (`singleClusterDecision` only reads them for clusters others placed).
fn bound<'a>(consumers: &Consumers<'a>, workload: &'a Workload, resolution: &mut Resolution<'a>) {
    let object = &workload.object;
    let (ns, name) = (namespace(object), object.name.as_str());
    // (binding, subject) positions naming it, then the sets holding it: visited in the
    // bindings' input order, as the propagator lists them.
    let mut subjects: Vec<(usize, usize, &PlacementBinding, Option<&str>)> = consumers
        .subjects
        .get(&(object.kind.as_str(), ns, name))
        .into_iter()
        .flatten()
        .map(|&(at, subject, binding)| (at, subject, binding, None))
        .collect();
    if object.kind == "Policy" {
        for set in consumers
            .sets_holding
            .get(&(ns, name))
            .into_iter()
            .flatten()
        {
            subjects.extend(
                consumers
                    .subjects
                    .get(&("PolicySet", ns, set))
                    .into_iter()
                    .flatten()
                    .map(|&(at, subject, binding)| (at, subject, binding, Some(*set))),
            );
        }
    }
    subjects.sort_by_key(|&(at, subject, ..)| (at, subject));
    // A set that lists the policy twice is one way to it.
    subjects.dedup_by_key(|&mut (at, subject, ..)| (at, subject));
    let bound = !subjects.is_empty();
    for (_, _, binding, through) in subjects {
        let binding_name = name_of("PlacementBinding", ns, &binding.object.name);
        // (the chain before the binding, clusters left out with why)
        let (before, excluded) = match through {
            None => (Vec::new(), Vec::new()),
            Some(set_name) => {
                let set = name_of("PolicySet", ns, set_name);
                let exclusions = match consumers
                    .policies
                    .get(&("PolicySet", ns, set_name))
                    .map(|set| &set.kind)
                {
                    Some(WorkloadKind::Consumer(spec)) => match spec.as_ref() {
                        ConsumerSpec::PolicySet { exclusions, .. } => exclusions.as_slice(),
                        _ => &[],
                    },
                    _ => &[],
                };
                let excluded = exclusions
                    .iter()
                    .filter(|(policy, _)| policy == name)
                    .flat_map(|(_, clusters)| clusters)
                    .map(|cluster| {
                        (
                            cluster.clone(),
                            format!("excluded by {set} spec.exclusions"),
                        )
                    })
                    .collect();
                (vec![set], excluded)
            }
        };
        if binding.restricted {
            resolution.notes.push(format!(
                "{binding_name} has subFilter: restricted: it places nothing, and its overrides apply only on clusters another binding places"
            ));
            continue;
        }
        if let Some(action) = &binding.remediation_override {
            resolution.notes.push(format!(
                "{binding_name} overrides remediationAction to {action} on the clusters it places"
            ));
        }
        match binding_target(consumers, binding) {
            Ok(target) => {
                let mut chain = before;
                chain.push(binding_name.clone());
                resolution.routes.push(Route {
                    excluded,
                    ..route(chain, target)
                });
            }
            Err(_) => resolution.notes.push(format!(
                "{binding_name} places nothing: its placementRef resolves to nothing (reported as its error)"
            )),
        }
    }
    if !bound {
        let through = if object.kind == "Policy" {
            " or a PolicySet holding it"
        } else {
            ""
        };
        resolution.warnings.push(format!(
            "placed nowhere: no PlacementBinding in namespace {ns} binds it{through}"
        ));
    }
}

/// A Subscription's `spec.placement`, as the hub's subscription controller reads it: a
/// `placementRef` wins over `clusters`, which win over `clusterSelector`; `local` alone
/// deploys on the hub itself.
fn subscription<'a>(
    consumers: &Consumers<'a>,
    fleet: &FleetIndex,
    workload: &'a Workload,
    placement: &SubscriptionPlacement,
    resolution: &mut Resolution<'a>,
) {
    let remote = placement.reference.is_some()
        || placement.clusters.is_some()
        || placement.cluster_selector.is_some();
    if !placement.present {
        resolution
            .errors
            .push("spec.placement: Placement must be specified".to_string());
        return;
    }
    if placement.local && remote {
        resolution.errors.push(
            "spec.placement: local placement and remote placement cannot be used together"
                .to_string(),
        );
        return;
    }
    if placement.local {
        resolution.notes.push(
            "spec.placement.local is true: deployed on the hub itself, propagated to no managed cluster"
                .to_string(),
        );
        return;
    }
    let ns = namespace(&workload.object);
    if let Some(reference) = &placement.reference {
        let field = "spec.placement.placementRef";
        let kind = match reference.kind.as_str() {
            "" => "PlacementRule",
            kind @ ("Placement" | "PlacementRule") => kind,
            other => {
                resolution.errors.push(format!(
                    "{field}.kind: unsupported placement reference {:?}: expected Placement or PlacementRule",
                    crate::model::echo(other)
                ));
                return;
            }
        };
        const VERSIONS: &[&str] = &[
            "apps.open-cluster-management.io/v1",
            "cluster.open-cluster-management.io/v1alpha1",
            "cluster.open-cluster-management.io/v1beta1",
        ];
        if !reference.api_version.is_empty() && !VERSIONS.contains(&reference.api_version.as_str())
        {
            resolution.errors.push(format!(
                "{field}.apiVersion: unsupported placement reference {:?}: expected one of {}",
                crate::model::echo(&reference.api_version),
                VERSIONS.join(", ")
            ));
            return;
        }
        if !reference.namespace.is_empty() && reference.namespace != ns {
            resolution.errors.push(format!(
                "{field}.namespace: {} is in another namespace: the subscription controller reads only the Subscription's own namespace ({ns})",
                name_of(kind, &reference.namespace, &reference.name)
            ));
            return;
        }
        match consumers.placement(kind, ns, &reference.name) {
            Ok(target) => resolution.routes.push(route(Vec::new(), target)),
            Err(why) => resolution.errors.push(format!("{field}: {why}")),
        }
        return;
    }
    // `PlaceByGenericPlacmentFields`: listed clusters are matched by their `name` label.
    let selector = match placement.clusters.as_deref() {
        Some(names) if !names.is_empty() => Requirement::new("name", Operator::In, names.to_vec())
            .map(|requirement| Selector::from_requirements(vec![requirement]))
            .map_err(|error| format!("spec.placement.clusters: {error}")),
        _ => {
            let everything = LabelSelectorSpec::default();
            Selector::from_label_selector(Some(
                placement.cluster_selector.as_ref().unwrap_or(&everything),
            ))
            .map_err(|error| format!("spec.placement.clusterSelector: {error}"))
        }
    };
    match selector {
        Ok(selector) => {
            let mut clusters: Vec<String> = fleet
                .select_labels(&selector)
                .iter_ones()
                .map(|index| fleet.cluster(index))
                .filter(|cluster| !cluster.deleting)
                .map(|cluster| cluster.name.clone())
                .collect();
            clusters.sort();
            if placement
                .clusters
                .as_deref()
                .is_some_and(|names| !names.is_empty())
            {
                resolution.notes.push(
                    "spec.placement.clusters: matched against each ManagedCluster's name label, as the subscription controller does".to_string(),
                );
            }
            resolution.inline = Some(clusters);
        }
        Err(error) => resolution.errors.push(error),
    }
}

/// The standard `acm-placement` ConfigMap's data: PlacementDecisions, their
/// `status.decisions[].clusterName`.
const ACM_PLACEMENT: (&str, &str, &str, &str) = (
    "cluster.open-cluster-management.io/v1beta1",
    "placementdecisions",
    "decisions",
    "clusterName",
);

fn application_set<'a>(
    consumers: &Consumers<'a>,
    workload: &'a Workload,
    generators: &[Generator],
    resolution: &mut Resolution<'a>,
) {
    let ns = namespace(&workload.object);
    resolution.registered_only = true;
    let mut planned = false;
    for generator in generators {
        let (path, config_map, name, label_selector) = match generator {
            Generator::Other { path, kind } => {
                resolution.notes.push(format!(
                    "{path}: a {kind} generator is not planned (only clusterDecisionResource)"
                ));
                continue;
            }
            Generator::ClusterDecisionResource {
                path,
                config_map,
                name,
                label_selector,
            } => (path, config_map, name, label_selector),
        };
        planned = true;
        let config = name_of("ConfigMap", ns, config_map);
        let shape = match consumers.config_maps.get(&(ns, config_map.as_str())) {
            Some(data) => (
                data.api_version.as_str(),
                data.kind.as_str(),
                data.status_list_key.as_str(),
                data.match_key.as_str(),
            ),
            None => {
                resolution.notes.push(format!(
                    "{path}.configMapRef: {config} is not in the inputs: read as the standard acm-placement ConfigMap (apiVersion {}, kind {}, statusListKey {}, matchKey {})",
                    ACM_PLACEMENT.0, ACM_PLACEMENT.1, ACM_PLACEMENT.2, ACM_PLACEMENT.3
                ));
                ACM_PLACEMENT
            }
        };
        let (api_version, kind, list_key, match_key) = shape;
        let Some((group, _version)) = api_version.split_once('/').filter(|_| !kind.is_empty())
        else {
            resolution.errors.push(format!(
                "{path}: {config}: there is a problem with the apiVersion, kind or resourceName provided"
            ));
            continue;
        };
        if group != PLACEMENT_GROUP || !kind.eq_ignore_ascii_case("placementdecisions") {
            resolution.notes.push(format!(
                "{path}: {config} lists {kind} of {api_version}, not OCM PlacementDecisions: not planned"
            ));
            continue;
        }
        let list_key = if list_key.is_empty() {
            "clusters"
        } else {
            list_key
        };
        if list_key != ACM_PLACEMENT.2 || match_key != ACM_PLACEMENT.3 {
            resolution.notes.push(format!(
                "{path}: {config} reads status.{list_key}[].{match_key}, which a PlacementDecision does not have (status.decisions[].clusterName): it generates nothing"
            ));
            continue;
        }
        let selects = label_selector.as_ref().is_some_and(|selector| {
            selector.match_labels.is_some() || selector.match_expressions.is_some()
        });
        if name.is_empty() != selects {
            resolution.errors.push(format!(
                "{path}: there is a problem with the definition of the ClusterDecisionResource generator: give either name or labelSelector"
            ));
            continue;
        }
        let before = vec![config.clone()];
        let generator = Some(resolution.needs_decisions.len());
        if !name.is_empty() {
            // `<placement>-decision-<n>`: the names the scheduler gives its decisions.
            let placement = name
                .rsplit_once("-decision-")
                .filter(|(_, index)| !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()))
                .map(|(placement, _)| placement);
            match placement.map(|placement| consumers.placement("Placement", ns, placement)) {
                Some(Ok(target)) => resolution.routes.push(Route {
                    decisions: Decisions::Named(name.clone()),
                    generator,
                    ..route(before, target)
                }),
                _ => resolution.errors.push(format!(
                    "{path}.name: no PlacementDecision {} would be written: no Placement in the inputs writes a decision of that name",
                    name_of("PlacementDecision", ns, name)
                )),
            }
            resolution.needs_decisions.push(format!("{path}.name"));
            continue;
        }
        let selector = match Selector::from_label_selector(label_selector.as_ref()) {
            Ok(selector) => selector,
            Err(error) => {
                resolution
                    .errors
                    .push(format!("{path}.labelSelector: {error}"));
                continue;
            }
        };
        let only = label_selector
            .as_ref()
            .and_then(|selector| selector.match_labels.as_ref())
            .and_then(|labels| labels.get(PLACEMENT_LABEL));
        let candidates = consumers
            .namespace_placements
            .get(ns)
            .into_iter()
            .flatten()
            .filter(|placement| only.is_none_or(|name| &placement.object.name == name));
        for target in candidates {
            resolution.routes.push(Route {
                decisions: Decisions::Matching(selector.clone()),
                generator,
                ..route(before.clone(), target)
            });
        }
        resolution
            .needs_decisions
            .push(format!("{path}.labelSelector"));
    }
    if !planned {
        resolution.registered_only = false;
        resolution.notes.push(
            "no clusterDecisionResource generator: nothing planned through a placement".to_string(),
        );
    }
}
