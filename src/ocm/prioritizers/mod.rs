//! Prioritizers (upstream `plugins/*` scorers) and their weights (upstream
//! `scheduling/schedule.go` getWeights / getPrioritizers). Each prioritizer scores the
//! feasible clusters in [-100, 100]; the total is Σ score × weight.
//!
//! A prioritizer is one file: a type implementing [`Prioritizer`], and, when it reads
//! something of the whole run (decision counts, allocatable values), the index it builds once
//! per run, kept in [`Data`]. `BUILT_IN` is the registry of names.

pub(crate) mod addon;
pub(crate) mod balance;
pub(crate) mod resource;
pub(crate) mod steady;

use crate::model::{Inventory, PreviousDecision};
use crate::ocm::model::placement::{AddOnScore, PrioritizerPolicy, ScoreCoordinateType};
use crate::selector::ClusterBits;

use super::feasible::Feasible;
use super::previous::OwnClusters;
use super::scheduler::Scheduler;

pub(crate) const MAX_SCORE: i64 = 100;

/// What a prioritizer sees of one placement's run.
pub(crate) struct Context<'r> {
    pub scheduler: &'r Scheduler<'r>,
    pub namespace: &'r str,
    pub name: &'r str,
    /// Unix seconds: AddOnPlacementScore validity.
    pub now: i64,
    /// The placement's own previous decisions.
    pub own: Option<&'r OwnClusters>,
}

/// One prioritizer's scores of the clusters it was given, and upstream's warning when it
/// has one.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Scores {
    pub scores: PerCluster,
    pub warning: Option<String>,
}

/// A score per cluster (`None`: no score, adds 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PerCluster {
    /// Every cluster scores the same (Balance on a first plan, Steady without previous
    /// decisions): said once instead of written out for 15k feasible clusters per placement.
    Same(Option<i64>),
    /// Aligned with the clusters given.
    Each(Vec<Option<i64>>),
}

impl PerCluster {
    /// The score of the cluster at `position` among those given.
    pub(crate) fn get(&self, position: usize) -> Option<i64> {
        match self {
            PerCluster::Same(score) => *score,
            PerCluster::Each(scores) => scores.get(position).copied().flatten(),
        }
    }

    /// The scores of the `len` clusters given, one each.
    pub(crate) fn to_vec(&self, len: usize) -> Vec<Option<i64>> {
        (0..len).map(|position| self.get(position)).collect()
    }

    /// Adds score × `weight` to the total of each of the `len` clusters given (upstream's
    /// Σ score × weight, saturating).
    pub(crate) fn add_weighted(&self, weight: i32, len: usize, totals: &mut Totals) {
        match (self, &mut *totals) {
            (PerCluster::Same(score), Totals::Same(total)) => {
                *total = total.saturating_add(weighted(*score, weight));
            }
            (PerCluster::Same(score), Totals::Each(totals)) => {
                let add = weighted(*score, weight);
                totals
                    .iter_mut()
                    .for_each(|total| *total = total.saturating_add(add));
            }
            (PerCluster::Each(scores), totals) => {
                totals.add_each(weight, scores.iter().copied(), len);
            }
        }
    }
}

/// A score's share of a total: score × weight, saturating; no score adds 0.
pub(crate) fn weighted(score: Option<i64>, weight: i32) -> i64 {
    score.unwrap_or(0).saturating_mul(i64::from(weight))
}

/// Feasible clusters (inventory indices) in score order, each with its total.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Ordered {
    pub clusters: Vec<usize>,
    pub totals: Vec<i64>,
}

/// The clusters' total scores, said once while every prioritizer so far gave every cluster
/// the same score: a placement scored by Balance and Steady alone (a first plan) never writes
/// out 15k equal totals, and its score order is the name order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Totals {
    Same(i64),
    /// Aligned with the clusters given.
    Each(Vec<i64>),
}

impl Default for Totals {
    fn default() -> Self {
        Totals::Same(0)
    }
}

impl Totals {
    /// Adds each of `scores` × `weight` to the total of the cluster at its position among
    /// the `len` clusters given (saturating); a cluster beyond the scores adds nothing.
    pub(crate) fn add_each(
        &mut self,
        weight: i32,
        scores: impl Iterator<Item = Option<i64>>,
        len: usize,
    ) {
        match self {
            Totals::Same(total) => {
                let same = *total;
                let mut each = Vec::with_capacity(len);
                each.extend(scores.map(|score| same.saturating_add(weighted(score, weight))));
                each.resize(len, same);
                *self = Totals::Each(each);
            }
            Totals::Each(totals) => {
                for (total, score) in totals.iter_mut().zip(scores) {
                    *total = total.saturating_add(weighted(score, weight));
                }
            }
        }
    }

    /// The total of the cluster at `position` among those given.
    pub(crate) fn get(&self, position: usize) -> i64 {
        match self {
            Totals::Same(total) => *total,
            Totals::Each(totals) => totals.get(position).copied().unwrap_or(0),
        }
    }
}

impl Scores {
    /// Every cluster scores `score`.
    pub(crate) fn same(score: Option<i64>) -> Scores {
        PerCluster::Same(score).into()
    }
}

impl From<PerCluster> for Scores {
    fn from(scores: PerCluster) -> Scores {
        Scores {
            scores,
            warning: None,
        }
    }
}

impl From<Vec<Option<i64>>> for Scores {
    fn from(scores: Vec<Option<i64>>) -> Scores {
        PerCluster::Each(scores).into()
    }
}

pub(crate) trait Prioritizer: Send + Sync + std::fmt::Debug {
    /// Scores the feasible clusters. A prioritizer that scores them all the same says so
    /// without listing them.
    fn score(&self, context: &Context, clusters: &Feasible) -> Scores;

    /// Adds the feasible clusters' scores × `weight` to `totals` and returns upstream's
    /// warning, keeping no score: an untraced run reads only the totals. A prioritizer that
    /// scores each cluster adds each score as it is made instead of listing them first.
    fn add_weighted(
        &self,
        context: &Context,
        clusters: &Feasible,
        weight: i32,
        totals: &mut Totals,
    ) -> Option<String> {
        let Scores { scores, warning } = self.score(context, clusters);
        scores.add_weighted(weight, clusters.len(), totals);
        warning
    }

    /// The score order itself (total descending, then inventory index), when this is the
    /// last prioritizer and every cluster's total before it is `base`: the `head` first
    /// feasible clusters of the bitset, or all of them. `None` when the prioritizer cannot
    /// order them without scoring each; the caller then adds its scores as usual. Only asked
    /// for untraced, and when inventory order is name order, so the index breaks ties as the
    /// name does. It may not warn.
    fn order(
        &self,
        _context: &Context,
        _feasible: &ClusterBits,
        _base: i64,
        _weight: i32,
        _head: Option<usize>,
    ) -> Option<Ordered> {
        None
    }
}

type Make = fn() -> Box<dyn Prioritizer>;

/// The registry: upstream's built-in prioritizers by name. (An AddOn prioritizer is named
/// by its score coordinate instead.)
const BUILT_IN: &[(&str, Make)] = &[
    (balance::NAME, || Box::new(balance::Balance)),
    (steady::NAME, || Box::new(steady::Steady)),
    (resource::CPU, || {
        Box::new(resource::ResourceAllocatable("cpu"))
    }),
    (resource::MEMORY, || {
        Box::new(resource::ResourceAllocatable("memory"))
    }),
];

/// What the prioritizers read of the whole run, each part built by its own prioritizer's file.
pub struct Data<'a> {
    pub balance: balance::Counts<'a>,
    pub resource: resource::Allocatable<'a>,
    pub addon: addon::ScoreIndex<'a>,
}

impl<'a> Data<'a> {
    pub fn new(inventory: &'a Inventory, previous: &'a [PreviousDecision]) -> Data<'a> {
        Data {
            balance: balance::Counts::new(inventory, previous),
            resource: resource::Allocatable::new(inventory),
            addon: addon::ScoreIndex::new(inventory),
        }
    }
}

/// Whether the built-in prioritizer `name` reads the clusters' allocatable amounts.
pub(crate) fn reads_allocatable(name: &str) -> bool {
    name == resource::CPU || name == resource::MEMORY
}

fn built_in(name: &str) -> Option<Box<dyn Prioritizer>> {
    let (_, make) = BUILT_IN.iter().find(|(known, _)| *known == name)?;
    Some(make())
}

/// The prioritizer upstream names `name`: a built-in one, or `AddOn/<resource>/<score>`.
pub(crate) fn by_name(name: &str) -> Option<Box<dyn Prioritizer>> {
    built_in(name).or_else(|| {
        addon::AddOn::from_name(name).map(|addon| Box::new(addon) as Box<dyn Prioritizer>)
    })
}

/// An enabled prioritizer (weight ≠ 0) with upstream's name.
#[derive(Debug)]
pub(crate) struct Weighted {
    pub name: String,
    pub prioritizer: Box<dyn Prioritizer>,
    pub weight: i32,
}

/// Identity of a configuration: upstream keys its weight map by the score coordinate.
#[derive(PartialEq, Eq)]
enum Coordinate {
    BuiltIn(String),
    AddOn(Option<AddOnScore>),
}

/// A prioritizer policy upstream refuses (Misconfigured), with upstream's message; the name
/// it quotes is cut as every echoed value is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PolicyError {
    #[error("incorrect prioritizer policy mode: {}", crate::model::echo(.0))]
    Mode(String),
    #[error("incorrect builtin prioritizer: {}", crate::model::echo(.0))]
    UnknownBuiltIn(String),
    #[error("addOn should not be empty")]
    EmptyAddOn,
}

/// The enabled prioritizers in a stable order: the defaults (Additive mode) first, then
/// the configurations in the order written.
pub(crate) fn weights(policy: &PrioritizerPolicy) -> Result<Vec<Weighted>, PolicyError> {
    let mut merged: Vec<(Coordinate, i32)> = match policy.mode.as_str() {
        "Exact" => Vec::new(),
        "Additive" | "" => vec![
            (Coordinate::BuiltIn(balance::NAME.to_string()), 1),
            (Coordinate::BuiltIn(steady::NAME.to_string()), 1),
        ],
        other => return Err(PolicyError::Mode(other.to_string())),
    };
    for config in &policy.configurations {
        let coordinate = &config.score_coordinate;
        let key = match coordinate.kind {
            ScoreCoordinateType::BuiltIn => Coordinate::BuiltIn(coordinate.built_in.clone()),
            ScoreCoordinateType::AddOn => Coordinate::AddOn(coordinate.add_on.clone()),
        };
        match merged.iter_mut().find(|(seen, _)| *seen == key) {
            Some(entry) => entry.1 = config.weight,
            None => merged.push((key, config.weight)),
        }
    }
    merged
        .into_iter()
        .filter(|(_, weight)| *weight != 0)
        .map(|(coordinate, weight)| {
            let (name, prioritizer): (String, Box<dyn Prioritizer>) = match coordinate {
                Coordinate::BuiltIn(name) => match built_in(&name) {
                    Some(prioritizer) => (name, prioritizer),
                    None => return Err(PolicyError::UnknownBuiltIn(name)),
                },
                Coordinate::AddOn(Some(addon)) => {
                    let addon = addon::AddOn(addon);
                    (addon.name(), Box::new(addon))
                }
                Coordinate::AddOn(None) => return Err(PolicyError::EmptyAddOn),
            };
            Ok(Weighted {
                name,
                prioritizer,
                weight,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::ocm::model::placement::{PrioritizerConfig, ScoreCoordinate};

    use super::*;

    fn builtin(name: &str, weight: i32) -> PrioritizerConfig {
        PrioritizerConfig {
            score_coordinate: ScoreCoordinate {
                kind: ScoreCoordinateType::BuiltIn,
                built_in: name.into(),
                add_on: None,
            },
            weight,
        }
    }

    fn policy(mode: &str, configurations: Vec<PrioritizerConfig>) -> PrioritizerPolicy {
        PrioritizerPolicy {
            mode: mode.into(),
            configurations,
        }
    }

    /// Equal scores are added once, and the first per-cluster scores write the totals out:
    /// the same sums, saturating, as adding to each cluster's total every time.
    #[test]
    fn totals_stay_one_number_until_a_prioritizer_scores_each_cluster() {
        let mut totals = Totals::default();
        PerCluster::Same(Some(100)).add_weighted(2, 3, &mut totals);
        PerCluster::Same(None).add_weighted(5, 3, &mut totals);
        assert_eq!(totals, Totals::Same(200));
        PerCluster::Each(vec![Some(-100), None, Some(i64::MAX)]).add_weighted(3, 3, &mut totals);
        assert_eq!(totals, Totals::Each(vec![-100, 200, i64::MAX]));
        PerCluster::Same(Some(1)).add_weighted(1, 3, &mut totals);
        assert_eq!(totals, Totals::Each(vec![-99, 201, i64::MAX]));
        assert_eq!(totals.get(1), 201);
        let mut short = Totals::Same(7);
        PerCluster::Each(vec![Some(1)]).add_weighted(1, 2, &mut short);
        assert_eq!(short, Totals::Each(vec![8, 7]));
    }

    fn names(weighted: &[Weighted]) -> Vec<(String, i32)> {
        weighted
            .iter()
            .map(|w| (w.name.clone(), w.weight))
            .collect()
    }

    #[test]
    fn additive_keeps_defaults_and_overrides_weight() {
        let weighted = weights(&policy("Additive", vec![builtin("Balance", 3)])).unwrap();
        assert_eq!(
            names(&weighted),
            vec![("Balance".into(), 3), ("Steady".into(), 1)]
        );
    }

    #[test]
    fn exact_uses_only_configurations() {
        let weighted =
            weights(&policy("Exact", vec![builtin("ResourceAllocatableCPU", 2)])).unwrap();
        assert_eq!(names(&weighted), vec![("ResourceAllocatableCPU".into(), 2)]);
    }

    #[test]
    fn weight_zero_disables() {
        let weighted = weights(&policy("", vec![builtin("Steady", 0)])).unwrap();
        assert_eq!(names(&weighted), vec![("Balance".into(), 1)]);
    }

    #[test]
    fn spread_is_not_a_builtin_prioritizer() {
        let err = weights(&policy("Additive", vec![builtin("Spread", 1)])).unwrap_err();
        assert_eq!(err, PolicyError::UnknownBuiltIn("Spread".into()));
        assert_eq!(err.to_string(), "incorrect builtin prioritizer: Spread");
    }

    #[test]
    fn unknown_mode_is_misconfigured() {
        let err = weights(&policy("Sometimes", vec![])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "incorrect prioritizer policy mode: Sometimes"
        );
    }
}
