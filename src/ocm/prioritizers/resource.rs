//! ResourceAllocatableCPU / ResourceAllocatableMemory (upstream `plugins/resource`): the
//! allocatable amount scaled to [-100, 100] between the minimum and maximum of the clusters
//! scored.

use std::sync::OnceLock;

use crate::model::{Cluster, Inventory};
use crate::ocm::feasible::Feasible;
use crate::selector::ClusterBits;

use super::{weighted, Context, Ordered, Prioritizer, Scores, Totals, MAX_SCORE};

pub(crate) const CPU: &str = "ResourceAllocatableCPU";
pub(crate) const MEMORY: &str = "ResourceAllocatableMemory";
/// The resources the two prioritizers read.
const RESOURCES: [&str; 2] = ["cpu", "memory"];

/// The prioritizer for one resource name in `status.allocatable` (`cpu`, `memory`).
#[derive(Debug)]
pub(crate) struct ResourceAllocatable(pub &'static str);

/// Every cluster's allocatable values by inventory index, and the clusters grouped by value,
/// read on first use (or ahead of the run's first placement, `Scheduler::with_ahead`): a
/// placement scores thousands of clusters and must not look each up in two maps.
pub struct Allocatable<'a> {
    inventory: &'a Inventory,
    read: OnceLock<Read>,
}

/// What [`Allocatable`] reads, each aligned with [`RESOURCES`].
struct Read {
    /// By inventory index.
    values: [Vec<f64>; RESOURCES.len()],
    /// `None`: more distinct amounts than [`MAX_CLASSES`].
    classes: [Option<Classes>; RESOURCES.len()],
}

/// Clusters a thread reads at least: below, one thread reads them all.
const CLUSTERS_PER_THREAD: usize = 4096;

impl<'a> Allocatable<'a> {
    pub fn new(inventory: &'a Inventory) -> Allocatable<'a> {
        Allocatable {
            inventory,
            read: OnceLock::new(),
        }
    }

    /// Every cluster's allocatable `resource` by inventory index, NaN where the cluster does
    /// not report it (a quantity is never NaN), eight bytes where an `Option` took sixteen.
    pub fn values(&self, resource: &str) -> &[f64] {
        self.at(resource)
            .map_or(&[], |at| self.read().values[at].as_slice())
    }

    /// The clusters grouped by their allocatable `resource`, when it takes few values.
    fn classes(&self, resource: &str) -> Option<&Classes> {
        self.read().classes[self.at(resource)?].as_ref()
    }

    fn at(&self, resource: &str) -> Option<usize> {
        RESOURCES.iter().position(|&name| name == resource)
    }

    /// Reads every resource, the first time anything is asked for.
    pub fn build(&self) {
        self.read();
    }

    /// Both resources are read in one pass, on every core: each look-up misses the cache
    /// (a cluster, its two maps, their keys), so the second resource costs little beside the
    /// first, and the scheduling threads wait on this.
    fn read(&self) -> &Read {
        self.read.get_or_init(|| {
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
            let values: [Vec<f64>; RESOURCES.len()] = std::array::from_fn(|at| {
                chunks
                    .iter()
                    .flat_map(|chunk| &chunk[at])
                    .copied()
                    .collect()
            });
            let classes = std::array::from_fn(|at| Classes::of(&values[at]));
            Read { values, classes }
        })
    }
}

/// Distinct amounts beyond which a resource is not grouped: a fleet has a few machine shapes,
/// and ranking many groups per placement would cost more than scoring its clusters.
const MAX_CLASSES: usize = 64;

/// One resource's clusters grouped by allocatable amount: a placement's score order is then
/// made group by group (a few bitset intersections) instead of scoring, keying and heaping
/// each of 20k feasible clusters.
struct Classes {
    /// The distinct amounts reported, ascending.
    amounts: Vec<f64>,
    /// The clusters reporting each amount, aligned with `amounts`.
    members: Vec<ClusterBits>,
    /// The clusters that report no amount (no score).
    unreported: ClusterBits,
}

impl Classes {
    /// `values` (by inventory index, NaN: none) grouped; `None` past [`MAX_CLASSES`] amounts.
    fn of(values: &[f64]) -> Option<Classes> {
        // Amounts that compare equal score equal, so one class holds them (0 and -0).
        let find = |amounts: &[f64], value: f64| {
            amounts.binary_search_by(|amount| {
                amount
                    .partial_cmp(&value)
                    .unwrap_or(std::cmp::Ordering::Less)
            })
        };
        let mut amounts = Vec::new();
        for &value in values.iter().filter(|value| !value.is_nan()) {
            if let Err(at) = find(&amounts, value) {
                if amounts.len() == MAX_CLASSES {
                    return None;
                }
                amounts.insert(at, value);
            }
        }
        let mut members = vec![ClusterBits::empty(values.len()); amounts.len()];
        let mut unreported = ClusterBits::empty(values.len());
        for (index, &value) in values.iter().enumerate() {
            match find(&amounts, value) {
                Ok(at) => members[at].insert(index),
                Err(_) => unreported.insert(index),
            }
        }
        Some(Classes {
            amounts,
            members,
            unreported,
        })
    }

    /// [`Prioritizer::order`] for the amounts grouped here: upstream's scale takes the
    /// feasible clusters' lowest and highest amount, so each class has one score and one
    /// total; classes are taken by total, those with equal totals together, each group's
    /// clusters in inventory order.
    fn order(
        &self,
        feasible: &ClusterBits,
        base: i64,
        weight: i32,
        head: Option<usize>,
    ) -> Ordered {
        let present: Vec<usize> = (0..self.amounts.len())
            .filter(|&class| feasible.intersects(&self.members[class]))
            .collect();
        let range = present
            .first()
            .zip(present.last())
            .map(|(&lowest, &highest)| (self.amounts[lowest], self.amounts[highest]));
        let mut totals: Vec<(i64, &ClusterBits)> = present
            .iter()
            .map(|&class| {
                let score = range.map(|(min, max)| scale(min, max, self.amounts[class]));
                (
                    base.saturating_add(weighted(score, weight)),
                    &self.members[class],
                )
            })
            .collect();
        if feasible.intersects(&self.unreported) {
            totals.push((
                base.saturating_add(weighted(None, weight)),
                &self.unreported,
            ));
        }
        totals.sort_by_key(|&(total, _)| std::cmp::Reverse(total));
        let wanted = head.unwrap_or(usize::MAX);
        let mut ordered = Ordered::default();
        for group in totals.chunk_by(|a, b| a.0 == b.0) {
            let taken = ordered.clusters.len();
            if taken >= wanted {
                break;
            }
            let mut clusters = group[0].1.clone();
            for &(_, members) in &group[1..] {
                clusters.or_assign(members);
            }
            clusters.and_assign(feasible);
            ordered
                .clusters
                .extend(clusters.iter_ones().take(wanted - taken));
            let total = group[0].0;
            ordered.totals.resize(ordered.clusters.len(), total);
        }
        ordered
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

    fn order(
        &self,
        context: &Context,
        feasible: &ClusterBits,
        base: i64,
        weight: i32,
        head: Option<usize>,
    ) -> Option<Ordered> {
        let classes = context.scheduler.prioritizers.resource.classes(self.0)?;
        Some(classes.order(feasible, base, weight, head))
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
    values
        .iter()
        .map(move |&value| (!value.is_nan()).then(|| scale(min, max, value)))
}

/// A reported `value`'s score between the `min` and `max` scored.
fn scale(min: f64, max: f64, value: f64) -> i64 {
    if max - min == 0.0 {
        MAX_SCORE
    } else {
        let ratio = (value - min) / (max - min);
        ((ratio - 0.5) * 2.0 * MAX_SCORE as f64) as i64
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

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

    /// Amounts a fleet's few machine shapes might report, a negative one and both zeros
    /// included; `None`: the cluster reports none.
    const AMOUNTS: [f64; 7] = [0.0, -0.0, 8.0, 16.5, 96.0, -3.0, 1e12];

    /// The score order the general path makes: each feasible cluster's value scaled, its
    /// total (`base` plus score × weight, saturating) then total descending and index.
    fn scored_one_by_one(
        values: &[f64],
        feasible: &[usize],
        base: i64,
        weight: i32,
        head: Option<usize>,
    ) -> Ordered {
        let given: Vec<f64> = feasible.iter().map(|&index| values[index]).collect();
        let mut totals = Totals::Same(base);
        totals.add_each(weight, scaled(&given), given.len());
        let mut order: Vec<(i64, usize)> = (0..feasible.len())
            .map(|position| (totals.get(position), feasible[position]))
            .collect();
        order.sort_by_key(|&(total, index)| (std::cmp::Reverse(total), index));
        order.truncate(head.unwrap_or(usize::MAX));
        Ordered {
            clusters: order.iter().map(|&(_, index)| index).collect(),
            totals: order.iter().map(|&(total, _)| total).collect(),
        }
    }

    proptest! {
        /// Grouped by amount, the order is the one scoring each cluster makes: the same
        /// clusters, in the same order, with the same totals, whatever the head, the base
        /// (saturating ones included), the weight's sign, and clusters reporting nothing.
        #[test]
        fn classes_order_the_feasible_clusters_as_scoring_each_does(
            clusters in prop::collection::vec(
                (prop::option::of(0..AMOUNTS.len()), any::<bool>()), 0..300),
            base in prop_oneof![Just(0i64), Just(i64::MAX - 150), Just(i64::MIN + 150), any::<i64>()],
            weight in prop_oneof![Just(1i32), Just(-2), Just(i32::MAX), Just(i32::MIN), any::<i32>()],
            head in prop::option::of(0usize..320),
        ) {
            let values: Vec<f64> = clusters
                .iter()
                .map(|(amount, _)| amount.map_or(f64::NAN, |at| AMOUNTS[at]))
                .collect();
            let feasible: Vec<usize> = (0..clusters.len()).filter(|&at| clusters[at].1).collect();
            let bits = ClusterBits::from_ids(clusters.len(), feasible.iter().copied());
            let classes = Classes::of(&values).expect("few amounts");
            prop_assert_eq!(
                classes.order(&bits, base, weight, head),
                scored_one_by_one(&values, &feasible, base, weight, head)
            );
        }
    }

    /// More distinct amounts than a fleet's machine shapes give are not grouped: the
    /// clusters are then scored one by one.
    #[test]
    fn many_distinct_amounts_are_not_grouped() {
        let few: Vec<f64> = (0..MAX_CLASSES).map(|at| at as f64).collect();
        let classes = Classes::of(&few).expect("at most MAX_CLASSES amounts");
        assert_eq!(classes.amounts.len(), MAX_CLASSES);
        let many: Vec<f64> = (0..=MAX_CLASSES).map(|at| at as f64).collect();
        assert!(Classes::of(&many).is_none());
    }
}
