//! `LabelTable`: every label set of a fleet in one arena of `(key id, label id)` pairs, a
//! label id standing for one key with one of its values; and `TableSelector`: a selector
//! whose keys and values are resolved to those ids once. Matching cluster by cluster then
//! compares a few contiguous integers; with each cluster's own map (one allocation per
//! cluster) the per-cluster matcher waited on memory at 100k clusters. The whole-fleet
//! index ([`LabelIndex`](super::LabelIndex)) is built from the same ids.
use foldhash::HashMap;

use super::conjunction::Selector;
use super::label_source::LabelSource;
use super::requirement::Operator;

/// Up to this many labels, a set is scanned instead of binary-searched; up to this many
/// values, a key's values are scanned instead of hashed.
const LINEAR_SCAN_MAX: usize = 16;

/// Fewer label sets than this per thread are not worth a thread of their own.
const SETS_PER_THREAD: usize = 8192;

/// Key and label ids count distinct strings held in memory, far below `u32::MAX`.
pub(crate) type Id = u32;

/// One distinct `key: value` of the fleet.
#[derive(Clone, Debug)]
struct Label {
    key: Id,
    value: Box<str>,
    /// The value as `strconv.ParseInt(v, 10, 64)` reads it, for `gt`/`lt`.
    integer: Option<i64>,
}

/// The label sets of a fleet, in the order given (a set's position is its cluster index).
#[derive(Clone, Debug, Default)]
pub struct LabelTable {
    /// Set `i` is `pairs[starts[i]..starts[i + 1]]`, sorted by key id.
    starts: Vec<usize>,
    pairs: Vec<(Id, Id)>,
    keys: HashMap<Box<str>, Id>,
    /// By key id: each value of the key → its label id.
    values: Vec<Values>,
    /// By label id.
    labels: Vec<Label>,
}

impl LabelTable {
    pub fn new<'a, L: LabelSource + 'a>(sets: impl IntoIterator<Item = &'a L>) -> LabelTable {
        let mut table = LabelTable {
            starts: vec![0],
            ..LabelTable::default()
        };
        // The sets of a fleet mostly have the same keys in the same order: a key is first
        // compared with the one at its place in the set before, and hashed only when it
        // differs (hashing every key of 100k clusters was half the build).
        let mut before: Vec<(&str, Id)> = Vec::new();
        let mut keys: Vec<(&str, Id)> = Vec::new();
        for labels in sets {
            let start = table.pairs.len();
            for (at, (key, value)) in labels.pairs().enumerate() {
                let key = match before.get(at) {
                    Some(&(text, id)) if text == key => (key, id),
                    _ => (key, table.intern_key(key)),
                };
                keys.push(key);
                let label = table.intern_label(key.1, value);
                table.pairs.push((key.1, label));
            }
            table.pairs[start..].sort_unstable_by_key(|&(key, _)| key);
            table.starts.push(table.pairs.len());
            std::mem::swap(&mut before, &mut keys);
            keys.clear();
        }
        table
    }

    /// [`LabelTable::new`] over `labels_of` each item, built in chunks on every core and
    /// joined in order (a 100k-cluster fleet's table was a serial step of every plan). The
    /// same table, ids and all, as one pass would build.
    pub fn build<T: Sync, L: LabelSource>(
        items: &[T],
        labels_of: impl Fn(&T) -> &L + Sync,
    ) -> LabelTable {
        let mut chunks = crate::parallel::chunks_in_order(items, SETS_PER_THREAD, |chunk| {
            LabelTable::new(chunk.iter().map(&labels_of))
        })
        .into_iter();
        let mut table = chunks.next().unwrap_or_else(|| LabelTable {
            starts: vec![0],
            ..LabelTable::default()
        });
        for chunk in chunks {
            table.append(chunk);
        }
        table
    }

    /// Appends `other`'s sets. Ids are given in the order keys and labels are first seen,
    /// so interning `other`'s keys and labels in its own id order gives each the id that
    /// building on through `other`'s sets would have given it.
    fn append(&mut self, other: LabelTable) {
        let mut key_names: Vec<&str> = vec![""; other.key_count()];
        for (name, &id) in &other.keys {
            key_names[id as usize] = name;
        }
        let keys: Vec<Id> = key_names.iter().map(|name| self.intern_key(name)).collect();
        let labels: Vec<Id> = other
            .labels
            .iter()
            .map(|label| self.intern_label(keys[label.key as usize], &label.value))
            .collect();
        for set in 0..other.len() {
            let start = self.pairs.len();
            self.pairs.extend(
                other
                    .set(set)
                    .iter()
                    .map(|&(key, label)| (keys[key as usize], labels[label as usize])),
            );
            self.pairs[start..].sort_unstable_by_key(|&(key, _)| key);
            self.starts.push(self.pairs.len());
        }
    }

    /// The id of `key`, given the next free one the first time it is seen.
    fn intern_key(&mut self, key: &str) -> Id {
        if let Some(&id) = self.keys.get(key) {
            return id;
        }
        let id = self.values.len() as Id;
        self.keys.insert(key.into(), id);
        self.values.push(Values::Few(Vec::new()));
        id
    }

    /// The label id of `key: value`, given the next free one the first time it is seen.
    fn intern_label(&mut self, key: Id, value: &str) -> Id {
        let values = &mut self.values[key as usize];
        if let Some(id) = values.get(value) {
            return id;
        }
        let id = self.labels.len() as Id;
        values.insert(value, id);
        self.labels.push(Label {
            key,
            value: value.into(),
            integer: value.parse::<i64>().ok(),
        });
        id
    }

    /// How many label sets the table holds.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many distinct keys the sets have: key ids are `0..key_count()`.
    pub(crate) fn key_count(&self) -> usize {
        self.values.len()
    }

    /// How many distinct `key: value` labels the sets have: label ids are `0..label_count()`.
    pub(crate) fn label_count(&self) -> usize {
        self.labels.len()
    }

    pub(crate) fn key_id(&self, key: &str) -> Option<Id> {
        self.keys.get(key).copied()
    }

    /// The label id of `value` under key `key`, if some set has it.
    pub(crate) fn label_id(&self, key: Id, value: &str) -> Option<Id> {
        self.values[key as usize].get(value)
    }

    /// The key of a label.
    pub(crate) fn key_of(&self, label: Id) -> Id {
        self.labels[label as usize].key
    }

    /// A label's value as an integer, when it is one.
    pub(crate) fn integer(&self, label: Id) -> Option<i64> {
        self.labels[label as usize].integer
    }

    /// Set `set`'s `(key id, label id)` pairs, sorted by key id; a set out of range has none.
    pub(crate) fn set(&self, set: usize) -> &[(Id, Id)] {
        match (self.starts.get(set), self.starts.get(set + 1)) {
            (Some(&start), Some(&end)) => &self.pairs[start..end],
            _ => &[],
        }
    }

    /// `selector` with its keys and values as this table's ids.
    pub fn resolve(&self, selector: Selector) -> TableSelector<'_> {
        let requirements = selector
            .requirements()
            .iter()
            .map(|requirement| {
                let key = self.key_id(requirement.key());
                let ids = || -> Vec<Id> {
                    key.map(|key| {
                        requirement
                            .values()
                            .iter()
                            .filter_map(|value| self.label_id(key, value))
                            .collect()
                    })
                    .unwrap_or_default()
                };
                let test = match requirement.operator() {
                    Operator::In | Operator::Equals | Operator::DoubleEquals => Test::In(ids()),
                    Operator::NotIn | Operator::NotEquals => Test::NotIn(ids()),
                    Operator::Exists => Test::Exists,
                    Operator::DoesNotExist => Test::DoesNotExist,
                    Operator::GreaterThan => Test::GreaterThan(requirement.bound()),
                    Operator::LessThan => Test::LessThan(requirement.bound()),
                };
                TableRequirement { key, test }
            })
            .collect();
        TableSelector {
            table: self,
            requirements,
            selector,
        }
    }

    /// The label id of `key` in set `set`.
    pub(crate) fn label(&self, set: usize, key: Id) -> Option<Id> {
        let pairs = self.set(set);
        if pairs.len() > LINEAR_SCAN_MAX {
            return pairs
                .binary_search_by_key(&key, |&(k, _)| k)
                .ok()
                .map(|at| pairs[at].1);
        }
        pairs
            .iter()
            .find(|&&(k, _)| k == key)
            .map(|&(_, label)| label)
    }
}

/// One key's values → their label ids. Most keys of a fleet have a handful of values
/// (region, env, provider), found by a scan that compares lengths first; a key with many
/// (one per cluster) is hashed.
#[derive(Clone, Debug)]
enum Values {
    Few(Vec<(Box<str>, Id)>),
    Many(HashMap<Box<str>, Id>),
}

impl Values {
    fn get(&self, value: &str) -> Option<Id> {
        match self {
            Values::Few(few) => few
                .iter()
                .find(|(text, _)| **text == *value)
                .map(|&(_, id)| id),
            Values::Many(many) => many.get(value).copied(),
        }
    }

    fn insert(&mut self, value: &str, id: Id) {
        match self {
            Values::Few(few) if few.len() < LINEAR_SCAN_MAX => few.push((value.into(), id)),
            Values::Few(few) => {
                let mut many: HashMap<Box<str>, Id> = std::mem::take(few).into_iter().collect();
                many.insert(value.into(), id);
                *self = Values::Many(many);
            }
            Values::Many(many) => {
                many.insert(value.into(), id);
            }
        }
    }
}

/// What a requirement asks of the label its key has, as ids.
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
/// (apimachinery `Selector.Matches`) on the table's sets, and says why it does not in the
/// selector's own words.
#[derive(Clone, Debug)]
pub struct TableSelector<'t> {
    table: &'t LabelTable,
    /// Aligned with `selector.requirements()`.
    requirements: Vec<TableRequirement>,
    selector: Selector,
}

impl TableSelector<'_> {
    /// Whether the selector matches the table's set `set`.
    pub fn matches(&self, set: usize) -> bool {
        !self.selector.is_nothing()
            && self.requirements.iter().all(|requirement| {
                let label = requirement.key.and_then(|key| self.table.label(set, key));
                match &requirement.test {
                    Test::In(ids) => label.is_some_and(|l| ids.contains(&l)),
                    Test::NotIn(ids) => label.is_none_or(|l| !ids.contains(&l)),
                    Test::Exists => label.is_some(),
                    Test::DoesNotExist => label.is_none(),
                    Test::GreaterThan(bound) => label
                        .and_then(|l| self.table.integer(l))
                        .is_some_and(|v| v > *bound),
                    Test::LessThan(bound) => label
                        .and_then(|l| self.table.integer(l))
                        .is_some_and(|v| v < *bound),
                }
            })
    }

    /// Why the selector does not match set `set`, as [`Selector::first_mismatch`] says it
    /// of the same labels; `None` when it matches.
    pub fn first_mismatch(&self, set: usize) -> Option<String> {
        self.selector.first_mismatch_of(|at| {
            let key = self.requirements[at].key?;
            let label = self.table.label(set, key)?;
            Some(&*self.table.labels[label as usize].value)
        })
    }

    /// The selector this was resolved from.
    pub fn selector(&self) -> &Selector {
        &self.selector
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
        let resolved = table.resolve(selector);
        (0..table.len())
            .filter(|&set| resolved.matches(set))
            .collect()
    }

    /// Everything a table holds, ids included, in a comparable form.
    fn contents(table: &LabelTable) -> impl PartialEq + std::fmt::Debug {
        let labels: Vec<(Id, String, Option<i64>)> = table
            .labels
            .iter()
            .map(|label| (label.key, label.value.to_string(), label.integer))
            .collect();
        let keys: std::collections::BTreeMap<String, Id> = table
            .keys
            .iter()
            .map(|(name, &id)| (name.to_string(), id))
            .collect();
        (table.starts.clone(), table.pairs.clone(), labels, keys)
    }

    /// A table built in chunks and joined has the ids of a one-pass build, whatever the
    /// chunks first see: keys in another order, values and keys new to the later chunk, a
    /// key with more values than a scan holds.
    #[test]
    fn chunks_joined_are_the_one_pass_table() {
        let sets: Vec<_> = (0..200)
            .map(|i| {
                let mut pairs = vec![("region", ["eu", "us", "ap"][i % 3])];
                if i >= 70 {
                    pairs.push(("zone", ["a", "b"][i % 2]));
                }
                if i % 7 == 0 {
                    pairs.push(("aaa-first", "1"));
                }
                let id = format!("{}", i % 40);
                let mut set = labels(&pairs);
                set.insert("id".into(), id);
                set
            })
            .collect();
        let whole = LabelTable::new(&sets);
        for cut in [0, 1, 69, 70, 71, 150, 200] {
            let mut joined = LabelTable::new(&sets[..cut]);
            joined.append(LabelTable::new(&sets[cut..]));
            assert_eq!(contents(&joined), contents(&whole), "cut at {cut}");
        }
        assert_eq!(
            contents(&LabelTable::build(&sets, |set| set)),
            contents(&whole)
        );
    }

    #[test]
    fn in_and_notin_compare_label_ids() {
        let fleet: &[&[(&str, &str)]] = &[&[("region", "eu")], &[("region", "us")], &[]];
        assert_eq!(selects("region in (eu,ap)", fleet), vec![0]);
        assert_eq!(selects("region notin (eu)", fleet), vec![1, 2]);
    }

    #[test]
    fn a_value_is_told_apart_by_its_key() {
        let fleet: &[&[(&str, &str)]] = &[&[("region", "eu")], &[("zone", "eu")]];
        assert_eq!(selects("zone=eu", fleet), vec![1]);
        assert_eq!(selects("region!=eu", fleet), vec![1]);
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
        let everything = table.resolve(Selector::everything());
        let nothing = table.resolve(Selector::nothing());
        assert!((0..2).all(|set| everything.matches(set)));
        assert!((0..2).all(|set| !nothing.matches(set)));
    }

    #[test]
    fn first_mismatch_reads_the_value_from_the_table() {
        let sets = vec![labels(&[("region", "eu"), ("n", "x")]), labels(&[])];
        let table = LabelTable::new(&sets);
        let selector = Selector::parse("region in (us),n>3").expect("valid selector");
        let resolved = table.resolve(selector.clone());
        for (set, labels) in sets.iter().enumerate() {
            assert_eq!(
                resolved.first_mismatch(set),
                selector.first_mismatch(labels)
            );
        }
        assert_eq!(
            resolved.first_mismatch(0).as_deref(),
            Some(r#"n: got "x", wanted an integer > 3"#)
        );
        assert_eq!(
            resolved.first_mismatch(1).as_deref(),
            Some("n: key missing")
        );
    }

    #[test]
    fn a_key_with_more_values_than_a_scan_finds_each() {
        let values: Vec<String> = (0..40).map(|i| format!("v{i}")).collect();
        let sets: Vec<Vec<(&str, &str)>> = values
            .iter()
            .map(|value| vec![("name", value.as_str()), ("env", "prod")])
            .collect();
        let sets: Vec<&[(&str, &str)]> = sets.iter().map(Vec::as_slice).collect();
        assert_eq!(selects("name in (v3,v33)", &sets), vec![3, 33]);
        assert_eq!(selects("name=v39,env=prod", &sets), vec![39]);
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
