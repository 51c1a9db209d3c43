//! What the federation and kubefed items of a run share, built once: online clusters and
//! replica capacities. Cluster ids and the label index are the run's `ClusterIndex`, which
//! the OCM scheduler shares, so the fleet is indexed once per run whichever engines run.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::model::{Cluster, ClusterIndex};
use crate::selector::{ClusterBits, Selector};

/// `'a` borrows the model (names in replica traces outlive the run's indexes); `'i` the run's
/// `ClusterIndex`.
pub(crate) struct FederatedFleet<'a, 'i> {
    pub clusters: &'a [Cluster],
    index: &'i ClusterIndex<'i>,
    /// Built by the first federation or kubefed item: a run of Placements alone never needs
    /// it, and building it (a name copy per cluster) held up every other item's start.
    shared: OnceLock<Shared>,
}

struct Shared {
    online: ClusterBits,
    /// Replica capacity of every cluster that has one. The planner only looks up the names it
    /// is given, so one map serves every workload instead of one copy of the names per item.
    capacity: BTreeMap<String, i64>,
}

impl<'a, 'i> FederatedFleet<'a, 'i> {
    /// `index` must index these `clusters` (the same inventory, in the same order).
    pub(crate) fn new(
        clusters: &'a [Cluster],
        index: &'i ClusterIndex<'i>,
    ) -> FederatedFleet<'a, 'i> {
        FederatedFleet {
            clusters,
            index,
            shared: OnceLock::new(),
        }
    }

    fn shared(&self) -> &Shared {
        self.shared.get_or_init(|| Shared {
            online: ClusterBits::from_ids(
                self.clusters.len(),
                self.clusters
                    .iter()
                    .enumerate()
                    .filter(|(_, cluster)| cluster.online)
                    .map(|(id, _)| id),
            ),
            capacity: self
                .clusters
                .iter()
                .filter_map(|cluster| Some((cluster.name.clone(), cluster.replica_capacity?)))
                .collect(),
        })
    }

    pub(crate) fn id(&self, name: &str) -> Option<usize> {
        self.index.index_of(name)
    }

    pub(crate) fn capacity(&self) -> &BTreeMap<String, i64> {
        &self.shared().capacity
    }

    pub(crate) fn online(&self) -> &ClusterBits {
        &self.shared().online
    }

    /// Online clusters whose labels match.
    pub(crate) fn online_matching(&self, selector: &Selector) -> ClusterBits {
        let mut bits = self.index.select_labels(selector);
        bits.and_assign(self.online());
        bits
    }

    /// Names of the clusters in `bits`, in inventory order.
    pub(crate) fn names(&self, bits: &ClusterBits) -> Vec<&'a str> {
        bits.iter_ones()
            .filter_map(|id| self.clusters.get(id))
            .map(|cluster| cluster.name.as_str())
            .collect()
    }
}
