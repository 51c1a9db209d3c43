//! TaintToleration (`plugins/tainttoleration/filtering.go`): the first taint that no
//! toleration tolerates filters the cluster, named as Go prints a `*Taint`.

use crate::kubefleet::model::member_cluster::MemberCluster;
use crate::kubefleet::model::taint::{GoTaint, Taint, Toleration};

/// The index of the first taint of `cluster` that none of `tolerations` tolerates.
pub(crate) fn untolerated(cluster: &MemberCluster, tolerations: &[Toleration]) -> Option<usize> {
    cluster.taints.iter().position(|taint| {
        !tolerations
            .iter()
            .any(|toleration| toleration.tolerates(taint))
    })
}

/// Upstream's reason for an untolerated taint.
pub(crate) fn reason(taint: &Taint) -> String {
    format!("taint {} cannot be tolerated", GoTaint(taint))
}

pub(crate) fn filter(
    cluster: &MemberCluster,
    tolerations: &[Toleration],
) -> Option<crate::kubefleet::status::Status> {
    untolerated(cluster, tolerations).map(|index| {
        crate::kubefleet::status::Status::unschedulable(reason(&cluster.taints[index]))
    })
}
