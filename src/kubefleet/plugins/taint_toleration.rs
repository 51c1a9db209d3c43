//! TaintToleration (`plugins/tainttoleration/filtering.go`): the first taint that no
//! toleration tolerates filters the cluster, named as Go prints a `*Taint`.

use crate::kubefleet::member_cluster::MemberCluster;
use crate::kubefleet::status::Status;
use crate::kubefleet::taint::{GoTaint, Taint, Toleration};

/// The first taint of `cluster` that none of `tolerations` tolerates.
pub fn untolerated<'c>(
    cluster: &'c MemberCluster,
    tolerations: &[Toleration],
) -> Option<&'c Taint> {
    cluster.taints.iter().find(|taint| {
        !tolerations
            .iter()
            .any(|toleration| toleration.tolerates(taint))
    })
}

pub fn filter(cluster: &MemberCluster, tolerations: &[Toleration]) -> Option<Status> {
    untolerated(cluster, tolerations)
        .map(|taint| Status::unschedulable(format!("taint {} cannot be tolerated", GoTaint(taint))))
}
