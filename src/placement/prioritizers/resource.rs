//! ResourceAllocatableCPU / ResourceAllocatableMemory (upstream `plugins/resource`): the
//! allocatable amount scaled to [-100, 100] between the fleet's minimum and maximum.

use crate::model::Cluster;

use super::MAX_SCORE;

pub const CPU: &str = "ResourceAllocatableCPU";
pub const MEMORY: &str = "ResourceAllocatableMemory";
/// The resources the two prioritizers read.
pub const RESOURCES: [&str; 2] = ["cpu", "memory"];

/// The allocatable value, when the cluster reports both allocatable and capacity.
pub fn allocatable(cluster: &Cluster, resource: &str) -> Option<f64> {
    cluster.resource_capacity.get(resource)?;
    cluster
        .allocatable
        .get(resource)
        .map(|quantity| quantity.value)
}

/// Scores each cluster's [`allocatable`] value. Clusters without the resource get no score
/// (they add 0 to the total).
pub fn score(values: &[Option<f64>]) -> Vec<Option<i64>> {
    let present = values.iter().flatten().copied();
    let min = present.clone().fold(f64::INFINITY, f64::min);
    let max = present.fold(f64::NEG_INFINITY, f64::max);
    values
        .iter()
        .map(|value| {
            value.map(|value| {
                if max - min == 0.0 {
                    MAX_SCORE
                } else {
                    let ratio = (value - min) / (max - min);
                    ((ratio - 0.5) * 2.0 * MAX_SCORE as f64) as i64
                }
            })
        })
        .collect()
}
