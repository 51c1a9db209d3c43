//! Scores and picking (`framework/score.go`, `frameworkutils.go pickTopNScoredClusters`).
//! Scores compare field by field, never summed: TopologySpreadScore, then AffinityScore,
//! then ObsoletePlacementAffinityScore. A full tie goes to the larger cluster name, because
//! `ScoredClusters.Less` breaks ties by name ascending and the pick sorts in reverse.

use std::cmp::Ordering;

use super::binding::BindingScore;

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

/// Best first: higher score, then the larger name (`sort.Reverse(ScoredClusters)`).
pub(crate) fn best_first(a: &ScoredCluster<'_>, b: &ScoredCluster<'_>) -> Ordering {
    (b.score, b.name).cmp(&(a.score, a.name))
}

/// `pickTopNScoredClusters`: the best `n` and the rest, both best first. With `n == 0`
/// upstream returns before sorting, so the rest keeps its order.
pub(crate) fn pick_top_n(
    mut scored: Vec<ScoredCluster<'_>>,
    n: usize,
) -> (Vec<ScoredCluster<'_>>, Vec<ScoredCluster<'_>>) {
    if scored.is_empty() || n == 0 {
        return (Vec::new(), scored);
    }
    scored.sort_by(best_first);
    let rest = scored.split_off(n.min(scored.len()));
    (scored, rest)
}

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
