//! Fixture builders shared by the unit tests: a test names what matters to it and nothing
//! else (`cluster("a").label("env", "prod").offline().build()`). Clusters first (OCM, then
//! Karmada members), then selectors, then plans. The CLI tests have theirs in `tests/cli/common.rs`.

use std::collections::BTreeMap;

use crate::karmada::model::{ClusterTaint, KarmadaCluster};
use crate::model::{
    Cluster, ConditionStatus, LabelSelectorRequirementSpec, Quantity, Taint, TaintEffect,
};
use crate::plan::{Condition, ObjectRef, Plan, PlanItem};
use crate::registry::DecisionGroup;
use crate::registry::{BindingScore, ClusterOverrides, KubeFleetFields, Stage};
use crate::selector::{Operator, Requirement};

/// An online cluster named `name`, with no labels, claims, taints or resources.
pub(crate) fn cluster(name: &str) -> ClusterBuilder {
    ClusterBuilder(Cluster {
        name: name.to_string(),
        online: true,
        ..Cluster::default()
    })
}

pub(crate) struct ClusterBuilder(Cluster);

impl ClusterBuilder {
    pub(crate) fn label(mut self, key: &str, value: &str) -> ClusterBuilder {
        self.0.labels.insert(key.into(), value.into());
        self
    }

    pub(crate) fn labels<'a>(
        self,
        pairs: impl IntoIterator<Item = &'a (&'a str, &'a str)>,
    ) -> Self {
        pairs
            .into_iter()
            .fold(self, |built, (key, value)| built.label(key, value))
    }

    /// A ClusterClaim (`status.clusterClaims[]`).
    pub(crate) fn claim(mut self, name: &str, value: &str) -> ClusterBuilder {
        self.0.claims.insert(name.into(), value.into());
        self
    }

    /// A status condition: `kind` (`Ready`, `ManagedClusterConditionAvailable`) → `status`.
    pub(crate) fn condition(mut self, kind: &str, status: &str) -> ClusterBuilder {
        self.0.conditions.insert(kind.into(), status.into());
        self
    }

    pub(crate) fn conditions<'a>(
        self,
        pairs: impl IntoIterator<Item = &'a (&'a str, &'a str)>,
    ) -> Self {
        pairs
            .into_iter()
            .fold(self, |built, (kind, status)| built.condition(kind, status))
    }

    pub(crate) fn offline(mut self) -> ClusterBuilder {
        self.0.online = false;
        self
    }

    pub(crate) fn taint(mut self, key: &str, value: &str, effect: TaintEffect) -> ClusterBuilder {
        self.0.taints.push(Taint {
            key: key.into(),
            value: value.into(),
            effect,
            time_added: None,
        });
        self
    }

    /// `status.allocatable[resource]`, a whole or fractional amount (`2.5` cpu).
    pub(crate) fn allocatable(mut self, resource: &str, amount: f64) -> ClusterBuilder {
        let quantity = Quantity {
            text: amount.to_string(),
            value: amount,
        };
        self.0.allocatable.insert(resource.into(), quantity);
        self
    }

    pub(crate) fn build(self) -> Cluster {
        self.0
    }
}

/// A Karmada member cluster named `name`, Ready, with no labels, location or taints.
pub(crate) fn karmada_cluster(name: &str) -> KarmadaClusterBuilder {
    KarmadaClusterBuilder(KarmadaCluster {
        name: name.to_string(),
        ready: Some("True".to_string()),
        ..KarmadaCluster::default()
    })
}

pub(crate) struct KarmadaClusterBuilder(KarmadaCluster);

impl KarmadaClusterBuilder {
    pub(crate) fn label(mut self, key: &str, value: &str) -> KarmadaClusterBuilder {
        self.0.labels.insert(key.into(), value.into());
        self
    }

    /// `spec.provider`, `spec.region` and `spec.zones`.
    pub(crate) fn location(mut self, provider: &str, region: &str, zones: &[&str]) -> Self {
        self.0.provider = provider.into();
        self.0.region = region.into();
        self.0.zones = zones.iter().map(|zone| zone.to_string()).collect();
        self
    }

    /// `spec.syncMode`: `Push` or `Pull`.
    pub(crate) fn sync_mode(mut self, mode: &str) -> KarmadaClusterBuilder {
        self.0.sync_mode = mode.into();
        self
    }

    pub(crate) fn taint(mut self, key: &str, effect: &str) -> KarmadaClusterBuilder {
        self.0.taints.push(ClusterTaint {
            key: key.into(),
            value: String::new(),
            effect: effect.into(),
        });
        self
    }

    pub(crate) fn build(self) -> KarmadaCluster {
        self.0
    }
}

/// A plain label map (workload metadata, selector tests).
pub(crate) fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// A requirement the test knows to be valid.
pub(crate) fn req(key: &str, op: Operator, values: &[&str]) -> Requirement {
    match Requirement::new(key, op, values.iter().map(|v| v.to_string()).collect()) {
        Ok(r) => r,
        Err(e) => panic!("requirement {key} {op} {values:?}: {e}"),
    }
}

/// A `matchExpressions` entry as a manifest spells it.
pub(crate) fn expr(key: &str, operator: &str, values: &[&str]) -> LabelSelectorRequirementSpec {
    LabelSelectorRequirementSpec {
        key: key.to_string(),
        operator: operator.to_string(),
        values: values.iter().map(|v| v.to_string()).collect(),
    }
}

/// A plan item's identity.
pub(crate) fn source(
    api_version: &str,
    kind: &str,
    namespace: Option<&str>,
    name: &str,
) -> ObjectRef {
    ObjectRef {
        api_version: api_version.to_string(),
        kind: kind.to_string(),
        namespace: namespace.map(str::to_string),
        name: name.to_string(),
    }
}

/// A workload of `object` read at `source` that asks for placement by annotation alone (one
/// replica, no preferences): for tests where only its identity and source count.
pub(crate) fn annotated(object: ObjectRef, source: crate::model::Source) -> crate::model::Workload {
    crate::model::Workload {
        object,
        source,
        cluster_selector: None,
        labels: BTreeMap::new(),
        namespace_omitted: false,
        kind: crate::registry::WorkloadKind::Annotated {
            replica_set_preferences: None,
            replicas: 1,
        },
    }
}

/// A `ReplicaSet` in `default` selecting `clusters`.
pub(crate) fn replica_set(name: &str, clusters: &[&str]) -> PlanItem {
    PlanItem {
        source: source("apps/v1", "ReplicaSet", Some("default"), name),
        clusters: clusters.iter().map(|cluster| cluster.to_string()).collect(),
        ..PlanItem::default()
    }
}

pub(crate) fn with_replicas(mut item: PlanItem, replicas: &[(&str, i64)]) -> PlanItem {
    item.replicas = replicas
        .iter()
        .map(|(cluster, count)| (cluster.to_string(), *count))
        .collect();
    item
}

/// A KubeFleet item's own fields, each set: `a`'s score (affinity -3, spread 1), the
/// removed `c`, the stage `ring1` of `a`, and the ClusterResourceOverride `cro` on `a`.
pub(crate) fn kubefleet_fields() -> KubeFleetFields {
    KubeFleetFields {
        scores: [(
            "a".to_string(),
            BindingScore {
                affinity_score: Some(-3),
                priority_score: Some(1),
            },
        )]
        .into(),
        removed: vec!["c".to_string()],
        stages: vec![stage("ring1", &["a"])],
        overrides: [(
            "a".to_string(),
            ClusterOverrides {
                cluster_resource_overrides: vec!["cro".to_string()],
                resource_overrides: Vec::new(),
            },
        )]
        .into(),
    }
}

pub(crate) fn stage(name: &str, clusters: &[&str]) -> Stage {
    Stage {
        name: name.to_string(),
        clusters: clusters.iter().map(|name| name.to_string()).collect(),
    }
}

pub(crate) fn group(index: usize, name: &str, clusters: &[&str]) -> DecisionGroup {
    DecisionGroup {
        name: name.to_string(),
        index,
        clusters: clusters.iter().map(|cluster| cluster.to_string()).collect(),
    }
}

pub(crate) fn with_condition(
    mut item: PlanItem,
    type_: &str,
    status: ConditionStatus,
    reason: &str,
    message: &str,
) -> PlanItem {
    item.conditions.push(Condition {
        type_: type_.to_string(),
        status,
        reason: reason.to_string(),
        message: message.to_string(),
    });
    item
}

pub(crate) fn plan(items: Vec<PlanItem>) -> Plan {
    Plan {
        items,
        ..Plan::default()
    }
}

/// (previous, current) of an item whose `PlacementSatisfied` message alone changed.
pub(crate) fn condition_message_moved() -> (PlanItem, PlanItem) {
    let with_message = |message| {
        with_condition(
            replica_set("p", &["A"]),
            "PlacementSatisfied",
            ConditionStatus::True,
            "R",
            message,
        )
    };
    (with_message("2 clusters"), with_message("3 clusters"))
}
