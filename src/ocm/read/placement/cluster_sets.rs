//! OCM `ManagedClusterSet` and `ManagedClusterSetBinding` (v1beta1 and v1beta2).

use serde::Deserialize;

use crate::load::decode::null_as_default;
use crate::load::kinds::claimed;
use crate::load::model_builder::{Decoded, Entry};
use crate::load::names::{InvalidName, Names};
use crate::load::object::Object;
use crate::load::LoadError;
use crate::model::{Binding, ClusterSet, ClusterSetSelector, LabelSelectorSpec};

/// A ManagedClusterSet's name rule (its kind's, in the API's list).
pub(super) const SET_NAMES: Names = Names::Subdomain;

/// `migrate --set NAME`: the ManagedClusterSet's name, checked as its kind's names are (it
/// names the set's output file too).
pub(crate) fn parse_cluster_set(name: &str) -> Result<String, InvalidName> {
    match SET_NAMES.errors(name) {
        errors if errors.is_empty() => Ok(name.to_string()),
        errors => Err(InvalidName(errors)),
    }
}

#[derive(Default, Deserialize)]
struct ClusterSetDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    spec: ClusterSetSpec,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClusterSetSpec {
    #[serde(default)]
    cluster_selector: Option<ClusterSelectorDoc>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClusterSelectorDoc {
    #[serde(default)]
    selector_type: Option<String>,
    #[serde(default)]
    label_selector: Option<LabelSelectorSpec>,
}

pub(super) fn cluster_set(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: ClusterSetDoc = object.decode()?;
    let selector = doc.spec.cluster_selector.unwrap_or_default();
    // The CRDs default selectorType to ExclusiveClusterSetLabel (v1beta2) or
    // LegacyClusterSetLabel (v1beta1); both mean the clusterset label.
    let selector = match selector.selector_type.as_deref() {
        None | Some("ExclusiveClusterSetLabel" | "LegacyClusterSetLabel") => {
            ClusterSetSelector::ExclusiveClusterSetLabel
        }
        Some("LabelSelector") => ClusterSetSelector::LabelSelector(selector.label_selector),
        Some(other) => ClusterSetSelector::Unknown(other.to_string()),
    };
    let set = ClusterSet {
        name: object.name().to_string(),
        selector,
        source: object.source.clone(),
    };
    Ok(claimed(object, Entry::ClusterSet(set)))
}

#[derive(Deserialize)]
struct BindingDoc {
    spec: BindingSpec,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BindingSpec {
    cluster_set: String,
}

pub(super) fn binding(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: BindingDoc = object.decode()?;
    let binding = Binding {
        namespace: object.object.namespace.clone().unwrap_or_default(),
        name: object.name().to_string(),
        cluster_set: doc.spec.cluster_set,
        source: object.source.clone(),
    };
    Ok(claimed(object, Entry::Binding(binding)))
}
