//! Karmada Clusters for `--verify` when the inputs have none: one per inventory cluster, as
//! `karmadactl join` and Karmada's cluster controller would show it. Never written out:
//! clusters are joined, not applied.
//!
//! - Name and labels as in the inventory.
//! - An offline cluster is `Ready=False` and carries the `cluster.karmada.io/not-ready`
//!   `NoSchedule` taint the cluster controller adds: Karmada has no readiness filter, the
//!   taint is what keeps it out, as kubefed and federation left unready clusters out.
//! - Every API the migrated templates use is enabled, as kubefed assumed of every member
//!   (it federated a type only where the type was installed).
//! - No `resourceSummary` and no other taints: kubefed and federation read neither, and
//!   static weights and Duplicated do not estimate.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_yaml::Value;

use crate::karmada::cluster_controller::NOT_READY_TAINT;
use crate::migrate::manifest::Unwritten;
use crate::model::{Cluster, Metadata, ObjectRef};

const CLUSTER_API_VERSION: &str = "cluster.karmada.io/v1alpha1";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ClusterDoc<'a> {
    api_version: &'static str,
    kind: &'static str,
    metadata: Metadata<'a>,
    spec: Spec,
    status: Status<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    /// Required by the Cluster API; kubefed and federation v1 pushed to their members.
    sync_mode: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    taints: Vec<Taint>,
}

#[derive(Serialize)]
struct Taint {
    key: &'static str,
    effect: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Status<'a> {
    conditions: Vec<Condition>,
    api_enablements: Vec<ApiEnablement<'a>>,
}

#[derive(Serialize)]
struct Condition {
    #[serde(rename = "type")]
    condition_type: &'static str,
    status: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ApiEnablement<'a> {
    group_version: &'a str,
    resources: Vec<Resource<'a>>,
}

#[derive(Serialize)]
struct Resource<'a> {
    kind: &'a str,
}

/// The stand-ins for `clusters`, serving every API of `templates`; one serde_yaml cannot
/// turn into a value fails the migration, naming it (a null stand-in would not load back).
pub(super) fn clusters(
    clusters: &[Cluster],
    templates: &[ObjectRef],
) -> Result<Vec<Value>, Unwritten> {
    let mut apis: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for template in templates {
        apis.entry(&template.api_version)
            .or_default()
            .insert(&template.kind);
    }
    let api_enablements: Vec<ApiEnablement<'_>> = apis
        .iter()
        .map(|(group_version, kinds)| ApiEnablement {
            group_version,
            resources: kinds.iter().map(|kind| Resource { kind }).collect(),
        })
        .collect();
    clusters
        .iter()
        .map(|cluster| {
            let document = ClusterDoc {
                api_version: CLUSTER_API_VERSION,
                kind: "Cluster",
                metadata: Metadata {
                    labels: Cow::Owned(
                        cluster
                            .labels
                            .iter()
                            .map(|(key, value)| (key.to_string(), value.to_string()))
                            .collect(),
                    ),
                    ..Metadata::named(&cluster.name, None)
                },
                spec: Spec {
                    sync_mode: "Push",
                    taints: if cluster.online {
                        Vec::new()
                    } else {
                        vec![Taint {
                            key: NOT_READY_TAINT,
                            effect: "NoSchedule",
                        }]
                    },
                },
                status: Status {
                    conditions: vec![Condition {
                        condition_type: "Ready",
                        status: if cluster.online { "True" } else { "False" },
                    }],
                    api_enablements: api_enablements
                        .iter()
                        .map(|enablement| ApiEnablement {
                            group_version: enablement.group_version,
                            resources: enablement
                                .resources
                                .iter()
                                .map(|resource| Resource {
                                    kind: resource.kind,
                                })
                                .collect(),
                        })
                        .collect(),
                },
            };
            serde_yaml::to_value(&document).map_err(|error| Unwritten {
                object: format!("Cluster/{} (a stand-in for --verify)", cluster.name),
                source: error.into(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::cluster;

    #[test]
    fn an_offline_cluster_carries_the_not_ready_taint() {
        let cluster = cluster("a").label("env", "prod").offline().build();
        let template = ObjectRef {
            api_version: "apps/v1".into(),
            kind: "Deployment".into(),
            namespace: None,
            name: "web".into(),
        };
        let made = clusters(&[cluster], &[template]).unwrap_or_default();
        assert_eq!(
            serde_yaml::to_string(&made[0]).unwrap_or_default(),
            "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: a\n  labels:\n    env: prod\nspec:\n  syncMode: Push\n  taints:\n  - key: cluster.karmada.io/not-ready\n    effect: NoSchedule\nstatus:\n  conditions:\n  - type: Ready\n    status: 'False'\n  apiEnablements:\n  - groupVersion: apps/v1\n    resources:\n    - kind: Deployment\n"
        );
    }
}
