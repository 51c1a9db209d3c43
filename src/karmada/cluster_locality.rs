//! ClusterLocality (`plugins/clusterlocality`), the only score that is not always 0: 100 for a
//! cluster the binding already targets. ClusterAffinity scores 0 and nothing is normalised.

use super::Binding;

pub const NAME: &str = "ClusterLocality";

/// `framework.MaxClusterScore`.
const MAX_SCORE: i64 = 100;

pub fn score(binding: &Binding, cluster: &str) -> i64 {
    if binding.targets(cluster) {
        MAX_SCORE
    } else {
        0
    }
}
