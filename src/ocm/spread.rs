//! Spread constraints and the seed's cluster anti-affinity. Both are in the API, but
//! upstream's scheduler implements neither (`Spread` is even rejected as a prioritizer);
//! fleetplan enforces them as an extension while walking the score order, and `explain`
//! says so.

use std::collections::{BTreeSet, HashMap};

use crate::model::{Cluster, Interned};
use crate::ocm::model::placement::{PlacementSpec, TopologyKeyType, WhenUnsatisfiable};

struct Rule<'s> {
    /// How `explain` names the rule.
    text: String,
    key: &'s str,
    key_type: TopologyKeyType,
    /// `None`: anti-affinity, at most one selected cluster per domain.
    max_skew: Option<i64>,
    /// DoNotSchedule / anti-affinity; ScheduleAnyway rules are only preferred.
    hard: bool,
    /// Every domain among the feasible clusters (the global minimum runs over them).
    domains: BTreeSet<&'s str>,
    taken: HashMap<&'s str, Vec<&'s str>>,
}

impl<'s> Rule<'s> {
    fn domain(&self, cluster: &'s Cluster) -> Option<&'s str> {
        let values = match self.key_type {
            TopologyKeyType::Label => &cluster.labels,
            TopologyKeyType::Claim => &cluster.claims,
        };
        values.get(self.key).map(Interned::as_str)
    }

    fn count(&self, domain: &str) -> i64 {
        self.taken.get(domain).map_or(0, |taken| taken.len() as i64)
    }

    fn admits(&self, domain: &str) -> bool {
        let count = self.count(domain);
        match self.max_skew {
            None => count == 0,
            Some(max_skew) => {
                let min = self
                    .domains
                    .iter()
                    .map(|domain| self.count(domain))
                    .min()
                    .unwrap_or(0);
                count + 1 - min <= max_skew
            }
        }
    }
}

/// Why a spread rule kept a cluster out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    pub rule: String,
    /// `None`: the cluster lacks the topology key.
    pub domain: Option<String>,
    /// The clusters already selected in that domain.
    pub taken_by: Vec<String>,
}

pub(crate) struct SpreadRules<'s> {
    rules: Vec<Rule<'s>>,
}

impl<'s> SpreadRules<'s> {
    pub(crate) fn new(spec: &'s PlacementSpec, feasible: &[&'s Cluster]) -> SpreadRules<'s> {
        let spread = spec
            .spread_policy
            .spread_constraints
            .iter()
            .map(|constraint| {
                let hard = constraint.when_unsatisfiable == WhenUnsatisfiable::DoNotSchedule;
                Rule {
                    text: format!(
                        "spread constraint {} ({:?}, maxSkew {}, {:?}; fleetplan extension)",
                        constraint.topology_key,
                        constraint.topology_key_type,
                        constraint.max_skew,
                        constraint.when_unsatisfiable
                    ),
                    key: constraint.topology_key.as_str(),
                    key_type: constraint.topology_key_type,
                    max_skew: Some(i64::from(constraint.max_skew)),
                    hard,
                    domains: BTreeSet::new(),
                    taken: HashMap::new(),
                }
            });
        let anti_affinity = spec.anti_affinity.iter().map(|term| Rule {
            text: format!(
                "cluster anti-affinity {} ({:?}; seed v1alpha1, fleetplan extension)",
                term.topology_key, term.topology_key_type
            ),
            key: term.topology_key.as_str(),
            key_type: term.topology_key_type,
            max_skew: None,
            hard: true,
            domains: BTreeSet::new(),
            taken: HashMap::new(),
        });
        let mut rules: Vec<Rule> = spread.chain(anti_affinity).collect();
        for rule in &mut rules {
            let domains = feasible
                .iter()
                .filter_map(|cluster| rule.domain(cluster))
                .collect();
            rule.domains = domains;
        }
        SpreadRules { rules }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Whether taking `cluster` keeps every rule satisfied; `preferred` also enforces the
    /// ScheduleAnyway rules.
    pub(crate) fn admit(&self, cluster: &'s Cluster, preferred: bool) -> Result<(), Block> {
        for rule in self.rules.iter().filter(|rule| rule.hard || preferred) {
            let Some(domain) = rule.domain(cluster) else {
                return Err(Block {
                    rule: rule.text.clone(),
                    domain: None,
                    taken_by: Vec::new(),
                });
            };
            if !rule.admits(domain) {
                return Err(Block {
                    rule: rule.text.clone(),
                    domain: Some(domain.to_string()),
                    taken_by: rule
                        .taken
                        .get(domain)
                        .map(|taken| taken.iter().map(|name| name.to_string()).collect())
                        .unwrap_or_default(),
                });
            }
        }
        Ok(())
    }

    pub(crate) fn take(&mut self, cluster: &'s Cluster) {
        for rule in &mut self.rules {
            if let Some(domain) = rule.domain(cluster) {
                rule.taken
                    .entry(domain)
                    .or_default()
                    .push(cluster.name.as_str());
            }
        }
    }
}
