//! What a run computes once over the MemberClusters, shared by every placement: the clusters
//! in name order, a name index, and each cluster's eligibility at `now` (it does not depend on
//! the placement).

use std::collections::HashMap;

use super::member_cluster::MemberCluster;
use super::plugins::cluster_eligibility::{self, Ineligible};

pub(crate) struct Fleet<'c> {
    /// In name order (the order the scheduler reports filtered clusters in).
    clusters: Vec<&'c MemberCluster>,
    index: HashMap<&'c str, usize>,
    eligibility: Vec<Result<(), Ineligible>>,
}

impl<'c> Fleet<'c> {
    /// A later MemberCluster of the same name replaces an earlier one, as a second write of
    /// the object would.
    pub(crate) fn new(clusters: &'c [MemberCluster], now: i64) -> Fleet<'c> {
        let mut by_name: HashMap<&str, &MemberCluster> = HashMap::with_capacity(clusters.len());
        for cluster in clusters {
            by_name.insert(&cluster.name, cluster);
        }
        let mut clusters: Vec<&MemberCluster> = by_name.into_values().collect();
        clusters.sort_by(|a, b| a.name.cmp(&b.name));
        let index = clusters
            .iter()
            .enumerate()
            .map(|(position, cluster)| (cluster.name.as_str(), position))
            .collect();
        let eligibility = clusters
            .iter()
            .map(|cluster| cluster_eligibility::check(cluster, now))
            .collect();
        Fleet {
            clusters,
            index,
            eligibility,
        }
    }

    pub(crate) fn clusters(&self) -> &[&'c MemberCluster] {
        &self.clusters
    }

    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    pub(crate) fn get(&self, name: &str) -> Option<&'c MemberCluster> {
        self.position(name).map(|position| self.clusters[position])
    }

    pub(crate) fn eligibility(&self, position: usize) -> Result<(), Ineligible> {
        self.eligibility[position]
    }
}
