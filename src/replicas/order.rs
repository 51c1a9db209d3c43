//! The order in which clusters are served: weight descending, then a per-workload hash so that
//! single-replica workloads do not all land on the alphabetically first cluster.

use super::trace::ClusterTrace;

const FNV_OFFSET_BASIS: u32 = 2_166_136_261;
const FNV_PRIME: u32 = 16_777_619;

/// FNV-1 (multiply, then xor; not FNV-1a) over the cluster name immediately followed by the
/// workload key, as the reference's `fnv.New32()` written with both.
pub fn fnv1_32(cluster: &str, key: &str) -> u32 {
    cluster
        .bytes()
        .chain(key.bytes())
        .fold(FNV_OFFSET_BASIS, |hash, byte| {
            hash.wrapping_mul(FNV_PRIME) ^ u32::from(byte)
        })
}

/// Indices of the clusters that take part, in serving order. The sort is stable, so exact
/// ties (same weight and hash) keep inventory order; the reference's `sort.Sort` leaves them
/// in an unspecified order.
pub fn order_clusters(clusters: &[ClusterTrace]) -> Vec<usize> {
    let mut order: Vec<usize> = clusters
        .iter()
        .enumerate()
        .filter(|(_, c)| c.hash.is_some())
        .map(|(i, _)| i)
        .collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&clusters[a], &clusters[b]);
        b.preferences
            .weight
            .cmp(&a.preferences.weight)
            .then(a.hash.cmp(&b.hash))
    });
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1_of_nothing_is_the_offset_basis() {
        assert_eq!(fnv1_32("", ""), 0x811c_9dc5);
    }

    #[test]
    fn fnv1_matches_the_published_vector() {
        // FNV-1 32 of "a" is 0x050c5d7e (FNV-1a would give 0xe40c292c).
        assert_eq!(fnv1_32("a", ""), 0x050c_5d7e);
    }

    #[test]
    fn fnv1_hashes_name_and_key_with_no_separator() {
        assert_eq!(fnv1_32("ab", "c"), fnv1_32("a", "bc"));
        assert_eq!(fnv1_32("abc", ""), fnv1_32("", "abc"));
    }
}
