//! The general estimator (`pkg/estimator/client/general.go`) and `calAvailableReplicas`
//! (`core/util.go`): how many more replicas of the workload each cluster can take, from
//! `status.resourceSummary`.

use crate::model::karmada::{KarmadaCluster, ReplicaRequirements, ResourceSummary};
use crate::model::quantity::{nanos_to_milli_value, nanos_to_value};

/// `math.MaxInt32`: "not estimated".
pub const UNBOUNDED: i64 = i32::MAX as i64;

/// `calAvailableReplicas` for one cluster: MaxInt32 for a workload of 0 replicas (nothing is
/// estimated), else the general estimate (an estimate left at MaxInt32 becomes `replicas`).
/// A `--capacity` on the cluster is the estimate instead of its `resourceSummary`'s, capped
/// at MaxInt32 as every estimator's answer is.
pub fn available_replicas(
    cluster: &KarmadaCluster,
    replicas: i64,
    requirements: Option<&ReplicaRequirements>,
) -> i64 {
    if replicas == 0 {
        return UNBOUNDED;
    }
    let estimate = match cluster.replica_capacity {
        Some(capacity) => capacity.min(UNBOUNDED),
        None => max_available_replicas(cluster.resource_summary.as_ref(), requirements),
    };
    if estimate == UNBOUNDED {
        replicas
    } else {
        estimate
    }
}

/// `GeneralEstimator.maxAvailableReplicas`. Resource models (`allocatableModelings`) are not
/// simulated; the loader warns about them.
pub fn max_available_replicas(
    summary: Option<&ResourceSummary>,
    requirements: Option<&ReplicaRequirements>,
) -> i64 {
    let Some(summary) = summary else {
        return 0;
    };
    let pods = allowed_pods(summary);
    if pods <= 0 {
        return 0;
    }
    let Some(requirements) = requirements else {
        return to_int32(pods);
    };
    let mut maximum = pods;
    for (resource, request) in &requirements.requests {
        let by_resource = replicas_for_resource(summary, resource, *request);
        maximum = maximum.min(by_resource);
    }
    to_int32(maximum)
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

/// One requested resource's bound (`getMaximumReplicasBasedOnClusterSummary`). `request` is
/// already in the unit upstream divides by: milli-units for cpu, units otherwise.
fn replicas_for_resource(summary: &ResourceSummary, resource: &str, request: i128) -> i128 {
    if request <= 0 {
        return i128::MAX;
    }
    let Some(allocatable) = summary.allocatable.get(resource) else {
        return 0;
    };
    let available = allocatable
        - summary.allocated.get(resource).copied().unwrap_or(0)
        - summary.allocating.get(resource).copied().unwrap_or(0);
    if nanos_to_value(available) <= 0 {
        return 0;
    }
    let available = if resource == "cpu" {
        nanos_to_milli_value(available)
    } else {
        nanos_to_value(available)
    };
    available / request
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

    #[test]
    fn no_summary_is_zero() {
        assert_eq!(max_available_replicas(None, None), 0);
    }

    #[test]
    fn without_requirements_the_free_pods_are_the_answer() {
        assert_eq!(
            max_available_replicas(Some(&summary(&[("pods", 110)])), None),
            110
        );
    }

    #[test]
    fn cpu_is_divided_in_milli_units_and_the_smallest_resource_wins() {
        let summary = summary(&[("pods", 110), ("cpu", 4), ("memory", 16 << 30)]);
        let requirements = requests(&[("cpu", 500), ("memory", 4 << 30)]);
        assert_eq!(
            max_available_replicas(Some(&summary), Some(&requirements)),
            4
        );
    }

    #[test]
    fn a_requested_resource_the_cluster_does_not_report_gives_zero() {
        let summary = summary(&[("pods", 110)]);
        let requirements = requests(&[("nvidia.com/gpu", 1)]);
        assert_eq!(
            max_available_replicas(Some(&summary), Some(&requirements)),
            0
        );
    }

    #[test]
    fn a_capacity_replaces_the_resource_summary_estimate() {
        let mut cluster = KarmadaCluster {
            resource_summary: Some(summary(&[("pods", 110), ("cpu", 4)])),
            ..KarmadaCluster::default()
        };
        let requirements = requests(&[("cpu", 1000)]);
        assert_eq!(available_replicas(&cluster, 9, Some(&requirements)), 4);
        cluster.replica_capacity = Some(7);
        assert_eq!(available_replicas(&cluster, 9, Some(&requirements)), 7);
        cluster.replica_capacity = Some(i64::MAX);
        assert_eq!(available_replicas(&cluster, 9, Some(&requirements)), 9);
    }

    #[test]
    fn a_zero_replica_workload_is_not_estimated() {
        assert_eq!(
            available_replicas(&KarmadaCluster::default(), 0, None),
            UNBOUNDED
        );
    }
}
