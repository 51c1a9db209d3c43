//! `fleetplan diff` end to end: every output and exit code (0 no change, 2 changes, 1 error).

use std::path::Path;

use crate::common::{self, Test, CI_NOW};

fn diff() -> Test {
    Test::new()
        .args(["diff", "-f", "testdata/fleet"])
        .args(CI_NOW)
}

/// The plan every `--previous testdata/ci/plan.yaml` below compares with is what `plan` prints
/// for the example fleet, so blessing an intended plan change rewrites it too.
#[test]
fn the_committed_plan_is_the_example_fleets_plan() {
    let output = Test::new()
        .args(["plan", "-f", "testdata/fleet", "-o", "yaml"])
        .args(CI_NOW)
        .run();
    common::golden(Path::new("testdata/ci/plan.yaml"), &common::stdout(&output));
}

#[test]
fn the_committed_plan_has_no_changes() {
    diff()
        .args(["--previous", "testdata/ci/plan.yaml"])
        .stdout("no changes\n")
        .run();
}

/// A condition's status is metav1's True, False or Unknown: anything else in a previous plan
/// is refused at its field, not compared as if it were a state.
#[test]
fn a_previous_condition_status_outside_true_false_unknown_is_an_error() {
    let committed = std::fs::read_to_string("testdata/ci/plan.yaml")
        .unwrap_or_else(|error| panic!("testdata/ci/plan.yaml: {error}"));
    let previous = committed.replacen("status: 'False'", "status: Maybe", 1);
    assert_ne!(
        previous, committed,
        "the committed plan has a False condition"
    );
    diff()
        .args(["--previous", "-"])
        .stdin(previous)
        .stderr_contains(
            ".status: unknown variant `Maybe`, expected one of `True`, `False`, `Unknown`",
        )
        .status(1)
        .run();
}

#[test]
fn no_changes_in_json_is_an_empty_object() {
    diff()
        .args(["--previous", "testdata/ci/plan.yaml", "-o", "json"])
        .stdout("{}\n")
        .run();
}

#[test]
fn an_offline_cluster_shows_clusters_removed_and_replicas_moved() {
    let output = diff()
        .args(["--previous", "testdata/ci/plan.yaml"])
        .args(["--offline", "aws-eu-west-prod-1"])
        .status(2)
        .run();
    insta::assert_snapshot!(common::stdout(&output));
}

#[test]
fn json_is_the_change_set() {
    let output = diff()
        .args(["--previous", "testdata/ci/plan.yaml", "-o", "json"])
        .args(["--capacity", "aws-eu-west-prod-1=3"])
        .status(2)
        .run();
    insta::assert_snapshot!(common::stdout(&output));
}

#[test]
fn placement_decisions_compare_the_clusters_of_the_placements_they_name() {
    let output = diff()
        .args(["--previous", "testdata/ci/hub-export"])
        .status(2)
        .run();
    insta::assert_snapshot!(common::stdout(&output));
}

#[test]
fn placement_decisions_that_match_the_plan_have_no_changes() {
    let dir = common::tempdir();
    let decision = std::fs::read_to_string("testdata/ci/hub-export/gpu-batch.yaml").unwrap();
    std::fs::write(dir.path().join("gpu-batch.yaml"), decision).unwrap();
    diff()
        .args(["--previous", &dir.path().display().to_string()])
        .stdout("no changes\n")
        .run();
}

/// A PlacementDecision that names no Placement (label missing or empty) is compared with
/// nothing: `--previous` refuses it, naming each such document, instead of "no changes".
#[test]
fn placement_decisions_that_name_no_placement_exit_1() {
    let dir = common::tempdir();
    let decision = |name: &str, labels: &str| {
        format!(
            "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: PlacementDecision\n\
             metadata:\n  name: {name}\n  namespace: shop\n{labels}\
             status:\n  decisions:\n    - {{clusterName: gcp-us-east-prod-1, reason: \"\"}}\n"
        )
    };
    let export = [
        decision("unlabelled", ""),
        decision(
            "empty",
            "  labels:\n    cluster.open-cluster-management.io/placement: \"\"\n",
        ),
    ]
    .join("---\n");
    let path = dir.path().join("export.yaml");
    common::write(&path, &export);
    let path = path.display().to_string();
    let message = "metadata.labels[cluster.open-cluster-management.io/placement]: missing or \
                   empty: a previous PlacementDecision must name its Placement, else it cannot \
                   be compared with anything";
    diff()
        .args(["--previous", &path])
        .stderr(format!(
            "error: --previous: {path}#1: PlacementDecision/shop/unlabelled: {message}\n\
             {path}#2: PlacementDecision/shop/empty: {message}\n"
        ))
        .stdout("")
        .status(1)
        .run();
}

#[test]
fn an_item_error_exits_1_after_printing_the_diff() {
    let output = diff()
        .args(["-f", "testdata/ci/item-error"])
        .args(["--previous", "testdata/ci/plan.yaml"])
        .stderr_contains("error: testdata/ci/item-error/configmap.yaml#1: ConfigMap/shop/feature-flags: annotation federation.alpha.kubernetes.io/cluster-selector: [0].operator: Unsupported value: \"like\"")
        .status(1)
        .run();
    assert!(common::stdout(&output).starts_with(
        "+ ConfigMap/shop/banner (new item)\n+ ConfigMap/shop/feature-flags (new item)\n"
    ));
}

#[test]
fn previous_is_required() {
    diff()
        .stderr_contains("the following required arguments were not provided:\n  --previous <PLAN>")
        .status(1)
        .run();
}

/// A previous plan of nothing would make every diff "no changes": each is refused, naming
/// the file and what it held.
#[test]
fn a_previous_plan_that_is_not_a_plan_exits_1() {
    let expected = "expected a fleetplan Plan (fleetplan.io/v1alpha1) or \
                    PlacementDecision/PlacementRule manifests\n";
    for (file, found) in [
        ("empty.yaml", "no documents"),
        ("empty-list.yaml", "an empty List"),
        ("pods.json", "1 Pod"),
    ] {
        diff()
            .args(["--previous", &format!("testdata/ci/previous/{file}")])
            .stderr(format!(
                "error: --previous: testdata/ci/previous/{file}: not a previous plan: \
                 found {found}; {expected}"
            ))
            .stdout("")
            .status(1)
            .run();
    }
}

#[test]
fn a_previous_plan_of_another_version_exits_1() {
    diff()
        .args(["--previous", "testdata/ci/previous/v2.yaml"])
        .stderr(
            "error: --previous: testdata/ci/previous/v2.yaml#1: apiVersion: expected \
             fleetplan.io/v1alpha1 (the Plan version this build reads), found fleetplan.io/v2\n",
        )
        .status(1)
        .run();
}

#[test]
fn values_a_plan_cannot_hold_are_errors_with_their_field_path() {
    diff()
        .args(["--previous", "testdata/ci/previous/negative-replicas.yaml"])
        .stderr(
            "error: --previous: testdata/ci/previous/negative-replicas.yaml#1: \
             items[0].replicas.aws-eu-west-prod-1: expected a non-negative number of replicas, \
             found -3\n",
        )
        .status(1)
        .run();
    diff()
        .args(["--previous", "testdata/ci/previous/unknown-field.yaml"])
        .stderr_contains(
            "error: --previous: testdata/ci/previous/unknown-field.yaml#1: items[0].cluster: \
             unknown field `cluster`, expected one of `source`, `clusters`",
        )
        .status(1)
        .run();
}

/// A plan item reads each API's own fields (KubeFleet's) by hand: the refusals keep serde's
/// words and the path of the key at fault, and an unknown key still names every key an item
/// takes, each API's among them in the order they are written.
#[test]
fn a_previous_item_s_unknown_key_and_an_api_field_of_the_wrong_type_are_refused_at_their_path() {
    diff()
        .args(["--previous", "testdata/ci/previous/unknown-field.yaml"])
        .stderr(
            "error: --previous: testdata/ci/previous/unknown-field.yaml#1: items[0].cluster: \
             unknown field `cluster`, expected one of `source`, `clusters`, `replicas`, \
             `overflow`, `groups`, `policy`, `affinityTerm`, `conditions`, `scores`, `removed`, \
             `stages`, `overrides`, `changesAt`, `via`, `rollout`, `errors`\n",
        )
        .status(1)
        .run();
    diff()
        .args([
            "--previous",
            "testdata/ci/previous/kubefleet-wrong-type.yaml",
        ])
        .stderr(
            "error: --previous: testdata/ci/previous/kubefleet-wrong-type.yaml#1: \
             items[0].scores.member-eu-1.affinityScore: invalid type: string \"high\", expected \
             i32\n",
        )
        .status(1)
        .run();
}

#[test]
fn an_unreadable_previous_plan_exits_1() {
    diff()
        .args(["--previous", "testdata/ci/missing.yaml"])
        .stderr_contains("error: --previous: testdata/ci/missing.yaml: ")
        .stdout("")
        .status(1)
        .run();
}

#[test]
fn unreadable_inputs_exit_1() {
    Test::new()
        .args(["diff", "-f", "testdata/ci/broken"])
        .args(["--previous", "testdata/ci/plan.yaml"])
        .stderr_contains("error: testdata/ci/broken/unclosed.yaml#2: line 13 column 5: ")
        .stdout("")
        .status(1)
        .run();
}

#[test]
fn piped_output_is_plain() {
    let output = diff()
        .args(["--previous", "testdata/ci/plan.yaml"])
        .args(["--offline", "aws-eu-west-prod-1"])
        .status(2)
        .run();
    assert!(!common::stdout(&output).contains('\x1b'));
}

#[test]
fn color_always_colours_a_pipe() {
    let output = Test::new()
        .args(["--color", "always", "diff", "-f", "testdata/fleet"])
        .args(CI_NOW)
        .args(["--previous", "testdata/ci/plan.yaml"])
        .args(["--offline", "aws-eu-west-prod-1"])
        .status(2)
        .run();
    assert!(common::stdout(&output).starts_with("\x1b[33m~ ConfigMap/shop/shop-settings\x1b[0m\n"));
}

#[test]
fn color_never_after_the_subcommand_is_plain() {
    let output = diff()
        .args(["--previous", "testdata/ci/plan.yaml", "--color", "never"])
        .args(["--offline", "aws-eu-west-prod-1"])
        .status(2)
        .run();
    assert!(!common::stdout(&output).contains('\x1b'));
}

/// Plans testdata/ci/toleration at `now` into a temporary file, the `--previous` of a diff.
fn toleration_plan(now: &str) -> (tempfile::TempDir, String) {
    let dir = common::tempdir();
    let path = dir.path().join("plan.yaml").display().to_string();
    Test::new()
        .args(["plan", "-o", "yaml", "--out", &path, "--now", now])
        .args(TOLERATION_INPUTS)
        .run();
    (dir, path)
}

const TOLERATION_INPUTS: [&str; 6] = [
    "-f",
    "testdata/fleet/inventory.yaml",
    "-f",
    "testdata/fleet/clustersets.yaml",
    "-f",
    "testdata/ci/toleration",
];

#[test]
fn time_changes_nothing_before_a_toleration_expires() {
    let (_dir, previous) = toleration_plan("2026-01-15T06:00:00Z");
    Test::new()
        .arg("diff")
        .args(TOLERATION_INPUTS)
        .args(["--previous", &previous, "--now", "2026-01-15T18:00:00Z"])
        .stdout("no changes\n")
        .run();
}

#[test]
fn a_toleration_that_expired_removes_its_cluster_and_changes_at() {
    let (_dir, previous) = toleration_plan("2026-01-15T06:00:00Z");
    let output = Test::new()
        .arg("diff")
        .args(TOLERATION_INPUTS)
        .args(["--previous", &previous, "--now", "2026-01-16T06:00:00Z"])
        .status(2)
        .run();
    insta::assert_snapshot!(common::stdout(&output));
}

#[test]
fn markdown_gives_the_summary_and_table_first_then_each_items_changes() {
    diff()
        .args(["--previous", "testdata/ci/plan.yaml", "-o", "markdown"])
        .args(["--offline", "aws-us-east-staging"])
        .status(2)
        .stdout(
            "### fleetplan diff: 1 changed, 0 added, 0 removed, 0 errors\n\
             \n\
             | Item | Change | Clusters | Replica moves | Groups | Conditions |\n\
             | --- | --- | --- | --- | --- | --- |\n\
             | `Placement/ci/canary-rollout` | changed | +0 −1 | 0 | 1 | 0 |\n\
             \n\
             **`Placement/ci/canary-rollout`** changed\n\
             \n\
             - `- cluster aws-us-east-staging`\n\
             - `group 0 canary: - aws-us-east-staging`\n",
        )
        .run();
}

#[test]
fn markdown_with_no_changes_says_so_and_exits_0() {
    diff()
        .args(["--previous", "testdata/ci/plan.yaml", "-o", "markdown"])
        .stdout("### fleetplan diff: no changes\n")
        .run();
}

#[test]
fn markdown_folds_an_item_with_many_lines_in_details() {
    let output = diff()
        .args([
            "-f",
            "testdata/ci/wide",
            "--previous",
            "testdata/ci/plan.yaml",
        ])
        .args(["-o", "markdown"])
        .status(2)
        .run();
    insta::assert_snapshot!(common::stdout(&output));
}

#[test]
fn markdown_lists_removed_items_with_the_clusters_they_were_on() {
    let output = diff()
        .args(["--previous", "testdata/ci/hub-export", "-o", "markdown"])
        .status(2)
        .run();
    insta::assert_snapshot!(common::stdout(&output));
}

#[test]
fn github_annotates_each_changed_item_on_its_file() {
    diff()
        .args(["--previous", "testdata/ci/plan.yaml", "-o", "github"])
        .args(["--offline", "aws-us-east-staging"])
        .status(2)
        .stdout(
            "::notice file=testdata/fleet/workloads/placements.yaml,line=40::\
             Placement/ci/canary-rollout changed%0A- cluster aws-us-east-staging%0A\
             group 0 canary: - aws-us-east-staging\n\
             1 changed, 0 added, 0 removed, 0 errors\n",
        )
        .run();
}

#[test]
fn github_annotates_a_removed_item_without_a_file() {
    diff()
        .args(["--previous", "testdata/ci/hub-export", "-o", "github"])
        .status(2)
        .stdout(
            "::notice file=testdata/fleet/workloads/placements.yaml,line=2::\
             Placement/shop/storefront changed%0A+ cluster gcp-eu-central-prod-1%0A\
             - cluster gcp-us-east-prod-1\n\
             ::notice::Placement/shop/retired (item removed): was on 1 cluster (gcp-us-east-prod-1)\n\
             1 changed, 0 added, 1 removed, 0 errors\n",
        )
        .run();
}

#[test]
fn github_makes_a_new_item_with_errors_an_error_and_exits_1() {
    let output = diff()
        .args([
            "-f",
            "testdata/ci/item-error",
            "--previous",
            "testdata/ci/plan.yaml",
        ])
        .args(["-o", "github"])
        .status(1)
        .stderr_contains("error: testdata/ci/item-error/configmap.yaml#1")
        .run();
    let text = common::stdout(&output);
    assert!(
        text.contains(
            "::error file=testdata/ci/item-error/configmap.yaml,line=2::\
             ConfigMap/shop/feature-flags (new item): no clusters%0Aerror: annotation"
        ),
        "{text}"
    );
    assert!(
        text.ends_with("0 changed, 2 added, 0 removed, 1 error\n"),
        "{text}"
    );
}

/// A hand-edited previous plan that lists an item twice: the first copy is compared with the
/// current item, and the other copy (here with another replica count) is reported removed in
/// every format, never dropped as if it had been compared ("no changes", exit 0).
#[test]
fn an_item_a_previous_plan_repeats_is_a_change_not_dropped() {
    let scenario = ["-f", "testdata/scenarios/1a-even"];
    let output = Test::new()
        .args(["plan", "-o", "yaml"])
        .args(scenario)
        .run();
    let plan = common::stdout(&output);
    let item = &plan[plan.find("- source:").expect("the plan has an item")..];
    assert!(item.contains("A: 16"), "{item}");
    let dir = common::tempdir();
    let previous = dir.path().join("previous.yaml");
    common::write(
        &previous,
        &format!("{plan}{}", item.replace("A: 16", "A: 99")),
    );
    let previous = previous.to_string_lossy().to_string();
    let output = Test::new()
        .args(["diff", "--previous", &previous])
        .args(scenario)
        .status(2)
        .run();
    let text = common::stdout(&output);
    assert!(
        text.starts_with("- ReplicaSet/default/frontend (item removed)\n")
            && text.contains("\n-    A: 99\n"),
        "{text}"
    );
    let output = Test::new()
        .args(["diff", "-o", "json", "--previous", &previous])
        .args(scenario)
        .status(2)
        .run();
    let changes: serde_json::Value =
        serde_json::from_str(&common::stdout(&output)).expect("diff -o json is JSON");
    assert_eq!(changes["itemsRemoved"][0]["replicas"]["A"], 99, "{changes}");
    assert_eq!(changes.as_object().map(|o| o.len()), Some(1), "{changes}");
}
