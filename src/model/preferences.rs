//! Replica scheduling preferences: the `federation.kubernetes.io/replica-set-preferences`
//! annotation and kubefed `ReplicaSchedulingPreference` share this shape.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};

/// Preferences for one cluster (or `"*"`).
///
/// Deserializes from the camelCase manifest form (`minReplicas`, `maxReplicas`, `weight`).
/// The annotation form (case-insensitive field names, as Go's `encoding/json`) is parsed by
/// `replicas::parse_replica_set_preferences`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterPreferences {
    #[serde(default, deserialize_with = "non_negative_i64")]
    pub min_replicas: i64,
    /// `None` = unbounded.
    #[serde(default, deserialize_with = "optional_non_negative_i64")]
    pub max_replicas: Option<i64>,
    #[serde(default, deserialize_with = "non_negative_i64")]
    pub weight: i64,
}

impl ClusterPreferences {
    pub const fn new(min_replicas: i64, max_replicas: Option<i64>, weight: i64) -> Self {
        ClusterPreferences {
            min_replicas,
            max_replicas,
            weight,
        }
    }

    /// `minReplicas > maxReplicas`: accepted (the reference accepts it, and then gives the
    /// minimum even above the maximum unless the weighted rounds run), worth a warning.
    pub fn min_exceeds_max(&self) -> bool {
        self.max_replicas.is_some_and(|max| self.min_replicas > max)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct ReplicaPreferences {
    #[serde(default)]
    pub rebalance: bool,
    /// Cluster name or `"*"` → preferences. Empty means `{"*": {weight: 1}}`.
    #[serde(default, deserialize_with = "clusters_or_null")]
    pub clusters: BTreeMap<String, ClusterPreferences>,
}

impl ReplicaPreferences {
    /// Entries (cluster name or `"*"`) whose minimum exceeds their maximum, in name order.
    pub fn min_above_max(&self) -> impl Iterator<Item = &str> {
        self.clusters
            .iter()
            .filter(|(_, prefs)| prefs.min_exceeds_max())
            .map(|(name, _)| name.as_str())
    }
}

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

/// Rejects negative counts and weights: the reference would loop forever on a negative
/// weight and hand out negative replica counts for negative minimums.
pub(crate) fn check_non_negative<E: serde::de::Error>(value: i64) -> Result<i64, E> {
    if value < 0 {
        Err(E::custom(format_args!(
            "expected a non-negative integer, found {value}"
        )))
    } else {
        Ok(value)
    }
}

fn non_negative_i64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    check_non_negative(i64::deserialize(deserializer)?)
}

fn optional_non_negative_i64<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<i64>, D::Error> {
    Option::<i64>::deserialize(deserializer)?
        .map(check_non_negative)
        .transpose()
}

fn non_negative_i32<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    check_non_negative(i32::deserialize(deserializer)?.into())
}

/// `clusters: null` is an absent map, as in Go.
fn clusters_or_null<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<BTreeMap<String, ClusterPreferences>, D::Error> {
    Ok(Option::deserialize(deserializer)?.unwrap_or_default())
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
