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

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::model::karmada::KarmadaCluster;

use super::estimator::GeneralEstimator;
use super::filter::{self, FilterContext, TermAffinity, Verdict};
use super::Binding;

/// The Karmada clusters of a run and what is computed once over them.
pub struct Fleet<'a> {
    pub clusters: &'a [KarmadaCluster],
    pub estimator: GeneralEstimator,
    /// Cluster name → index in `clusters`.
    index: HashMap<&'a str, usize>,
    tables: Mutex<HashMap<TableKey, Arc<OnceLock<Arc<FilterTable>>>>>,
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
pub struct FilterTable {
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
    fn new(context: &FilterContext, clusters: &[KarmadaCluster]) -> FilterTable {
        let mut table = FilterTable {
            verdicts: Vec::new(),
            of_cluster: Vec::with_capacity(clusters.len()),
            feasible: Vec::new(),
            reasons: BTreeMap::new(),
        };
        let mut distinct: HashMap<Verdict, u32> = HashMap::new();
        for (index, cluster) in clusters.iter().enumerate() {
            let verdict = filter::verdict(context, cluster);
            match &verdict {
                Verdict::Fit => table.feasible.push(index),
                Verdict::Unfit { reason, .. } => {
                    *table.reasons.entry(reason.to_string()).or_default() += 1;
                }
                Verdict::Deleting => {}
            }
            let next = table.verdicts.len() as u32;
            let id = *distinct.entry(verdict.clone()).or_insert_with(|| {
                table.verdicts.push(verdict);
                next
            });
            table.of_cluster.push(id);
        }
        table
    }

    /// The verdict of the cluster at `index`.
    pub fn verdict(&self, index: usize) -> &Verdict {
        &self.verdicts[self.of_cluster[index] as usize]
    }
}

impl<'a> Fleet<'a> {
    pub fn new(clusters: &'a [KarmadaCluster]) -> Fleet<'a> {
        Fleet {
            clusters,
            estimator: GeneralEstimator::new(clusters),
            index: clusters
                .iter()
                .enumerate()
                .map(|(index, cluster)| (cluster.name.as_str(), index))
                .collect(),
            tables: Mutex::new(HashMap::new()),
        }
    }

    /// The index of the cluster named `name`, if the fleet has it.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// The verdicts of `binding`'s policy with `term` and `affinity` for an empty binding,
    /// computed by the first binding that asks (the others wait for it, then share it).
    pub fn filter_table(
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
        let slot = {
            let mut tables = self.tables.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(tables.entry(key).or_default())
        };
        let table = slot.get_or_init(|| {
            let empty = Binding {
                clusters: &[],
                eviction_from: &[],
                ..*binding
            };
            let context = FilterContext {
                binding: &empty,
                affinity,
            };
            Arc::new(FilterTable::new(&context, self.clusters))
        });
        Arc::clone(table)
    }
}
