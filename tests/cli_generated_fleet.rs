//! The benchmark fleet generator's output, planned by the real binary: the same fleet written
//! as a ClusterInventory (JSON and YAML) and as ManagedClusters plans identically, so the
//! benchmarks measure inputs the loaders agree on.

mod common;

#[path = "../benches/generator.rs"]
#[allow(dead_code)]
mod generator;

use std::path::Path;

use common::Test;
use generator::{ClusterKind, Shape};

fn written(root: &Path, name: &str, format: &str, clusters_as: ClusterKind) -> String {
    let (fleet, workloads) = generator::generate(&Shape {
        clusters: 600,
        placements: 150,
        replica_workloads: 0,
        seed: 7,
        clusters_as,
    });
    let dir = root.join(name);
    generator::write_dir(&dir, format, &fleet, &workloads)
        .unwrap_or_else(|error| panic!("{error}"));
    dir.to_string_lossy().into_owned()
}

fn plan(dir: &str) -> String {
    let output = Test::new()
        .args([
            "plan",
            "-f",
            dir,
            "-o",
            "json",
            "--now",
            "2026-06-01T00:00:00Z",
        ])
        .run();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_generated_fleet_plans_alike_as_inventory_json_yaml_and_managed_clusters() {
    let root = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    let inventory_json = plan(&written(
        root.path(),
        "json",
        "json",
        ClusterKind::Inventory,
    ));
    let inventory_yaml = plan(&written(
        root.path(),
        "yaml",
        "yaml",
        ClusterKind::Inventory,
    ));
    let managed = plan(&written(
        root.path(),
        "managed",
        "json",
        ClusterKind::ManagedCluster,
    ));
    // 150 placements, each one item; most select clusters.
    assert_eq!(
        inventory_json.matches("\"kind\": \"Placement\"").count(),
        150
    );
    assert!(inventory_json.matches("cluster-").count() > 1000);
    assert_eq!(inventory_json, inventory_yaml);
    assert_eq!(inventory_json, managed);
}
