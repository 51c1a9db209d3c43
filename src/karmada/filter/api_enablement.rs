//! APIEnablement (`plugins/apienablement`): the cluster must serve the resource's
//! group/version and kind, unless the binding already targets it.

use std::borrow::Cow;

use crate::karmada::model::KarmadaCluster;

use super::FilterContext;

pub(crate) const NAME: &str = "APIEnablement";

pub(crate) fn filter(
    context: &FilterContext,
    cluster: &KarmadaCluster,
) -> Option<Cow<'static, str>> {
    let binding = context.binding;
    if binding.targets(&cluster.name) {
        return None;
    }
    let object = &binding.resource.object;
    let enabled = cluster
        .api_enablements
        .get(&object.api_version)
        .is_some_and(|kinds| kinds.contains(&object.kind));
    (!enabled).then_some(Cow::Borrowed("cluster(s) did not have the API resource"))
}
