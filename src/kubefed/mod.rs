//! kubefed, one folder: its CRD type (`model`, the ReplicaSchedulingPreference spec), its reader (`KubeFedCluster`, `ReplicaSchedulingPreference`, the
//! `Federated*` types), its plan step (label selection, then the shared replica planner,
//! `crate::replicas`) and its migrate piece: writing ReplicaSchedulingPreferences, and
//! describing one as the replica division, a federated object as the template object, and
//! its FederatedTypeConfigs as the template types a migration to another API reads. It has
//! no engine of its own.

pub(crate) mod migrate;
pub(crate) mod model;
pub(crate) mod plan;
pub(crate) mod read;
