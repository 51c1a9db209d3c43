//! ClusterAffinity (`plugins/clusteraffinity`): required terms filter (`filtering.go`,
//! `types.go clusterRequirement.Matches`), preferred terms score (`scoring.go`,
//! `clusterPreference.Scores`, `interpolateWeightFor`), with the property extremes computed
//! once per cycle over every MemberCluster (`preparePluginState`).

use std::borrow::Borrow;
use std::collections::BTreeMap;

use crate::kubefleet::member_cluster::MemberCluster;
use crate::kubefleet::policy::{ClusterSelectorTerm, PlacementPolicy, PreferredClusterSelector};
use crate::kubefleet::property::{self, approximate, property_value, PropertyError};
use crate::kubefleet::status::Status;
use crate::model::quantity::QuantityError;
use crate::model::Quantity;
use crate::selector::{Selector, SelectorError};

pub(crate) const NO_REQUIRED_TERMS: &str = "no required cluster affinity terms to enforce";
pub(crate) const NO_PREFERRED_TERMS: &str = "no preferred cluster affinity terms specified";
pub(crate) const NOT_MATCHED: &str =
    "cluster does not match with any of the required cluster affinity terms";

/// What makes matching or scoring fail. Upstream turns any of these into an internal error that
/// aborts the whole scheduling cycle.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub(crate) enum AffinityError {
    #[error("failed to parse label selector: {0}")]
    LabelSelector(SelectorError),
    #[error(transparent)]
    Property(#[from] PropertyError),
    #[error("more than one value in the property selector expression")]
    ValueCount,
    #[error(
        "value specified in property selector {value} is not a valid resource quantity: {error}"
    )]
    Value { value: String, error: QuantityError },
    #[error("invalid operator: {0}")]
    Operator(String),
    #[error("failed to look up extremums for property {0}, no state is prepared")]
    NoState(String),
    #[error("extremums for property {property} are not available, yet a reading can be found from cluster {cluster}")]
    NoExtremes { property: String, cluster: String },
    #[error(
        "cannot interpolate weight, observed value {value}, observed min {min}, observed max {max}"
    )]
    Range { value: f64, min: f64, max: f64 },
    #[error("cannot interpolate weight as sort order {0} is invalid")]
    SortOrder(String),
}

/// A term's label selector, built once per cycle instead of once per cluster.
fn label_selector(term: &ClusterSelectorTerm) -> Option<Result<Selector, SelectorError>> {
    term.label_selector
        .as_ref()
        .map(|spec| Selector::from_label_selector(Some(spec)))
}

fn labels_match(
    selector: &Option<Result<Selector, SelectorError>>,
    cluster: &MemberCluster,
) -> Result<bool, AffinityError> {
    match selector {
        None => Ok(true),
        Some(Ok(selector)) => Ok(selector.matches(&cluster.labels)),
        Some(Err(error)) => Err(AffinityError::LabelSelector(error.clone())),
    }
}

/// A required term ready to test clusters (`clusterRequirement`).
pub(crate) struct RequiredTerm<'p> {
    term: &'p ClusterSelectorTerm,
    selector: Option<Result<Selector, SelectorError>>,
}

impl<'p> RequiredTerm<'p> {
    pub(crate) fn new(term: &'p ClusterSelectorTerm) -> RequiredTerm<'p> {
        RequiredTerm {
            term,
            selector: label_selector(term),
        }
    }

    /// `clusterRequirement.Matches`: the label selector, then each property expression in
    /// order; a property the cluster does not report is no match.
    pub(crate) fn matches(&self, cluster: &MemberCluster) -> Result<bool, AffinityError> {
        if !labels_match(&self.selector, cluster)? {
            return Ok(false);
        }
        let expressions = self
            .term
            .property_selector
            .as_ref()
            .map_or(&[][..], |selector| &selector.match_expressions);
        for expression in expressions {
            let Some(observed) = property_value(cluster, &expression.name)? else {
                return Ok(false);
            };
            let [value] = expression.values.as_slice() else {
                return Err(AffinityError::ValueCount);
            };
            let expected = Quantity::parse(value).map_err(|error| AffinityError::Value {
                value: value.clone(),
                error,
            })?;
            let order = property::compare(&observed, &expected);
            let matched = match expression.operator.as_str() {
                "Eq" => order.is_eq(),
                "Ne" => order.is_ne(),
                "Gt" => order.is_gt(),
                "Ge" => order.is_ge(),
                "Lt" => order.is_lt(),
                "Le" => order.is_le(),
                other => return Err(AffinityError::Operator(other.to_string())),
            };
            if !matched {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// The plugin's filter over one cycle: the policy's required terms, built once.
pub(crate) struct Filter<'p> {
    terms: Vec<RequiredTerm<'p>>,
}

impl<'p> Filter<'p> {
    /// `PreFilter`: `Err(Skip)` without required terms.
    pub(crate) fn new(policy: Option<&'p PlacementPolicy>) -> Result<Filter<'p>, Status> {
        let terms = policy.map_or(&[][..], PlacementPolicy::required_terms);
        if terms.is_empty() {
            return Err(Status::skip(NO_REQUIRED_TERMS));
        }
        Ok(Filter {
            terms: terms.iter().map(RequiredTerm::new).collect(),
        })
    }

    /// `Filter`: the terms are ORed; the first error aborts.
    pub(crate) fn filter(&self, cluster: &MemberCluster) -> Result<Option<Status>, AffinityError> {
        for term in &self.terms {
            if term.matches(cluster)? {
                return Ok(None);
            }
        }
        Ok(Some(Status::unschedulable(NOT_MATCHED)))
    }
}

/// The smallest and largest value of one property over the fleet.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Extremes {
    pub(crate) min: Option<Quantity>,
    pub(crate) max: Option<Quantity>,
}

/// The extremes of every property a preferred term sorts by, keyed by property name.
pub(crate) type Observed = BTreeMap<String, Extremes>;

/// `PreScore` (`preparePluginState`): `Err(Skip)` without preferred terms; otherwise the
/// extremes of each sorted property over `clusters` (every MemberCluster, usable or not:
/// a cluster that does not report the property is skipped, an unparsable value is an error).
pub(crate) fn observe<C: Borrow<MemberCluster>>(
    policy: Option<&PlacementPolicy>,
    clusters: &[C],
) -> Result<Result<Observed, AffinityError>, Status> {
    let preferred = policy.map_or(&[][..], PlacementPolicy::preferred_terms);
    if preferred.is_empty() {
        return Err(Status::skip(NO_PREFERRED_TERMS));
    }
    let mut observed = Observed::new();
    for sorter in preferred
        .iter()
        .filter_map(|term| term.preference.property_sorter.as_ref())
    {
        if observed.contains_key(&sorter.name) {
            continue;
        }
        let mut extremes = Extremes::default();
        for cluster in clusters {
            let value = match property_value(cluster.borrow(), &sorter.name) {
                Ok(Some(value)) => value,
                Ok(None) => continue,
                Err(error) => return Ok(Err(error.into())),
            };
            if extremes
                .min
                .as_ref()
                .is_none_or(|min| property::compare(&value, min).is_lt())
            {
                extremes.min = Some(value.clone());
            }
            if extremes
                .max
                .as_ref()
                .is_none_or(|max| property::compare(&value, max).is_gt())
            {
                extremes.max = Some(value);
            }
        }
        observed.insert(sorter.name.clone(), extremes);
    }
    Ok(Ok(observed))
}

/// A preferred term ready to score clusters (`clusterPreference`).
pub(crate) struct PreferredTerm<'p> {
    term: &'p PreferredClusterSelector,
    selector: Option<Result<Selector, SelectorError>>,
}

impl<'p> PreferredTerm<'p> {
    pub(crate) fn new(term: &'p PreferredClusterSelector) -> PreferredTerm<'p> {
        PreferredTerm {
            term,
            selector: label_selector(&term.preference),
        }
    }

    /// `clusterPreference.Scores`: 0 unless the label selector matches; the whole weight
    /// without a sorter; else the weight interpolated by the property's place between the
    /// fleet's extremes.
    pub(crate) fn score(
        &self,
        observed: &Observed,
        cluster: &MemberCluster,
    ) -> Result<i32, AffinityError> {
        if !labels_match(&self.selector, cluster)? {
            return Ok(0);
        }
        match &self.term.preference.property_sorter {
            None => Ok(self.term.weight),
            Some(sorter) => interpolate(
                cluster,
                &sorter.name,
                &sorter.sort_order,
                self.term.weight,
                observed,
            ),
        }
    }
}

/// `interpolateWeightFor`.
pub(crate) fn interpolate(
    cluster: &MemberCluster,
    property: &str,
    sort_order: &str,
    weight: i32,
    observed: &Observed,
) -> Result<i32, AffinityError> {
    let Some(value) = property_value(cluster, property)? else {
        return Ok(0);
    };
    let extremes = observed
        .get(property)
        .ok_or_else(|| AffinityError::NoState(property.to_string()))?;
    let (Some(min), Some(max)) = (&extremes.min, &extremes.max) else {
        return Err(AffinityError::NoExtremes {
            property: property.to_string(),
            cluster: cluster.name.clone(),
        });
    };
    let (value, min, max) = (approximate(&value), approximate(min), approximate(max));
    if min.is_infinite() || max.is_infinite() || min > max || value < min || value > max {
        return Err(AffinityError::Range { value, min, max });
    }
    if min == max {
        return Ok(0);
    }
    let ratio = (value - min) / (max - min);
    let interpolated = match sort_order {
        "Descending" => ratio * f64::from(weight),
        "Ascending" => (1.0 - ratio) * f64::from(weight),
        other => return Err(AffinityError::SortOrder(other.to_string())),
    };
    // math.Round rounds half away from zero, as f64::round does; the cast saturates where
    // Go's would wrap, which a weight in [-100, 100] never reaches.
    Ok(interpolated.round() as i32)
}

/// The plugin's score over one cycle: the preferred terms with a non-zero weight, built once.
pub(crate) struct Scorer<'p> {
    terms: Vec<PreferredTerm<'p>>,
    observed: Observed,
}

impl<'p> Scorer<'p> {
    pub(crate) fn new(policy: &'p PlacementPolicy, observed: Observed) -> Scorer<'p> {
        Scorer {
            terms: policy
                .preferred_terms()
                .iter()
                .filter(|term| term.weight != 0)
                .map(PreferredTerm::new)
                .collect(),
            observed,
        }
    }

    /// `Score`: the sum of the terms' scores.
    pub(crate) fn score(&self, cluster: &MemberCluster) -> Result<i32, AffinityError> {
        let mut total = 0i32;
        for term in &self.terms {
            total = total.saturating_add(term.score(&self.observed, cluster)?);
        }
        Ok(total)
    }
}
