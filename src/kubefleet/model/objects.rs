//! Every KubeFleet object one run reads, as `read.rs` decodes them and the plan step
//! (`plan.rs`) finds them per placement: MemberClusters, bindings, policy snapshots, staged
//! update strategies and runs, overrides. The placements themselves are workloads
//! ([`PlacementObject`]).

use serde_json::Value;

use super::binding::Binding;
use super::member_cluster::MemberCluster;
use super::override_rules::Override;
use super::policy::PlacementPolicy;
use super::stage_config::StageConfig;
use crate::model::{ObjectRef, Source};

/// The field of a (Cluster)StagedUpdateRun that names its placement.
pub(crate) const RUN_PLACEMENT_FIELD: &str = "spec.placementName";

/// The label upstream puts on the latest policy snapshot of a placement.
pub(crate) const IS_LATEST_SNAPSHOT_LABEL: &str = "kubernetes-fleet.io/is-latest-snapshot";

/// Every KubeFleet object of a run but the placements, in input order.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Objects {
    pub(crate) member_clusters: Vec<MemberCluster>,
    pub(crate) bindings: Vec<Binding>,
    pub(crate) snapshots: Vec<Snapshot>,
    pub(crate) strategies: Vec<Strategy>,
    pub(crate) runs: Vec<UpdateRun>,
    pub(crate) overrides: Vec<OverrideObject>,
    /// What the bindings, snapshots, runs and overrides name a placement by, each with where
    /// it was read: every one must resolve to a placement of the inputs.
    pub(crate) references: Vec<PlacementReference>,
}

/// One object a reader decoded, added to [`Objects`] in document order, with the
/// placement it names.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Object {
    MemberCluster(MemberCluster),
    Binding(Binding, PlacementReference),
    Snapshot(Snapshot, PlacementReference),
    Strategy(Strategy),
    Run(UpdateRun),
    Override(OverrideObject, Option<PlacementReference>),
}

/// A placement a KubeFleet object names (a binding's or snapshot's parent label, a run's
/// `spec.placementName`, an override's `spec.placement`), and where that object was read.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PlacementReference {
    pub(crate) source: Source,
    pub(crate) object: ObjectRef,
    /// The field that names it (`spec.placementName`).
    pub(crate) field: &'static str,
    /// The ResourcePlacement's namespace; `None` for a ClusterResourcePlacement.
    pub(crate) namespace: Option<String>,
    /// `None` when the field is absent (a binding without its parent label).
    pub(crate) name: Option<String>,
}

impl Objects {
    pub(crate) fn add(&mut self, object: Object) {
        match object {
            Object::MemberCluster(cluster) => self.member_clusters.push(cluster),
            Object::Binding(binding, reference) => {
                self.bindings.push(binding);
                self.references.push(reference);
            }
            Object::Snapshot(snapshot, reference) => {
                self.snapshots.push(snapshot);
                self.references.push(reference);
            }
            Object::Strategy(strategy) => self.strategies.push(strategy),
            Object::Run(run) => {
                self.references.push(run.placement.clone());
                self.runs.push(run);
            }
            Object::Override(override_, reference) => {
                self.overrides.push(override_);
                self.references.extend(reference);
            }
        }
    }
}

/// The placement being scheduled.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Placement {
    /// Set for a ResourcePlacement (namespaced), unset for a ClusterResourcePlacement.
    pub(crate) namespace: Option<String>,
    pub(crate) name: String,
    /// `spec.policy`, defaulted; `None` schedules as PickAll.
    pub(crate) policy: Option<PlacementPolicy>,
    /// `spec.strategy.type`, defaulted (`RollingUpdate`): a staged update run needs
    /// `External`.
    pub(crate) strategy_type: String,
}

/// A ClusterResourcePlacement (`namespace` unset) or ResourcePlacement.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlacementObject {
    pub(crate) placement: Placement,
    /// `spec.policy` as written, for the CRD's CEL rules (which test presence).
    pub(crate) raw_policy: Option<Value>,
    /// `spec.resourceSelectors` that name their resource (overrides are matched by name).
    pub(crate) selectors: Vec<ResourceSelector>,
}

/// A selected resource by name: group, kind and name (the version does not change which
/// object it is).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct ResourceSelector {
    pub(crate) group: String,
    pub(crate) kind: String,
    pub(crate) name: String,
}

/// A (Cluster)SchedulingPolicySnapshot.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Snapshot {
    pub(crate) namespace: Option<String>,
    pub(crate) name: String,
    /// Label `kubernetes-fleet.io/parent-CRP`.
    pub(crate) placement: Option<String>,
    /// Label `kubernetes-fleet.io/is-latest-snapshot: "true"`.
    pub(crate) latest: bool,
    pub(crate) policy: Option<PlacementPolicy>,
}

/// A (Cluster)StagedUpdateStrategy.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Strategy {
    pub(crate) namespace: Option<String>,
    pub(crate) name: String,
    pub(crate) stages: Vec<StageConfig>,
}

/// A (Cluster)StagedUpdateRun: the placement it names, which also says where the run was
/// read and what it is, and its strategy.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct UpdateRun {
    /// `spec.placementName` (a ResourcePlacement's in the run's namespace).
    pub(crate) placement: PlacementReference,
    /// `spec.stagedRolloutStrategyName`.
    pub(crate) strategy: String,
}

impl UpdateRun {
    /// The run's namespace (a StagedUpdateRun's), which is its placement's and strategy's.
    pub(crate) fn namespace(&self) -> Option<&str> {
        self.placement.object.namespace.as_deref()
    }

    pub(crate) fn name(&self) -> &str {
        &self.placement.object.name
    }

    pub(crate) fn placement_name(&self) -> &str {
        self.placement.name.as_deref().unwrap_or_default()
    }
}

/// Which placement an override names (`spec.placement`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PlacementRef {
    pub(crate) name: String,
    /// `scope: Namespaced`: a ResourcePlacement in the override's namespace; else a
    /// ClusterResourcePlacement.
    pub(crate) namespaced: bool,
}

/// A ClusterResourceOverride (`rules.namespace` unset) or ResourceOverride.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct OverrideObject {
    pub(crate) rules: Override,
    pub(crate) placement: Option<PlacementRef>,
    /// `clusterResourceSelectors` (CRO) or `resourceSelectors` (RO).
    pub(crate) selectors: Vec<ResourceSelector>,
    /// Every selector as the webhook prints it (Go's `%+v`), in order: what two overrides
    /// must not both select.
    pub(crate) selector_terms: Vec<String>,
    pub(crate) source: Source,
    pub(crate) object: ObjectRef,
}

impl OverrideObject {
    /// Whether the override applies to `placement` (design §7): its `spec.placement` is
    /// absent or names it, and it selects one of the resources the placement selects by
    /// name. A ResourceOverride applies to a ClusterResourcePlacement that selects its
    /// namespace, and to a ResourcePlacement of its namespace that selects one of its
    /// resources; a ClusterResourceOverride only to ClusterResourcePlacements.
    pub(crate) fn applies_to(&self, placement: &PlacementObject) -> bool {
        let own = &placement.placement;
        let named = match &self.placement {
            None => true,
            Some(reference) => {
                reference.name == own.name && reference.namespaced == own.namespace.is_some()
            }
        };
        if !named {
            return false;
        }
        match (&self.rules.namespace, &own.namespace) {
            (None, None) => self
                .selectors
                .iter()
                .any(|selector| placement.selectors.contains(selector)),
            (None, Some(_)) => false,
            (Some(namespace), None) => placement.selectors.iter().any(|selector| {
                selector.group.is_empty()
                    && selector.kind == "Namespace"
                    && &selector.name == namespace
            }),
            (Some(namespace), Some(own_namespace)) => {
                namespace == own_namespace
                    && self
                        .selectors
                        .iter()
                        .any(|selector| placement.selectors.contains(selector))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selector(group: &str, kind: &str, name: &str) -> ResourceSelector {
        ResourceSelector {
            group: group.to_string(),
            kind: kind.to_string(),
            name: name.to_string(),
        }
    }

    fn placement(namespace: Option<&str>, selectors: Vec<ResourceSelector>) -> PlacementObject {
        PlacementObject {
            placement: Placement {
                namespace: namespace.map(str::to_string),
                name: "p".to_string(),
                policy: None,
                strategy_type: "RollingUpdate".to_string(),
            },
            raw_policy: None,
            selectors,
        }
    }

    fn override_(namespace: Option<&str>, placement: Option<PlacementRef>) -> OverrideObject {
        OverrideObject {
            rules: Override {
                namespace: namespace.map(str::to_string),
                name: "o".to_string(),
                rules: Vec::new(),
            },
            placement,
            selectors: vec![selector("apps", "Deployment", "web")],
            ..OverrideObject::default()
        }
    }

    #[test]
    fn an_override_applies_to_the_placement_that_selects_its_resources() {
        let crp = placement(None, vec![selector("apps", "Deployment", "web")]);
        assert!(override_(None, None).applies_to(&crp));
        let other = PlacementRef {
            name: "q".to_string(),
            namespaced: false,
        };
        assert!(!override_(None, Some(other)).applies_to(&crp));
        let rp = placement(Some("team"), vec![selector("apps", "Deployment", "web")]);
        assert!(!override_(None, None).applies_to(&rp));
        assert!(override_(Some("team"), None).applies_to(&rp));
        assert!(!override_(Some("other"), None).applies_to(&rp));
        let namespace = placement(None, vec![selector("", "Namespace", "team")]);
        assert!(override_(Some("team"), None).applies_to(&namespace));
        let by_rp = PlacementRef {
            name: "p".to_string(),
            namespaced: true,
        };
        assert!(override_(Some("team"), Some(by_rp.clone())).applies_to(&rp));
        assert!(!override_(Some("team"), Some(by_rp)).applies_to(&namespace));
    }
}
