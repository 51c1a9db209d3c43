//! Cluster selection (`core/common.go SelectClusters`, `core/spreadconstraint/`): the feasible
//! clusters, sorted, and the spread constraints that pick among them.

mod by_cluster;
mod by_region;
mod order;
mod select_groups;

use crate::karmada::model::{DivisionPreference, Placement, SpreadField};

pub(crate) use by_region::RegionGroup;
pub(crate) use order::sort_clusters;

/// `spreadconstraint.ClusterDetailInfo` of a feasible cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClusterDetail<'a> {
    /// Index into the scheduled fleet's clusters.
    pub index: usize,
    pub name: &'a str,
    /// The cluster's place in the fleet's name order: compares as `name` does.
    pub rank: u32,
    pub score: i64,
    pub overflow_order: i64,
    /// The estimate plus the replicas the binding already has there.
    pub available: i64,
    /// The estimate alone.
    pub allocatable: i64,
}

/// How the spread constraints chose, for `explain`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Every feasible cluster, with why the constraints did not apply.
    All { why: &'static str },
    /// `selectBestClustersByCluster`.
    ByCluster {
        min_groups: i64,
        max_groups: i64,
        need: usize,
        /// (taken out, put in) swaps made to reach the replicas.
        swaps: Vec<(String, String)>,
    },
    /// `selectBestClustersByRegion`.
    ByRegion {
        groups: Vec<RegionGroup>,
        chosen: Vec<String>,
    },
}

/// A selection failure (`failed to select clusters: ...` upstream).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SelectError(pub String);

/// `SelectBestClusters`: `feasible` must already be sorted with [`sort_clusters`].
pub(crate) fn select_best_clusters<'a>(
    placement: &Placement,
    feasible: Vec<ClusterDetail<'a>>,
    fleet_regions: impl Fn(usize) -> &'a str,
    replicas: i64,
) -> Result<(Vec<ClusterDetail<'a>>, Selection), (SelectError, Selection)> {
    let constraints = &placement.spread_constraints;
    if constraints.is_empty() {
        return Ok((
            feasible,
            Selection::All {
                why: "no spread constraints",
            },
        ));
    }
    if ignores_spread_constraints(placement) {
        return Ok((
            feasible,
            Selection::All {
                why: "spread constraints are ignored for static weights",
            },
        ));
    }
    // Duplicated (or no replicaScheduling): capacity is not checked.
    let need_replicas = placement.divided().then_some(replicas);
    // Later constraints of one field replace earlier ones (a map keyed by field upstream).
    let by_field = |field: SpreadField| {
        constraints
            .iter()
            .rev()
            .find(|constraint| constraint.field.as_ref() == Some(&field))
    };
    if let Some(region) = by_field(SpreadField::Region) {
        let cluster = by_field(SpreadField::Cluster);
        return by_region::select(
            placement,
            region,
            cluster,
            feasible,
            fleet_regions,
            replicas,
        );
    }
    if let Some(cluster) = by_field(SpreadField::Cluster) {
        return by_cluster::select(cluster, feasible, need_replicas);
    }
    Err((
        SelectError("just support cluster and region spread constraint".to_string()),
        Selection::All {
            why: "only provider, zone or label spread constraints",
        },
    ))
}

/// `shouldIgnoreSpreadConstraint`: Divided + Weighted with no weight preference, or with static
/// weights and no dynamic weight.
pub(crate) fn ignores_spread_constraints(placement: &Placement) -> bool {
    let Some(strategy) = &placement.replica_scheduling else {
        return false;
    };
    if !placement.divided() || strategy.division != Some(DivisionPreference::Weighted) {
        return false;
    }
    match &strategy.weight_preference {
        None => true,
        Some(preference) => {
            !preference.static_weights.is_empty() && preference.dynamic_weight.is_empty()
        }
    }
}
