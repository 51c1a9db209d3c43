//! `spec.policy` of a ClusterResourcePlacement or ResourcePlacement (`PlacementPolicy`; the
//! same fields in placement.kubernetes-fleet.io v1 and v1beta1), read with the CRD's defaults:
//! `placementType: PickAll`, toleration `operator: Equal`, spread `maxSkew: 1` and
//! `whenUnsatisfiable: DoNotSchedule`.

use serde::Deserialize;

use super::taint::Toleration;
use crate::model::LabelSelectorSpec;

/// How a placement picks clusters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
pub(crate) enum PlacementType {
    #[default]
    PickAll,
    PickN,
    PickFixed,
}

impl PlacementType {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            PlacementType::PickAll => "PickAll",
            PlacementType::PickN => "PickN",
            PlacementType::PickFixed => "PickFixed",
        }
    }
}

/// The policy, defaulted. A placement without `spec.policy` schedules as PickAll
/// (`framework.go RunSchedulingCycleFor`), which `PlacementPolicy::default()` is.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlacementPolicy {
    #[serde(default)]
    pub(crate) placement_type: PlacementType,
    #[serde(default)]
    pub(crate) cluster_names: Vec<String>,
    #[serde(default)]
    pub(crate) number_of_clusters: Option<i32>,
    #[serde(default)]
    pub(crate) affinity: Option<Affinity>,
    #[serde(default)]
    pub(crate) topology_spread_constraints: Vec<TopologySpreadConstraint>,
    #[serde(default)]
    pub(crate) tolerations: Vec<Toleration>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Affinity {
    #[serde(default)]
    pub(crate) cluster_affinity: Option<ClusterAffinity>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub(crate) struct ClusterAffinity {
    #[serde(default, rename = "requiredDuringSchedulingIgnoredDuringExecution")]
    pub(crate) required: Option<ClusterSelector>,
    #[serde(default, rename = "preferredDuringSchedulingIgnoredDuringExecution")]
    pub(crate) preferred: Vec<PreferredClusterSelector>,
}

/// Terms that are ORed (`ClusterSelector`); also an override rule's `clusterSelector`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ClusterSelector {
    #[serde(default)]
    pub(crate) cluster_selector_terms: Vec<ClusterSelectorTerm>,
}

/// One term: its label selector AND its property selector (a preferred term's may sort by a
/// property instead).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ClusterSelectorTerm {
    #[serde(default)]
    pub(crate) label_selector: Option<LabelSelectorSpec>,
    #[serde(default)]
    pub(crate) property_selector: Option<PropertySelector>,
    #[serde(default)]
    pub(crate) property_sorter: Option<PropertySorter>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PropertySelector {
    #[serde(default)]
    pub(crate) match_expressions: Vec<PropertySelectorRequirement>,
}

/// `name operator values[0]`. The operator stays text: upstream's scheduler meets an unknown
/// one at run time (the cycle fails) and its webhook refuses it with its own message.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub(crate) struct PropertySelectorRequirement {
    /// Required by the CRD, which admission checks on the policy as written.
    #[serde(default)]
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) operator: String,
    #[serde(default)]
    pub(crate) values: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PropertySorter {
    /// Required by the CRD, as `sortOrder` is, which admission checks on the policy as
    /// written.
    #[serde(default)]
    pub(crate) name: String,
    /// `Ascending` or `Descending` (the CRD's enum); kept as text for the same reason.
    #[serde(default)]
    pub(crate) sort_order: String,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub(crate) struct PreferredClusterSelector {
    #[serde(default)]
    pub(crate) weight: i32,
    #[serde(default)]
    pub(crate) preference: ClusterSelectorTerm,
}

/// What a spread constraint does when it would be violated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub(crate) enum WhenUnsatisfiable {
    #[default]
    DoNotSchedule,
    ScheduleAnyway,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TopologySpreadConstraint {
    #[serde(default = "one")]
    pub(crate) max_skew: i32,
    /// Required by the CRD, which admission checks on the policy as written.
    #[serde(default)]
    pub(crate) topology_key: String,
    #[serde(default)]
    pub(crate) when_unsatisfiable: WhenUnsatisfiable,
}

fn one() -> i32 {
    1
}

impl PlacementPolicy {
    /// The required terms, if the policy has any (`nil` and `[]` alike mean none).
    pub(crate) fn required_terms(&self) -> &[ClusterSelectorTerm] {
        self.cluster_affinity()
            .and_then(|affinity| affinity.required.as_ref())
            .map_or(&[], |required| &required.cluster_selector_terms)
    }

    pub(crate) fn preferred_terms(&self) -> &[PreferredClusterSelector] {
        self.cluster_affinity()
            .map_or(&[], |affinity| &affinity.preferred)
    }

    fn cluster_affinity(&self) -> Option<&ClusterAffinity> {
        self.affinity.as_ref()?.cluster_affinity.as_ref()
    }

    /// The desired count N of a PickN policy (0 when unset, which admission refuses).
    pub(crate) fn number_of_clusters(&self) -> i32 {
        self.number_of_clusters.unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::kubefleet::model::taint::TolerationOperator;
    use crate::kubefleet::model::wire::read;

    #[test]
    fn the_crd_defaults_are_applied_on_read() {
        let policy: PlacementPolicy = read(&json!({
            "tolerations": [{"key": "a"}],
            "topologySpreadConstraints": [{"topologyKey": "zone"}]
        }))
        .unwrap_or_default();
        assert_eq!(policy.placement_type, PlacementType::PickAll);
        assert_eq!(policy.tolerations[0].operator, TolerationOperator::Equal);
        assert_eq!(policy.topology_spread_constraints[0].max_skew, 1);
        assert_eq!(
            policy.topology_spread_constraints[0].when_unsatisfiable,
            WhenUnsatisfiable::DoNotSchedule
        );
    }

    #[test]
    fn an_unknown_placement_type_is_refused_at_its_field() {
        let error = read::<PlacementPolicy>(&json!({"placementType": "PickSome"})).err();
        assert_eq!(
            error.map(|error| error.path),
            Some("placementType".to_string())
        );
    }
}
