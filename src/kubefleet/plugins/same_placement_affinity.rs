//! SamePlacementAffinity (`plugins/sameplacementaffinity`): a cluster that already has a
//! current scheduled or bound binding is left alone (neither filtered nor scored nor
//! reported), and a cluster with an obsolete binding is preferred on ties.

use crate::kubefleet::status::{Code, Status};

pub(crate) const ALREADY_SELECTED: &str =
    "resource placement has already been scheduled or bounded on the cluster";

/// `Filter`: `has_current_binding` is whether the cluster has a scheduled or bound binding of
/// the latest policy snapshot.
pub(crate) fn filter(has_current_binding: bool) -> Option<Status> {
    has_current_binding.then(|| Status::new(Code::ClusterAlreadySelected, ALREADY_SELECTED))
}

/// `Score`: the ObsoletePlacementAffinityScore, 1 with an obsolete binding.
pub(crate) fn score(has_obsolete_binding: bool) -> i32 {
    i32::from(has_obsolete_binding)
}
