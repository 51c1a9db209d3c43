//! What Karmada's control plane writes on a member cluster that stops answering: the Ready
//! condition (`pkg/controllers/status/cluster_status_controller.go generateReadyCondition`,
//! `pkg/controllers/cluster/cluster_controller.go monitorClusterHealth`) and the scheduling
//! taint that follows from it (`cluster_controller.go taintClusterByCondition`,
//! `pkg/util/helper/taint.go SetCurrentClusterTaints`). The scheduler has no readiness filter:
//! this taint is the only thing that keeps new workloads off the cluster.

use crate::karmada::model::{ClusterTaint, KarmadaCluster};

/// `clusterv1alpha1.TaintClusterNotReady`: added while Ready is False (or missing).
pub(crate) const NOT_READY_TAINT: &str = "cluster.karmada.io/not-ready";
/// `clusterv1alpha1.TaintClusterUnreachable`: added while Ready is Unknown.
pub(crate) const UNREACHABLE_TAINT: &str = "cluster.karmada.io/unreachable";
/// Both taints are `NoSchedule` (`*TaintTemplateForSched`): nothing is evicted by them.
const EFFECT: &str = "NoSchedule";

/// The Ready condition an unreachable member ends up with, by sync mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Unreachable {
    /// The sync mode the answer followed (`Push` for a Cluster without one).
    pub sync_mode: &'static str,
    pub status: &'static str,
    pub reason: &'static str,
    /// The taint `taintClusterByCondition` adds for that status.
    pub taint: &'static str,
    /// The taint it removes at the same time.
    pub replaces: &'static str,
}

/// A `Push` member is probed by karmada-controller-manager's cluster status controller: a
/// failed health check is `online = false`, written as `Ready=False` (`ClusterNotReachable`).
/// A `Pull` member reports through its karmada-agent; when the agent's status and lease stop,
/// the cluster controller sets `Ready=Unknown` (`ClusterStatusUnknown`) after the grace
/// period (`monitorClusterHealth` returns early for Push only, so a Cluster without a valid
/// sync mode, which the API server would not store, is treated as Push, the mode
/// `karmadactl join` registers).
pub(crate) fn unreachable(cluster: &KarmadaCluster) -> Unreachable {
    if cluster.sync_mode == "Pull" {
        Unreachable {
            sync_mode: "Pull",
            status: "Unknown",
            reason: "ClusterStatusUnknown",
            taint: UNREACHABLE_TAINT,
            replaces: NOT_READY_TAINT,
        }
    } else {
        Unreachable {
            sync_mode: "Push",
            status: "False",
            reason: "ClusterNotReachable",
            taint: NOT_READY_TAINT,
            replaces: UNREACHABLE_TAINT,
        }
    }
}

/// The member as the control plane leaves it once it is unreachable: its Ready condition
/// set, the other scheduling taint removed and this one appended unless a taint with the same
/// key and effect is already there (`Taint.MatchTaint` compares key and effect only).
pub(crate) fn mark_unreachable(cluster: &mut KarmadaCluster) -> Unreachable {
    let change = unreachable(cluster);
    cluster.ready = Some(change.status.to_string());
    let same = |taint: &ClusterTaint, key: &str| taint.key == key && taint.effect == EFFECT;
    cluster.taints.retain(|taint| !same(taint, change.replaces));
    if !cluster.taints.iter().any(|taint| same(taint, change.taint)) {
        cluster.taints.push(ClusterTaint {
            key: change.taint.to_string(),
            value: String::new(),
            effect: EFFECT.to_string(),
        });
    }
    change
}

/// The what-if flags on a Karmada Cluster, each noted in its `edits` (explain says them).
impl KarmadaCluster {
    /// `--offline`: what the control plane writes on an unreachable member.
    pub(crate) fn go_offline(&mut self) {
        let change = mark_unreachable(self);
        self.edits.push(format!(
            "--offline ({} member): Ready={} ({}), tainted {}:NoSchedule",
            change.sync_mode, change.status, change.reason, change.taint
        ));
    }

    /// `--capacity`: the estimate for every workload.
    pub(crate) fn set_capacity(&mut self, count: i64) {
        self.replica_capacity = Some(count);
        self.edits.push(format!(
            "--capacity {count}: the estimate for every workload, instead of status.resourceSummary's"
        ));
    }

    /// `--label`: set (or replace) a label.
    pub(crate) fn set_label(&mut self, key: &str, value: &str) {
        self.labels.insert(key.to_string(), value.to_string());
        self.edits.push(format!("--label {key}={value}"));
    }

    /// `--taint`, replacing a taint of the same key and effect; `text` is the flag's
    /// `key[=value]:effect`.
    pub(crate) fn add_taint(&mut self, key: &str, value: &str, effect: &str, text: &str) {
        self.taints
            .retain(|taint| !(taint.key == key && taint.effect == effect));
        self.taints.push(ClusterTaint {
            key: key.to_string(),
            value: value.to_string(),
            effect: effect.to_string(),
        });
        self.edits.push(format!("--taint {text}"));
    }
}

/// The taint effects a Karmada Cluster's taint may have, and when Karmada acts on a taint of
/// each that the what-if flags add; `None` for another effect.
pub(crate) fn when_tainted(effect: &str) -> Option<&'static str> {
    match effect {
        "NoExecute" => Some("Karmada evicts from it once the cluster is updated, when its taint manager (--enable-taint-manager, on by default) is on; karmada-scheduler places the evicted elsewhere at once, and the rest at its next rescheduling trigger (a change of the binding's placement or replicas)"),
        "NoSchedule" | "PreferNoSchedule" => Some("karmada-scheduler applies it at each binding's next rescheduling trigger (a change of its placement or replicas); a binding already on the cluster stays there until then. fleetplan plans as if triggered"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::karmada_cluster;

    fn keys(cluster: &KarmadaCluster) -> Vec<String> {
        cluster
            .taints
            .iter()
            .map(|taint| format!("{}:{}", taint.key, taint.effect))
            .collect()
    }

    /// A member of `sync_mode` with one taint `key:effect`, marked unreachable.
    fn marked(sync_mode: &str, key: &str, effect: &str) -> (KarmadaCluster, Unreachable) {
        let mut member = karmada_cluster("member")
            .sync_mode(sync_mode)
            .taint(key, effect)
            .build();
        let change = mark_unreachable(&mut member);
        (member, change)
    }

    #[test]
    fn an_unreachable_push_member_is_not_ready() {
        let (member, change) = marked("Push", "user", "NoSchedule");
        assert_eq!(change.reason, "ClusterNotReachable");
        assert_eq!(member.ready.as_deref(), Some("False"));
        assert_eq!(
            keys(&member),
            ["user:NoSchedule", "cluster.karmada.io/not-ready:NoSchedule"]
        );
    }

    #[test]
    fn an_unreachable_pull_member_is_unknown_and_loses_the_not_ready_taint() {
        let (member, _) = marked("Pull", NOT_READY_TAINT, "NoSchedule");
        assert_eq!(member.ready.as_deref(), Some("Unknown"));
        assert_eq!(keys(&member), ["cluster.karmada.io/unreachable:NoSchedule"]);
    }

    #[test]
    fn a_taint_already_there_is_not_added_twice() {
        let (member, _) = marked("Push", NOT_READY_TAINT, "NoSchedule");
        assert_eq!(keys(&member), ["cluster.karmada.io/not-ready:NoSchedule"]);
    }

    #[test]
    fn a_not_ready_taint_of_another_effect_stays_beside_the_scheduling_one() {
        let (member, _) = marked("Push", NOT_READY_TAINT, "NoExecute");
        assert_eq!(
            keys(&member),
            [
                "cluster.karmada.io/not-ready:NoExecute",
                "cluster.karmada.io/not-ready:NoSchedule"
            ]
        );
    }
}
