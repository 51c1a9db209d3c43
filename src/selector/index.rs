//! `LabelIndex`: an inverted index over a fleet's label (or claim) maps, so a selector costs a
//! few word operations per requirement instead of a map lookup per cluster.
//!
//! key → value → clusters, and key → clusters that have the key. `in` is an OR of value sets,
//! `notin` the complement of that (a missing key matches), `exists`/`!` use the key set, and
//! `gt`/`lt` take a range of the key's distinct integer values, parsed once at build time.
use std::collections::{BTreeMap, HashMap};

use super::bits::ClusterBits;
use super::conjunction::Selector;
use super::label_source::LabelSource;
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
    fn new(ids: Vec<usize>, universe: usize) -> Postings {
        if ids.len().saturating_mul(64) >= universe {
            Postings::Dense(ClusterBits::from_ids(universe, ids))
        } else {
            Postings::Sparse(ids)
        }
    }

    /// [`Postings::new`] of ids in any order: only a sparse list needs sorting.
    fn unsorted(mut ids: Vec<usize>, universe: usize) -> Postings {
        if ids.len().saturating_mul(64) < universe {
            ids.sort_unstable();
        }
        Postings::new(ids, universe)
    }

    fn or_into(&self, bits: &mut ClusterBits) {
        match self {
            Postings::Sparse(ids) => ids.iter().for_each(|&id| bits.insert(id)),
            Postings::Dense(set) => bits.or_assign(set),
        }
    }
}

#[derive(Clone, Debug)]
struct KeyIndex {
    present: Postings,
    /// Sorted by value.
    values: Vec<(String, Postings)>,
    /// `(integer, position in values)` for every value that parses as i64, sorted.
    integers: Vec<(i64, usize)>,
}

impl KeyIndex {
    fn value(&self, value: &str) -> Option<&Postings> {
        self.values
            .binary_search_by(|(v, _)| v.as_str().cmp(value))
            .ok()
            .and_then(|at| self.values.get(at))
            .map(|(_, postings)| postings)
    }
}

/// Inverted index over a fleet's label (or claim) maps, clusters numbered `0..len()` in the
/// order given.
#[derive(Clone, Debug)]
pub struct LabelIndex {
    universe: usize,
    keys: BTreeMap<String, KeyIndex>,
}

impl LabelIndex {
    pub fn new<'a, L: LabelSource + 'a>(maps: impl IntoIterator<Item = &'a L>) -> LabelIndex {
        // Hashed while collecting (100k clusters × their labels, a few hundred distinct
        // strings), sorted once per distinct key and value afterwards.
        let mut raw: HashMap<&str, HashMap<&str, Vec<usize>>> = HashMap::new();
        let mut universe = 0;
        for (id, labels) in maps.into_iter().enumerate() {
            universe = id + 1;
            for (key, value) in labels.pairs() {
                raw.entry(key)
                    .or_default()
                    .entry(value)
                    .or_default()
                    .push(id);
            }
        }
        let keys = raw
            .into_iter()
            .map(|(key, values)| {
                let present =
                    Postings::unsorted(values.values().flatten().copied().collect(), universe);
                let mut values: Vec<(&str, Vec<usize>)> = values.into_iter().collect();
                values.sort_unstable_by(|a, b| a.0.cmp(b.0));
                let values: Vec<(String, Postings)> = values
                    .into_iter()
                    .map(|(value, ids)| (value.to_string(), Postings::new(ids, universe)))
                    .collect();
                let mut integers: Vec<(i64, usize)> = values
                    .iter()
                    .enumerate()
                    .filter_map(|(at, (value, _))| value.parse::<i64>().ok().map(|n| (n, at)))
                    .collect();
                integers.sort_unstable();
                let index = KeyIndex {
                    present,
                    values,
                    integers,
                };
                (key.to_string(), index)
            })
            .collect();
        LabelIndex { universe, keys }
    }

    /// The number of clusters indexed.
    pub fn len(&self) -> usize {
        self.universe
    }

    pub fn is_empty(&self) -> bool {
        self.universe == 0
    }

    /// The clusters `selector` matches; the same answer as `Selector::matches` per cluster.
    pub fn select(&self, selector: &Selector) -> ClusterBits {
        if selector.is_nothing() {
            return ClusterBits::empty(self.universe);
        }
        let mut selected = ClusterBits::full(self.universe);
        for requirement in selector.requirements() {
            if selected.is_empty() {
                break;
            }
            selected.and_assign(&self.requirement(requirement));
        }
        selected
    }

    fn requirement(&self, requirement: &Requirement) -> ClusterBits {
        let mut bits = ClusterBits::empty(self.universe);
        let key = self.keys.get(requirement.key());
        let Some(key) = key else {
            // Nobody has the key: only the operators that accept a missing key match.
            return match requirement.operator() {
                Operator::NotIn | Operator::NotEquals | Operator::DoesNotExist => bits.not(),
                _ => bits,
            };
        };
        match requirement.operator() {
            Operator::In | Operator::Equals | Operator::DoubleEquals => {
                self.union_of_values(key, requirement, &mut bits);
                bits
            }
            Operator::NotIn | Operator::NotEquals => {
                self.union_of_values(key, requirement, &mut bits);
                bits.not()
            }
            Operator::Exists => {
                key.present.or_into(&mut bits);
                bits
            }
            Operator::DoesNotExist => {
                key.present.or_into(&mut bits);
                bits.not()
            }
            Operator::GreaterThan | Operator::LessThan => {
                let bound = requirement.bound();
                let split = key.integers.partition_point(|(n, _)| *n <= bound);
                let range = match requirement.operator() {
                    Operator::GreaterThan => key.integers.get(split..),
                    _ => key
                        .integers
                        .get(..key.integers.partition_point(|(n, _)| *n < bound)),
                };
                for (_, at) in range.into_iter().flatten() {
                    if let Some((_, postings)) = key.values.get(*at) {
                        postings.or_into(&mut bits);
                    }
                }
                bits
            }
        }
    }

    fn union_of_values(&self, key: &KeyIndex, requirement: &Requirement, bits: &mut ClusterBits) {
        for value in requirement.values() {
            if let Some(postings) = key.value(value) {
                postings.or_into(bits);
            }
        }
    }
}

#[cfg(test)]
mod tests {
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
        let index = LabelIndex::new(&fleet);
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
        let index = LabelIndex::new(&fleet);
        assert!(index.select(&Selector::nothing()).is_empty());
        assert_eq!(index.select(&Selector::everything()).count(), 4);
        assert_eq!(index.len(), 4);
    }
}
