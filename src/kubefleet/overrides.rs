//! Which ClusterResourceOverride / ResourceOverride rules apply to a selected cluster
//! (`pkg/utils/overrider/overrider.go IsClusterMatched`, `PickFromResourceMatchedOverrides
//! ForTargetCluster`). Eligibility plays no part; only each term's label selector counts.

use super::model::member_cluster::MemberCluster;
pub(crate) use super::model::override_rules::{Override, OverrideRule};
use crate::selector::{go_quote, Selector, SelectorError};

/// `IsClusterMatched`: no `clusterSelector` matches no cluster, `clusterSelectorTerms: []`
/// every cluster; otherwise the terms are ORed and a term without a label selector matches
/// nothing.
pub(crate) fn rule_matches(
    rule: &OverrideRule,
    cluster: &MemberCluster,
) -> Result<bool, SelectorError> {
    let Some(selector) = &rule.cluster_selector else {
        return Ok(false);
    };
    if selector.cluster_selector_terms.is_empty() {
        return Ok(true);
    }
    for term in &selector.cluster_selector_terms {
        if Selector::from_label_selector(term.label_selector.as_ref())?.matches(&cluster.labels) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// An override applies to the cluster if any of its rules matches.
pub(crate) fn applies(
    override_: &Override,
    cluster: &MemberCluster,
) -> Result<bool, SelectorError> {
    for rule in &override_.rules {
        if rule_matches(rule, cluster)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Why the overrides of a target cluster cannot be picked.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum PickError {
    /// No MemberCluster has the target's name: upstream's `Get` is NotFound and it returns
    /// `ErrExpectedBehavior`, expecting the scheduler to unschedule the binding.
    NotFound(String),
    /// A rule whose label selector is invalid (`ErrUnexpectedBehavior`).
    Rule(SelectorError),
}

impl std::fmt::Display for PickError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // `controller.NewExpectedBehaviorError` around the API server's NotFound.
            Self::NotFound(name) => write!(
                f,
                "expected behavior which can be recovered by itself: memberclusters.cluster.kubernetes-fleet.io {} not found",
                go_quote(name)
            ),
            Self::Rule(error) => error.fmt(f),
        }
    }
}

impl From<SelectorError> for PickError {
    fn from(error: SelectorError) -> Self {
        Self::Rule(error)
    }
}

/// `PickFromResourceMatchedOverridesForTargetCluster`: the overrides that apply to the
/// MemberCluster named `target`, looked up in the fleet as upstream reads it from the API
/// server (nothing to pick needs no cluster); each list sorted as upstream sorts them:
/// ClusterResourceOverrides by name, ResourceOverrides as `namespace/name`.
pub(crate) fn for_cluster<'c>(
    fleet: impl FnOnce(&str) -> Option<&'c MemberCluster>,
    target: &str,
    cluster_resource_overrides: &[Override],
    resource_overrides: &[Override],
) -> Result<(Vec<String>, Vec<String>), PickError> {
    if cluster_resource_overrides.is_empty() && resource_overrides.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let cluster = fleet(target).ok_or_else(|| PickError::NotFound(target.to_string()))?;
    let mut cluster_scoped = Vec::new();
    for override_ in cluster_resource_overrides {
        if applies(override_, cluster)? {
            cluster_scoped.push(override_.name.clone());
        }
    }
    let mut namespaced = Vec::new();
    for override_ in resource_overrides {
        if applies(override_, cluster)? {
            namespaced.push((
                override_.namespace.as_deref().unwrap_or_default(),
                &override_.name,
            ));
        }
    }
    cluster_scoped.sort();
    // By namespace, then name: not the joined text, where `a-b/x` would sort before `a/x`.
    namespaced.sort();
    let namespaced = namespaced
        .into_iter()
        .map(|(namespace, name)| format!("{namespace}/{name}"))
        .collect();
    Ok((cluster_scoped, namespaced))
}
