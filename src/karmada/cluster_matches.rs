//! `util.ClusterMatches` (`pkg/util/selector.go`): whether a cluster satisfies a
//! `ClusterAffinity` (exclude, label selector, field selector, cluster names).

use std::collections::BTreeMap;

use crate::karmada::model::{ClusterAffinity, FieldRequirement, KarmadaCluster};
use crate::selector::{Operator, Requirement, Selector};

/// `util.ProviderField`, `RegionField`, `ZoneField`.
const PROVIDER: &str = "provider";
const REGION: &str = "region";
const ZONE: &str = "zone";

/// A `ClusterAffinity` with its selectors built once, matched against many clusters.
#[derive(Clone, Debug)]
pub(crate) struct AffinityMatcher<'a> {
    affinity: &'a ClusterAffinity,
    /// `None`: no label selector. `Some(None)`: a selector upstream cannot build (false).
    labels: Option<Option<Selector>>,
    zones: Vec<&'a FieldRequirement>,
    /// The provider/region (and any other key) requirements; `Some(None)`: unbuildable.
    fields: Option<Option<Selector>>,
}

impl<'a> AffinityMatcher<'a> {
    pub(crate) fn new(affinity: &'a ClusterAffinity) -> AffinityMatcher<'a> {
        let labels = affinity
            .label_selector
            .as_ref()
            .map(|spec| Selector::from_label_selector(Some(spec)).ok());
        let mut zones = Vec::new();
        let mut others = Vec::new();
        for requirement in affinity.field_selector.iter().flatten() {
            if requirement.key == ZONE {
                zones.push(requirement);
            } else {
                others.push(requirement);
            }
        }
        let fields = (!others.is_empty()).then(|| field_selector(&others));
        AffinityMatcher {
            affinity,
            labels,
            zones,
            fields,
        }
    }

    pub(crate) fn matches(&self, cluster: &KarmadaCluster) -> bool {
        self.matches_with(cluster, |selector| selector.matches(&cluster.labels))
    }

    /// The label selector, when the affinity has one upstream can build.
    pub(crate) fn label_selector(&self) -> Option<&Selector> {
        self.labels.as_ref().and_then(Option::as_ref)
    }

    /// [`AffinityMatcher::matches`] with the label selector's answer for this cluster from
    /// `labels_match` (an index over the whole fleet answers it for every cluster at once).
    pub(crate) fn matches_with(
        &self,
        cluster: &KarmadaCluster,
        labels_match: impl FnOnce(&Selector) -> bool,
    ) -> bool {
        if self.affinity.exclude.contains(&cluster.name) {
            return false;
        }
        match &self.labels {
            Some(Some(selector)) if !labels_match(selector) => return false,
            Some(None) => return false,
            _ => {}
        }
        if !self
            .zones
            .iter()
            .all(|zone| zones_match(zone, &cluster.zones))
        {
            return false;
        }
        match &self.fields {
            Some(Some(selector)) if !selector.matches(&cluster_fields(cluster)) => return false,
            Some(None) => return false,
            _ => {}
        }
        self.affinity.cluster_names.is_empty()
            || self.affinity.cluster_names.contains(&cluster.name)
    }
}

/// `lifted.NodeSelectorRequirementsAsSelector`: any unknown operator or invalid requirement
/// makes the whole field selector unbuildable (the cluster then does not match).
fn field_selector(requirements: &[&FieldRequirement]) -> Option<Selector> {
    let mut built = Vec::new();
    for requirement in requirements {
        let operator = match requirement.operator.as_str() {
            "In" => Operator::In,
            "NotIn" => Operator::NotIn,
            "Exists" => Operator::Exists,
            "DoesNotExist" => Operator::DoesNotExist,
            "Gt" => Operator::GreaterThan,
            "Lt" => Operator::LessThan,
            _ => return None,
        };
        built.push(Requirement::new(&requirement.key, operator, requirement.values.clone()).ok()?);
    }
    Some(Selector::from_requirements(built))
}

/// `extractClusterFields`: an empty provider or region is absent.
fn cluster_fields(cluster: &KarmadaCluster) -> BTreeMap<&str, &str> {
    let mut fields = BTreeMap::new();
    if !cluster.provider.is_empty() {
        fields.insert(PROVIDER, cluster.provider.as_str());
    }
    if !cluster.region.is_empty() {
        fields.insert(REGION, cluster.region.as_str());
    }
    fields
}

/// `matchZones`: a zone requirement against `spec.zones`.
fn zones_match(requirement: &FieldRequirement, zones: &[String]) -> bool {
    let listed = |zone: &String| requirement.values.contains(zone);
    match requirement.operator.as_str() {
        "In" => zones.iter().any(listed),
        "NotIn" => !zones.iter().any(listed),
        "Exists" => !zones.is_empty(),
        "DoesNotExist" => zones.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::karmada_cluster;

    /// The cluster upstream's `ClusterMatches` tests use.
    fn upstream_cluster() -> KarmadaCluster {
        karmada_cluster("cluster1")
            .label("foo", "bar")
            .location("provider1", "region1", &["zone1", "zone2"])
            .build()
    }

    fn field(key: &str, operator: &str, values: &[&str]) -> FieldRequirement {
        FieldRequirement {
            key: key.to_string(),
            operator: operator.to_string(),
            values: values.iter().map(|v| v.to_string()).collect(),
        }
    }

    fn matches(affinity: ClusterAffinity) -> bool {
        AffinityMatcher::new(&affinity).matches(&upstream_cluster())
    }

    #[test]
    fn exclude_wins_over_names() {
        assert!(!matches(ClusterAffinity {
            exclude: vec!["cluster1".to_string()],
            cluster_names: vec!["cluster1".to_string()],
            ..ClusterAffinity::default()
        }));
    }

    #[test]
    fn an_empty_affinity_matches() {
        assert!(matches(ClusterAffinity::default()));
    }

    #[test]
    fn zone_not_in_fails_when_any_zone_is_listed() {
        let affinity = |values: &[&str]| ClusterAffinity {
            field_selector: Some(vec![field("zone", "NotIn", values)]),
            ..ClusterAffinity::default()
        };
        assert!(!matches(affinity(&["zone2"])));
        assert!(matches(affinity(&["zone9"])));
    }

    #[test]
    fn region_not_in_matches_a_cluster_without_region() {
        let affinity = ClusterAffinity {
            field_selector: Some(vec![field("region", "NotIn", &["region1"])]),
            ..ClusterAffinity::default()
        };
        let mut no_region = upstream_cluster();
        no_region.region.clear();
        assert!(AffinityMatcher::new(&affinity).matches(&no_region));
        assert!(!AffinityMatcher::new(&affinity).matches(&upstream_cluster()));
    }

    #[test]
    fn other_field_keys_and_malformed_requirements_do_not_match() {
        for requirement in [
            field("metadata.name", "In", &["cluster1"]),
            field("", "", &[]),
        ] {
            assert!(!matches(ClusterAffinity {
                field_selector: Some(vec![requirement]),
                ..ClusterAffinity::default()
            }));
        }
    }
}
