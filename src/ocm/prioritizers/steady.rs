//! Steady (upstream `plugins/steady`): clusters in this placement's previous decisions
//! score 100, others 0, so a reschedule keeps what it had.

use crate::ocm::feasible::Feasible;

use super::{Context, Prioritizer, Scores, MAX_SCORE};

pub(crate) const NAME: &str = "Steady";

#[derive(Debug)]
pub(crate) struct Steady;

impl Prioritizer for Steady {
    fn score(&self, context: &Context, clusters: &Feasible) -> Scores {
        let Some(own) = context.own else {
            return Scores::same(Some(0));
        };
        clusters
            .list()
            .iter()
            .map(|&index| Some(if own.contains(index) { MAX_SCORE } else { 0 }))
            .collect::<Vec<_>>()
            .into()
    }
}
