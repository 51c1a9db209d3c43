//! ClusterEviction (`plugins/clustereviction`): a cluster the binding is being gracefully
//! evicted from gets nothing new.

use std::borrow::Cow;

use crate::karmada::model::KarmadaCluster;

use super::FilterContext;

pub(super) const NAME: &str = "ClusterEviction";

pub(super) fn filter(
    context: &FilterContext,
    cluster: &KarmadaCluster,
) -> Option<Cow<'static, str>> {
    context
        .binding
        .eviction_from
        .contains(&cluster.name)
        .then_some(Cow::Borrowed("cluster(s) is in the process of eviction"))
}
