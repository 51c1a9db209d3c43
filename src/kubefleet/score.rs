//! Scores and picking (`framework/score.go`, `frameworkutils.go pickTopNScoredClusters`).
//! Scores compare field by field, never summed: TopologySpreadScore, then AffinityScore,
//! then ObsoletePlacementAffinityScore. A full tie goes to the larger cluster name, because
//! `ScoredClusters.Less` breaks ties by name ascending and the pick sorts in reverse.

use std::cmp::Ordering;

use super::model::binding::BindingScore;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct ClusterScore {
    pub(crate) topology_spread: i32,
    pub(crate) affinity: i32,
    pub(crate) obsolete_placement_affinity: i32,
}

impl Ord for ClusterScore {
    /// `ClusterScore.Less`, lexicographic.
    fn cmp(&self, other: &ClusterScore) -> Ordering {
        (
            self.topology_spread,
            self.affinity,
            self.obsolete_placement_affinity,
        )
            .cmp(&(
                other.topology_spread,
                other.affinity,
                other.obsolete_placement_affinity,
            ))
    }
}

impl PartialOrd for ClusterScore {
    fn partial_cmp(&self, other: &ClusterScore) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl ClusterScore {
    /// What a binding records: the API's `priorityScore` is the topology spread score.
    pub(crate) fn binding_score(self) -> BindingScore {
        BindingScore {
            affinity_score: Some(self.affinity),
            priority_score: Some(self.topology_spread),
        }
    }
}

/// A cluster that passed every filter, with its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ScoredCluster<'c> {
    pub(crate) name: &'c str,
    pub(crate) score: ClusterScore,
}

/// What the pick sorts: a score with the cluster it belongs to.
pub(crate) trait Ranked {
    /// Best first: higher score, then the larger name (`sort.Reverse(ScoredClusters)`).
    fn best_first(&self, other: &Self) -> Ordering;
}

impl Ranked for ScoredCluster<'_> {
    fn best_first(&self, other: &ScoredCluster<'_>) -> Ordering {
        (other.score, other.name).cmp(&(self.score, self.name))
    }
}

/// A scored cluster by its position in a fleet kept in name order, where comparing positions
/// compares names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ScoredPosition {
    pub(crate) position: usize,
    pub(crate) score: ClusterScore,
}

impl Ranked for ScoredPosition {
    fn best_first(&self, other: &ScoredPosition) -> Ordering {
        (other.score, other.position).cmp(&(self.score, self.position))
    }
}

/// Best first: higher score, then the larger name (`sort.Reverse(ScoredClusters)`).
pub(crate) fn best_first<T: Ranked>(a: &T, b: &T) -> Ordering {
    a.best_first(b)
}

/// `pickTopNScoredClusters`: the best `n` and the rest, both best first. With `n == 0`
/// upstream returns before sorting, so the rest keeps its order.
pub(crate) fn pick_top_n<T: Ranked>(scored: Vec<T>, n: usize) -> (Vec<T>, Vec<T>) {
    pick_top_n_showing(scored, n, usize::MAX)
}

/// [`pick_top_n`] ordering the rest only as far as its first `shown` (the ones a status
/// lists): the ones after those follow in no particular order. (Equal elements are the same
/// cluster with the same score, so an unstable sort gives the order a stable one does.)
pub(crate) fn pick_top_n_showing<T: Ranked>(
    mut scored: Vec<T>,
    n: usize,
    shown: usize,
) -> (Vec<T>, Vec<T>) {
    if scored.is_empty() || n == 0 {
        return (Vec::new(), scored);
    }
    let ordered = n.saturating_add(shown).min(scored.len());
    if ordered < scored.len() {
        scored.select_nth_unstable_by(ordered, best_first);
    }
    scored[..ordered].sort_unstable_by(best_first);
    let rest = scored.split_off(n.min(scored.len()));
    (scored, rest)
}

#[cfg(test)]
#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn scored(name: &str, topology_spread: i32, affinity: i32) -> ScoredCluster<'_> {
        ScoredCluster {
            name,
            score: ClusterScore {
                topology_spread,
                affinity,
                obsolete_placement_affinity: 0,
            },
        }
    }

    #[test]
    fn a_topology_spread_point_beats_any_affinity_weight() {
        let (picked, _) = pick_top_n(vec![scored("a", 0, 100), scored("b", 1, -100)], 1);
        assert_eq!(picked[0].name, "b");
    }

    #[test]
    fn a_tie_goes_to_the_larger_name() {
        let (picked, rest) = pick_top_n(
            vec![scored("cluster-3", 0, 0), scored("cluster-4", 0, 0)],
            1,
        );
        assert_eq!((picked[0].name, rest[0].name), ("cluster-4", "cluster-3"));
    }

    proptest! {
        #[test]
        fn the_pick_never_exceeds_n_and_ignores_input_order(
            scores in prop::collection::vec((-2i32..3, -2i32..3), 0..12),
            n in 0usize..15,
            seed in any::<u64>(),
        ) {
            let names: Vec<String> = (0..scores.len()).map(|i| format!("c{i}")).collect();
            let clusters: Vec<ScoredCluster<'_>> = names
                .iter()
                .zip(&scores)
                .map(|(name, (t, a))| scored(name, *t, *a))
                .collect();
            let mut shuffled = clusters.clone();
            // A deterministic shuffle: rotate by the seed.
            if !shuffled.is_empty() {
                let by = (seed % shuffled.len() as u64) as usize;
                shuffled.rotate_left(by);
            }
            let (picked, rest) = pick_top_n(clusters.clone(), n);
            let (picked_again, _) = pick_top_n(shuffled, n);
            prop_assert!(picked.len() <= n);
            prop_assert_eq!(picked.len() + rest.len(), clusters.len());
            prop_assert_eq!(picked, picked_again);
        }
    }
}
