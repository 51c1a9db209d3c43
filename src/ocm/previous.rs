//! The placements' previous PlacementDecisions, indexed once per run: which clusters each
//! placement decided before (Steady keeps them, Balance discounts them, `NoSelectIfNew`
//! spares them, and upstream requeues on their toleration expiries).

use std::collections::HashMap;

use crate::model::PreviousDecision;
use crate::selector::ClusterBits;

use super::fleet::FleetIndex;

/// Only PlacementDecision objects count for Balance, Steady and NoSelectIfNew; a
/// PlacementRule's status decisions are its own business.
pub(crate) const PLACEMENT_DECISION_KIND: &str = "PlacementDecision";

/// Namespace → placement → cluster name → how often it appears in the placement's decisions.
pub struct PreviousDecisions<'a> {
    own: HashMap<&'a str, HashMap<&'a str, HashMap<&'a str, i64>>>,
}

impl<'a> PreviousDecisions<'a> {
    pub fn new(previous: &'a [PreviousDecision]) -> PreviousDecisions<'a> {
        let mut own: HashMap<&str, HashMap<&str, HashMap<&str, i64>>> = HashMap::new();
        for decision in placement_decisions(previous) {
            let namespace = decision.object.namespace.as_deref().unwrap_or("");
            let mine = own
                .entry(namespace)
                .or_default()
                .entry(decision.placement.as_str())
                .or_default();
            for cluster in &decision.clusters {
                *mine.entry(cluster.as_str()).or_default() += 1;
            }
        }
        PreviousDecisions { own }
    }

    /// Clusters named in this placement's own previous PlacementDecisions.
    pub fn own_decisions(
        &self,
        namespace: &str,
        placement: &str,
    ) -> Option<&HashMap<&'a str, i64>> {
        self.own.get(namespace)?.get(placement)
    }

    /// [`PreviousDecisions::own_decisions`] by inventory index, for the prioritizers and
    /// filters that ask about every feasible cluster (names of clusters not in the inventory
    /// drop out).
    pub fn own_clusters(
        &self,
        fleet: &FleetIndex,
        namespace: &str,
        placement: &str,
    ) -> Option<OwnClusters> {
        let own = self.own_decisions(namespace, placement)?;
        let counts: HashMap<usize, i64> = own
            .iter()
            .filter_map(|(name, &count)| Some((fleet.index_of(name)?, count)))
            .collect();
        let clusters = ClusterBits::from_ids(fleet.len(), counts.keys().copied());
        Some(OwnClusters { clusters, counts })
    }
}

/// The decisions that are PlacementDecisions.
pub(crate) fn placement_decisions(
    previous: &[PreviousDecision],
) -> impl Iterator<Item = &PreviousDecision> {
    previous
        .iter()
        .filter(|decision| decision.object.kind == PLACEMENT_DECISION_KIND)
}

/// One placement's own previous decisions by inventory index: a bit test per cluster
/// instead of hashing its name (10k placements × 15k feasible clusters each).
pub struct OwnClusters {
    clusters: ClusterBits,
    counts: HashMap<usize, i64>,
}

impl OwnClusters {
    pub fn contains(&self, index: usize) -> bool {
        self.clusters.contains(index)
    }

    /// The clusters, by inventory index (in no particular order).
    pub fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.counts.keys().copied()
    }

    /// How often the cluster at `index` appears in the placement's own decisions.
    pub fn count(&self, index: usize) -> i64 {
        if self.contains(index) {
            self.counts.get(&index).copied().unwrap_or(0)
        } else {
            0
        }
    }
}
