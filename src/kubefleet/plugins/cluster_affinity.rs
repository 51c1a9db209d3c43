//! ClusterAffinity (`plugins/clusteraffinity`): required terms filter (`filtering.go`,
//! `types.go clusterRequirement.Matches`), preferred terms score (`scoring.go`,
//! `clusterPreference.Scores`, `interpolateWeightFor`), with the property extremes computed
//! once per cycle over every MemberCluster (`preparePluginState`).

use std::borrow::Borrow;
use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::kubefleet::fleet::{Fleet, Property};
use crate::kubefleet::model::member_cluster::MemberCluster;
use crate::kubefleet::model::policy::{
    ClusterSelectorTerm, PlacementPolicy, PreferredClusterSelector, PropertySelectorRequirement,
    PropertySorter,
};
use crate::kubefleet::property;
use crate::kubefleet::property::{approximate, PropertyError, PropertyReading, Reading};
use crate::kubefleet::status::Status;
use crate::model::quantity::QuantityError;
use crate::model::Quantity;
use crate::selector::{ClusterBits, Selector, SelectorError};

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

/// The clusters of a fleet a term's label selector matches, looked up in the fleet's label
/// index once per cycle (`None`: the term has no label selector, so every cluster does).
type FleetLabels = Option<Result<ClusterBits, SelectorError>>;

fn select(selector: &Option<Result<Selector, SelectorError>>, fleet: &Fleet<'_>) -> FleetLabels {
    selector.as_ref().map(|selector| match selector {
        Ok(selector) => Ok(fleet.labels().select(selector)),
        Err(error) => Err(error.clone()),
    })
}

/// [`labels_match`] for the cluster at `position` of the fleet `labels` was selected in.
fn labels_match_at(labels: &FleetLabels, position: usize) -> Result<bool, AffinityError> {
    match labels {
        None => Ok(true),
        Some(Ok(selected)) => Ok(selected.contains(position)),
        Some(Err(error)) => Err(AffinityError::LabelSelector(error.clone())),
    }
}

/// A property expression with its one value parsed once.
struct Expression<'p> {
    name: &'p str,
    /// `values[0]` as a quantity's nanos, or why the expression cannot be evaluated.
    expected: Result<i128, AffinityError>,
    operator: &'p str,
}

impl<'p> Expression<'p> {
    fn new(requirement: &'p PropertySelectorRequirement) -> Expression<'p> {
        let expected = match requirement.values.as_slice() {
            [value] => Quantity::parse(value)
                .map(|quantity| quantity.nanos())
                .map_err(|error| AffinityError::Value {
                    value: value.clone(),
                    error,
                }),
            _ => Err(AffinityError::ValueCount),
        };
        Expression {
            name: &requirement.name,
            expected,
            operator: &requirement.operator,
        }
    }

    /// Whether the cluster's value (`reading` of the property) satisfies the expression; a
    /// value the cluster does not report is no match, and the expression's own errors come
    /// only after the reading.
    fn matches(&self, reading: PropertyReading<'_>) -> Result<bool, AffinityError> {
        let Some(observed) = reading? else {
            return Ok(false);
        };
        let expected = self.expected.as_ref().map_err(Clone::clone)?;
        let order = observed.nanos.cmp(expected);
        Ok(match self.operator {
            "Eq" => order.is_eq(),
            "Ne" => order.is_ne(),
            "Gt" => order.is_gt(),
            "Ge" => order.is_ge(),
            "Lt" => order.is_lt(),
            "Le" => order.is_le(),
            other => return Err(AffinityError::Operator(other.to_string())),
        })
    }
}

/// A required term ready to test clusters (`clusterRequirement`).
pub(crate) struct RequiredTerm<'p> {
    selector: Option<Result<Selector, SelectorError>>,
    expressions: Vec<Expression<'p>>,
}

impl<'p> RequiredTerm<'p> {
    pub(crate) fn new(term: &'p ClusterSelectorTerm) -> RequiredTerm<'p> {
        RequiredTerm {
            selector: label_selector(term),
            expressions: term
                .property_selector
                .as_ref()
                .map_or(&[][..], |selector| &selector.match_expressions)
                .iter()
                .map(Expression::new)
                .collect(),
        }
    }

    /// `clusterRequirement.Matches`: the label selector, then each property expression in
    /// order; a property the cluster does not report is no match.
    pub(crate) fn matches(&self, cluster: &MemberCluster) -> Result<bool, AffinityError> {
        self.matches_with(labels_match(&self.selector, cluster), |at| {
            property::reading(cluster, self.expressions[at].name)
        })
    }

    /// [`RequiredTerm::matches`] given whether the labels match and the cluster's reading of
    /// each expression's property (by the expression's index).
    fn matches_with<'r>(
        &self,
        labels: Result<bool, AffinityError>,
        reading: impl Fn(usize) -> PropertyReading<'r>,
    ) -> Result<bool, AffinityError> {
        if !labels? {
            return Ok(false);
        }
        for (at, expression) in self.expressions.iter().enumerate() {
            if !expression.matches(reading(at))? {
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

    /// The filter over `fleet`, each term's label selector looked up in its index.
    pub(crate) fn over<'a>(&'a self, fleet: &'a Fleet<'_>) -> FleetFilter<'a, 'p> {
        FleetFilter {
            terms: over_terms(&self.terms, fleet, |term| {
                let properties = term.expressions.iter();
                let selector = &term.selector;
                let properties = properties.map(|expression| fleet.property(expression.name));
                (selector, properties.collect())
            }),
            filter: self,
            clusters: fleet.clusters().len(),
        }
    }
}

/// Each term's label selector looked up in `fleet`'s index once, with what `resolve` looks
/// up of the fleet for the term besides (the selector is the first of its answer).
fn over_terms<'a, T, P>(
    terms: &'a [T],
    fleet: &'a Fleet<'_>,
    resolve: impl Fn(&'a T) -> (&'a Option<Result<Selector, SelectorError>>, P),
) -> Vec<(FleetLabels, P)> {
    terms
        .iter()
        .map(|term| {
            let (selector, rest) = resolve(term);
            (select(selector, fleet), rest)
        })
        .collect()
}

/// [`Filter`] over a run's fleet.
pub(crate) struct FleetFilter<'a, 'p> {
    filter: &'a Filter<'p>,
    /// By term: the clusters its labels match, and its property expressions' properties.
    terms: Vec<(FleetLabels, Vec<Property<'a>>)>,
    /// How many clusters the fleet has.
    clusters: usize,
}

impl FleetFilter<'_, '_> {
    /// The clusters [`Filter::filter`] lets through, with the first error in position order
    /// (name order, as the scheduler filters). Terms of labels alone cannot fail: while the
    /// terms are such, the answer is the union of their clusters.
    pub(crate) fn matched(&self) -> Result<ClusterBits, AffinityError> {
        let mut matched = ClusterBits::empty(self.clusters);
        for (labels, properties) in &self.terms {
            match labels {
                None if properties.is_empty() => return Ok(ClusterBits::full(self.clusters)),
                Some(Ok(selected)) if properties.is_empty() => matched.or_assign(selected),
                _ => return self.matched_one_by_one(),
            }
        }
        Ok(matched)
    }

    fn matched_one_by_one(&self) -> Result<ClusterBits, AffinityError> {
        let mut matched = ClusterBits::empty(self.clusters);
        for position in 0..self.clusters {
            if !self.rejects(position)? {
                matched.insert(position);
            }
        }
        Ok(matched)
    }

    /// [`Filter::filter`] of the cluster at `position`: whether it is rejected.
    pub(crate) fn rejects(&self, position: usize) -> Result<bool, AffinityError> {
        for (term, (labels, properties)) in self.filter.terms.iter().zip(&self.terms) {
            let labels = labels_match_at(labels, position);
            if term.matches_with(labels, |at| properties[at].reading(position))? {
                return Ok(false);
            }
        }
        Ok(true)
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
    observe_with(policy, |name| {
        extremes(
            clusters
                .iter()
                .map(|cluster| property::reading(cluster.borrow(), name)),
        )
    })
}

/// [`observe`] over a run's fleet, whose extremes were found once.
pub(crate) fn observe_fleet(
    policy: Option<&PlacementPolicy>,
    fleet: &Fleet<'_>,
) -> Result<Result<Observed, AffinityError>, Status> {
    observe_with(policy, |name| fleet.extremes(name))
}

fn observe_with(
    policy: Option<&PlacementPolicy>,
    extremes_of: impl Fn(&str) -> Result<Extremes, PropertyError>,
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
        match extremes_of(&sorter.name) {
            Ok(extremes) => observed.insert(sorter.name.clone(), extremes),
            Err(error) => return Ok(Err(error.into())),
        };
    }
    Ok(Ok(observed))
}

/// The first smallest and the first largest of `readings` (clusters without a value are
/// skipped); the first error ends the walk.
pub(crate) fn extremes<'r>(
    readings: impl Iterator<Item = Result<Option<Cow<'r, Reading>>, PropertyError>>,
) -> Result<Extremes, PropertyError> {
    let mut min: Option<Cow<'r, Reading>> = None;
    let mut max: Option<Cow<'r, Reading>> = None;
    for reading in readings {
        let Some(value) = reading? else {
            continue;
        };
        if min.as_ref().is_none_or(|min| value.nanos < min.nanos) {
            min = Some(value.clone());
        }
        if max.as_ref().is_none_or(|max| value.nanos > max.nanos) {
            max = Some(value);
        }
    }
    let quantity = |reading: Cow<'r, Reading>| reading.into_owned().quantity;
    Ok(Extremes {
        min: min.map(quantity),
        max: max.map(quantity),
    })
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
        self.score_with(labels_match(&self.selector, cluster), |sorter, weight| {
            interpolate(cluster, &sorter.name, &sorter.sort_order, weight, observed)
        })
    }

    /// [`PreferredTerm::score`] given whether the labels match and how the cluster's
    /// weight is interpolated by the sorter (`interpolateWeightFor`).
    fn score_with(
        &self,
        labels: Result<bool, AffinityError>,
        interpolate: impl FnOnce(&PropertySorter, i32) -> Result<i32, AffinityError>,
    ) -> Result<i32, AffinityError> {
        if !labels? {
            return Ok(0);
        }
        match &self.term.preference.property_sorter {
            None => Ok(self.term.weight),
            Some(sorter) => interpolate(sorter, self.term.weight),
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
    interpolate_reading(
        property::reading(cluster, property),
        || cluster.name.clone(),
        (property, sort_order, weight),
        observed.get(property),
    )
}

/// [`interpolate`] given the cluster's reading of the property, its name, and the
/// property's extremes (`None`: the prepared state has none).
fn interpolate_reading(
    reading: PropertyReading<'_>,
    cluster: impl FnOnce() -> String,
    (property, sort_order, weight): (&str, &str, i32),
    extremes: Option<&Extremes>,
) -> Result<i32, AffinityError> {
    let Some(value) = reading? else {
        return Ok(0);
    };
    let extremes = extremes.ok_or_else(|| AffinityError::NoState(property.to_string()))?;
    let (Some(min), Some(max)) = (&extremes.min, &extremes.max) else {
        return Err(AffinityError::NoExtremes {
            property: property.to_string(),
            cluster: cluster(),
        });
    };
    let (value, min, max) = (value.approximate, approximate(min), approximate(max));
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

    /// The scorer over `fleet`, each term's label selector looked up in its index.
    pub(crate) fn over<'a, 'c>(&'a self, fleet: &'a Fleet<'c>) -> FleetScorer<'a, 'p, 'c> {
        FleetScorer {
            terms: over_terms(&self.terms, fleet, |term| {
                let sorter = term.term.preference.property_sorter.as_ref();
                let property = sorter.map(|sorter| {
                    let extremes = self.observed.get(&sorter.name);
                    (fleet.property(&sorter.name), extremes)
                });
                (&term.selector, property)
            }),
            scorer: self,
            fleet,
        }
    }
}

/// A sorter's property over the fleet, with its extremes (`None`: none were prepared).
type Sorted<'a> = (Property<'a>, Option<&'a Extremes>);

/// [`Scorer`] over a run's fleet.
pub(crate) struct FleetScorer<'a, 'p, 'c> {
    scorer: &'a Scorer<'p>,
    fleet: &'a Fleet<'c>,
    /// By term: the clusters its labels match, and its sorter's property with the
    /// property's extremes.
    terms: Vec<(FleetLabels, Option<Sorted<'a>>)>,
}

impl FleetScorer<'_, '_, '_> {
    /// [`Scorer::score`] of the cluster at `position`.
    pub(crate) fn score(&self, position: usize) -> Result<i32, AffinityError> {
        let mut total = 0i32;
        for (term, (labels, property)) in self.scorer.terms.iter().zip(&self.terms) {
            let labels = labels_match_at(labels, position);
            let score = term.score_with(labels, |sorter, weight| {
                let Some((property, extremes)) = property else {
                    return Ok(0);
                };
                interpolate_reading(
                    property.reading(position),
                    || self.fleet.clusters()[position].name.clone(),
                    (&sorter.name, &sorter.sort_order, weight),
                    *extremes,
                )
            })?;
            total = total.saturating_add(score);
        }
        Ok(total)
    }
}
