//! Selection (upstream `selectClusters`): the first `numberOfClusters` of the score order,
//! with spread rules applied while walking it.

use std::collections::HashMap;

use crate::model::Cluster;
use crate::ocm::model::placement::PlacementSpec;

use super::spread::{Block, SpreadRules};

pub(crate) struct Selection {
    /// Positions in the score order, ascending.
    pub selected: Vec<usize>,
    /// Positions kept out by a spread rule.
    pub blocked: HashMap<usize, Block>,
}

/// Walks `ranked` (score order) taking clusters until `limit`. With spread rules every step
/// takes the best-ranked cluster that all rules admit: after each take the walk restarts at
/// the first cluster not taken, because the take may have lifted a domain's minimum and
/// admitted a better-ranked cluster refused before. Then it fills up, in the same way, with
/// clusters only the ScheduleAnyway rules refused.
pub(crate) fn select<'s>(
    ranked: &[&'s Cluster],
    limit: usize,
    mut spread: SpreadRules<'s>,
) -> Selection {
    if spread.is_empty() {
        return Selection {
            selected: (0..ranked.len().min(limit)).collect(),
            blocked: HashMap::new(),
        };
    }
    let mut taken = vec![false; ranked.len()];
    let mut count = 0;
    let mut blocked = HashMap::new();
    // Whether the preferred walk alone reached the limit: then the ScheduleAnyway rules
    // decided who is out; otherwise the fill-up ran and only the hard rules did.
    let mut soft_rules_decided = false;
    for preferred in [true, false] {
        if !preferred {
            soft_rules_decided = count >= limit;
        }
        // The first position not taken yet: where every walk restarts.
        let mut start = 0;
        let mut position = 0;
        while count < limit {
            let Some(cluster) = ranked.get(position) else {
                break;
            };
            if taken[position] {
                position += 1;
                continue;
            }
            match spread.admit(cluster, preferred) {
                Ok(()) => {
                    spread.take(cluster);
                    taken[position] = true;
                    blocked.remove(&position);
                    count += 1;
                    while taken.get(start) == Some(&true) {
                        start += 1;
                    }
                    position = start;
                }
                Err(block) => {
                    blocked.insert(position, block);
                    position += 1;
                }
            }
        }
    }
    // A refusal recorded before the last takes may be stale: a cluster the deciding rules
    // admit now was left out by the limit, not by spread.
    let refused: Vec<usize> = blocked.keys().copied().collect();
    for position in refused {
        match ranked
            .get(position)
            .map(|c| spread.admit(c, soft_rules_decided))
        {
            Some(Err(block)) => blocked.insert(position, block),
            _ => blocked.remove(&position),
        };
    }
    Selection {
        selected: (0..ranked.len())
            .filter(|&position| taken[position])
            .collect(),
        blocked,
    }
}

/// The seed's v1alpha1 "Evaluate a cluster predicate" (Workflow 2) and "Placement
/// Reconciliation" (Workflow 1): each predicate picks on its own from the clusters it matches
/// (`matches(predicate, position)`), its previous clusters first, up to its
/// `numberOfClusters` (all when unset); the placement selects the union, then the
/// anti-affinity (and spread) rules drop clusters from it in score order.
///
/// The seed picks "random" clusters beyond the previous ones; fleetplan takes them in the
/// score order (total descending, then name) instead, so a plan is reproducible.
///
/// Returns the selection and the unscheduled count: the sum over predicates of how many
/// clusters each found fewer than its `numberOfClusters` (the seed's `PlacementSatisfied`).
pub(crate) fn per_predicate<'s>(
    ranked: &[&'s Cluster],
    counts: &[Option<i32>],
    matches: impl Fn(usize, usize) -> bool,
    previous: impl Fn(usize) -> bool,
    spec: &'s PlacementSpec,
) -> (Selection, i64) {
    let mut chosen = vec![false; ranked.len()];
    let mut unscheduled = 0i64;
    for (predicate, count) in counts.iter().enumerate() {
        let matched: Vec<usize> = (0..ranked.len())
            .filter(|&position| matches(predicate, position))
            .collect();
        let Some(count) = count else {
            matched.iter().for_each(|&position| chosen[position] = true);
            continue;
        };
        let wanted = usize::try_from(*count).unwrap_or(0);
        let (old, new): (Vec<usize>, Vec<usize>) =
            matched.iter().partition(|&&position| previous(position));
        let taken: Vec<usize> = old.into_iter().chain(new).take(wanted).collect();
        taken.iter().for_each(|&position| chosen[position] = true);
        unscheduled = unscheduled.saturating_add(wanted.saturating_sub(taken.len()) as i64);
    }
    let union: Vec<usize> = (0..ranked.len())
        .filter(|&position| chosen[position])
        .collect();
    let members: Vec<&Cluster> = union.iter().map(|&position| ranked[position]).collect();
    let inner = select(&members, members.len(), SpreadRules::new(spec, &members));
    let selection = Selection {
        selected: inner.selected.iter().map(|&at| union[at]).collect(),
        blocked: inner
            .blocked
            .into_iter()
            .map(|(at, block)| (union[at], block))
            .collect(),
    };
    (selection, unscheduled)
}

#[cfg(test)]
mod tests {

    use crate::ocm::model::placement::{
        AffinityTerm, PlacementSpec, SpreadConstraint, TopologyKeyType, WhenUnsatisfiable,
    };

    use super::*;
    use crate::testing::cluster;

    fn spread_spec(when: WhenUnsatisfiable) -> PlacementSpec {
        let mut spec = PlacementSpec::default();
        spec.spread_policy.spread_constraints = vec![SpreadConstraint {
            topology_key: "zone".into(),
            topology_key_type: TopologyKeyType::Label,
            max_skew: 1,
            when_unsatisfiable: when,
        }];
        spec
    }

    fn three_in_a_one_in_b() -> [Cluster; 4] {
        [
            cluster("a1").label("zone", "a").build(),
            cluster("a2").label("zone", "a").build(),
            cluster("a3").label("zone", "a").build(),
            cluster("b1").label("zone", "b").build(),
        ]
    }

    fn names(ranked: &[&Cluster], selection: &Selection) -> Vec<String> {
        selection
            .selected
            .iter()
            .map(|&position| ranked[position].name.clone())
            .collect()
    }

    #[test]
    fn without_rules_takes_the_first_limit() {
        let clusters = [
            cluster("a").build(),
            cluster("b").build(),
            cluster("c").build(),
        ];
        let ranked: Vec<&Cluster> = clusters.iter().collect();
        let spec = PlacementSpec::default();
        let selection = select(&ranked, 2, SpreadRules::new(&spec, &ranked));
        assert_eq!(names(&ranked, &selection), vec!["a", "b"]);
    }

    #[test]
    fn do_not_schedule_spreads_across_zones_in_score_order() {
        let clusters = three_in_a_one_in_b();
        let ranked: Vec<&Cluster> = clusters.iter().collect();
        let spec = spread_spec(WhenUnsatisfiable::DoNotSchedule);
        let selection = select(&ranked, 4, SpreadRules::new(&spec, &ranked));
        assert_eq!(names(&ranked, &selection), vec!["a1", "a2", "b1"]);
        let block = &selection.blocked[&2];
        assert_eq!(block.domain.as_deref(), Some("a"));
        assert_eq!(block.taken_by, vec!["a1", "a2"]);
    }

    #[test]
    fn a_refused_cluster_is_taken_before_a_worse_ranked_one_of_its_domain() {
        // a2 is refused while only `a` has a cluster; once b1 and c1 lift the minimum, the
        // next `a` cluster taken must be a2 (rank 2), not a3 (rank 5).
        let clusters = [
            cluster("a1").label("zone", "a").build(),
            cluster("a2").label("zone", "a").build(),
            cluster("b1").label("zone", "b").build(),
            cluster("c1").label("zone", "c").build(),
            cluster("a3").label("zone", "a").build(),
        ];
        let ranked: Vec<&Cluster> = clusters.iter().collect();
        let spec = spread_spec(WhenUnsatisfiable::DoNotSchedule);
        let selection = select(&ranked, 4, SpreadRules::new(&spec, &ranked));
        assert_eq!(names(&ranked, &selection), vec!["a1", "a2", "b1", "c1"]);
        assert!(selection.blocked.is_empty());
    }

    #[test]
    fn a_limit_reached_while_spreading_leaves_refused_clusters_out_by_spread() {
        // a2, a3 are refused until b1 and c1 lift the minimum; a2 then fills the last slot
        // and a3 stays refused (3 in `a` against 1 elsewhere), still by spread.
        let clusters = [
            cluster("a1").label("zone", "a").build(),
            cluster("a2").label("zone", "a").build(),
            cluster("a3").label("zone", "a").build(),
            cluster("b1").label("zone", "b").build(),
            cluster("c1").label("zone", "c").build(),
        ];
        let ranked: Vec<&Cluster> = clusters.iter().collect();
        let spec = spread_spec(WhenUnsatisfiable::ScheduleAnyway);
        let selection = select(&ranked, 4, SpreadRules::new(&spec, &ranked));
        assert_eq!(names(&ranked, &selection), vec!["a1", "a2", "b1", "c1"]);
        assert_eq!(selection.blocked.keys().collect::<Vec<_>>(), vec![&2]);
        assert_eq!(selection.blocked[&2].taken_by, vec!["a1", "a2"]);
    }

    #[test]
    fn schedule_anyway_fills_up_after_spreading() {
        let clusters = three_in_a_one_in_b();
        let ranked: Vec<&Cluster> = clusters.iter().collect();
        let spec = spread_spec(WhenUnsatisfiable::ScheduleAnyway);
        let selection = select(&ranked, 4, SpreadRules::new(&spec, &ranked));
        assert_eq!(names(&ranked, &selection), vec!["a1", "a2", "a3", "b1"]);
        assert!(selection.blocked.is_empty());
    }

    #[test]
    fn do_not_schedule_skips_clusters_without_the_key() {
        let clusters = [
            cluster("x").build(),
            cluster("a1").label("zone", "a").build(),
        ];
        let ranked: Vec<&Cluster> = clusters.iter().collect();
        let spec = spread_spec(WhenUnsatisfiable::DoNotSchedule);
        let selection = select(&ranked, 2, SpreadRules::new(&spec, &ranked));
        assert_eq!(names(&ranked, &selection), vec!["a1"]);
        assert_eq!(selection.blocked[&0].domain, None);
    }

    #[test]
    fn anti_affinity_takes_one_cluster_per_domain() {
        let clusters = [
            cluster("a1").label("zone", "a").build(),
            cluster("a2").label("zone", "a").build(),
            cluster("b1").label("zone", "b").build(),
        ];
        let ranked: Vec<&Cluster> = clusters.iter().collect();
        let spec = PlacementSpec {
            anti_affinity: vec![AffinityTerm {
                topology_key: "zone".into(),
                topology_key_type: TopologyKeyType::Label,
            }],
            ..PlacementSpec::default()
        };
        let selection = select(&ranked, 3, SpreadRules::new(&spec, &ranked));
        assert_eq!(names(&ranked, &selection), vec!["a1", "b1"]);
        assert_eq!(selection.blocked[&1].taken_by, vec!["a1"]);
        assert!(selection.blocked[&1].rule.contains("anti-affinity"));
    }
}
