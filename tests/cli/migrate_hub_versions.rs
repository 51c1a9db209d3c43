//! `fleetplan migrate --ocm-version / --karmada-version`: the output restricted to what that
//! hub serves, the fields it cannot carry reported, unknown versions refused with the known
//! ones.

use crate::common::{self, Test};
use crate::migrate::FLEET;

fn policies(version: &str) -> Test {
    Test::new().arg("migrate").args(FLEET).args([
        "-f",
        "testdata/migrate/policies",
        "--ocm-version",
        version,
    ])
}

#[test]
fn an_ocm_hub_before_v1_0_gets_no_cel_selector_and_the_condition_is_reported_lost() {
    let output = policies("v0.16.1")
        .stderr_contains("  lost: spec.clusterConditions[0] ManagedClusterConditionAvailable=True -> not carried (OCM v0.16 serves no celSelector (open-cluster-management-io/api 2458a27a, first in v1.0): it would be celSelector ")
        .stderr_contains("2 migrated: 0 exact, 0 approximate, 2 lost; 2 references rewritten\n")
        .run();
    let stdout = common::stdout(&output);
    assert!(!stdout.contains("celSelector"), "{stdout}");
    assert!(stdout.contains("labelSelector:"), "{stdout}");
}

#[test]
fn an_ocm_hub_from_v1_0_keeps_the_cel_selector() {
    let output = policies("1.0")
        .stderr_contains("2 migrated: 2 exact, 0 approximate, 0 lost; 2 references rewritten\n")
        .run();
    assert!(common::stdout(&output).contains("celSelector:"));
}

#[test]
fn an_unknown_version_is_an_error_listing_the_known_ones() {
    policies("v0.9.0")
        .stderr_contains("error: invalid value 'v0.9.0' for '--ocm-version <VERSION>': unknown OCM version; known: v0.11, v0.12, v0.13, v0.14, v0.15, v0.16, v1.0, v1.1, v1.2, v1.3, 00f84c32 (the default)\n")
        .status(1)
        .run();
    Test::new()
        .args([
            "migrate",
            "--to",
            "karmada",
            "-f",
            "testdata/migrate/kubefed-sample1",
        ])
        .args(["--karmada-version", "v0.10"])
        .stderr_contains("unknown Karmada version; known: v1.0, v1.1, ")
        .status(1)
        .run();
}

#[test]
fn a_version_for_the_other_target_is_refused() {
    policies("v1.0")
        .args(["--to", "karmada"])
        .stderr("error: --ocm-version names the OCM hub of --to ocm; for Karmada use --karmada-version\n")
        .status(1)
        .run();
}

#[test]
fn a_karmada_control_plane_before_v1_4_cannot_keep_a_namespace_off_other_clusters() {
    let output = Test::new()
        .args(["migrate", "--to", "karmada", "--karmada-version", "v1.3.2"])
        .args(["-f", "testdata/migrate/kubefed-sample1-clusters.yaml"])
        .args(["-f", "testdata/migrate/kubefed-sample1"])
        .stderr_contains("  approximate: (the namespace on the placed clusters only) -> the ClusterPropagationPolicy, on every cluster (Karmada v1.3's namespace sync controller creates every namespace on every member cluster; ")
        .stderr_contains("10 migrated: 9 exact, 1 approximate, 0 lost\n")
        .run();
    let stdout = common::stdout(&output);
    assert!(!stdout.contains("skip-auto-propagation"), "{stdout}");
}
