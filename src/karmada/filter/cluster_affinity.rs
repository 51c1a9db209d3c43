//! ClusterAffinity (`plugins/clusteraffinity`): the placement's `clusterAffinity`, or with
//! `clusterAffinities` the term being tried plus its overflow affinities (workloads only);
//! any of them matching keeps the cluster.

use std::borrow::Cow;

use crate::karmada::model::{ClusterAffinityTerm, KarmadaCluster, Placement};

use super::super::cluster_matches::AffinityMatcher;
use super::FilterContext;

pub(crate) const NAME: &str = "ClusterAffinity";

/// The affinities one scheduling attempt filters with: empty means no constraint.
#[derive(Clone, Debug, Default)]
pub(crate) struct TermAffinity<'a> {
    /// The term's own affinity first, then its overflow affinities (the overflow order is the
    /// index in this list).
    pub matchers: Vec<AffinityMatcher<'a>>,
}

impl<'a> TermAffinity<'a> {
    /// `clusterAffinity` wins; else the term named `observed` in `clusterAffinities` (none
    /// found: no constraint, as upstream).
    pub(crate) fn new(
        placement: &'a Placement,
        observed: Option<&str>,
        workload: bool,
    ) -> TermAffinity<'a> {
        if let Some(affinity) = &placement.cluster_affinity {
            return TermAffinity {
                matchers: vec![AffinityMatcher::new(affinity)],
            };
        }
        let term = placement
            .cluster_affinities
            .iter()
            .flatten()
            .find(|term| Some(term.name.as_str()) == observed);
        TermAffinity {
            matchers: term
                .map(|term| matchers(term, workload))
                .unwrap_or_default(),
        }
    }

    /// `getClusterOverflowOrder`: 0 for the term itself, i+1 for overflow affinity i.
    pub(crate) fn overflow_order(&self, cluster: &KarmadaCluster) -> i64 {
        if self.matchers.len() <= 1 {
            return 0;
        }
        self.matchers
            .iter()
            .position(|matcher| matcher.matches(cluster))
            .map_or(1000, |index| index as i64)
    }
}

fn matchers(term: &ClusterAffinityTerm, workload: bool) -> Vec<AffinityMatcher<'_>> {
    let mut matchers = vec![AffinityMatcher::new(&term.affinity)];
    if workload {
        matchers.extend(
            term.overflow
                .iter()
                .flatten()
                .map(|(_, affinity)| AffinityMatcher::new(affinity)),
        );
    }
    matchers
}

pub(crate) fn filter(
    context: &FilterContext,
    cluster: &KarmadaCluster,
) -> Option<Cow<'static, str>> {
    answer(&context.affinity.matchers, |_, matcher| {
        matcher.matches(cluster)
    })
}

/// The plugin's answer given whether each of `matchers` (by position) matches the cluster.
pub(crate) fn answer(
    matchers: &[AffinityMatcher],
    mut matches: impl FnMut(usize, &AffinityMatcher) -> bool,
) -> Option<Cow<'static, str>> {
    if matchers.is_empty()
        || matchers
            .iter()
            .enumerate()
            .any(|(at, matcher)| matches(at, matcher))
    {
        return None;
    }
    Some(Cow::Borrowed(
        "cluster(s) did not match the placement cluster affinity constraint",
    ))
}
