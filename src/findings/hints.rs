//! What would fix a finding, said with it: a finding that only states upstream's condition
//! (OCM's `NoManagedClusterSetBindings`) leaves the user to work out which object is missing. Each
//! hint names the object, field or flag that fixes the cause fleetplan can see in the inputs.
//! Conditions keep upstream's messages (the Plan document carries them as the hub would);
//! the hints are check's own words beside them.

use crate::model::{Inventory, Workload};

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
        hints.extend(crate::registry::hints(self.inventory, workload, reason));
        (!hints.is_empty()).then(|| hints.join("; "))
    }
}
