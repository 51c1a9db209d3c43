//! Federation v1: the cluster-selector and replica-set-preferences annotations on any object,
//! and `federation/v1beta1` `Cluster`.

use serde::{Deserialize, Deserializer};

use crate::load::clusters::{conditions, own_cluster, ConditionDoc};
use crate::load::content::Content;
use crate::load::decode::null_as_default;
use crate::load::kinds::{workload, Api, KnownKind, Reader};
use crate::load::model_builder::Decoded;
use crate::load::names::Names;
use crate::load::object::{Object, Scope};
use crate::load::LoadError;
use crate::model::preferences::check_non_negative;
use crate::model::{Cluster, WorkloadKind};

pub(crate) const CLUSTER_SELECTOR_ANNOTATION: &str =
    "federation.alpha.kubernetes.io/cluster-selector";
pub(super) const REPLICA_SET_PREFERENCES_ANNOTATION: &str =
    "federation.kubernetes.io/replica-set-preferences";

pub(crate) const API: Api = Api {
    kinds: &[KnownKind {
        group: "federation",
        kind: "Cluster",
        versions: &["v1beta1"],
        scope: Scope::Cluster,
        names: Names::Subdomain,
        read: federation_cluster,
    }],
    claims: Some(claims),
};

/// Any object carrying a federation annotation. Looked up without decoding `metadata`, so
/// the documents fleetplan skips (a Kustomization without a name, say) are never rejected
/// for their metadata.
fn claims(content: Content<'_>) -> Option<Reader> {
    let annotated = content
        .get("metadata")
        .and_then(|metadata| metadata.get("annotations"))
        .is_some_and(|annotations| {
            annotations.get(CLUSTER_SELECTOR_ANNOTATION).is_some()
                || annotations
                    .get(REPLICA_SET_PREFERENCES_ANNOTATION)
                    .is_some()
        });
    annotated.then_some(annotated_object as Reader)
}

#[derive(Default, Deserialize)]
struct ReplicasDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    spec: ReplicasSpec,
}

#[derive(Default, Deserialize)]
struct ReplicasSpec {
    #[serde(default, deserialize_with = "optional_replicas")]
    replicas: Option<i64>,
}

/// `spec.replicas` is an int32 in every workload kind that has it.
fn optional_replicas<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    Option::<i32>::deserialize(deserializer)?
        .map(|replicas| check_non_negative(i64::from(replicas)))
        .transpose()
}

fn annotated_object(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: ReplicasDoc = object.decode()?;
    let replicas = doc.spec.replicas.unwrap_or(1);
    let preferences = object
        .meta
        .annotations
        .get(REPLICA_SET_PREFERENCES_ANNOTATION)
        .cloned();
    let kind = WorkloadKind::Annotated {
        replica_set_preferences: preferences,
        replicas,
    };
    Ok(workload(object, kind, None))
}

/// kubefed's and federation v1's readiness condition.
const READY: &str = "Ready";

#[derive(Default, Deserialize)]
struct FederationClusterDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    status: FederationClusterStatus,
}

#[derive(Default, Deserialize)]
struct FederationClusterStatus {
    #[serde(default, deserialize_with = "null_as_default")]
    conditions: Vec<ConditionDoc>,
}

/// Both federation generations schedule only onto clusters whose `Ready` condition is True.
pub(crate) fn federation_cluster(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: FederationClusterDoc = object.decode()?;
    object.admitted_labels()?;
    let conditions = conditions(doc.status.conditions);
    let cluster = Cluster {
        online: conditions.get(READY).is_some_and(|status| status == "True"),
        conditions,
        ..Cluster::default()
    };
    Ok(own_cluster(object, cluster, Vec::new()))
}
