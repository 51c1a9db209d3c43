//! What every item of a run shares, built once: cluster ids, the label index, online clusters.
//! Building it per workload would make a 100k-cluster × 10k-workload plan quadratic.

use std::collections::HashMap;

use crate::model::Cluster;
use crate::selector::{ClusterBits, LabelIndex, Selector};

pub struct Fleet<'a> {
    pub clusters: &'a [Cluster],
    ids: HashMap<&'a str, usize>,
    labels: LabelIndex,
    online: ClusterBits,
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
        Fleet {
            clusters,
            ids,
            labels: LabelIndex::new(clusters.iter().map(|cluster| &cluster.labels)),
            online,
        }
    }

    pub fn id(&self, name: &str) -> Option<usize> {
        self.ids.get(name).copied()
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
