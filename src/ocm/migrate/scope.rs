//! Which clusters a migrated Placement may choose from: the members of one ManagedClusterSet
//! bound to its namespace. The legacy schedulers had no sets and chose among every cluster,
//! so only a set of every cluster (OCM's `global`: `LabelSelector {}`) keeps that exactly.

use crate::model::{ClusterSetSelector, Inventory};

use crate::migrate::report::FieldReport;

/// The set migrated Placements name in `spec.clusterSets` and bind in their namespace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClusterScope {
    pub set: String,
    /// The set is every cluster (`LabelSelector {}`), so candidates are as before.
    pub every_cluster: bool,
    /// The inputs define the set (otherwise `global` is added, another name is a warning).
    pub defined: bool,
}

/// The name OCM gives its set of every cluster.
pub(crate) const GLOBAL: &str = "global";

impl ClusterScope {
    pub(crate) fn new(set: &str, inventory: &Inventory) -> ClusterScope {
        let existing = inventory
            .cluster_sets
            .iter()
            .find(|cluster_set| cluster_set.name == set);
        let every_cluster = match existing {
            None => set == GLOBAL,
            Some(cluster_set) => matches!(
                &cluster_set.selector,
                ClusterSetSelector::LabelSelector(Some(selector))
                    if selector.match_labels.as_ref().is_none_or(|labels| labels.is_empty())
                        && selector.match_expressions.as_ref().is_none_or(|exprs| exprs.is_empty())
            ),
        };
        ClusterScope {
            set: set.to_string(),
            every_cluster,
            defined: existing.is_some(),
        }
    }
}

/// The report line for the candidates: exact only with a set of every cluster.
pub(crate) fn candidates_field(scope: &ClusterScope, before: &str) -> FieldReport {
    let became = format!(
        "spec.clusterSets [{}] with a ManagedClusterSetBinding in the namespace",
        scope.set
    );
    if scope.every_cluster {
        FieldReport::exact(format!("(candidates: {before})"), became)
    } else {
        FieldReport::approximate(
            format!("(candidates: {before})"),
            became,
            format!(
                "only members of the ManagedClusterSet {} can be chosen",
                scope.set
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ClusterSet, LabelSelectorSpec};

    fn inventory(selector: ClusterSetSelector) -> Inventory {
        Inventory {
            cluster_sets: vec![ClusterSet {
                name: "global".into(),
                selector,
                source: Default::default(),
            }],
            ..Inventory::default()
        }
    }

    #[test]
    fn missing_global_set_will_be_every_cluster() {
        let scope = ClusterScope::new("global", &Inventory::default());
        assert!(scope.every_cluster && !scope.defined);
    }

    #[test]
    fn existing_empty_label_selector_set_is_every_cluster() {
        let inventory = inventory(ClusterSetSelector::LabelSelector(Some(
            LabelSelectorSpec::default(),
        )));
        assert!(ClusterScope::new("global", &inventory).every_cluster);
    }

    #[test]
    fn exclusive_set_is_not_every_cluster() {
        let inventory = inventory(ClusterSetSelector::ExclusiveClusterSetLabel);
        assert!(!ClusterScope::new("global", &inventory).every_cluster);
    }
}
