//! What would fix an OCM Placement's finding by its cluster sets (`check`'s hints, said with
//! the finding): the ManagedClusterSetBinding to add, the label that makes a member.

use std::collections::BTreeSet;

use crate::model::{ClusterSetSelector, Inventory};

/// The label that makes a ManagedCluster a member of an `ExclusiveClusterSetLabel` set.
const CLUSTER_SET_LABEL: &str = "cluster.open-cluster-management.io/clusterset";

/// The hints for a Placement in `namespace` that names the sets `in_spec`, whose condition's
/// reason is `reason`.
pub(crate) fn hints(
    inventory: &Inventory,
    namespace: &str,
    in_spec: &[String],
    reason: Option<&str>,
) -> Vec<String> {
    match reason {
        Some("NoManagedClusterSetBindings" | "NoIntersection") => {
            vec![binding(inventory, namespace, in_spec)]
        }
        Some("AllManagedClusterSetsEmpty") => membership(inventory, namespace, in_spec),
        _ => Vec::new(),
    }
}

/// The ManagedClusterSetBinding that would make a set usable from `namespace`: one of the
/// sets `spec.clusterSets` names (any set in the inputs when it names none).
fn binding(inventory: &Inventory, namespace: &str, in_spec: &[String]) -> String {
    let existing: BTreeSet<&str> = inventory
        .cluster_sets
        .iter()
        .map(|set| set.name.as_str())
        .collect();
    let candidates: Vec<&str> = if in_spec.is_empty() {
        existing.iter().copied().collect()
    } else {
        in_spec.iter().map(String::as_str).collect()
    };
    let mut hint = match candidates.as_slice() {
            [] => format!(
                "no ManagedClusterSet is in the inputs: add one, and a \
                 ManagedClusterSetBinding in namespace {namespace} named after it (spec.clusterSet: \
                 the set's name)"
            ),
            [set] => format!(
                "a ManagedClusterSetBinding {namespace}/{set} with spec.clusterSet: {set} would \
                 bind the set {set} to namespace {namespace}"
            ),
            sets => format!(
                "a ManagedClusterSetBinding in namespace {namespace}, named after one of the \
                 sets {} (spec.clusterSet: the same name), would bind it to namespace {namespace}",
                sets.join(", ")
            ),
        };
    let missing: BTreeSet<&str> = candidates
        .iter()
        .copied()
        .filter(|set| !existing.contains(set))
        .collect();
    if !candidates.is_empty() && !missing.is_empty() {
        let missing: Vec<&str> = missing.into_iter().collect();
        hint.push_str(&format!(
            " (no ManagedClusterSet {} is in the inputs)",
            missing.join(", ")
        ));
    }
    // Bindings that are in the namespace but name no set in the inputs bind nothing.
    let dangling: Vec<String> = inventory
        .bindings
        .iter()
        .filter(|binding| {
            binding.namespace == namespace && !existing.contains(binding.name.as_str())
        })
        .map(|binding| format!("{namespace}/{}", binding.name))
        .collect();
    if !dangling.is_empty() {
        hint.push_str(&format!(
            "; the binding {} names no ManagedClusterSet in the inputs",
            dangling.join(", ")
        ));
    }
    hint
}

/// How a cluster becomes a member of each set the placement may use from `namespace`.
fn membership(inventory: &Inventory, namespace: &str, in_spec: &[String]) -> Vec<String> {
    let bound: BTreeSet<&str> = inventory
        .bindings
        .iter()
        .filter(|binding| binding.namespace == namespace)
        .map(|binding| binding.name.as_str())
        .filter(|set| in_spec.is_empty() || in_spec.iter().any(|name| name == set))
        .collect();
    inventory
        .cluster_sets
        .iter()
        .filter(|set| bound.contains(set.name.as_str()))
        .map(|set| {
            let name = &set.name;
            match &set.selector {
                ClusterSetSelector::ExclusiveClusterSetLabel => format!(
                    "a ManagedCluster is a member of the set {name} when it has the label \
                         {CLUSTER_SET_LABEL}={name}"
                ),
                ClusterSetSelector::LabelSelector(None) => format!(
                    "the set {name} has no spec.clusterSelector.labelSelector, which selects \
                         no cluster ({{}} selects every cluster)"
                ),
                ClusterSetSelector::LabelSelector(Some(selector)) => {
                    let labels: Vec<String> = selector
                        .match_labels
                        .iter()
                        .flatten()
                        .map(|(key, value)| format!("{key}={value}"))
                        .collect();
                    if labels.is_empty() || selector.match_expressions.is_some() {
                        format!(
                            "a ManagedCluster is a member of the set {name} when its labels \
                                 match the set's spec.clusterSelector.labelSelector"
                        )
                    } else {
                        format!(
                            "a ManagedCluster is a member of the set {name} when it has the \
                                 label{} {}",
                            if labels.len() == 1 { "" } else { "s" },
                            labels.join(", ")
                        )
                    }
                }
                ClusterSetSelector::Unknown(kind) => format!(
                    "the set {name} has the selector type {kind}, which this version does \
                         not know"
                ),
            }
        })
        .collect()
}
