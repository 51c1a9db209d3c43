//! ResourceAllocatableCPU / ResourceAllocatableMemory (upstream `plugins/resource`): the
//! allocatable amount scaled to [-100, 100] between the minimum and maximum of the clusters
//! scored.

use std::sync::OnceLock;

use crate::model::{Cluster, Inventory};
use crate::ocm::feasible::Feasible;

use super::{Context, Prioritizer, Scores, MAX_SCORE};

pub(crate) const CPU: &str = "ResourceAllocatableCPU";
pub(crate) const MEMORY: &str = "ResourceAllocatableMemory";
/// The resources the two prioritizers read.
const RESOURCES: [&str; 2] = ["cpu", "memory"];

/// The prioritizer for one resource name in `status.allocatable` (`cpu`, `memory`).
#[derive(Debug)]
pub(crate) struct ResourceAllocatable(pub &'static str);

/// Per resource, every cluster's allocatable value by inventory index, read on first use of
/// that resource: a placement scores thousands of clusters and must not look each up in two
/// maps, and a run whose placements score one resource never reads the other.
pub struct Allocatable<'a> {
    inventory: &'a Inventory,
    /// Aligned with [`RESOURCES`].
    values: [OnceLock<Vec<Option<f64>>>; RESOURCES.len()],
}

impl<'a> Allocatable<'a> {
    pub fn new(inventory: &'a Inventory) -> Allocatable<'a> {
        Allocatable {
            inventory,
            values: Default::default(),
        }
    }

    /// Every cluster's allocatable `resource` by inventory index; `None` where the cluster
    /// does not report it.
    pub fn values(&self, resource: &str) -> &[Option<f64>] {
        let Some(at) = RESOURCES.iter().position(|&name| name == resource) else {
            return &[];
        };
        self.values[at].get_or_init(|| {
            self.inventory
                .clusters
                .iter()
                .map(|cluster| allocatable(cluster, resource))
                .collect()
        })
    }
}

/// The allocatable value, when the cluster reports both allocatable and capacity.
fn allocatable(cluster: &Cluster, resource: &str) -> Option<f64> {
    cluster.resource_capacity.get(resource)?;
    cluster
        .allocatable
        .get(resource)
        .map(|quantity| quantity.value)
}

impl Prioritizer for ResourceAllocatable {
    fn score(&self, context: &Context, clusters: &Feasible) -> Scores {
        let values = context.scheduler.prioritizers.resource.values(self.0);
        let value = |index: usize| values.get(index).copied().flatten();
        score(clusters.list().iter().map(|&index| value(index))).into()
    }
}

/// Scores each cluster's [`allocatable`] value, scaled between the minimum and maximum of
/// the values given (read twice: once for the range, once to score). Clusters without the
/// resource get no score (they add 0 to the total).
fn score<I: Iterator<Item = Option<f64>> + Clone>(values: I) -> Vec<Option<i64>> {
    let (min, max) = values
        .clone()
        .flatten()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(min, max), value| {
            (min.min(value), max.max(value))
        });
    values
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
