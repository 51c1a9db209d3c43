//! Steady (upstream `plugins/steady`): clusters in this placement's previous decisions
//! score 100, others 0, so a reschedule keeps what it had.

use std::collections::HashMap;

use crate::model::Cluster;

use super::MAX_SCORE;

pub const NAME: &str = "Steady";

pub fn score(clusters: &[&Cluster], own: Option<&HashMap<&str, i64>>) -> Vec<Option<i64>> {
    if own.is_none() {
        return vec![Some(0); clusters.len()];
    }
    clusters
        .iter()
        .map(|cluster| {
            let decided = own.is_some_and(|own| own.contains_key(cluster.name.as_str()));
            Some(if decided { MAX_SCORE } else { 0 })
        })
        .collect()
}
