//! OCM `PlacementDecision` objects: previous decisions, the stability input of the scheduler.

use serde::Deserialize;

use crate::load::decode::null_as_default;
use crate::load::kinds::claimed;
use crate::load::model_builder::{Decoded, Entry};
use crate::load::object::Object;
use crate::load::LoadError;
use crate::model::PreviousDecision;
use crate::ocm::model::placement::PLACEMENT_LABEL;

#[derive(Default, Deserialize)]
struct DecisionsDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    status: DecisionsStatus,
}

#[derive(Default, Deserialize)]
struct DecisionsStatus {
    #[serde(default, deserialize_with = "null_as_default")]
    decisions: Vec<DecisionItem>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DecisionItem {
    cluster_name: String,
}

impl DecisionsDoc {
    fn clusters(self) -> Vec<String> {
        self.status
            .decisions
            .into_iter()
            .map(|decision| decision.cluster_name)
            .collect()
    }
}

pub(super) fn placement_decision(object: Object<'_>) -> Result<Decoded, LoadError> {
    // Without the label the decision still counts for Balance (upstream counts every
    // PlacementDecision of the hub); it just belongs to no placement.
    let placement = object
        .meta
        .labels
        .get(PLACEMENT_LABEL)
        .cloned()
        .unwrap_or_default();
    let doc: DecisionsDoc = object.decode()?;
    let decision = PreviousDecision {
        object: object.object.clone(),
        placement,
        clusters: doc.clusters(),
        source: object.source.clone(),
    };
    Ok(claimed(object, Entry::Decision(decision)))
}
