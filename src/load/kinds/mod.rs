//! Every kind fleetplan reads, grouped by the placement API that defines it: one file (or
//! folder) per API, and one line per API in [`APIS`]. The fleet's cluster kinds share their
//! document shapes (taints, conditions) in `load/clusters.rs`; each API reads and lists the
//! ones it brings.

pub(crate) mod inventory;

use serde_json::Value;

use super::content::Content;
use super::decode::FieldError;
use super::model_builder::{Decoded, Entry};
use super::names::Names;
use super::object::{Object, Scope, TypeMeta};
use super::LoadError;
use crate::model::{PreviousDecision, Workload, WorkloadKind};

pub(crate) use crate::registry::CLUSTER_SELECTOR_ANNOTATION;

/// Decodes one object of its kind, reading nothing but the object (see [`Decoded`]).
pub(crate) type Reader = fn(Object<'_>) -> Result<Decoded, LoadError>;

/// What one API reads.
pub(crate) struct Api {
    pub kinds: &'static [KnownKind],
    /// A reader for an object of a kind no API defines that this API still asks placement for
    /// (the federation annotations on any object), decided from the object's content.
    pub claims: Option<fn(Content<'_>) -> Option<Reader>>,
}

/// A kind fleetplan reads: its API group, the versions it understands, and its reader.
pub(crate) struct KnownKind {
    pub group: &'static str,
    /// The kind; a trailing `*` matches every kind with that prefix (a family of kinds, such
    /// as kubefed's federated types).
    pub kind: &'static str,
    pub versions: &'static [&'static str],
    pub scope: Scope,
    /// How its `metadata.name` is validated.
    pub names: Names,
    pub read: Reader,
}

impl KnownKind {
    fn matches(&self, group: &str, kind: &str) -> bool {
        self.group == group
            && match self.kind.strip_suffix('*') {
                Some(prefix) => kind.starts_with(prefix),
                None => self.kind == kind,
            }
    }
}

/// How a document is handled.
pub(super) enum Route {
    Read(Reader),
    /// A kind fleetplan knows, in a version it does not.
    UnsupportedVersion(&'static str, &'static [&'static str]),
    Unknown,
}

fn known(group: &str, kind: &str) -> Option<&'static KnownKind> {
    crate::registry::APIS
        .iter()
        .flat_map(|api| api.kinds)
        .find(|known| known.matches(group, kind))
}

pub(super) fn route(type_meta: &TypeMeta, content: Content<'_>) -> Route {
    let group = type_meta.group();
    let version = type_meta
        .api_version
        .rsplit_once('/')
        .map_or(type_meta.api_version.as_str(), |(_group, version)| version);
    match known(group, &type_meta.kind) {
        Some(known) if known.versions.contains(&version) => Route::Read(known.read),
        Some(known) => Route::UnsupportedVersion(known.group, known.versions),
        None => crate::registry::APIS
            .iter()
            .find_map(|api| api.claims.and_then(|claims| claims(content)))
            .map_or(Route::Unknown, Route::Read),
    }
}

/// The scope of a kind an API defines; `None` for any other kind.
pub(super) fn scope(group: &str, kind: &str) -> Option<Scope> {
    known(group, kind).map(|known| known.scope)
}

/// The name rule of a kind an API defines; `None` for any other kind.
pub(super) fn names(group: &str, kind: &str) -> Option<Names> {
    known(group, kind).map(|known| known.names)
}

/// `entry`, kept under the object's identity.
pub(crate) fn claimed(object: Object<'_>, entry: Entry) -> Decoded {
    Decoded::Claimed {
        object: object.object,
        source: object.source,
        entry,
    }
}

/// The object as a workload (with the previous decisions it carries).
pub(crate) fn workload(
    mut object: Object<'_>,
    kind: WorkloadKind,
    decision: Option<PreviousDecision>,
) -> Decoded {
    let workload = Workload {
        object: object.object.clone(),
        source: object.source.clone(),
        cluster_selector: object.meta.annotations.remove(CLUSTER_SELECTOR_ANNOTATION),
        labels: std::mem::take(&mut object.meta.labels),
        namespace_omitted: object.namespace_omitted,
        kind,
    };
    claimed(object, Entry::Workload { workload, decision })
}

/// The JSON text of `object`'s `field`, when the object was read from JSON: a reader may
/// decode it straight from there, and read [`subtree`] only when that fails (its error, with
/// the field's path, is the one reported).
pub(crate) fn json_text<'a>(object: &Object<'a>, field: &str) -> Option<&'a str> {
    object.content.get(field)?.text()
}

/// The `spec` or `status` subtree in the JSON form `model::placement` decodes.
pub(crate) fn subtree(object: &Object<'_>, field: &str) -> Result<Value, LoadError> {
    let Some(content) = object.content.get(field) else {
        return Ok(Value::Null);
    };
    content.to_json().map_err(|error| {
        object.invalid(FieldError::new(
            field,
            format!("expected a mapping with string keys: {error}"),
        ))
    })
}
