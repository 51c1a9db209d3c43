//! `select_clusters_by_cluster.go`: a `cluster` spread constraint alone.

use crate::karmada::model::SpreadConstraint;

use super::{ClusterDetail, SelectError, Selection};

pub(super) fn select<'a>(
    constraint: &SpreadConstraint,
    mut clusters: Vec<ClusterDetail<'a>>,
    need_replicas: Option<i64>,
) -> Result<(Vec<ClusterDetail<'a>>, Selection), (SelectError, Selection)> {
    let selection = |need, swaps| Selection::ByCluster {
        min_groups: constraint.min_groups,
        max_groups: constraint.max_groups,
        need,
        swaps,
    };
    let total = clusters.len();
    if (total as i64) < constraint.min_groups {
        return Err((
            SelectError(
                "the number of feasible clusters is less than spreadConstraint.MinGroups"
                    .to_string(),
            ),
            selection(0, Vec::new()),
        ));
    }
    // maxGroups is not defaulted: 0 selects nothing.
    let need = usize::try_from(constraint.max_groups.max(0))
        .unwrap_or(usize::MAX)
        .min(total);
    let Some(need_replicas) = need_replicas else {
        clusters.truncate(need);
        return Ok((clusters, selection(need, Vec::new())));
    };
    let swaps = by_available_resource(&mut clusters, need, need_replicas);
    // An empty choice is an error even when nothing was needed (upstream tests the length).
    if need == 0 || !enough(&clusters[..need], need_replicas) {
        return Err((
            SelectError(format!("no enough resource when selecting {need} clusters")),
            selection(need, swaps),
        ));
    }
    clusters.truncate(need);
    Ok((clusters, selection(need, swaps)))
}

/// `selectClustersByAvailableResource`: while the first `need` clusters lack replicas, walk
/// them from the last, swapping each with the untaken cluster of the largest available
/// replicas strictly above its own.
fn by_available_resource(
    clusters: &mut [ClusterDetail<'_>],
    need: usize,
    need_replicas: i64,
) -> Vec<(String, String)> {
    let mut swaps = Vec::new();
    let mut position = need;
    while position > 0 && !enough(&clusters[..need], need_replicas) {
        position -= 1;
        let own = clusters[position].available;
        let mut best: Option<usize> = None;
        let mut best_available = own;
        for (offset, candidate) in clusters[need..].iter().enumerate() {
            if best_available < candidate.available {
                best = Some(need + offset);
                best_available = candidate.available;
            }
        }
        if let Some(best) = best {
            swaps.push((
                clusters[position].name.to_string(),
                clusters[best].name.to_string(),
            ));
            clusters.swap(position, best);
        }
    }
    swaps
}

fn enough(clusters: &[ClusterDetail<'_>], need_replicas: i64) -> bool {
    clusters
        .iter()
        .map(|cluster| cluster.available)
        .sum::<i64>()
        >= need_replicas
}
