//! What a plan item holds of a Karmada resource template: the PropagationPolicy or
//! ClusterPropagationPolicy that claims it and the `clusterAffinities` term its result came
//! from. The registry puts them in `PlanItem` as one slot (`registry::SelectionFields`),
//! written inline after the item's clusters and their counts, and read back from
//! `--previous` key by key ([`KarmadaFields::read`]).

use serde::Serialize;

/// What a plan item holds of a Karmada resource template; every field is empty for another
/// item, and an empty field is not written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KarmadaFields {
    /// The policy that claims the resource (`PropagationPolicy/ns/name`,
    /// `ClusterPropagationPolicy/name`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
    /// The `clusterAffinities` term the result came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub affinity_term: Option<String>,
}

crate::model::plan_item_keys!(KarmadaFields {
    Policy => "policy" => policy,
    AffinityTerm => "affinityTerm" => affinity_term,
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_are_the_written_names_in_the_written_order() {
        let fields = KarmadaFields {
            policy: Some("PropagationPolicy/default/pp".to_string()),
            affinity_term: Some("primary".to_string()),
        };
        let json = serde_json::to_string(&fields).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"policy":"PropagationPolicy/default/pp","affinityTerm":"primary"}"#
        );
        for name in Key::NAMES {
            assert!(Key::of(name).is_some(), "{name}");
        }
        assert_eq!(Key::of("clusters"), None);
        let empty = serde_json::to_string(&KarmadaFields::default()).unwrap_or_default();
        assert_eq!(empty, "{}");
    }
}
