//! The member clusters of one run, with what scheduling reads of them computed once instead of
//! once per binding: the general estimator's numbers, and the filter verdicts a policy's
//! bindings share.
//!
//! Every filter but ClusterEviction reads only the cluster, the placement (its tolerations,
//! its affinity term, its spread constraints), whether the resource is a workload (overflow
//! affinities) and the resource's apiVersion and kind, as long as the binding targets no
//! cluster (APIEnablement and TaintToleration skip the clusters it targets) and is evicted
//! from none. So the verdicts of an empty binding are a table per (placement, term, workload,
//! kind), computed on first use and shared by every binding of that policy; a binding with
//! targets or evictions gets the table's verdicts for every other cluster.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::karmada::model::{ClusterAffinity, KarmadaCluster, Placement};
use crate::model::NameTable;
use crate::selector::{ClusterBits, LabelIndex};

use super::cluster_matches::AffinityMatcher;
use super::estimator::GeneralEstimator;
use super::filter::{self, api_enablement, cluster_affinity, FilterContext, TermAffinity, Verdict};
use super::Binding;

/// The Karmada clusters of a run and what is computed once over them.
pub(crate) struct Fleet<'a> {
    pub clusters: &'a [KarmadaCluster],
    pub estimator: GeneralEstimator,
    /// Cluster name → index in `clusters`.
    index: HashMap<&'a str, usize>,
    /// Per cluster, its place in name order.
    ranks: Vec<u32>,
    /// The names by rank: the plan items' clusters are ranks into it.
    names: Arc<NameTable>,
    /// The clusters' labels, indexed: a selector is answered for the whole fleet at once.
    labels: LabelIndex,
    tables: Shared<TableKey, FilterTable>,
    /// Per (apiVersion, kind): APIEnablement's answer for every cluster (an empty binding).
    apis: Shared<(String, String), Vec<Option<Cow<'static, str>>>>,
    /// Per placement (by address, as [`TableKey`]): every cluster's static weight.
    static_weights: Shared<usize, Vec<i64>>,
}

/// Values computed once by the first of the parallel workers that asks, the others waiting
/// for it, then shared.
type Shared<K, V> = Mutex<HashMap<K, Arc<OnceLock<Arc<V>>>>>;

/// The value at `key`, computed with `init` if no worker has.
fn shared<K: Eq + std::hash::Hash, V>(
    values: &Shared<K, V>,
    key: K,
    init: impl FnOnce() -> V,
) -> Arc<V> {
    let slot = {
        let mut values = values.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(values.entry(key).or_default())
    };
    Arc::clone(slot.get_or_init(|| Arc::new(init())))
}

/// What a filter table depends on besides the clusters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct TableKey {
    /// The placement's address: each policy's placement lives in the model for the whole
    /// run, so the address names the policy.
    placement: usize,
    /// The affinity term filtered with (`clusterAffinities`).
    term: Option<String>,
    workload: bool,
    api_version: String,
    kind: String,
}

/// Every cluster's verdict for a binding that targets no cluster and is evicted from none.
#[derive(Debug)]
pub(crate) struct FilterTable {
    /// The distinct verdicts, each once.
    verdicts: Vec<Verdict>,
    /// Per cluster, its verdict's index in `verdicts`.
    of_cluster: Vec<u32>,
    /// The clusters that passed, in fleet order.
    pub feasible: Vec<usize>,
    /// Failure reason → how many clusters gave it (`FitError`'s counts).
    pub reasons: BTreeMap<String, usize>,
}

impl FilterTable {
    /// The verdicts with APIEnablement's answers `apis` and each affinity matcher's label
    /// selector answered by `labels` (`None`: the matcher has none).
    fn new(
        context: &FilterContext,
        clusters: &[KarmadaCluster],
        apis: &[Option<Cow<'static, str>>],
        labels: &[Option<ClusterBits>],
    ) -> FilterTable {
        let mut table = FilterTable {
            verdicts: Vec::new(),
            of_cluster: Vec::with_capacity(clusters.len()),
            feasible: Vec::new(),
            reasons: BTreeMap::new(),
        };
        let mut distinct = Distinct::default();
        // Per distinct verdict, how many clusters gave it.
        let mut counts: Vec<usize> = Vec::new();
        for (index, cluster) in clusters.iter().enumerate() {
            let verdict = filter::verdict_with(cluster, |plugin, filter| {
                if plugin == api_enablement::NAME {
                    apis[index].clone()
                } else if plugin == cluster_affinity::NAME {
                    cluster_affinity::answer(&context.affinity.matchers, |at, matcher| {
                        matcher.matches_with(cluster, |_| {
                            labels[at].as_ref().is_some_and(|bits| bits.contains(index))
                        })
                    })
                } else {
                    filter(context, cluster)
                }
            });
            if verdict == Verdict::Fit {
                table.feasible.push(index);
            }
            let id = distinct.id(verdict, &mut table.verdicts);
            counts.resize(table.verdicts.len(), 0);
            counts[id as usize] += 1;
            table.of_cluster.push(id);
        }
        for (verdict, count) in table.verdicts.iter().zip(counts) {
            if let Verdict::Unfit { reason, .. } = verdict {
                *table.reasons.entry(reason.to_string()).or_default() += count;
            }
        }
        table
    }

    /// The verdict of the cluster at `index`.
    pub(crate) fn verdict(&self, index: usize) -> &Verdict {
        &self.verdicts[self.of_cluster[index] as usize]
    }
}

/// The distinct verdicts of a table. Every filter's reason is one of a few fixed texts but a
/// taint's, formatted per cluster: a fixed text is recognised by its address among the few
/// seen, a formatted one by its text (hashing every cluster's ~50 bytes of reason cost more
/// than running the filters). A text at two addresses is two entries with equal verdicts,
/// which no reader can tell apart.
#[derive(Default)]
struct Distinct {
    /// Ids of the verdicts without a formatted reason.
    fixed: Vec<u32>,
    formatted: HashMap<Verdict, u32>,
}

impl Distinct {
    /// The id of `verdict` in `verdicts`, where it is added if new.
    fn id(&mut self, verdict: Verdict, verdicts: &mut Vec<Verdict>) -> u32 {
        let next = verdicts.len() as u32;
        if let Verdict::Unfit {
            reason: Cow::Owned(_),
            ..
        } = verdict
        {
            return *self.formatted.entry(verdict).or_insert_with_key(|verdict| {
                verdicts.push(verdict.clone());
                next
            });
        }
        let known = self
            .fixed
            .iter()
            .find(|&&id| same_fixed(&verdicts[id as usize], &verdict));
        if let Some(&id) = known {
            return id;
        }
        self.fixed.push(next);
        verdicts.push(verdict);
        next
    }
}

/// Two verdicts without a formatted reason, the reasons compared by address.
fn same_fixed(a: &Verdict, b: &Verdict) -> bool {
    match (a, b) {
        (Verdict::Fit, Verdict::Fit) | (Verdict::Deleting, Verdict::Deleting) => true,
        (
            Verdict::Unfit {
                plugin: a_plugin,
                reason: Cow::Borrowed(a_reason),
            },
            Verdict::Unfit {
                plugin: b_plugin,
                reason: Cow::Borrowed(b_reason),
            },
        ) => a_plugin == b_plugin && std::ptr::eq(*a_reason, *b_reason),
        _ => false,
    }
}

impl<'a> Fleet<'a> {
    pub(crate) fn new(clusters: &'a [KarmadaCluster]) -> Fleet<'a> {
        let mut by_name: Vec<usize> = (0..clusters.len()).collect();
        by_name.sort_by(|&a, &b| clusters[a].name.cmp(&clusters[b].name));
        let mut ranks = vec![0; clusters.len()];
        for (rank, &index) in by_name.iter().enumerate() {
            ranks[index] = rank as u32;
        }
        let names = NameTable::new(by_name.iter().map(|&index| clusters[index].name.as_str()));
        Fleet {
            ranks,
            names: Arc::new(names),
            labels: LabelIndex::new(clusters, |cluster| &cluster.labels),
            clusters,
            estimator: GeneralEstimator::new(clusters),
            index: clusters
                .iter()
                .enumerate()
                .map(|(index, cluster)| (cluster.name.as_str(), index))
                .collect(),
            tables: Mutex::new(HashMap::new()),
            apis: Mutex::new(HashMap::new()),
            static_weights: Mutex::new(HashMap::new()),
        }
    }

    /// The place of the cluster at `index` in the fleet's name order.
    pub(crate) fn rank(&self, index: usize) -> u32 {
        self.ranks[index]
    }

    /// The clusters' names by rank.
    pub(crate) fn names(&self) -> &Arc<NameTable> {
        &self.names
    }

    /// The index of the cluster named `name`, if the fleet has it.
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// Every cluster's weight under `placement`'s `staticWeightList` (`rules`): the highest
    /// weight of the rules whose `targetCluster` matches it, 0 when none does.
    pub(crate) fn static_weights(
        &self,
        placement: &Placement,
        rules: &[(ClusterAffinity, i64)],
    ) -> Arc<Vec<i64>> {
        shared(
            &self.static_weights,
            std::ptr::from_ref(placement) as usize,
            || {
                let matchers: Vec<(AffinityMatcher, Option<ClusterBits>, i64)> = rules
                    .iter()
                    .map(|(affinity, weight)| {
                        let matcher = AffinityMatcher::new(affinity);
                        let labels = self.select_labels(&matcher);
                        (matcher, labels, *weight)
                    })
                    .collect();
                self.clusters
                    .iter()
                    .enumerate()
                    .map(|(index, cluster)| {
                        matchers
                            .iter()
                            .filter(|(matcher, labels, _)| {
                                matcher.matches_with(cluster, |_| {
                                    labels.as_ref().is_some_and(|bits| bits.contains(index))
                                })
                            })
                            .map(|(_, _, weight)| *weight)
                            .fold(0, i64::max)
                    })
                    .collect()
            },
        )
    }

    /// The verdicts of `binding`'s policy with `term` and `affinity` for an empty binding,
    /// computed by the first binding that asks (the others wait for it, then share it).
    pub(crate) fn filter_table(
        &self,
        binding: &Binding,
        term: Option<&str>,
        affinity: &TermAffinity,
    ) -> Arc<FilterTable> {
        let object = &binding.resource.object;
        let key = TableKey {
            placement: std::ptr::from_ref(binding.placement) as usize,
            term: term.map(str::to_string),
            workload: binding.is_workload(),
            api_version: object.api_version.clone(),
            kind: object.kind.clone(),
        };
        shared(&self.tables, key, || {
            let empty = Binding {
                clusters: &[],
                eviction_from: &[],
                ..*binding
            };
            let context = FilterContext {
                binding: &empty,
                affinity,
            };
            let apis = shared(
                &self.apis,
                (object.api_version.clone(), object.kind.clone()),
                || {
                    self.clusters
                        .iter()
                        .map(|cluster| api_enablement::filter(&context, cluster))
                        .collect()
                },
            );
            let labels: Vec<Option<ClusterBits>> = affinity
                .matchers
                .iter()
                .map(|matcher| self.select_labels(matcher))
                .collect();
            FilterTable::new(&context, self.clusters, &apis, &labels)
        })
    }

    /// The clusters whose labels `matcher`'s label selector matches, over the whole fleet at
    /// once (`None`: the matcher has none); its other terms are read cluster by cluster.
    fn select_labels(&self, matcher: &AffinityMatcher) -> Option<ClusterBits> {
        matcher
            .label_selector()
            .map(|selector| self.labels.select(selector))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unfit(plugin: &'static str, reason: Cow<'static, str>) -> Verdict {
        Verdict::Unfit { plugin, reason }
    }

    #[test]
    fn each_distinct_verdict_is_kept_once() {
        let mut distinct = Distinct::default();
        let mut verdicts = Vec::new();
        let fixed: &'static str =
            "cluster(s) did not match the placement cluster affinity constraint";
        let taint = |text: &str| unfit("TaintToleration", Cow::Owned(text.to_string()));
        let ids: Vec<u32> = [
            Verdict::Fit,
            unfit("ClusterAffinity", Cow::Borrowed(fixed)),
            taint("had untolerated taint {a:NoSchedule}"),
            Verdict::Fit,
            unfit("ClusterAffinity", Cow::Borrowed(fixed)),
            taint("had untolerated taint {a:NoSchedule}"),
            taint("had untolerated taint {b:NoSchedule}"),
            Verdict::Deleting,
        ]
        .into_iter()
        .map(|verdict| distinct.id(verdict, &mut verdicts))
        .collect();
        assert_eq!(ids, [0, 1, 2, 0, 1, 2, 3, 4]);
        assert_eq!(verdicts[2], taint("had untolerated taint {a:NoSchedule}"));
        assert_eq!(verdicts.len(), 5);
    }
}
