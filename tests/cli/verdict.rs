//! The rule behind every success verdict, through each command that gives one: "all
//! satisfied", "no changes", "identical" and a selection need something to have been
//! compared (src/verdict.rs). Without an inventory each is an error, unless
//! `--manifests-only` asks for the manifests alone and the output says placements were not
//! evaluated.

use crate::common::{self, Test, CI_NOW};

const NO_CLUSTERS: &str = "error: no clusters in the inputs: placements cannot be evaluated \
     without an inventory (ClusterInventory, ManagedCluster, KubeFedCluster, federation \
     Cluster, Karmada Cluster or KubeFleet MemberCluster objects); add it with -f, or pass --manifests-only to validate the manifests alone\n";

const NO_WORKLOADS: &str = "error: no workloads in the inputs: nothing to check (no Placement, \
     PlacementRule, ReplicaSchedulingPreference, Federated object, object with a placement \
     annotation, object of a kind a Karmada policy selects, ClusterResourcePlacement or \
     ResourcePlacement was found)\n";

/// Runs fleetplan with `args`, expecting exit 1, nothing on stdout and exactly `stderr`.
fn refused(args: &[&str], stderr: &str) {
    Test::new()
        .args(args.iter().copied())
        .stderr(stderr)
        .stdout("")
        .status(1)
        .run();
}

#[test]
fn check_without_clusters_is_an_error() {
    refused(
        &[
            "check",
            "-f",
            "testdata/fleet/workloads",
            CI_NOW[0],
            CI_NOW[1],
        ],
        NO_CLUSTERS,
    );
}

#[test]
fn check_without_workloads_is_an_error() {
    refused(
        &[
            "check",
            "-f",
            "testdata/fleet/inventory.yaml",
            CI_NOW[0],
            CI_NOW[1],
        ],
        NO_WORKLOADS,
    );
}

/// `check` of the example fleet's workloads alone, asking for the manifests only.
fn manifests_only() -> Test {
    Test::new().args([
        "check",
        "-f",
        "testdata/fleet/workloads",
        "--manifests-only",
    ])
}

#[test]
fn check_manifests_only_says_placements_were_not_evaluated() {
    manifests_only()
        .stdout("10 items validated, placements were not evaluated (--manifests-only)\n")
        .run();
    manifests_only()
        .args(["-o", "json"])
        .stdout(
            r#"{
  "result": "clean",
  "items": 10,
  "placementsEvaluated": false,
  "skippedDocuments": 0,
  "errors": [],
  "unsatisfied": []
}
"#,
        )
        .run();
}

#[test]
fn check_manifests_only_still_reports_broken_manifests() {
    manifests_only()
        .args(["-f", "testdata/ci/broken/placement.yaml"])
        .stdout(
            "error: testdata/ci/broken/placement.yaml#1: line 8: Placement/shop/typo: \
             spec.numberOfClusters: invalid type: string \"three\", expected i32\n\
             10 items validated: 1 error\n",
        )
        .status(1)
        .run();
}

#[test]
fn check_manifests_only_needs_workloads() {
    Test::new()
        .args([
            "check",
            "-f",
            "testdata/fleet/inventory.yaml",
            "--manifests-only",
        ])
        .stderr(NO_WORKLOADS)
        .status(1)
        .run();
}

#[test]
fn diff_without_clusters_is_an_error_not_no_changes() {
    refused(
        &[
            "diff",
            "-f",
            "testdata/fleet/workloads",
            "--previous",
            "testdata/ci/plan.yaml",
        ],
        NO_CLUSTERS,
    );
}

#[test]
fn diff_manifests_only_compares_nothing_and_says_so() {
    Test::new()
        .args(["diff", "-f", "testdata/fleet/workloads", "--manifests-only"])
        .args(["--previous", "testdata/ci/plan.yaml"])
        .stdout(
            "placements were not evaluated (--manifests-only): 10 items and the previous plan \
             read, nothing was compared\n",
        )
        .run();
}

#[test]
fn diff_of_zero_items_against_zero_items_is_an_error() {
    let dir = common::tempdir();
    let previous = dir.path().join("plan.yaml");
    std::fs::write(
        &previous,
        "apiVersion: fleetplan.io/v1alpha1\nkind: Plan\nitems: []\n",
    )
    .unwrap();
    let previous = previous.display().to_string();
    refused(
        &[
            "diff",
            "-f",
            "testdata/fleet/inventory.yaml",
            "--previous",
            &previous,
        ],
        NO_WORKLOADS,
    );
}

#[test]
fn diff_of_zero_items_against_a_previous_plan_removes_them_all() {
    let output = Test::new()
        .args(["diff", "-f", "testdata/fleet/inventory.yaml"])
        .args(["--previous", "testdata/ci/plan.yaml"])
        .args(CI_NOW)
        .status(2)
        .run();
    assert!(common::stdout(&output).starts_with("- ConfigMap/shop/shop-settings (item removed)\n"));
}

#[test]
fn migrate_verify_without_clusters_is_an_error_not_identical() {
    Test::new()
        .args([
            "migrate",
            "-f",
            "testdata/migrate/placementrules.yaml",
            "--verify",
        ])
        .stderr(NO_CLUSTERS)
        .stdout("")
        .status(1)
        .run();
}

#[test]
fn migrate_verify_manifests_only_migrates_and_says_nothing_was_verified() {
    let output = Test::new()
        .args(["migrate", "-f", "testdata/migrate/placementrules.yaml"])
        .args(["--verify", "--manifests-only", "-o", "json"])
        .stderr_contains("verify: placements were not evaluated (--manifests-only)\n")
        .run();
    let migration: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(migration.get("verification"), None);
}

const NOTHING_TO_MIGRATE: &str = "error: nothing to migrate: the inputs have no PlacementRule \
     and no object with a federation placement annotation \
     (federation.alpha.kubernetes.io/cluster-selector, \
     federation.kubernetes.io/replica-set-preferences)\n";

/// Inputs with nothing to convert are an error, with or without `--verify`, `--out` or
/// `--manifests-only`: an empty output is not a migration.
#[test]
fn migrate_of_nothing_is_an_error_not_an_empty_success() {
    let dir = common::tempdir();
    let out = dir.path().join("out");
    let out = out.to_string_lossy();
    for extra in [
        &[][..],
        &["--verify"],
        &["--manifests-only"],
        &["-o", "json"],
        &["--out", &out],
    ] {
        let mut args = vec!["migrate", "-f", "testdata/fleet/inventory.yaml"];
        args.extend_from_slice(extra);
        refused(&args, NOTHING_TO_MIGRATE);
    }
    // Already OCM: a Placement is not something to migrate.
    refused(
        &[
            "migrate",
            "-f",
            "testdata/fleet/inventory.yaml",
            "-f",
            "testdata/fleet/workloads/placements.yaml",
        ],
        NOTHING_TO_MIGRATE,
    );
    assert!(!dir.path().join("out").exists(), "--out made its directory");
    refused(
        &[
            "migrate",
            "-f",
            "testdata/fleet/inventory.yaml",
            "--to",
            "karmada",
        ],
        "error: nothing to migrate: the inputs have no kubefed Federated object and no object \
         with a federation placement annotation (federation.alpha.kubernetes.io/cluster-selector, \
         federation.kubernetes.io/replica-set-preferences)\n",
    );
}

#[test]
fn select_from_no_inventory_is_an_error_not_an_empty_selection() {
    refused(
        &["select", "-f", "testdata/fleet/workloads", "env=prod"],
        "error: no clusters in the inputs: placements cannot be evaluated without an \
         inventory (ClusterInventory, ManagedCluster, KubeFedCluster, federation Cluster, \
         Karmada Cluster or KubeFleet MemberCluster objects); add it with -f\n",
    );
}
