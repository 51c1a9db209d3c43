//! PickFixed (`framework.go runSchedulingCycleForPickFixedPlacementType`,
//! `crossReferenceClustersWithTargetNames`): no plugin runs; each named cluster is valid
//! (it exists and is eligible), invalid, or not found.

use super::decisions::Invalid;
use super::plugins::cluster_eligibility::Ineligible;

/// The names of `clusterNames`, sorted into what the hub makes of them, in the list's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Targets<'n> {
    pub(crate) valid: Vec<&'n str>,
    pub(crate) invalid: Vec<Invalid<'n>>,
    pub(crate) not_found: Vec<&'n str>,
}

/// `eligibility(name)` is `None` for a name that is no MemberCluster, else the cluster's
/// eligibility (ClusterEligibility's `IsEligible` at `now`).
pub(crate) fn cross_reference<'n>(
    names: &'n [String],
    eligibility: impl Fn(&str) -> Option<Result<(), Ineligible>>,
) -> Targets<'n> {
    let mut targets = Targets::default();
    for name in names {
        match eligibility(name) {
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
