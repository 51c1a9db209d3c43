//! PickN's bookkeeping between cycles (`framework/frameworkutils.go`): how many clusters a
//! cycle picks, whether the hub requeues at once, and which bindings a smaller N trims.

use std::cmp::Ordering;

use super::model::binding::{Binding, BindingScore};
use super::model::policy::PlacementType;
use super::score::ClusterScore;

/// `calcNumOfClustersToSelect`: the least of the desired count, the batch limit and the
/// clusters scored.
pub(crate) fn num_to_select(desired: usize, batch_limit: usize, scored: usize) -> usize {
    desired.min(batch_limit).min(scored)
}

/// `shouldRequeue`: a plugin limited the batch and the batch was filled, so more clusters
/// may fit.
pub(crate) fn should_requeue(
    desired_batch: usize,
    batch_limit: usize,
    bindings_made: usize,
) -> bool {
    desired_batch > batch_limit && bindings_made == batch_limit
}

/// `shouldDownscale`: `Some(count)` of current bindings to trim when a PickN placement has
/// at least N of them and something to remove (obsolete bindings are always removed then).
pub(crate) fn should_downscale(
    placement_type: PlacementType,
    desired: usize,
    present: usize,
    obsolete: usize,
) -> Option<usize> {
    // Upstream's `present - desired + obsolete > 0`, which cannot overflow here.
    (placement_type == PlacementType::PickN
        && desired <= present
        && (present > desired || obsolete > 0))
        .then(|| present - desired)
}

/// `sortByClusterScoreAndName`: bindings without a score first, then the lowest score, then
/// the cluster name ascending, which is the order a downscale trims in.
pub(crate) fn trim_order(a: &Binding, b: &Binding) -> Ordering {
    let score = |binding: &Binding| binding.cluster_decision.cluster_score.map(cluster_score);
    match (score(a), score(b)) {
        (None, None) => a.target_cluster.cmp(&b.target_cluster),
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(x), Some(y)) => x
            .cmp(&y)
            .then_with(|| a.target_cluster.cmp(&b.target_cluster)),
    }
}

fn cluster_score(score: BindingScore) -> ClusterScore {
    ClusterScore {
        topology_spread: score.priority_score.unwrap_or(0),
        affinity: score.affinity_score.unwrap_or(0),
        obsolete_placement_affinity: 0,
    }
}

/// A downscale asked to trim more bindings than there are.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "received an invalid downscale count {count} (total scheduled and bound bindings: {total})"
)]
pub(crate) struct DownscaleError {
    pub(crate) count: usize,
    pub(crate) total: usize,
}

/// What a downscale keeps and what it marks Unscheduled.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Trimmed {
    pub(crate) kept_scheduled: Vec<Binding>,
    pub(crate) kept_bound: Vec<Binding>,
    pub(crate) unscheduled: Vec<Binding>,
}

/// `downscale`: trim `count` bindings, scheduled ones first (sorted only when some of them
/// stay), then bound ones in trim order.
pub(crate) fn downscale(
    mut scheduled: Vec<Binding>,
    mut bound: Vec<Binding>,
    count: usize,
) -> Result<Trimmed, DownscaleError> {
    let total = scheduled.len() + bound.len();
    if count > total {
        return Err(DownscaleError { count, total });
    }
    if count < scheduled.len() {
        scheduled.sort_by(trim_order);
        let kept_scheduled = scheduled.split_off(count);
        return Ok(Trimmed {
            kept_scheduled,
            kept_bound: bound,
            unscheduled: scheduled,
        });
    }
    let from_bound = count - scheduled.len();
    bound.sort_by(trim_order);
    let kept_bound = bound.split_off(from_bound);
    scheduled.extend(bound);
    Ok(Trimmed {
        kept_scheduled: Vec::new(),
        kept_bound,
        unscheduled: scheduled,
    })
}
