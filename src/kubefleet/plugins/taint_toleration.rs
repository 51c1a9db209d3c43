//! TaintToleration (`plugins/tainttoleration/filtering.go`): the first taint that no
//! toleration tolerates filters the cluster, named as Go prints a `*Taint`.

use crate::kubefleet::member_cluster::MemberCluster;
use crate::kubefleet::status::Status;
use crate::kubefleet::taint::{GoTaint, Taint, Toleration};

/// The index of the first taint of `cluster` that none of `tolerations` tolerates.
pub fn untolerated(cluster: &MemberCluster, tolerations: &[Toleration]) -> Option<usize> {
    cluster.taints.iter().position(|taint| {
        !tolerations
            .iter()
            .any(|toleration| toleration.tolerates(taint))
    })
}

/// Upstream's reason for an untolerated taint.
pub fn reason(taint: &Taint) -> String {
    format!("taint {} cannot be tolerated", GoTaint(taint))
}

pub fn filter(cluster: &MemberCluster, tolerations: &[Toleration]) -> Option<Status> {
    untolerated(cluster, tolerations)
        .map(|index| Status::unschedulable(reason(&cluster.taints[index])))
}
