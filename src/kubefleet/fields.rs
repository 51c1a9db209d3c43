//! A KubeFleet placement's own fields in a plan item (design §9): the scores its bindings
//! record, the clusters whose bindings become Unscheduled, its staged update run's stages and
//! the overrides of each selected cluster. The registry puts them in `PlanItem` as one slot
//! (`registry::ItemFields`); they are written inline among the item's shared fields and read
//! back from `--previous` key by key ([`KubeFleetFields::read`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::model::binding::BindingScore;
use super::stages::Stage;

/// What a plan item holds of a KubeFleet placement; every field is empty for another item,
/// and an empty field is not written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KubeFleetFields {
    /// Each selected cluster's score as its binding records it (none without one).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub scores: BTreeMap<String, BindingScore>,
    /// The clusters whose bindings the scheduler marks Unscheduled.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    /// The stages of the placement's staged update run, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<Stage>,
    /// The overrides that apply to each selected cluster.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub overrides: BTreeMap<String, ClusterOverrides>,
}

/// The overrides that apply to one selected cluster.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClusterOverrides {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cluster_resource_overrides: Vec<String>,
    /// `namespace/name`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_overrides: Vec<String>,
}

crate::model::plan_item_keys!(KubeFleetFields {
    Scores => "scores" => scores,
    Removed => "removed" => removed,
    Stages => "stages" => stages,
    Overrides => "overrides" => overrides,
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::kubefleet_fields;

    #[test]
    fn the_keys_are_the_written_names_in_the_written_order() {
        let yaml = serde_yaml::to_string(&kubefleet_fields()).unwrap_or_default();
        let keys: Vec<&str> = yaml
            .lines()
            .filter(|line| !line.starts_with([' ', '-']))
            .filter_map(|line| line.split(':').next())
            .collect();
        assert_eq!(keys, Key::NAMES);
        for name in Key::NAMES {
            assert!(Key::of(name).is_some(), "{name}");
        }
        assert_eq!(Key::of("clusters"), None);
    }

    #[test]
    fn an_empty_field_is_not_written() {
        let yaml = serde_yaml::to_string(&KubeFleetFields::default()).unwrap_or_default();
        assert_eq!(yaml, "{}\n");
    }
}
