//! `fleetplan check` end to end: every output and exit code (0 clean, 1 errors, 3 unsatisfied).

use crate::common::{self, Test, CI_NOW};

/// The example fleet's clusters and sets, with `story` (a directory of testdata/ci) as workloads.
fn check(story: &str) -> Test {
    Test::new()
        .args(["check", "-f", "testdata/fleet/inventory.yaml"])
        .args(["-f", "testdata/fleet/clustersets.yaml"])
        .args(["-f", &format!("testdata/ci/{story}")])
        .args(CI_NOW)
}

#[test]
fn the_example_fleet_is_clean() {
    Test::new()
        .args(["check", "-f", "testdata/fleet"])
        .args(CI_NOW)
        .stdout("10 items checked, all satisfied\n")
        .run();
}

#[test]
fn a_clean_report_in_json() {
    Test::new()
        .args(["check", "-f", "testdata/fleet", "-o", "json"])
        .args(CI_NOW)
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
        .args(CI_NOW)
        .stdout("10 items checked, all satisfied\n")
        .run();
}

#[test]
fn unsatisfied_items_exit_3() {
    let output = check("unsatisfied").status(3).run();
    insta::assert_snapshot!(common::stdout(&output));
}

#[test]
fn unsatisfied_items_in_json() {
    let output = check("unsatisfied").args(["-o", "json"]).status(3).run();
    insta::assert_snapshot!(common::stdout(&output));
}

#[test]
fn unsatisfied_items_are_github_warnings() {
    let output = check("unsatisfied").args(["-o", "github"]).status(3).run();
    insta::assert_snapshot!(common::stdout(&output));
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
        .args(CI_NOW)
        .status(3)
        .run();
    insta::assert_snapshot!(common::stdout(&output));
}

#[test]
fn an_item_error_exits_1_and_names_the_workload() {
    let output = check("item-error").status(1).run();
    insta::assert_snapshot!(common::stdout(&output));
}

#[test]
fn an_item_error_is_a_github_error_on_the_workload_file() {
    let output = check("item-error").args(["-o", "github"]).status(1).run();
    insta::assert_snapshot!(common::stdout(&output));
}

#[test]
fn unreadable_inputs_report_every_error_and_exit_1() {
    let output = check("broken").status(1).run();
    insta::assert_snapshot!(common::stdout(&output));
}

#[test]
fn unreadable_inputs_in_json_carry_file_document_line_and_path() {
    let output = check("broken").args(["-o", "json"]).status(1).run();
    insta::assert_snapshot!(common::stdout(&output));
}

#[test]
fn unreadable_inputs_are_github_errors_with_the_line_when_known() {
    let output = check("broken").args(["-o", "github"]).status(1).run();
    insta::assert_snapshot!(common::stdout(&output));
}

#[test]
fn a_missing_file_is_an_error_without_a_document() {
    Test::new()
        .args(["check", "-f", "testdata/ci/missing.yaml", "-o", "json"])
        .args(CI_NOW)
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
        .args(CI_NOW)
        .stdout(
            "error: testdata/ci/broken/placement.yaml#1: line 8: Placement/shop/typo: \
             spec.numberOfClusters: invalid type: string \"three\", expected i32\n\
             error: testdata/ci/broken/unclosed.yaml#2: line 13 column 5: did not find expected \
             ',' or ']', while parsing a flow sequence started at line 12 column 11\n\
             unsatisfied: testdata/ci/unsatisfied/workloads.yaml#2: line 17: ReplicaSet/ci/load-test: \
             ReplicasUnassigned: 6 of 10 replicas left unassigned\n\
             unsatisfied: testdata/ci/unsatisfied/workloads.yaml#1: line 2: Placement/shop/eu-everywhere: \
             NotAllDecisionsScheduled: 2 cluster decisions unscheduled\n\
             13 items checked: 2 errors, 2 unsatisfied\n",
        )
        .status(1)
        .run();
}

/// Every kind of finding at once: an item error, unsatisfied items, a field of the wrong
/// type and a syntax error with its line.
fn every_finding() -> Test {
    check("unsatisfied")
        .args(["-f", "testdata/ci/item-error", "-f", "testdata/ci/broken"])
        .status(1)
}

/// Fails (never skips) when xmllint is missing: `.ci/run` installs it.
fn assert_valid_junit(xml: &str) {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut xmllint = Command::new("xmllint")
        .args(["--noout", "--schema", "testdata/schemas/junit-10.xsd", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xmllint validates JUnit output: apt-get install libxml2-utils");
    if let Some(mut stdin) = xmllint.stdin.take() {
        stdin
            .write_all(xml.as_bytes())
            .expect("xmllint reads the report");
    }
    let result = xmllint.wait_with_output().expect("xmllint ran");
    assert!(
        result.status.success(),
        "not valid against junit-10.xsd:\n{}\n{xml}",
        String::from_utf8_lossy(&result.stderr)
    );
}

fn assert_valid_sarif(text: &str) -> serde_json::Value {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string("testdata/schemas/sarif-schema-2.1.0.json")
            .expect("the SARIF schema is in testdata"),
    )
    .expect("the SARIF schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("the SARIF schema compiles");
    let log: serde_json::Value = serde_json::from_str(text).expect("SARIF output is JSON");
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|error| format!("{}: {error}", error.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "not valid SARIF 2.1.0: {errors:#?}\n{text}"
    );
    log
}

#[test]
fn every_finding_in_junit_is_valid_against_the_jenkins_junit_schema() {
    let output = every_finding().args(["-o", "junit"]).run();
    let xml = common::stdout(&output);
    assert_valid_junit(&xml);
    insta::assert_snapshot!(xml);
}

#[test]
fn a_clean_run_in_junit_has_one_passing_case_per_item() {
    let output = Test::new()
        .args(["check", "-f", "testdata/fleet", "-o", "junit"])
        .args(CI_NOW)
        .run();
    let xml = common::stdout(&output);
    assert_valid_junit(&xml);
    assert_eq!(xml.matches("<testcase ").count(), 10);
    assert!(
        xml.contains("tests=\"10\" failures=\"0\" errors=\"0\""),
        "{xml}"
    );
    assert!(
        !xml.contains("<failure") && !xml.contains("<error"),
        "{xml}"
    );
    assert!(
        xml.contains("<system-out>10 items checked, all satisfied</system-out>"),
        "{xml}"
    );
}

#[test]
fn unsatisfied_items_in_junit_are_failures_and_exit_3() {
    let output = check("unsatisfied").args(["-o", "junit"]).status(3).run();
    let xml = common::stdout(&output);
    assert_valid_junit(&xml);
    assert!(xml.contains("failures=\"2\" errors=\"0\""), "{xml}");
    assert!(
        xml.contains(
            "<failure type=\"unsatisfied\" message=\"Placement/shop/eu-everywhere: \
             NotAllDecisionsScheduled: 2 cluster decisions unscheduled\">"
        ),
        "{xml}"
    );
}

#[test]
fn manifests_only_in_junit_says_placements_were_not_evaluated() {
    let output = Test::new()
        .args([
            "check",
            "-f",
            "testdata/fleet/workloads",
            "--manifests-only",
            "-o",
            "junit",
        ])
        .run();
    let xml = common::stdout(&output);
    assert_valid_junit(&xml);
    assert!(
        xml.contains("<system-out>10 items validated, placements were not evaluated"),
        "{xml}"
    );
}

#[test]
fn every_finding_in_sarif_is_valid_sarif_2_1_0_with_its_location() {
    let output = every_finding().args(["-o", "sarif"]).run();
    let text = common::stdout(&output);
    let log = assert_valid_sarif(&text);
    let results = log["runs"][0]["results"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(results.len(), 5, "{text}");
    for result in &results {
        let uri = &result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
        assert!(
            uri.as_str()
                .is_some_and(|uri| uri.starts_with("testdata/ci/")),
            "{result}"
        );
    }
    insta::assert_snapshot!(text);
}

#[test]
fn a_syntax_error_in_sarif_has_its_line_and_column() {
    let output = check("broken").args(["-o", "sarif"]).status(1).run();
    let log = assert_valid_sarif(&common::stdout(&output));
    let syntax = log["runs"][0]["results"]
        .as_array()
        .and_then(|results| results.iter().find(|r| r["ruleId"] == "syntax-error"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        syntax["locations"][0]["physicalLocation"],
        serde_json::json!({
            "artifactLocation": {"uri": "testdata/ci/broken/unclosed.yaml"},
            "region": {"startLine": 13, "startColumn": 5}
        })
    );
    assert_eq!(syntax["level"], "error");
}

#[test]
fn a_clean_run_in_sarif_has_no_results_and_says_what_was_checked() {
    let output = Test::new()
        .args(["check", "-f", "testdata/fleet", "-o", "sarif"])
        .args(CI_NOW)
        .run();
    let log = assert_valid_sarif(&common::stdout(&output));
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
    assert_eq!(
        log["runs"][0]["properties"],
        serde_json::json!({"items": 10, "placementsEvaluated": true, "skippedDocuments": 0})
    );
}

/// testdata/ci/lines: YAML documents after comments and blank lines, a List, and a JSON
/// stream. Each finding points at its document's first line of content (a List's items at
/// their own), in every format.
fn lines() -> Test {
    check("lines").status(1)
}

#[test]
fn findings_carry_the_line_of_their_field_else_their_document_in_text_and_github() {
    lines()
        .stdout(
            "error: testdata/ci/lines/placements.json#2: line 12: Placement/shop/json-typo: \
             spec.numberOfClusters: invalid type: string \"three\", expected i32\n\
             error: testdata/ci/lines/placements.yaml#3: line 37: Placement/shop/typo: \
             spec.numberOfClusters: invalid type: string \"three\", expected i32\n\
             error: testdata/ci/lines/placements.yaml#4: line 49: Placement/shop/listed: \
             items[0].spec.numberOfClusters: invalid type: string \"many\", expected i32\n\
             unsatisfied: testdata/ci/lines/placements.yaml#2: line 14: \
             Placement/shop/six-in-europe: NotAllDecisionsScheduled: 2 cluster decisions \
             unscheduled\n\
             3 items checked: 3 errors, 1 unsatisfied\n",
        )
        .run();
    let output = lines().args(["-o", "github"]).run();
    let annotations: Vec<&str> = std::str::from_utf8(&output.stdout)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.split("::").nth(1))
        .collect();
    assert_eq!(
        annotations,
        [
            "error file=testdata/ci/lines/placements.json,line=12",
            "error file=testdata/ci/lines/placements.yaml,line=37",
            "error file=testdata/ci/lines/placements.yaml,line=49",
            "warning file=testdata/ci/lines/placements.yaml,line=14",
        ]
    );
}

/// Standard input is no file of the repository: its annotations name no file (the message
/// still says `<stdin>#N: line L`), as SARIF gives its results no location.
#[test]
fn findings_on_standard_input_annotate_no_file() {
    let stdin = std::fs::read_to_string("testdata/ci/lines/placements.yaml").expect("readable");
    let output = Test::new()
        .args(["check", "-f", "testdata/fleet/inventory.yaml"])
        .args([
            "-f",
            "testdata/fleet/clustersets.yaml",
            "-f",
            "-",
            "-o",
            "github",
        ])
        .args(CI_NOW)
        .stdin(stdin)
        .status(1)
        .run();
    let text = common::stdout(&output);
    assert!(
        text.starts_with("::error::<stdin>#3: line 30: Placement/shop/typo: "),
        "{text}"
    );
    assert!(!text.contains("file="), "{text}");
}

/// The item lines of Lists read from standard input: a YAML List's items at the line of their
/// first key (one with an escape is not the input's text: the List's line), a List inside an
/// item at the item's, a JSON List's items (nested ones too) at their own opening braces.
#[test]
fn a_lists_items_point_at_their_own_lines_in_yaml_and_json() {
    let placement = |name: &str| {
        format!(
            "\"apiVersion\": \"cluster.open-cluster-management.io/v1beta1\", \"kind\": \"Placement\", \
             \"metadata\": {{\"name\": \"{name}\", \"namespace\": \"shop\"}}, \
             \"spec\": {{\"numberOfClusters\": \"x\"}}"
        )
    };
    let yaml = format!(
        "# a comment
apiVersion: v1
kind: List
items:
- {{{}}}
- apiVersion: cluster.open-cluster-management.io/v1beta1
  kind: Placement

  metadata: {{name: block, namespace: shop}}
  spec: {{numberOfClusters: x}}
- \"\\x61piVersion\": cluster.open-cluster-management.io/v1beta1
  kind: Placement
  metadata: {{name: escaped-first-key, namespace: shop}}
  spec: {{numberOfClusters: x}}
- apiVersion: v1
  kind: List
  items:
  - {{{}}}
",
        placement("flow"),
        placement("nested")
    );
    let json = format!(
        "{{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [
  {{{}}},

  {{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [
    {{{}}}]}}]}}
",
        placement("json"),
        placement("json-nested")
    );
    for (input, expected) in [
        (
            yaml,
            [
                ("flow", 5),
                ("block", 6),
                ("escaped-first-key", 2),
                ("nested", 15),
            ]
            .as_slice(),
        ),
        (json, [("json", 2), ("json-nested", 5)].as_slice()),
    ] {
        let output = Test::new()
            .args(["check", "-f", "-", "-o", "json"])
            .args(CI_NOW)
            .stdin(input.as_str())
            .status(1)
            .run();
        let report: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("-o json is JSON");
        let lines: Vec<(String, u64)> = report["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|finding| {
                let object = finding["object"].as_str().unwrap_or_default();
                let name = object.rsplit('/').next().unwrap_or_default();
                (
                    name.to_string(),
                    finding["line"].as_u64().unwrap_or_default(),
                )
            })
            .collect();
        let expected: Vec<(String, u64)> = expected
            .iter()
            .map(|(name, line)| (name.to_string(), *line))
            .collect();
        assert_eq!(lines, expected, "{input}\n{report}");
    }
}

#[test]
fn findings_carry_the_line_of_their_field_else_their_document_in_json_sarif_and_junit() {
    let expected = [
        ("placements.json", 2, 12),
        ("placements.yaml", 3, 37),
        ("placements.yaml", 4, 49),
        ("placements.yaml", 2, 14),
    ];
    let output = lines().args(["-o", "json"]).run();
    let report: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("-o json is JSON");
    let findings: Vec<(String, u64, u64)> = ["errors", "unsatisfied"]
        .iter()
        .flat_map(|list| report[list].as_array().cloned().unwrap_or_default())
        .map(|finding| {
            let file = finding["file"].as_str().unwrap_or_default();
            (
                file.trim_start_matches("testdata/ci/lines/").to_string(),
                finding["document"].as_u64().unwrap_or_default(),
                finding["line"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    let expected_owned: Vec<(String, u64, u64)> = expected
        .iter()
        .map(|(file, document, line)| (file.to_string(), *document, *line))
        .collect();
    assert_eq!(findings, expected_owned);

    let output = lines().args(["-o", "sarif"]).run();
    let log = assert_valid_sarif(&common::stdout(&output));
    let regions: Vec<(String, u64)> = log["runs"][0]["results"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|result| {
            let location = &result["locations"][0]["physicalLocation"];
            let uri = location["artifactLocation"]["uri"]
                .as_str()
                .unwrap_or_default();
            (
                uri.trim_start_matches("testdata/ci/lines/").to_string(),
                location["region"]["startLine"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    let expected_regions: Vec<(String, u64)> = expected
        .iter()
        .map(|(file, _, line)| (file.to_string(), *line))
        .collect();
    assert_eq!(regions, expected_regions);

    let output = lines().args(["-o", "junit"]).run();
    let xml = common::stdout(&output);
    assert_valid_junit(&xml);
    for (file, document, line) in expected {
        let location = format!("testdata/ci/lines/{file}#{document}: line {line}: ");
        assert!(xml.contains(&location), "{location} not in\n{xml}");
    }
}

fn labelled() -> Test {
    check("labelled")
}

#[test]
fn check_judges_only_the_items_named() {
    labelled()
        .args(["placement/shop/data", "shop/web-eu"])
        .stdout("2 items checked, all satisfied\n")
        .run();
}

#[test]
fn check_with_a_selector_judges_only_matching_workloads() {
    labelled()
        .args(["-l", "team=web"])
        .status(3)
        .stdout(
            "unsatisfied: testdata/ci/labelled/placements.yaml#2: line 11: Placement/shop/web-everywhere: \
             NotAllDecisionsScheduled: 40 cluster decisions unscheduled\n\
             2 items checked: 1 unsatisfied\n",
        )
        .run();
    labelled()
        .args(["-l", "team=data"])
        .stdout("1 item checked, all satisfied\n")
        .run();
}

#[test]
fn check_of_an_item_that_is_not_there_is_an_error_not_a_pass() {
    labelled()
        .args(["placement/shop/gone"])
        .status(1)
        .stderr_contains("error: no item \"placement/shop/gone\" in the inputs")
        .run();
    labelled()
        .args(["-l", "team=ops"])
        .status(1)
        .stderr("error: -l \"team=ops\": no workload in the inputs has matching labels\n")
        .run();
}

#[test]
fn manifests_only_validates_just_the_selected_items() {
    Test::new()
        .args([
            "check",
            "-f",
            "testdata/ci/labelled",
            "--manifests-only",
            "-l",
            "team=web",
        ])
        .stdout("2 items validated, placements were not evaluated (--manifests-only)\n")
        .run();
}
