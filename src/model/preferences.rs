//! Replica scheduling preferences: the `federation.kubernetes.io/replica-set-preferences`
//! annotation and kubefed's replica division share this shape.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};

/// Preferences for one cluster (or `"*"`).
///
/// Deserializes from the camelCase manifest form (`minReplicas`, `maxReplicas`, `weight`), and
/// serializes to it as kubefed's `ClusterPreferences` (every field `omitempty`).
/// The annotation form (case-insensitive field names, as Go's `encoding/json`) is parsed by
/// `replicas::parse_replica_set_preferences`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterPreferences {
    #[serde(
        default,
        deserialize_with = "non_negative_i64",
        skip_serializing_if = "is_zero"
    )]
    pub min_replicas: i64,
    /// `None` = unbounded.
    #[serde(
        default,
        deserialize_with = "optional_non_negative_i64",
        skip_serializing_if = "Option::is_none"
    )]
    pub max_replicas: Option<i64>,
    #[serde(
        default,
        deserialize_with = "non_negative_i64",
        skip_serializing_if = "is_zero"
    )]
    pub weight: i64,
}

fn is_zero(value: &i64) -> bool {
    *value == 0
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

/// `clusters: null` is an absent map, as in Go.
pub(crate) fn clusters_or_null<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<BTreeMap<String, ClusterPreferences>, D::Error> {
    Ok(Option::deserialize(deserializer)?.unwrap_or_default())
}
