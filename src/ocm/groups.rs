//! Decision groups and PlacementDecision objects (upstream `generateDecisionGroups`,
//! `generateDecision`): named groups take their matching clusters first, the rest form
//! groups named ""; each group becomes PlacementDecisions of at most 100 clusters.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde::Serialize;

use crate::model::{ClusterNames, NameTable};
use crate::ocm::model::placement::{
    GroupStrategy, IntOrString, DECISION_GROUP_INDEX_LABEL, DECISION_GROUP_NAME_LABEL,
    PLACEMENT_LABEL,
};
use crate::selector::{Selector, SelectorError};

use super::fleet::FleetIndex;

pub(crate) const MAX_DECISIONS_PER_OBJECT: usize = 100;

/// A `status.decisionGroups[]` entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DecisionGroupStatus {
    pub decision_group_index: usize,
    pub decision_group_name: String,
    /// PlacementDecision names.
    pub decisions: Vec<String>,
    pub cluster_count: usize,
    /// The group's clusters, sorted by name.
    pub clusters: ClusterNames,
}

/// A PlacementDecision object as the controller would write it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DecisionObject {
    pub name: String,
    pub namespace: String,
    pub labels: BTreeMap<String, String>,
    /// `status.decisions[].clusterName`, sorted by name.
    pub clusters: ClusterNames,
}

/// Where a selected cluster was put: its decision group and PlacementDecision object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Placed<'d> {
    pub group_index: usize,
    pub group_name: &'d str,
    pub decision: &'d str,
}

/// Each cluster of `decisions`, by name, with the group and object it is in (read back from
/// the objects' labels, as a reader of the PlacementDecisions would).
pub(crate) fn placed(decisions: &[DecisionObject]) -> HashMap<&str, Placed<'_>> {
    let mut placed = HashMap::new();
    for decision in decisions {
        let group_index = decision
            .labels
            .get(DECISION_GROUP_INDEX_LABEL)
            .and_then(|index| index.parse().ok())
            .unwrap_or(0);
        let group_name = decision
            .labels
            .get(DECISION_GROUP_NAME_LABEL)
            .map_or("", String::as_str);
        for cluster in &decision.clusters {
            placed.insert(
                cluster,
                Placed {
                    group_index,
                    group_name,
                    decision: decision.name.as_str(),
                },
            );
        }
    }
    placed
}

/// A decision strategy upstream refuses (Misconfigured), with upstream's message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum GroupsError {
    #[error(
        "spec.decisionStrategy.groupStrategy.clustersPerDecisionGroup: {:?} invalid type: string is not a percentage",
        crate::model::echo(.0)
    )]
    NotAPercentage(String),
    /// A decision group's `groupClusterSelector` that cannot be built (boxed: the success
    /// path of every placement carries this `Result`).
    #[error(transparent)]
    Selector(Box<SelectorError>),
}

impl From<SelectorError> for GroupsError {
    fn from(error: SelectorError) -> Self {
        GroupsError::Selector(Box::new(error))
    }
}

/// Upstream `calculateLength`: an int, or `ceil(p% × total)`; ≤ 0 or > total is total.
pub(crate) fn group_length(per_group: &IntOrString, total: usize) -> Result<usize, GroupsError> {
    let length = match per_group {
        IntOrString::Int(count) => *count,
        IntOrString::String(text) => {
            let percent = text
                .strip_suffix('%')
                .and_then(|number| number.parse::<f64>().ok())
                .ok_or_else(|| GroupsError::NotAPercentage(text.clone()))?;
            (percent / 100.0 * total as f64).ceil() as i64
        }
    };
    Ok(match usize::try_from(length) {
        Ok(length) if length > 0 && length <= total => length,
        _ => total,
    })
}

/// A decision group: its name and its clusters' name ranks.
pub(crate) type RankedGroup = (String, Vec<usize>);

/// Groups `selected` (in name order, each cluster's inventory index in `fleet` with its name
/// rank) by the strategy: named groups take their matching clusters first, the rest form
/// groups named "". Each group lists its clusters in name order.
pub(crate) fn decision_groups(
    strategy: &GroupStrategy,
    fleet: &FleetIndex,
    selected: &[(usize, usize)],
) -> Result<Vec<RankedGroup>, GroupsError> {
    let length = group_length(&strategy.clusters_per_decision_group, selected.len())?;
    let mut grouped = vec![false; selected.len()];
    let mut groups = Vec::new();
    for group in &strategy.decision_groups {
        let selector = &group.group_cluster_selector;
        let labels = Selector::from_label_selector(Some(&selector.label_selector))?;
        let claims = Selector::from_claim_selector(&selector.claim_selector)?;
        // An empty selector matches every cluster without indexing the fleet.
        let labels = (!labels.is_everything()).then(|| fleet.labels().table().resolve(labels));
        let claims = (!claims.is_everything()).then(|| fleet.claims().table().resolve(claims));
        let mut matched = Vec::new();
        for (&(index, rank), grouped) in selected.iter().zip(&mut grouped) {
            if !*grouped
                && labels.as_ref().is_none_or(|labels| labels.matches(index))
                && claims.as_ref().is_none_or(|claims| claims.matches(index))
            {
                *grouped = true;
                matched.push(rank);
            }
        }
        divide(&group.group_name, &matched, length, &mut groups);
    }
    let rest: Vec<usize> = selected
        .iter()
        .zip(&grouped)
        .filter(|(_, grouped)| !**grouped)
        .map(|(&(_, rank), _)| rank)
        .collect();
    divide("", &rest, length, &mut groups);
    if groups.is_empty() {
        groups.push((String::new(), Vec::new()));
    }
    Ok(groups)
}

fn divide(name: &str, clusters: &[usize], length: usize, groups: &mut Vec<RankedGroup>) {
    for chunk in clusters.chunks(length.max(1)) {
        groups.push((name.to_string(), chunk.to_vec()));
    }
}

/// Upstream's `generatePlacementDecisionsAndStatus` naming: each group's clusters in slices
/// of at most 100 (an empty group, one empty slice), each slice a PlacementDecision named
/// `<placement>-decision-<n>`, n counted from 1 across the groups in their order. The one
/// naming of decisions: what the scheduler writes, and what a previous plan stands for.
pub(crate) fn named_slices<'c, T>(
    placement: &str,
    groups: &[&'c [T]],
) -> Vec<Vec<(String, &'c [T])>> {
    let mut number = 0;
    groups
        .iter()
        .map(|clusters| {
            let mut slices: Vec<&[T]> = clusters.chunks(MAX_DECISIONS_PER_OBJECT).collect();
            if slices.is_empty() {
                slices.push(&[]);
            }
            slices
                .into_iter()
                .map(|slice| {
                    number += 1;
                    (format!("{placement}-decision-{number}"), slice)
                })
                .collect()
        })
        .collect()
}

/// The PlacementDecision objects and group statuses (clusters named by their ranks in
/// `table`); object numbers start at 1 and run across groups, group indices start at 0.
pub(crate) fn decision_objects(
    namespace: &str,
    placement: &str,
    table: &Arc<NameTable>,
    groups: Vec<RankedGroup>,
) -> (Vec<DecisionGroupStatus>, Vec<DecisionObject>) {
    let mut statuses = Vec::new();
    let mut objects = Vec::new();
    let clusters: Vec<&[usize]> = groups.iter().map(|(_, clusters)| &clusters[..]).collect();
    let named = named_slices(placement, &clusters);
    for (index, ((group_name, clusters), slices)) in groups.iter().zip(named).enumerate() {
        let mut names = Vec::new();
        for (name, slice) in slices {
            let labels = BTreeMap::from([
                (PLACEMENT_LABEL.to_string(), placement.to_string()),
                (DECISION_GROUP_NAME_LABEL.to_string(), group_name.clone()),
                (DECISION_GROUP_INDEX_LABEL.to_string(), index.to_string()),
            ]);
            names.push(name.clone());
            objects.push(DecisionObject {
                name,
                namespace: namespace.to_string(),
                labels,
                clusters: ClusterNames::ranked(table, slice.iter().copied()),
            });
        }
        statuses.push(DecisionGroupStatus {
            decision_group_index: index,
            decision_group_name: group_name.clone(),
            decisions: names,
            cluster_count: clusters.len(),
            clusters: ClusterNames::ranked(table, clusters.iter().copied()),
        });
    }
    (statuses, objects)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentage_rounds_up() {
        assert_eq!(group_length(&IntOrString::String("25%".into()), 3), Ok(1));
    }

    #[test]
    fn length_beyond_total_is_total() {
        assert_eq!(group_length(&IntOrString::Int(10), 3), Ok(3));
        assert_eq!(group_length(&IntOrString::Int(0), 3), Ok(3));
    }

    #[test]
    fn string_without_percent_is_misconfigured() {
        let err = group_length(&IntOrString::String("5".into()), 3).unwrap_err();
        assert_eq!(err, GroupsError::NotAPercentage("5".into()));
        assert_eq!(
            err.to_string(),
            "spec.decisionStrategy.groupStrategy.clustersPerDecisionGroup: \"5\" invalid type: string is not a percentage"
        );
    }

    #[test]
    fn large_group_splits_into_objects_of_one_hundred() {
        let names: Vec<String> = (0..250).map(|n| format!("c{n:03}")).collect();
        let names = Arc::new(NameTable::new(names.iter().map(String::as_str)));
        let clusters = (0..250).collect();
        let (statuses, objects) =
            decision_objects("ns", "p", &names, vec![(String::new(), clusters)]);
        assert_eq!(objects.len(), 3);
        assert_eq!(objects[2].name, "p-decision-3");
        assert_eq!(objects[2].clusters.len(), 50);
        assert_eq!(objects[2].clusters.get(0), Some("c200"));
        assert_eq!(statuses[0].decisions.len(), 3);
        assert_eq!(statuses[0].cluster_count, 250);
    }

    #[test]
    fn empty_selection_still_writes_one_empty_decision() {
        let names = Arc::new(NameTable::default());
        let (statuses, objects) =
            decision_objects("ns", "p", &names, vec![(String::new(), Vec::new())]);
        assert_eq!(objects.len(), 1);
        assert!(objects[0].clusters.is_empty());
        assert_eq!(statuses[0].decisions, vec!["p-decision-1"]);
    }
}
