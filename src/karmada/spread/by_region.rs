//! `select_clusters_by_region.go` and the region half of `group_clusters.go`.

use std::collections::BTreeMap;

use crate::karmada::model::{Placement, SpreadConstraint, SpreadField};

use super::select_groups::{select_groups, Group};
use super::{sort_clusters, ClusterDetail, SelectError, Selection};

/// `weightUnit`.
const WEIGHT_UNIT: i64 = 1000;

/// A region as the selection saw it, for `explain`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionGroup {
    pub name: String,
    pub clusters: Vec<String>,
    /// `calcGroupScore`.
    pub weight: i64,
}

pub(super) fn select<'a>(
    placement: &Placement,
    region: &SpreadConstraint,
    cluster: Option<&SpreadConstraint>,
    feasible: Vec<ClusterDetail<'a>>,
    region_of: impl Fn(usize) -> &'a str,
    replicas: i64,
) -> Result<(Vec<ClusterDetail<'a>>, Selection), (SelectError, Selection)> {
    // Regions keep the clusters in the sorted order; clusters without a region are left out.
    let mut regions: BTreeMap<&str, Vec<ClusterDetail>> = BTreeMap::new();
    for detail in &feasible {
        let name = region_of(detail.index);
        if !name.is_empty() {
            regions.entry(name).or_default().push(*detail);
        }
    }
    let cluster_min = cluster.map_or(0, |constraint| constraint.min_groups);
    let cluster_max = cluster.map_or(0, |constraint| constraint.max_groups);
    let described: Vec<RegionGroup> = regions
        .iter()
        .map(|(name, clusters)| RegionGroup {
            name: name.to_string(),
            clusters: clusters.iter().map(|c| c.name.to_string()).collect(),
            weight: group_score(placement, clusters, replicas, region.min_groups),
        })
        .collect();
    let selection = |chosen: Vec<String>| Selection::ByRegion {
        groups: described.clone(),
        chosen,
    };
    if (regions.len() as i64) < region.min_groups {
        return Err((
            SelectError(
                "the number of feasible region is less than spreadConstraint.MinGroups".to_string(),
            ),
            selection(Vec::new()),
        ));
    }
    let mut groups: Vec<Group> = described
        .iter()
        .map(|group| Group {
            name: group.name.clone(),
            value: group.clusters.len() as i64,
            weight: group.weight,
        })
        .collect();
    let chosen = select_groups(
        &mut groups,
        region.min_groups,
        region.max_groups,
        cluster_min,
    );
    let chosen: Vec<String> = chosen.iter().map(|&g| groups[g].name.clone()).collect();
    if chosen.is_empty() {
        return Err((
            SelectError(
                "the number of clusters is less than the cluster spreadConstraint.MinGroups"
                    .to_string(),
            ),
            selection(chosen),
        ));
    }
    let mut selected = Vec::new();
    let mut candidates = Vec::new();
    for name in &chosen {
        let mut clusters = regions
            .get(name.as_str())
            .cloned()
            .unwrap_or_default()
            .into_iter();
        selected.extend(clusters.next());
        candidates.extend(clusters);
    }
    let need = (candidates.len() + selected.len())
        .min(usize::try_from(cluster_max.max(0)).unwrap_or(usize::MAX));
    if need > selected.len() {
        sort_clusters(&mut candidates);
        let rest = need - selected.len();
        selected.extend(candidates.into_iter().take(rest));
    }
    Ok((selected, selection(chosen)))
}

/// `calcGroupScore`.
fn group_score(
    placement: &Placement,
    clusters: &[ClusterDetail],
    replicas: i64,
    min_groups: i64,
) -> i64 {
    if !placement.divided() {
        return duplicated_group_score(clusters, replicas);
    }
    let target = (replicas as f64 / min_groups as f64).ceil() as i64;
    // The last cluster constraint's minGroups, at least the region's.
    let cluster_min = placement
        .spread_constraints
        .iter()
        .filter(|constraint| constraint.field == Some(SpreadField::Cluster))
        .map(|constraint| constraint.min_groups)
        .next_back()
        .unwrap_or(0)
        .max(min_groups);
    let (mut sum_available, mut sum_score, mut taken) = (0i64, 0i64, 0i64);
    for cluster in clusters {
        sum_available += cluster.available;
        sum_score += cluster.score;
        taken += 1;
        if taken >= cluster_min && sum_available >= target {
            break;
        }
    }
    if sum_available < target {
        return sum_available * WEIGHT_UNIT + sum_score / clusters.len() as i64;
    }
    target * WEIGHT_UNIT + sum_score / taken
}

/// `calcGroupScoreForDuplicate`.
fn duplicated_group_score(clusters: &[ClusterDetail], replicas: i64) -> i64 {
    let valid: Vec<&ClusterDetail> = clusters
        .iter()
        .filter(|cluster| cluster.available >= replicas)
        .collect();
    if valid.is_empty() {
        return 0;
    }
    let count = valid.len() as i64;
    count * WEIGHT_UNIT + valid.iter().map(|cluster| cluster.score).sum::<i64>() / count
}
