//! PlacementRule (`apps.open-cluster-management.io/v1`), evaluated as its hub controller
//! did, but deterministic where it iterated a Go map: clusters go in name order.
//!
//! Candidates are every cluster not being deleting; `clusters[].name` replaces
//! `clusterSelector`; `clusterConditions` drop a cluster whose condition of that type has
//! another status; `resourceHint` sorts by allocatable cpu/memory (ties by name); without
//! it, previous decisions that are still eligible are kept first.

use std::collections::{BTreeMap, HashSet};

use serde::Serialize;

use crate::model::Cluster;
use crate::ocm::model::placement::{PlacementRuleSpec, SelectionOrder};
use crate::ocm::FleetIndex;
use crate::selector::{Selector, SelectorError};

pub(crate) struct RuleInput<'a> {
    pub fleet: &'a FleetIndex<'a>,
    pub spec: &'a PlacementRuleSpec,
    /// The rule's `status.decisions` cluster names, in order.
    pub previous: &'a [String],
    /// Record every cluster's verdict (`explain`). Untraced, the selector is bitset algebra
    /// over the fleet's label index and only matching clusters are read: a thousand rules
    /// over 100k clusters must not build a verdict per cluster each.
    pub trace: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "camelCase")]
pub enum RuleVerdict {
    BeingDeleted,
    NotListed,
    SelectorMismatch {
        reason: String,
    },
    ConditionMismatch {
        condition: String,
        wanted: String,
        found: String,
    },
    /// Eligible but beyond `clusterReplicas`; `position` is 1-based in the pick order.
    CutByClusterReplicas {
        position: usize,
    },
    Selected {
        position: usize,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleResult {
    /// `status.decisions` in pick order (what the next run keeps first).
    pub decisions: Vec<String>,
    /// The same clusters sorted by name.
    pub selected: Vec<String>,
    /// A `clusterSelector` that cannot be built: nothing is selected.
    pub error: Option<String>,
    /// Every cluster's verdict, when traced.
    pub verdicts: BTreeMap<String, RuleVerdict>,
}

fn condition_mismatch(spec: &PlacementRuleSpec, cluster: &Cluster) -> Option<RuleVerdict> {
    spec.cluster_conditions.iter().find_map(|filter| {
        let found = cluster.conditions.get(&filter.kind)?;
        (*found != filter.status).then(|| RuleVerdict::ConditionMismatch {
            condition: filter.kind.clone(),
            wanted: filter.status.clone(),
            found: found.clone(),
        })
    })
}

pub(crate) fn evaluate(input: &RuleInput) -> RuleResult {
    let spec = input.spec;
    let mut verdicts = BTreeMap::new();
    let selector = match cluster_selector(spec) {
        Ok(selector) => selector,
        Err(err) => {
            return RuleResult {
                decisions: Vec::new(),
                selected: Vec::new(),
                error: Some(format!("spec.clusterSelector: {err}")),
                verdicts,
            }
        }
    };
    let listed: HashSet<&str> = spec.clusters.iter().map(String::as_str).collect();
    let mut eligible = if input.trace {
        eligible_judged(input, &listed, selector, &mut verdicts)
    } else {
        eligible_found(input, &listed, &selector)
    };
    eligible.sort_by(|a, b| a.name.cmp(&b.name));
    eligible.dedup_by(|a, b| a.name == b.name);
    let order = pick_order(spec, input.previous, eligible);

    let replicas = spec
        .cluster_replicas
        .map_or(order.len(), |wanted| usize::try_from(wanted).unwrap_or(0));
    let mut decisions = Vec::new();
    for (position, cluster) in order.iter().enumerate() {
        let verdict = if position < replicas {
            decisions.push(cluster.name.clone());
            RuleVerdict::Selected {
                position: position + 1,
            }
        } else if input.trace {
            RuleVerdict::CutByClusterReplicas {
                position: position + 1,
            }
        } else {
            break;
        };
        if input.trace {
            verdicts.insert(cluster.name.clone(), verdict);
        }
    }
    let mut selected = decisions.clone();
    selected.sort();
    RuleResult {
        decisions,
        selected,
        error: None,
        verdicts,
    }
}

/// The rule's label selector: `clusters[].name`, when set, replaces `clusterSelector`.
fn cluster_selector(spec: &PlacementRuleSpec) -> Result<Selector, SelectorError> {
    match spec.cluster_selector.as_ref() {
        Some(selector) if spec.clusters.is_empty() => Selector::from_label_selector(Some(selector)),
        _ => Ok(Selector::everything()),
    }
}

/// Traced: every cluster judged, and a rejection explained by the fleet's label table; the
/// eligible ones returned in inventory order.
fn eligible_judged<'a>(
    input: &RuleInput<'a>,
    listed: &HashSet<&str>,
    selector: Selector,
    verdicts: &mut BTreeMap<String, RuleVerdict>,
) -> Vec<&'a Cluster> {
    let fleet = input.fleet;
    let mut eligible = Vec::new();
    let matcher = fleet.labels().table().resolve(selector);
    for (index, cluster) in fleet.inventory.clusters.iter().enumerate() {
        let verdict = if cluster.deleting {
            Some(RuleVerdict::BeingDeleted)
        } else if !listed.is_empty() && !listed.contains(cluster.name.as_str()) {
            Some(RuleVerdict::NotListed)
        } else if let Some(reason) = (!matcher.matches(index))
            .then(|| matcher.first_mismatch(index))
            .flatten()
        {
            Some(RuleVerdict::SelectorMismatch { reason })
        } else {
            condition_mismatch(input.spec, cluster)
        };
        match verdict {
            Some(verdict) => {
                verdicts.insert(cluster.name.clone(), verdict);
            }
            None => eligible.push(cluster),
        }
    }
    eligible
}

/// Untraced: only the listed clusters, or those the selector's bitset over the fleet's
/// label index matches, are read.
fn eligible_found<'a>(
    input: &RuleInput<'a>,
    listed: &HashSet<&str>,
    selector: &Selector,
) -> Vec<&'a Cluster> {
    let fleet = input.fleet;
    let candidates: Vec<usize> = if listed.is_empty() {
        fleet.select_labels(selector).iter_ones().collect()
    } else {
        listed
            .iter()
            .filter_map(|name| fleet.index_of(name))
            .collect()
    };
    candidates
        .into_iter()
        .map(|index| fleet.cluster(index))
        .filter(|cluster| !cluster.deleting && condition_mismatch(input.spec, cluster).is_none())
        .collect()
}

/// The order clusters are picked in from `eligible` (sorted by name): by `resourceHint`'s
/// allocatable amount (ties by name), else the previous decisions still eligible first, in
/// their order, then the rest by name.
fn pick_order<'a>(
    spec: &PlacementRuleSpec,
    previous: &[String],
    eligible: Vec<&'a Cluster>,
) -> Vec<&'a Cluster> {
    match spec.resource_hint.as_ref().and_then(|hint| {
        hint.resource
            .map(|resource| (resource.resource_name(), hint.order))
    }) {
        Some((resource, order)) => {
            let amount = |cluster: &Cluster| {
                cluster
                    .allocatable
                    .get(resource)
                    .map_or(0.0, |quantity| quantity.value)
            };
            let mut sorted = eligible;
            sorted.sort_by(|a, b| {
                let by_amount = amount(a).total_cmp(&amount(b));
                let by_amount = match order {
                    SelectionOrder::Asc => by_amount,
                    SelectionOrder::Desc => by_amount.reverse(),
                };
                by_amount.then(a.name.cmp(&b.name))
            });
            sorted
        }
        None => {
            let mut kept: Vec<&Cluster> = Vec::new();
            let mut seen = HashSet::new();
            for name in previous {
                let found = eligible.binary_search_by(|cluster| cluster.name.as_str().cmp(name));
                if let Some(cluster) = found.ok().and_then(|at| eligible.get(at)) {
                    if seen.insert(cluster.name.as_str()) {
                        kept.push(cluster);
                    }
                }
            }
            kept.extend(
                eligible
                    .iter()
                    .filter(|cluster| !seen.contains(cluster.name.as_str())),
            );
            kept
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{ClusterIndex, Inventory, LabelSelectorSpec};
    use crate::ocm::model::placement::{ClusterConditionFilter, HintResource, ResourceHint};

    use super::*;
    use crate::testing::cluster;

    fn inventory() -> Inventory {
        Inventory {
            clusters: vec![
                cluster("c")
                    .label("env", "prod")
                    .allocatable("cpu", 4.0)
                    .build(),
                cluster("a")
                    .label("env", "dev")
                    .allocatable("cpu", 2.0)
                    .build(),
                cluster("b")
                    .label("env", "prod")
                    .allocatable("cpu", 4.0)
                    .build(),
                cluster("d")
                    .label("env", "dev")
                    .allocatable("cpu", 1.0)
                    .build(),
            ],
            ..Inventory::default()
        }
    }

    fn run(spec: &PlacementRuleSpec, previous: &[String]) -> RuleResult {
        run_on(&inventory(), spec, previous)
    }

    /// Evaluated traced and untraced: both must decide alike.
    fn run_on(inventory: &Inventory, spec: &PlacementRuleSpec, previous: &[String]) -> RuleResult {
        let clusters = ClusterIndex::new(&inventory.clusters);
        let fleet = FleetIndex::new(&clusters, inventory);
        let evaluate_with = |trace| {
            evaluate(&RuleInput {
                fleet: &fleet,
                spec,
                previous,
                trace,
            })
        };
        let (traced, untraced) = (evaluate_with(true), evaluate_with(false));
        assert_eq!(
            (&untraced.decisions, &untraced.selected, &untraced.error),
            (&traced.decisions, &traced.selected, &traced.error)
        );
        traced
    }

    fn hint(order: SelectionOrder) -> Option<ResourceHint> {
        Some(ResourceHint {
            resource: Some(HintResource::Cpu),
            order,
        })
    }

    #[test]
    fn cluster_names_replace_the_selector() {
        let spec = PlacementRuleSpec {
            clusters: vec!["d".into(), "a".into()],
            cluster_selector: Some(LabelSelectorSpec {
                match_labels: Some(BTreeMap::from([("env".to_string(), "prod".to_string())])),
                match_expressions: None,
            }),
            ..PlacementRuleSpec::default()
        };
        let result = run(&spec, &[]);
        assert_eq!(result.selected, vec!["a", "d"]);
        assert_eq!(result.verdicts["b"], RuleVerdict::NotListed);
    }

    #[test]
    fn selector_filters_by_label() {
        let spec = PlacementRuleSpec {
            cluster_selector: Some(LabelSelectorSpec {
                match_labels: Some(BTreeMap::from([("env".to_string(), "prod".to_string())])),
                match_expressions: None,
            }),
            ..PlacementRuleSpec::default()
        };
        assert_eq!(run(&spec, &[]).selected, vec!["b", "c"]);
    }

    #[test]
    fn an_untraced_rule_keeps_no_verdicts() {
        let inventory = inventory();
        let clusters = ClusterIndex::new(&inventory.clusters);
        let fleet = FleetIndex::new(&clusters, &inventory);
        let spec = PlacementRuleSpec {
            cluster_replicas: Some(2),
            ..PlacementRuleSpec::default()
        };
        let result = evaluate(&RuleInput {
            fleet: &fleet,
            spec: &spec,
            previous: &[],
            trace: false,
        });
        assert_eq!(result.selected, vec!["a", "b"]);
        assert!(result.verdicts.is_empty());
    }

    #[test]
    fn condition_with_another_status_drops_the_cluster() {
        let mut inventory = inventory();
        inventory.clusters[0]
            .conditions
            .insert("ManagedClusterConditionAvailable".into(), "Unknown".into());
        inventory.clusters[1]
            .conditions
            .insert("ManagedClusterConditionAvailable".into(), "True".into());
        let spec = PlacementRuleSpec {
            cluster_conditions: vec![ClusterConditionFilter {
                kind: "ManagedClusterConditionAvailable".into(),
                status: "True".into(),
            }],
            ..PlacementRuleSpec::default()
        };
        let result = run_on(&inventory, &spec, &[]);
        assert_eq!(result.selected, vec!["a", "b", "d"]);
        assert!(matches!(
            result.verdicts["c"],
            RuleVerdict::ConditionMismatch { .. }
        ));
    }

    #[test]
    fn resource_hint_desc_breaks_ties_by_name() {
        let spec = PlacementRuleSpec {
            cluster_replicas: Some(2),
            resource_hint: hint(SelectionOrder::Desc),
            ..PlacementRuleSpec::default()
        };
        assert_eq!(run(&spec, &[]).decisions, vec!["b", "c"]);
    }

    #[test]
    fn resource_hint_asc_takes_the_smallest() {
        let spec = PlacementRuleSpec {
            cluster_replicas: Some(2),
            resource_hint: hint(SelectionOrder::Asc),
            ..PlacementRuleSpec::default()
        };
        assert_eq!(run(&spec, &[]).decisions, vec!["d", "a"]);
    }

    #[test]
    fn previous_decisions_are_kept_first() {
        let spec = PlacementRuleSpec {
            cluster_replicas: Some(2),
            ..PlacementRuleSpec::default()
        };
        let result = run(&spec, &["d".to_string(), "gone".to_string()]);
        assert_eq!(result.decisions, vec!["d", "a"]);
        assert_eq!(
            result.verdicts["b"],
            RuleVerdict::CutByClusterReplicas { position: 3 }
        );
    }
}
