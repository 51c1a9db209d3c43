//! The order in which clusters are served: weight descending, then a per-workload hash so that
//! single-replica workloads do not all land on the alphabetically first cluster.

use std::cmp::Ordering;

pub const FNV_OFFSET_BASIS: u32 = 2_166_136_261;
const FNV_PRIME: u32 = 16_777_619;

/// FNV-1 (multiply, then xor; not FNV-1a) over the cluster name immediately followed by the
/// workload key, as the reference's `fnv.New32()` written with both.
pub fn fnv1_32(cluster: &str, key: &str) -> u32 {
    fnv1_extend(
        fnv1_extend(FNV_OFFSET_BASIS, cluster.as_bytes()),
        key.as_bytes(),
    )
}

/// Continues an FNV-1 hash over more bytes.
pub fn fnv1_extend(hash: u32, bytes: &[u8]) -> u32 {
    bytes.iter().fold(hash, |hash, &byte| fnv1_step(hash, byte))
}

pub fn fnv1_step(hash: u32, byte: u8) -> u32 {
    hash.wrapping_mul(FNV_PRIME) ^ u32::from(byte)
}

/// Serving order of two clusters given as (weight, hash): weight descending, then hash
/// ascending. Used with a stable sort, so exact ties keep inventory order; the reference's
/// `sort.Sort` leaves them in an unspecified order.
pub fn serving_order(a: (i64, u32), b: (i64, u32)) -> Ordering {
    b.0.cmp(&a.0).then(a.1.cmp(&b.1))
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
