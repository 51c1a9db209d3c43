//! `work.open-cluster-management.io/v1alpha1` `ManifestWorkReplicaSet`: its
//! `spec.placementRefs` and their `rolloutStrategy` (open-cluster-management-io/api
//! `work/v1alpha1`, `cluster/v1alpha1/types_rolloutstrategy.go`).

use serde::Deserialize;

use super::{consumer, not_empty, one_of, WithSpec};
use crate::load::decode::{null_as_default, FieldError};
use crate::load::kinds::{Api, KnownKind};
use crate::load::model_builder::Decoded;
use crate::load::names::Names;
use crate::load::object::{Object, Scope};
use crate::load::LoadError;
use crate::ocm::model::consumer::{ConsumerSpec, MandatoryGroup, RolloutStrategy, Threshold};

pub(crate) const API: Api = Api {
    kinds: &[KnownKind {
        group: "work.open-cluster-management.io",
        kind: "ManifestWorkReplicaSet",
        versions: &["v1alpha1"],
        scope: Scope::Namespaced,
        names: Names::Subdomain,
        read: manifest_work_replica_set,
    }],
    claims: None,
};

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    #[serde(default, deserialize_with = "null_as_default")]
    placement_refs: Vec<PlacementRef>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PlacementRef {
    #[serde(default, deserialize_with = "null_as_default")]
    name: String,
    #[serde(default, deserialize_with = "null_as_default")]
    rollout_strategy: Rollout,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Rollout {
    #[serde(default, rename = "type", deserialize_with = "null_as_default")]
    type_: String,
    #[serde(default, deserialize_with = "null_as_default")]
    progressive: Block,
    #[serde(default, deserialize_with = "null_as_default")]
    progressive_per_group: Block,
}

/// `progressive` or `progressivePerGroup` (`all` has nothing that orders the rollout).
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Block {
    #[serde(default, deserialize_with = "null_as_default")]
    mandatory_decision_groups: Vec<Mandatory>,
    #[serde(default, deserialize_with = "null_as_default")]
    max_concurrency: Option<RawThreshold>,
    #[serde(default, deserialize_with = "null_as_default")]
    max_failures: Option<RawThreshold>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Mandatory {
    #[serde(default, deserialize_with = "null_as_default")]
    group_name: String,
    #[serde(default, deserialize_with = "null_as_default")]
    group_index: i64,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawThreshold {
    Count(i64),
    Text(String),
}

/// The CRD's pattern for an int-or-string count given as a string:
/// `^((100|[0-9]{1,2})%|[0-9]+)$`.
fn threshold(path: &str, raw: Option<RawThreshold>) -> Result<Option<Threshold>, FieldError> {
    let text = match raw {
        None => return Ok(None),
        Some(RawThreshold::Count(count)) => return Ok(Some(Threshold::Count(count))),
        Some(RawThreshold::Text(text)) => text,
    };
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    let valid = match text.strip_suffix('%') {
        Some(percent) => percent == "100" || (digits(percent) && percent.len() <= 2),
        None => digits(&text),
    };
    if !valid {
        return Err(FieldError::new(
            path,
            format!(
                "Invalid value: {:?}: {path} in body should match '^((100|[0-9]{{1,2}})%|[0-9]+)$'",
                crate::model::echo(&text)
            ),
        ));
    }
    Ok(Some(Threshold::Text(text)))
}

fn manifest_work_replica_set(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: WithSpec<Spec> = object.decode()?;
    let mut placements = Vec::new();
    for (at, reference) in doc.spec.placement_refs.into_iter().enumerate() {
        let path = format!("spec.placementRefs[{at}]");
        not_empty(&format!("{path}.name"), &reference.name).map_err(|e| object.invalid(e))?;
        let rollout = reference.rollout_strategy;
        let field = format!("{path}.rolloutStrategy");
        // The CRD defaults the strategy's type to All.
        let type_ = match rollout.type_.as_str() {
            "" => "All".to_string(),
            other => other.to_string(),
        };
        one_of(
            &format!("{field}.type"),
            &type_,
            &["All", "Progressive", "ProgressivePerGroup"],
        )
        .map_err(|e| object.invalid(e))?;
        let (block, name) = match type_.as_str() {
            "Progressive" => (rollout.progressive, "progressive"),
            "ProgressivePerGroup" => (rollout.progressive_per_group, "progressivePerGroup"),
            _ => (Block::default(), "all"),
        };
        let field = format!("{field}.{name}");
        let strategy = RolloutStrategy {
            mandatory: block
                .mandatory_decision_groups
                .into_iter()
                .map(|group| match group.group_name {
                    name if name.is_empty() => MandatoryGroup::Index(group.group_index),
                    name => MandatoryGroup::Name(name),
                })
                .collect(),
            max_concurrency: threshold(&format!("{field}.maxConcurrency"), block.max_concurrency)
                .map_err(|e| object.invalid(e))?,
            max_failures: threshold(&format!("{field}.maxFailures"), block.max_failures)
                .map_err(|e| object.invalid(e))?,
            type_,
        };
        placements.push((reference.name, strategy));
    }
    Ok(consumer(
        object,
        ConsumerSpec::ManifestWorkReplicaSet { placements },
    ))
}
