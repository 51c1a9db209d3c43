//! Steady (upstream `plugins/steady`): clusters in this placement's previous decisions
//! score 100, others 0, so a reschedule keeps what it had.

use std::collections::HashMap;

use super::MAX_SCORE;

pub const NAME: &str = "Steady";

/// Scores clusters by name; the names are read only after a previous plan.
pub fn score<'n>(
    names: impl ExactSizeIterator<Item = &'n str>,
    own: Option<&HashMap<&str, i64>>,
) -> Vec<Option<i64>> {
    let Some(own) = own else {
        return vec![Some(0); names.len()];
    };
    names
        .map(|name| Some(if own.contains_key(name) { MAX_SCORE } else { 0 }))
        .collect()
}
