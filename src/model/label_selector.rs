use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// `metav1.LabelSelector` as written in manifests. The selector engine turns it into a
/// `selector::Selector` (validating keys, values and operators with Kubernetes' rules).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LabelSelectorSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_labels: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_expressions: Option<Vec<LabelSelectorRequirementSpec>>,
}

/// `metav1.LabelSelectorRequirement`. The operator stays a string: an unknown operator is a
/// selector error reported with Kubernetes' message, not a load error.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelSelectorRequirementSpec {
    pub key: String,
    pub operator: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}
