//! What each engine did for one item, kept beside the plan so `explain` renders the very run
//! that produced the plan instead of recomputing it.

use serde::Serialize;

use super::consumers::ConsumerTrace;
use crate::karmada::plan::KarmadaTrace;
use crate::ocm::rule::RuleResult;
use crate::ocm::PlacementResult;
use crate::replicas::ReplicaTrace;
use crate::selector::{ClusterBits, Selector};

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
    KubeFleet(Box<crate::kubefleet::plan::KubeFleetTrace>),
    /// The item failed before any engine ran (its `errors` say why).
    Failed,
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
            ItemTrace::Failed => Engine::Failed,
        }
    }
}

/// How a federation/kubefed item chose its clusters. Offline clusters are never chosen.
#[derive(Clone, Debug)]
pub struct SelectionTrace {
    pub rule: SelectionRule,
    /// The chosen clusters (dense inventory ids).
    pub selected: ClusterBits,
}

#[derive(Clone, Debug)]
pub enum SelectionRule {
    /// No cluster-selector annotation: every online cluster.
    Everything,
    /// `federation.alpha.kubernetes.io/cluster-selector`.
    Annotation(Selector),
    /// kubefed `spec.placement.clusterSelector`.
    LabelSelector(Selector),
    /// kubefed `spec.placement.clusterSelector` absent: no cluster.
    NoSelector,
    /// kubefed `spec.placement.clusters[].name`.
    ClusterNames(Vec<String>),
    /// An RSP with `intersectWithClusterSelector: true` uses its target's choice.
    Target {
        target: String,
        rule: Box<SelectionRule>,
    },
}
