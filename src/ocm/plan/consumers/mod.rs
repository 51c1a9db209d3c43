//! Objects that consume an OCM placement become plan items of their own: where they land is
//! where the placements they reference land, through the chain of objects between them
//! (`resolve.rs`: which placements, following each consumer's controller), once those
//! placements are planned (`land.rs`). A reference that resolves to nothing is an error of
//! the object that holds it: the consumer's own item, or the PlacementBinding
//! (`bindings.rs`).

mod bindings;
mod land;
mod parameters;
mod resolve;
mod rollout;
mod run;

use std::sync::OnceLock;

use foldhash::{HashMap, HashMapExt};

use crate::model::{ClusterNames, Model, ObjectRef, PlanItem, Workload, WorkloadKind};
use crate::ocm::model::consumer::{ArgoCluster, ConsumerSpec, DuckConfigMap, PlacementBinding};

use bindings::binding_problems;
use land::land;
use resolve::{resolve, Resolution};
pub(crate) use run::Resolved;

/// What a consumer item's trace holds: how it got to its clusters.
#[derive(Clone, Debug, Default)]
pub struct ConsumerTrace<'a> {
    pub routes: Vec<RouteTrace<'a>>,
    /// What the controller does besides placing (a disabled Policy, a local Subscription,
    /// a rollout order, generators not planned).
    pub notes: Vec<String>,
    /// The placements the routes go through, as their items were planned: kept for `explain`
    /// (a full trace) only.
    pub placements: Vec<(PlanItem, crate::plan::ItemTrace<'a>)>,
}

/// One way a consumer lands: the objects in between, the placement, and what it gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RouteTrace<'a> {
    /// `PlacementBinding/ns/b`, … then the placement (`Placement/ns/p`).
    pub chain: Vec<String>,
    /// The placement's identity, as the model holds it.
    pub placement: &'a ObjectRef,
    /// The clusters this route lands on, sorted.
    pub clusters: ClusterNames,
    /// Clusters the placement chose that this route leaves out, each with why.
    pub dropped: Vec<(String, String)>,
}

/// The model's consumers and the objects between them and their placements, indexed once
/// per run.
pub(crate) struct Consumers<'a> {
    /// (kind, namespace, name) → the Placement or PlacementRule workload.
    placements: HashMap<(&'a str, &'a str, &'a str), &'a Workload>,
    /// (kind, name) → the namespaces a placement of that name is in, for "another
    /// namespace" hints: made when a reference first resolves to nothing.
    placement_namespaces: OnceLock<HashMap<(&'a str, &'a str), Vec<&'a str>>>,
    /// Policy and PolicySet workloads by (kind, namespace, name).
    policies: HashMap<(&'a str, &'a str, &'a str), &'a Workload>,
    /// (subject kind, namespace, name) → the (binding, subject) positions that name it, in
    /// the bindings' input order (Policy and PolicySet subjects only).
    subjects: SubjectIndex<'a>,
    /// (namespace, Policy) → the PolicySets of the inputs that hold it.
    sets_holding: HashMap<(&'a str, &'a str), Vec<&'a str>>,
    config_maps: HashMap<(&'a str, &'a str), &'a DuckConfigMap>,
    /// The clusters registered with Argo CD, with their servers; `None` when no cluster
    /// Secret was read.
    argo_clusters: Option<HashMap<&'a str, &'a str>>,
    /// Every Placement of a namespace (an ApplicationSet's decision objects are listed
    /// there): made when an ApplicationSet first asks.
    namespace_placements: OnceLock<HashMap<&'a str, Vec<&'a Workload>>>,
    /// The model's workloads, which the indexes made on demand read.
    workloads: &'a [Workload],
    /// Each PlacementBinding's placement (by the binding's position among the model's), when
    /// its `placementRef` resolves: looked up once, for its routes and for its own error
    /// (10k bindings' look-ups, each reading strings all over the model, were done twice).
    binding_targets: Vec<Option<&'a Workload>>,
}

type SubjectIndex<'a> =
    HashMap<(&'a str, &'a str, &'a str), Vec<(usize, usize, &'a PlacementBinding)>>;

fn namespace(object: &ObjectRef) -> &str {
    object.namespace.as_deref().unwrap_or_default()
}

impl<'a> Consumers<'a> {
    pub(crate) fn new(model: &'a Model) -> Consumers<'a> {
        // The maps are sized once: grown a doubling at a time, each re-hashed every key of
        // three strings read so far (10k placements, 10k Policies and their bindings).
        let (mut placements, mut policies) = (0, 0);
        for workload in &model.workloads {
            match &workload.kind {
                WorkloadKind::Placement(_) | WorkloadKind::PlacementRule(_) => placements += 1,
                WorkloadKind::Consumer(_) => policies += 1,
                _ => {}
            }
        }
        let mut consumers = Consumers {
            placements: HashMap::with_capacity(placements),
            placement_namespaces: OnceLock::new(),
            policies: HashMap::with_capacity(policies),
            subjects: HashMap::with_capacity(model.apis.consumers.bindings.len()),
            sets_holding: HashMap::new(),
            config_maps: HashMap::new(),
            argo_clusters: None,
            namespace_placements: OnceLock::new(),
            workloads: &model.workloads,
            binding_targets: Vec::with_capacity(model.apis.consumers.bindings.len()),
        };
        for workload in &model.workloads {
            let object = &workload.object;
            let key = (
                object.kind.as_str(),
                namespace(object),
                object.name.as_str(),
            );
            match &workload.kind {
                WorkloadKind::Placement(_) | WorkloadKind::PlacementRule(_) => {
                    consumers.placements.insert(key, workload);
                }
                WorkloadKind::Consumer(spec) if object.group() == POLICY_GROUP => {
                    consumers.policies.insert(key, workload);
                    if let ConsumerSpec::PolicySet { policies, .. } = spec.as_ref() {
                        for policy in policies {
                            let sets = consumers.sets_holding.entry((key.1, policy)).or_default();
                            sets.push(key.2);
                        }
                    }
                }
                _ => {}
            }
        }
        let objects = &model.apis.consumers;
        for (at, binding) in objects.bindings.iter().enumerate() {
            let target = resolve::binding_target(&consumers, binding).ok();
            consumers.binding_targets.push(target);
            let ns = namespace(&binding.object);
            for (subject, (group, kind, name)) in binding.subjects.iter().enumerate() {
                if group == POLICY_GROUP {
                    let naming = consumers.subjects.entry((kind, ns, name)).or_default();
                    naming.push((at, subject, binding));
                }
            }
        }
        for config_map in &objects.config_maps {
            let object = &config_map.object;
            consumers
                .config_maps
                .insert((namespace(object), object.name.as_str()), config_map);
        }
        if !objects.argo_clusters.is_empty() {
            consumers.argo_clusters = Some(
                objects
                    .argo_clusters
                    .iter()
                    .map(|cluster: &ArgoCluster| (cluster.name.as_str(), cluster.server.as_str()))
                    .collect(),
            );
        }
        consumers
    }

    /// The placement of the model's `at`-th PlacementBinding, or why it has none.
    fn binding_target(
        &self,
        at: usize,
        binding: &PlacementBinding,
    ) -> Result<&'a Workload, Unresolved> {
        match self.binding_targets.get(at) {
            Some(Some(target)) => Ok(target),
            // Why: found again (a binding whose reference resolves to nothing is rare).
            _ => resolve::binding_target(self, binding),
        }
    }

    /// The Placements of `namespace` (not PlacementRules), in the model's order.
    fn namespace_placements(&self, namespace_name: &str) -> &[&'a Workload] {
        let by_namespace = self.namespace_placements.get_or_init(|| {
            let mut by_namespace: HashMap<&str, Vec<&Workload>> = HashMap::default();
            for workload in self.placements_in_order() {
                if matches!(workload.kind, WorkloadKind::Placement(_)) {
                    by_namespace
                        .entry(namespace(&workload.object))
                        .or_default()
                        .push(workload);
                }
            }
            by_namespace
        });
        by_namespace.get(namespace_name).map_or(&[], Vec::as_slice)
    }

    /// The model's Placements and PlacementRules, in its order.
    fn placements_in_order(&self) -> impl Iterator<Item = &'a Workload> {
        self.workloads.iter().filter(|workload| {
            matches!(
                workload.kind,
                WorkloadKind::Placement(_) | WorkloadKind::PlacementRule(_)
            )
        })
    }

    /// The clusters registered with Argo CD, when a cluster Secret was read.
    pub(crate) fn argo_clusters(&self) -> Option<&HashMap<&'a str, &'a str>> {
        self.argo_clusters.as_ref()
    }

    /// The Placement or PlacementRule `kind` `namespace/name`, or why there is none.
    fn placement(
        &self,
        kind: &str,
        namespace: &str,
        name: &str,
    ) -> Result<&'a Workload, Unresolved> {
        if let Some(workload) = self.placements.get(&(kind, namespace, name)) {
            return Ok(workload);
        }
        let target = name_of(kind, namespace, name);
        let placement_namespaces = self.placement_namespaces.get_or_init(|| {
            let mut namespaces: HashMap<(&str, &str), Vec<&str>> = HashMap::default();
            for workload in self.placements_in_order() {
                let object = &workload.object;
                namespaces
                    .entry((object.kind.as_str(), object.name.as_str()))
                    .or_default()
                    .push(self::namespace(object));
            }
            namespaces
        });
        Err(match placement_namespaces.get(&(kind, name)) {
            Some(namespaces) => Unresolved::OtherNamespace {
                target,
                kind: kind.to_string(),
                namespaces: namespaces.join(", "),
            },
            None => Unresolved::Missing { target },
        })
    }
}

/// Why a reference to a placement resolves to nothing.
#[derive(Debug, thiserror::Error)]
pub(super) enum Unresolved {
    #[error("{target} is not in the inputs")]
    Missing { target: String },
    #[error("{target} is not in the inputs (a {kind} of that name is in namespace {namespaces})")]
    OtherNamespace {
        target: String,
        kind: String,
        namespaces: String,
    },
    /// A PlacementBinding whose apiGroup does not serve its kind (`HasValidPlacementRef`).
    #[error("kind {kind} is served by apiGroup {expected}, not {group} (the propagator ignores this binding)")]
    WrongGroup {
        kind: String,
        group: String,
        expected: &'static str,
    },
}

const POLICY_GROUP: &str = "policy.open-cluster-management.io";

/// `Kind/namespace/name` of an object.
fn name_of(kind: &str, namespace: &str, name: &str) -> String {
    crate::model::object_name(kind, Some(namespace), name)
}
