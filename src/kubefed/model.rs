//! kubefed's CRD types: the `spec` of a `ReplicaSchedulingPreference`, read from manifests and
//! written by `migrate` (the preferences themselves are shared with the federation
//! annotation: `crate::model::preferences`), and the `spec.placement` of a federated object.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::model::preferences::{
    check_non_negative, clusters_or_null, ClusterPreferences, ReplicaPreferences,
};
use crate::model::LabelSelectorSpec;

/// `spec.placement` of a kubefed federated object.
#[derive(Clone, Debug, PartialEq)]
pub enum FederatedPlacement {
    /// `clusters[].name` was present (even empty): it wins over `clusterSelector`.
    Clusters(Vec<String>),
    /// `clusterSelector`: `None` (absent) selects no cluster, `{}` every cluster.
    Selector(Option<LabelSelectorSpec>),
}

/// The ReplicaSchedulingPreference version kubefed serves and `migrate` writes.
pub(crate) const RSP_API_VERSION: &str = "scheduling.kubefed.io/v1alpha1";

/// `spec` of a kubefed `ReplicaSchedulingPreference`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(from = "RspSpecFields")]
pub struct RspSpec {
    pub target_kind: String,
    pub total_replicas: i64,
    pub preferences: ReplicaPreferences,
    pub intersect_with_cluster_selector: bool,
}

/// The manifest layout of the spec: `rebalance` and `clusters` sit next to `totalReplicas`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RspSpecFields {
    target_kind: String,
    /// kubefed declares `TotalReplicas int32`.
    #[serde(deserialize_with = "non_negative_i32")]
    total_replicas: i64,
    #[serde(default)]
    rebalance: bool,
    #[serde(default, deserialize_with = "clusters_or_null")]
    clusters: BTreeMap<String, ClusterPreferences>,
    #[serde(default)]
    intersect_with_cluster_selector: bool,
}

impl From<RspSpecFields> for RspSpec {
    fn from(fields: RspSpecFields) -> Self {
        RspSpec {
            target_kind: fields.target_kind,
            total_replicas: fields.total_replicas,
            preferences: ReplicaPreferences {
                rebalance: fields.rebalance,
                clusters: fields.clusters,
            },
            intersect_with_cluster_selector: fields.intersect_with_cluster_selector,
        }
    }
}

/// Written in the manifest layout, in the order kubefed documents the fields, with
/// `intersectWithClusterSelector` left out when false.
impl Serialize for RspSpec {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Layout<'a> {
            target_kind: &'a str,
            total_replicas: i64,
            rebalance: bool,
            #[serde(skip_serializing_if = "std::ops::Not::not")]
            intersect_with_cluster_selector: bool,
            clusters: &'a BTreeMap<String, ClusterPreferences>,
        }
        Layout {
            target_kind: &self.target_kind,
            total_replicas: self.total_replicas,
            rebalance: self.preferences.rebalance,
            intersect_with_cluster_selector: self.intersect_with_cluster_selector,
            clusters: &self.preferences.clusters,
        }
        .serialize(serializer)
    }
}

fn non_negative_i32<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    check_non_negative(i32::deserialize(deserializer)?.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(json: &str) -> Result<RspSpec, String> {
        let de = &mut serde_json::Deserializer::from_str(json);
        serde_path_to_error::deserialize(de).map_err(|err| err.to_string())
    }

    #[test]
    fn rsp_spec_reads_the_manifest_layout() {
        let parsed = spec(
            r#"{"targetKind":"FederatedDeployment","totalReplicas":9,"rebalance":true,
                "intersectWithClusterSelector":true,
                "clusters":{"A":{"minReplicas":4,"maxReplicas":6,"weight":1},"*":{"weight":2}}}"#,
        );
        let expected = RspSpec {
            target_kind: "FederatedDeployment".into(),
            total_replicas: 9,
            preferences: ReplicaPreferences {
                rebalance: true,
                clusters: BTreeMap::from([
                    (
                        "*".to_string(),
                        ClusterPreferences {
                            min_replicas: 0,
                            max_replicas: None,
                            weight: 2,
                        },
                    ),
                    (
                        "A".to_string(),
                        ClusterPreferences {
                            min_replicas: 4,
                            max_replicas: Some(6),
                            weight: 1,
                        },
                    ),
                ]),
            },
            intersect_with_cluster_selector: true,
        };
        assert_eq!(parsed, Ok(expected));
    }

    #[test]
    fn a_spec_is_written_in_kubefed_s_layout_and_reads_back() {
        let json = r#"{"targetKind":"FederatedDeployment","totalReplicas":9,"rebalance":true,"intersectWithClusterSelector":true,"clusters":{"*":{"weight":2},"A":{"minReplicas":4,"maxReplicas":6,"weight":1}}}"#;
        let parsed = spec(json).unwrap();
        assert_eq!(serde_json::to_string(&parsed).unwrap(), json);
    }

    #[test]
    fn zero_preferences_are_omitted_like_kubefed() {
        let text = serde_yaml::to_string(&ClusterPreferences::new(0, None, 1)).unwrap();
        assert_eq!(text, "weight: 1\n");
    }

    #[test]
    fn rsp_spec_without_clusters_has_an_empty_map() {
        let parsed = spec(r#"{"targetKind":"FederatedDeployment","totalReplicas":4}"#);
        assert_eq!(parsed.map(|s| s.preferences.clusters.len()), Ok(0));
    }

    /// The path of the field a spec is rejected at.
    fn rejected_at(json: &str) -> String {
        let de = &mut serde_json::Deserializer::from_str(json);
        match serde_path_to_error::deserialize::<_, RspSpec>(de) {
            Ok(spec) => panic!("{json} was accepted as {spec:?}"),
            Err(err) => err.path().to_string(),
        }
    }

    #[test]
    fn negative_weight_is_an_error_saying_what_was_expected() {
        let parsed = spec(
            r#"{"targetKind":"FederatedDeployment","totalReplicas":4,"clusters":{"A":{"weight":-1}}}"#,
        );
        assert_eq!(
            parsed,
            Err(
                "clusters.A.weight: expected a non-negative integer, found -1 at line 1 column 83"
                    .to_string()
            )
        );
    }

    #[test]
    fn negative_max_replicas_is_an_error_with_its_path() {
        let path = rejected_at(
            r#"{"targetKind":"FederatedDeployment","totalReplicas":4,"clusters":{"A":{"maxReplicas":-2}}}"#,
        );
        assert_eq!(path, "clusters.A.maxReplicas");
    }

    #[test]
    fn total_replicas_outside_non_negative_int32_is_an_error() {
        for total in ["2147483648", "-1"] {
            let json = format!(r#"{{"targetKind":"FederatedDeployment","totalReplicas":{total}}}"#);
            assert_eq!(rejected_at(&json), "totalReplicas", "{total}");
        }
    }

    #[test]
    fn weight_beyond_int64_is_an_error() {
        let path = rejected_at(
            r#"{"targetKind":"FederatedDeployment","totalReplicas":1,"clusters":{"A":{"weight":9223372036854775808}}}"#,
        );
        assert_eq!(path, "clusters.A.weight");
    }

    #[test]
    fn min_above_max_is_accepted_and_detectable() {
        let parsed = spec(
            r#"{"targetKind":"FederatedDeployment","totalReplicas":1,
                "clusters":{"A":{"minReplicas":5,"maxReplicas":2},"B":{"minReplicas":2,"maxReplicas":2}}}"#,
        )
        .unwrap();
        let flagged: Vec<&str> = parsed.preferences.min_above_max().collect();
        assert_eq!(flagged, vec!["A"]);
    }
}
