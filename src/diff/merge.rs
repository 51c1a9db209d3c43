//! A merge join over two key-sorted sequences: the one primitive behind every comparison in
//! `diff`, so comparing plans stays linear in their size after sorting.

use std::collections::BTreeMap;
use std::iter::Peekable;

/// Where a key was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Side<V> {
    Previous(V),
    Current(V),
    Both(V, V),
}

/// Collects pairs by key; the first of duplicate keys wins, so a hand-edited previous plan that
/// repeats an entry still compares deterministically.
pub(super) fn keyed<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    for (key, value) in pairs {
        map.entry(key).or_insert(value);
    }
    map
}

/// Walks two key-sorted, duplicate-free sequences (a `BTreeMap` or its `iter()`) in key order
/// at once.
pub(super) fn join<K, V, P, C>(previous: P, current: C) -> impl Iterator<Item = (K, Side<V>)>
where
    K: Ord,
    P: IntoIterator<Item = (K, V)>,
    C: IntoIterator<Item = (K, V)>,
{
    Join {
        previous: previous.into_iter().peekable(),
        current: current.into_iter().peekable(),
    }
}

struct Join<P: Iterator, C: Iterator> {
    previous: Peekable<P>,
    current: Peekable<C>,
}

impl<K, V, P, C> Iterator for Join<P, C>
where
    K: Ord,
    P: Iterator<Item = (K, V)>,
    C: Iterator<Item = (K, V)>,
{
    type Item = (K, Side<V>);

    fn next(&mut self) -> Option<Self::Item> {
        let order = match (self.previous.peek(), self.current.peek()) {
            (None, None) => return None,
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some((previous, _)), Some((current, _))) => previous.cmp(current),
        };
        match order {
            std::cmp::Ordering::Less => {
                let (key, value) = self.previous.next()?;
                Some((key, Side::Previous(value)))
            }
            std::cmp::Ordering::Greater => {
                let (key, value) = self.current.next()?;
                Some((key, Side::Current(value)))
            }
            std::cmp::Ordering::Equal => {
                let (key, previous) = self.previous.next()?;
                let (_, current) = self.current.next()?;
                Some((key, Side::Both(previous, current)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_visits_every_key_once_in_order() {
        let previous = keyed([("a", 1), ("c", 3)]);
        let current = keyed([("b", 20), ("c", 30)]);
        let joined: Vec<_> = join(previous, current).collect();
        assert_eq!(
            joined,
            vec![
                ("a", Side::Previous(1)),
                ("b", Side::Current(20)),
                ("c", Side::Both(3, 30)),
            ]
        );
    }

    #[test]
    fn keyed_keeps_the_first_of_duplicate_keys() {
        let map = keyed([("a", 1), ("a", 2)]);
        assert_eq!(map.get("a"), Some(&1));
    }
}
