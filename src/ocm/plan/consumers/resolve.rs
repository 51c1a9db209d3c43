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

use super::parameters::{reads_server, ParameterFilter};
use super::{name_of, namespace, Consumers, Unresolved};
use crate::model::{LabelSelectorSpec, Workload, WorkloadKind};
use crate::ocm::model::consumer::{
    ApplicationSetSpec, ConsumerSpec, Generator, PlacementBinding, RolloutStrategy,
    SubscriptionPlacement, SubscriptionRef,
};
use crate::plan::diagnostic::Kind;
use crate::selector::{Operator, Requirement, Selector};

/// The label of a PlacementDecision that names its Placement.
pub(super) const PLACEMENT_LABEL: &str = "cluster.open-cluster-management.io/placement";
const PLACEMENT_GROUP: &str = "cluster.open-cluster-management.io";
const RULE_GROUP: &str = "apps.open-cluster-management.io";

/// One placement a consumer goes through, before that placement is planned.
#[derive(Clone, Debug)]
pub(crate) struct Route<'a> {
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
    /// Whether its clusters are the consumer's: not for a generator merged into another's
    /// parameter sets (read, and its errors reported, but adding no Application).
    pub counts: bool,
    /// The generator's `selector` over the parameter set each cluster generates.
    pub(super) parameters: Option<ParameterFilter>,
}

/// Which of the placement's decision objects the route reads.
#[derive(Clone, Debug)]
pub(crate) enum Decisions {
    All,
    /// Those whose labels the selector matches (an ApplicationSet's `labelSelector`).
    Matching(Selector),
    /// The one of that name (an ApplicationSet's `name`).
    Named(String),
}

impl Decisions {
    /// Whether landing reads the placement's decision objects (its trace), not only its
    /// clusters.
    pub(crate) fn reads_objects(&self) -> bool {
        !matches!(self, Decisions::All)
    }
}

/// Where a consumer goes, as far as it is known before its placements are planned.
#[derive(Clone, Debug, Default)]
pub(crate) struct Resolution<'a> {
    pub routes: Vec<Route<'a>>,
    /// References that resolve to nothing, and what the controller refuses: the item fails.
    pub errors: Vec<String>,
    /// `placed nowhere` and the like, for stderr.
    pub warnings: Vec<(Kind, String)>,
    pub notes: Vec<String>,
    /// Clusters chosen without a placement: a Subscription's `clusters` or
    /// `clusterSelector`, as the selector over the ManagedClusters they are (listed over the
    /// fleet when the consumer lands).
    pub inline: Option<Selector>,
    /// Only clusters registered with Argo CD generate (an ApplicationSet).
    pub registered_only: bool,
    /// Planned through decision objects that must exist (an ApplicationSet): none found
    /// is upstream's error.
    pub needs_decisions: Vec<String>,
    /// An ApplicationSet whose destination reads a cluster parameter: its template's
    /// Application name, rendered per cluster (with goTemplate when the flag says so).
    pub applications: Option<String>,
    pub applications_go: bool,
}

/// Where `workload` goes, given the run's consumers: read from the model alone (a
/// Subscription's own selector is listed over the fleet when it lands), so it is resolved while
/// the fleet is still being indexed.
pub(crate) fn resolve<'a>(
    consumers: &Consumers<'a>,
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
                    resolution.warnings.push((Kind::Unresolved, format!(
                        "spec.policies[{at}]: {} is not in the inputs: the set's other policies are still propagated, this one is listed as deleted in its status",
                        name_of("Policy", ns, policy)
                    )));
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
            subscription(consumers, workload, placement, &mut resolution);
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
                resolution.warnings.push((
                    Kind::PlacedNowhere,
                    "placed nowhere: spec.placementRefs is empty".to_string(),
                ));
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
        ConsumerSpec::ApplicationSet(spec) => {
            application_set(consumers, workload, spec, &mut resolution);
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
        counts: true,
        parameters: None,
    }
}

/// The placement a PlacementBinding's `placementRef` names, or why it names none: upstream
/// ignores a binding whose apiGroup does not serve its kind (`HasValidPlacementRef`).
pub(super) fn binding_target<'a>(
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
    for (at, _, binding, through) in subjects {
        let binding_name = name_of("PlacementBinding", ns, &binding.object.name);
        // (the chain before the binding, clusters left out with why)
        let (before, excluded) = match through {
            None => (Vec::new(), Vec::new()),
            Some(set_name) => {
                let set = name_of("PolicySet", ns, set_name);
                let excluded = set_exclusions(consumers, ns, set_name, name, &set);
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
        match consumers.binding_target(at, binding) {
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
        resolution.warnings.push((
            Kind::PlacedNowhere,
            format!("placed nowhere: no PlacementBinding in namespace {ns} binds it{through}"),
        ));
    }
}

/// The clusters the PolicySet `set_name` (written `set`) excludes for its policy `name`,
/// each with why.
fn set_exclusions(
    consumers: &Consumers<'_>,
    ns: &str,
    set_name: &str,
    name: &str,
    set: &str,
) -> Vec<(String, String)> {
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
    exclusions
        .iter()
        .filter(|(policy, _)| policy == name)
        .flat_map(|(_, clusters)| clusters)
        .map(|cluster| {
            (
                cluster.clone(),
                format!("excluded by {set} spec.exclusions"),
            )
        })
        .collect()
}

/// A Subscription's `spec.placement.placementRef`: a route to the Placement or PlacementRule
/// of its own namespace it names, or the error the subscription controller gives.
fn placement_ref<'a>(
    consumers: &Consumers<'a>,
    ns: &str,
    reference: &SubscriptionRef,
    resolution: &mut Resolution<'a>,
) {
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
    if !reference.api_version.is_empty() && !VERSIONS.contains(&reference.api_version.as_str()) {
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
}

/// A Subscription's `spec.placement`, as the hub's subscription controller reads it: a
/// `placementRef` wins over `clusters`, which win over `clusterSelector`; `local` alone
/// deploys on the hub itself.
fn subscription<'a>(
    consumers: &Consumers<'a>,
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
        placement_ref(consumers, ns, reference, resolution);
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
            if placement
                .clusters
                .as_deref()
                .is_some_and(|names| !names.is_empty())
            {
                resolution.notes.push(
                    "spec.placement.clusters: matched against each ManagedCluster's name label, as the subscription controller does".to_string(),
                );
            }
            resolution.inline = Some(selector);
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
    spec: &ApplicationSetSpec,
    resolution: &mut Resolution<'a>,
) {
    let ns = namespace(&workload.object);
    resolution.registered_only = true;
    for each in &spec.generators {
        plan_generator(consumers, ns, each, true, resolution);
    }
    for path in &spec.unapplied_selectors {
        resolution.notes.push(format!(
            "{path}: a selector on a generator other than clusterDecisionResource filters parameter sets fleetplan does not know: not applied"
        ));
    }
    if !spec.generators.iter().any(has_decisions) {
        resolution.registered_only = false;
        resolution.notes.push(
            "no clusterDecisionResource generator: nothing planned through a placement".to_string(),
        );
        return;
    }
    if resolution.routes.iter().any(|route| route.counts) {
        destination(spec, resolution);
    }
}

fn has_decisions(generator: &Generator) -> bool {
    match generator {
        Generator::ClusterDecisionResource { .. } => true,
        Generator::Matrix { children, .. } | Generator::Merge { children, .. } => {
            children.iter().any(has_decisions)
        }
        Generator::List { .. } | Generator::Other { .. } | Generator::Refused { .. } => false,
    }
}

/// The parameters a clusterDecisionResource gives each decided cluster that name it
/// (`duck_type.go`: `name` and `server` of the Argo CD cluster, the decision's `clusterName`).
const CLUSTER_PARAMS: [&str; 3] = ["name", "clusterName", "server"];

/// The parameter a template expression reads (`{{ name }}`; with goTemplate `{{ .name }}`),
/// when it is a bare reference.
fn parameter(expression: &str, go_template: bool) -> Option<&str> {
    let expression = expression.trim();
    if go_template {
        expression.strip_prefix('.')
    } else {
        Some(expression)
    }
}

/// The byte ranges of `text`'s `{{ … }}` expressions, braces included.
fn expressions(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(start) = text[from..].find("{{").map(|at| from + at) {
        let Some(end) = text[start..].find("}}").map(|at| start + at + 2) else {
            break;
        };
        found.push(start..end);
        from = end;
    }
    found
}

/// `text` with each bare reference to one of the cluster parameters replaced by `cluster`
/// (`server` too: the server of the Argo CD cluster of that name); anything else left as
/// written.
pub(super) fn render(text: &str, go_template: bool, cluster: &str) -> String {
    let mut out = String::new();
    let mut written = 0;
    for range in expressions(text) {
        let inner = &text[range.start + 2..range.end - 2];
        if parameter(inner, go_template).is_some_and(|name| name == "name" || name == "clusterName")
        {
            out.push_str(&text[written..range.start]);
            out.push_str(cluster);
            written = range.end;
        }
    }
    out.push_str(&text[written..]);
    out
}

/// Which cluster each Application targets: the one it was generated for when the template's
/// destination reads a cluster parameter; a fixed one, or one only the other generators
/// know, said as a note.
fn destination(spec: &ApplicationSetSpec, resolution: &mut Resolution<'_>) {
    let Some((field, value)) = &spec.destination else {
        return;
    };
    let field = format!("spec.template.spec.destination.{field}");
    let reads: Vec<Option<&str>> = expressions(value)
        .into_iter()
        .map(|range| parameter(&value[range.start + 2..range.end - 2], spec.go_template))
        .collect();
    let echo = crate::model::echo(value);
    if reads.is_empty() {
        resolution.notes.push(format!(
            "{field} is {echo:?}: every generated Application deploys there, whichever cluster was decided"
        ));
    } else if reads.len() == 1 && reads[0].is_some_and(|name| CLUSTER_PARAMS.contains(&name)) {
        resolution.applications = Some(spec.name.clone());
        resolution.applications_go = spec.go_template;
        resolution.notes.push(format!(
            "{field} is {echo:?}: each Application targets the cluster it was generated for"
        ));
    } else {
        resolution.notes.push(format!(
            "{field} is {echo:?}: not a cluster parameter of the clusterDecisionResource, so which cluster each Application targets is not known offline"
        ));
    }
}

/// What a generator yields, as far as the inputs tell before anything is planned: the
/// decided clusters of a clusterDecisionResource, a known number of parameter sets (a
/// `list`), or a number only the live generator knows (git, SCM, pull requests…).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Yields {
    Decisions,
    Count(usize),
    Unknown,
}

/// What `generator` yields (argo-cd `matrix.go`: the product of its two children;
/// `merge.go`: the parameter sets of its first child, the others only override them).
fn yields(generator: &Generator) -> Yields {
    match generator {
        Generator::ClusterDecisionResource { .. } => Yields::Decisions,
        Generator::List { elements, .. } => Yields::Count(*elements),
        Generator::Refused { .. } => Yields::Count(0),
        Generator::Other { .. } => Yields::Unknown,
        Generator::Matrix { children, .. } => {
            let each: Vec<Yields> = children.iter().map(yields).collect();
            if each.contains(&Yields::Count(0)) {
                Yields::Count(0)
            } else if each.contains(&Yields::Decisions) {
                Yields::Decisions
            } else if each.contains(&Yields::Unknown) {
                Yields::Unknown
            } else {
                Yields::Count(
                    each.iter()
                        .map(|yields| match yields {
                            Yields::Count(count) => *count,
                            _ => 1,
                        })
                        .product(),
                )
            }
        }
        Generator::Merge { children, .. } => children.first().map_or(Yields::Count(0), yields),
    }
}

/// A generator's kind as its field is named (`clusterDecisionResource`, `list`, `git`…).
fn kind_of(generator: &Generator) -> &str {
    match generator {
        Generator::ClusterDecisionResource { .. } => "clusterDecisionResource",
        Generator::List { .. } => "list",
        Generator::Matrix { .. } => "matrix",
        Generator::Merge { .. } => "merge",
        Generator::Other { kind, .. } => kind,
        Generator::Refused { .. } => "refused",
    }
}

/// Plans `generator` (at `path`): its clusterDecisionResources as routes, counted toward the
/// ApplicationSet's clusters only when `counts` (they decide which Applications exist).
fn plan_generator<'a>(
    consumers: &Consumers<'a>,
    ns: &str,
    generator: &Generator,
    counts: bool,
    resolution: &mut Resolution<'a>,
) {
    match generator {
        Generator::ClusterDecisionResource {
            path,
            config_map,
            name,
            label_selector,
            values,
            selector,
        } => {
            let Some(parameters) =
                parameter_filter(consumers, selector.as_ref(), values, resolution)
            else {
                return;
            };
            decision_resource(
                consumers,
                ns,
                (path, config_map, name, label_selector.as_ref()),
                (counts, parameters),
                resolution,
            );
        }
        Generator::List { .. } => {}
        Generator::Refused { path, message } => {
            resolution.errors.push(format!("{path}: {message}"));
        }
        Generator::Other { path, kind } => {
            if counts {
                resolution.notes.push(format!(
                    "{path}: a {kind} generator is not planned (only clusterDecisionResource)"
                ));
            }
        }
        Generator::Matrix { path, children } => {
            plan_matrix(consumers, ns, path, children, counts, resolution);
        }
        Generator::Merge {
            path,
            merge_keys,
            children,
        } => plan_merge(
            consumers,
            ns,
            (path, merge_keys),
            children,
            counts,
            resolution,
        ),
    }
}

/// A matrix generator: its two children planned, the first clusterDecisionResource deciding
/// the clusters (a combination's `name` is the first's), nothing when a child yields no
/// parameter set.
fn plan_matrix<'a>(
    consumers: &Consumers<'a>,
    ns: &str,
    path: &str,
    children: &[Generator],
    counts: bool,
    resolution: &mut Resolution<'a>,
) {
    let [first, second] = children else {
        resolution.errors.push(format!(
            "{path}: found {} than two generators, Matrix support only two",
            if children.len() < 2 { "less" } else { "more" }
        ));
        return;
    };
    let (a, b) = (yields(first), yields(second));
    let empty = a == Yields::Count(0) || b == Yields::Count(0);
    if counts && empty {
        resolution.notes.push(format!(
            "{path}: a child generator yields no parameter set: the matrix generates no Application"
        ));
    }
    for (at, (child, other)) in [(first, b), (second, a)].into_iter().enumerate() {
        // With two clusterDecisionResources, each combination's `name` would be the
        // first's (goTemplate) or refused when they differ: the first decides.
        let decides =
            counts && !empty && !(at == 1 && a == Yields::Decisions && other == Yields::Decisions);
        if counts && !empty && yields(child) == Yields::Decisions {
            match other {
                Yields::Unknown => resolution.notes.push(format!(
                    "{path}.generators[{at}]: its clusters are destinations provided the other generator ({}) yields at least one parameter set, which is not known offline",
                    kind_of(children.get(1 - at).unwrap_or(child))
                )),
                Yields::Decisions if at == 1 => resolution.notes.push(format!(
                    "{path}.generators[1]: a second clusterDecisionResource in one matrix: each combination takes the first generator's cluster (goTemplate) or fails when the two differ; planned as the first's clusters"
                )),
                _ => {}
            }
        }
        plan_generator(consumers, ns, child, decides, resolution);
    }
}

/// A merge generator (at `path`, with its `mergeKeys`): its base (the first child) decides
/// which Applications exist; the others only override the base's parameter sets.
fn plan_merge<'a>(
    consumers: &Consumers<'a>,
    ns: &str,
    (path, merge_keys): (&str, &[String]),
    children: &[Generator],
    counts: bool,
    resolution: &mut Resolution<'a>,
) {
    if children.len() < 2 {
        resolution.errors.push(format!(
            "{path}: found less than two generators, Merge requires two or more"
        ));
        return;
    }
    if merge_keys.is_empty() {
        resolution.errors.push(format!(
            "{path}: no merge keys were specified, Merge requires at least one"
        ));
        return;
    }
    for (at, child) in children.iter().enumerate() {
        let decides = counts && at == 0;
        if counts && at == 0 && yields(child) == Yields::Unknown {
            resolution.notes.push(format!(
                "{path}.generators[0]: the base ({} generator) decides which Applications exist, which is not known offline: nothing is planned through this merge",
                kind_of(child)
            ));
        }
        if counts && at > 0 && yields(child) == Yields::Decisions {
            resolution.notes.push(format!(
                "{path}.generators[{at}]: merged into the base by mergeKeys {}: it only overrides the base's parameter sets, it adds no Application",
                merge_keys.join(", ")
            ));
        }
        plan_generator(consumers, ns, child, decides, resolution);
    }
}

/// The filter a generator's `selector` makes: `Some(None)` without one (or with one that
/// reads `server` while no cluster Secret tells it, noted), `None` when Argo CD refuses it
/// (an error of the ApplicationSet).
fn parameter_filter(
    consumers: &Consumers<'_>,
    selector: Option<&(String, LabelSelectorSpec)>,
    values: &std::collections::BTreeMap<String, String>,
    resolution: &mut Resolution<'_>,
) -> Option<Option<ParameterFilter>> {
    let Some((path, selector)) = selector else {
        return Some(None);
    };
    match ParameterFilter::new(path, selector, values) {
        Err(error) => {
            resolution.errors.push(error.to_string());
            None
        }
        Ok(_) if consumers.argo_clusters().is_none() && reads_server(selector) => {
            resolution.notes.push(format!(
                "{path} reads server, which only the Argo CD cluster Secrets tell and none is in the inputs: not applied"
            ));
            Some(None)
        }
        Ok(filter) => Some(Some(filter)),
    }
}

/// Whether the generator's ConfigMap (`config_map`, named `config`) lists OCM
/// PlacementDecisions' clusters, the only decision resource planned; without it in the
/// inputs, read as the standard acm-placement one. What it lists otherwise is noted, or an
/// error when Argo CD cannot read it.
fn lists_decisions(
    consumers: &Consumers<'_>,
    ns: &str,
    path: &str,
    config_map: &str,
    config: &str,
    resolution: &mut Resolution<'_>,
) -> bool {
    let shape = match consumers.config_maps.get(&(ns, config_map)) {
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
    let Some((group, _version)) = api_version.split_once('/').filter(|_| !kind.is_empty()) else {
        resolution.errors.push(format!(
            "{path}: {config}: there is a problem with the apiVersion, kind or resourceName provided"
        ));
        return false;
    };
    if group != PLACEMENT_GROUP || !kind.eq_ignore_ascii_case("placementdecisions") {
        resolution.notes.push(format!(
            "{path}: {config} lists {kind} of {api_version}, not OCM PlacementDecisions: not planned"
        ));
        return false;
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
        return false;
    }
    true
}

/// One clusterDecisionResource generator at `path`: its routes, counted toward the
/// ApplicationSet's clusters when `counts`, each cluster's parameter set filtered by
/// `parameters`.
fn decision_resource<'a>(
    consumers: &Consumers<'a>,
    ns: &str,
    (path, config_map, name, label_selector): (
        &String,
        &String,
        &String,
        Option<&LabelSelectorSpec>,
    ),
    (counts, parameters): (bool, Option<ParameterFilter>),
    resolution: &mut Resolution<'a>,
) {
    let config = name_of("ConfigMap", ns, config_map);
    if !lists_decisions(consumers, ns, path, config_map, &config, resolution) {
        return;
    }
    let selects = label_selector.as_ref().is_some_and(|selector| {
        selector.match_labels.is_some() || selector.match_expressions.is_some()
    });
    if name.is_empty() != selects {
        resolution.errors.push(format!(
            "{path}: there is a problem with the definition of the ClusterDecisionResource generator: give either name or labelSelector"
        ));
        return;
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
                counts,
                parameters,
                ..route(before, target)
            }),
            _ => resolution.errors.push(format!(
                "{path}.name: no PlacementDecision {} would be written: no Placement in the inputs writes a decision of that name",
                name_of("PlacementDecision", ns, name)
            )),
        }
        resolution.needs_decisions.push(format!("{path}.name"));
        return;
    }
    let selector = match Selector::from_label_selector(label_selector) {
        Ok(selector) => selector,
        Err(error) => {
            resolution
                .errors
                .push(format!("{path}.labelSelector: {error}"));
            return;
        }
    };
    let only = label_selector
        .and_then(|selector| selector.match_labels.as_ref())
        .and_then(|labels| labels.get(PLACEMENT_LABEL));
    let candidates = consumers
        .namespace_placements(ns)
        .iter()
        .filter(|placement| only.is_none_or(|name| &placement.object.name == name));
    for target in candidates {
        resolution.routes.push(Route {
            decisions: Decisions::Matching(selector.clone()),
            generator,
            counts,
            parameters: parameters.clone(),
            ..route(before.clone(), target)
        });
    }
    resolution
        .needs_decisions
        .push(format!("{path}.labelSelector"));
}

#[cfg(test)]
mod tests {
    use super::render;

    #[test]
    fn a_template_renders_the_cluster_parameters_and_keeps_the_rest() {
        assert_eq!(
            render("app-{{ name }}-{{env}}", false, "east"),
            "app-east-{{env}}"
        );
        assert_eq!(render("{{clusterName}}", false, "east"), "east");
        assert_eq!(render("{{ .name }}-{{.x}}", true, "east"), "east-{{.x}}");
        // Without goTemplate, `.name` is not a parameter; `server` is a URL, not the name.
        assert_eq!(
            render("{{.name}}-{{server}}", false, "east"),
            "{{.name}}-{{server}}"
        );
        assert_eq!(render("open {{name", false, "east"), "open {{name");
    }
}
