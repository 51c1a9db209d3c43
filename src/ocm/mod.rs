//! Open Cluster Management, one folder: Placement and PlacementRule and the objects that use
//! them (Policies through PlacementBindings, Subscriptions, ManifestWorkReplicaSets, Argo CD
//! ApplicationSets, add-ons). `read/` is the load layer (their kinds and readers), `plan/`
//! the plan steps (a Placement, a PlacementRule, the consumers planned through their
//! placements), `explain/` explain's pieces, `migrate/` the OCM migration target.

pub(crate) mod explain;
pub(crate) mod migrate;
pub(crate) mod plan;
pub(crate) mod read;
