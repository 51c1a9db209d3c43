//! Predicate (upstream `plugins/predicate`): predicates are ORed; within one, the label,
//! claim and CEL selectors are ANDed. No predicate lets every cluster through.
//!
//! Label and claim selectors are evaluated once per placement over the whole fleet with the
//! fleet's bitset indexes, so checking a cluster is a bit test (plus its CEL expressions);
//! why a cluster fails them is read from the same indexes' label tables.

use std::collections::{BTreeSet, HashMap};

use crate::model::Cluster;
use crate::ocm::clustersets;
use crate::ocm::conditions::Status;
use crate::ocm::feasible::Feasible;
use crate::ocm::fleet::{ClusterSetError, FleetIndex};
use crate::ocm::model::placement::{ClusterPredicate, PlacementSpec};
use crate::ocm::model::scores::AddOnPlacementScore;
use crate::ocm::trace::Verdict;
use crate::selector::{ClusterBits, Selector, SelectorError, TableSelector};

use super::cel::{CelEnv, CelSelector, CompileError};
use super::{Filter, FilterContext, Filtered};

pub(crate) const NAME: &str = "Predicate";

/// The plugin.
pub(crate) struct Predicate;

impl Filter for Predicate {
    fn name(&self) -> &'static str {
        NAME
    }

    fn filter<'f>(
        &self,
        context: &FilterContext<'f>,
        clusters: Feasible,
        filtered: &mut Filtered<'f>,
    ) -> Result<Feasible, Status> {
        let predicates = &context.input.spec.predicates;
        // Upstream returns early on an empty cluster list, before validating.
        if predicates.is_empty() || clusters.is_empty() {
            return Ok(clusters);
        }
        let fleet = context.fleet();
        let mut compiled =
            Predicates::compile(predicates, fleet, &fleet.inventory.apis.addon_scores).map_err(
                |error| Status::Misconfigured {
                    plugin: NAME.to_string(),
                    message: error.to_string(),
                },
            )?;
        for scope in context.scopes {
            compiled.restrict(scope.predicate, scope.sets.clone(), &scope.members);
        }
        let scoped = !context.scopes.is_empty();
        let rejected = filtered.rejected(context);
        let passed = compiled.filter(fleet, clusters, context.candidate_sets, scoped, rejected);
        // fleetplan stops where OCM's controller would leave the cluster unselected and
        // log it: a plan that silently drops clusters would mislead (docs/reliability.md).
        if let Some(message) = compiled.cel_limit_exceeded() {
            return Err(Status::Error { message });
        }
        filtered.predicates = Some(compiled);
        Ok(passed)
    }
}

/// Seed v1alpha1: the eligible clusterSets of one predicate that names its own, and their
/// members (inventory indices).
pub(crate) struct Scope {
    predicate: usize,
    sets: Vec<String>,
    members: ClusterBits,
}

/// Seed v1alpha1 per-predicate clusterSets: each predicate's sets ∩ the placement's
/// eligible sets, and the union of what the predicates can pick from (the placement's
/// eligible sets, as `explain` and the conditions see them).
pub(crate) fn scopes(
    fleet: &FleetIndex,
    spec: &PlacementSpec,
    eligible: &[String],
) -> Result<(Vec<String>, Vec<Scope>), Box<ClusterSetError>> {
    let mut union = BTreeSet::new();
    let mut scopes = Vec::new();
    for (predicate, written) in spec.predicates.iter().enumerate() {
        if written.cluster_sets.is_empty() {
            union.extend(eligible.iter().cloned());
            continue;
        }
        let sets = clustersets::eligible_sets(eligible, &written.cluster_sets);
        let members = if sets.is_empty() {
            ClusterBits::empty(fleet.len())
        } else {
            ClusterBits::from_ids(fleet.len(), fleet.candidates(&sets)?.iter().copied())
        };
        union.extend(sets.iter().cloned());
        scopes.push(Scope {
            predicate,
            sets,
            members,
        });
    }
    Ok((union.into_iter().collect(), scopes))
}

struct Compiled<'f> {
    labels: TableSelector<'f>,
    /// `None` when it is everything: a fleet whose predicates select no claims never
    /// indexes them.
    claims: Option<TableSelector<'f>>,
    cel: CelSelector,
    /// The clusters (inventory indices) the label and claim selectors match, narrowed to
    /// the predicate's own clusterSets in the seed's v1alpha1 form.
    admitted: ClusterBits,
    /// The seed's per-predicate clusterSets (eligible ones), for `explain`.
    scope: Option<Vec<String>>,
}

/// A predicate's selector that cannot be built: upstream's Misconfigured message. Boxed, so
/// the success path of every placement moves a pointer rather than the error's fields.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PredicateError {
    #[error(transparent)]
    Selector(Box<SelectorError>),
    #[error(transparent)]
    Cel(Box<CompileError>),
}

impl From<SelectorError> for PredicateError {
    fn from(error: SelectorError) -> Self {
        PredicateError::Selector(Box::new(error))
    }
}

impl From<CompileError> for PredicateError {
    fn from(error: CompileError) -> Self {
        PredicateError::Cel(Box::new(error))
    }
}

pub(crate) struct Predicates<'f> {
    compiled: Vec<Compiled<'f>>,
    /// Built only when some predicate has CEL expressions.
    env: Option<CelEnv>,
}

impl<'f> Predicates<'f> {
    /// A selector that cannot be built is upstream's Misconfigured message.
    pub(crate) fn compile(
        predicates: &[ClusterPredicate],
        fleet: &'f FleetIndex,
        scores: &[AddOnPlacementScore],
    ) -> Result<Predicates<'f>, PredicateError> {
        let compiled: Vec<Compiled> = predicates
            .iter()
            .map(|predicate| {
                let selector = &predicate.required_cluster_selector;
                let labels = Selector::from_label_selector(Some(selector.labels()))?;
                let claims = Selector::from_claim_selector(&selector.claim_selector)?;
                let cel = CelSelector::compile(&selector.cel_selector)?;
                let mut admitted = fleet.select_labels(&labels);
                let claims = (!claims.is_everything()).then(|| {
                    admitted.and_assign(&fleet.select_claims(&claims));
                    fleet.claims().table().resolve(claims)
                });
                Ok(Compiled {
                    labels: fleet.labels().table().resolve(labels),
                    claims,
                    cel,
                    admitted,
                    scope: None,
                })
            })
            .collect::<Result<_, PredicateError>>()?;
        let env = compiled
            .iter()
            .any(|predicate| !predicate.cel.is_empty())
            .then(|| CelEnv::new(scores));
        Ok(Predicates { compiled, env })
    }

    /// Narrows predicate `index` to `members`, the clusters of its eligible `sets` (the
    /// seed's per-predicate clusterSets).
    pub(crate) fn restrict(&mut self, index: usize, sets: Vec<String>, members: &ClusterBits) {
        if let Some(predicate) = self.compiled.get_mut(index) {
            predicate.admitted.and_assign(members);
            predicate.scope = Some(sets);
        }
    }

    /// The clusters some predicate admits, when no CEL expression has to look at each one:
    /// the OR of the predicates' label and claim bitsets.
    pub(crate) fn admitted(&self) -> Option<ClusterBits> {
        if self.env.is_some() {
            return None;
        }
        let mut predicates = self.compiled.iter();
        let mut union = predicates.next()?.admitted.clone();
        for predicate in predicates {
            union.or_assign(&predicate.admitted);
        }
        Some(union)
    }

    /// Whether some predicate matches the cluster at inventory index `index`.
    pub(crate) fn matches(&self, index: usize, cluster: &Cluster) -> bool {
        self.compiled.is_empty()
            || self
                .compiled
                .iter()
                .any(|predicate| self.one_matches(predicate, index, cluster))
    }

    /// Whether predicate `predicate` matches the cluster at inventory index `index`.
    pub(crate) fn predicate_matches(
        &self,
        predicate: usize,
        index: usize,
        cluster: &Cluster,
    ) -> bool {
        self.compiled
            .get(predicate)
            .is_some_and(|predicate| self.one_matches(predicate, index, cluster))
    }

    fn one_matches(&self, predicate: &Compiled, index: usize, cluster: &Cluster) -> bool {
        predicate.admitted.contains(index)
            && self
                .env
                .as_ref()
                .is_none_or(|env| predicate.cel.matches(env, cluster))
    }

    /// Why a CEL expression stopped evaluating: the first cost limit one ran over.
    pub(crate) fn cel_limit_exceeded(&self) -> Option<String> {
        self.compiled
            .iter()
            .enumerate()
            .find_map(|(position, predicate)| {
                let exceeded = predicate.cel.exceeded()?;
                Some(format!("predicates[{position}]: {exceeded}"))
            })
    }

    /// For a cluster no predicate matched: per predicate, the first failing requirement.
    pub(crate) fn mismatches(&self, index: usize) -> Vec<String> {
        self.compiled
            .iter()
            .enumerate()
            .map(|(position, predicate)| {
                let why = if let Some(why) = predicate.labels.first_mismatch(index) {
                    format!("label {why}")
                } else if let Some(why) = predicate
                    .claims
                    .as_ref()
                    .and_then(|claims| claims.first_mismatch(index))
                {
                    format!("claim {why}")
                } else if let Some(sets) = predicate
                    .scope
                    .as_ref()
                    .filter(|_| !predicate.admitted.contains(index))
                {
                    format!("not in its clusterSets [{}]", sets.join(","))
                } else {
                    "a celSelector expression is not true".to_string()
                };
                format!("predicates[{position}]: {why}")
            })
            .collect()
    }

    /// The filter: the clusters some predicate admits. Without CEL and the seed's
    /// per-predicate clusterSets that is bitset algebra over the whole fleet (the candidates
    /// are the members of `candidate_sets`, as a bitset the fleet index caches), and the
    /// bitset goes on to the next filter; recording the reasons of the others walks the
    /// clusters instead, in their order.
    pub(crate) fn filter(
        &self,
        fleet: &FleetIndex,
        clusters: Feasible,
        candidate_sets: &[String],
        scoped: bool,
        rejected: Option<&mut HashMap<usize, Verdict>>,
    ) -> Feasible {
        let admitted = if scoped { None } else { self.admitted() };
        match admitted {
            Some(mut admitted) if rejected.is_none() => {
                // Narrowed to the clusters given, when they are a bitset or the candidates.
                let narrowed = match &clusters {
                    Feasible::Bits { bits, .. } => {
                        admitted.and_assign(bits);
                        true
                    }
                    Feasible::Candidates(_) => match fleet.candidate_bits(candidate_sets) {
                        Ok(candidate_bits) => {
                            admitted.and_assign(&candidate_bits);
                            true
                        }
                        Err(_) => false,
                    },
                    Feasible::List(_) => false,
                };
                if narrowed {
                    Feasible::from_bits(admitted)
                } else {
                    self.walk(fleet, &clusters, rejected, |index, _| {
                        admitted.contains(index)
                    })
                }
            }
            Some(admitted) => self.walk(fleet, &clusters, rejected, |index, _| {
                admitted.contains(index)
            }),
            None => self.walk(fleet, &clusters, rejected, |index, cluster| {
                self.matches(index, cluster)
            }),
        }
    }

    fn walk(
        &self,
        fleet: &FleetIndex,
        clusters: &Feasible,
        mut rejected: Option<&mut HashMap<usize, Verdict>>,
        matches: impl Fn(usize, &Cluster) -> bool,
    ) -> Feasible {
        let mut passed = Vec::new();
        for &index in clusters.list() {
            let cluster = fleet.cluster(index);
            if matches(index, cluster) {
                passed.push(index);
            } else if let Some(rejected) = rejected.as_deref_mut() {
                let reasons = self.mismatches(index);
                rejected.insert(index, Verdict::NoPredicateMatched { reasons });
            }
        }
        Feasible::List(passed)
    }
}
