//! `LabelIndex`: an inverted index over a fleet's label (or claim) maps, so a selector costs a
//! few word operations per requirement instead of a map lookup per cluster.
//!
//! It is built from the fleet's [`LabelTable`] (which it owns: the per-cluster matcher) by
//! transposing its ids: label id → clusters, and key id → clusters that have the key. `in` is
//! an OR of label sets, `notin` the complement of that (a missing key matches), `exists`/`!`
//! use the key set, and `gt`/`lt` take a range of the key's labels whose values are integers,
//! parsed once when the table was built.
use super::bits::ClusterBits;
use super::conjunction::Selector;
use super::label_source::LabelSource;
use super::label_table::{Id, LabelTable};
use super::requirement::{Operator, Requirement};

/// The clusters having one value (or one key): a bitset when that is at least as cheap to
/// OR as setting the ids one by one, a sorted id list otherwise. Keeps memory linear in the
/// number of labels for keys with many distinct values (one value per cluster).
#[derive(Clone, Debug)]
enum Postings {
    Sparse(Vec<usize>),
    Dense(ClusterBits),
}

impl Postings {
    /// Room for a list that will hold `len` of `universe` ids: a bitset from one id in 64.
    fn with_len(len: usize, universe: usize) -> Postings {
        if len.saturating_mul(64) >= universe {
            Postings::Dense(ClusterBits::empty(universe))
        } else {
            Postings::Sparse(Vec::with_capacity(len))
        }
    }

    /// Adds `id`, larger than any added before.
    fn push(&mut self, id: usize) {
        match self {
            Postings::Sparse(ids) => ids.push(id),
            Postings::Dense(set) => set.insert(id),
        }
    }

    /// The clusters listed here, as a set over `universe` clusters.
    fn to_bits(&self, universe: usize) -> ClusterBits {
        match self {
            Postings::Sparse(ids) => ClusterBits::from_ids(universe, ids.iter().copied()),
            Postings::Dense(set) => set.clone(),
        }
    }

    fn or_into(&self, bits: &mut ClusterBits) {
        match self {
            Postings::Sparse(ids) => ids.iter().for_each(|&id| bits.insert(id)),
            Postings::Dense(set) => bits.or_assign(set),
        }
    }

    /// Keeps in `bits` only the clusters listed here.
    fn and_into(&self, bits: &mut ClusterBits) {
        match self {
            Postings::Sparse(ids) => {
                let kept: Vec<usize> = ids
                    .iter()
                    .copied()
                    .filter(|&id| bits.contains(id))
                    .collect();
                bits.clear();
                kept.into_iter().for_each(|id| bits.insert(id));
            }
            Postings::Dense(set) => bits.and_assign(set),
        }
    }

    /// Takes the clusters listed here out of `bits`.
    fn remove_from(&self, bits: &mut ClusterBits) {
        match self {
            Postings::Sparse(ids) => ids.iter().for_each(|&id| bits.remove(id)),
            Postings::Dense(set) => bits.and_not_assign(set),
        }
    }
}

/// Inverted index over a fleet's label (or claim) maps, clusters numbered `0..len()` in the
/// order given; it owns the [`LabelTable`] its ids come from.
#[derive(Clone, Debug)]
pub struct LabelIndex {
    table: LabelTable,
    /// By label id: the clusters having that label.
    having: Vec<Postings>,
    /// By key id: the clusters having the key.
    present: Vec<Postings>,
    /// By key id: `(integer, label id)` for each of its labels whose value parses as i64,
    /// sorted.
    integers: Vec<Vec<(i64, Id)>>,
}

impl LabelIndex {
    /// The index of `labels_of` each item (see [`LabelTable::build`]).
    pub fn new<T: Sync, L: LabelSource>(
        items: &[T],
        labels_of: impl Fn(&T) -> &L + Sync,
    ) -> LabelIndex {
        LabelIndex::from_table(LabelTable::build(items, labels_of))
    }

    /// Walking the table's sets in order lists each label's and key's clusters ascending.
    /// The lists' lengths are counted first, so each is made once in its final form (no
    /// growing vectors copied into bitsets).
    fn from_table(table: LabelTable) -> LabelIndex {
        let universe = table.len();
        let mut having_len = vec![0; table.label_count()];
        let mut present_len = vec![0; table.key_count()];
        for set in 0..universe {
            for &(key, label) in table.set(set) {
                having_len[label as usize] += 1;
                present_len[key as usize] += 1;
            }
        }
        let postings = |lens: Vec<usize>| -> Vec<Postings> {
            lens.into_iter()
                .map(|len| Postings::with_len(len, universe))
                .collect()
        };
        let mut having = postings(having_len);
        let mut present = postings(present_len);
        for set in 0..universe {
            for &(key, label) in table.set(set) {
                having[label as usize].push(set);
                present[key as usize].push(set);
            }
        }
        let mut integers: Vec<Vec<(i64, Id)>> = vec![Vec::new(); table.key_count()];
        for label in 0..table.label_count() as Id {
            if let Some(integer) = table.integer(label) {
                integers[table.key_of(label) as usize].push((integer, label));
            }
        }
        for labels in &mut integers {
            labels.sort_unstable();
        }
        LabelIndex {
            having,
            present,
            integers,
            table,
        }
    }

    /// The clusters' label sets as ids, for matching cluster by cluster.
    pub fn table(&self) -> &LabelTable {
        &self.table
    }

    /// The number of clusters indexed.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// The clusters `selector` matches; the same answer as `Selector::matches` per cluster.
    pub fn select(&self, selector: &Selector) -> ClusterBits {
        if selector.is_nothing() {
            return ClusterBits::empty(self.len());
        }
        // `None` while every cluster is still selected: the first requirement writes its
        // set instead of narrowing a full one (a fleet-sized fill and a pass saved).
        let mut selected = None;
        let mut union = None;
        for requirement in selector.requirements() {
            if selected.as_ref().is_some_and(ClusterBits::is_empty) {
                break;
            }
            self.narrow(&mut selected, requirement, &mut union);
        }
        selected.unwrap_or_else(|| ClusterBits::full(self.len()))
    }

    /// Keeps in `selected` (`None`: every cluster) the clusters that meet `requirement`. One
    /// posting list (an `=`, an `Exists`) is intersected and a `NotIn`'s lists are taken out
    /// straight from the index; only a union of several lists is built, in `union` (a spare
    /// set the selector's requirements share): a placement's selectors would otherwise
    /// allocate and zero a fleet-sized set per requirement.
    fn narrow(
        &self,
        selected: &mut Option<ClusterBits>,
        requirement: &Requirement,
        union: &mut Option<ClusterBits>,
    ) {
        let universe = self.len();
        let Some(key) = self.table.key_id(requirement.key()) else {
            // Nobody has the key: only the operators that accept a missing key match.
            if !matches!(
                requirement.operator(),
                Operator::NotIn | Operator::NotEquals | Operator::DoesNotExist
            ) {
                *selected = Some(ClusterBits::empty(universe));
            }
            return;
        };
        let values = || {
            requirement
                .values()
                .iter()
                .filter_map(move |value| self.table.label_id(key, value))
        };
        // Keeps the clusters of one posting list.
        let intersect = |selected: &mut Option<ClusterBits>, postings: &Postings| match selected {
            Some(selected) => postings.and_into(selected),
            None => *selected = Some(postings.to_bits(universe)),
        };
        // Keeps the clusters of a union of posting lists, built in the spare set (which it
        // becomes while nothing narrowed the selection yet).
        let keep_union = |selected: &mut Option<ClusterBits>,
                          spare: &mut Option<ClusterBits>,
                          labels: &mut dyn Iterator<Item = u32>| {
            let mut built = spare.take().unwrap_or_else(|| ClusterBits::empty(universe));
            built.clear();
            for label in labels {
                self.having[label as usize].or_into(&mut built);
            }
            match selected {
                Some(selected) => {
                    selected.and_assign(&built);
                    *spare = Some(built);
                }
                None => *selected = Some(built),
            }
        };
        match requirement.operator() {
            Operator::In | Operator::Equals | Operator::DoubleEquals => {
                let mut labels = values();
                match (labels.next(), labels.next()) {
                    (None, _) => *selected = Some(ClusterBits::empty(universe)),
                    (Some(label), None) => intersect(selected, &self.having[label as usize]),
                    (Some(first), Some(second)) => keep_union(
                        selected,
                        union,
                        &mut [first, second].into_iter().chain(labels),
                    ),
                }
            }
            Operator::NotIn | Operator::NotEquals => {
                let selected = selected.get_or_insert_with(|| ClusterBits::full(universe));
                for label in values() {
                    self.having[label as usize].remove_from(selected);
                }
            }
            Operator::Exists => intersect(selected, &self.present[key as usize]),
            Operator::DoesNotExist => self.present[key as usize]
                .remove_from(selected.get_or_insert_with(|| ClusterBits::full(universe))),
            Operator::GreaterThan | Operator::LessThan => {
                let bound = requirement.bound();
                let integers = &self.integers[key as usize];
                let range = match requirement.operator() {
                    Operator::GreaterThan => {
                        &integers[integers.partition_point(|(n, _)| *n <= bound)..]
                    }
                    _ => &integers[..integers.partition_point(|(n, _)| *n < bound)],
                };
                keep_union(selected, union, &mut range.iter().map(|&(_, label)| label));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::testing::labels;

    fn fleet() -> Vec<BTreeMap<String, String>> {
        vec![
            labels(&[("region", "eu"), ("env", "prod"), ("version", "15")]),
            labels(&[("region", "us"), ("env", "prod"), ("version", "015")]),
            labels(&[("region", "eu"), ("env", "dev"), ("version", "x")]),
            labels(&[("env", "")]),
        ]
    }

    fn selected(selector: &str) -> Vec<usize> {
        let fleet = fleet();
        let index = LabelIndex::new(&fleet, |labels| labels);
        let selector = match Selector::parse(selector) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        };
        index.select(&selector).iter_ones().collect()
    }

    #[test]
    fn notin_matches_clusters_without_the_key() {
        assert_eq!(selected("region notin (us)"), [0, 2, 3]);
    }

    #[test]
    fn in_is_a_union_of_values() {
        assert_eq!(selected("region in (eu,us),env=prod"), [0, 1]);
    }

    #[test]
    fn exists_and_does_not_exist_use_the_key() {
        assert_eq!(selected("env"), [0, 1, 2, 3]);
        assert_eq!(selected("!region"), [3]);
    }

    #[test]
    fn gt_lt_compare_integers_and_skip_others() {
        assert_eq!(selected("version>14"), [0, 1]);
        assert_eq!(selected("version<15"), Vec::<usize>::new());
        assert_eq!(selected("version<16"), [0, 1]);
    }

    #[test]
    fn unknown_key_matches_only_negations() {
        assert_eq!(selected("zone!=a"), [0, 1, 2, 3]);
        assert_eq!(selected("zone"), Vec::<usize>::new());
        assert_eq!(selected("zone>1"), Vec::<usize>::new());
    }

    #[test]
    fn nothing_selects_nothing_and_everything_all() {
        let fleet = fleet();
        let index = LabelIndex::new(&fleet, |labels| labels);
        assert!(index.select(&Selector::nothing()).is_empty());
        assert_eq!(index.select(&Selector::everything()).count(), 4);
        assert_eq!(index.len(), 4);
    }
}
