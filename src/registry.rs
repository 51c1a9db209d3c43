//! The registry: every placement API fleetplan knows, one line per API in each list the
//! frameworks loop over and each type they hold: the kinds of workload (`WorkloadKind`), the
//! objects each API keeps in the model besides its workloads (`ApiObject`, and the stores
//! they go to), what `load` reads, the plan step `plan` runs for a workload, the piece
//! `explain` renders a trace with, and `migrate`'s targets. An API's code lives in its
//! folder (`src/<api>/`: `read`, `model`, `plan`, `explain`, `migrate`, and its engine);
//! this file is the one place the compiler shows every API together, as upstream OCM's
//! `schedule.go` and Karmada's `registry.go` list their plugins. Adding an API:
//! ARCHITECTURE.md, "Adding a placement API".

use std::borrow::Cow;

use serde::Serialize;

use crate::karmada::model::{KarmadaCluster, PropagationPolicy, ResourceBinding};
use crate::karmada::plan::KarmadaTrace;
use crate::kubefed::model::{FederatedPlacement, RspSpec};
use crate::load::kinds::{self, Api};
use crate::load::LoadError;
use crate::migrate::division::ReplicaDivision;
use crate::migrate::template::TemplateObject;
use crate::migrate::{Migrate, Target};
use crate::model::{
    Cluster, ClusterIndex, Inventory, Model, ObjectRef, PlanItem, Previous, PreviousDecision,
    Workload,
};
use crate::ocm::model::consumer::{ArgoCluster, ConsumerSpec, DuckConfigMap, PlacementBinding};
use crate::ocm::model::placement::{PlacementRuleSpec, PlacementSpec};
use crate::ocm::model::scores::AddOnPlacementScore;
use crate::ocm::plan::consumers::ConsumerTrace;
use crate::ocm::rule::RuleResult;
use crate::ocm::PlacementResult;
use crate::plan::{Diagnostic, Planned, Run, SelectionTrace};
use crate::render;
use crate::render::explain::{self, Explanation};
use crate::render::plan::Rows;
use crate::replicas::ReplicaTrace;
use crate::{federation, karmada, kubefed, kubefleet, ocm};

/// Anything in the inputs that asks for placement: one variant per kind of workload, each
/// planned by its API's plan step ([`plan`]).
#[derive(Clone, Debug, PartialEq)]
pub enum WorkloadKind {
    /// Any other object carrying federation annotations (ConfigMap, ReplicaSet, Deployment…).
    Annotated {
        /// Raw `federation.kubernetes.io/replica-set-preferences` annotation, if any.
        replica_set_preferences: Option<String>,
        /// `spec.replicas`, default 1.
        replicas: i64,
    },
    /// kubefed `ReplicaSchedulingPreference` (`scheduling.kubefed.io/v1alpha1`).
    ReplicaSchedulingPreference(RspSpec),
    /// kubefed `Federated*` (`types.kubefed.io/v1beta1`).
    Federated(FederatedPlacement),
    /// OCM `Placement` (v1alpha1 or v1beta1, normalised to one shape).
    Placement(Box<PlacementSpec>),
    /// `PlacementRule` (`apps.open-cluster-management.io/v1`).
    PlacementRule(Box<PlacementRuleSpec>),
    /// A resource template of a kind some Karmada policy selects (which one claims it is
    /// decided at plan time, against the model's `karmada` objects).
    Karmada(Box<ResourceTemplate>),
    /// An object that lands where the OCM placements it references land (Policy, PolicySet,
    /// Subscription, ManifestWorkReplicaSet, ApplicationSet, ClusterManagementAddOn).
    Consumer(Box<ConsumerSpec>),
    /// A KubeFleet ClusterResourcePlacement or ResourcePlacement.
    KubeFleet(Box<KubeFleetPlacement>),
}

/// What a Karmada workload is planned from: a resource template some Karmada policy selects.
pub(crate) use crate::karmada::model::ResourceTemplate;

/// An object of a kind no API defines, as its reader kept it for an API that may select it
/// as a workload: the loader holds it (a skipped document meanwhile) until every document is
/// read, when [`Selectors`] decide. One variant per API that selects such objects.
pub(crate) enum Deferred {
    /// A resource template some Karmada policy may select, or why it could not be read.
    Karmada(Result<ResourceTemplate, LoadError>),
}

/// What decides, once every document is read, which [`Deferred`] objects become workloads:
/// one field per API that selects them, made from its objects in the model.
pub(crate) struct Selectors {
    karmada: karmada::read::SelectedKinds,
}

impl Selectors {
    pub(crate) fn new(model: &Model) -> Selectors {
        Selectors {
            karmada: karmada::read::SelectedKinds::new(&model.apis.karmada),
        }
    }

    /// The workload `deferred` (read from `object`) becomes, or why it could not be read;
    /// `None` when its API does not select it (it stays a skipped document).
    pub(crate) fn select(
        &self,
        object: &ObjectRef,
        deferred: Deferred,
    ) -> Option<Result<Workload, LoadError>> {
        match deferred {
            Deferred::Karmada(template) => self.karmada.select(object, template),
        }
    }
}

/// What a KubeFleet placement is to the model, and what explain shows of its schedule
/// (opaque outside the crate).
pub use crate::kubefleet::model::objects::PlacementObject as KubeFleetPlacement;
pub use crate::kubefleet::plan::KubeFleetTrace;

/// The objects each API keeps in the model besides its workloads (`Model::apis`), filled
/// by the loader with each [`ApiObject`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Stores {
    /// Karmada's clusters, policies and previous bindings: a fleet of its own.
    pub(crate) karmada: karmada::model::KarmadaObjects,
    /// The objects between an OCM placement consumer and its placement: PlacementBindings,
    /// an ApplicationSet's ConfigMaps, Argo CD cluster Secrets.
    pub(crate) consumers: ocm::model::consumer::ConsumerObjects,
    /// KubeFleet's MemberClusters, bindings, snapshots, update runs and overrides: a fleet
    /// of its own.
    pub(crate) kubefleet: kubefleet::model::objects::Objects,
}

/// What each API adds to the fleet its placements are scheduled over (`Inventory::apis`):
/// objects about the inventory's clusters that only its engine reads.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct InventoryExtras {
    /// OCM's AddOnPlacementScores, which its CEL predicates and AddOn prioritizer read.
    pub(crate) addon_scores: Vec<AddOnPlacementScore>,
}

/// An object of an API's own, as its reader decoded it, that the loader adds to that API's
/// store in the model (`load`'s `Entry::Api`), in document order.
pub(crate) enum ApiObject {
    /// With a warning about what of it is not simulated.
    KarmadaCluster {
        cluster: KarmadaCluster,
        warning: Option<String>,
    },
    KarmadaPolicy(PropagationPolicy),
    KarmadaBinding(ResourceBinding),
    PlacementBinding(PlacementBinding),
    DuckConfigMap(DuckConfigMap),
    ArgoCluster(ArgoCluster),
    KubeFleet(kubefleet::model::objects::Object),
    AddOnScore(AddOnPlacementScore),
}

impl ApiObject {
    /// Adds the object to its API's store in `model`.
    pub(crate) fn add(self, model: &mut Model) {
        match self {
            ApiObject::KarmadaCluster { cluster, warning } => {
                model.warnings.extend(warning);
                model.apis.karmada.clusters.push(cluster);
            }
            ApiObject::KarmadaPolicy(policy) => model.apis.karmada.policies.push(policy),
            ApiObject::KarmadaBinding(binding) => model.apis.karmada.bindings.push(binding),
            ApiObject::PlacementBinding(binding) => model.apis.consumers.bindings.push(binding),
            ApiObject::DuckConfigMap(config_map) => {
                model.apis.consumers.config_maps.push(config_map)
            }
            ApiObject::ArgoCluster(cluster) => model.apis.consumers.argo_clusters.push(cluster),
            ApiObject::KubeFleet(object) => model.apis.kubefleet.add(object),
            ApiObject::AddOnScore(score) => model.inventory.apis.addon_scores.push(score),
        }
    }
}

/// Where a message says `kind`'s clusters were looked for: the fleet of its API's own
/// (Karmada's Clusters, KubeFleet's MemberClusters), else the inventory.
pub(crate) fn fleet_searched(kind: &WorkloadKind) -> &'static str {
    match fleet_of(kind) {
        PlacedOver::Karmada => "among the Karmada Clusters",
        PlacedOver::KubeFleet => "among the MemberClusters",
        PlacedOver::Inventory => "in the inventory",
    }
}

/// The names of the clusters a workload of `kind` is placed over ([`fleet_searched`]).
pub(crate) fn fleet_names<'m>(model: &'m Model, kind: &WorkloadKind) -> Vec<&'m str> {
    match fleet_of(kind) {
        PlacedOver::Karmada => karmada_names(model).collect(),
        PlacedOver::KubeFleet => kubefleet_names(model).collect(),
        PlacedOver::Inventory => inventory_names(model).collect(),
    }
}

/// The fleets workloads are placed over.
enum PlacedOver {
    Inventory,
    Karmada,
    KubeFleet,
}

/// The fleet a workload of `kind` is placed over: one arm per kind, so a new API's kind
/// cannot fall to the inventory unnoticed.
fn fleet_of(kind: &WorkloadKind) -> PlacedOver {
    match kind {
        WorkloadKind::Karmada(_) => PlacedOver::Karmada,
        WorkloadKind::KubeFleet(_) => PlacedOver::KubeFleet,
        WorkloadKind::Annotated { .. }
        | WorkloadKind::ReplicaSchedulingPreference(_)
        | WorkloadKind::Federated(_)
        | WorkloadKind::Placement(_)
        | WorkloadKind::PlacementRule(_)
        | WorkloadKind::Consumer(_) => PlacedOver::Inventory,
    }
}

/// Each fleet's cluster names: the inventory's, and each API's own.
fn inventory_names(model: &Model) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
    model
        .inventory
        .clusters
        .iter()
        .map(|cluster| cluster.name.as_str())
}

fn karmada_names(model: &Model) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
    let clusters = &model.apis.karmada.clusters;
    clusters.iter().map(|cluster| cluster.name.as_str())
}

fn kubefleet_names(model: &Model) -> impl DoubleEndedIterator<Item = &str> + ExactSizeIterator {
    let clusters = &model.apis.kubefleet.member_clusters;
    clusters.iter().map(|cluster| cluster.name.as_str())
}

/// What each engine did for one item, kept beside the plan so `explain` renders the very
/// run that produced the plan: one variant per engine (`explain` below renders each).
#[derive(Clone, Debug)]
pub enum ItemTrace<'a> {
    /// Federation annotation or kubefed placement: which clusters were chosen, and by what.
    Selection(SelectionTrace),
    /// A replica workload: the selection, then the planner (cluster names borrow the model).
    Replicas {
        selection: SelectionTrace,
        planner: ReplicaTrace<'a>,
    },
    /// An OCM Placement: the scheduler's result, with per-cluster verdicts when traced.
    Placement(Box<PlacementResult>),
    /// A PlacementRule: its decisions and per-cluster verdicts.
    PlacementRule(Box<RuleResult>),
    /// A Karmada resource template: the claim, then the scheduler's run.
    Karmada(Box<KarmadaTrace<'a>>),
    /// A placement consumer: the routes to its placements, and (traced) their traces.
    Consumer(Box<ConsumerTrace<'a>>),
    /// A KubeFleet placement: what explain shows of its schedule.
    KubeFleet(Box<KubeFleetTrace>),
    /// The item failed before any engine ran (its `errors` say why).
    Failed,
    /// The run keeps no trace ([`Trace::Plan`](crate::plan::Trace::Plan)): nothing it
    /// writes reads one.
    NotKept,
}

/// Which engine chose an item's clusters: one per [`ItemTrace`] variant, named in `explain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Engine {
    /// The federation cluster-selector annotation or a kubefed placement.
    Selection,
    /// The federated ReplicaSet planner, after the selection.
    Replicas,
    Placement,
    PlacementRule,
    Karmada,
    /// The placements a consumer references.
    Consumer,
    /// KubeFleet's scheduler (ClusterResourcePlacement, ResourcePlacement).
    #[serde(rename = "kubefleet")]
    KubeFleet,
    /// The item failed before any engine ran.
    Failed,
}

impl Engine {
    /// The engine as `explain`'s heading names it.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Engine::Selection => "cluster selection",
            Engine::Replicas => "cluster selection, then the replica planner",
            Engine::Placement => "OCM placement scheduler",
            Engine::PlacementRule => "PlacementRule",
            Engine::Karmada => "Karmada resource detector and scheduler",
            Engine::Consumer => "through the placements it references",
            Engine::KubeFleet => "KubeFleet scheduler",
            Engine::Failed => "failed",
        }
    }
}

impl ItemTrace<'_> {
    pub fn engine(&self) -> Engine {
        match self {
            ItemTrace::Selection(_) => Engine::Selection,
            ItemTrace::Replicas { .. } => Engine::Replicas,
            ItemTrace::Placement(_) => Engine::Placement,
            ItemTrace::PlacementRule(_) => Engine::PlacementRule,
            ItemTrace::Karmada(_) => Engine::Karmada,
            ItemTrace::Consumer(_) => Engine::Consumer,
            ItemTrace::KubeFleet(_) => Engine::KubeFleet,
            // Only `explain` asks, and it keeps every trace.
            ItemTrace::Failed | ItemTrace::NotKept => Engine::Failed,
        }
    }
}

/// The annotation through which federation v1 asks placement for any object: every
/// workload's `cluster_selector`, read by the loader whatever its kind.
pub(crate) use crate::federation::read::CLUSTER_SELECTOR_ANNOTATION;

/// The reader of federation v1's `Cluster`, whose shape (a `Ready` condition) kubefed's
/// cluster kind shares.
pub(crate) use crate::federation::read::federation_cluster;

/// The condition by which an inventory cluster is available (OCM's ManagedCluster condition,
/// which the inventory's compact `online` implies): not True means offline.
pub(crate) use crate::ocm::filters::taint::AVAILABLE_CONDITION as CLUSTER_AVAILABLE_CONDITION;

/// OCM's Placement kind, by which an in-place migration tells the made Placements whose
/// namespace it binds the cluster set in.
pub(crate) use crate::ocm::model::decision::PLACEMENT_KIND as OCM_PLACEMENT_KIND;

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

/// The kinds `--previous` reads besides a Plan document: the decisions a live hub exports
/// (OCM's PlacementDecisions and PlacementRules).
pub(crate) const PREVIOUS_DECISION_KINDS: &[&str] = ocm::read::previous::KINDS;

/// `migrate --set NAME`: the name of the OCM ManagedClusterSet a migration binds, checked as
/// its kind's names are.
pub(crate) use crate::ocm::read::placement::parse_cluster_set;

/// What refuses `--previous`'s decisions, one error per decision at fault.
pub(crate) fn refused_previous_decisions(decisions: &[PreviousDecision]) -> Vec<LoadError> {
    ocm::read::previous::refused(decisions)
}

/// The object a previous decision belongs to (`diff` compares `--previous`'s decisions per
/// object).
pub(crate) fn previous_decision_owner(decision: &PreviousDecision) -> ObjectRef {
    ocm::model::decision::owner(decision)
}

/// The previous decisions a plan run takes (`Hubs::new`): the inputs', except those
/// `previous` (what `--previous` held) replaces.
pub(crate) fn run_decisions<'d>(
    model: &'d Model,
    previous: Option<&'d Previous>,
) -> Cow<'d, [PreviousDecision]> {
    ocm::previous::of_run(&model.decisions, previous)
}

/// What each API computes once per plan run over its own objects, before any item is
/// planned (`Run::hubs`). `'r` borrows what the run builds first: the inventory's index,
/// which the federation and kubefed items select through too, and the run's previous
/// decisions ([`run_decisions`]).
pub(crate) struct Hubs<'r, 'a> {
    /// OCM's scheduler: the inventory's clustersets, the previous decisions and each
    /// plugin's data, built once for every Placement and PlacementRule.
    pub(crate) ocm: ocm::Scheduler<'r>,
    /// Karmada's clusters and what scheduling computes once over them.
    pub(crate) karmada: karmada::fleet::Fleet<'a>,
    /// KubeFleet's MemberClusters at `now` and its objects found by placement.
    pub(crate) kubefleet: kubefleet::plan::Hub<'a>,
}

impl<'r, 'a: 'r> Hubs<'r, 'a> {
    pub(crate) fn new(
        model: &'a Model,
        now: i64,
        clusters: &'r ClusterIndex<'a>,
        decisions: &'r [PreviousDecision],
    ) -> Hubs<'r, 'a> {
        Hubs {
            ocm: ocm::Scheduler::with_ahead(
                clusters,
                &model.inventory,
                decisions,
                ocm::Ahead::of(model.workloads.iter().filter_map(
                    |workload| match &workload.kind {
                        WorkloadKind::Placement(spec) => Some(spec.as_ref()),
                        _ => None,
                    },
                )),
            ),
            karmada: karmada::fleet::Fleet::new(&model.apis.karmada.clusters),
            kubefleet: kubefleet::plan::Hub::new(&model.apis.kubefleet, now),
        }
    }
}

/// The workloads planned after the items they land through (OCM's placement consumers,
/// after the placements they reference): resolved from the model alone (a run does it on a
/// core of its own while it indexes its fleet), which says whose traces landing reads, then
/// planned once those items are.
pub(crate) struct Dependents<'a> {
    consumers: Option<ocm::plan::consumers::Resolved<'a>>,
}

impl<'a> Dependents<'a> {
    /// The dependents among `workloads`, resolved.
    pub(crate) fn new(model: &'a Model, workloads: &[&'a Workload]) -> Dependents<'a> {
        Dependents {
            consumers: ocm::plan::consumers::Resolved::new(model, workloads),
        }
    }

    /// Whether `workload` is planned after others (never on the first pass).
    pub(crate) fn is_dependent(workload: &Workload) -> bool {
        matches!(workload.kind, WorkloadKind::Consumer(_))
    }

    /// Whether planning a dependent reads `workload`'s trace.
    pub(crate) fn reads_trace(&self, workload: &Workload) -> bool {
        self.consumers
            .as_ref()
            .is_some_and(|consumers| consumers.reads_trace(workload))
    }

    /// Plans the dependents among `workloads` into their slots of `planned` (the others
    /// planned), planning what they land through that `workloads` does not hold; returns
    /// the errors and warnings of the objects between (a PlacementBinding's: every one's
    /// errors, and its warnings when `whole`, else the selected items').
    pub(crate) fn plan(
        self,
        run: &Run<'_, 'a>,
        workloads: &[&'a Workload],
        planned: &mut [Option<Planned<'a>>],
        whole: bool,
    ) -> (Vec<Diagnostic>, Vec<Diagnostic>) {
        match self.consumers {
            Some(consumers) => consumers.plan(run, workloads, planned, whole),
            None => (Vec::new(), Vec::new()),
        }
    }
}

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

/// What is wrong with the objects around the placements, per API, whatever items a run
/// selects: admission refusals that need every object, and references that resolve to
/// nothing; errors at the object at fault (OCM's PlacementBindings are judged with its
/// consumers).
pub(crate) fn problems(model: &Model) -> Vec<crate::plan::diagnostic::Diagnostic> {
    kubefleet::plan::problems(model)
}

/// What would fix a finding about `workload` by its API's objects, said with it (`check`'s
/// hints; `reason`: its condition's reason): an OCM Placement's cluster sets.
pub(crate) fn hints(
    inventory: &Inventory,
    workload: &Workload,
    reason: Option<&str>,
) -> Vec<String> {
    match (&workload.kind, workload.object.namespace.as_deref()) {
        (WorkloadKind::Placement(spec), Some(namespace)) => {
            ocm::hints::hints(inventory, namespace, &spec.cluster_sets, reason)
        }
        _ => Vec::new(),
    }
}

/// What explain shows of one cluster's score by its API's engine (`-o json`'s `score`, in the
/// engine's own shape): an OCM Placement's rank, total and prioritizer scores.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub(crate) enum ClusterScore {
    Ocm(ocm::trace::Score),
}

/// What explain shows of an item's engine run in the engine's own shape (`-o json`'s
/// `debug`): upstream OCM's debug result for a Placement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub(crate) enum EngineDebug {
    Ocm(ocm::explain::placement::UpstreamDebug),
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
        ItemTrace::Failed | ItemTrace::NotKept => explain::failed(explanation, item, clusters),
    }
}

/// The plan table's columns and rows for one item (`plan`'s text output), from its API's
/// explain piece.
pub(crate) fn rows(item: &PlanItem, trace: &ItemTrace) -> Rows {
    match trace {
        ItemTrace::Replicas { planner, .. } => render::plan::replica_rows(item, planner),
        ItemTrace::Placement(result) => ocm::explain::placement::rows(item, result),
        ItemTrace::Selection(_)
        | ItemTrace::PlacementRule(_)
        | ItemTrace::Consumer(_)
        | ItemTrace::NotKept => render::plan::cluster_rows(item),
        ItemTrace::Karmada(_) => karmada::explain::rows(item),
        ItemTrace::KubeFleet(_) => kubefleet::explain::rows(item),
        ItemTrace::Failed => (Vec::new(), Vec::new()),
    }
}

/// What the plan table says of an item under its rows from its API's own fields, a line
/// each: a placement consumer's routes.
pub(crate) fn lines_below_rows(item: &PlanItem, out: &mut String) {
    ocm::explain::consumer::via_lines(&item.api.ocm, out);
}

/// How an item lands on `cluster` by its API's own means (`plan --cluster`): a consumer's
/// routes, an OCM Placement's decision group, the Karmada policy that claims a resource.
pub(crate) fn landing(item: &PlanItem, trace: &ItemTrace, cluster: &str) -> Vec<String> {
    let mut how = match trace {
        ItemTrace::Consumer(consumer) => ocm::explain::consumer::landing(consumer, cluster),
        ItemTrace::Placement(result) => ocm::explain::placement::landing(result, cluster)
            .into_iter()
            .collect(),
        _ => Vec::new(),
    };
    how.extend(karmada::explain::claimed_by(&item.selection.karmada));
    how
}

/// The outputs that write one API's objects as its controllers would (`plan -o decisions`,
/// `-o bindings`): the stream is the output's header, then each item's objects from its
/// API's explain piece, in plan item order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectOutput {
    /// OCM's PlacementDecisions, as its scheduler writes them for each Placement.
    Decisions,
    /// Karmada's ResourceBindings, as karmada-scheduler leaves them for each resource.
    Bindings,
}

/// What the object outputs keep across a run's items: Karmada's cluster entry lines.
#[derive(Debug, Default)]
pub(crate) struct ObjectCache<'f> {
    karmada: karmada::explain::bindings::NameLines<'f>,
}

impl ObjectOutput {
    /// What comes before the first item's objects.
    pub(crate) fn header(self) -> &'static str {
        match self {
            ObjectOutput::Decisions => ocm::explain::decisions::HEADER,
            ObjectOutput::Bindings => karmada::explain::bindings::HEADER,
        }
    }

    /// One item's objects, each a YAML document after `---`; nothing for an item of another
    /// API's.
    pub(crate) fn objects<'f>(
        self,
        item: &PlanItem,
        trace: &ItemTrace<'f>,
        cache: &ObjectCache<'f>,
    ) -> Result<String, serde_yaml::Error> {
        match (self, trace) {
            (ObjectOutput::Decisions, ItemTrace::Placement(result)) => {
                ocm::explain::decisions::objects(result)
            }
            (ObjectOutput::Bindings, ItemTrace::Karmada(trace)) => {
                karmada::explain::bindings::object(item, trace, &cache.karmada)
            }
            _ => Ok(String::new()),
        }
    }
}

/// Each API's fields about how a plan item's clusters were chosen (`PlanItem::selection`),
/// one line per API with such fields, each defined in its folder. They are written inline
/// after the item's clusters and their counts (before its `conditions`), each API's in its
/// order, and read back from `--previous` key by key ([`ItemKey`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SelectionFields {
    /// An OCM Placement's decision groups.
    #[serde(flatten)]
    pub ocm: DecisionGroups,
    /// A Karmada resource template's claiming policy and affinity term.
    #[serde(flatten)]
    pub karmada: KarmadaFields,
}

impl SelectionFields {
    /// How many cluster names the fields list besides the item's clusters (what the item's
    /// text makes room for): the decision groups'.
    pub(crate) fn cluster_names(&self) -> usize {
        self.ocm.cluster_names()
    }
}

/// What a plan item holds of a Karmada resource template.
pub use crate::karmada::fields::KarmadaFields;

/// Each API's own fields of a plan item (`PlanItem::api`), one line per API with fields of
/// its own, each defined in its folder. They are written inline after the item's
/// `conditions`, each API's in its order, and read back from `--previous` key by key
/// ([`ItemKey`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ItemFields {
    /// A KubeFleet placement's scores, Unscheduled bindings, stages and overrides.
    #[serde(flatten)]
    pub kubefleet: KubeFleetFields,
    /// When an OCM Placement's toleration expires, a placement consumer's routes and a
    /// ManifestWorkReplicaSet's rollout waves.
    #[serde(flatten)]
    pub ocm: OcmFields,
}

impl ItemFields {
    /// How many cluster names the fields list besides the item's clusters (what the item's
    /// text makes room for): the rollout waves'.
    pub(crate) fn cluster_names(&self) -> usize {
        self.ocm.cluster_names()
    }
}

/// What a plan item holds of a KubeFleet placement, and the types of its fields (design §9).
pub use crate::kubefleet::fields::{ClusterOverrides, KubeFleetFields};
pub use crate::kubefleet::model::binding::BindingScore;
pub use crate::kubefleet::stages::Stage;

/// What a plan item holds of an OCM Placement or placement consumer, and their types.
pub use crate::ocm::fields::{DecisionGroup, DecisionGroups, OcmFields, Rollout, Wave};

/// A key of an API's own field in a plan item: whose, and which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ItemKey {
    /// An OCM Placement's `groups`.
    OcmGroups,
    Karmada(karmada::fields::Key),
    KubeFleet(kubefleet::fields::Key),
    Ocm(ocm::fields::Key),
}

/// The keys of every API's fields about how the clusters were chosen, in the order they are
/// written (`SelectionFields`' fields in order, each API's keys in its order), and of every
/// API's own fields (`ItemFields`'); a plan item's unknown-field message lists them.
pub(crate) const SELECTION_KEYS: &[&str] = &crate::model::join_keys::<
    { DecisionGroups::NAMES.len() + karmada::fields::Key::NAMES.len() },
>(&[
    DecisionGroups::NAMES,
    karmada::fields::Key::NAMES,
]);
pub(crate) const ITEM_KEYS: &[&str] = &crate::model::join_keys::<
    { kubefleet::fields::Key::NAMES.len() + ocm::fields::Key::NAMES.len() },
>(&[kubefleet::fields::Key::NAMES, ocm::fields::Key::NAMES]);

/// The condition types whose bad state is True (any other condition's is False): OCM's
/// `PlacementMisconfigured`. `check` calls an item with a condition in its bad state
/// unsatisfied.
pub(crate) const TRUE_WHEN_BAD_CONDITIONS: &[&str] = &[ocm::conditions::MISCONFIGURED];

impl ItemKey {
    /// The API field `name` is the key of, if any.
    pub(crate) fn of(name: &str) -> Option<ItemKey> {
        (DecisionGroups::NAMES.contains(&name))
            .then_some(ItemKey::OcmGroups)
            .or_else(|| karmada::fields::Key::of(name).map(ItemKey::Karmada))
            .or_else(|| kubefleet::fields::Key::of(name).map(ItemKey::KubeFleet))
            .or_else(|| ocm::fields::Key::of(name).map(ItemKey::Ocm))
    }

    /// Reads the value of this key, the map's key just read, into its API's fields of `item`.
    pub(crate) fn read<'de, A: serde::de::MapAccess<'de>>(
        self,
        item: &mut PlanItem,
        map: &mut A,
    ) -> Result<(), A::Error> {
        match self {
            ItemKey::OcmGroups => item.selection.ocm.read(map),
            ItemKey::Karmada(key) => item.selection.karmada.read(key, map),
            ItemKey::KubeFleet(key) => item.api.kubefleet.read(key, map),
            ItemKey::Ocm(key) => item.api.ocm.read(key, map),
        }
    }
}

/// How each API's own fields of an item changed from `previous` to `current` (both of the
/// item's slots), in the two places `diff`'s `ItemChange` writes them, as it always has: the
/// decision groups' before the item's conditions, every other API's part after them.
pub(crate) fn field_changes(
    previous: &PlanItem,
    current: &PlanItem,
) -> (SelectionChanges, ApiChanges) {
    // Every field named, so that an API's line added to a slot does not compile until its
    // part of the diff compares it.
    let SelectionFields {
        ocm: groups,
        karmada: karmada_fields,
    } = &current.selection;
    let ItemFields {
        kubefleet: kubefleet_fields,
        ocm: ocm_fields,
    } = &current.api;
    let (before, after) = (&previous.selection, &previous.api);
    (
        SelectionChanges {
            ocm: ocm::diff::compare_groups(&before.ocm, groups),
        },
        ApiChanges {
            karmada: karmada::diff::compare(&before.karmada, karmada_fields),
            ocm: ocm::diff::compare(&after.ocm, ocm_fields),
            kubefleet: kubefleet::diff::compare(&after.kubefleet, kubefleet_fields),
        },
    )
}

/// Each API's part of how an item changed that `diff`'s `ItemChange` writes before the
/// item's conditions (flattened into it).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct SelectionChanges {
    /// An OCM Placement's decision groups.
    #[serde(flatten)]
    pub(crate) ocm: ocm::diff::GroupChanges,
}

impl SelectionChanges {
    pub(crate) fn is_empty(&self) -> bool {
        self.ocm.is_empty()
    }

    /// How many decision groups changed (the markdown table's Groups column).
    pub(crate) fn groups(&self) -> usize {
        self.ocm.len()
    }

    /// One line per change, the wording every diff format shares.
    pub(crate) fn lines(&self) -> Vec<(String, Option<Mark>)> {
        self.ocm.lines()
    }
}

/// Each API's part of how an item changed that `diff`'s `ItemChange` writes after the item's
/// conditions (flattened into it), each API's in this order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct ApiChanges {
    /// A Karmada resource template's claiming policy and affinity term.
    #[serde(flatten)]
    pub(crate) karmada: karmada::diff::KarmadaChange,
    /// An OCM Placement's `changesAt`, a placement consumer's routes and a
    /// ManifestWorkReplicaSet's rollouts.
    #[serde(flatten)]
    pub(crate) ocm: ocm::diff::OcmChange,
    /// A KubeFleet placement's scores, Unscheduled bindings, stages and overrides.
    #[serde(flatten)]
    pub(crate) kubefleet: kubefleet::diff::KubeFleetChange,
}

/// How a line of an API's change reads in a diff: something added, something gone (`None`:
/// a value that moved); every diff format paints it alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    Added,
    Removed,
}

impl ApiChanges {
    pub(crate) fn is_empty(&self) -> bool {
        self.karmada.is_empty() && self.ocm.is_empty() && self.kubefleet.is_empty()
    }

    /// One line per change, the wording every diff format shares.
    pub(crate) fn lines(&self) -> Vec<(String, Option<Mark>)> {
        let mut lines = self.karmada.lines();
        lines.extend(self.ocm.lines());
        lines.extend(self.kubefleet.lines());
        lines
    }
}

/// The short names the placement APIs' CRDs give their kinds (`shortNames`), which item
/// arguments take as kubectl does (lower case).
pub(crate) const SHORT_NAMES: &[(&str, &str)] = &[
    ("crp", "clusterresourceplacement"),
    ("rp", "resourceplacement"),
    ("rsp", "replicaschedulingpreference"),
];

/// What fleetplan plans, as the messages about inputs without any of it name it.
pub(crate) const PLANNED_KINDS: &str = "Placement, PlacementRule, ReplicaSchedulingPreference, \
     Federated object, object with a placement annotation, object of a kind a Karmada policy \
     selects, ClusterResourcePlacement or ResourcePlacement";

/// The objects that define clusters, as the message about inputs without any names them.
pub(crate) const CLUSTER_KINDS: &str = "ClusterInventory, ManagedCluster, KubeFedCluster, \
     federation Cluster, Karmada Cluster or KubeFleet MemberCluster";

/// The taint effects `--taint` takes, by the fleet each is for.
pub(crate) const TAINT_EFFECTS: &str = "NoSelect, PreferNoSelect or NoSelectIfNew (an OCM \
     ManagedCluster), or NoSchedule, PreferNoSchedule or NoExecute (a Karmada Cluster; \
     NoSchedule for a KubeFleet MemberCluster)";

/// The taint effect a KubeFleet MemberCluster's taint may have (its CRD's enum).
const KUBEFLEET_EFFECT: &str = "NoSchedule";

/// The clusters of one name in every fleet the what-if flags edit: the inventory's and each
/// API's own, one of each at most (names are unique in each).
pub(crate) struct Found<'m> {
    pub(crate) inventory: Option<&'m mut Cluster>,
    karmada: Option<&'m mut KarmadaCluster>,
    kubefleet: Option<&'m mut kubefleet::model::member_cluster::MemberCluster>,
}

impl Found<'_> {
    /// `--offline`: each API's cluster of this name stops reporting at `now`.
    pub(crate) fn go_offline(&mut self, now: i64) {
        if let Some(cluster) = self.kubefleet.as_deref_mut() {
            cluster.go_offline(now);
        }
        if let Some(cluster) = self.karmada.as_deref_mut() {
            cluster.go_offline();
        }
    }

    /// `--capacity`: the replicas each API's cluster of this name can take.
    pub(crate) fn set_capacity(&mut self, count: i64) {
        if let Some(cluster) = self.karmada.as_deref_mut() {
            cluster.set_capacity(count);
        }
    }

    /// `--label`: the label on each API's cluster of this name.
    pub(crate) fn set_label(&mut self, key: &str, value: &str) {
        if let Some(cluster) = self.kubefleet.as_deref_mut() {
            cluster.set_label(key, value);
        }
        if let Some(cluster) = self.karmada.as_deref_mut() {
            cluster.set_label(key, value);
        }
    }

    /// `--taint` of an API's effect (not OCM's): on the Karmada Cluster of this name, else,
    /// for `NoSchedule`, on the KubeFleet MemberCluster; `false` when neither is there.
    /// `written` is the taint as the flag wrote it.
    pub(crate) fn add_api_taint(self, key: &str, value: &str, effect: &str, written: &str) -> bool {
        match (self.karmada, self.kubefleet) {
            (Some(cluster), _) => cluster.add_taint(key, value, effect, written),
            (None, Some(cluster)) if effect == KUBEFLEET_EFFECT => {
                cluster.add_taint(key, value, effect)
            }
            _ => return false,
        }
        true
    }
}

/// Which clusters take a taint of an OCM effect (the inventory's), as a refusal names them
/// when the cluster is not in the inventory.
pub(crate) const OCM_TAINT_FLEET: &str = "an OCM effect (for ManagedClusters)";

/// Which APIs' own clusters take a taint of `effect` (one `is_api_taint_effect` accepts), as
/// a refusal names them when the cluster is none of them.
pub(crate) fn api_taint_fleets(effect: &str) -> &'static str {
    if effect == KUBEFLEET_EFFECT {
        "an effect of Karmada Clusters and KubeFleet MemberClusters"
    } else {
        "a Karmada effect (for Karmada Clusters)"
    }
}

/// Whether `effect` is a taint effect of an API's own clusters (Karmada's, KubeFleet's).
pub(crate) fn is_api_taint_effect(effect: &str) -> bool {
    effect == KUBEFLEET_EFFECT || karmada::cluster_controller::when_tainted(effect).is_some()
}

/// When an API's controllers act on a what-if taint of `effect` on the cluster `name`:
/// KubeFleet's for `NoSchedule` on a MemberCluster no Karmada Cluster shares the name of,
/// else Karmada's for its effects, else OCM's (and what the others read).
pub(crate) fn when_api_acts_on_taint(model: &Model, name: &str, effect: &str) -> &'static str {
    if effect == KUBEFLEET_EFFECT
        && !karmada_names(model).any(|known| known == name)
        && kubefleet_names(model).any(|known| known == name)
    {
        return kubefleet::model::member_cluster::WHEN_TAINTED;
    }
    karmada::cluster_controller::when_tainted(effect).unwrap_or(WHEN_OCM_ACTS_ON_TAINT)
}

/// When OCM's placement controller acts on a what-if taint, and what the other APIs read.
const WHEN_OCM_ACTS_ON_TAINT: &str = "the OCM placement controller acts at once: a ManagedCluster change requeues every Placement (PlacementRules, the federation annotations and kubefed read no taints; kubefed acts on an --offline cluster at its next sync)";

/// Whether any fleet has a cluster named `name`.
pub(crate) fn has_cluster(model: &Model, name: &str) -> bool {
    inventory_names(model)
        .chain(karmada_names(model))
        .chain(kubefleet_names(model))
        .any(|known| known == name)
}

/// The clusters named `name`, in every fleet.
pub(crate) fn find_clusters<'m>(model: &'m mut Model, name: &str) -> Found<'m> {
    let inventory = inventory_names(model).position(|known| known == name);
    let karmada = karmada_names(model).position(|known| known == name);
    // Every MemberCluster of that name: a later one replaces an earlier one when planned.
    let kubefleet = kubefleet_names(model).rposition(|known| known == name);
    Found {
        inventory: inventory.map(|index| &mut model.inventory.clusters[index]),
        karmada: karmada.map(|index| &mut model.apis.karmada.clusters[index]),
        kubefleet: kubefleet.map(|index| &mut model.apis.kubefleet.member_clusters[index]),
    }
}

/// Every cluster name of every fleet (the inventory's, then each API's own), and where a
/// message says they were looked for.
pub(crate) fn every_cluster(model: &Model) -> (Vec<&str>, &'static str) {
    let known = inventory_names(model)
        .chain(karmada_names(model))
        .chain(kubefleet_names(model))
        .collect();
    let searched = match (
        model.inventory.clusters.is_empty(),
        model.apis.karmada.clusters.is_empty(),
        model.apis.kubefleet.member_clusters.is_empty(),
    ) {
        (true, false, true) => "among the Karmada Clusters",
        (false, false, true) => "in the inventory or among the Karmada Clusters",
        (true, true, false) => "among the MemberClusters",
        (_, _, false) => "in the inventory, among the Karmada Clusters or the MemberClusters",
        _ => "in the inventory",
    };
    (known, searched)
}

/// Whether no fleet has any cluster.
pub(crate) fn no_clusters(model: &Model) -> bool {
    model.inventory.clusters.is_empty()
        && model.apis.karmada.clusters.is_empty()
        && model.apis.kubefleet.member_clusters.is_empty()
}

/// The migration of the loaded inputs to `target`'s API.
pub(crate) fn migrate(target: Target) -> Migrate {
    match target {
        Target::Ocm => ocm::migrate::migrate,
        Target::Karmada => karmada::migrate::migrate,
    }
}

/// The inputs a migration to `target` converts, as the message about inputs without any names
/// them.
pub(crate) fn migrated_inputs(target: Target) -> &'static str {
    match target {
        Target::Ocm => ocm::migrate::INPUTS,
        Target::Karmada => karmada::migrate::INPUTS,
    }
}

/// The targets that convert a workload of `kind` (none for a kind no migration converts;
/// the consumers OCM's rewrites beside a PlacementRule are not converted), one arm per kind:
/// a target that meets a workload only another converts says which (a PlacementRule under
/// `--to karmada`).
pub(crate) fn migrated_by(kind: &WorkloadKind) -> &'static [Target] {
    match kind {
        WorkloadKind::Annotated { .. } => &[Target::Ocm, Target::Karmada],
        WorkloadKind::ReplicaSchedulingPreference(_) | WorkloadKind::Federated(_) => {
            &[Target::Karmada]
        }
        WorkloadKind::PlacementRule(_) => &[Target::Ocm],
        WorkloadKind::Placement(_)
        | WorkloadKind::Karmada(_)
        | WorkloadKind::Consumer(_)
        | WorkloadKind::KubeFleet(_) => &[],
    }
}

/// What `migrate --verify` compares for `target`, as the message about a verification that
/// compared nothing names it.
pub(crate) fn verified_kinds(target: Target) -> &'static str {
    match target {
        Target::Ocm => "PlacementRule and no object with a federation placement annotation",
        Target::Karmada => {
            "kubefed Federated object and no object with a federation placement annotation"
        }
    }
}

/// The name OCM gives its cluster set of every cluster: the set a migration to OCM binds
/// unless `--set` names another.
pub(crate) use crate::ocm::migrate::scope::GLOBAL;

/// A federation replica-set-preferences annotation as the kubefed ReplicaSchedulingPreference
/// a migration to OCM writes beside the object's Placement; `DIVISION_WORDS`, what the report
/// says of such an object.
pub(crate) use crate::kubefed::migrate::{
    convert as replica_set_preferences, WORDS as DIVISION_WORDS,
};

/// A workload that divides another's replicas among clusters, as a migration reads it
/// (kubefed's ReplicaSchedulingPreferences); `None` for any other kind, each arm listed so a
/// new kind is placed here on purpose.
pub(crate) fn replica_division(workload: &Workload) -> Option<ReplicaDivision<'_>> {
    match &workload.kind {
        WorkloadKind::ReplicaSchedulingPreference(spec) => Some(kubefed::migrate::division(spec)),
        WorkloadKind::Annotated { .. }
        | WorkloadKind::Federated(_)
        | WorkloadKind::Placement(_)
        | WorkloadKind::PlacementRule(_)
        | WorkloadKind::Karmada(_)
        | WorkloadKind::Consumer(_)
        | WorkloadKind::KubeFleet(_) => None,
    }
}

/// A workload that holds the template of an object of another kind and places it on
/// clusters, as a migration reads it (kubefed's federated objects); `None` for any other
/// kind, each arm listed so a new kind is placed here on purpose.
pub(crate) fn template_object(workload: &Workload) -> Option<TemplateObject<'_>> {
    match &workload.kind {
        WorkloadKind::Federated(placement) => Some(kubefed::migrate::template::template_object(
            workload, placement,
        )),
        WorkloadKind::Annotated { .. }
        | WorkloadKind::ReplicaSchedulingPreference(_)
        | WorkloadKind::Placement(_)
        | WorkloadKind::PlacementRule(_)
        | WorkloadKind::Karmada(_)
        | WorkloadKind::Consumer(_)
        | WorkloadKind::KubeFleet(_) => None,
    }
}

/// The plain types the template objects' kinds stand for (kubefed's FederatedTypeConfigs:
/// its defaults, then the inputs'), and an error for each one of the inputs that cannot be
/// read.
pub(crate) use crate::kubefed::migrate::type_configs::types as template_types;

/// The suites of upstream test vectors `fleetplan vectors` runs, one line each (ordered by
/// name): each runs a file in its format through this build's engine ([`crate::vectors`]).
pub(crate) const VECTOR_SUITES: &[crate::vectors::Suite] = &[
    crate::vectors::Suite {
        name: "kubefleet",
        upstream: "kubefleet-dev/kubefleet e160c1cd: the scheduler framework, its plugins, overrides and staged update runs",
        run: kubefleet::upstream_vectors::run_file,
    },
    crate::vectors::Suite {
        name: "ocm",
        upstream: "open-cluster-management-io/ocm: the placement scheduler, its plugins, decision groups and conditions",
        run: ocm::upstream_vectors::run_file,
    },
    crate::vectors::Suite {
        name: "planner",
        upstream: "kubefed and federation v1: the replica planner (planner_test.go) and documented layouts",
        run: crate::replicas::upstream_vectors::run_file,
    },
    crate::vectors::Suite {
        name: "selector",
        upstream: "Kubernetes and federation v1: label selectors, requirements, the cluster-selector annotation",
        run: crate::selector::upstream_vectors::run_file,
    },
];
