//! The fleet as the scheduler sees it, indexed once per run: the run's [`ClusterIndex`]
//! (clusters by name and in name order, the label and claim indexes, shared with the other
//! engines) and clusterset members. What a filter or prioritizer reads besides lives with
//! that plugin.

use foldhash::{HashMap, HashMapExt};
use std::ops::Deref;
use std::sync::Arc;

use crate::model::{ClusterIndex, ClusterSetSelector, Inventory, CLUSTERSET_LABEL};
use crate::selector::{ClusterBits, Selector, SelectorError};

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
    /// The inventory's clusters, indexed for every engine of the run.
    clusters: &'a ClusterIndex<'a>,
    set_members: HashMap<&'a str, Members>,
    candidates: Memo<Vec<String>, Members>,
    /// The same candidates as bitsets, for untraced runs that filter by bitset algebra.
    candidate_bits: Memo<Vec<String>, Result<Arc<ClusterBits>, Box<ClusterSetError>>>,
}

/// What the scheduler asks of the clusters alone (names, name order, labels, claims) is
/// the run's [`ClusterIndex`].
impl<'a> Deref for FleetIndex<'a> {
    type Target = ClusterIndex<'a>;

    fn deref(&self) -> &ClusterIndex<'a> {
        self.clusters
    }
}

impl<'a> FleetIndex<'a> {
    /// `clusters` must index `inventory`'s clusters (the same, in the same order).
    pub fn new(clusters: &'a ClusterIndex<'a>, inventory: &'a Inventory) -> FleetIndex<'a> {
        let mut index = FleetIndex {
            inventory,
            clusters,
            set_members: HashMap::new(),
            candidates: Memo::default(),
            candidate_bits: Memo::default(),
        };
        index.set_members = index.members_of_sets();
        index
    }

    fn members_of_sets(&self) -> HashMap<&'a str, Members> {
        let clusters = &self.inventory.clusters;
        let order = self.clusters.order();
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

    pub fn set_exists(&self, name: &str) -> bool {
        self.set_members.contains_key(name)
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
            by_rank.iter_ones().map(|rank| self.order()[rank]).collect(),
        ))
    }
}
