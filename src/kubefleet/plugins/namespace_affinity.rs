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

/// `Filter`: only clusters with a `NamespaceCollectionSucceeded` condition are filtered,
/// whatever its status (`False`, degraded collection, still filters).
pub fn filter(namespace: &str, cluster: &MemberCluster) -> Option<Status> {
    if !cluster.has_condition(COLLECTION_CONDITION) {
        return None;
    }
    match &cluster.namespaces {
        None => Some(Status::unschedulable(NO_NAMESPACES)),
        Some(namespaces) if !namespaces.contains_key(namespace) => {
            Some(Status::unschedulable(NAMESPACE_MISSING))
        }
        Some(_) => None,
    }
}
