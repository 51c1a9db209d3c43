//! What every item of a run shares, built once: cluster ids, the label index, online clusters.
//! Building it per workload would make a 100k-cluster × 10k-workload plan quadratic.

use std::collections::{BTreeMap, HashMap};

use crate::model::Cluster;
use crate::selector::{ClusterBits, LabelIndex, Selector};

pub struct Fleet<'a> {
    pub clusters: &'a [Cluster],
    ids: HashMap<&'a str, usize>,
    labels: LabelIndex,
    online: ClusterBits,
    /// Replica capacity of every cluster that has one. The planner only looks up the names it
    /// is given, so one map serves every workload instead of one copy of the names per item.
    capacity: BTreeMap<String, i64>,
}

impl<'a> Fleet<'a> {
    pub fn new(clusters: &'a [Cluster]) -> Fleet<'a> {
        let ids = clusters
            .iter()
            .enumerate()
            .map(|(id, cluster)| (cluster.name.as_str(), id))
            .collect();
        let online = ClusterBits::from_ids(
            clusters.len(),
            clusters
                .iter()
                .enumerate()
                .filter(|(_, cluster)| cluster.online)
                .map(|(id, _)| id),
        );
        let capacity = clusters
            .iter()
            .filter_map(|cluster| Some((cluster.name.clone(), cluster.replica_capacity?)))
            .collect();
        Fleet {
            clusters,
            ids,
            capacity,
            labels: LabelIndex::new(clusters.iter().map(|cluster| &cluster.labels)),
            online,
        }
    }

    pub fn id(&self, name: &str) -> Option<usize> {
        self.ids.get(name).copied()
    }

    pub fn capacity(&self) -> &BTreeMap<String, i64> {
        &self.capacity
    }

    pub fn online(&self) -> &ClusterBits {
        &self.online
    }

    /// Online clusters whose labels match.
    pub fn online_matching(&self, selector: &Selector) -> ClusterBits {
        let mut bits = self.labels.select(selector);
        bits.and_assign(&self.online);
        bits
    }

    /// Names of the clusters in `bits`, in inventory order.
    pub fn names(&self, bits: &ClusterBits) -> Vec<&'a str> {
        bits.iter_ones()
            .filter_map(|id| self.clusters.get(id))
            .map(|cluster| cluster.name.as_str())
            .collect()
    }
}
