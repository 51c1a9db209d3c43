//! A map kept as one vector sorted by key, for the few entries each of a cluster's labels,
//! claims, resources and conditions holds.
//!
//! A `BTreeMap` allocates a node of eleven entries for its first: a cluster's two or three
//! resource amounts and its one condition took three such nodes (~1.7 KB) where their
//! entries need ~200 bytes, and its labels and claims two more (~0.8 KB); a 100k-cluster
//! fleet faulted in and zeroed 170 MB and more for them.
//! Look-ups are a binary search; iteration is in key order, as a `BTreeMap`'s is.

use std::borrow::Borrow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};

/// Entries sorted by key, no key twice.
#[derive(Clone, PartialEq, Eq)]
pub struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap {
            entries: Vec::new(),
        }
    }
}

impl<K: Ord, V> VecMap<K, V> {
    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries
            .binary_search_by(|(entry, _)| entry.borrow().cmp(key))
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        let at = self.find(key).ok()?;
        self.entries.get(at).map(|(_, value)| value)
    }

    /// Sets `key` to `value`, returning the value it replaces (a later entry wins, as in a
    /// `BTreeMap`).
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(at) => self
                .entries
                .get_mut(at)
                .map(|(_, old)| std::mem::replace(old, value)),
            Err(at) => {
                self.entries.insert(at, (key, value));
                None
            }
        }
    }

    /// The value of `key`, inserted from `value` when there is none.
    pub fn get_or_insert_with(&mut self, key: K, value: impl FnOnce() -> V) -> &mut V {
        let at = match self.find(&key) {
            Ok(at) => at,
            Err(at) => {
                self.entries.insert(at, (key, value()));
                at
            }
        };
        &mut self.entries[at].1
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&K, &V)> {
        self.entries.iter().map(|(key, value)| (key, value))
    }

    pub fn keys(&self) -> impl ExactSizeIterator<Item = &K> {
        self.entries.iter().map(|(key, _)| key)
    }
}

impl<K: Ord, V> VecMap<K, V> {
    /// The map of `entries` in any order, a later entry winning over an earlier one with its
    /// key: sorted once, so a hostile mapping of 100k keys stays `n log n`.
    fn from_entries(mut entries: Vec<(K, V)>) -> Self {
        if !entries.is_sorted_by(|(a, _), (b, _)| a < b) {
            // Stable: entries with one key stay in input order, and the last one is kept.
            entries.sort_by(|(a, _), (b, _)| a.cmp(b));
            entries.dedup_by(|later, earlier| {
                let same = later.0 == earlier.0;
                if same {
                    std::mem::swap(&mut later.1, &mut earlier.1);
                }
                same
            });
        }
        VecMap { entries }
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Self {
        VecMap::from_entries(pairs.into_iter().collect())
    }
}

impl<'a, K, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(key, value)| (key, value))
    }
}

impl<K: Serialize, V: Serialize> Serialize for VecMap<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self)
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for VecMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(key, value)| (key, value)))
            .finish()
    }
}

/// Read from a mapping as a `BTreeMap` is, refused in its words ("expected a map").
impl<'de, K: Ord + Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for VecMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(Entries(PhantomData))
    }
}

struct Entries<K, V>(PhantomData<(K, V)>);

impl<'de, K: Ord + Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for Entries<K, V> {
    type Value = VecMap<K, V>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let mut entries = Vec::with_capacity(access.size_hint().unwrap_or(0).min(64));
        while let Some(entry) = access.next_entry()? {
            entries.push(entry);
        }
        Ok(VecMap::from_entries(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    proptest! {
        /// Inserted in any order, with keys repeated, it holds what a `BTreeMap` holds.
        #[test]
        fn it_holds_what_a_btree_map_holds(pairs in proptest::collection::vec((0u8..20, any::<u16>()), 0..40)) {
            let map: VecMap<u8, u16> = pairs.iter().copied().collect();
            let btree: BTreeMap<u8, u16> = pairs.iter().copied().collect();
            prop_assert_eq!(map.iter().collect::<Vec<_>>(), btree.iter().collect::<Vec<_>>());
            prop_assert_eq!(map.len(), btree.len());
            for key in 0..20 {
                prop_assert_eq!(map.get(&key), btree.get(&key));
            }
        }
    }

    #[test]
    fn it_reads_and_refuses_as_a_btree_map_does() {
        for text in [
            r#"{"b": "2", "a": "1"}"#,
            r#"{}"#,
            r#"7"#,
            r#"["a"]"#,
            r#"{"a": 1}"#,
            r#"{"a": "1", "a": "2"}"#,
        ] {
            let map = serde_json::from_str::<VecMap<String, String>>(text)
                .map(|map| serde_json::to_string(&map).unwrap_or_default())
                .map_err(|error| error.to_string());
            let btree = serde_json::from_str::<BTreeMap<String, String>>(text)
                .map(|map| serde_json::to_string(&map).unwrap_or_default())
                .map_err(|error| error.to_string());
            assert_eq!(map, btree, "{text}");
        }
    }

    #[test]
    fn many_keys_in_reverse_order_are_sorted_once() {
        let map: VecMap<u32, u32> = (0..100_000).rev().map(|key| (key, key)).collect();
        assert_eq!(map.len(), 100_000);
        assert!(map.iter().map(|(key, _)| *key).eq(0..100_000));
    }

    #[test]
    fn get_or_insert_with_keeps_an_existing_value() {
        let mut map: VecMap<String, i32> = [("b".to_string(), 2)].into_iter().collect();
        *map.get_or_insert_with("a".to_string(), || 1) += 10;
        *map.get_or_insert_with("b".to_string(), || 0) += 10;
        assert_eq!(
            map.iter()
                .map(|(k, v)| (k.as_str(), *v))
                .collect::<Vec<_>>(),
            [("a", 11), ("b", 12)]
        );
    }
}
