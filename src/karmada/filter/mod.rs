//! The filter plugins (`pkg/scheduler/framework/plugins/*`) and `findClustersThatFit`.
//!
//! Upstream runs the filters in Go map order, random per scheduler start, and a cluster reports
//! the first filter that fails. fleetplan runs them in the in-tree registry's written order
//! (APIEnablement, TaintToleration, ClusterAffinity, SpreadConstraint, ClusterEviction), so a
//! cluster failing several filters always reports the same one. Which clusters pass does not
//! depend on the order.

pub(crate) mod api_enablement;
pub(crate) mod cluster_affinity;
mod cluster_eviction;
mod spread_constraint;
mod taint_toleration;

use std::borrow::Cow;

use std::collections::BTreeMap;

use crate::karmada::model::KarmadaCluster;

pub(crate) use cluster_affinity::TermAffinity;

use super::Binding;

/// Why a cluster was (not) kept.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Passed every filter.
    Fit,
    /// `metadata.deletionTimestamp` is set: skipped before any filter, yet counted in N.
    Deleting,
    /// The first failing plugin and its reason.
    Unfit {
        plugin: &'static str,
        reason: Cow<'static, str>,
    },
}

/// What every filter reads besides the cluster.
pub(crate) struct FilterContext<'b, 'a> {
    pub binding: &'b Binding<'a>,
    pub affinity: &'b TermAffinity<'a>,
}

/// One plugin's `Filter`: `None` passes, else the reason.
pub(crate) type Filter = fn(&FilterContext, &KarmadaCluster) -> Option<Cow<'static, str>>;

/// The plugins in fleetplan's fixed order, by upstream name.
const FILTERS: [(&str, Filter); 5] = [
    (api_enablement::NAME, api_enablement::filter),
    (taint_toleration::NAME, taint_toleration::filter),
    (cluster_affinity::NAME, cluster_affinity::filter),
    (spread_constraint::NAME, spread_constraint::filter),
    (cluster_eviction::NAME, cluster_eviction::filter),
];

/// The verdict of every filter on one cluster, in order.
pub(crate) fn verdict(context: &FilterContext, cluster: &KarmadaCluster) -> Verdict {
    verdict_with(cluster, |_, filter| filter(context, cluster))
}

/// [`verdict`] with each plugin's answer from `answer(plugin, filter)`, which may run the
/// filter or give what an earlier run of it found (a verdict shared by many bindings).
pub(crate) fn verdict_with(
    cluster: &KarmadaCluster,
    mut answer: impl FnMut(&'static str, Filter) -> Option<Cow<'static, str>>,
) -> Verdict {
    if cluster.deleting {
        return Verdict::Deleting;
    }
    for (plugin, filter) in FILTERS {
        if let Some(reason) = answer(plugin, filter) {
            return Verdict::Unfit { plugin, reason };
        }
    }
    Verdict::Fit
}

/// `FitError.Error()`: `0/N clusters are available: <count> <reason>, ....` with the entries
/// sorted as strings (so "10 ..." sorts before "2 ...").
pub(crate) fn fit_error(total: usize, reasons: &BTreeMap<String, usize>) -> String {
    if total == 0 || reasons.is_empty() {
        return format!("0/{total} clusters are available: no cluster exists.");
    }
    let mut entries: Vec<String> = reasons
        .iter()
        .map(|(reason, count)| format!("{count} {reason}"))
        .collect();
    entries.sort();
    format!("0/{total} clusters are available: {}.", entries.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_error_entries_sort_as_strings() {
        let reasons = BTreeMap::from([
            (
                "cluster(s) had untolerated taint {a:NoSchedule}".to_string(),
                2,
            ),
            ("cluster(s) did not have the API resource".to_string(), 10),
        ]);
        assert_eq!(
            fit_error(12, &reasons),
            "0/12 clusters are available: 10 cluster(s) did not have the API resource, \
             2 cluster(s) had untolerated taint {a:NoSchedule}."
        );
    }

    #[test]
    fn no_cluster_or_only_deleting_clusters_say_no_cluster_exists() {
        assert_eq!(
            fit_error(0, &BTreeMap::new()),
            "0/0 clusters are available: no cluster exists."
        );
        assert_eq!(
            fit_error(3, &BTreeMap::new()),
            "0/3 clusters are available: no cluster exists."
        );
    }
}
