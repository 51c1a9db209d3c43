//! ResourceAllocatableCPU / ResourceAllocatableMemory (upstream `plugins/resource`): the
//! allocatable amount scaled to [-100, 100] between the minimum and maximum of the clusters
//! scored.

use std::sync::OnceLock;

use crate::model::{Cluster, Inventory};
use crate::ocm::feasible::Feasible;

use super::{Context, Prioritizer, Scores, Totals, MAX_SCORE};

pub(crate) const CPU: &str = "ResourceAllocatableCPU";
pub(crate) const MEMORY: &str = "ResourceAllocatableMemory";
/// The resources the two prioritizers read.
const RESOURCES: [&str; 2] = ["cpu", "memory"];

/// The prioritizer for one resource name in `status.allocatable` (`cpu`, `memory`).
#[derive(Debug)]
pub(crate) struct ResourceAllocatable(pub &'static str);

/// Every cluster's allocatable values by inventory index, read on first use (or ahead of the
/// run's first placement, `Scheduler::with_ahead`): a placement scores thousands of clusters
/// and must not look each up in two maps.
pub struct Allocatable<'a> {
    inventory: &'a Inventory,
    /// Aligned with [`RESOURCES`], each by inventory index.
    values: OnceLock<[Vec<f64>; RESOURCES.len()]>,
}

/// Clusters a thread reads at least: below, one thread reads them all.
const CLUSTERS_PER_THREAD: usize = 4096;

impl<'a> Allocatable<'a> {
    pub fn new(inventory: &'a Inventory) -> Allocatable<'a> {
        Allocatable {
            inventory,
            values: OnceLock::new(),
        }
    }

    /// Every cluster's allocatable `resource` by inventory index, NaN where the cluster does
    /// not report it (a quantity is never NaN), eight bytes where an `Option` took sixteen.
    ///
    /// Both resources are read in one pass, on every core: each look-up misses the cache
    /// (a cluster, its two maps, their keys), so the second resource costs little beside the
    /// first, and the scheduling threads wait on this.
    pub fn values(&self, resource: &str) -> &[f64] {
        let Some(at) = RESOURCES.iter().position(|&name| name == resource) else {
            return &[];
        };
        &self.build()[at]
    }

    /// Every resource's values, read the first time they are asked for.
    pub fn build(&self) -> &[Vec<f64>; RESOURCES.len()] {
        self.values.get_or_init(|| {
            let chunks = crate::parallel::chunks_in_order(
                &self.inventory.clusters,
                CLUSTERS_PER_THREAD,
                |clusters| {
                    let mut chunk = RESOURCES.map(|_| Vec::with_capacity(clusters.len()));
                    for cluster in clusters {
                        for (values, resource) in chunk.iter_mut().zip(RESOURCES) {
                            values.push(allocatable(cluster, resource).unwrap_or(f64::NAN));
                        }
                    }
                    chunk
                },
            );
            std::array::from_fn(|at| {
                chunks
                    .iter()
                    .flat_map(|chunk| &chunk[at])
                    .copied()
                    .collect()
            })
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

impl ResourceAllocatable {
    /// The allocatable values of the clusters given, in their order.
    fn given(&self, context: &Context, clusters: &Feasible) -> Vec<f64> {
        let values = context.scheduler.prioritizers.resource.values(self.0);
        let value = |index: usize| values.get(index).copied().unwrap_or(f64::NAN);
        clusters.list().iter().map(|&index| value(index)).collect()
    }
}

impl Prioritizer for ResourceAllocatable {
    fn score(&self, context: &Context, clusters: &Feasible) -> Scores {
        scaled(&self.given(context, clusters))
            .collect::<Vec<_>>()
            .into()
    }

    fn add_weighted(
        &self,
        context: &Context,
        clusters: &Feasible,
        weight: i32,
        totals: &mut Totals,
    ) -> Option<String> {
        totals.add_each(
            weight,
            scaled(&self.given(context, clusters)),
            clusters.len(),
        );
        None
    }
}

/// Each cluster's [`allocatable`] value (NaN: none) scored, scaled between the minimum and
/// maximum of the values given. Clusters without the resource get no score (they add 0 to
/// the total).
fn scaled(values: &[f64]) -> impl Iterator<Item = Option<i64>> + '_ {
    // `f64::min` and `max` pass over NaN: the range is the reported values'.
    let (min, max) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(min, max), &value| {
            (min.min(value), max.max(value))
        });
    values.iter().map(move |&value| {
        (!value.is_nan()).then(|| {
            if max - min == 0.0 {
                MAX_SCORE
            } else {
                let ratio = (value - min) / (max - min);
                ((ratio - 0.5) * 2.0 * MAX_SCORE as f64) as i64
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Quantity;
    use crate::testing::cluster;

    /// Read on every core in chunks, the values stay aligned with the inventory; a cluster
    /// without a capacity, or without the resource, reports none.
    #[test]
    fn values_read_in_chunks_stay_by_inventory_index() {
        let clusters: Vec<Cluster> = (0..3 * CLUSTERS_PER_THREAD + 7)
            .map(|at| {
                let mut built = cluster(&format!("c{at}"))
                    .allocatable("cpu", at as f64)
                    .build();
                if at % 5 != 0 {
                    let capacity = Quantity::parse("1000000").expect("a quantity");
                    built.resource_capacity.insert("cpu".into(), capacity);
                }
                built
            })
            .collect();
        let inventory = Inventory {
            clusters,
            ..Inventory::default()
        };
        let allocatable = Allocatable::new(&inventory);
        let cpu = allocatable.values("cpu");
        assert_eq!(cpu.len(), inventory.clusters.len());
        for (at, &value) in cpu.iter().enumerate() {
            if at % 5 == 0 {
                assert!(value.is_nan(), "{at}: {value}");
            } else {
                assert_eq!(value, at as f64);
            }
        }
        assert!(allocatable
            .values("memory")
            .iter()
            .all(|value| value.is_nan()));
        assert!(allocatable.values("gpu").is_empty());
    }

    /// The range is the reported values'; a cluster without the resource has no score, and
    /// one value alone (or all equal) scores the maximum.
    #[test]
    fn scores_scale_between_the_reported_values() {
        let score = |values: &[f64]| scaled(values).collect::<Vec<_>>();
        let none = f64::NAN;
        assert_eq!(
            score(&[4.0, none, 8.0, 6.0, 5.0]),
            [Some(-100), None, Some(100), Some(0), Some(-50)]
        );
        assert_eq!(score(&[none, 3.0, none]), [None, Some(100), None]);
        assert_eq!(score(&[none, none]), [None, None]);
        assert_eq!(score(&[]), []);
    }
}
