//! Predicate (upstream `plugins/predicate`): predicates are ORed; within one, the label,
//! claim and CEL selectors are ANDed. No predicate lets every cluster through.

use crate::model::placement::ClusterPredicate;
use crate::model::{AddOnPlacementScore, Cluster};
use crate::selector::Selector;

use super::cel::{CelEnv, CelSelector};

pub const NAME: &str = "Predicate";

struct Compiled {
    labels: Selector,
    claims: Selector,
    cel: CelSelector,
}

pub struct Predicates {
    compiled: Vec<Compiled>,
    /// Built only when some predicate has CEL expressions.
    env: Option<CelEnv>,
}

impl Predicates {
    /// A selector that cannot be built is upstream's Misconfigured message.
    pub fn compile(
        predicates: &[ClusterPredicate],
        scores: &[AddOnPlacementScore],
    ) -> Result<Predicates, String> {
        let compiled: Vec<Compiled> = predicates
            .iter()
            .map(|predicate| {
                let selector = &predicate.required_cluster_selector;
                Ok(Compiled {
                    labels: Selector::from_label_selector(Some(&selector.label_selector))
                        .map_err(|err| err.to_string())?,
                    claims: Selector::from_claim_selector(&selector.claim_selector)
                        .map_err(|err| err.to_string())?,
                    cel: CelSelector::compile(&selector.cel_selector)?,
                })
            })
            .collect::<Result<_, String>>()?;
        let env = compiled
            .iter()
            .any(|predicate| !predicate.cel.is_empty())
            .then(|| CelEnv::new(scores));
        Ok(Predicates { compiled, env })
    }

    pub fn matches(&self, cluster: &Cluster) -> bool {
        self.compiled.is_empty()
            || self
                .compiled
                .iter()
                .any(|predicate| self.one_matches(predicate, cluster))
    }

    fn one_matches(&self, predicate: &Compiled, cluster: &Cluster) -> bool {
        predicate.labels.matches(&cluster.labels)
            && predicate.claims.matches(&cluster.claims)
            && self
                .env
                .as_ref()
                .is_none_or(|env| predicate.cel.matches(env, cluster))
    }

    /// For a cluster no predicate matched: per predicate, the first failing requirement.
    pub fn mismatches(&self, cluster: &Cluster) -> Vec<String> {
        self.compiled
            .iter()
            .enumerate()
            .map(|(index, predicate)| {
                let why = if let Some(why) = predicate.labels.first_mismatch(&cluster.labels) {
                    format!("label {why}")
                } else if let Some(why) = predicate.claims.first_mismatch(&cluster.claims) {
                    format!("claim {why}")
                } else {
                    "a celSelector expression is not true".to_string()
                };
                format!("predicates[{index}]: {why}")
            })
            .collect()
    }
}
