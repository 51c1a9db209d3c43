//! `MemberCluster` (cluster.kubernetes-fleet.io v1 and v1beta1; the fields the scheduler
//! reads are the same in both): labels, taints, reported properties and resource usage, the
//! member agent's status and heartbeat, and the namespaces a cluster reports.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::taint::Taint;
use super::wire::{quantity_text, resource_list, time, Metadata};

/// A member cluster as the scheduler sees it.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(from = "Wire")]
pub(crate) struct MemberCluster {
    pub(crate) name: String,
    pub(crate) labels: BTreeMap<String, String>,
    /// Unix seconds; a cluster with a deletion timestamp is leaving the fleet.
    pub(crate) deletion_timestamp: Option<i64>,
    pub(crate) taints: Vec<Taint>,
    /// `status.properties[name].value`, as reported (parsed only when a policy reads it).
    pub(crate) properties: BTreeMap<String, String>,
    pub(crate) resource_usage: ResourceUsage,
    pub(crate) agent_status: Vec<AgentStatus>,
    /// `status.conditions` (only `NamespaceCollectionSucceeded` is read, by NamespaceAffinity).
    pub(crate) conditions: Vec<Condition>,
    /// `status.namespaces`: namespace → the work that collected it; `None` when absent.
    pub(crate) namespaces: Option<BTreeMap<String, String>>,
    /// The what-if flags that changed this cluster, as `explain` says them.
    pub(crate) edits: Vec<String>,
}

/// `status.resourceUsage`: resource name → quantity text.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ResourceUsage {
    #[serde(default, deserialize_with = "resource_list")]
    pub(crate) capacity: BTreeMap<String, String>,
    #[serde(default, deserialize_with = "resource_list")]
    pub(crate) allocatable: BTreeMap<String, String>,
    #[serde(default, deserialize_with = "resource_list")]
    pub(crate) available: BTreeMap<String, String>,
}

/// One agent's entry in `status.agentStatus`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AgentStatus {
    #[serde(rename = "type", default)]
    pub(crate) agent_type: String,
    #[serde(default)]
    pub(crate) conditions: Vec<Condition>,
    #[serde(default, deserialize_with = "time")]
    pub(crate) last_received_heartbeat: Option<i64>,
}

/// A `metav1.Condition` as far as eligibility reads it.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Condition {
    #[serde(rename = "type", default)]
    pub(crate) condition_type: String,
    #[serde(default)]
    pub(crate) status: String,
    #[serde(default, deserialize_with = "time")]
    pub(crate) last_transition_time: Option<i64>,
}

impl MemberCluster {
    /// The first `status.agentStatus` entry of `type`, as upstream's `GetAgentStatus` finds it.
    pub(crate) fn agent(&self, agent_type: &str) -> Option<&AgentStatus> {
        self.agent_status
            .iter()
            .find(|agent| agent.agent_type == agent_type)
    }

    /// Whether `status.conditions` has a condition of `condition_type`, whatever its status.
    pub(crate) fn has_condition(&self, condition_type: &str) -> bool {
        self.conditions
            .iter()
            .any(|condition| condition.condition_type == condition_type)
    }
}

impl AgentStatus {
    pub(crate) fn condition(&self, condition_type: &str) -> Option<&Condition> {
        self.conditions
            .iter()
            .find(|condition| condition.condition_type == condition_type)
    }
}

/// The agent whose status eligibility reads.
pub(crate) const MEMBER_AGENT: &str = "MemberAgent";

/// When the upstream controllers act on a `--taint` of a MemberCluster (`explain` says it).
pub(crate) const WHEN_TAINTED: &str = "the KubeFleet scheduler keeps a current binding on the cluster and filters it out of new bindings from its next cycle (a MemberCluster change requeues every placement)";

/// The hub's heartbeat timeout (`clustereligibilitychecker`'s default), in seconds.
const HEARTBEAT_TIMEOUT_SECONDS: i64 = 5 * 60;

impl MemberCluster {
    /// `--offline`: the member agent stopped reporting, as the hub sees it once the heartbeat
    /// timeout has passed: its last heartbeat a second beyond the timeout before `now` (an
    /// older one is kept), and a member agent status made if it had none.
    pub(crate) fn go_offline(&mut self, now: i64) {
        let stale = now.saturating_sub(HEARTBEAT_TIMEOUT_SECONDS + 1);
        match self
            .agent_status
            .iter_mut()
            .find(|agent| agent.agent_type == MEMBER_AGENT)
        {
            Some(agent) => {
                let last = agent
                    .last_received_heartbeat
                    .map_or(stale, |last| last.min(stale));
                agent.last_received_heartbeat = Some(last);
            }
            None => self.agent_status.push(AgentStatus {
                agent_type: MEMBER_AGENT.to_string(),
                conditions: Vec::new(),
                last_received_heartbeat: Some(stale),
            }),
        }
        self.edits
            .push("--offline: the member agent's last heartbeat is over 5 minutes old".to_string());
    }

    /// `--label`: set (or replace) a label.
    pub(crate) fn set_label(&mut self, key: &str, value: &str) {
        self.labels.insert(key.to_string(), value.to_string());
        self.edits.push(format!("--label {key}={value}"));
    }

    /// `--taint KEY[=VALUE]:NoSchedule`, replacing a taint of the same key and effect.
    pub(crate) fn add_taint(&mut self, key: &str, value: &str, effect: &str) {
        let taint = Taint {
            key: key.to_string(),
            value: value.to_string(),
            effect: effect.to_string(),
        };
        self.taints
            .retain(|old| !(old.key == taint.key && old.effect == taint.effect));
        let text = match taint.value.as_str() {
            "" => format!("--taint {}:{}", taint.key, taint.effect),
            value => format!("--taint {}={value}:{}", taint.key, taint.effect),
        };
        self.taints.push(taint);
        self.edits.push(text);
    }
}

#[derive(Deserialize)]
struct Wire {
    #[serde(default)]
    metadata: Metadata,
    #[serde(default)]
    spec: Spec,
    #[serde(default)]
    status: Status,
}

#[derive(Default, Deserialize)]
struct Spec {
    #[serde(default)]
    taints: Option<Vec<Taint>>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Status {
    #[serde(default)]
    properties: Option<BTreeMap<String, PropertyValue>>,
    #[serde(default)]
    resource_usage: Option<ResourceUsage>,
    #[serde(default)]
    agent_status: Option<Vec<AgentStatus>>,
    #[serde(default)]
    conditions: Option<Vec<Condition>>,
    #[serde(default)]
    namespaces: Option<BTreeMap<String, String>>,
}

#[derive(Deserialize)]
struct PropertyValue {
    #[serde(default, deserialize_with = "quantity_text")]
    value: String,
}

impl From<Wire> for MemberCluster {
    fn from(wire: Wire) -> MemberCluster {
        MemberCluster {
            name: wire.metadata.name,
            labels: wire.metadata.labels,
            deletion_timestamp: wire.metadata.deletion_timestamp,
            taints: wire.spec.taints.unwrap_or_default(),
            properties: wire
                .status
                .properties
                .unwrap_or_default()
                .into_iter()
                .map(|(name, property)| (name, property.value))
                .collect(),
            resource_usage: wire.status.resource_usage.unwrap_or_default(),
            agent_status: wire.status.agent_status.unwrap_or_default(),
            conditions: wire.status.conditions.unwrap_or_default(),
            namespaces: wire.status.namespaces,
            edits: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::kubefleet::model::wire::read;

    #[test]
    fn a_member_cluster_is_read_from_its_manifest() {
        let cluster: MemberCluster = read(&json!({
            "apiVersion": "cluster.kubernetes-fleet.io/v1",
            "kind": "MemberCluster",
            "metadata": {"name": "a", "labels": {"zone": "1"}},
            "spec": {"taints": [{"key": "k", "effect": "NoSchedule"}]},
            "status": {
                "properties": {"kubernetes-fleet.io/node-count": {"value": "4"}},
                "resourceUsage": {"available": {"cpu": 2}},
                "agentStatus": [{"type": "MemberAgent", "lastReceivedHeartbeat": "2026-06-01T12:00:00Z"}]
            }
        }))
        .unwrap_or_default();
        assert_eq!(cluster.name, "a");
        assert_eq!(cluster.taints.len(), 1);
        assert_eq!(cluster.resource_usage.available["cpu"], "2");
        assert_eq!(
            cluster
                .agent("MemberAgent")
                .and_then(|agent| agent.last_received_heartbeat),
            Some(1_780_315_200)
        );
    }

    #[test]
    fn a_bad_time_names_its_field() {
        let error = read::<MemberCluster>(&json!({
            "metadata": {"name": "a"},
            "status": {"agentStatus": [{"type": "MemberAgent", "lastReceivedHeartbeat": "yesterday"}]}
        }))
        .err();
        assert_eq!(
            error.map(|error| error.path),
            Some("status.agentStatus[0].lastReceivedHeartbeat".to_string())
        );
    }
}
