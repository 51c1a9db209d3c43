//! The order in which clusters are served: weight descending, then a per-workload hash so that
//! single-replica workloads do not all land on the alphabetically first cluster.

pub(super) const FNV_OFFSET_BASIS: u32 = 2_166_136_261;
const FNV_PRIME: u32 = 16_777_619;

#[cfg(test)]
/// FNV-1 (multiply, then xor; not FNV-1a) over the cluster name immediately followed by the
/// workload key, as the reference's `fnv.New32()` written with both.
pub(crate) fn fnv1_32(cluster: &str, key: &str) -> u32 {
    fnv1_extend(
        fnv1_extend(FNV_OFFSET_BASIS, cluster.as_bytes()),
        key.as_bytes(),
    )
}

/// Continues an FNV-1 hash over more bytes.
pub(super) fn fnv1_extend(hash: u32, bytes: &[u8]) -> u32 {
    bytes.iter().fold(hash, |hash, &byte| fnv1_step(hash, byte))
}

pub(super) fn fnv1_step(hash: u32, byte: u8) -> u32 {
    hash.wrapping_mul(FNV_PRIME) ^ u32::from(byte)
}

/// A cluster's place in the serving order as one integer, so the order is a sort of plain
/// integers: weight descending (high 64 bits), then hash ascending, then `index` (its place in
/// `available`, the low 32 bits), so exact ties keep inventory order as the stable sort over
/// (weight, hash) did; the reference's `sort.Sort` leaves them in an unspecified order.
/// `weight` is not negative; `available` never reaches 2^32 clusters (64 GiB of names alone).
pub(super) fn serving_key(weight: i64, hash: u32, index: usize) -> u128 {
    let weight_descending = i64::MAX.abs_diff(weight);
    (u128::from(weight_descending) << 64) | (u128::from(hash) << 32) | u128::from(index as u32)
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
    fn serving_keys_order_by_weight_descending_then_hash_then_index() {
        let mut keys = [
            serving_key(1, 5, 0),
            serving_key(3, 9, 1),
            serving_key(1, 2, 2),
            serving_key(1, 2, 3),
            serving_key(i64::MAX, u32::MAX, 4),
            serving_key(0, 0, 5),
        ];
        keys.sort_unstable();
        let indices: Vec<u32> = keys.iter().map(|&key| key as u32).collect();
        assert_eq!(indices, [4, 1, 2, 3, 0, 5]);
    }

    #[test]
    fn fnv1_hashes_name_and_key_with_no_separator() {
        assert_eq!(fnv1_32("ab", "c"), fnv1_32("a", "bc"));
        assert_eq!(fnv1_32("abc", ""), fnv1_32("", "abc"));
    }
}
