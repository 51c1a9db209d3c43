//! Balance (upstream `plugins/balance`): clusters decided by fewer other placements score
//! higher. A cluster no other placement decided scores 100.

use std::collections::HashMap;

use crate::model::{Inventory, PreviousDecision};
use crate::ocm::previous::placement_decisions;

use crate::ocm::feasible::Feasible;

use super::{Context, Prioritizer, Scores, MAX_SCORE};

pub(crate) const NAME: &str = "Balance";

#[derive(Debug)]
pub(crate) struct Balance;

/// How often each cluster appears over every previous PlacementDecision, counted once per run.
pub struct Counts<'a> {
    /// Per cluster name (names not in the inventory count too: upstream's maximum runs over
    /// every decision).
    by_name: HashMap<&'a str, i64>,
    /// `by_name` by inventory index, so scoring needs no name lookup per cluster.
    by_index: Vec<i64>,
    /// `by_name` sorted by count descending, then name.
    by_count: Vec<(i64, &'a str)>,
}

impl<'a> Counts<'a> {
    pub fn new(inventory: &'a Inventory, previous: &'a [PreviousDecision]) -> Counts<'a> {
        let mut by_name: HashMap<&str, i64> = HashMap::new();
        for decision in placement_decisions(previous) {
            for cluster in &decision.clusters {
                *by_name.entry(cluster.as_str()).or_default() += 1;
            }
        }
        let mut by_count: Vec<(i64, &str)> = by_name
            .iter()
            .map(|(&name, &count)| (count, name))
            .collect();
        by_count.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        let by_index = inventory
            .clusters
            .iter()
            .map(|cluster| by_name.get(cluster.name.as_str()).copied().unwrap_or(0))
            .collect();
        Counts {
            by_name,
            by_index,
            by_count,
        }
    }

    /// The largest count of decisions by placements other than the one whose own decisions
    /// are `own` (cluster name → count).
    fn max_outside(&self, own: Option<&HashMap<&str, i64>>) -> i64 {
        let own_count = |name: &str| own.and_then(|own| own.get(name)).copied().unwrap_or(0);
        let mut max = 0;
        if let Some(own) = own {
            for name in own.keys() {
                max = max.max(self.by_name.get(name).copied().unwrap_or(0) - own_count(name));
            }
        }
        if let Some((count, _)) = self.by_count.iter().find(|(_, name)| own_count(name) == 0) {
            max = max.max(*count);
        }
        max
    }
}

impl Prioritizer for Balance {
    fn score(&self, context: &Context, clusters: &Feasible) -> Scores {
        let scheduler = context.scheduler;
        let counts = &scheduler.prioritizers.balance;
        let own = scheduler
            .previous
            .own_decisions(context.namespace, context.name);
        let max = counts.max_outside(own);
        // No other placement decided anything (a first plan): every cluster scores 100.
        if max <= 0 {
            return Scores::same(Some(MAX_SCORE));
        }
        clusters
            .list()
            .iter()
            .map(|&index| {
                let total = counts.by_index.get(index).copied().unwrap_or(0);
                let count = total - context.own.map_or(0, |own| own.count(index));
                if count <= 0 {
                    return Some(MAX_SCORE);
                }
                let usage = count as f64 / max as f64;
                // Truncated before doubling, as upstream does: 1 of 2 scores 0, 1 of 3 scores 32.
                Some(2 * ((MAX_SCORE as f64) * (0.5 - usage)) as i64)
            })
            .collect::<Vec<_>>()
            .into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ClusterIndex;
    use crate::ocm::tests::{decided, decided_by, fleet, member};
    use crate::ocm::Scheduler;

    /// Balance's score of each cluster for the placement `ns/p`.
    fn balance(clusters: &[&str], previous: &[PreviousDecision]) -> Vec<Option<i64>> {
        let inventory = fleet(clusters.iter().map(|name| member(name)).collect());
        let clusters = ClusterIndex::new(&inventory.clusters);
        let scheduler = Scheduler::new(&clusters, &inventory, previous);
        let own = scheduler.previous.own_clusters(&scheduler.fleet, "ns", "p");
        let context = Context {
            scheduler: &scheduler,
            namespace: "ns",
            name: "p",
            now: 0,
            own: own.as_ref(),
        };
        let every = Feasible::from((0..clusters.len()).collect::<Vec<_>>());
        Balance.score(&context, &every).scores.to_vec(every.len())
    }

    #[test]
    fn every_cluster_scores_100_when_no_other_placement_decided() {
        assert_eq!(balance(&["a", "b"], &[]), vec![Some(100), Some(100)]);
        assert_eq!(
            balance(&["a", "b"], &decided(&["a"])),
            vec![Some(100), Some(100)]
        );
    }

    #[test]
    fn clusters_other_placements_decided_more_score_lower() {
        let previous = [decided_by("q", &["a", "b"]), decided_by("r", &["a"])].concat();
        // a: 2 of 2 → -100; b: 1 of 2 → 0 (truncated before doubling); c: none → 100.
        assert_eq!(
            balance(&["a", "b", "c"], &previous),
            vec![Some(-100), Some(0), Some(100)]
        );
    }

    #[test]
    fn the_placements_own_decisions_do_not_count() {
        let previous = [decided(&["a"]), decided_by("q", &["a", "b"])].concat();
        // Without its own decision, a is decided once like b: both 1 of 1.
        assert_eq!(
            balance(&["a", "b"], &previous),
            vec![Some(-100), Some(-100)]
        );
    }
}
