//! `fleetplan check` end to end: every output and exit code (0 clean, 1 errors, 3 unsatisfied).

use crate::common::Test;

const NOW: [&str; 2] = ["--now", "2026-03-01T00:00:00Z"];

/// The example fleet's clusters and sets, with `story` (a directory of testdata/ci) as workloads.
fn check(story: &str) -> Test {
    Test::new()
        .args(["check", "-f", "testdata/fleet/inventory.yaml"])
        .args(["-f", "testdata/fleet/clustersets.yaml"])
        .args(["-f", &format!("testdata/ci/{story}")])
        .args(NOW)
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn the_example_fleet_is_clean() {
    Test::new()
        .args(["check", "-f", "testdata/fleet"])
        .args(NOW)
        .stdout("10 items checked, all satisfied\n")
        .run();
}

#[test]
fn a_clean_report_in_json() {
    Test::new()
        .args(["check", "-f", "testdata/fleet", "-o", "json"])
        .args(NOW)
        .stdout(
            r#"{
  "result": "clean",
  "items": 10,
  "placementsEvaluated": true,
  "skippedDocuments": 0,
  "errors": [],
  "unsatisfied": []
}
"#,
        )
        .run();
}

#[test]
fn a_clean_report_for_github_is_the_summary() {
    Test::new()
        .args(["check", "-f", "testdata/fleet", "-o", "github"])
        .args(NOW)
        .stdout("10 items checked, all satisfied\n")
        .run();
}

#[test]
fn unsatisfied_items_exit_3() {
    let output = check("unsatisfied").status(3).run();
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn unsatisfied_items_in_json() {
    let output = check("unsatisfied").args(["-o", "json"]).status(3).run();
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn unsatisfied_items_are_github_warnings() {
    let output = check("unsatisfied").args(["-o", "github"]).status(3).run();
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn what_if_flags_apply_to_check() {
    let output = Test::new()
        .args([
            "check",
            "-f",
            "testdata/fleet",
            "--offline",
            "gcp-us-east-prod-1",
        ])
        .args(NOW)
        .status(3)
        .run();
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn an_item_error_exits_1_and_names_the_workload() {
    let output = check("item-error").status(1).run();
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn an_item_error_is_a_github_error_on_the_workload_file() {
    let output = check("item-error").args(["-o", "github"]).status(1).run();
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn unreadable_inputs_report_every_error_and_exit_1() {
    let output = check("broken").status(1).run();
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn unreadable_inputs_in_json_carry_file_document_line_and_path() {
    let output = check("broken").args(["-o", "json"]).status(1).run();
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn unreadable_inputs_are_github_errors_with_the_line_when_known() {
    let output = check("broken").args(["-o", "github"]).status(1).run();
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn a_missing_file_is_an_error_without_a_document() {
    Test::new()
        .args(["check", "-f", "testdata/ci/missing.yaml", "-o", "json"])
        .args(NOW)
        .stdout(
            r#"{
  "result": "errors",
  "items": 0,
  "placementsEvaluated": false,
  "skippedDocuments": 0,
  "errors": [
    {
      "file": "testdata/ci/missing.yaml",
      "message": "no such file or directory"
    }
  ],
  "unsatisfied": []
}
"#,
        )
        .status(1)
        .run();
}

#[test]
fn a_bad_flag_is_reported_on_stderr() {
    Test::new()
        .args(["check", "-f", "testdata/fleet", "--now", "yesterday"])
        .stderr_contains("error: --now: ")
        .stdout("")
        .status(1)
        .run();
}

/// Like kubeconform: every file's problems in one run, and what did load is still checked.
#[test]
fn broken_files_are_all_reported_and_the_rest_is_still_checked() {
    Test::new()
        .args(["check", "-f", "testdata/fleet", "-f", "testdata/ci/broken"])
        .args(["-f", "testdata/ci/unsatisfied"])
        .args(NOW)
        .stdout(
            "error: testdata/ci/broken/placement.yaml#1: Placement/shop/typo: \
             spec.numberOfClusters: invalid type: string \"three\", expected i32\n\
             error: testdata/ci/broken/unclosed.yaml#2: line 13 column 5: did not find expected \
             ',' or ']', while parsing a flow sequence started at line 12 column 11\n\
             unsatisfied: testdata/ci/unsatisfied/workloads.yaml#2: ReplicaSet/ci/load-test: \
             ReplicasUnassigned: 6 of 10 replicas left unassigned\n\
             unsatisfied: testdata/ci/unsatisfied/workloads.yaml#1: Placement/shop/eu-everywhere: \
             NotAllDecisionsScheduled: 2 cluster decisions unscheduled\n\
             13 items checked: 2 errors, 2 unsatisfied\n",
        )
        .status(1)
        .run();
}
