//! `LabelTable`: every label set of a fleet in one arena of `(key id, value id)` pairs, and
//! `TableSelector`: a selector whose keys and values are resolved to those ids once. Matching
//! cluster by cluster then compares a few contiguous integers; with each cluster's own map
//! (one allocation per cluster) the per-cluster matcher waited on memory at 100k clusters.
use std::collections::HashMap;

use super::conjunction::Selector;
use super::label_source::LabelSource;
use super::requirement::Operator;

/// Up to this many labels, a set is scanned instead of binary-searched.
const LINEAR_SCAN_MAX: usize = 16;

/// Key and value ids count distinct strings held in memory, far below `u32::MAX`.
type Id = u32;

/// The label sets of a fleet, in the order given (a set's position is its cluster index).
#[derive(Clone, Debug, Default)]
pub struct LabelTable {
    /// Set `i` is `pairs[starts[i]..starts[i + 1]]`, sorted by key id.
    starts: Vec<usize>,
    pairs: Vec<(Id, Id)>,
    keys: HashMap<String, Id>,
    values: HashMap<String, Id>,
    /// Each value id's text as `strconv.ParseInt(v, 10, 64)` reads it, for `gt`/`lt`.
    integers: Vec<Option<i64>>,
}

impl LabelTable {
    pub fn new<'a, L: LabelSource + 'a>(sets: impl IntoIterator<Item = &'a L>) -> LabelTable {
        let mut table = LabelTable {
            starts: vec![0],
            ..LabelTable::default()
        };
        for labels in sets {
            let start = table.pairs.len();
            for (key, value) in labels.pairs() {
                let key = intern(&mut table.keys, key);
                let id = intern(&mut table.values, value);
                if id as usize == table.integers.len() {
                    table.integers.push(value.parse::<i64>().ok());
                }
                table.pairs.push((key, id));
            }
            table.pairs[start..].sort_unstable_by_key(|&(key, _)| key);
            table.starts.push(table.pairs.len());
        }
        table
    }

    /// How many label sets the table holds.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `selector` with its keys and values as this table's ids.
    pub fn resolve(&self, selector: &Selector) -> TableSelector<'_> {
        let requirements = selector
            .requirements()
            .iter()
            .map(|requirement| {
                let ids = || -> Vec<Id> {
                    requirement
                        .values()
                        .iter()
                        .filter_map(|value| self.values.get(value.as_str()).copied())
                        .collect()
                };
                let test = match requirement.operator() {
                    Operator::In | Operator::Equals | Operator::DoubleEquals => Test::In(ids()),
                    Operator::NotIn | Operator::NotEquals => Test::NotIn(ids()),
                    Operator::Exists => Test::Exists,
                    Operator::DoesNotExist => Test::DoesNotExist,
                    Operator::GreaterThan => Test::GreaterThan(requirement.bound()),
                    Operator::LessThan => Test::LessThan(requirement.bound()),
                };
                TableRequirement {
                    key: self.keys.get(requirement.key()).copied(),
                    test,
                }
            })
            .collect();
        TableSelector {
            table: self,
            requirements,
            nothing: selector.is_nothing(),
        }
    }

    /// The value id of `key` in set `set`; a set out of range has no labels.
    fn value(&self, set: usize, key: Id) -> Option<Id> {
        let pairs = match (self.starts.get(set), self.starts.get(set + 1)) {
            (Some(&start), Some(&end)) => &self.pairs[start..end],
            _ => return None,
        };
        if pairs.len() > LINEAR_SCAN_MAX {
            return pairs
                .binary_search_by_key(&key, |&(k, _)| k)
                .ok()
                .map(|at| pairs[at].1);
        }
        pairs
            .iter()
            .find(|&&(k, _)| k == key)
            .map(|&(_, value)| value)
    }
}

/// The id of `text`, given the next free one the first time it is seen.
fn intern(ids: &mut HashMap<String, Id>, text: &str) -> Id {
    if let Some(&id) = ids.get(text) {
        return id;
    }
    let id = ids.len() as Id;
    ids.insert(text.to_string(), id);
    id
}

/// What a requirement asks of the value of its key, as ids.
#[derive(Clone, Debug)]
enum Test {
    In(Vec<Id>),
    NotIn(Vec<Id>),
    Exists,
    DoesNotExist,
    GreaterThan(i64),
    LessThan(i64),
}

#[derive(Clone, Debug)]
struct TableRequirement {
    /// `None`: no set in the table has the key.
    key: Option<Id>,
    test: Test,
}

/// A [`Selector`] resolved against one [`LabelTable`]; matches exactly as the selector does
/// (apimachinery `Selector.Matches`) on the table's sets.
#[derive(Clone, Debug)]
pub struct TableSelector<'t> {
    table: &'t LabelTable,
    requirements: Vec<TableRequirement>,
    nothing: bool,
}

impl TableSelector<'_> {
    /// Whether the selector matches the table's set `set`.
    pub fn matches(&self, set: usize) -> bool {
        !self.nothing
            && self.requirements.iter().all(|requirement| {
                let value = requirement.key.and_then(|key| self.table.value(set, key));
                match &requirement.test {
                    Test::In(ids) => value.is_some_and(|v| ids.contains(&v)),
                    Test::NotIn(ids) => value.is_none_or(|v| !ids.contains(&v)),
                    Test::Exists => value.is_some(),
                    Test::DoesNotExist => value.is_none(),
                    Test::GreaterThan(bound) => value
                        .and_then(|v| self.table.integers[v as usize])
                        .is_some_and(|v| v > *bound),
                    Test::LessThan(bound) => value
                        .and_then(|v| self.table.integers[v as usize])
                        .is_some_and(|v| v < *bound),
                }
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::labels;

    fn selects(selector: &str, sets: &[&[(&str, &str)]]) -> Vec<usize> {
        let sets: Vec<_> = sets.iter().map(|pairs| labels(pairs)).collect();
        let table = LabelTable::new(&sets);
        let selector = Selector::parse(selector).expect("valid selector");
        let resolved = table.resolve(&selector);
        (0..table.len())
            .filter(|&set| resolved.matches(set))
            .collect()
    }

    #[test]
    fn in_and_notin_compare_value_ids() {
        let fleet: &[&[(&str, &str)]] = &[&[("region", "eu")], &[("region", "us")], &[]];
        assert_eq!(selects("region in (eu,ap)", fleet), vec![0]);
        assert_eq!(selects("region notin (eu)", fleet), vec![1, 2]);
    }

    #[test]
    fn a_key_or_value_no_set_has_still_follows_the_operator() {
        let fleet: &[&[(&str, &str)]] = &[&[("region", "eu")], &[]];
        assert_eq!(selects("zone=a", fleet), Vec::<usize>::new());
        assert_eq!(selects("zone!=a", fleet), vec![0, 1]);
        assert_eq!(selects("region!=nowhere", fleet), vec![0, 1]);
        assert_eq!(selects("!zone", fleet), vec![0, 1]);
    }

    #[test]
    fn gt_and_lt_read_values_as_integers_and_skip_the_rest() {
        let fleet: &[&[(&str, &str)]] = &[&[("n", "05")], &[("n", "x")], &[("n", "-2")]];
        assert_eq!(selects("n>4", fleet), vec![0]);
        assert_eq!(selects("n<0", fleet), vec![2]);
    }

    #[test]
    fn everything_matches_every_set_and_nothing_none() {
        let sets = vec![labels(&[("a", "b")]), labels(&[])];
        let table = LabelTable::new(&sets);
        let everything = table.resolve(&Selector::everything());
        let nothing = table.resolve(&Selector::nothing());
        assert!((0..2).all(|set| everything.matches(set)));
        assert!((0..2).all(|set| !nothing.matches(set)));
    }

    #[test]
    fn sets_longer_than_a_scan_are_searched() {
        let pairs: Vec<(String, String)> = (0..40)
            .map(|i| (format!("k{i}"), format!("v{i}")))
            .collect();
        let pairs: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            selects("k33=v33,k7 in (v7)", &[&pairs, &pairs[..10]]),
            vec![0]
        );
    }
}
