//! `fleetplan plan` end to end, through the real binary: the seed's scenarios as golden plans,
//! every replica workload kind, the what-if flags, item errors and atomic output.

use std::fs;
use std::path::Path;

use crate::common::{self, entries, Test};

#[test]
fn seed_scenarios_plan_as_their_golden_files() {
    let root = Path::new("testdata/scenarios");
    let mut dirs: Vec<_> = fs::read_dir(root)
        .expect("testdata/scenarios exists")
        .map(|entry| entry.expect("readable entry").path())
        .collect();
    dirs.sort();
    assert_eq!(dirs.len(), 16, "scenarios 1-7 and their variants");
    for dir in dirs {
        let mut args = vec![
            "plan".to_string(),
            "-o".to_string(),
            "yaml".to_string(),
            "-f".to_string(),
            dir.join("inventory.yaml").display().to_string(),
            "-f".to_string(),
            dir.join("workload.yaml").display().to_string(),
        ];
        let previous = dir.join("previous.yaml");
        if previous.exists() {
            args.push("--previous".to_string());
            args.push(previous.display().to_string());
        }
        // The expected file's leading `#` lines explain the scenario; the rest is the exact
        // output, and blessing keeps the explanation.
        let expected = dir.join("expected.yaml");
        let text = fs::read_to_string(&expected).expect("expected.yaml is readable");
        let explanation: String = text
            .lines()
            .take_while(|line| line.starts_with('#'))
            .map(|line| format!("{line}\n"))
            .collect();
        let output = Test::new().args(args).run();
        common::golden(
            &expected,
            &format!("{explanation}{}", common::stdout(&output)),
        );
    }
}

fn replicas_of(plan_json: &[u8]) -> Vec<(String, serde_json::Value)> {
    let plan: serde_json::Value = serde_json::from_slice(plan_json).expect("plan is JSON");
    plan["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| {
            (
                item["source"]["kind"].as_str().unwrap_or("").to_string(),
                item["replicas"].clone(),
            )
        })
        .collect()
}

#[test]
fn annotated_replica_sets_deployments_and_rsps_plan_alike() {
    let output = Test::new()
        .args(["plan", "-o", "json"])
        .args(["-f", "testdata/scenarios/1a-even/inventory.yaml"])
        .args(["-f", "testdata/plan/same-preferences.yaml"])
        .run();
    let expected = serde_json::json!({"A": 12, "B": 10, "C": 9});
    assert_eq!(
        replicas_of(&output.stdout),
        vec![
            ("Deployment".to_string(), expected.clone()),
            ("ReplicaSet".to_string(), expected.clone()),
            ("ReplicaSchedulingPreference".to_string(), expected),
        ]
    );
}

#[test]
fn capacity_flag_caps_a_cluster_like_the_inventory_does() {
    let from_flag = Test::new()
        .args(["plan", "-o", "yaml", "--capacity", "C=6"])
        .args([
            "-f",
            "testdata/scenarios/1b-even-c-capacity-6/inventory.yaml",
        ])
        .args(["-f", "testdata/scenarios/1a-even/workload.yaml"])
        .run();
    let text = String::from_utf8_lossy(&from_flag.stdout);
    assert!(
        text.contains("  replicas:\n    A: 22\n    B: 22\n    C: 6\n  overflow:\n    C: 11\n"),
        "{text}"
    );
}

#[test]
fn offline_flag_moves_replicas_away() {
    let output = Test::new()
        .args(["plan", "-o", "json", "--offline", "B", "--offline", "C"])
        .args(["-f", "testdata/scenarios/1a-even"])
        .run();
    assert_eq!(
        replicas_of(&output.stdout),
        vec![("ReplicaSet".to_string(), serde_json::json!({"A": 50}))]
    );
}

#[test]
fn previous_plan_keeps_running_replicas_when_rebalance_is_false() {
    let output = Test::new()
        .args(["plan", "-o", "json"])
        .args([
            "-f",
            "testdata/scenarios/7c-keep-a-30-c-capacity-6/inventory.yaml",
        ])
        .args([
            "-f",
            "testdata/scenarios/7c-keep-a-30-c-capacity-6/workload.yaml",
        ])
        .args([
            "--previous",
            "testdata/scenarios/7c-keep-a-30-c-capacity-6/previous.yaml",
        ])
        .run();
    assert_eq!(
        replicas_of(&output.stdout),
        vec![(
            "ReplicaSet".to_string(),
            serde_json::json!({"A": 30, "B": 14, "C": 6})
        )]
    );
}

#[test]
fn unknown_what_if_cluster_is_an_error_with_close_matches() {
    Test::new()
        .args(["plan", "--offline", "aws-eu-west-prod-3"])
        .args(["-f", "testdata/fleet"])
        .stdout("")
        .stderr("error: --offline: no cluster named \"aws-eu-west-prod-3\" in the inventory, did you mean aws-eu-west-prod-1 or aws-eu-west-prod-2?\n")
        .status(1)
        .run();
}

#[test]
fn malformed_preferences_fail_the_item_but_the_plan_is_printed() {
    let output = Test::new()
        .args(["plan", "-o", "yaml"])
        .args(["-f", "testdata/scenarios/1a-even/inventory.yaml"])
        .args(["-f", "testdata/plan/bad-preferences.yaml"])
        .stderr("error: testdata/plan/bad-preferences.yaml#1: ReplicaSet/default/broken: annotation federation.kubernetes.io/replica-set-preferences: at `clusters.*.weight`: invalid type: string \"heavy\", expected i64 at line 1 column 37\n")
        .status(1)
        .run();
    let text = common::stdout(&output);
    assert!(
        text.contains("    name: fine\n  clusters:\n  - A\n  - B\n"),
        "{text}"
    );
    assert!(
        text.contains("    name: broken\n  clusters: []\n  errors:\n"),
        "{text}"
    );
}

#[test]
fn decisions_output_is_placement_decision_objects() {
    let output = Test::new()
        .args(["plan", "-o", "decisions", "--now", "2026-06-01T00:00:00Z"])
        .args(["-f", "testdata/fleet"])
        .run();
    let text = common::stdout(&output);
    let documents: Vec<serde_yaml::Value> = serde_yaml::Deserializer::from_str(&text)
        .map(|document| serde::Deserialize::deserialize(document).expect("valid YAML"))
        .collect();
    assert!(!documents.is_empty());
    for value in documents {
        assert_eq!(
            value["apiVersion"],
            "cluster.open-cluster-management.io/v1beta1"
        );
        assert_eq!(value["kind"], "PlacementDecision");
        let labels = &value["metadata"]["labels"];
        assert!(labels["cluster.open-cluster-management.io/placement"].is_string());
        let decisions = value["status"]["decisions"]
            .as_sequence()
            .expect("decisions");
        assert!(decisions.len() <= 100);
        let names: Vec<&str> = decisions
            .iter()
            .map(|d| d["clusterName"].as_str().expect("clusterName"))
            .collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(names, sorted, "decisions sorted by name");
    }
}

#[test]
fn out_file_is_written_and_a_failed_run_leaves_it_untouched() {
    let dir = common::tempdir();
    let out = dir.path().join("plan.yaml");
    let out_arg = out.display().to_string();
    Test::new()
        .args(["plan", "-o", "yaml", "--out", &out_arg])
        .args(["-f", "testdata/scenarios/1a-even"])
        .stdout("")
        .run();
    let written = fs::read(&out).expect("plan written");
    let printed = Test::new()
        .args(["plan", "-o", "yaml", "-f", "testdata/scenarios/1a-even"])
        .run();
    assert_eq!(
        String::from_utf8_lossy(&written),
        common::stdout(&printed),
        "--out writes what stdout would show"
    );
    Test::new()
        .args(["plan", "-o", "yaml", "--out", &out_arg])
        .args([
            "-f",
            "testdata/scenarios/1a-even",
            "-f",
            "testdata/does-not-exist",
        ])
        .stderr("error: testdata/does-not-exist: no such file or directory\n")
        .status(1)
        .run();
    assert_eq!(fs::read(&out).expect("still there"), written);
}

/// `--out` renames a staged file into place, which replaces the directory entry itself: a
/// symbolic link is followed so it keeps pointing at the plan, and a FIFO (like a device such
/// as /dev/full) is refused, never replaced by a regular file and never opened.
#[cfg(unix)]
#[test]
fn out_writes_through_a_symbolic_link_and_refuses_what_is_not_a_regular_file() {
    let dir = common::tempdir();
    let real = dir.path().join("real.yaml");
    common::write(&real, "old\n");
    std::os::unix::fs::symlink("real.yaml", dir.path().join("link.yaml")).expect("symlink");
    plan_out(dir.path(), "link.yaml")
        .args(["-o", "yaml"])
        .stdout("")
        .run();
    let link = dir.path().join("link.yaml");
    assert!(file_type(&link).is_symlink(), "the link stays");
    assert!(fs::read_to_string(&real)
        .expect("real")
        .contains("kind: Plan"));

    let fifo = dir.path().join("pipe.yaml");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    plan_out(dir.path(), "pipe.yaml")
        .stderr(
            "error: pipe.yaml: not a regular file (a device, FIFO or socket): --out replaces a \
             regular file (without --out the output goes to standard output)\n",
        )
        .status(1)
        .within(60)
        .run();
    use std::os::unix::fs::FileTypeExt;
    assert!(file_type(&fifo).is_fifo(), "still a FIFO");
    assert_eq!(
        entries(dir.path()),
        ["link.yaml", "pipe.yaml", "real.yaml"],
        "nothing staged is left"
    );
}

/// A dangling symbolic link is written through as `>` and `cp` would: its target is created
/// (staged beside it and renamed, so never half-written) and the link stays. A link whose
/// target's directory is missing, or a loop of links, is an error naming the link, and
/// nothing is written anywhere.
#[cfg(unix)]
#[test]
fn out_through_a_dangling_symbolic_link_creates_its_target() {
    let dir = common::tempdir();
    fs::create_dir(dir.path().join("plans")).expect("plans");
    let link = |target: &str, name: &str| {
        std::os::unix::fs::symlink(target, dir.path().join(name)).expect("symlink");
    };
    // A chain: a link to a link in another directory, relative to that directory.
    link("plans/next.yaml", "plan.yaml");
    link("../plans/prod.yaml", "plans/next.yaml");
    link("missing/prod.yaml", "nowhere.yaml");
    link("loop-b.yaml", "loop-a.yaml");
    link("loop-a.yaml", "loop-b.yaml");
    plan_out(dir.path(), "plan.yaml")
        .args(["-o", "yaml"])
        .stdout("")
        .run();
    assert!(
        file_type(&dir.path().join("plan.yaml")).is_symlink(),
        "the link stays"
    );
    let written = fs::read_to_string(dir.path().join("plans/prod.yaml")).expect("created");
    assert!(written.contains("kind: Plan"), "{written}");
    assert_eq!(
        entries(&dir.path().join("plans")),
        ["next.yaml", "prod.yaml"]
    );

    for (out, message) in [
        (
            "nowhere.yaml",
            "a symbolic link to missing/prod.yaml, whose directory does not exist",
        ),
        (
            "loop-a.yaml",
            "more than 40 symbolic links in a chain (a loop?)",
        ),
    ] {
        plan_out(dir.path(), out)
            .stderr(format!("error: {out}: {message}\n"))
            .status(1)
            .run();
    }
    assert_eq!(
        entries(dir.path()),
        [
            "loop-a.yaml",
            "loop-b.yaml",
            "nowhere.yaml",
            "plan.yaml",
            "plans"
        ],
        "nothing staged is left"
    );
}

/// `fleetplan plan --out OUT -f <scenario 1a>` run in `dir`, where `out` is relative to it.
#[cfg(unix)]
fn plan_out(dir: &Path, out: &str) -> Test {
    Test::new()
        .current_dir(dir)
        .args(["plan", "--out", out])
        .args(["-f", &even_fleet()])
}

/// The absolute path of scenario 1a, for runs in a temporary directory.
fn even_fleet() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/scenarios/1a-even")
        .display()
        .to_string()
}

/// What is at `path` itself: a symbolic link is not followed.
fn file_type(path: &Path) -> fs::FileType {
    fs::symlink_metadata(path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
        .file_type()
}

/// What a `plan --out` killed by SIGKILL leaves behind: its staged file, named for the process
/// (one that no longer runs: above Linux's largest process id) and the target.
#[test]
fn out_removes_what_a_killed_run_staged_for_the_same_target() {
    let dir = common::tempdir();
    let stale = dir.path().join(".fleetplan-tmp-99999999-plan.yaml");
    let other_target = dir.path().join(".fleetplan-tmp-99999999-other.yaml");
    let not_ours = dir.path().join(".plan.yaml.99999999.tmp");
    for path in [&stale, &other_target, &not_ours] {
        fs::write(path, "partial plan").expect("written");
    }
    Test::new()
        .args(["plan", "-o", "yaml", "--out"])
        .arg(dir.path().join("plan.yaml").display().to_string())
        .args(["-f", "testdata/scenarios/1a-even"])
        .run();
    assert_eq!(
        entries(dir.path()),
        [
            ".fleetplan-tmp-99999999-other.yaml",
            ".plan.yaml.99999999.tmp",
            "plan.yaml"
        ]
    );
}

#[test]
fn a_clusterset_of_an_unknown_selector_type_fails_the_placement_that_uses_it() {
    let output = Test::new()
        .args(["plan", "-o", "yaml", "-f", "testdata/plan/unknown-selector-type.yaml"])
        .stderr("error: testdata/plan/unknown-selector-type.yaml#4: Placement/ns/p: clusterset nope: selectorType \"Nope\" is not ExclusiveClusterSetLabel or LabelSelector\n")
        .status(1)
        .run();
    let text = common::stdout(&output);
    assert!(text.contains("  clusters: []\n"), "{text}");
    // The hub's sync fails before scheduling and writes nothing: no group, no condition.
    assert!(!text.contains("groups:"), "{text}");
    assert!(!text.contains("conditions:"), "{text}");
}

/// The head of every `-o decisions` stream: decisions are in the status subresource.
fn decisions_header() -> String {
    let output = Test::new()
        .args([
            "plan",
            "-o",
            "decisions",
            "-f",
            "testdata/scenarios/1a-even",
        ])
        .run();
    let text = common::stdout(&output);
    text.lines()
        .take_while(|line| line.starts_with('#'))
        .map(|line| format!("{line}\n"))
        .collect()
}

/// When upstream's sync fails before scheduling (here a set's LabelSelector cannot be built;
/// above, an unknown selector type) the hub keeps its decisions: fleetplan writes none for
/// that placement, and an empty one, applied, would wipe them. Other placements are written.
#[test]
fn a_placement_whose_sync_fails_gets_no_placement_decision() {
    // Each file's placement ns/p fails; broken-selector.yaml also has a good placement.
    for (file, written) in [
        ("testdata/plan/broken-selector.yaml", 1),
        ("testdata/plan/unknown-selector-type.yaml", 0),
    ] {
        let output = Test::new()
            .args(["plan", "-o", "decisions", "-f", file])
            .stderr_contains("Placement/ns/p: clusterset ")
            .status(1)
            .run();
        let text = common::stdout(&output);
        assert!(text.starts_with(&decisions_header()), "{text}");
        assert!(!text.contains("namespace: ns\n"), "{text}");
        let good = "  name: p-decision-1\n  namespace: good\n";
        assert_eq!(text.matches(good).count(), written, "{text}");
    }
}

/// A plain `kubectl apply` drops a PlacementDecision's status: the output says so at its head
/// with the commands that write it, and docs/formats.md gives the same commands.
#[test]
fn decisions_output_names_the_commands_that_write_status() {
    let header = decisions_header();
    assert!(header.contains("a plain `kubectl apply` drops"), "{header}");
    let commands: Vec<&str> = header
        .lines()
        .filter_map(|line| line.strip_prefix("#   "))
        .collect();
    assert_eq!(commands.len(), 3, "{header}");
    let formats = fs::read_to_string("docs/formats.md").expect("docs/formats.md is readable");
    for command in &commands {
        let command = command.split("    #").next().unwrap_or(command).trim_end();
        assert!(
            formats.contains(command),
            "docs/formats.md lacks {command:?}"
        );
        // Each writes status through the subresource, or creates the objects first.
        assert!(
            command.contains("--subresource=status") || command.ends_with("-f decisions.yaml"),
            "{command}"
        );
    }
}

#[test]
fn a_mapping_of_the_wrong_type_names_the_field_not_a_rust_type() {
    Test::new()
        .args(["plan", "-f", "-"])
        .stdin("apiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSet\nmetadata: {name: bad}\nspec: {clusterSelector: 5}\n")
        .stdout("")
        .stderr("error: <stdin>#1: ManagedClusterSet/bad: spec.clusterSelector: invalid type: integer `5`, expected a mapping\n")
        .status(1)
        .run();
}

fn item<'v>(plan: &'v serde_json::Value, kind: &str, name: &str) -> &'v serde_json::Value {
    plan["items"]
        .as_array()
        .and_then(|items| {
            items
                .iter()
                .find(|item| item["source"]["kind"] == kind && item["source"]["name"] == name)
        })
        .unwrap_or_else(|| panic!("no {kind}/{name} in the plan"))
}

#[test]
fn an_rsp_intersecting_with_its_target_uses_only_the_targets_clusters() {
    let output = Test::new()
        .args(["plan", "-o", "json", "-f", "testdata/fleet"])
        .args(["--now", "2026-06-01T00:00:00Z"])
        .run();
    let plan: serde_json::Value = serde_json::from_slice(&output.stdout).expect("plan is JSON");
    let target = item(&plan, "FederatedDeployment", "catalog");
    let rsp = item(&plan, "ReplicaSchedulingPreference", "catalog");
    assert_eq!(rsp["clusters"], target["clusters"]);
    assert_eq!(
        target["clusters"],
        serde_json::json!([
            "azure-ap-south-prod-1",
            "azure-eu-west-prod-1",
            "gcp-ap-south-prod-1",
            "gcp-eu-central-prod-1",
            "gcp-us-east-prod-1"
        ])
    );
}

#[test]
fn an_rsp_intersecting_with_a_missing_target_is_an_item_error() {
    Test::new()
        .args(["plan", "-o", "name", "-f", "testdata/scenarios/1a-even/inventory.yaml", "-f", "-"])
        .stdin("apiVersion: scheduling.kubefed.io/v1alpha1\nkind: ReplicaSchedulingPreference\nmetadata: {name: web, namespace: shop}\nspec: {targetKind: FederatedDeployment, totalReplicas: 3, intersectWithClusterSelector: true}\n")
        .stdout("ReplicaSchedulingPreference/shop/web\n")
        .stderr("error: <stdin>#1: ReplicaSchedulingPreference/shop/web: intersectWithClusterSelector: target FederatedDeployment/shop/web not found in the inputs\n")
        .status(1)
        .run();
}

/// `-n NS` on every subcommand that reads manifests: objects without a namespace are in NS
/// (kubectl's meaning), inputs and `--previous` alike; without it they are in `default`.
#[test]
fn n_names_the_namespace_of_objects_without_one_in_every_subcommand() {
    let inputs = [
        "-f",
        "testdata/fleet",
        "-f",
        "testdata/namespace/placement.yaml",
    ];
    Test::new()
        .arg("plan")
        .args(inputs)
        .args(["-n", "policies", "-o", "name"])
        .stdout(
            "ConfigMap/shop/shop-settings\nDeployment/shop/checkout\nReplicaSet/shop/frontend\n\
             PlacementRule/shop/legacy-reports\nPlacement/ci/canary-rollout\n\
             Placement/policies/prod\nPlacement/shop/gpu-batch\nPlacement/shop/storefront\n\
             ReplicaSchedulingPreference/shop/catalog\nFederatedConfigMap/shop/catalog-flags\n\
             FederatedDeployment/shop/catalog\n",
        )
        .run();
    Test::new()
        .arg("explain")
        .args(inputs)
        .args(["--namespace", "policies", "placement/policies/prod"])
        .stderr_contains("")
        .run();
    Test::new()
        .arg("check")
        .args(inputs)
        .args(["-n", "policies"])
        .stdout("11 items checked, all satisfied\n")
        .run();
    // The exported decision has no namespace: with -n it is the Placement's, and one cluster
    // more is selected now; without -n it is another namespace's, so nothing is compared.
    let previous = ["--previous", "testdata/namespace/decisions.yaml"];
    let diff = Test::new()
        .arg("diff")
        .args(inputs)
        .args(previous)
        .args(["-n", "policies"])
        .status(2)
        .run();
    let text = String::from_utf8_lossy(&diff.stdout);
    assert!(text.contains("Placement/policies/prod"), "{text}");
    assert!(text.contains("+ cluster gcp-eu-central-prod-1"), "{text}");
    assert!(!text.contains("+ cluster aws-eu-west-prod-1"), "{text}");
}

/// PlacementDecisions always name the namespace they were planned for (docs/formats.md,
/// "Namespaces of written objects"): a namespace-less Placement's are in `default`, or in the
/// `-n` namespace, never left without one like migrate's output.
#[test]
fn decisions_of_a_namespace_less_placement_are_in_the_namespace_it_was_planned_in() {
    for (flags, expected) in [(&[][..], "default"), (&["-n", "team"][..], "team")] {
        let output = Test::new()
            .args([
                "plan",
                "-o",
                "decisions",
                "-f",
                "testdata/fleet/inventory.yaml",
            ])
            .args(["-f", "testdata/namespace/placement.yaml"])
            .args(flags.iter().copied())
            .run();
        let text = String::from_utf8_lossy(&output.stdout);
        let namespaces: Vec<&str> = text
            .lines()
            .filter_map(|line| line.strip_prefix("  namespace: "))
            .collect();
        assert_eq!(namespaces, [expected], "{text}");
    }
}

/// The example fleet's clusters with the labelled Placements of testdata/ci/labelled.
fn labelled(args: &[&str]) -> Test {
    Test::new()
        .args(["plan", "-f", "testdata/fleet/inventory.yaml"])
        .args([
            "-f",
            "testdata/fleet/clustersets.yaml",
            "-f",
            "testdata/ci/labelled",
        ])
        .args(["--now", "2026-03-01T00:00:00Z", "-o", "name"])
        .args(args.iter().copied())
}

#[test]
fn item_arguments_plan_only_those_items_in_plan_order() {
    labelled(&[
        "placement/shop/web-eu",
        "shop/data",
        "placements/shop/web-eu",
    ])
    .stdout("Placement/shop/data\nPlacement/shop/web-eu\n")
    .run();
}

#[test]
fn an_item_argument_that_names_nothing_is_an_error() {
    labelled(&["placement/shop/web"])
        .status(1)
        .stderr(
            "error: no item \"placement/shop/web\" in the inputs, did you mean \
             placement/shop/web-eu?\n",
        )
        .run();
}

#[test]
fn selector_plans_the_workloads_whose_labels_match() {
    labelled(&["-l", "team=web"])
        .stdout("Placement/shop/web-eu\nPlacement/shop/web-everywhere\n")
        .run();
    labelled(&["--selector", "tier in (frontend),team!=data"])
        .stdout("Placement/shop/web-eu\n")
        .run();
    labelled(&["-l", "!tier"])
        .stdout("Placement/shop/data\n")
        .run();
}

#[test]
fn a_selector_that_matches_nothing_is_an_error() {
    labelled(&["-l", "team=ops"])
        .status(1)
        .stderr("error: -l \"team=ops\": no workload in the inputs has matching labels\n")
        .run();
}

#[test]
fn a_selector_that_does_not_parse_names_the_flag() {
    labelled(&["-l", "team in ("])
        .status(1)
        .stderr_contains("error: -l: unable to parse requirement")
        .run();
}

#[test]
fn item_arguments_and_a_selector_together_are_refused() {
    labelled(&["data", "-l", "team=web"])
        .status(1)
        .stderr_contains("cannot be used with")
        .run();
}

/// A condition message quotes the Placement's cluster set names, which the CRD does not
/// bound: each is cut as every echoed value is (a 50 MB name was printed whole).
#[test]
fn a_huge_cluster_set_name_is_cut_in_the_condition_message() {
    let name = "v".repeat(100_000);
    let input = format!(
        "{}---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {{name: p, namespace: ns}}
spec:
  clusterSets: [{name}, small]
",
        common::ONE_BOUND_CLUSTER
    );
    let expected = format!(
        "NoIntersection: None of ManagedClusterSets [{}... (100000 bytes),small] is bound to placement namespace",
        "v".repeat(64)
    );
    let output = Test::new().args(["plan", "-f", "-"]).stdin(input).run();
    let stdout = common::stdout(&output);
    assert!(
        stdout.contains(&expected),
        "{}",
        &stdout[..stdout.len().min(2000)]
    );
    assert!(stdout.len() < 10_000, "printed {} bytes", stdout.len());
}

/// An inventory alone plans nothing: the table says so on stderr instead of printing
/// nothing, and the JSON plan carries its empty item list.
#[test]
fn an_inventory_alone_says_nothing_was_planned() {
    Test::new()
        .args(["plan", "-f", "testdata/fleet/inventory.yaml"])
        .stdout("")
        .stderr(
            "no items planned: the inputs hold no Placement, PlacementRule, \
             ReplicaSchedulingPreference, Federated object, object with a placement annotation, \
             object of a kind a Karmada policy selects, ClusterResourcePlacement or \
             ResourcePlacement\n",
        )
        .run();
    Test::new()
        .args(["plan", "-f", "testdata/fleet/inventory.yaml", "-o", "json"])
        .stdout("{\n  \"apiVersion\": \"fleetplan.io/v1alpha1\",\n  \"kind\": \"Plan\",\n  \"items\": []\n}\n")
        .run();
}

#[test]
fn a_negative_number_of_clusters_is_refused_as_the_controller_would_panic() {
    Test::new()
        .args(["plan", "-f", "testdata/fleet/inventory.yaml", "-f", "-"])
        .stdin("apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\nmetadata:\n  name: web\n  namespace: default\nspec:\n  numberOfClusters: -1\n")
        .stderr("error: <stdin>#1: Placement/default/web: spec.numberOfClusters: expected a count of 0 or more, found -1: the placement controller panics on a negative numberOfClusters\n")
        .status(1)
        .run();
}

// ---- streamed output ----

/// A fleet whose plan outgrows a pipe's buffer (64 KiB on Linux) many times over: 200
/// clusters, 200 ConfigMaps each placed on all of them (about 1.6 MB of plan JSON).
fn large_fleet(dir: &Path) {
    let clusters: String = (0..200)
        .map(|n| format!("  - name: cluster-{n:03}-eu-west-prod\n    labels: {{env: prod}}\n"))
        .collect();
    common::write(
        &dir.join("inventory.yaml"),
        &format!(
            "apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\n\
             metadata:\n  name: large\nclusters:\n{clusters}"
        ),
    );
    let workloads: String = (0..200)
        .map(|n| {
            format!(
                "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings-{n:03}\n  \
                 namespace: shop\n  annotations:\n    \
                 federation.alpha.kubernetes.io/cluster-selector: \
                 '[{{\"key\": \"env\", \"operator\": \"In\", \"values\": [\"prod\"]}}]'\n"
            )
        })
        .collect();
    common::write(&dir.join("workloads.yaml"), &workloads);
}

/// `fleetplan plan -o json | head -c 100`: the reader goes away while the plan is streamed;
/// the run stops writing and ends quietly (nothing on stderr: no panic, no backtrace) with the
/// run's verdict: 0 for a plan, 2 for a `diff` that found changes (every item is new against
/// an empty previous plan, 1.5 MB of change set).
#[test]
fn a_closed_stdout_pipe_ends_the_output_quietly() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let dir = common::tempdir();
    large_fleet(dir.path());
    let empty = dir.path().join("empty-plan.yaml");
    common::write(
        &empty,
        "apiVersion: fleetplan.io/v1alpha1\nkind: Plan\nitems: []\n",
    );
    let fleet = dir.path().join("fleet");
    std::fs::create_dir(&fleet).expect("fleet dir");
    for file in ["inventory.yaml", "workloads.yaml"] {
        std::fs::rename(dir.path().join(file), fleet.join(file)).expect("moved");
    }
    let fleet = fleet.display().to_string();
    let empty = empty.display().to_string();
    let mut runs: Vec<(Vec<&str>, i32)> = ["json", "yaml", "table", "name"]
        .into_iter()
        .map(|format| (vec!["plan", "-o", format, "-f", &fleet], 0))
        .collect();
    runs.push((
        vec!["diff", "-o", "json", "-f", &fleet, "--previous", &empty],
        2,
    ));
    for (args, status) in runs {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fleetplan"))
            .args(&args)
            .env("RUST_BACKTRACE", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("fleetplan runs");
        let mut head = [0; 100];
        let mut stdout = child.stdout.take().expect("stdout is piped");
        stdout.read_exact(&mut head).expect("100 bytes of output");
        drop(stdout);
        let output = child.wait_with_output().expect("fleetplan ends");
        assert_eq!(String::from_utf8_lossy(&output.stderr), "", "{args:?}");
        assert_eq!(output.status.code(), Some(status), "{args:?}");
    }
}

/// A disk that fills up while the plan is streamed to `--out` (here a file size limit, which
/// fails the write with EFBIG after 32 KiB of 1.6 MB): exit 1 with the reason, the previous
/// file as it was, no staged file left, and no file at all where there was none.
#[cfg(unix)]
#[test]
fn out_that_fails_midway_leaves_the_previous_file_and_nothing_else() {
    use std::process::Command;
    let fleet = common::tempdir();
    large_fleet(fleet.path());
    let dir = common::tempdir();
    let old = dir.path().join("old.json");
    common::write(&old, "the last good plan\n");
    for out in [old.clone(), dir.path().join("new.json")] {
        // Ignoring SIGXFSZ makes the write fail instead of killing the process; both the
        // disposition and the limit carry over exec.
        let output = Command::new("sh")
            .args(["-c", "trap '' XFSZ; ulimit -f 64; exec \"$0\" \"$@\""])
            .arg(env!("CARGO_BIN_EXE_fleetplan"))
            .args(["plan", "-o", "json", "-f"])
            .arg(fleet.path())
            .arg("--out")
            .arg(&out)
            .output()
            .expect("sh runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("File too large"), "{stderr}");
        assert_eq!(output.stdout, b"");
    }
    assert_eq!(
        fs::read_to_string(&old).expect("still there"),
        "the last good plan\n"
    );
    assert_eq!(entries(dir.path()), ["old.json"]);
}

/// A Placement scored by a resource prioritizer, over an inventory in name order (its
/// feasible clusters then come off a bitset, and the order is made from the clusters grouped
/// by allocatable amount) and over the same inventory in another order (each cluster scored
/// one by one): the same clusters, scores and ranks. Two amounts whose scores truncate alike
/// tie, and tie with a cluster that reports no amount (it scores nothing); `numberOfClusters`
/// cuts through that tie by name.
#[test]
fn a_resource_prioritizer_ranks_alike_whatever_the_inventory_order() {
    // (name, allocatable cpu): 20 and 20.05 both score 0 between 8 and 32; a first plan's
    // Balance adds 100 and Steady 0, the prioritizer twice its score.
    let clusters = [
        ("c-01", Some("8")),
        ("c-02", Some("32")),
        ("c-03", None),
        ("c-04", Some("32")),
        ("c-05", Some("16")),
        ("c-06", Some("20")),
        ("c-07", Some("20050m")),
        ("c-08", Some("8")),
    ];
    let entry = |(name, cpu): &(&str, Option<&str>)| {
        match cpu {
        Some(cpu) => format!(
            "  - {{name: {name}, labels: {{env: prod}}, sets: [prod], allocatable: {{cpu: \"{cpu}\"}}, resourceCapacity: {{cpu: \"64\"}}}}\n"
        ),
        None => format!("  - {{name: {name}, labels: {{env: prod}}, sets: [prod]}}\n"),
    }
    };
    let placement = |name: &str, count: &str| {
        format!(
            "---\napiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\nmetadata: {{name: {name}, namespace: shop}}\nspec:\n  {count}predicates:\n    - requiredClusterSelector:\n        labelSelector:\n          matchExpressions: [{{key: env, operator: In, values: [prod]}}]\n  prioritizerPolicy:\n    configurations:\n      - {{scoreCoordinate: {{builtIn: ResourceAllocatableCPU}}, weight: 2}}\n"
        )
    };
    let rest = [
        "---\napiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSet\nmetadata: {name: prod}\nspec: {clusterSelector: {selectorType: ExclusiveClusterSetLabel}}\n".to_string(),
        "---\napiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSetBinding\nmetadata: {name: prod, namespace: shop}\nspec: {clusterSet: prod}\n".to_string(),
        placement("head", "numberOfClusters: 4\n  "),
        placement("whole", ""),
    ]
    .concat();
    let inventory = |entries: Vec<String>| {
        format!(
            "apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\nmetadata: {{name: fleet}}\nclusters:\n{}{rest}",
            entries.concat()
        )
    };
    let in_name_order = inventory(clusters.iter().map(entry).collect());
    let reversed = inventory(clusters.iter().rev().map(entry).collect());
    let expected = "\
Placement/shop/head (cluster.open-cluster-management.io/v1beta1): 4 clusters
  CLUSTER   SCORE   RANK   GROUP   DECISION
  c-02      300     1      0       head-decision-1
  c-03      100     3      0       head-decision-1
  c-04      300     2      0       head-decision-1
  c-06      100     4      0       head-decision-1

Placement/shop/whole (cluster.open-cluster-management.io/v1beta1): 8 clusters
  CLUSTER   SCORE   RANK   GROUP   DECISION
  c-01      -100    7      0       whole-decision-1
  c-02      300     1      0       whole-decision-1
  c-03      100     3      0       whole-decision-1
  c-04      300     2      0       whole-decision-1
  c-05      34      6      0       whole-decision-1
  c-06      100     4      0       whole-decision-1
  c-07      100     5      0       whole-decision-1
  c-08      -100    8      0       whole-decision-1
";
    for stdin in [in_name_order, reversed] {
        Test::new()
            .args(["plan", "-f", "-", "--now", "2026-06-01T00:00:00Z"])
            .stdin(stdin)
            .stdout(expected)
            .run();
    }
}
