//! The what-if flags on Karmada `Cluster`s, through the real binary on the bundled example
//! (testdata/karmada/example): `--offline` as Karmada's cluster controllers mark an
//! unreachable member (Ready and the not-ready/unreachable `NoSchedule` taint by sync mode),
//! `--capacity` as the general estimator's answer, `--label` on the member's labels, in plan,
//! explain, diff and check, and an unknown name refused as for OCM.

use std::fs;
use std::path::PathBuf;

use serde_json::{json, Value};

use crate::common::Test;

const EXAMPLE: &str = "testdata/karmada/example";

/// `plan -o json` of the example with `flags`, as JSON.
fn plan(flags: &[&str]) -> Value {
    let output = Test::new()
        .args(["plan", "-o", "json", "-f", EXAMPLE])
        .args(flags.iter().copied())
        .stderr_contains("")
        .run();
    serde_json::from_slice(&output.stdout).expect("JSON")
}

/// The item of `plan` for the Deployment `name`.
fn deployment<'p>(plan: &'p Value, name: &str) -> &'p Value {
    plan["items"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|item| item["source"]["kind"] == "Deployment" && item["source"]["name"] == name)
        .unwrap_or_else(|| panic!("no Deployment {name} in {plan}"))
}

/// The example's plan without what-if flags, written to a fresh temporary directory (returned
/// with the file) to serve as `--previous`.
fn todays_plan(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!(
        "fleetplan-karmada-what-if-{name}-{}",
        std::process::id()
    ));
    fs::create_dir_all(&dir).expect("temp dir");
    let output = Test::new()
        .args(["plan", "-o", "json", "-f", EXAMPLE])
        .stderr_contains("")
        .run();
    let previous = dir.join("previous.json");
    fs::write(&previous, &output.stdout).expect("writable");
    (dir, previous)
}

#[test]
fn offline_pull_member_is_tainted_unreachable_and_gets_no_new_replicas() {
    // member-us-1 is a Pull member: its agent stops reporting, the cluster controller sets
    // Ready=Unknown and the unreachable taint. Without it the web Deployment (dynamic
    // weights) goes to the EU members, and the API's backup term has nowhere to go.
    let before = plan(&[]);
    assert_eq!(
        deployment(&before, "web")["replicas"],
        json!({"member-eu-1": 3, "member-us-1": 6})
    );
    let after = plan(&["--offline", "member-us-1"]);
    assert_eq!(
        deployment(&after, "web")["replicas"],
        json!({"member-eu-1": 8, "member-eu-2": 1})
    );
    let api = deployment(&after, "api");
    assert_eq!(api["clusters"], json!([]));
    assert_eq!(api["conditions"][0]["reason"], "Unschedulable");
}

#[test]
fn explain_shows_the_offline_member_and_its_taint() {
    Test::new()
        .args(["explain", "-f", EXAMPLE, "deploy/shop/web", "--offline", "member-us-1", "--cluster", "member-us-1"])
        .stdout("member-us-1 was not selected: TaintToleration: cluster(s) had untolerated taint {cluster.karmada.io/unreachable:NoSchedule}; what-if --offline (Pull member): Ready=Unknown (ClusterStatusUnknown), tainted cluster.karmada.io/unreachable:NoSchedule.\n\nCLUSTER       VERDICT    REASON\nmember-us-1   filtered   TaintToleration: cluster(s) had untolerated taint {cluster.karmada.io/unreachable:NoSchedule}; what-if --offline (Pull member): Ready=Unknown (ClusterStatusUnknown), tainted cluster.karmada.io/unreachable:NoSchedule\n")
        .run();
}

#[test]
fn offline_push_member_is_tainted_not_ready() {
    // member-eu-1 is a Push member: the control plane's health probe fails, Ready=False.
    Test::new()
        .args(["explain", "-f", EXAMPLE, "deploy/shop/web", "--offline", "member-eu-1", "--cluster", "member-eu-1"])
        .stdout("member-eu-1 was not selected: TaintToleration: cluster(s) had untolerated taint {cluster.karmada.io/not-ready:NoSchedule}; what-if --offline (Push member): Ready=False (ClusterNotReachable), tainted cluster.karmada.io/not-ready:NoSchedule.\n\nCLUSTER       VERDICT    REASON\nmember-eu-1   filtered   TaintToleration: cluster(s) had untolerated taint {cluster.karmada.io/not-ready:NoSchedule}; what-if --offline (Push member): Ready=False (ClusterNotReachable), tainted cluster.karmada.io/not-ready:NoSchedule\n")
        .run();
    let after = plan(&["--offline", "member-eu-1"]);
    assert_eq!(
        deployment(&after, "web")["replicas"],
        json!({"member-us-1": 9})
    );
}

#[test]
fn an_offline_member_already_in_the_binding_keeps_its_replicas_and_says_so() {
    // Upstream skips the taint filter for clusters the binding already targets.
    let (dir, previous) = todays_plan("kept");
    let output = Test::new()
        .args(["plan", "-o", "json", "-f", EXAMPLE, "deploy/shop/web", "--offline", "member-us-1", "--previous"])
        .arg(previous.display().to_string())
        .stderr("warning: testdata/karmada/example/workloads.yaml#1: Deployment/shop/web: cluster member-us-1 keeps the workload although it had untolerated taint {cluster.karmada.io/unreachable:NoSchedule}: clusters already in the binding skip the TaintToleration filter\nwarning: testdata/karmada/example/workloads.yaml#1: Deployment/shop/web: cluster member-us-1 is not Ready (Ready=Unknown) yet is chosen: Karmada has no readiness filter, only the not-ready/unreachable taints keep workloads off\n")
        .run();
    let after: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        deployment(&after, "web")["replicas"],
        json!({"member-eu-1": 3, "member-us-1": 6})
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn capacity_is_the_estimate_the_scheduler_divides_by() {
    // member-eu-2 has 2 free CPUs, no room for a 4-CPU API replica; at capacity 20 the
    // primary affinity term holds all 12 and Aggregated packs them there.
    let after = plan(&["--capacity", "member-eu-2=20"]);
    let api = deployment(&after, "api");
    assert_eq!(api["replicas"], json!({"member-eu-2": 12}));
    assert_eq!(api["affinityTerm"], "primary");
    Test::new()
        .args(["explain", "-f", EXAMPLE, "deploy/shop/api", "--capacity", "member-eu-2=20", "--cluster", "member-eu-2"])
        .stdout("member-eu-2 was selected: affinity term primary: 12 replicas; score 0, available replicas 20 (estimate 20 + already there 0); what-if --capacity 20: the estimate for every workload, instead of status.resourceSummary's.\n\nCLUSTER       VERDICT    REASON\nmember-eu-2   selected   affinity term primary: 12 replicas; score 0, available replicas 20 (estimate 20 + already there 0); what-if --capacity 20: the estimate for every workload, instead of status.resourceSummary's\n")
        .run();
}

#[test]
fn capacity_zero_leaves_a_member_out_of_a_dynamic_division() {
    let after = plan(&["--capacity", "member-us-1=0"]);
    assert_eq!(
        deployment(&after, "web")["replicas"],
        json!({"member-eu-1": 8, "member-eu-2": 1})
    );
}

#[test]
fn a_label_changes_which_members_the_affinity_matches() {
    // The web policy selects env=prod.
    let after = plan(&["--label", "member-us-1:env=staging"]);
    assert_eq!(
        deployment(&after, "web")["replicas"],
        json!({"member-eu-1": 8, "member-eu-2": 1})
    );
    Test::new()
        .args(["explain", "-f", EXAMPLE, "deploy/shop/web", "--label", "member-us-1:env=staging", "--cluster", "member-us-1"])
        .stdout("member-us-1 was not selected: ClusterAffinity: cluster(s) did not match the placement cluster affinity constraint; what-if --label env=staging.\n\nCLUSTER       VERDICT    REASON\nmember-us-1   filtered   ClusterAffinity: cluster(s) did not match the placement cluster affinity constraint; what-if --label env=staging\n")
        .run();
}

#[test]
fn an_unknown_member_is_refused_naming_the_karmada_clusters() {
    for flag in [
        ["--offline", "member-us-9"],
        ["--capacity", "member-us-9=3"],
        ["--label", "member-us-9:env=prod"],
    ] {
        Test::new()
            .args(["plan", "-f", EXAMPLE])
            .args(flag)
            .stderr(format!("error: {}: no cluster named \"member-us-9\" among the Karmada Clusters, did you mean member-us-1 or member-us-2?\n", flag[0]))
            .status(1)
            .run();
    }
    Test::new()
        .args(["explain", "-f", EXAMPLE, "deploy/shop/web", "--cluster", "member-us-9"])
        .stderr("error: --cluster: no cluster named \"member-us-9\" among the Karmada Clusters, did you mean member-us-1 or member-us-2?\n")
        .status(1)
        .run();
    // With an OCM inventory loaded too, both fleets were searched.
    Test::new()
        .args(["plan", "-f", EXAMPLE, "-f", "testdata/fleet/inventory.yaml", "--offline", "member-us-9"])
        .stderr("error: --offline: no cluster named \"member-us-9\" in the inventory or among the Karmada Clusters, did you mean member-us-1 or member-us-2?\n")
        .status(1)
        .run();
}

#[test]
fn check_and_diff_see_the_what_if_fleet() {
    // Without member-us-1 the API Deployment cannot be scheduled: check is unsatisfied (3)
    // and diff against today's plan finds changes (2).
    let output = Test::new()
        .args(["check", "-f", EXAMPLE, "--offline", "member-us-1"])
        .stderr_contains("")
        .status(3)
        .run();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("Deployment/shop/api"), "{text}");
    let (dir, previous) = todays_plan("diff");
    let output = Test::new()
        .args([
            "diff",
            "-f",
            EXAMPLE,
            "--label",
            "member-us-1:env=staging",
            "--previous",
        ])
        .arg(previous.display().to_string())
        .stderr_contains("")
        .status(2)
        .run();
    assert!(String::from_utf8_lossy(&output.stdout).contains("Deployment/shop/web"));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_no_schedule_taint_keeps_new_replicas_off_the_member() {
    // Karmada's TaintToleration filter: web's policy tolerates no maintenance taint, so its
    // replicas all go to member-us-1.
    let tainted = plan(&["--taint", "member-eu-1:maintenance:NoSchedule"]);
    assert_eq!(
        deployment(&tainted, "web")["replicas"],
        json!({"member-us-1": 9}),
        "{tainted}"
    );
    Test::new()
        .args(["explain", "-f", EXAMPLE, "web", "--cluster", "member-eu-1"])
        .args(["--taint", "member-eu-1:maintenance:NoSchedule"])
        .stderr_contains("")
        .stdout("member-eu-1 was not selected: TaintToleration: cluster(s) had untolerated taint {maintenance:NoSchedule}; what-if --taint maintenance:NoSchedule.\n\nCLUSTER       VERDICT    REASON\nmember-eu-1   filtered   TaintToleration: cluster(s) had untolerated taint {maintenance:NoSchedule}; what-if --taint maintenance:NoSchedule\n")
        .run();
}

#[test]
fn an_ocm_effect_on_a_karmada_cluster_is_refused() {
    // OCM's effects taint the inventory's clusters; the example has only Karmada Clusters.
    Test::new()
        .args(["plan", "-f", EXAMPLE, "--taint", "member-eu-1:maintenance:NoSelect"])
        .status(1)
        .stderr("error: --taint member-eu-1:maintenance:NoSelect: NoSelect is an OCM effect (for ManagedClusters): no cluster of that name is there\n")
        .run();
}
