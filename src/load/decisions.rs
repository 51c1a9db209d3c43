//! Previous decisions: OCM `PlacementDecision` objects and a `PlacementRule`'s
//! `status.decisions`, the stability input of the scheduler.

use serde::Deserialize;

use super::decode::{null_as_default, FieldError};
use super::model_builder::ModelBuilder;
use super::object::Object;
use super::LoadError;
use crate::model::PreviousDecision;

/// The label OCM puts on every PlacementDecision it writes.
pub const PLACEMENT_LABEL: &str = "cluster.open-cluster-management.io/placement";

#[derive(Default, Deserialize)]
pub struct DecisionsDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    status: DecisionsStatus,
}

#[derive(Default, Deserialize)]
struct DecisionsStatus {
    #[serde(default, deserialize_with = "null_as_default")]
    decisions: Vec<DecisionItem>,
}

/// `clusterName` in both kinds (PlacementRule's also has `clusterNamespace`).
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

pub fn placement_decision(
    object: &Object<'_>,
    builder: &mut ModelBuilder,
) -> Result<(), LoadError> {
    let Some(placement) = object.meta.labels.get(PLACEMENT_LABEL).cloned() else {
        return Err(object.invalid(FieldError::new(
            "metadata.labels",
            format!("expected the label {PLACEMENT_LABEL} naming the placement, found none"),
        )));
    };
    let doc: DecisionsDoc = object.decode()?;
    if builder.claim(&object.object, &object.source) {
        builder.decision(PreviousDecision {
            object: object.object.clone(),
            placement,
            clusters: doc.clusters(),
            source: object.source.clone(),
        });
    }
    Ok(())
}

/// A PlacementRule's own `status.decisions`, when it has any.
pub fn placement_rule_decisions(
    object: &Object<'_>,
    doc: DecisionsDoc,
) -> Option<PreviousDecision> {
    let clusters = doc.clusters();
    (!clusters.is_empty()).then(|| PreviousDecision {
        object: object.object.clone(),
        placement: object.name().to_string(),
        clusters,
        source: object.source.clone(),
    })
}
