//! A ClusterResourceOverride's or ResourceOverride's rules, as far as cluster matching reads
//! them.

use serde::Deserialize;

use super::policy::ClusterSelector;

/// `spec.policy.overrideRules[]`, as far as cluster matching reads it.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OverrideRule {
    #[serde(default)]
    pub(crate) cluster_selector: Option<ClusterSelector>,
}

/// An override with its rules: `namespace` is set for a ResourceOverride.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Override {
    pub(crate) namespace: Option<String>,
    pub(crate) name: String,
    pub(crate) rules: Vec<OverrideRule>,
}
