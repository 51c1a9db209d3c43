//! OCM's `ManagedCluster` (`cluster.open-cluster-management.io/v1`): a cluster of the fleet,
//! with its taints, claims, resources and availability.

use serde::Deserialize;

use crate::load::clusters::{conditions, own_cluster, ConditionDoc, TaintDoc};
use crate::load::decode::null_as_default;
use crate::load::model_builder::Decoded;
use crate::load::object::Object;
use crate::load::LoadError;
use crate::model::{Cluster, Quantity, Taint, VecMap};
use crate::registry::CLUSTER_AVAILABLE_CONDITION as AVAILABLE;

#[derive(Default, Deserialize)]
struct ManagedClusterDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    spec: ManagedClusterSpec,
    #[serde(default, deserialize_with = "null_as_default")]
    status: ManagedClusterStatus,
}

#[derive(Default, Deserialize)]
struct ManagedClusterSpec {
    #[serde(default, deserialize_with = "null_as_default")]
    taints: Vec<TaintDoc>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ManagedClusterStatus {
    #[serde(default, deserialize_with = "null_as_default")]
    cluster_claims: Vec<ClaimDoc>,
    #[serde(default, deserialize_with = "null_as_default")]
    allocatable: VecMap<String, Quantity>,
    #[serde(default, deserialize_with = "null_as_default")]
    capacity: VecMap<String, Quantity>,
    #[serde(default, deserialize_with = "null_as_default")]
    conditions: Vec<ConditionDoc>,
}

#[derive(Deserialize)]
struct ClaimDoc {
    name: String,
    #[serde(default, deserialize_with = "null_as_default")]
    value: String,
}

pub(crate) fn managed_cluster(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: ManagedClusterDoc = object.decode()?;
    object.admitted_labels()?;
    let conditions = conditions(doc.status.conditions);
    let claims = doc
        .status
        .cluster_claims
        .into_iter()
        .map(|claim| (claim.name, claim.value))
        .collect();
    let cluster = Cluster {
        taints: doc.spec.taints.into_iter().map(Taint::from).collect(),
        allocatable: doc.status.allocatable,
        resource_capacity: doc.status.capacity,
        replica_capacity: None,
        // A missing condition is Unknown, which OCM treats as unavailable.
        online: conditions
            .get(AVAILABLE)
            .is_some_and(|status| status == "True"),
        conditions,
        ..Cluster::default()
    };
    Ok(own_cluster(object, cluster, claims))
}
