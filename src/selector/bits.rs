//! `ClusterBits`: a fixed-size bitset over dense cluster ids `0..universe`.

/// A set of cluster ids, one bit per cluster of the fleet it was made for. Bits at or beyond
/// the universe are always clear, so `count` and `not` need no masking by callers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClusterBits {
    words: Vec<u64>,
    universe: usize,
}

impl ClusterBits {
    /// No cluster of a fleet of `universe` clusters.
    pub fn empty(universe: usize) -> ClusterBits {
        ClusterBits {
            words: vec![0; universe.div_ceil(64)],
            universe,
        }
    }

    /// Every cluster of a fleet of `universe` clusters.
    pub fn full(universe: usize) -> ClusterBits {
        let mut bits = ClusterBits {
            words: vec![u64::MAX; universe.div_ceil(64)],
            universe,
        };
        bits.clear_tail();
        bits
    }

    /// The given ids; ids outside the universe are ignored.
    pub fn from_ids(universe: usize, ids: impl IntoIterator<Item = usize>) -> ClusterBits {
        let mut bits = ClusterBits::empty(universe);
        for id in ids {
            bits.insert(id);
        }
        bits
    }

    fn clear_tail(&mut self) {
        let used = self.universe % 64;
        if used != 0 {
            if let Some(last) = self.words.last_mut() {
                *last &= (1u64 << used) - 1;
            }
        }
    }

    /// How many clusters the set is over (not how many are in it; see [`ClusterBits::count`]).
    pub fn universe(&self) -> usize {
        self.universe
    }

    /// Adds `id`; ids outside the universe are ignored.
    pub fn insert(&mut self, id: usize) {
        if id < self.universe {
            if let Some(word) = self.words.get_mut(id / 64) {
                *word |= 1u64 << (id % 64);
            }
        }
    }

    /// Takes `id` out.
    pub fn remove(&mut self, id: usize) {
        if let Some(word) = self.words.get_mut(id / 64) {
            *word &= !(1u64 << (id % 64));
        }
    }

    /// Takes every cluster out.
    pub fn clear(&mut self) {
        self.words.fill(0);
    }

    pub fn contains(&self, id: usize) -> bool {
        self.words
            .get(id / 64)
            .is_some_and(|word| word & (1u64 << (id % 64)) != 0)
    }

    /// The number of clusters in the set.
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// No cluster is in the set.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }

    /// Some cluster is in both sets.
    pub fn intersects(&self, other: &ClusterBits) -> bool {
        self.words
            .iter()
            .zip(&other.words)
            .any(|(word, theirs)| word & theirs != 0)
    }

    /// Keeps the clusters also in `other` (a cluster missing from a smaller universe is out).
    pub fn and_assign(&mut self, other: &ClusterBits) {
        // Word by word over what both have (a loop the compiler vectorizes, where a checked
        // read of `other` per word was not), then the words `other` lacks cleared.
        let shared = self.words.len().min(other.words.len());
        let (both, beyond) = self.words.split_at_mut(shared);
        for (word, theirs) in both.iter_mut().zip(&other.words) {
            *word &= theirs;
        }
        beyond.fill(0);
    }

    /// Takes the clusters of `other` out.
    pub fn and_not_assign(&mut self, other: &ClusterBits) {
        for (word, theirs) in self.words.iter_mut().zip(&other.words) {
            *word &= !theirs;
        }
    }

    /// Adds the clusters of `other` that lie in this universe.
    pub fn or_assign(&mut self, other: &ClusterBits) {
        for (word, theirs) in self.words.iter_mut().zip(&other.words) {
            *word |= theirs;
        }
        self.clear_tail();
    }

    pub fn and(&self, other: &ClusterBits) -> ClusterBits {
        let mut out = self.clone();
        out.and_assign(other);
        out
    }

    pub fn or(&self, other: &ClusterBits) -> ClusterBits {
        let mut out = self.clone();
        out.or_assign(other);
        out
    }

    /// The clusters of the universe not in the set.
    pub fn not(&self) -> ClusterBits {
        let mut out = ClusterBits {
            words: self.words.iter().map(|w| !w).collect(),
            universe: self.universe,
        };
        out.clear_tail();
        out
    }

    /// The ids in the set, ascending.
    pub fn iter_ones(&self) -> Ones<'_> {
        Ones {
            words: self.words.iter(),
            base: 0,
            rest: 0,
        }
    }
}

/// [`ClusterBits::iter_ones`]: one word at a time, a set bit per step. (A `flat_map` over the
/// words made the listing of 15k feasible clusters per placement a visible part of planning.)
pub struct Ones<'a> {
    words: std::slice::Iter<'a, u64>,
    /// The id one past the current word's last bit (64 × the words taken so far).
    base: usize,
    /// The current word's bits not yet returned.
    rest: u64,
}

impl Iterator for Ones<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.rest == 0 {
            self.rest = *self.words.next()?;
            self.base += 64;
        }
        let bit = self.rest.trailing_zeros() as usize;
        self.rest &= self.rest - 1;
        Some(self.base - 64 + bit)
    }

    /// A word at a time, its bits in a tight loop: listing 15k feasible clusters through
    /// `next` paid a branch per bit on whether the word was spent.
    fn fold<B, F: FnMut(B, usize) -> B>(self, init: B, mut f: F) -> B {
        let mut fold_word = |mut acc: B, base: usize, mut rest: u64| {
            while rest != 0 {
                acc = f(acc, base + rest.trailing_zeros() as usize);
                rest &= rest - 1;
            }
            acc
        };
        let mut acc = fold_word(init, self.base.saturating_sub(64), self.rest);
        for (at, &word) in self.words.enumerate() {
            acc = fold_word(acc, self.base + 64 * at, word);
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ones_come_in_order_across_empty_and_full_words() {
        let ids = [0, 63, 64, 191, 192, 255, 300];
        let bits = ClusterBits::from_ids(301, ids);
        assert_eq!(bits.iter_ones().collect::<Vec<_>>(), ids);
        let mut folded = Vec::new();
        bits.iter_ones().for_each(|id| folded.push(id));
        assert_eq!(folded, ids);
        // Folding what is left after some steps, mid-word and at a word's end.
        for taken in 0..ids.len() {
            let mut ones = bits.iter_ones();
            let mut seen: Vec<usize> = ones.by_ref().take(taken).collect();
            ones.for_each(|id| seen.push(id));
            assert_eq!(seen, ids, "after {taken}");
        }
        assert_eq!(ClusterBits::empty(200).iter_ones().next(), None);
    }

    #[test]
    fn full_has_exactly_the_universe() {
        for n in [0, 1, 63, 64, 65, 130] {
            let full = ClusterBits::full(n);
            assert_eq!(full.count(), n);
            assert_eq!(
                full.iter_ones().collect::<Vec<_>>(),
                (0..n).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn not_stays_inside_the_universe() {
        let bits = ClusterBits::from_ids(70, [0, 69]);
        let not = bits.not();
        assert_eq!(not.count(), 68);
        assert!(!not.contains(0) && !not.contains(69) && !not.contains(70));
    }

    #[test]
    fn and_or_combine() {
        let a = ClusterBits::from_ids(100, [1, 2, 64, 99]);
        let b = ClusterBits::from_ids(100, [2, 64, 65]);
        assert_eq!(a.and(&b).iter_ones().collect::<Vec<_>>(), [2, 64]);
        assert_eq!(a.or(&b).iter_ones().collect::<Vec<_>>(), [1, 2, 64, 65, 99]);
        assert!(a.intersects(&b));
        assert!(!a.intersects(&ClusterBits::from_ids(100, [0, 3, 65, 98])));
        assert!(!a.intersects(&ClusterBits::empty(100)));
    }

    #[test]
    fn ids_outside_the_universe_are_ignored() {
        let bits = ClusterBits::from_ids(3, [5, 64, 2]);
        assert_eq!(bits.iter_ones().collect::<Vec<_>>(), [2]);
        assert!(!bits.contains(5));
        assert!(!ClusterBits::empty(3).contains(usize::MAX));
    }

    #[test]
    fn and_keeps_what_both_have_and_drops_what_a_smaller_universe_lacks() {
        let mut bits = ClusterBits::from_ids(300, [1, 64, 130, 299]);
        bits.and_assign(&ClusterBits::from_ids(300, [1, 130, 200]));
        assert_eq!(bits.iter_ones().collect::<Vec<_>>(), [1, 130]);
        let mut bits = ClusterBits::from_ids(300, [1, 64, 130, 299]);
        bits.and_assign(&ClusterBits::full(100));
        assert_eq!(bits.iter_ones().collect::<Vec<_>>(), [1, 64]);
    }

    #[test]
    fn empty_set_is_empty() {
        assert!(ClusterBits::empty(10).is_empty());
        assert!(!ClusterBits::full(10).is_empty());
        assert!(ClusterBits::full(0).is_empty());
    }
}
