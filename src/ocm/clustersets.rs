//! Bindings → eligible clustersets (upstream `getValidManagedClusterSetBindings`,
//! `getEligibleClusterSets`). Candidates come from `FleetIndex::candidates`.

use std::collections::BTreeSet;

use super::fleet::FleetIndex;

/// Names of the ManagedClusterSetBindings in `namespace` whose clusterset exists. Upstream
/// looks the set up by the binding's own name, which its webhook keeps equal to
/// `spec.clusterSet`.
pub(crate) fn valid_bindings(fleet: &FleetIndex, namespace: &str) -> Vec<String> {
    let names: BTreeSet<&str> = fleet
        .inventory
        .bindings
        .iter()
        .filter(|binding| binding.namespace == namespace && fleet.set_exists(&binding.name))
        .map(|binding| binding.name.as_str())
        .collect();
    names.into_iter().map(str::to_string).collect()
}

/// Bound set names ∩ `spec.clusterSets` (all bound sets when it is empty), sorted.
pub(crate) fn eligible_sets(bound: &[String], in_spec: &[String]) -> Vec<String> {
    let bound: BTreeSet<&String> = bound.iter().collect();
    if in_spec.is_empty() {
        return bound.into_iter().cloned().collect();
    }
    let wanted: BTreeSet<&String> = in_spec.iter().collect();
    bound
        .intersection(&wanted)
        .map(|name| (*name).clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|name| name.to_string()).collect()
    }

    #[test]
    fn spec_sets_intersect_bound_sets() {
        let eligible = eligible_sets(&names(&["a", "b"]), &names(&["b", "c"]));
        assert_eq!(eligible, names(&["b"]));
    }
}
