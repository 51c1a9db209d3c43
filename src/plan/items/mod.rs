//! What the federation and kubefed plan steps share: selection by the federation
//! cluster-selector annotation, and the replica planner after a selection (`replicas`).

pub(crate) mod replicas;

use crate::model::Workload;
use crate::plan::federated_fleet::FederatedFleet;
use crate::plan::trace::{SelectionRule, SelectionTrace};
use crate::selector::{Selector, SelectorError};

/// A selector a workload's clusters cannot be chosen by, named by the field it was read
/// from: the item fails closed, as the federation controllers placed it nowhere.
#[derive(Debug, thiserror::Error)]
#[error("{field}: {error}")]
pub(crate) struct SelectionError {
    pub(crate) field: &'static str,
    pub(crate) error: SelectorError,
}

/// The clusters the `federation.alpha.kubernetes.io/cluster-selector` annotation chooses
/// (every online cluster without one): a federation object's selection, and that of the
/// target of a kubefed replica division when the target is not a federated object.
pub(crate) fn annotation_selection(
    fleet: &FederatedFleet<'_, '_>,
    workload: &Workload,
) -> Result<SelectionTrace, SelectionError> {
    let Some(annotation) = &workload.cluster_selector else {
        return Ok(SelectionTrace {
            rule: SelectionRule::Everything,
            selected: fleet.online().clone(),
        });
    };
    // Fail closed: the federation controllers placed an object with a bad annotation nowhere.
    let selector = Selector::from_annotation(annotation).map_err(|error| SelectionError {
        field: "annotation federation.alpha.kubernetes.io/cluster-selector",
        error,
    })?;
    Ok(SelectionTrace {
        selected: fleet.online_matching(&selector),
        rule: SelectionRule::Annotation(selector),
    })
}
