//! ClusterLocality (`plugins/clusterlocality`), the only score that is not always 0: 100 for a
//! cluster the binding already targets. ClusterAffinity scores 0 and nothing is normalised.

/// `framework.MaxClusterScore`.
const MAX_SCORE: i64 = 100;

/// The score of a cluster the binding targets (`targeted`) or not.
pub(crate) fn score(targeted: bool) -> i64 {
    if targeted {
        MAX_SCORE
    } else {
        0
    }
}
