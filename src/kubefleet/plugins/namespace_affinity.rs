//! NamespaceAffinity (`plugins/namespaceaffinity/filtering.go`): a ResourcePlacement goes only
//! to clusters that report its namespace, once they collect namespaces at all.

use crate::kubefleet::model::member_cluster::MemberCluster;

pub(crate) const NO_NAMESPACES: &str = "cluster has no namespace information available";
pub(crate) const NAMESPACE_MISSING: &str = "target namespace does not exist on cluster";
const COLLECTION_CONDITION: &str = "NamespaceCollectionSucceeded";

/// Why the cluster is filtered: only clusters with a `NamespaceCollectionSucceeded`
/// condition are, whatever its status (`False`, degraded collection, still filters).
pub(crate) fn rejection(namespace: &str, cluster: &MemberCluster) -> Option<&'static str> {
    if !cluster.has_condition(COLLECTION_CONDITION) {
        return None;
    }
    match &cluster.namespaces {
        None => Some(NO_NAMESPACES),
        Some(namespaces) if !namespaces.contains_key(namespace) => Some(NAMESPACE_MISSING),
        Some(_) => None,
    }
}

pub(crate) const CLUSTER_SCOPED: &str =
    "cluster-scoped placement does not require namespace affinity filtering";

/// `PreFilter`: `Err(Skip)` for a cluster-scoped placement (no namespace).
pub(crate) fn pre_filter(
    namespace: Option<&str>,
) -> Result<&str, crate::kubefleet::status::Status> {
    namespace.ok_or_else(|| crate::kubefleet::status::Status::skip(CLUSTER_SCOPED))
}

/// `Filter`.
pub(crate) fn filter(
    namespace: &str,
    cluster: &MemberCluster,
) -> Option<crate::kubefleet::status::Status> {
    rejection(namespace, cluster).map(crate::kubefleet::status::Status::unschedulable)
}
