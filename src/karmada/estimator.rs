//! The general estimator (`pkg/estimator/client/general.go`) and `calAvailableReplicas`
//! (`core/util.go`): how many more replicas of the workload each cluster can take, from
//! `status.resourceSummary`.

use std::collections::HashMap;

use crate::karmada::model::{KarmadaCluster, ReplicaRequirements, ResourceSummary};
use crate::model::quantity::{nanos_to_milli_value, nanos_to_value};

/// `math.MaxInt32`: "not estimated".
pub(crate) const UNBOUNDED: i64 = i32::MAX as i64;

/// What the general estimator reads of every cluster, reduced once per run to numbers: for
/// each cluster its free pods, and for each resource any cluster reports, a column of what is
/// free in the unit requests are divided by. A workload's estimate is then a few array reads
/// per cluster instead of map lookups by resource name.
#[derive(Clone, Debug, Default)]
pub(crate) struct GeneralEstimator {
    /// Per cluster: `None` without a `resourceSummary` (estimate 0), else the free pods
    /// (`getAllowedPodNumber`, never below 0).
    pods: Vec<Option<i128>>,
    /// Per resource name, per cluster: `None` when the cluster does not report the resource
    /// as allocatable (estimate 0), else what is free: 0 when `Value()` of the free quantity
    /// is ≤ 0, else milli-units for cpu and units otherwise.
    free: HashMap<String, Column>,
    /// `--capacity` per cluster: the estimate instead of the summary's.
    capacity: Vec<Option<i64>>,
}

impl GeneralEstimator {
    pub(crate) fn new(clusters: &[KarmadaCluster]) -> GeneralEstimator {
        let mut free: HashMap<String, Column> = HashMap::new();
        for (index, cluster) in clusters.iter().enumerate() {
            let Some(summary) = &cluster.resource_summary else {
                continue;
            };
            for (resource, allocatable) in &summary.allocatable {
                let column = free
                    .entry(resource.clone())
                    .or_insert_with(|| vec![None; clusters.len()]);
                column[index] = Some(free_units(summary, resource, *allocatable));
            }
        }
        GeneralEstimator {
            pods: clusters
                .iter()
                .map(|cluster| cluster.resource_summary.as_ref().map(allowed_pods))
                .collect(),
            free,
            capacity: clusters
                .iter()
                .map(|cluster| cluster.replica_capacity)
                .collect(),
        }
    }

    /// The requested resources resolved to their columns, once per workload.
    pub(crate) fn requests<'e>(
        &'e self,
        requirements: Option<&ReplicaRequirements>,
    ) -> Requests<'e> {
        let Some(requirements) = requirements else {
            return Requests(None);
        };
        Requests(Some(
            requirements
                .requests
                .iter()
                .filter(|(_, request)| **request > 0)
                .map(|(resource, request)| (self.free.get(resource.as_str()), *request))
                .collect(),
        ))
    }

    /// `calAvailableReplicas` for the cluster at `index`: MaxInt32 for a workload of 0
    /// replicas (nothing is estimated), else the general estimate (an estimate left at
    /// MaxInt32 becomes `replicas`). A `--capacity` on the cluster is the estimate instead of
    /// its `resourceSummary`'s, capped at MaxInt32 as every estimator's answer is.
    pub(crate) fn available_replicas(
        &self,
        index: usize,
        replicas: i64,
        requests: &Requests,
    ) -> i64 {
        if replicas == 0 {
            return UNBOUNDED;
        }
        let estimate = match self.capacity[index] {
            Some(capacity) => capacity.min(UNBOUNDED),
            None => self.max_available_replicas(index, requests),
        };
        if estimate == UNBOUNDED {
            replicas
        } else {
            estimate
        }
    }

    /// `GeneralEstimator.maxAvailableReplicas`. Resource models (`allocatableModelings`) are
    /// not simulated; the loader warns about them.
    fn max_available_replicas(&self, index: usize, requests: &Requests) -> i64 {
        let Some(pods) = self.pods[index] else {
            return 0;
        };
        if pods <= 0 {
            return 0;
        }
        let Some(requests) = &requests.0 else {
            return to_int32(pods);
        };
        let mut maximum = pods;
        for (column, request) in requests {
            // A requested resource the cluster does not report allows nothing.
            let free = column.and_then(|column| column[index]).unwrap_or(0);
            maximum = maximum.min(quotient(free, *request));
        }
        to_int32(maximum)
    }
}

/// A workload's positive requests, each with the column of what every cluster has free of
/// that resource (`None`: no cluster reports it). `None` without replica requirements.
pub(crate) struct Requests<'e>(Option<Vec<(Option<&'e Column>, i128)>>);

/// Per cluster, what it has free of one resource (`None`: not allocatable there).
type Column = Vec<Option<i128>>;

/// `free / request`, in 64 bits when both fit (always, but for quantities beyond 2^64 units):
/// a 128-bit division is a library call, and there are two per feasible cluster of every
/// binding.
fn quotient(free: i128, request: i128) -> i128 {
    match (u64::try_from(free), u64::try_from(request)) {
        (Ok(free), Ok(request)) => i128::from(free / request),
        _ => free / request,
    }
}

/// Go's `int32(int64)` conversion wraps; a cluster reporting more than 2^31 pods does too.
fn to_int32(value: i128) -> i64 {
    i64::from(value as i32)
}

/// `getAllowedPodNumber`: allocatable − allocated − allocating pods, never below 0.
fn allowed_pods(summary: &ResourceSummary) -> i128 {
    let value = |list: &std::collections::BTreeMap<String, i128>| {
        list.get("pods").map_or(0, |nanos| nanos_to_value(*nanos))
    };
    (value(&summary.allocatable) - value(&summary.allocated) - value(&summary.allocating)).max(0)
}

/// What `getMaximumReplicasBasedOnClusterSummary` divides a request into: allocatable −
/// allocated − allocating, 0 when its `Value()` is ≤ 0, in milli-units for cpu and units
/// otherwise (the units requests are kept in).
fn free_units(summary: &ResourceSummary, resource: &str, allocatable: i128) -> i128 {
    let available = allocatable
        - summary.allocated.get(resource).copied().unwrap_or(0)
        - summary.allocating.get(resource).copied().unwrap_or(0);
    if nanos_to_value(available) <= 0 {
        0
    } else if resource == "cpu" {
        nanos_to_milli_value(available)
    } else {
        nanos_to_value(available)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UNIT: i128 = 1_000_000_000;

    fn summary(pairs: &[(&str, i128)]) -> ResourceSummary {
        ResourceSummary {
            allocatable: pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v * UNIT))
                .collect(),
            ..ResourceSummary::default()
        }
    }

    fn requests(pairs: &[(&str, i128)]) -> ReplicaRequirements {
        ReplicaRequirements {
            requests: pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            node_claim: false,
        }
    }

    /// The estimate of 9 replicas on one cluster with `summary`.
    fn estimate(
        summary: Option<ResourceSummary>,
        requirements: Option<&ReplicaRequirements>,
    ) -> i64 {
        let cluster = KarmadaCluster {
            resource_summary: summary,
            ..KarmadaCluster::default()
        };
        let estimator = GeneralEstimator::new(&[cluster]);
        estimator.available_replicas(0, 9, &estimator.requests(requirements))
    }

    #[test]
    fn no_summary_is_zero() {
        assert_eq!(estimate(None, None), 0);
    }

    #[test]
    fn without_requirements_the_free_pods_are_the_answer() {
        assert_eq!(estimate(Some(summary(&[("pods", 110)])), None), 110);
    }

    #[test]
    fn cpu_is_divided_in_milli_units_and_the_smallest_resource_wins() {
        let summary = summary(&[("pods", 110), ("cpu", 4), ("memory", 16 << 30)]);
        let requirements = requests(&[("cpu", 500), ("memory", 4 << 30)]);
        assert_eq!(estimate(Some(summary), Some(&requirements)), 4);
    }

    #[test]
    fn a_requested_resource_the_cluster_does_not_report_gives_zero() {
        let summary = summary(&[("pods", 110)]);
        let requirements = requests(&[("nvidia.com/gpu", 1)]);
        assert_eq!(estimate(Some(summary), Some(&requirements)), 0);
    }

    #[test]
    fn a_resource_used_up_gives_zero() {
        let mut summary = summary(&[("pods", 110), ("cpu", 4)]);
        summary.allocated.insert("cpu".to_string(), 4 * UNIT + 1);
        let requirements = requests(&[("cpu", 1)]);
        assert_eq!(estimate(Some(summary), Some(&requirements)), 0);
    }

    #[test]
    fn a_capacity_replaces_the_resource_summary_estimate() {
        let mut cluster = KarmadaCluster {
            resource_summary: Some(summary(&[("pods", 110), ("cpu", 4)])),
            ..KarmadaCluster::default()
        };
        let requirements = requests(&[("cpu", 1000)]);
        let with = |cluster: &KarmadaCluster| {
            let estimator = GeneralEstimator::new(std::slice::from_ref(cluster));
            estimator.available_replicas(0, 9, &estimator.requests(Some(&requirements)))
        };
        assert_eq!(with(&cluster), 4);
        cluster.replica_capacity = Some(7);
        assert_eq!(with(&cluster), 7);
        cluster.replica_capacity = Some(i64::MAX);
        assert_eq!(with(&cluster), 9);
    }

    #[test]
    fn quantities_beyond_64_bits_divide_as_128_bit_integers() {
        let huge = i128::from(u64::MAX) * 6;
        assert_eq!(quotient(huge, 3), i128::from(u64::MAX) * 2);
        assert_eq!(quotient(huge, huge / 2), 2);
        assert_eq!(quotient(7, 2), 3);
        assert_eq!(quotient(0, 5), 0);
    }

    #[test]
    fn a_zero_replica_workload_is_not_estimated() {
        let estimator = GeneralEstimator::new(&[KarmadaCluster::default()]);
        assert_eq!(
            estimator.available_replicas(0, 0, &estimator.requests(None)),
            UNBOUNDED
        );
    }
}
