//! `--previous`: a fleetplan Plan document, or PlacementDecision (and PlacementRule) manifests
//! as a live hub exports them, read into one Plan.

use std::collections::BTreeMap;
use std::io::Read;

use super::decode::decode;
use super::documents::{parse_documents, Document};
use super::inputs::read_inputs;
use super::kinds::planned_object;
use super::{LoadError, LoadErrors, LoadOptions};
use crate::model::{ItemSource, Plan, PlanItem, PLAN_API_VERSION, PLAN_KIND};

/// What `--previous` held. PlacementDecisions carry only the clusters of Placements (and a
/// PlacementRule's `status.decisions`), so `diff` compares nothing else against them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreviousKind {
    Plan,
    Decisions,
}

pub fn previous_plan(path: &str, stdin: &mut dyn Read) -> Result<(Plan, PreviousKind), LoadErrors> {
    previous_plan_limited(path, stdin, &LoadOptions::default())
}

/// [`previous_plan`] under the limits the user chose (`--max-input-bytes`, ...).
pub fn previous_plan_limited(
    path: &str,
    stdin: &mut dyn Read,
    options: &LoadOptions,
) -> Result<(Plan, PreviousKind), LoadErrors> {
    let (inputs, errors) = read_inputs(&[path.to_string()], stdin, options.max_input_bytes);
    if !errors.is_empty() {
        return Err(LoadErrors(errors));
    }
    let mut documents = Vec::new();
    for input in &inputs {
        documents.extend(parse_documents(input, options).map_err(|error| LoadErrors(vec![error]))?);
    }
    let is_plan = |document: &Document| {
        document.value.get("apiVersion").and_then(|v| v.as_str()) == Some(PLAN_API_VERSION)
            && document.value.get("kind").and_then(|v| v.as_str()) == Some(PLAN_KIND)
    };
    match documents.as_slice() {
        [document] if is_plan(document) => decode::<Plan>(&document.value)
            .map(|plan| (plan, PreviousKind::Plan))
            .map_err(|error| {
                LoadErrors(vec![LoadError::Invalid {
                    at: document.source.clone(),
                    object: None,
                    path: error.path,
                    message: error.message,
                }])
            }),
        _ => from_decisions(&documents, &options.namespace)
            .map(|plan| (plan, PreviousKind::Decisions)),
    }
}

/// Every PlacementDecision becomes its Placement's previous clusters; a PlacementRule's
/// `status.decisions` its own.
fn from_decisions(documents: &[Document], namespace: &str) -> Result<Plan, LoadErrors> {
    let model = super::load_documents(documents, namespace)?;
    let mut items: BTreeMap<ItemSource, Vec<String>> = BTreeMap::new();
    for decision in model.decisions.iter().filter(|d| !d.placement.is_empty()) {
        items
            .entry(planned_object(decision))
            .or_default()
            .extend(decision.clusters.iter().cloned());
    }
    Ok(Plan {
        items: items
            .into_iter()
            .map(|(source, mut clusters)| {
                clusters.sort();
                clusters.dedup();
                PlanItem {
                    source,
                    clusters,
                    ..PlanItem::default()
                }
            })
            .collect(),
        ..Plan::default()
    })
}
