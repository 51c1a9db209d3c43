//! Steady (upstream `plugins/steady`): clusters in this placement's previous decisions
//! score 100, others 0, so a reschedule keeps what it had.

use crate::placement::fleet::OwnClusters;

use super::MAX_SCORE;

pub const NAME: &str = "Steady";

/// Scores the clusters at the given inventory indices.
pub fn score(clusters: &[usize], own: Option<&OwnClusters>) -> Vec<Option<i64>> {
    let Some(own) = own else {
        return vec![Some(0); clusters.len()];
    };
    clusters
        .iter()
        .map(|&index| Some(if own.contains(index) { MAX_SCORE } else { 0 }))
        .collect()
}
