//! `PlacementSatisfied` and `PlacementMisconfigured` (upstream `newSatisfiedCondition`,
//! `newMisconfiguredCondition`), with upstream's reasons and messages.

use serde::Serialize;

use crate::model::echo;

pub(crate) use crate::model::Condition;

/// The outcome of the scheduling framework: upstream's `framework.Status`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "camelCase")]
pub enum Status {
    Success,
    /// Scheduling went on (e.g. expired AddOnPlacementScores).
    Warning {
        plugin: String,
        message: String,
    },
    /// The placement cannot be scheduled as written; no cluster is selected.
    Misconfigured {
        plugin: String,
        message: String,
    },
    /// The inputs could not be read the way the controller needs (e.g. a clusterset with an
    /// unknown selector type); upstream's sync fails with it.
    Error {
        message: String,
    },
}

fn condition(kind: &str, status: bool, reason: &str, message: String) -> Condition {
    Condition {
        type_: kind.to_string(),
        status: status.into(),
        reason: reason.to_string(),
        message,
    }
}

pub(crate) const SATISFIED: &str = "PlacementSatisfied";
pub(crate) const MISCONFIGURED: &str = "PlacementMisconfigured";

/// The counts `PlacementSatisfied` is decided from.
pub(crate) struct Counts<'c> {
    pub cluster_sets_in_spec: &'c [String],
    pub eligible_sets: &'c [String],
    pub bindings: usize,
    pub available: usize,
    /// Upstream passes the number of selected clusters here.
    pub feasible: usize,
    pub unscheduled: i64,
}

pub(crate) fn satisfied(counts: &Counts, status: &Status) -> Condition {
    if counts.bindings == 0 {
        return condition(
            SATISFIED,
            false,
            "NoManagedClusterSetBindings",
            "No valid ManagedClusterSetBindings found in placement namespace".to_string(),
        );
    }
    if counts.eligible_sets.is_empty() {
        return condition(
            SATISFIED,
            false,
            "NoIntersection",
            format!(
                "None of ManagedClusterSets [{}] is bound to placement namespace",
                counts
                    .cluster_sets_in_spec
                    .iter()
                    .map(|set| echo(set).to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        );
    }
    // Upstream checks the error after the empty-sets case, but its only offline source
    // (a clusterset whose members cannot be listed) leaves no available cluster, and the
    // controller's sync fails with it before writing any condition: say so, not "empty".
    if let Status::Error { message } = status {
        return condition(
            SATISFIED,
            false,
            "NotAllDecisionsScheduled",
            message.clone(),
        );
    }
    if counts.available == 0 {
        return condition(
            SATISFIED,
            false,
            "AllManagedClusterSetsEmpty",
            format!(
                "All ManagedClusterSets [{}] have no member ManagedCluster",
                counts.eligible_sets.join(",")
            ),
        );
    }
    if counts.feasible == 0 {
        return condition(
            SATISFIED,
            false,
            "NoManagedClusterMatched",
            "No ManagedCluster matches any of the cluster predicate".to_string(),
        );
    }
    if counts.unscheduled == 0 {
        return condition(
            SATISFIED,
            true,
            "AllDecisionsScheduled",
            "All cluster decisions scheduled".to_string(),
        );
    }
    condition(
        SATISFIED,
        false,
        "NotAllDecisionsScheduled",
        format!("{} cluster decisions unscheduled", counts.unscheduled),
    )
}

pub(crate) fn misconfigured(status: &Status) -> Condition {
    match status {
        Status::Misconfigured { plugin, message } => condition(
            MISCONFIGURED,
            true,
            "Misconfigured",
            format!("{plugin}:{message}"),
        ),
        _ => condition(
            MISCONFIGURED,
            false,
            "Succeedconfigured",
            "Placement configurations check pass".to_string(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ConditionStatus;

    #[test]
    fn misconfigured_message_names_the_plugin() {
        let status = Status::Misconfigured {
            plugin: "TaintToleration".into(),
            message: "If the key is empty, operator must be Exists.".into(),
        };
        let condition = misconfigured(&status);
        assert_eq!(condition.status, ConditionStatus::True);
        assert_eq!(
            condition.message,
            "TaintToleration:If the key is empty, operator must be Exists."
        );
    }

    #[test]
    fn unscheduled_decisions_are_counted_in_the_message() {
        let sets = vec!["a".to_string()];
        let counts = Counts {
            cluster_sets_in_spec: &[],
            eligible_sets: &sets,
            bindings: 1,
            available: 1,
            feasible: 1,
            unscheduled: 2,
        };
        let condition = satisfied(&counts, &Status::Success);
        assert_eq!(condition.reason, "NotAllDecisionsScheduled");
        assert_eq!(condition.message, "2 cluster decisions unscheduled");
    }
}
