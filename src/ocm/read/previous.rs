//! `--previous` read as a live hub exports its decisions: PlacementDecisions, and
//! PlacementRules with their `status.decisions`. They are read by the kinds' own readers and
//! kept as they are, each naming the object it belongs to.

use crate::load::LoadError;
use crate::model::PreviousDecision;
use crate::ocm::model::decision::{is_placement_decision, DECISION_KIND, RULE_KIND};
use crate::ocm::model::placement::PLACEMENT_LABEL;

/// The kinds `--previous` reads as a hub's decisions.
pub(crate) const KINDS: &[&str] = &[DECISION_KIND, RULE_KIND];

/// What refuses `--previous`'s decisions: a PlacementDecision that names no Placement (its
/// placement label missing or empty) could be compared with nothing, so it is an error, not
/// skipped, and an export of only such decisions never reads as "no changes".
pub(crate) fn refused(decisions: &[PreviousDecision]) -> Vec<LoadError> {
    decisions
        .iter()
        .filter(|decision| is_placement_decision(decision) && decision.placement.is_empty())
        .map(|decision| LoadError::Invalid {
            at: decision.source.clone(),
            object: Some(decision.object.to_string()),
            path: format!("metadata.labels[{PLACEMENT_LABEL}]"),
            message: "missing or empty: a previous PlacementDecision must name its Placement, \
                      else it cannot be compared with anything"
                .to_string(),
        })
        .collect()
}
