//! `fleetplan select` end to end, through the real binary.

use crate::common::{self, Test};

const EUROPE: &str = "aws-eu-west-prod-1
aws-eu-west-prod-2
azure-eu-central-dev
azure-eu-west-prod-1
gcp-eu-central-prod-1
gcp-eu-central-staging
gcp-eu-west-dev
";

#[test]
fn selects_from_the_example_fleet_directory() {
    Test::new()
        .args(["select", "-f", "testdata/fleet", "-o", "name"])
        .arg("region in (eu-west,eu-central)")
        .stdout(EUROPE)
        .run();
}

#[test]
fn managed_cluster_form_selects_the_same_clusters() {
    Test::new()
        .args(["select", "-f", "testdata/managedclusters", "-o", "name"])
        .arg("region in (eu-west,eu-central)")
        .stdout(EUROPE)
        .run();
}

#[test]
fn table_shows_selected_labels_and_online() {
    Test::new()
        .args(["select", "-f", "testdata/fleet/inventory.yaml"])
        .arg("env=dev")
        .stdout(
            "NAME                   env   ONLINE
aws-ap-south-dev       dev   false
azure-eu-central-dev   dev   false
gcp-eu-west-dev        dev   true
",
        )
        .run();
}

#[test]
fn no_selector_matches_every_cluster() {
    let output = Test::new()
        .args([
            "select",
            "-f",
            "testdata/fleet/inventory.yaml",
            "-o",
            "name",
        ])
        .run();
    assert_eq!(common::stdout(&output).lines().count(), 14);
}

#[test]
fn nothing_matching_still_succeeds() {
    Test::new()
        .args(["select", "-f", "testdata/fleet", "-o", "name", "env=qa"])
        .stdout("")
        .run();
}

#[test]
fn all_selectors_are_anded() {
    Test::new()
        .args(["select", "-f", "testdata/fleet", "-o", "name", "env=prod"])
        .args(["-l", "cloud!=aws"])
        .args(["--annotation", r#"[{"key": "region", "operator": "NotIn", "values": ["ap-south"]}]"#])
        .args(["--label-selector", "{matchExpressions: [{key: gpu, operator: DoesNotExist}]}"])
        .args([
            "--claim-selector",
            r#"{"matchExpressions": [{"key": "region.open-cluster-management.io", "operator": "In", "values": ["westeurope", "europe-west3"]}]}"#,
        ])
        .stdout("azure-eu-west-prod-1\ngcp-eu-central-prod-1\n")
        .run();
}

#[test]
fn reads_the_inventory_from_stdin() {
    Test::new()
        .args(["select", "-f", "-", "-o", "name", "tier"])
        .stdin(
            "apiVersion: fleetplan.io/v1alpha1
kind: ClusterInventory
metadata: {name: piped}
clusters:
  - {name: b, labels: {tier: web}}
  - {name: a, labels: {tier: db}}
  - {name: c}
",
        )
        .stdout("a\nb\n")
        .run();
}

#[test]
fn reads_files_matched_by_a_glob() {
    Test::new()
        .args([
            "select",
            "-f",
            "testdata/**/managedcluster*.yaml",
            "-o",
            "name",
        ])
        .arg("cloud=azure,env=prod")
        .stdout("azure-ap-south-prod-1\nazure-eu-west-prod-1\n")
        .run();
}

#[test]
fn json_output_lists_matching_clusters() {
    let output = Test::new()
        .args(["select", "-f", "testdata/fleet", "-o", "json", "gpu"])
        .run();
    let document: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("stdout should be JSON");
    assert_eq!(document["labelSelector"], "gpu");
    assert_eq!(document["clusters"][0]["name"], "gcp-us-east-prod-1");
    assert_eq!(document["clusters"].as_array().map(Vec::len), Some(1));
}

#[test]
fn malformed_yaml_names_file_document_and_line() {
    let dir = common::tempdir();
    let path = dir.path().join("broken.yaml");
    std::fs::write(
        &path,
        "apiVersion: v1\nkind: List\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n labels: {}\n",
    )
    .expect("write the broken file");
    Test::new()
        .args(["select", "-f"])
        .arg(path.display().to_string())
        .stdout("")
        .stderr(format!(
            "error: {}#2: line 8 column 2: did not find expected key, while parsing a block mapping started at line 4 column 1\n",
            path.display()
        ))
        .status(1)
        .run();
}

#[test]
fn invalid_selector_prints_the_kubernetes_message() {
    Test::new()
        .args(["select", "-f", "testdata/fleet", "region in (eu-west"])
        .stdout("")
        .stderr("error: unable to parse requirement: found '', expected: ',' or ')'\n")
        .status(1)
        .run();
}

#[test]
fn invalid_annotation_prints_the_kubernetes_message() {
    Test::new()
        .args(["select", "-f", "testdata/fleet", "--annotation"])
        .arg(r#"[{"key": "env", "operator": "Equals", "values": ["prod"]}]"#)
        .stdout("")
        .stderr_contains("error: --annotation: [0].operator: Unsupported value: \"Equals\"")
        .status(1)
        .run();
}

#[test]
fn misspelt_label_selector_field_is_an_error() {
    Test::new()
        .args([
            "select",
            "-f",
            "testdata/fleet",
            "--label-selector",
            "{matchLabel: {env: prod}}",
        ])
        .stdout("")
        .stderr_contains("error: --label-selector: unknown field `matchLabel`")
        .status(1)
        .run();
}

#[test]
fn missing_file_is_an_error() {
    Test::new()
        .args(["select", "-f", "testdata/nowhere.yaml"])
        .stdout("")
        .stderr("error: testdata/nowhere.yaml: no such file or directory\n")
        .status(1)
        .run();
}

#[test]
fn verbose_lists_skipped_documents() {
    Test::new()
        .args(["select", "-f", "-", "-o", "name", "--verbose"])
        .stdin(
            "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n---\n\
             apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\n\
             metadata: {name: piped}\nclusters: [{name: a}]\n",
        )
        .stdout("a\n")
        .stderr("skipped <stdin>#1: v1/Service\n")
        .run();
}

#[test]
fn missing_filename_is_a_usage_error() {
    Test::new()
        .args(["select", "env=prod"])
        .stdout("")
        .stderr_contains("--filename <PATH>")
        .status(1)
        .run();
}
