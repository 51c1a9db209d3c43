//! What each engine did for one item, kept beside the plan so `explain` renders the very run
//! that produced the plan instead of recomputing it.

use crate::selector::{ClusterBits, Selector};

pub(crate) use crate::registry::Engine;
pub use crate::registry::ItemTrace;

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
