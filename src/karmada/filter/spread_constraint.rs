//! SpreadConstraint (`plugins/spreadconstraint`): a provider, region or zone constraint needs
//! the cluster to have that property, even when the constraint is later ignored (static
//! weights). The first constraint, in order, whose property is missing reports.

use std::borrow::Cow;

use crate::karmada::model::{KarmadaCluster, SpreadField};

use super::FilterContext;

pub(super) const NAME: &str = "SpreadConstraint";

pub(super) fn filter(
    context: &FilterContext,
    cluster: &KarmadaCluster,
) -> Option<Cow<'static, str>> {
    context
        .binding
        .placement
        .spread_constraints
        .iter()
        .find_map(|constraint| match constraint.field {
            Some(SpreadField::Provider) if cluster.provider.is_empty() => {
                Some("cluster(s) did not have provider property")
            }
            Some(SpreadField::Region) if cluster.region.is_empty() => {
                Some("cluster(s) did not have region property")
            }
            Some(SpreadField::Zone) if cluster.zones.is_empty() => {
                Some("cluster(s) did not have zones property")
            }
            _ => None,
        })
        .map(Cow::Borrowed)
}
