//! Kubernetes Federation v1, one folder: its reader (the `federation.alpha.kubernetes.io`
//! annotations on any object, and federation `Cluster`s) and its plan step (the cluster
//! selector annotation, then the shared replica planner, `crate::replicas`). It has no engine
//! of its own.

pub(crate) mod plan;
pub(crate) mod read;
