//! What a plan item holds of OCM besides its clusters and conditions, in two of the
//! registry's slots, each written inline where the plan has always had it and read back from
//! `--previous` key by key: a Placement's decision groups (`groups`, [`DecisionGroups`], in
//! `registry::SelectionFields` before Karmada's, so after the item's clusters and their
//! counts), and when a Placement's toleration expires (`changesAt`), each way a placement
//! consumer lands (`via`) and a ManifestWorkReplicaSet's rollout waves (`rollout`)
//! ([`OcmFields`], in `registry::ItemFields` after KubeFleet's, so after `conditions`).

use serde::de::MapAccess;
use serde::{Deserialize, Serialize};

use crate::model::ClusterNames;

/// An OCM Placement's decision groups, in index order (a consumer's, when it rolls out over
/// one placement); empty for another item, and then not written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DecisionGroups {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<DecisionGroup>,
}

/// One decision group: its name (empty for upstream's default group), its index and clusters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DecisionGroup {
    pub name: String,
    pub index: usize,
    pub clusters: ClusterNames,
}

impl DecisionGroups {
    /// The key as written.
    pub(crate) const NAMES: &'static [&'static str] = &["groups"];

    /// Reads the value of `groups`, the map's key just read.
    pub(crate) fn read<'de, A: MapAccess<'de>>(&mut self, map: &mut A) -> Result<(), A::Error> {
        self.groups = map.next_value()?;
        Ok(())
    }

    /// How many cluster names the groups list (what an item's text makes room for).
    pub(crate) fn cluster_names(&self) -> usize {
        self.groups.iter().map(|group| group.clusters.len()).sum()
    }
}

/// What a plan item holds of an OCM Placement or placement consumer besides its decision
/// groups; every field is empty for another item, and an empty field is not written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OcmFields {
    /// When a toleration expires and the plan would change (RFC 3339).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes_at: Option<String>,
    /// A placement consumer: each way it lands, as the objects from it to the placement
    /// (`[PlacementBinding/ns/b, Placement/ns/p]`), in the order its controller reads them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub via: Vec<Vec<String>>,
    /// A ManifestWorkReplicaSet: for each placement, the order its rollout strategy gives
    /// the work to the clusters.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rollout: Vec<Rollout>,
}

/// The waves in which a ManifestWorkReplicaSet's rollout strategy reaches the clusters of one
/// placement, each wave starting once the one before has succeeded.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Rollout {
    /// `Placement/ns/name`.
    pub placement: String,
    /// `All`, `Progressive` or `ProgressivePerGroup`.
    pub strategy: String,
    pub waves: Vec<Wave>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Wave {
    /// A mandatory decision group: no failure tolerated.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mandatory: bool,
    /// The decision group's index, when the wave is one whole group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<usize>,
    pub clusters: ClusterNames,
}

crate::model::plan_item_keys!(OcmFields {
    ChangesAt => "changesAt" => changes_at,
    Via => "via" => via,
    Rollout => "rollout" => rollout,
});

impl OcmFields {
    /// How many cluster names the rollout waves list (what an item's text makes room for).
    pub(crate) fn cluster_names(&self) -> usize {
        let waves = self.rollout.iter().flat_map(|rollout| &rollout.waves);
        waves.map(|wave| wave.clusters.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_are_the_written_names_in_the_written_order() {
        let fields = OcmFields {
            changes_at: Some("2026-01-01T00:00:00Z".to_string()),
            via: vec![vec!["PlacementBinding/default/b".to_string()]],
            rollout: vec![Rollout {
                placement: "Placement/default/p".to_string(),
                strategy: "All".to_string(),
                waves: vec![Wave {
                    mandatory: true,
                    group: Some(0),
                    clusters: vec!["a".to_string()].into(),
                }],
            }],
        };
        let json = serde_json::to_string(&fields).unwrap_or_default();
        assert_eq!(
            json,
            concat!(
                r#"{"changesAt":"2026-01-01T00:00:00Z","via":[["PlacementBinding/default/b"]],"#,
                r#""rollout":[{"placement":"Placement/default/p","strategy":"All","#,
                r#""waves":[{"mandatory":true,"group":0,"clusters":["a"]}]}]}"#
            )
        );
        for name in Key::NAMES {
            assert!(Key::of(name).is_some(), "{name}");
        }
        assert_eq!(Key::of("clusters"), None);
        assert_eq!(fields.cluster_names(), 1);
        let empty = serde_json::to_string(&OcmFields::default()).unwrap_or_default();
        assert_eq!(empty, "{}");
        let groups = DecisionGroups {
            groups: vec![DecisionGroup {
                name: "canary".to_string(),
                index: 0,
                clusters: vec!["a".to_string(), "b".to_string()].into(),
            }],
        };
        assert_eq!(
            serde_json::to_string(&groups).unwrap_or_default(),
            r#"{"groups":[{"name":"canary","index":0,"clusters":["a","b"]}]}"#
        );
        assert_eq!(groups.cluster_names(), 2);
        let empty = serde_json::to_string(&DecisionGroups::default()).unwrap_or_default();
        assert_eq!(empty, "{}");
    }
}
