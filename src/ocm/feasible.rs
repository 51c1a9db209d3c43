//! The clusters still in the running for one placement, carried from filter to filter and on
//! to the prioritizers and the score order.
//!
//! Untraced filters narrow one bitset over inventory indices (bitset algebra over the whole
//! fleet), so a placement that keeps 15k of 100k clusters does not list them between filters.
//! The list is made once, when something reads the clusters one by one (a filter that has to
//! judge each, a prioritizer that scores each); a placement whose prioritizers score every
//! cluster the same and that wants its first `numberOfClusters` never makes it.

use std::cell::OnceCell;
use std::sync::Arc;

use crate::selector::ClusterBits;

/// Feasible clusters (inventory indices). A list keeps the order it was given in (a traced
/// filter walks the candidates in name order, and the trace shows that order); a bitset's
/// list is in inventory order. The score order's key is unique, so which one does not change
/// the selection.
#[derive(Debug)]
pub enum Feasible {
    /// The count is taken when asked: each filter narrows the set, and a placement that
    /// takes its first clusters off the bitset never needs it (counting 100k bits a filter
    /// cost each placement more than the filter's own narrowing).
    Bits {
        bits: ClusterBits,
        len: OnceCell<usize>,
        list: OnceCell<Vec<usize>>,
    },
    List(Vec<usize>),
    /// What the first filter is given: the placement's candidates, the fleet index's cached
    /// list of its eligible clusterSets' members (in name order), shared rather than copied.
    Candidates(Arc<Vec<usize>>),
}

impl Feasible {
    pub fn from_bits(bits: ClusterBits) -> Feasible {
        Feasible::Bits {
            bits,
            len: OnceCell::new(),
            list: OnceCell::new(),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Feasible::Bits { bits, len, list } => {
                *len.get_or_init(|| list.get().map_or_else(|| bits.count(), Vec::len))
            }
            Feasible::List(list) => list.len(),
            Feasible::Candidates(list) => list.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        match self {
            // Up to the first cluster in it, not a count of them all.
            Feasible::Bits { bits, .. } => bits.is_empty(),
            Feasible::List(list) => list.is_empty(),
            Feasible::Candidates(list) => list.is_empty(),
        }
    }

    /// The clusters one by one; listed on first use.
    pub fn list(&self) -> &[usize] {
        match self {
            Feasible::Bits { bits, len, list } => {
                list.get_or_init(|| listed(bits, *len.get_or_init(|| bits.count())))
            }
            Feasible::List(list) => list,
            Feasible::Candidates(list) => list,
        }
    }

    /// The bitset, when the filters carried one.
    pub fn bits(&self) -> Option<&ClusterBits> {
        match self {
            Feasible::Bits { bits, .. } => Some(bits),
            Feasible::List(_) | Feasible::Candidates(_) => None,
        }
    }

    /// The bitset when its clusters come in name order: when inventory order is name order
    /// (`in_name_order`), its lowest bits are the lowest name ranks, and an inventory index
    /// breaks a tie as the name does.
    pub fn bits_in_name_order(&self, in_name_order: bool) -> Option<&ClusterBits> {
        self.bits().filter(|_| in_name_order)
    }

    /// The clusters in name order (only the first `head`, with one), read straight off the
    /// bitset when its clusters come in name order ([`Self::bits_in_name_order`]), so nothing
    /// is keyed or sorted. `None` when they do not.
    pub fn first_by_name(&self, head: Option<usize>, in_name_order: bool) -> Option<Vec<usize>> {
        let bits = self.bits_in_name_order(in_name_order)?;
        Some(match head {
            Some(head) => bits.iter_ones().take(head).collect(),
            // Not kept as the list: nothing reads it one by one after this.
            None => listed(bits, self.len()),
        })
    }
}

/// The `len` clusters of `bits`, in inventory order: counted first, one allocation, where
/// collecting grew the list by doubling (copies of up to 20k indices per placement).
fn listed(bits: &ClusterBits, len: usize) -> Vec<usize> {
    let mut listed = Vec::with_capacity(len);
    bits.iter_ones().for_each(|index| listed.push(index));
    listed
}

impl From<Vec<usize>> for Feasible {
    fn from(list: Vec<usize>) -> Feasible {
        Feasible::List(list)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bitset_lists_its_clusters_in_inventory_order_once_asked() {
        let feasible = Feasible::from_bits(ClusterBits::from_ids(10, [7, 2, 5]));
        assert_eq!(feasible.len(), 3);
        assert_eq!(feasible.list(), [2, 5, 7]);
        assert_eq!(feasible.first_by_name(Some(2), true), Some(vec![2, 5]));
        assert_eq!(feasible.first_by_name(Some(5), true), Some(vec![2, 5, 7]));
        assert_eq!(feasible.first_by_name(None, true), Some(vec![2, 5, 7]));
        assert_eq!(feasible.first_by_name(Some(2), false), None);
    }

    #[test]
    fn a_list_keeps_its_order_and_has_no_bitset_head() {
        let feasible = Feasible::from(vec![7, 2, 5]);
        assert_eq!(feasible.len(), 3);
        assert_eq!(feasible.list(), [7, 2, 5]);
        assert_eq!(feasible.first_by_name(Some(2), true), None);
        assert_eq!(feasible.first_by_name(None, true), None);
    }
}
