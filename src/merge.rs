//! A merge join over two key-sorted sequences: the one primitive behind every comparison of
//! two plans, `diff`'s and each API's part of it (its fields' changes), so comparing plans
//! stays linear in their size after sorting.

use std::iter::Peekable;

/// Where a key was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side<V> {
    Previous(V),
    Current(V),
    Both(V, V),
}

impl<V> Side<V> {
    /// (previous, current), `None` on the side the key is missing from.
    pub(crate) fn sides(self) -> (Option<V>, Option<V>) {
        match self {
            Side::Previous(before) => (Some(before), None),
            Side::Current(after) => (None, Some(after)),
            Side::Both(before, after) => (Some(before), Some(after)),
        }
    }
}

/// The pairs sorted by key, every copy of a repeated key kept in the order given: [`join`]
/// pairs the first copies of a key on both sides and reports the others on their own side, so
/// a hand-edited previous plan that repeats an entry shows the extra copy removed instead of
/// hiding it (a plan never repeats one).
pub(crate) fn keyed<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> Vec<(K, V)> {
    let mut pairs: Vec<(K, V)> = pairs.into_iter().collect();
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    pairs
}

/// Walks two key-sorted sequences in key order at once. A key on both sides pairs its first
/// copies; further copies of a key come out on their own side.
pub(crate) fn join<K, V, P, C>(previous: P, current: C) -> impl Iterator<Item = (K, Side<V>)>
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

/// (added, removed), each sorted.
pub(crate) fn set_changes<'v, T: Ord + ToOwned + ?Sized + 'v>(
    previous: impl IntoIterator<Item = &'v T>,
    current: impl IntoIterator<Item = &'v T>,
) -> (Vec<T::Owned>, Vec<T::Owned>) {
    // A name listed twice is one member of the set.
    fn as_set<'v, T: Ord + ?Sized>(values: impl IntoIterator<Item = &'v T>) -> Vec<(&'v T, ())> {
        let mut set = keyed(values.into_iter().map(|value| (value, ())));
        set.dedup();
        set
    }
    let mut added = Vec::new();
    let mut removed = Vec::new();
    for (value, side) in join(as_set(previous), as_set(current)) {
        match side {
            Side::Previous(()) => removed.push(value.to_owned()),
            Side::Current(()) => added.push(value.to_owned()),
            Side::Both((), ()) => {}
        }
    }
    (added, removed)
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

    /// A repeated key pairs its first copies; the other copies are reported on their side,
    /// never dropped.
    #[test]
    fn the_copies_of_a_repeated_key_beyond_the_first_are_their_sides_own() {
        let previous = keyed([("a", 1), ("b", 2), ("a", 3)]);
        let current = keyed([("a", 10), ("c", 30), ("c", 40)]);
        let joined: Vec<_> = join(previous, current).collect();
        assert_eq!(
            joined,
            vec![
                ("a", Side::Both(1, 10)),
                ("a", Side::Previous(3)),
                ("b", Side::Previous(2)),
                ("c", Side::Current(30)),
                ("c", Side::Current(40)),
            ]
        );
    }
}
