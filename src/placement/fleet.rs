//! What every placement of a run shares, built once: clusters by name, clusterset members,
//! decision counts for Balance, each placement's own previous decisions, add-on scores.
//! 100k clusters × 1k placements must not redo per-fleet work per placement.

use std::borrow::Borrow;
use std::collections::{BTreeSet, HashMap};
use std::hash::Hash;
use std::sync::{Arc, Mutex, OnceLock};

use crate::model::placement::Toleration;
use crate::model::{
    AddOnPlacementScore, Cluster, ClusterSetSelector, Inventory, PreviousDecision, CLUSTERSET_LABEL,
};
use crate::placement::filters::taint::Admitted;
use crate::placement::prioritizers::resource;
use crate::selector::{ClusterBits, LabelIndex, Selector};

/// Only PlacementDecision objects count for Balance, Steady and NoSelectIfNew; a
/// PlacementRule's status decisions are its own business.
const PLACEMENT_DECISION_KIND: &str = "PlacementDecision";

/// A clusterset's members, or why they cannot be listed.
type Members = Result<Arc<Vec<usize>>, String>;

pub struct FleetIndex<'a> {
    pub inventory: &'a Inventory,
    by_name: HashMap<&'a str, usize>,
    /// Position of each cluster (by inventory index) in name order.
    name_rank: Vec<usize>,
    set_members: HashMap<&'a str, Members>,
    /// Decisions per cluster name over every previous PlacementDecision (names not in the
    /// inventory count too: upstream's maximum runs over every decision).
    counts: HashMap<&'a str, i64>,
    /// `counts` by inventory index, so Balance needs no name lookup per cluster.
    decided: Vec<i64>,
    /// Clusters that are online and carry no taint: the taint filter passes them without
    /// looking at tolerations.
    untainted: ClusterBits,
    /// `counts` sorted by count descending, then name.
    by_count: Vec<(i64, &'a str)>,
    /// (namespace, placement) → cluster name → how often it appears in its own decisions.
    own: HashMap<&'a str, HashMap<&'a str, HashMap<&'a str, i64>>>,
    /// Cluster namespace → AddOnPlacementScore name → score.
    addon_scores: HashMap<&'a str, HashMap<&'a str, &'a AddOnPlacementScore>>,
    candidates: Memo<Vec<String>, Members>,
    /// The same candidates as bitsets, for untraced runs that filter by bitset algebra.
    candidate_bits: Memo<Vec<String>, Result<Arc<ClusterBits>, String>>,
    /// Built on first use: a fleet whose placements have no predicates never needs them.
    labels: OnceLock<LabelIndex>,
    claims: OnceLock<LabelIndex>,
    /// Per resource prioritizer, every cluster's allocatable value by inventory index: a
    /// placement scores thousands of clusters and must not look each up in two maps.
    allocatable: OnceLock<HashMap<&'static str, Vec<Option<f64>>>>,
    /// Per distinct toleration list and time: the clusters it admits. Placements share a
    /// handful of lists, and the taint filter then reads no cluster.
    admitted: Memo<(Vec<Toleration>, i64), Arc<Admitted>>,
}

impl<'a> FleetIndex<'a> {
    pub fn new(inventory: &'a Inventory, previous: &'a [PreviousDecision]) -> FleetIndex<'a> {
        let mut by_name = HashMap::new();
        for (index, cluster) in inventory.clusters.iter().enumerate() {
            by_name.entry(cluster.name.as_str()).or_insert(index);
        }
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

        let mut counts: HashMap<&str, i64> = HashMap::new();
        let mut own: HashMap<&str, HashMap<&str, HashMap<&str, i64>>> = HashMap::new();
        for decision in previous
            .iter()
            .filter(|decision| decision.object.kind == PLACEMENT_DECISION_KIND)
        {
            let namespace = decision.object.namespace.as_deref().unwrap_or("");
            let mine = own
                .entry(namespace)
                .or_default()
                .entry(decision.placement.as_str())
                .or_default();
            for cluster in &decision.clusters {
                *counts.entry(cluster.as_str()).or_default() += 1;
                *mine.entry(cluster.as_str()).or_default() += 1;
            }
        }
        let mut by_count: Vec<(i64, &str)> =
            counts.iter().map(|(&name, &count)| (count, name)).collect();
        by_count.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));

        let mut addon_scores: HashMap<&str, HashMap<&str, &AddOnPlacementScore>> = HashMap::new();
        for score in &inventory.addon_scores {
            addon_scores
                .entry(score.namespace.as_str())
                .or_default()
                .insert(score.name.as_str(), score);
        }

        let decided = inventory
            .clusters
            .iter()
            .map(|cluster| counts.get(cluster.name.as_str()).copied().unwrap_or(0))
            .collect();
        let untainted = ClusterBits::from_ids(
            inventory.clusters.len(),
            inventory
                .clusters
                .iter()
                .enumerate()
                .filter(|(_, cluster)| cluster.online && cluster.taints.is_empty())
                .map(|(index, _)| index),
        );
        let mut index = FleetIndex {
            inventory,
            by_name,
            name_rank,
            set_members: HashMap::new(),
            counts,
            decided,
            untainted,
            by_count,
            own,
            addon_scores,
            candidates: Memo::default(),
            candidate_bits: Memo::default(),
            labels: OnceLock::new(),
            claims: OnceLock::new(),
            allocatable: OnceLock::new(),
            admitted: Memo::default(),
        };
        index.set_members = index.members_of_sets(&order);
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
                            Arc::new(
                                order
                                    .iter()
                                    .copied()
                                    .filter(|&index| selector.matches(&clusters[index].labels))
                                    .collect(),
                            )
                        })
                        .map_err(|err| format!("clusterset {}: {err}", set.name))
                }
                ClusterSetSelector::Unknown(kind) => Err(format!(
                    "clusterset {}: selectorType {kind:?} is not ExclusiveClusterSetLabel or LabelSelector",
                    set.name
                )),
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

    /// The clusters (inventory indices) whose labels match `selector`.
    pub fn select_labels(&self, selector: &Selector) -> ClusterBits {
        self.labels
            .get_or_init(|| LabelIndex::new(self.inventory.clusters.iter().map(|c| &c.labels)))
            .select(selector)
    }

    /// The clusters (inventory indices) whose claims match `selector`.
    pub fn select_claims(&self, selector: &Selector) -> ClusterBits {
        self.claims
            .get_or_init(|| LabelIndex::new(self.inventory.clusters.iter().map(|c| &c.claims)))
            .select(selector)
    }

    /// Every cluster's allocatable `resource` (one of [`resource::RESOURCES`]) by inventory
    /// index; `None` where the cluster does not report it.
    pub fn allocatable(&self, resource: &str) -> &[Option<f64>] {
        let all = self.allocatable.get_or_init(|| {
            resource::RESOURCES
                .iter()
                .map(|&name| {
                    let values = self
                        .inventory
                        .clusters
                        .iter()
                        .map(|cluster| resource::allocatable(cluster, name))
                        .collect();
                    (name, values)
                })
                .collect()
        });
        all.get(resource).map_or(&[], Vec::as_slice)
    }

    /// The clusters `tolerations` admit at `now` (outside a placement's own decisions).
    pub fn admitted(&self, tolerations: &[Toleration], now: i64) -> Arc<Admitted> {
        self.admitted
            .get_or_insert_with(&(tolerations.to_vec(), now), || {
                Arc::new(Admitted::new(&self.inventory.clusters, tolerations, now))
            })
    }

    /// Online with no taint: nothing for a toleration to judge.
    pub fn is_untainted(&self, index: usize) -> bool {
        self.untainted.contains(index)
    }

    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    pub fn set_exists(&self, name: &str) -> bool {
        self.set_members.contains_key(name)
    }

    /// Clusters in name order, as inventory indices.
    pub fn name_rank(&self, index: usize) -> usize {
        self.name_rank.get(index).copied().unwrap_or(usize::MAX)
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
    pub fn candidate_bits(&self, sets: &[String]) -> Result<Arc<ClusterBits>, String> {
        self.candidate_bits.get_or_insert_with(sets, || {
            let members = self.candidates(sets)?;
            Ok(Arc::new(ClusterBits::from_ids(
                self.len(),
                members.iter().copied(),
            )))
        })
    }

    /// Online clusters with no taint.
    pub fn untainted(&self) -> &ClusterBits {
        &self.untainted
    }

    fn union(&self, sets: &[String]) -> Members {
        let mut seen = BTreeSet::new();
        for set in sets {
            match self.set_members.get(set.as_str()) {
                Some(Ok(members)) => seen.extend(
                    members
                        .iter()
                        .filter(|&&index| !self.inventory.clusters[index].deleting)
                        .map(|&index| (self.name_rank(index), index)),
                ),
                Some(Err(err)) => return Err(err.clone()),
                None => {}
            }
        }
        Ok(Arc::new(seen.into_iter().map(|(_, index)| index).collect()))
    }

    /// Clusters named in this placement's own previous PlacementDecisions.
    pub fn own_decisions(
        &self,
        namespace: &str,
        placement: &str,
    ) -> Option<&HashMap<&'a str, i64>> {
        self.own.get(namespace)?.get(placement)
    }

    /// Balance's view: how often `cluster` was decided by other placements, and the largest
    /// such count over every cluster.
    /// [`FleetIndex::own_decisions`] by inventory index, for the prioritizers and filters
    /// that ask about every feasible cluster (names of clusters not in the inventory drop out).
    pub fn own_clusters(&self, namespace: &str, placement: &str) -> Option<OwnClusters> {
        let own = self.own_decisions(namespace, placement)?;
        let counts: HashMap<usize, i64> = own
            .iter()
            .filter_map(|(name, &count)| Some((self.index_of(name)?, count)))
            .collect();
        let clusters = ClusterBits::from_ids(self.len(), counts.keys().copied());
        Some(OwnClusters { clusters, counts })
    }

    /// Balance's view for the placement whose own decisions are `own` (from
    /// [`FleetIndex::own_clusters`]).
    pub fn balance_counts<'i>(
        &'i self,
        namespace: &str,
        placement: &str,
        own_clusters: Option<&'i OwnClusters>,
    ) -> BalanceCounts<'i, 'a> {
        let own = self.own_decisions(namespace, placement);
        let own_count = |name: &str| own.and_then(|own| own.get(name)).copied().unwrap_or(0);
        let mut max = 0;
        if let Some(own) = own {
            for name in own.keys() {
                max = max.max(self.counts.get(name).copied().unwrap_or(0) - own_count(name));
            }
        }
        if let Some((count, _)) = self.by_count.iter().find(|(_, name)| own_count(name) == 0) {
            max = max.max(*count);
        }
        BalanceCounts {
            index: self,
            own: own_clusters,
            max,
        }
    }

    pub fn addon_score(&self, cluster: &str, resource: &str) -> Option<&'a AddOnPlacementScore> {
        self.addon_scores.get(cluster)?.get(resource).copied()
    }
}

/// A computed-once map shared by the threads planning items: many placements ask for the
/// same binding sets and toleration lists.
struct Memo<K, V>(Mutex<HashMap<K, V>>);

impl<K, V> Default for Memo<K, V> {
    fn default() -> Memo<K, V> {
        Memo(Mutex::new(HashMap::new()))
    }
}

impl<K: Hash + Eq, V: Clone> Memo<K, V> {
    /// The value for `key`, made (under the lock, so once) when missing.
    fn get_or_insert_with<Q>(&self, key: &Q, make: impl FnOnce() -> V) -> V
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        let mut map = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(found) = map.get(key) {
            return found.clone();
        }
        let made = make();
        map.insert(key.to_owned(), made.clone());
        made
    }
}

pub struct BalanceCounts<'i, 'a> {
    index: &'i FleetIndex<'a>,
    own: Option<&'i OwnClusters>,
    pub max: i64,
}

impl BalanceCounts<'_, '_> {
    /// Decisions naming the cluster at inventory index `index` outside this placement's own.
    pub fn count(&self, index: usize) -> i64 {
        let total = self.index.decided.get(index).copied().unwrap_or(0);
        total - self.own.map_or(0, |own| own.count(index))
    }
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
