//! The fleet as the scheduler sees it, indexed once per run: clusters by name and in name
//! order, clusterset members, and the label and claim indexes. What a filter or prioritizer
//! reads besides lives with that plugin.

use foldhash::{HashMap, HashMapExt};
use std::sync::{Arc, OnceLock};

use crate::model::{Cluster, ClusterSetSelector, Inventory, NameTable, CLUSTERSET_LABEL};
use crate::selector::{ClusterBits, LabelIndex, Selector, SelectorError};

use super::memo::Memo;

/// A clusterset's members, or why they cannot be listed (boxed: every placement clones a
/// memoized `Members`, and the error is larger than the list's pointer).
pub(crate) type Members = Result<Arc<Vec<usize>>, Box<ClusterSetError>>;

/// Why a clusterset's members cannot be listed: the placement's sync fails upstream.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClusterSetError {
    #[error("clusterset {set}: {error}")]
    Selector { set: String, error: SelectorError },
    #[error(
        "clusterset {set}: selectorType {kind:?} is not ExclusiveClusterSetLabel or LabelSelector"
    )]
    UnknownSelectorType { set: String, kind: String },
}

pub struct FleetIndex<'a> {
    pub inventory: &'a Inventory,
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
    set_members: HashMap<&'a str, Members>,
    candidates: Memo<Vec<String>, Members>,
    /// The same candidates as bitsets, for untraced runs that filter by bitset algebra.
    candidate_bits: Memo<Vec<String>, Result<Arc<ClusterBits>, Box<ClusterSetError>>>,
    /// Built on first use: a fleet whose placements have no predicates never needs them.
    /// Each answers a selector over the whole fleet (its bitsets) or cluster by cluster (its
    /// label table).
    labels: OnceLock<LabelIndex>,
    claims: OnceLock<LabelIndex>,
}

impl<'a> FleetIndex<'a> {
    pub fn new(inventory: &'a Inventory) -> FleetIndex<'a> {
        let mut order: Vec<usize> = (0..inventory.clusters.len()).collect();
        order.sort_by(|&a, &b| {
            inventory.clusters[a]
                .name
                .cmp(&inventory.clusters[b].name)
                .then(a.cmp(&b))
        });
        let mut name_rank = vec![0; order.len()];
        for (rank, &index) in order.iter().enumerate() {
            name_rank[index] = rank;
        }
        let names = NameTable::new(
            order
                .iter()
                .map(|&index| inventory.clusters[index].name.as_str()),
        );

        let mut index = FleetIndex {
            inventory,
            name_rank,
            order: Vec::new(),
            in_name_order: order.iter().enumerate().all(|(rank, &index)| rank == index),
            names: Arc::new(names),
            set_members: HashMap::new(),
            candidates: Memo::default(),
            candidate_bits: Memo::default(),
            labels: OnceLock::new(),
            claims: OnceLock::new(),
        };
        index.set_members = index.members_of_sets(&order);
        index.order = order;
        index
    }

    fn members_of_sets(&self, order: &[usize]) -> HashMap<&'a str, Members> {
        let clusters = &self.inventory.clusters;
        let mut by_label: HashMap<&str, Vec<usize>> = HashMap::new();
        for &index in order {
            if let Some(set) = clusters[index].labels.get(CLUSTERSET_LABEL) {
                by_label.entry(set.as_str()).or_default().push(index);
            }
        }
        let mut members = HashMap::new();
        for set in &self.inventory.cluster_sets {
            let listed = match &set.selector {
                ClusterSetSelector::ExclusiveClusterSetLabel => Ok(Arc::new(
                    by_label.get(set.name.as_str()).cloned().unwrap_or_default(),
                )),
                ClusterSetSelector::LabelSelector(spec) => {
                    Selector::from_label_selector(spec.as_ref())
                        .map(|selector| {
                            let matched = self.select_labels(&selector);
                            Arc::new(
                                order
                                    .iter()
                                    .copied()
                                    .filter(|&index| matched.contains(index))
                                    .collect(),
                            )
                        })
                        .map_err(|error| {
                            Box::new(ClusterSetError::Selector {
                                set: set.name.clone(),
                                error,
                            })
                        })
                }
                ClusterSetSelector::Unknown(kind) => {
                    Err(Box::new(ClusterSetError::UnknownSelectorType {
                        set: set.name.clone(),
                        kind: kind.clone(),
                    }))
                }
            };
            members.entry(set.name.as_str()).or_insert(listed);
        }
        members
    }

    pub fn cluster(&self, index: usize) -> &'a Cluster {
        &self.inventory.clusters[index]
    }

    /// The number of clusters in the inventory: the universe of every `ClusterBits` here.
    pub fn len(&self) -> usize {
        self.inventory.clusters.len()
    }

    pub fn is_empty(&self) -> bool {
        self.inventory.clusters.is_empty()
    }

    /// Every cluster's labels (by inventory index), indexed.
    pub fn labels(&self) -> &LabelIndex {
        self.labels
            .get_or_init(|| LabelIndex::new(&self.inventory.clusters, |c| &c.labels))
    }

    /// Every cluster's claims (by inventory index), indexed.
    pub fn claims(&self) -> &LabelIndex {
        self.claims
            .get_or_init(|| LabelIndex::new(&self.inventory.clusters, |c| &c.claims))
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
    /// and PlacementRules name clusters; hashing 100k names up front was a serial step of
    /// every plan). Equal names are ranked in inventory order, so the first rank is it.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.rank_of(name).map(|rank| self.order[rank])
    }

    pub fn set_exists(&self, name: &str) -> bool {
        self.set_members.contains_key(name)
    }

    /// Clusters in name order, as inventory indices.
    pub fn name_rank(&self, index: usize) -> usize {
        self.name_rank.get(index).copied().unwrap_or(usize::MAX)
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

    /// Whether the cluster at `index` is a member of `set` (deleting or not).
    pub fn is_member(&self, set: &str, index: usize) -> bool {
        let rank = self.name_rank(index);
        match self.set_members.get(set) {
            Some(Ok(members)) => members
                .binary_search_by(|&member| self.name_rank(member).cmp(&rank))
                .is_ok(),
            _ => false,
        }
    }

    /// Members of the union of `sets` that are not being deleted, in name order.
    /// Cached per set list: many placements share the same bindings.
    pub fn candidates(&self, sets: &[String]) -> Members {
        self.candidates
            .get_or_insert_with(sets, || self.union(sets))
    }

    /// [`FleetIndex::candidates`] as a bitset over inventory indices, cached the same way.
    pub fn candidate_bits(
        &self,
        sets: &[String],
    ) -> Result<Arc<ClusterBits>, Box<ClusterSetError>> {
        self.candidate_bits.get_or_insert_with(sets, || {
            let members = self.candidates(sets)?;
            Ok(Arc::new(ClusterBits::from_ids(
                self.len(),
                members.iter().copied(),
            )))
        })
    }

    /// One bitset over name ranks per set list: marking members and reading the bits back
    /// gives the union in name order without comparing names or keeping a tree of them.
    fn union(&self, sets: &[String]) -> Members {
        let mut by_rank = ClusterBits::empty(self.len());
        for set in sets {
            match self.set_members.get(set.as_str()) {
                Some(Ok(members)) => {
                    for &index in members.iter() {
                        if !self.inventory.clusters[index].deleting {
                            by_rank.insert(self.name_rank(index));
                        }
                    }
                }
                Some(Err(err)) => return Err(err.clone()),
                None => {}
            }
        }
        Ok(Arc::new(
            by_rank.iter_ones().map(|rank| self.order[rank]).collect(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::cluster;

    fn inventory(names: &[&str]) -> Inventory {
        Inventory {
            clusters: names.iter().map(|name| cluster(name).build()).collect(),
            ..Inventory::default()
        }
    }

    #[test]
    fn each_cluster_is_named_from_the_store_as_in_the_inventory() {
        let inventory = inventory(&["charlie", "a", "bravo-2", "", "bravo"]);
        let fleet = FleetIndex::new(&inventory);
        for (index, cluster) in inventory.clusters.iter().enumerate() {
            assert_eq!(fleet.name(index), cluster.name);
        }
    }

    /// A name is looked up in the name-ordered table: a name given twice is the first
    /// cluster of that name, and names before, between and after the fleet's are not found.
    #[test]
    fn a_cluster_is_found_by_name_the_first_of_equal_names() {
        let inventory = inventory(&["m", "b", "x", "b", ""]);
        let fleet = FleetIndex::new(&inventory);
        let found: Vec<_> = ["m", "b", "x", "", "a", "c", "z"]
            .iter()
            .map(|name| fleet.index_of(name))
            .collect();
        assert_eq!(
            found,
            [Some(0), Some(1), Some(2), Some(4), None, None, None]
        );
    }
}
