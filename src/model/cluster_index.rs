//! The inventory's clusters indexed once per run, whichever engines run: by name, in name
//! order, and their labels and claims. The OCM scheduler's fleet (`ocm::fleet`) adds its
//! clusterset members on top; the federation and kubefed items select through it
//! (`plan::FederatedFleet`).

use std::sync::{Arc, OnceLock};

use super::{Cluster, NameTable};
use crate::selector::{ClusterBits, LabelIndex, Selector};

pub struct ClusterIndex<'a> {
    clusters: &'a [Cluster],
    /// Position of each cluster (by inventory index) in name order.
    name_rank: Vec<usize>,
    /// Inventory indices in name order: `order[name_rank[index]] == index`.
    order: Vec<usize>,
    /// Inventory order is name order (`order[rank] == rank`), as in a sorted inventory or
    /// `kubectl get managedclusters`: a bitset's lowest bits are then its first names.
    in_name_order: bool,
    /// Every cluster name by name rank, in one string. Plans list their clusters as ranks
    /// into it: a few MB read in order stay cached, where the names' own allocations (100k
    /// of them, among the clusters' other data) cost a cache miss each at first touch.
    names: Arc<NameTable>,
    /// Built on first use: a fleet whose placements have no predicates never needs them.
    /// Each answers a selector over the whole fleet (its bitsets) or cluster by cluster (its
    /// label table).
    labels: OnceLock<LabelIndex>,
    claims: OnceLock<LabelIndex>,
}

impl<'a> ClusterIndex<'a> {
    pub fn new(clusters: &'a [Cluster]) -> ClusterIndex<'a> {
        let mut order: Vec<usize> = (0..clusters.len()).collect();
        order.sort_by(|&a, &b| clusters[a].name.cmp(&clusters[b].name).then(a.cmp(&b)));
        let mut name_rank = vec![0; order.len()];
        for (rank, &index) in order.iter().enumerate() {
            name_rank[index] = rank;
        }
        let names = NameTable::new(order.iter().map(|&index| clusters[index].name.as_str()));
        ClusterIndex {
            clusters,
            name_rank,
            in_name_order: order.iter().enumerate().all(|(rank, &index)| rank == index),
            order,
            names: Arc::new(names),
            labels: OnceLock::new(),
            claims: OnceLock::new(),
        }
    }

    pub fn cluster(&self, index: usize) -> &'a Cluster {
        &self.clusters[index]
    }

    /// The number of clusters in the inventory: the universe of every `ClusterBits` here.
    pub fn len(&self) -> usize {
        self.clusters.len()
    }

    pub fn is_empty(&self) -> bool {
        self.clusters.is_empty()
    }

    /// Every cluster's labels (by inventory index), indexed.
    pub fn labels(&self) -> &LabelIndex {
        self.labels
            .get_or_init(|| LabelIndex::new(self.clusters, |c| &c.labels))
    }

    /// Every cluster's claims (by inventory index), indexed.
    pub fn claims(&self) -> &LabelIndex {
        self.claims
            .get_or_init(|| LabelIndex::new(self.clusters, |c| &c.claims))
    }

    /// The clusters (inventory indices) whose labels match `selector`.
    pub fn select_labels(&self, selector: &Selector) -> ClusterBits {
        self.labels().select(selector)
    }

    /// The clusters (inventory indices) whose claims match `selector`.
    pub fn select_claims(&self, selector: &Selector) -> ClusterBits {
        self.claims().select(selector)
    }

    /// The first cluster named `name`, found in the names' table (only previous decisions
    /// and older OCM placements name clusters; hashing 100k names up front was a serial step of
    /// every plan). Equal names are ranked in inventory order, so the first rank is it.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.rank_of(name).map(|rank| self.order[rank])
    }

    /// Clusters in name order, as inventory indices.
    pub fn name_rank(&self, index: usize) -> usize {
        self.name_rank.get(index).copied().unwrap_or(usize::MAX)
    }

    /// Inventory indices in name order.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// Whether inventory indices are name ranks.
    pub fn in_name_order(&self) -> bool {
        self.in_name_order
    }

    /// The name of the cluster at `index`, from the names stored in name order.
    pub fn name(&self, index: usize) -> &str {
        self.names.name(self.name_rank[index])
    }

    /// Every cluster name by name rank, as plans list clusters.
    pub fn names(&self) -> &Arc<NameTable> {
        &self.names
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::cluster;

    fn clusters(names: &[&str]) -> Vec<Cluster> {
        names.iter().map(|name| cluster(name).build()).collect()
    }

    #[test]
    fn each_cluster_is_named_from_the_store_as_in_the_inventory() {
        let clusters = clusters(&["charlie", "a", "bravo-2", "", "bravo"]);
        let index = ClusterIndex::new(&clusters);
        for (at, cluster) in clusters.iter().enumerate() {
            assert_eq!(index.name(at), cluster.name);
        }
    }

    /// A name is looked up in the name-ordered table: a name given twice is the first
    /// cluster of that name, and names before, between and after the fleet's are not found.
    #[test]
    fn a_cluster_is_found_by_name_the_first_of_equal_names() {
        let clusters = clusters(&["m", "b", "x", "b", ""]);
        let index = ClusterIndex::new(&clusters);
        let found: Vec<_> = ["m", "b", "x", "", "a", "c", "z"]
            .iter()
            .map(|name| index.index_of(name))
            .collect();
        assert_eq!(
            found,
            [Some(0), Some(1), Some(2), Some(4), None, None, None]
        );
    }
}
