//! Balance (upstream `plugins/balance`): clusters decided by fewer other placements score
//! higher. A cluster no other placement decided scores 100.

use crate::placement::fleet::BalanceCounts;

use super::MAX_SCORE;

pub const NAME: &str = "Balance";

/// Scores the clusters at the given inventory indices.
pub fn score(clusters: &[usize], counts: &BalanceCounts) -> Vec<Option<i64>> {
    // No other placement decided anything (a first plan): every cluster scores 100.
    if counts.max <= 0 {
        return vec![Some(MAX_SCORE); clusters.len()];
    }
    clusters
        .iter()
        .map(|&index| {
            let count = counts.count(index);
            if count <= 0 {
                return Some(MAX_SCORE);
            }
            let usage = count as f64 / counts.max as f64;
            // Truncated before doubling, as upstream does: 1 of 2 scores 0, 1 of 3 scores 32.
            Some(2 * ((MAX_SCORE as f64) * (0.5 - usage)) as i64)
        })
        .collect()
}
