//! KubeFleet through the real binary: the bundled example (testdata/kubefleet/example, one
//! placement of each type, a staged update run and overrides) planned in every format and
//! explained, and the cases around it (admission refusals, stickiness). Golden files live in
//! testdata/kubefleet/expected; `FLEETPLAN_BLESS=1 cargo test --test cli kubefleet::` rewrites
//! them.

use std::path::Path;

use crate::common::{self, Test};

const EXAMPLE: &str = "testdata/kubefleet/example";
const MEMBERS: &str = "testdata/kubefleet/example/members.yaml";
const PLACEMENTS: &str = "testdata/kubefleet/example/placements.yaml";
const EXPECTED: &str = "testdata/kubefleet/expected";
const CASES: &str = "testdata/kubefleet/cases";
/// The example's heartbeats are judged at this time.
const NOW: &str = "2026-06-01T12:00:00Z";

/// Compares `output` with the golden file (or rewrites it under FLEETPLAN_BLESS).
fn golden(name: &str, output: &[u8]) {
    common::golden(
        &Path::new(EXPECTED).join(name),
        &String::from_utf8_lossy(output),
    );
}

/// `fleetplan ARGS… --now NOW`, which must succeed without a word on stderr.
fn run(args: &[&str]) -> Vec<u8> {
    Test::new()
        .args(args.iter().copied())
        .args(["--now", NOW])
        .stderr("")
        .run()
        .stdout
}

#[test]
fn the_example_plans_as_its_golden_table() {
    golden("plan.txt", &run(&["plan", "-f", EXAMPLE]));
}

#[test]
fn the_example_plans_as_its_golden_yaml_and_json() {
    golden("plan.yaml", &run(&["plan", "-o", "yaml", "-f", EXAMPLE]));
    golden("plan.json", &run(&["plan", "-o", "json", "-f", EXAMPLE]));
}

#[test]
fn decisions_hold_no_kubefleet_object() {
    // `-o decisions` writes OCM PlacementDecisions; KubeFleet has none, so only the header.
    let output =
        String::from_utf8_lossy(&run(&["plan", "-o", "decisions", "-f", EXAMPLE])).to_string();
    assert!(!output.contains("kubernetes-fleet"), "{output}");
}

#[test]
fn each_placement_type_explains_as_its_golden_text() {
    for (item, name) in [
        ("crp/web", "explain-pick-n.txt"),
        ("crp/monitoring", "explain-pick-all.txt"),
        ("crp/pinned", "explain-pick-fixed.txt"),
        ("rp/shop/api", "explain-resource-placement.txt"),
    ] {
        golden(name, &run(&["explain", "-f", EXAMPLE, item]));
    }
}

#[test]
fn a_placement_admission_refuses_is_an_item_error_with_upstreams_message() {
    let refused = format!("{CASES}/refused.yaml");
    Test::new()
        .args(["plan", "-f", MEMBERS, "-f", &refused, "--now", NOW])
        .stdout(
            "ClusterResourcePlacement/no-count (placement.kubernetes-fleet.io/v1beta1): error
  error: spec.policy: Invalid value: \"object\": clusterNames cannot be set and numberOfClusters must be set when placementType is PickN

ClusterResourcePlacement/preferred-pick-all (placement.kubernetes-fleet.io/v1beta1): error
  error: the placement policy field is invalid: PreferredDuringSchedulingIgnoredDuringExecution will be ignored for placement policy type PickAll
",
        )
        .stderr(
            "error: testdata/kubefleet/cases/refused.yaml#1: ClusterResourcePlacement/no-count: spec.policy: Invalid value: \"object\": clusterNames cannot be set and numberOfClusters must be set when placementType is PickN
error: testdata/kubefleet/cases/refused.yaml#2: ClusterResourcePlacement/preferred-pick-all: the placement policy field is invalid: PreferredDuringSchedulingIgnoredDuringExecution will be ignored for placement policy type PickAll
",
        )
        .status(1)
        .run();
}

#[test]
fn a_policy_the_schema_cannot_read_names_its_field() {
    let bad = format!("{CASES}/bad-type.yaml");
    Test::new()
        .args(["plan", "-f", MEMBERS, "-f", &bad, "--now", NOW])
        .stdout("")
        .stderr(
            "error: testdata/kubefleet/cases/bad-type.yaml#1: ClusterResourcePlacement/bad-type: spec.policy.placementType: unknown variant `PickSome`, expected one of `PickAll`, `PickN`, `PickFixed`\n",
        )
        .status(1)
        .run();
}

#[test]
fn a_current_binding_is_kept_on_a_cluster_that_no_longer_matches() {
    // member-us-2 is tainted and not `env: prod`, but its binding is under the latest
    // snapshot: the hub keeps it and PickN adds one cluster.
    let sticky = format!("{CASES}/sticky.yaml");
    let output = run(&[
        "plan", "-f", MEMBERS, "-f", PLACEMENTS, "-f", &sticky, "crp/web",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&output),
        "ClusterResourcePlacement/web (placement.kubernetes-fleet.io/v1beta1): 2 clusters
  CLUSTER       AFFINITY   SPREAD   STAGE   OVERRIDES
  member-eu-1   7          0
  member-us-2   3          0
"
    );
}

/// `fleetplan ARGS… --now NOW` with the exit status `status`, its stdout.
fn run_status(args: &[&str], status: i32) -> Vec<u8> {
    Test::new()
        .args(args.iter().copied())
        .args(["--now", NOW])
        .status(status)
        .run()
        .stdout
}

#[test]
fn diff_shows_moved_stages_and_overrides_in_every_format() {
    let rollout = format!("{CASES}/rollout-v2.yaml");
    let previous = format!("{EXPECTED}/plan.yaml");
    let inputs = [
        "-f",
        MEMBERS,
        "-f",
        PLACEMENTS,
        "-f",
        &rollout,
        "--previous",
        &previous,
    ];
    for (format, name) in [
        ("text", "diff.txt"),
        ("json", "diff.json"),
        ("markdown", "diff.md"),
        ("github", "diff-github.txt"),
    ] {
        let mut args = vec!["diff", "-o", format];
        args.extend(inputs);
        golden(name, &run_status(&args, 2));
    }
}

#[test]
fn diff_against_the_same_inputs_finds_no_changes() {
    let previous = format!("{EXPECTED}/plan.yaml");
    let output = run(&["diff", "-f", EXAMPLE, "--previous", &previous]);
    assert_eq!(String::from_utf8_lossy(&output), "no changes\n");
}

/// The plan written as JSON reads back as `--previous` as its YAML does: a KubeFleet item's
/// own fields (scores, stages, overrides) come back, so nothing differs, and a moved stage
/// diffs as it does against the YAML plan.
#[test]
fn the_json_plan_as_previous_diffs_as_the_yaml_one() {
    let previous = format!("{EXPECTED}/plan.json");
    let output = run(&["diff", "-f", EXAMPLE, "--previous", &previous]);
    assert_eq!(String::from_utf8_lossy(&output), "no changes\n");
    let rollout = format!("{CASES}/rollout-v2.yaml");
    let inputs = ["-f", MEMBERS, "-f", PLACEMENTS, "-f", &rollout];
    let mut args = vec!["diff", "--previous", &previous];
    args.extend(inputs);
    golden("diff.txt", &run_status(&args, 2));
}

#[test]
fn check_finds_refusals_unfilled_pick_n_failed_cycles_and_clusters_in_no_stage() {
    let cases = format!("{CASES}/check.yaml");
    let refused = format!("{CASES}/refused.yaml");
    let inputs = ["-f", EXAMPLE, "-f", &cases, "-f", &refused];
    for (format, name) in [
        ("text", "check.txt"),
        ("json", "check.json"),
        ("github", "check-github.txt"),
        ("junit", "check.xml"),
        ("sarif", "check.sarif"),
        ("markdown", "check.md"),
    ] {
        let mut args = vec!["check", "-o", format];
        args.extend(inputs);
        golden(name, &run_status(&args, 1));
    }
}

#[test]
fn check_of_the_example_alone_reports_the_unfilled_pick_fixed() {
    let output = run_status(&["check", "-f", EXAMPLE], 3);
    assert_eq!(
        String::from_utf8_lossy(&output),
        "unsatisfied: testdata/kubefleet/example/placements.yaml#3: line 48: ClusterResourcePlacement/pinned: SchedulingPolicyUnfulfilled: could not find all clusters needed as specified by the scheduling policy, found 1 cluster(s) instead\n4 items checked: 1 unsatisfied\n"
    );
}

/// The run is an error at its reference, and the hub would fail its initialization once it
/// looks the strategy up (`initialization.go generateStagesByStrategy`).
#[test]
fn a_run_naming_a_strategy_the_inputs_lack_is_an_error_at_the_run_and_cannot_start() {
    Test::new()
        .args(["plan", "-f", MEMBERS, "-f", PLACEMENTS, "-f", "-", "crp/web"])
        .args(["--now", NOW])
        .stdin(
            "apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterStagedUpdateRun
metadata: {name: web-rollout}
spec: {placementName: web, stagedRolloutStrategyName: rings}
",
        )
        .stderr("error: testdata/kubefleet/example/placements.yaml#1: ClusterResourcePlacement/web: cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: referenced updateStrategy not found: `/rings`
error: <stdin>#1: ClusterStagedUpdateRun/web-rollout: spec.stagedRolloutStrategyName: ClusterStagedUpdateStrategy/rings is not in the inputs\n")
        .status(1)
        .run();
}

#[test]
fn what_if_flags_change_member_clusters_and_explain_says_bindings_are_kept() {
    let output = Test::new()
        .args(["explain", "-f", EXAMPLE, "crp/web", "--now", NOW])
        .args(["--offline", "member-us-1", "--label", "member-eu-2:ring=1"])
        .args(["--taint", "member-eu-1:dedicated=infra:NoSchedule"])
        .stderr("error: testdata/kubefleet/example/placements.yaml#1: ClusterResourcePlacement/web: cannot continue the updateRun: failed to validate the updateRun: policy snapshot `web-0` not fully scheduled yet\n")
        .status(1)
        .run();
    golden("explain-what-if.txt", &output.stdout);
}

#[test]
fn a_what_if_flag_naming_no_member_cluster_is_an_error() {
    Test::new()
        .args(["plan", "-f", EXAMPLE, "--now", NOW, "--offline", "member-us-9"])
        .stdout("")
        .stderr("error: --offline: no cluster named \"member-us-9\" among the MemberClusters, did you mean member-us-1 or member-us-2?\n")
        .status(1)
        .run();
}

/// The errors of `testdata/kubefleet/cases/dangling.yaml`: one per object that names a
/// placement the inputs do not hold, at the field that names it.
const DANGLING: &str = "error: testdata/kubefleet/cases/dangling.yaml#1: ClusterStagedUpdateRun/webb-rollout: spec.placementName: ClusterResourcePlacement/webb is not in the inputs; the run's condition: Initialized=False (UpdateRunInitializedFailed): cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: parent placement not found
error: testdata/kubefleet/cases/dangling.yaml#2: ClusterResourceOverride/gone-override: spec.placement.name: ClusterResourcePlacement/gone is not in the inputs
error: testdata/kubefleet/cases/dangling.yaml#3: ResourceOverride/shop/api-v2-override: spec.placement.name: ResourcePlacement/shop/api-v2 is not in the inputs
error: testdata/kubefleet/cases/dangling.yaml#4: ClusterResourceBinding/old-web-member-us-1-a1b2c: metadata.labels[kubernetes-fleet.io/parent-CRP]: ClusterResourcePlacement/old-web is not in the inputs
error: testdata/kubefleet/cases/dangling.yaml#5: ResourceBinding/shop/api-member-us-1-d3e4f: metadata.labels[kubernetes-fleet.io/parent-CRP]: missing: the hub finds a placement's bindings and snapshots by this label, so no placement uses this object
error: testdata/kubefleet/cases/dangling.yaml#6: ClusterSchedulingPolicySnapshot/old-web-0: metadata.labels[kubernetes-fleet.io/parent-CRP]: ClusterResourcePlacement/old-web is not in the inputs
error: testdata/kubefleet/cases/dangling.yaml#7: SchedulingPolicySnapshot/staging/api-0: metadata.labels[kubernetes-fleet.io/parent-CRP]: ResourcePlacement/staging/api is not in the inputs
";

#[test]
fn a_run_override_binding_or_snapshot_naming_no_placement_fails_the_plan() {
    let dangling = format!("{CASES}/dangling.yaml");
    let output = Test::new()
        .args(["plan", "-f", EXAMPLE, "-f", &dangling, "--now", NOW])
        .stderr(DANGLING)
        .status(1)
        .run();
    // The placements themselves are planned as without these objects.
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&run(&["plan", "-f", EXAMPLE]))
    );
}

#[test]
fn a_run_override_binding_or_snapshot_naming_no_placement_fails_whatever_is_selected() {
    // None of these objects names the selected placement: a reference that resolves to
    // nothing is an error in every run, as a refused document is.
    let dangling = format!("{CASES}/dangling.yaml");
    for (command, item) in [
        ("plan", "crp/pinned"),
        ("explain", "rp/shop/api"),
        ("check", "crp/monitoring"),
    ] {
        let output = Test::new()
            .args([command, "-f", EXAMPLE, "-f", &dangling, item, "--now", NOW])
            .stderr(if command == "check" { "" } else { DANGLING })
            .status(1)
            .run();
        if command == "check" {
            let text = String::from_utf8_lossy(&output.stdout);
            assert!(text.ends_with("1 item checked: 7 errors\n"), "{text}");
        }
    }
}

#[test]
fn check_reports_each_object_naming_no_placement_at_its_field() {
    let dangling = format!("{CASES}/dangling.yaml");
    let lines = [9, 18, 34, 44, 55, 65, 76];
    let mut expected = String::new();
    for (error, line) in DANGLING.lines().zip(lines) {
        let at = error.find(".yaml#").unwrap_or_default();
        let end = at + error[at..].find(": ").unwrap_or_default();
        expected.push_str(&format!(
            "{}: line {line}{}\n",
            &error[..end],
            &error[end..]
        ));
    }
    expected.push_str("unsatisfied: testdata/kubefleet/example/placements.yaml#3: line 48: ClusterResourcePlacement/pinned: SchedulingPolicyUnfulfilled: could not find all clusters needed as specified by the scheduling policy, found 1 cluster(s) instead\n4 items checked: 7 errors, 1 unsatisfied\n");
    let output = run_status(&["check", "-f", EXAMPLE, "-f", &dangling], 1);
    assert_eq!(String::from_utf8_lossy(&output), expected);
}

/// With the example's MemberClusters and placements, the ResourcePlacements of the types the
/// example lacks (PickAll, PickFixed) and a PickN decided by upstream's tie-break.
const TYPES: &str = "testdata/kubefleet/cases/resource-placements.yaml";

#[test]
fn every_placement_type_of_both_kinds_plans_explains_and_checks_as_its_goldens() {
    let inputs = ["-f", MEMBERS, "-f", PLACEMENTS, "-f", TYPES];
    let mut plan = vec!["plan", "-o", "yaml"];
    plan.extend(inputs);
    golden("types-plan.yaml", &run(&plan));
    for (item, name) in [
        ("rp/shop/cache", "explain-resource-placement-pick-all.txt"),
        (
            "rp/shop/worker",
            "explain-resource-placement-pick-fixed.txt",
        ),
        ("crp/tie", "explain-tie-break.txt"),
    ] {
        let mut args = vec!["explain", item];
        args.extend(inputs);
        golden(name, &run(&args));
    }
    let mut check = vec!["check"];
    check.extend(inputs);
    golden("types-check.txt", &run_status(&check, 3));
}

#[test]
fn explain_states_the_tie_break_that_decided_a_pick_n() {
    let output = run(&["explain", "crp/tie", "-f", MEMBERS, "-f", TYPES]);
    let text = String::from_utf8_lossy(&output);
    assert!(
        text.contains("tie-break: member-eu-2 scored the same as member-us-1 and lost on its name (on equal scores the larger name wins)"),
        "{text}"
    );
}

#[test]
fn every_placement_type_of_both_kinds_diffs_as_its_golden() {
    // member-eu-1 and member-us-1 stop reporting: every placement that had them loses them
    // (no binding is in the inputs, so nothing keeps them), and each PickN of both kinds takes
    // another cluster where one is left.
    let previous = format!("{EXPECTED}/types-plan.yaml");
    let args = [
        "diff",
        "-f",
        MEMBERS,
        "-f",
        PLACEMENTS,
        "-f",
        TYPES,
        "--previous",
        &previous,
        "--offline",
        "member-eu-1",
        "--offline",
        "member-us-1",
    ];
    golden("types-diff.txt", &run_status(&args, 2));
}

/// `web`'s example run with the bindings of `cases/deletion.yaml`: one already Unscheduled
/// (member-eu-2), one the new policy no longer picks (member-us-2).
const DELETION: &str = "testdata/kubefleet/cases/deletion.yaml";

#[test]
fn the_deletion_stage_holds_the_unscheduled_bindings_by_name_after_every_stage() {
    let output = run(&[
        "plan", "-o", "yaml", "-f", EXAMPLE, "-f", DELETION, "crp/web",
    ]);
    let text = String::from_utf8_lossy(&output);
    let stages = &text[text.find("  stages:").unwrap_or_default()..];
    assert_eq!(
        stages,
        "  stages:
  - name: ring1
    clusters:
    - member-eu-1
    - member-us-1
  - name: ring2
    clusters: []
  - name: kubernetes-fleet.io/deleteStage
    clusters:
    - member-eu-2
    - member-us-2
"
    );
    // The table names the stage of the removed cluster.
    let output = run(&["plan", "-f", EXAMPLE, "-f", DELETION, "crp/web"]);
    assert_eq!(
        String::from_utf8_lossy(&output),
        "ClusterResourcePlacement/web (placement.kubernetes-fleet.io/v1beta1): 2 clusters
  CLUSTER                 AFFINITY   SPREAD   STAGE                             OVERRIDES
  member-eu-1             7          0        ring1
  member-us-1             13         -1       ring1
  member-us-2 (removed)                       kubernetes-fleet.io/deleteStage
"
    );
}

#[test]
fn explain_and_diff_show_the_deletion_stage() {
    let output = run(&["explain", "-f", EXAMPLE, "-f", DELETION, "crp/web"]);
    let text = String::from_utf8_lossy(&output);
    assert!(
        text.contains("stage ring2: no cluster\nstage kubernetes-fleet.io/deleteStage (the deletion stage: after every stage, removes the resources from the clusters whose bindings are Unscheduled): member-eu-2, member-us-2\n"),
        "{text}"
    );
    let previous = format!("{EXPECTED}/plan.yaml");
    let output = run_status(
        &[
            "diff",
            "-f",
            EXAMPLE,
            "-f",
            DELETION,
            "--previous",
            &previous,
        ],
        2,
    );
    let text = String::from_utf8_lossy(&output);
    assert!(
        text.starts_with(
            "~ ClusterResourcePlacement/web\n    + unscheduled member-us-2\n    stage kubernetes-fleet.io/deleteStage: [] → [member-eu-2, member-us-2]\n"
        ),
        "{text}"
    );
}

/// `validatePlacement` (updaterun/initialization.go) comes before anything else: a run over a
/// placement whose strategy is not `External` (the default is `RollingUpdate`) cannot start.
#[test]
fn a_run_of_a_placement_without_the_external_strategy_cannot_start() {
    for (strategy, written) in [
        ("", "RollingUpdate"),
        ("  strategy: {type: RollingUpdate}\n", "RollingUpdate"),
    ] {
        let error = format!("cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: parent placement does not have an external rollout strategy, current strategy: {written}");
        Test::new()
            .args(["plan", "-f", EXAMPLE, "-f", "-", "crp/rolling", "--now", NOW])
            .stdin(format!(
                "apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterResourcePlacement
metadata: {{name: rolling}}
spec:
  resourceSelectors: [{{group: \"\", version: v1, kind: Namespace, name: web}}]
{strategy}---
apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterStagedUpdateRun
metadata: {{name: rolling-rollout}}
spec: {{placementName: rolling, stagedRolloutStrategyName: rings}}
"
            ))
            .stdout(format!(
                // Scheduling goes on; only the run fails.
                "ClusterResourcePlacement/rolling (placement.kubernetes-fleet.io/v1beta1): error\n  CLUSTER       AFFINITY   SPREAD   STAGE   OVERRIDES\n  member-eu-1   0          0\n  member-eu-2   0          0\n  member-us-1   0          0\n  error: {error}\n  UpdateRunInitializedFailed: {error}\n"
            ))
            .stderr(format!(
                "error: <stdin>#1: ClusterResourcePlacement/rolling: {error}\n"
            ))
            .status(1)
            .run();
    }
}

#[test]
fn a_run_of_a_placement_with_no_binding_at_all_cannot_start() {
    // PickAll over no matching cluster is fully scheduled, but the run has nothing to update
    // or delete (`collectScheduledClusters`).
    let error = "cannot continue the updateRun: failed to validate the updateRun: no scheduled or to-be-deleted bindings found for the latest policy snapshot /nowhere-0";
    Test::new()
        .args([
            "plan",
            "-f",
            EXAMPLE,
            "-f",
            "-",
            "crp/nowhere",
            "--now",
            NOW,
        ])
        .stdin(
            "apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterResourcePlacement
metadata: {name: nowhere}
spec:
  resourceSelectors: [{group: \"\", version: v1, kind: Namespace, name: web}]
  policy:
    placementType: PickAll
    affinity:
      clusterAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          clusterSelectorTerms: [{labelSelector: {matchLabels: {region: mars}}}]
  strategy: {type: External}
---
apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterStagedUpdateRun
metadata: {name: nowhere-rollout}
spec: {placementName: nowhere, stagedRolloutStrategyName: rings}
",
        )
        .stdout(format!(
            "ClusterResourcePlacement/nowhere (placement.kubernetes-fleet.io/v1beta1): error
  error: {error}
  UpdateRunInitializedFailed: {error}
"
        ))
        .stderr(format!(
            "error: <stdin>#1: ClusterResourcePlacement/nowhere: {error}\n"
        ))
        .status(1)
        .run();
}

/// With two latest snapshots and a placement that is not `External`, the run fails at
/// `validatePlacement`, which upstream's initialization runs before it looks the snapshot up.
#[test]
fn a_run_over_two_latest_snapshots_fails_at_the_placement_first() {
    let two = "testdata/kubefleet/cases/two-latest.yaml";
    let rolling = std::fs::read_to_string(PLACEMENTS)
        .expect("the example placements")
        .replacen("  strategy:\n    type: External\n", "", 1);
    let output = Test::new()
        .args([
            "plan",
            "-o",
            "json",
            "-f",
            MEMBERS,
            "-f",
            "testdata/kubefleet/example/rollout.yaml",
            "-f",
            two,
            "-f",
            "-",
            "crp/web",
            "--now",
            NOW,
        ])
        .stdin(rolling)
        .stderr_contains("multiple active policy snapshots found for placement /web")
        .status(1)
        .run();
    let plan: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        plan["items"][0]["conditions"],
        serde_json::json!([{
            "type": "Initialized",
            "status": "False",
            "reason": "UpdateRunInitializedFailed",
            "message": "cannot continue the updateRun: failed to validate the updateRun: failed to process the request due to a client error: parent placement does not have an external rollout strategy, current strategy: RollingUpdate"
        }])
    );
}

#[test]
fn two_snapshots_labelled_latest_stop_the_placement_as_upstream_stops_it() {
    let two = "testdata/kubefleet/cases/two-latest.yaml";
    let upstream = "unexpected behavior which cannot be handled by the controller: multiple active policy snapshots found for placement /web: got 2, want 1";
    let error =
        format!("{upstream} (labelled kubernetes-fleet.io/is-latest-snapshot=true: web-1, web-2)");
    // The staged update run stops at the same lookup (`determinePolicySnapshot`) and says so
    // in its Initialized condition, with upstream's text.
    Test::new()
        .args(["plan", "-f", EXAMPLE, "-f", two, "crp/web", "--now", NOW])
        .stdout(format!(
            "ClusterResourcePlacement/web (placement.kubernetes-fleet.io/v1beta1): error\n  error: {error}\n  UpdateRunInitializedFailed: cannot continue the updateRun: failed to validate the updateRun: {upstream}\n"
        ))
        .stderr(format!(
            "error: testdata/kubefleet/example/placements.yaml#1: ClusterResourcePlacement/web: {error}\n"
        ))
        .status(1)
        .run();
    let output = Test::new()
        .args(["explain", "-f", EXAMPLE, "-f", two, "crp/web", "--now", NOW])
        .stderr(format!(
            "error: testdata/kubefleet/example/placements.yaml#1: ClusterResourcePlacement/web: {error}\n"
        ))
        .status(1)
        .run();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("PickN of 2: 2 policy snapshots labelled latest, not scheduled\n"),
        "{text}"
    );
    // The other placements are planned as without these snapshots.
    let output = run_status(&["check", "-f", EXAMPLE, "-f", two], 1);
    assert_eq!(
        String::from_utf8_lossy(&output),
        format!("error: testdata/kubefleet/example/placements.yaml#1: line 2: ClusterResourcePlacement/web: {error}
unsatisfied: testdata/kubefleet/example/placements.yaml#3: line 48: ClusterResourcePlacement/pinned: SchedulingPolicyUnfulfilled: could not find all clusters needed as specified by the scheduling policy, found 1 cluster(s) instead
4 items checked: 1 error, 1 unsatisfied
")
    );
}

/// A run naming a placement admission refuses: the hub never stored the placement, so the
/// run's `validatePlacement` (`pkg/controllers/updaterun/initialization.go`) fails with
/// `parent placement not found`, a user error: `Initialized=False`, and an item error.
#[test]
fn a_run_of_a_placement_admission_refuses_cannot_start_without_its_parent() {
    let refused = format!("{CASES}/refused.yaml");
    let run = "apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterStagedUpdateRun
metadata: {name: no-count-rollout}
spec: {placementName: no-count, stagedRolloutStrategyName: rings}
";
    let upstream = "cannot continue the updateRun: failed to validate the updateRun: failed to \
                    process the request due to a client error: parent placement not found";
    let admission = "spec.policy: Invalid value: \"object\": clusterNames cannot be set and \
                     numberOfClusters must be set when placementType is PickN";
    Test::new()
        .args([
            "plan", "-o", "yaml", "-f", EXAMPLE, "-f", &refused, "-f", "-",
        ])
        .args(["crp/no-count", "--now", NOW])
        .stdin(run)
        .stdout(format!(
            "apiVersion: fleetplan.io/v1alpha1
kind: Plan
items:
- source:
    apiVersion: placement.kubernetes-fleet.io/v1beta1
    kind: ClusterResourcePlacement
    name: no-count
  clusters: []
  conditions:
  - type: Initialized
    status: 'False'
    reason: UpdateRunInitializedFailed
    message: '{upstream}'
  errors:
  - '{admission}'
  - '{upstream}'
"
        ))
        .stderr(format!(
            "error: {refused}#1: ClusterResourcePlacement/no-count: {admission}\n\
             error: {refused}#1: ClusterResourcePlacement/no-count: {upstream}\n"
        ))
        .status(1)
        .run();
}

/// Several runs naming one placement: upstream's run controller initializes each on its own
/// (`controller.go Reconcile`, `initialization.go initialize`), so each has its stages and
/// its `Initialized` condition, the stages named `<run>/<stage>` and the messages led by the
/// run's name; runs in name order.
#[test]
fn each_run_of_one_placement_initializes_with_its_own_stages_and_condition() {
    let runs = "apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterStagedUpdateStrategy
metadata: {name: halves}
spec:
  stages:
    - {name: eu, labelSelector: {matchLabels: {region: eu}}}
    - {name: us, labelSelector: {matchLabels: {region: us}}}
---
apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterStagedUpdateRun
metadata: {name: web-halves}
spec: {placementName: web, stagedRolloutStrategyName: halves}
---
apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterStagedUpdateStrategy
metadata: {name: eu-only}
spec:
  stages:
    - {name: eu, labelSelector: {matchLabels: {region: eu}}}
---
apiVersion: placement.kubernetes-fleet.io/v1beta1
kind: ClusterStagedUpdateRun
metadata: {name: web-eu}
spec: {placementName: web, stagedRolloutStrategyName: eu-only}
";
    let failed = "web-eu: cannot continue the updateRun: failed to validate the updateRun: \
                  failed to process the request due to a client error: some clusters are not \
                  placed in any stage, total 1, showing up to 10: member-us-1";
    let output = Test::new()
        .args(["plan", "-o", "yaml", "-f", EXAMPLE, "-f", "-", "crp/web"])
        .args(["--now", NOW])
        .stdin(runs)
        .stderr(format!(
            "error: {PLACEMENTS}#1: ClusterResourcePlacement/web: {failed}\n"
        ))
        .status(1)
        .run();
    let plan = String::from_utf8_lossy(&output.stdout);
    let conditions = format!(
        "  - type: Initialized
    status: 'False'
    reason: UpdateRunInitializedFailed
    message: '{failed}'
  - type: Initialized
    status: 'True'
    reason: UpdateRunInitializedSuccessfully
    message: 'web-halves: ClusterStagedUpdateRun initialized successfully'
  - type: Initialized
    status: 'True'
    reason: UpdateRunInitializedSuccessfully
    message: 'web-rollout: ClusterStagedUpdateRun initialized successfully'
  scores:
"
    );
    let stages = "  stages:
  - name: web-halves/eu
    clusters:
    - member-eu-1
  - name: web-halves/us
    clusters:
    - member-us-1
  - name: web-halves/kubernetes-fleet.io/deleteStage
    clusters: []
  - name: web-rollout/ring1
    clusters:
    - member-eu-1
    - member-us-1
  - name: web-rollout/ring2
    clusters: []
  - name: web-rollout/kubernetes-fleet.io/deleteStage
    clusters: []
  errors:
";
    assert!(plan.contains(&conditions), "{plan}");
    assert!(plan.contains(stages), "{plan}");
    // The table names each cluster's stage in every run.
    let table = Test::new()
        .args(["plan", "-f", EXAMPLE, "-f", "-", "crp/web", "--now", NOW])
        .stdin(runs)
        .stderr(format!(
            "error: {PLACEMENTS}#1: ClusterResourcePlacement/web: {failed}\n"
        ))
        .status(1)
        .run();
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(
        table.contains("member-eu-1   7          0        web-halves/eu, web-rollout/ring1"),
        "{table}"
    );
    // explain lists every run's stages, and knows each run's deletion stage.
    let explain = Test::new()
        .args(["explain", "-f", EXAMPLE, "-f", "-", "crp/web", "--now", NOW])
        .stdin(runs)
        .stderr(format!(
            "error: {PLACEMENTS}#1: ClusterResourcePlacement/web: {failed}\n"
        ))
        .status(1)
        .run();
    let explain = String::from_utf8_lossy(&explain.stdout);
    let deletion = "(the deletion stage: after every stage, removes the resources from the \
                    clusters whose bindings are Unscheduled): no cluster";
    let stages = format!(
        "stage web-halves/eu: member-eu-1
stage web-halves/us: member-us-1
stage web-halves/kubernetes-fleet.io/deleteStage {deletion}
stage web-rollout/ring1: member-eu-1, member-us-1
stage web-rollout/ring2: no cluster
stage web-rollout/kubernetes-fleet.io/deleteStage {deletion}
"
    );
    assert!(explain.contains(&stages), "{explain}");
}

/// `check` over every placement type of both kinds when the fleet cannot fill them:
/// member-eu-1, member-eu-2 and member-us-1 stop reporting (member-us-2 is tainted and
/// member-ap-1 already silent), so every PickN and PickFixed is unsatisfied, a PickAll is
/// satisfied with what is left, and the refused PickN and PickAll of both kinds are errors.
#[test]
fn every_placement_type_of_both_kinds_checks_as_its_golden_when_the_fleet_cannot_fill_it() {
    let refused = format!("{CASES}/refused.yaml");
    let refused_rp = format!("{CASES}/refused-resource-placement.yaml");
    let mut args = vec!["check", "-f", MEMBERS, "-f", PLACEMENTS, "-f", TYPES];
    args.extend(["-f", &refused, "-f", &refused_rp]);
    for cluster in ["member-eu-1", "member-eu-2", "member-us-1"] {
        args.extend(["--offline", cluster]);
    }
    golden("types-check-unfilled.txt", &run_status(&args, 1));
}
