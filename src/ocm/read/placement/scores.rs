//! OCM `AddOnPlacementScore` (cluster.open-cluster-management.io/v1alpha1).

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::load::decode::{null_as_default, optional_time};
use crate::load::kinds::claimed;
use crate::load::model_builder::{Decoded, Entry};
use crate::load::object::Object;
use crate::load::LoadError;
use crate::ocm::model::scores::AddOnPlacementScore;
use crate::registry::ApiObject;

#[derive(Default, Deserialize)]
struct ScoreDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    status: ScoreStatus,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ScoreStatus {
    #[serde(default, deserialize_with = "null_as_default")]
    scores: Vec<ScoreItem>,
    #[serde(default, deserialize_with = "optional_time")]
    valid_until: Option<i64>,
}

/// `value` is an int32 in the API.
#[derive(Deserialize)]
struct ScoreItem {
    name: String,
    value: i32,
}

pub(super) fn addon_score(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: ScoreDoc = object.decode()?;
    let scores: BTreeMap<String, i64> = doc
        .status
        .scores
        .into_iter()
        .map(|score| (score.name, i64::from(score.value)))
        .collect();
    let score = AddOnPlacementScore {
        namespace: object.object.namespace.clone().unwrap_or_default(),
        name: object.name().to_string(),
        scores,
        valid_until: doc.status.valid_until,
        source: object.source.clone(),
    };
    Ok(claimed(object, Entry::Api(ApiObject::AddOnScore(score))))
}
