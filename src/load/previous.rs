//! `--previous`: a fleetplan Plan document, or the decisions a live hub exports
//! (its decision objects, and the older OCM placements that carry
//! `status.decisions`), kept as decisions.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;

use serde_yaml::Value;

use super::decode::decode;
use super::documents::{parse_documents, Document};
use super::inputs::read_inputs;
use super::{LoadError, LoadErrors, LoadOptions};
use crate::model::{Plan, Previous, PreviousDecision, PLAN_API_VERSION, PLAN_KIND};
use crate::registry::{refused_previous_decisions, PREVIOUS_DECISION_KINDS};

/// What `--previous PATH` holds (`-`: standard input): a Plan, or a hub's decisions.
pub fn previous_plan(path: &str, stdin: &mut dyn Read) -> Result<Previous, LoadErrors> {
    previous_plan_limited(path, stdin, &LoadOptions::default())
}

/// [`previous_plan`] under the limits the user chose (`--max-input-bytes`, ...).
pub(crate) fn previous_plan_limited(
    path: &str,
    stdin: &mut dyn Read,
    options: &LoadOptions,
) -> Result<Previous, LoadErrors> {
    let read = read_inputs(
        &[path.to_string()],
        stdin,
        options.max_input_bytes,
        &options.walk,
    );
    if !read.errors.is_empty() {
        return Err(LoadErrors(read.errors));
    }
    let inputs = read.inputs;
    let mut documents = Vec::new();
    for input in &inputs {
        documents.extend(parse_documents(input, options).map_err(|error| LoadErrors(vec![error]))?);
    }
    documents.retain(|document| !document.value.is_null());
    let found = Found::of(&documents);
    if let Some(document) = documents.iter().find(|document| is_plan(&document.value)) {
        return read_plan(document, documents.len()).map(Previous::Plan);
    }
    // A previous plan of nothing (an empty file, `kubectl get` against the wrong context,
    // a pods list) would make every comparison "no changes": it is refused, not read as empty.
    if !found.has_decisions() {
        let message = format!(
            "not a previous plan: found {found}; expected a fleetplan Plan ({PLAN_API_VERSION}) or \
             {} manifests",
            PREVIOUS_DECISION_KINDS.join("/")
        );
        return Err(LoadErrors(vec![LoadError::input(path, message)]));
    }
    decisions(&documents, &options.namespace).map(Previous::Decisions)
}

/// A fleetplan Plan of any version: the group and kind say what the author meant.
fn is_plan(value: &Value) -> bool {
    let field = |name: &str| value.get(name).and_then(Value::as_str).unwrap_or_default();
    let group = |api_version: &str| api_version.split('/').next().map(str::to_string);
    field("kind") == PLAN_KIND && group(field("apiVersion")) == group(PLAN_API_VERSION)
}

/// The Plan document, when it is the only document, of the version this build reads, and
/// holds only values a plan can.
fn read_plan(document: &Document, documents: usize) -> Result<Plan, LoadErrors> {
    let invalid = |path: String, message: String| {
        LoadErrors(vec![LoadError::Invalid {
            at: document.source.clone(),
            object: None,
            path,
            message,
        }])
    };
    let version = document
        .value
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if version != PLAN_API_VERSION {
        return Err(invalid(
            "apiVersion".to_string(),
            format!(
                "expected {PLAN_API_VERSION} (the Plan version this build reads), found {version}"
            ),
        ));
    }
    if documents > 1 {
        return Err(invalid(
            String::new(),
            format!("a previous Plan must be the only document, found {documents} documents"),
        ));
    }
    let plan: Plan = decode(&document.value).map_err(|error| invalid(error.path, error.message))?;
    for (index, item) in plan.items.iter().enumerate() {
        for (field, counts) in [("replicas", &item.replicas), ("overflow", &item.overflow)] {
            if let Some((cluster, count)) = counts.iter().find(|(_, count)| **count < 0) {
                return Err(invalid(
                    format!("items[{index}].{field}.{cluster}"),
                    format!("expected a non-negative number of replicas, found {count}"),
                ));
            }
        }
    }
    Ok(plan)
}

/// What the documents of `--previous` were, for the error that refuses them: the kinds of
/// the objects (a List's items counted as objects) and the empty Lists.
struct Found {
    kinds: BTreeMap<String, usize>,
    empty_lists: usize,
}

impl Found {
    fn of(documents: &[Document]) -> Found {
        let mut found = Found {
            kinds: BTreeMap::new(),
            empty_lists: 0,
        };
        for document in documents {
            found.add(&document.value);
        }
        found
    }

    fn add(&mut self, value: &Value) {
        let kind = value.get("kind").and_then(Value::as_str);
        match (kind, value.get("items").and_then(Value::as_sequence)) {
            (Some(kind), Some(items)) if kind.ends_with("List") => {
                if items.is_empty() {
                    self.empty_lists += 1;
                }
                for item in items {
                    self.add(item);
                }
            }
            (Some(kind), _) => *self.kinds.entry(kind.to_string()).or_default() += 1,
            (None, _) => {
                *self
                    .kinds
                    .entry("document without a kind".to_string())
                    .or_default() += 1
            }
        }
    }

    fn has_decisions(&self) -> bool {
        PREVIOUS_DECISION_KINDS
            .iter()
            .any(|kind| self.kinds.contains_key(*kind))
    }
}

/// `no documents`, `an empty List`, `2 Pod, 1 Service`.
impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = self
            .kinds
            .iter()
            .map(|(kind, count)| format!("{count} {kind}"))
            .collect();
        match self.empty_lists {
            0 => {}
            1 => parts.push("an empty List".to_string()),
            lists => parts.push(format!("{lists} empty Lists")),
        }
        if parts.is_empty() {
            f.write_str("no documents")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

/// The decisions of the documents, as their kinds' readers read them (the other objects
/// are read and left), unless the decisions' API refuses them.
fn decisions(documents: &[Document], namespace: &str) -> Result<Vec<PreviousDecision>, LoadErrors> {
    let model = super::load_documents(documents, namespace)?;
    let refused = refused_previous_decisions(&model.decisions);
    if !refused.is_empty() {
        return Err(LoadErrors(refused));
    }
    Ok(model.decisions)
}
