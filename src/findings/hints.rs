//! What would fix a finding, said with it: a finding that only states upstream's condition
//! (`NoManagedClusterSetBindings`) leaves the user to work out which object is missing. Each
//! hint names the object, field or flag that fixes the cause fleetplan can see in the inputs.
//! Conditions keep upstream's messages (the Plan document carries them as the hub would);
//! the hints are check's own words beside them.

use std::collections::BTreeSet;

use crate::model::{ClusterSetSelector, Inventory, Workload, WorkloadKind};

/// The label that makes a ManagedCluster a member of an `ExclusiveClusterSetLabel` set.
const CLUSTER_SET_LABEL: &str = "cluster.open-cluster-management.io/clusterset";

/// What the hints are worked out from: the inventory, and whether objects without
/// `metadata.namespace` were put in the built-in default namespace (no `-n`, no `namespace`
/// in the config file).
pub(crate) struct Hints<'m> {
    pub inventory: &'m Inventory,
    /// `Some(namespace)` when the namespace of objects without one is the built-in default.
    pub default_namespace: Option<&'m str>,
}

impl Hints<'_> {
    /// The hints for a finding about `workload` (`reason`: its condition's reason, for an
    /// unsatisfied item), joined into one sentence; `None` when there is nothing to add.
    pub(crate) fn about(&self, workload: &Workload, reason: Option<&str>) -> Option<String> {
        let mut hints = Vec::new();
        if let (true, Some(namespace)) = (workload.namespace_omitted, self.default_namespace) {
            hints.push(format!(
                "it has no metadata.namespace and no -n was given, so it was read into \
                 namespace {namespace}: set metadata.namespace, or pass -n NAMESPACE"
            ));
        }
        if let (WorkloadKind::Placement(spec), Some(namespace)) =
            (&workload.kind, workload.object.namespace.as_deref())
        {
            match reason {
                Some("NoManagedClusterSetBindings" | "NoIntersection") => {
                    hints.push(self.binding(namespace, &spec.cluster_sets));
                }
                Some("AllManagedClusterSetsEmpty") => {
                    hints.extend(self.membership(namespace, &spec.cluster_sets));
                }
                _ => {}
            }
        }
        (!hints.is_empty()).then(|| hints.join("; "))
    }

    /// The ManagedClusterSetBinding that would make a set usable from `namespace`: one of the
    /// sets `spec.clusterSets` names (any set in the inputs when it names none).
    fn binding(&self, namespace: &str, in_spec: &[String]) -> String {
        let existing: BTreeSet<&str> = self
            .inventory
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
        let dangling: Vec<String> = self
            .inventory
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
    fn membership(&self, namespace: &str, in_spec: &[String]) -> Vec<String> {
        let bound: BTreeSet<&str> = self
            .inventory
            .bindings
            .iter()
            .filter(|binding| binding.namespace == namespace)
            .map(|binding| binding.name.as_str())
            .filter(|set| in_spec.is_empty() || in_spec.iter().any(|name| name == set))
            .collect();
        self.inventory
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
}
