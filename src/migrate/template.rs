//! A template object as a migration reads it from the API that states it: an object that
//! holds the template of an object of another kind and says which clusters get that object
//! (today kubefed's federated objects, described by its folder behind
//! `registry::template_object`, and the plain types of its kinds behind
//! `registry::template_types`). The target converts the
//! placement, the template and the per-cluster overrides; how the source lays them out and
//! which plain type each of its kinds stands for stay in the source's folder, and its field
//! paths come as data (`TemplateWords`), so the loss report says them in the source's words
//! while the target's code names none of the source's kinds or types.

use std::collections::BTreeMap;

use serde_yaml::Value;

use crate::model::{LabelSelectorSpec, ObjectRef};

use super::object_error::ObjectError;

/// One template object, as its API describes it from the model.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TemplateObject<'m> {
    /// The clusters it places its object on.
    pub placement: TemplateClusters<'m>,
    /// It places a namespace, and with it scopes its API's placement of the namespaced
    /// objects in that namespace to the clusters it selects.
    pub scopes_namespace: bool,
    /// How its API lays out the rest of it and names its fields.
    pub api: &'static TemplateApi,
}

/// The clusters a template object places its object on.
#[derive(Clone, Copy, Debug)]
pub(crate) enum TemplateClusters<'m> {
    /// These clusters by name (none selects no cluster).
    Named(&'m [String]),
    /// The clusters a label selector selects: `None` selects no cluster, `{}` every one.
    Selected(Option<&'m LabelSelectorSpec>),
}

/// What reads the rest of an API's template objects from their documents, and what the
/// API calls their fields.
#[derive(Debug)]
pub(crate) struct TemplateApi {
    /// The template of the document as the object `target` (of the namespace as written,
    /// if any).
    pub template: fn(&Value, &ObjectRef, Option<&str>) -> Result<Value, ObjectError>,
    /// The per-cluster overrides of the document, in input order.
    pub overrides: fn(&Value) -> Result<Vec<OverridesOnCluster>, ObjectError>,
    pub words: TemplateWords,
}

/// What a template object's API calls its fields and says its controller did, as the loss
/// report quotes them.
#[derive(Debug)]
pub(crate) struct TemplateWords {
    /// The fields of the template and of the placement.
    pub template: &'static str,
    pub placement: &'static str,
    /// The kind of the object that places a namespace (`scopes_namespace`).
    pub namespace_kind: &'static str,
    /// What its controller did to a namespaced object its namespace's placement does not
    /// select.
    pub scoped_by_namespace: &'static str,
}

/// The per-cluster overrides of one cluster.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct OverridesOnCluster {
    pub cluster: String,
    pub changes: Vec<OverrideChange>,
}

/// One JSON-patch operation (`add`, `remove` or `replace`) on the object on one cluster.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct OverrideChange {
    /// How the report names it, in the source's words.
    pub field: String,
    pub operator: String,
    pub path: String,
    pub value: Option<Value>,
}

/// The plain type a template kind stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TargetType {
    pub api_version: String,
    pub kind: String,
    /// Else cluster-scoped: written without a namespace and propagated by a cluster-wide
    /// policy.
    pub namespaced: bool,
}

/// Template kind → the plain type it stands for, as an API maps them.
#[derive(Clone, Debug)]
pub(crate) struct TemplateTypes {
    types: BTreeMap<String, TargetType>,
    words: &'static TypeWords,
}

/// How an API names what maps its template kinds to plain types, for the error about a
/// kind nothing maps.
#[derive(Debug)]
pub(crate) struct TypeWords {
    /// The kind of the objects that map one (`-f` adds them).
    pub config: &'static str,
    /// The maps known without one in the inputs.
    pub defaults: &'static str,
}

impl TemplateTypes {
    pub(crate) fn new(types: BTreeMap<String, TargetType>, words: &'static TypeWords) -> Self {
        TemplateTypes { types, words }
    }

    pub(crate) fn get(&self, kind: &str) -> Option<&TargetType> {
        self.types.get(kind)
    }

    /// The plain object a template object stands for, without a namespace when its type is
    /// cluster-scoped.
    pub(crate) fn target(&self, object: &ObjectRef) -> Result<ObjectRef, ObjectError> {
        let target = self
            .get(&object.kind)
            .ok_or_else(|| ObjectError::UnknownTemplateKind {
                kind: object.kind.clone(),
                known: self.types.keys().cloned().collect(),
                config: self.words.config,
                defaults: self.words.defaults,
            })?;
        Ok(ObjectRef {
            api_version: target.api_version.clone(),
            kind: target.kind.clone(),
            namespace: if target.namespaced {
                object.namespace.clone()
            } else {
                None
            },
            name: object.name.clone(),
        })
    }
}
