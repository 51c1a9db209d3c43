//! PickFixed (`framework.go runSchedulingCycleForPickFixedPlacementType`,
//! `crossReferenceClustersWithTargetNames`): no plugin runs; each named cluster is valid
//! (it exists and is eligible), invalid, or not found.

use super::decisions::Invalid;
use super::member_cluster::MemberCluster;
use super::plugins::cluster_eligibility;

/// The names of `clusterNames`, sorted into what the hub makes of them, in the list's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Targets<'n> {
    pub valid: Vec<&'n str>,
    pub invalid: Vec<Invalid<'n>>,
    pub not_found: Vec<&'n str>,
}

pub fn cross_reference<'n, 'c>(
    names: &'n [String],
    find: impl Fn(&str) -> Option<&'c MemberCluster>,
    now: i64,
) -> Targets<'n> {
    let mut targets = Targets::default();
    for name in names {
        match find(name).map(|cluster| cluster_eligibility::check(cluster, now)) {
            None => targets.not_found.push(name),
            Some(Ok(())) => targets.valid.push(name),
            Some(Err(reason)) => targets.invalid.push(Invalid {
                cluster: name,
                reason: reason.to_string(),
            }),
        }
    }
    targets
}
