//! The planner's speed budget: a million ten-cluster plans per second on one core.
//! Run with `cargo test --release --lib replicas::throughput -- --ignored`.

use std::collections::BTreeMap;
use std::time::Instant;

use crate::model::preferences::{ClusterPreferences, ReplicaPreferences};

use super::{plan, PlannerInput};

#[test]
#[ignore = "timing; run in release"]
fn plans_a_million_ten_cluster_workloads_per_second() {
    let names: Vec<String> = (0..10).map(|i| format!("cluster-{i:02}")).collect();
    let available: Vec<&str> = names.iter().map(String::as_str).collect();
    let preferences = ReplicaPreferences {
        rebalance: false,
        clusters: BTreeMap::from([
            ("*".to_string(), ClusterPreferences::new(1, None, 1)),
            (
                "cluster-03".to_string(),
                ClusterPreferences::new(0, Some(5), 3),
            ),
        ]),
    };
    let current = BTreeMap::from([("cluster-01".to_string(), 9)]);
    let capacity = BTreeMap::from([("cluster-07".to_string(), 4)]);
    let keys: Vec<String> = (0..1000).map(|i| format!("ns/workload-{i}")).collect();

    let plans = 1_000_000;
    let start = Instant::now();
    let mut placed = 0i64;
    for i in 0..plans {
        let result = plan(&PlannerInput {
            total: 50 + (i % 7) as i64,
            key: &keys[i % keys.len()],
            preferences: &preferences,
            available: &available,
            current: &current,
            capacity: &capacity,
        });
        placed += result.unassigned + result.replicas.len() as i64;
    }
    let elapsed = start.elapsed();
    assert!(placed > 0);
    assert!(
        elapsed.as_secs_f64() < 1.0,
        "{plans} plans took {elapsed:?}"
    );
    eprintln!("{plans} plans in {elapsed:?}");
}
