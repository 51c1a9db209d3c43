//! `sortClusters` (`core/spreadconstraint/util.go`) with the available-replicas comparison:
//! overflow order ascending, score descending, available replicas descending, then name (by
//! its rank in the fleet: no string compares).
//!
//! Every feasible cluster of every binding is sorted (~2,800 per workload at 10k clusters):
//! comparing 64-byte details on a four-part key was a quarter of a Karmada run's
//! instructions. The four parts fit one `u128` for every value the scheduler produces, so the
//! keys are sorted alone, by radix, and the details put in their order afterwards.

use std::cmp::Reverse;

use super::ClusterDetail;

/// Sorts `clusters` in `sortClusters`' order. A total order (ranks are unique), so an
/// unstable sort gives the same result.
pub(crate) fn sort_clusters(clusters: &mut Vec<ClusterDetail<'_>>) {
    let mut keys = Vec::with_capacity(clusters.len());
    for (place, cluster) in clusters.iter().enumerate() {
        match packed_key(cluster, place) {
            Some(key) => keys.push(key),
            None => {
                clusters.sort_unstable_by_key(full_key);
                return;
            }
        }
    }
    // The place (the last four bytes) never decides: the rank before it is unique.
    radix_sort(&mut keys, 4);
    // Gathered into a new list that replaces the old: copying it back would move the
    // ~180 KB of details once more.
    *clusters = keys
        .iter()
        .map(|&key| clusters[key as u32 as usize])
        .collect();
}

/// The four-part key itself, for a fleet whose values do not fit the packed one.
fn full_key(cluster: &ClusterDetail) -> (i64, Reverse<i64>, Reverse<i64>, u32) {
    (
        cluster.overflow_order,
        Reverse(cluster.score),
        Reverse(cluster.available),
        cluster.rank,
    )
}

/// Sorts `keys` by their bytes but the `skip` least significant ones, a byte at a time from
/// the least significant, skipping the bytes every key shares: the overflow order and score
/// are mostly one value, and the available replicas and the rank use a few low bytes each, so
/// a few linear passes replace ~12 comparisons a key.
fn radix_sort(keys: &mut Vec<u128>, skip: usize) {
    let (shared_ones, any_ones) = keys
        .iter()
        .fold((u128::MAX, 0), |(all, any), &key| (all & key, any | key));
    let varying = (shared_ones ^ any_ones).to_le_bytes();
    let mut scratch = keys.clone();
    for (at, _) in varying
        .iter()
        .enumerate()
        .skip(skip)
        .filter(|(_, bits)| **bits != 0)
    {
        let byte = |key: u128| usize::from(key.to_le_bytes()[at]);
        let mut next = [0usize; 256];
        for &key in keys.iter() {
            next[byte(key)] += 1;
        }
        let mut start = 0;
        for slot in &mut next {
            let count = *slot;
            *slot = start;
            start += count;
        }
        for &key in keys.iter() {
            let slot = &mut next[byte(key)];
            scratch[*slot] = key;
            *slot += 1;
        }
        std::mem::swap(keys, &mut scratch);
    }
}

/// The sort key of the cluster at `place` as one integer, most significant part first: the
/// overflow order in 24 bits, 255 − score in 8, the available replicas descending in 32, the
/// rank in 32, and last `place`, which the rank already orders (ranks are unique) and which
/// finds the cluster again. `None` when a part does not fit (an overflow order is a term's
/// place in its affinity list or 1000, a score 0 or 100, available replicas an int32 estimate
/// plus the int32 replicas a binding has: never in practice), and the four-part comparison
/// decides.
fn packed_key(cluster: &ClusterDetail, place: usize) -> Option<u128> {
    let overflow_order = u32::try_from(cluster.overflow_order)
        .ok()
        .filter(|order| *order < 1 << 24)?;
    let score = u8::try_from(cluster.score).ok()?;
    // i32 → u32 keeping the order (flip the sign bit), then reversed for descending.
    let available = !((i32::try_from(cluster.available).ok()? as u32) ^ (1 << 31));
    let place = u32::try_from(place).ok()?;
    Some(
        u128::from(overflow_order) << 104
            | u128::from(u8::MAX - score) << 96
            | u128::from(available) << 64
            | u128::from(cluster.rank) << 32
            | u128::from(place),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detail(
        rank: u32,
        overflow_order: i64,
        score: i64,
        available: i64,
    ) -> ClusterDetail<'static> {
        ClusterDetail {
            index: rank as usize * 7 % 11,
            name: "",
            rank,
            score,
            overflow_order,
            available,
            allocatable: available,
        }
    }

    /// The order by upstream's `Less`, transcribed comparison by comparison rather than
    /// through `full_key`, so that a slip in the key (a part in the wrong place or direction)
    /// shows in the fallback path too. The rank stands for the name.
    fn reference(clusters: &[ClusterDetail<'static>]) -> Vec<u32> {
        let less = |a: &ClusterDetail, b: &ClusterDetail| {
            if a.overflow_order != b.overflow_order {
                return a.overflow_order < b.overflow_order;
            }
            if a.score != b.score {
                return a.score > b.score;
            }
            if a.available != b.available {
                return a.available > b.available;
            }
            a.rank < b.rank
        };
        let mut sorted = clusters.to_vec();
        sorted.sort_by(|a, b| {
            if less(a, b) {
                std::cmp::Ordering::Less
            } else if less(b, a) {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        });
        sorted.iter().map(|cluster| cluster.rank).collect()
    }

    fn sorted(mut clusters: Vec<ClusterDetail<'static>>) -> Vec<u32> {
        sort_clusters(&mut clusters);
        clusters.iter().map(|cluster| cluster.rank).collect()
    }

    #[test]
    fn overflow_order_first_then_score_then_available_replicas_then_name() {
        let clusters = vec![
            detail(0, 1, 100, 50),
            detail(1, 0, 0, 3),
            detail(2, 0, 100, 1),
            detail(3, 0, 0, 3),
            detail(4, 0, 0, 9),
            detail(5, 1000, 100, 9),
        ];
        assert_eq!(sorted(clusters.clone()), [2, 4, 1, 3, 0, 5]);
        assert_eq!(sorted(clusters.clone()), reference(&clusters));
    }

    #[test]
    fn available_replicas_compare_as_signed_integers_across_their_range() {
        let int32 = [i32::MIN, -5, -1, 0, 1, 2, 256, i32::MAX].map(i64::from);
        let int64 = [i64::MIN, -1, 0, i64::from(i32::MAX) + 1, i64::MAX];
        for values in [&int32[..], &int64[..]] {
            let clusters: Vec<_> = values
                .iter()
                .rev()
                .enumerate()
                .map(|(rank, &available)| detail(rank as u32 * 3 % 8, 0, 0, available))
                .collect();
            assert_eq!(sorted(clusters.clone()), reference(&clusters));
        }
    }

    #[test]
    fn a_large_mixed_fleet_sorts_as_the_full_comparison_does() {
        // A fixed pseudo-random mix: every byte of the key varies somewhere.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let clusters: Vec<_> = (0..3000u32)
            .map(|i| {
                let rank = i * 1_000_003 % 3001;
                let overflow_order = [0, 1, 1000][next() as usize % 3];
                let score = [0, 100][next() as usize % 2];
                let available = match next() % 4 {
                    0 => (next() % 8) as i64,
                    1 => i64::from(next() as i32),
                    _ => (next() % 70_000) as i64 - 5,
                };
                detail(rank, overflow_order, score, available)
            })
            .collect();
        assert_eq!(sorted(clusters.clone()), reference(&clusters));
    }

    #[test]
    fn values_outside_the_packed_key_sort_by_the_full_comparison() {
        for (overflow_order, score) in [(1 << 24, 0), (-1, 0), (0, 256), (0, -100)] {
            let clusters = vec![
                detail(3, 0, 0, 1),
                detail(2, overflow_order, score, 5),
                detail(1, 0, 100, 1),
                detail(0, 0, 0, 1),
            ];
            assert_eq!(sorted(clusters.clone()), reference(&clusters));
        }
    }
}
