//! What the user sees in a policy snapshot's status (`framework/frameworkutils.go`
//! `newSchedulingDecisionsFromBindings`, `newScheduledConditionFromBindings`,
//! `newSchedulingDecisionsForPickFixedPlacementType`), and the placement's copy of it.

use super::model::binding::{Binding, ClusterDecision};
use super::score::ScoredCluster;
use crate::model::{Condition, ConditionStatus};

/// The scheduler's default `maxUnselectedClusterDecisionCount`.
pub(crate) const MAX_UNSELECTED: usize = 20;
/// `clustersDecisionArrayLengthLimitInAPI`.
const API_LIMIT: usize = 1000;

pub(crate) const SCHEDULED: &str = "Scheduled";
pub(crate) const FULFILLED: &str = "SchedulingPolicyFulfilled";
pub(crate) const UNFULFILLED: &str = "SchedulingPolicyUnfulfilled";

/// `resourceScheduleSucceededWithScoreMessageFormat`.
pub(crate) fn picked_reason(cluster: &str, affinity: i32, topology_spread: i32) -> String {
    format!("Successfully scheduled resources for placement in \"{cluster}\" (affinity score: {affinity}, topology spread score: {topology_spread}): picked by scheduling policy")
}

/// `resourceScheduleSucceededMessageFormat` (PickFixed: no score).
pub(crate) fn picked_fixed_reason(cluster: &str) -> String {
    format!("Successfully scheduled resources for placement in \"{cluster}\": picked by scheduling policy")
}

/// A cluster a filter rejected, with the plugin status text (`"ClusterUnschedulable, …"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Filtered<'c> {
    pub(crate) cluster: &'c str,
    pub(crate) reason: String,
}

/// `newSchedulingDecisionsFromBindings`: each binding's stored decision (up to the API
/// limit), then at most `max_unselected` more: scored but not picked, then filtered. A cluster
/// already listed is skipped, and in the filtered loop a skipped cluster still uses a slot.
pub(crate) fn from_bindings(
    max_unselected: usize,
    not_picked: &[ScoredCluster<'_>],
    filtered: &[Filtered<'_>],
    existing: &[&[Binding]],
) -> Vec<ClusterDecision> {
    let mut decisions = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut slots_left = API_LIMIT;
    for bindings in existing {
        for binding in bindings.iter().take(slots_left) {
            decisions.push(binding.cluster_decision.clone());
            seen.insert(binding.target_cluster.as_str());
        }
        slots_left = slots_left.saturating_sub(bindings.len());
        if slots_left == 0 {
            break;
        }
    }
    let mut max_unselected = max_unselected;
    for scored in not_picked {
        if slots_left == 0 || max_unselected == 0 {
            break;
        }
        if seen.contains(scored.name) {
            continue;
        }
        let score = scored.score;
        decisions.push(ClusterDecision {
            cluster_name: scored.name.to_string(),
            selected: false,
            cluster_score: Some(score.binding_score()),
            reason: format!(
                "Cluster \"{}\" does not score high enough (affinity score: {}, topology spread score: {})",
                scored.name, score.affinity, score.topology_spread
            ),
        });
        slots_left -= 1;
        max_unselected -= 1;
    }
    for entry in filtered.iter().take(max_unselected.min(slots_left)) {
        if seen.contains(entry.cluster) {
            continue;
        }
        decisions.push(ClusterDecision {
            cluster_name: entry.cluster.to_string(),
            selected: false,
            cluster_score: None,
            reason: entry.reason.clone(),
        });
    }
    decisions
}

/// `newScheduledConditionFromBindings`: fulfilled when `count` bindings reach the desired
/// number.
pub(crate) fn scheduled_condition(desired: usize, count: usize) -> Condition {
    if count < desired {
        unfulfilled(count)
    } else {
        fulfilled(count)
    }
}

fn fulfilled(count: usize) -> Condition {
    Condition {
        type_: SCHEDULED.to_string(),
        status: ConditionStatus::True,
        reason: FULFILLED.to_string(),
        message: format!("found all cluster needed as specified by the scheduling policy, found {count} cluster(s)"),
    }
}

fn unfulfilled(count: usize) -> Condition {
    Condition {
        type_: SCHEDULED.to_string(),
        status: ConditionStatus::False,
        reason: UNFULFILLED.to_string(),
        message: format!("could not find all clusters needed as specified by the scheduling policy, found {count} cluster(s) instead"),
    }
}

/// A PickFixed name that names a cluster that cannot take placements, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Invalid<'c> {
    pub(crate) cluster: &'c str,
    pub(crate) reason: String,
}

/// `newSchedulingDecisionsForPickFixedPlacementType`: valid, then invalid, then not found.
pub(crate) fn pick_fixed(
    valid: &[&str],
    invalid: &[Invalid<'_>],
    not_found: &[&str],
) -> Vec<ClusterDecision> {
    let valid = valid.iter().map(|cluster| ClusterDecision {
        cluster_name: cluster.to_string(),
        selected: true,
        cluster_score: None,
        reason: picked_fixed_reason(cluster),
    });
    let invalid = invalid.iter().map(|entry| ClusterDecision {
        cluster_name: entry.cluster.to_string(),
        selected: false,
        cluster_score: None,
        reason: format!(
            "Cluster \"{}\" is not eligible for resource placement yet: {}",
            entry.cluster, entry.reason
        ),
    });
    let not_found = not_found.iter().map(|cluster| ClusterDecision {
        cluster_name: cluster.to_string(),
        selected: false,
        cluster_score: None,
        reason: format!("Specified cluster \"{cluster}\" is not found"),
    });
    valid.chain(invalid).chain(not_found).collect()
}

/// PickFixed is fulfilled when every name is valid; the count is the valid names.
pub(crate) fn pick_fixed_condition(valid: usize, invalid: usize, not_found: usize) -> Condition {
    if invalid + not_found > 0 {
        unfulfilled(valid)
    } else {
        fulfilled(valid)
    }
}
