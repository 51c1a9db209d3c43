//! A hub's previous decisions, as OCM names them: PlacementDecision objects, each naming its
//! Placement by label, and a PlacementRule's `status.decisions`.

use crate::model::{ObjectRef, PreviousDecision};

use super::placement::PLACEMENT_API_VERSION;

pub(crate) const DECISION_KIND: &str = "PlacementDecision";
pub(crate) const PLACEMENT_KIND: &str = "Placement";
pub(crate) const RULE_KIND: &str = "PlacementRule";

/// Whether a previous decision is a PlacementDecision object (the scheduler's input), not a
/// PlacementRule's `status.decisions` (that rule's own business).
pub(crate) fn is_placement_decision(decision: &PreviousDecision) -> bool {
    decision.object.kind == DECISION_KIND
}

/// The object a previous decision belongs to: a PlacementDecision's Placement (by its
/// placement label), otherwise the object that carried the decisions (a PlacementRule).
pub(crate) fn owner(decision: &PreviousDecision) -> ObjectRef {
    if is_placement_decision(decision) {
        ObjectRef {
            api_version: PLACEMENT_API_VERSION.to_string(),
            kind: PLACEMENT_KIND.to_string(),
            namespace: decision.object.namespace.clone(),
            name: decision.placement.clone(),
        }
    } else {
        decision.object.clone()
    }
}
