//! NamespaceAffinity (`plugins/namespaceaffinity/filtering.go`): a ResourcePlacement goes only
//! to clusters that report its namespace, once they collect namespaces at all.

use crate::kubefleet::member_cluster::MemberCluster;
use crate::kubefleet::status::Status;

pub const CLUSTER_SCOPED: &str =
    "cluster-scoped placement does not require namespace affinity filtering";
pub const NO_NAMESPACES: &str = "cluster has no namespace information available";
pub const NAMESPACE_MISSING: &str = "target namespace does not exist on cluster";
const COLLECTION_CONDITION: &str = "NamespaceCollectionSucceeded";

/// `PreFilter`: `Err(Skip)` for a cluster-scoped placement (no namespace).
pub fn pre_filter(namespace: Option<&str>) -> Result<&str, Status> {
    namespace.ok_or_else(|| Status::skip(CLUSTER_SCOPED))
}

/// Why the cluster is filtered: only clusters with a `NamespaceCollectionSucceeded`
/// condition are, whatever its status (`False`, degraded collection, still filters).
pub fn rejection(namespace: &str, cluster: &MemberCluster) -> Option<&'static str> {
    if !cluster.has_condition(COLLECTION_CONDITION) {
        return None;
    }
    match &cluster.namespaces {
        None => Some(NO_NAMESPACES),
        Some(namespaces) if !namespaces.contains_key(namespace) => Some(NAMESPACE_MISSING),
        Some(_) => None,
    }
}

/// `Filter`.
pub fn filter(namespace: &str, cluster: &MemberCluster) -> Option<Status> {
    rejection(namespace, cluster).map(Status::unschedulable)
}
