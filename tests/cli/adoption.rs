//! Adopting fleetplan as a CI gate (issue 26), in a temporary repository laid out as a team's
//! would be: `clusters/` (the hub's inventory), `apps/` (the team's Placements), `vendor/`
//! (what a generator rendered), and at its root a `.git` directory.

use std::fs;
use std::path::Path;

use crate::common::{self, Test};

/// Two available clusters in the set `prod`, bound to the namespace `apps`, as
/// `kubectl get managedclusters,managedclustersets,managedclustersetbindings -A -o yaml`
/// exports them (trimmed).
const HUB: &str = "apiVersion: cluster.open-cluster-management.io/v1
kind: ManagedCluster
metadata:
  name: east-1
  labels: {cluster.open-cluster-management.io/clusterset: prod, region: east}
spec: {hubAcceptsClient: true}
status:
  conditions:
    - {type: ManagedClusterConditionAvailable, status: 'True', reason: ManagedClusterAvailable}
---
apiVersion: cluster.open-cluster-management.io/v1
kind: ManagedCluster
metadata:
  name: west-1
  labels: {cluster.open-cluster-management.io/clusterset: prod, region: west}
spec: {hubAcceptsClient: true}
status:
  conditions:
    - {type: ManagedClusterConditionAvailable, status: 'True', reason: ManagedClusterAvailable}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSet
metadata: {name: prod}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSetBinding
metadata: {name: prod, namespace: apps}
spec: {clusterSet: prod}
";

/// A Placement both clusters satisfy.
const STOREFRONT: &str = "apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata:
  name: storefront
  namespace: apps
spec:
  numberOfClusters: 2
";

/// A team's repository: the hub in `clusters/`, the storefront Placement in `apps/`, an
/// empty `vendor/` and a `.git` directory at the root.
fn team_repo() -> tempfile::TempDir {
    let repo = common::tempdir();
    for dir in [".git", "clusters", "apps/shop", "vendor"] {
        fs::create_dir_all(repo.path().join(dir)).unwrap_or_else(|e| panic!("{dir}: {e}"));
    }
    put(repo.path(), "clusters/hub.yaml", HUB);
    put(repo.path(), "apps/shop/placement.yaml", STOREFRONT);
    repo
}

/// Writes `text` at `path` in the repository, making its directories.
fn put(repo: &Path, path: &str, text: &str) {
    let path = repo.join(path);
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    common::write(&path, text);
}

/// `fleetplan ARGS` run at the repository's root.
fn fleetplan(repo: &Path, args: &[&str]) -> Test {
    Test::new().current_dir(repo).args(args.iter().copied())
}

// ---- Duplicates ----

#[test]
fn the_same_object_twice_is_a_warning_naming_both_places() {
    let repo = team_repo();
    // A generator's output beside its input: the same Placement, written as JSON.
    put(
        repo.path(),
        "vendor/generated.json",
        r#"{"kind": "Placement", "apiVersion": "cluster.open-cluster-management.io/v1beta1",
 "spec": {"numberOfClusters": 2}, "metadata": {"namespace": "apps", "name": "storefront"}}"#,
    );
    fleetplan(
        repo.path(),
        &["check", "-f", "clusters", "-f", "apps", "-f", "vendor"],
    )
    .stdout("1 item checked, all satisfied\n")
    .stderr(
        "warning: vendor/generated.json#1: Placement/apps/storefront: the same object as \
             at apps/shop/placement.yaml#1, read once\n",
    )
    .run();
}

#[test]
fn differing_duplicates_stay_an_error() {
    let repo = team_repo();
    put(
        repo.path(),
        "vendor/generated.yaml",
        &STOREFRONT.replace("numberOfClusters: 2", "numberOfClusters: 1"),
    );
    fleetplan(
        repo.path(),
        &["check", "-f", "clusters", "-f", "apps", "-f", "vendor"],
    )
    .stdout(
        "error: vendor/generated.yaml#1: line 1: Placement/apps/storefront: duplicate, first \
             defined at apps/shop/placement.yaml#1\n1 item checked: 1 error\n",
    )
    .status(1)
    .run();
}

#[test]
fn the_same_clusters_twice_are_read_once() {
    let repo = team_repo();
    put(repo.path(), "vendor/hub-copy.yaml", HUB);
    fleetplan(repo.path(), &["check", "-f", "clusters", "-f", "apps", "-f", "vendor"])
        .stdout("1 item checked, all satisfied\n")
        .stderr(
            "warning: vendor/hub-copy.yaml#1: cluster east-1: the same object as at clusters/hub.yaml#1, read once
warning: vendor/hub-copy.yaml#2: cluster west-1: the same object as at clusters/hub.yaml#2, read once
warning: vendor/hub-copy.yaml#3: ManagedClusterSet/prod: the same object as at clusters/hub.yaml#3, read once
warning: vendor/hub-copy.yaml#4: ManagedClusterSetBinding/apps/prod: the same object as at clusters/hub.yaml#4, read once
",
        )
        .run();
}

// ---- No silent plan ----

/// What `plan` and `explain` say when the inventory was left out of `-f`.
const NO_CLUSTERS_TO_PLAN: &str = "error: no clusters in the inputs: placements cannot be \
     evaluated without an inventory (ClusterInventory, ManagedCluster, KubeFedCluster, \
     federation Cluster, Karmada Cluster or KubeFleet MemberCluster objects); add it with -f; \
     to validate the manifests \
     alone, run `fleetplan check --manifests-only`\n";

#[test]
fn plan_without_clusters_fails_as_check_does() {
    let repo = team_repo();
    for format in ["table", "yaml", "decisions"] {
        fleetplan(repo.path(), &["plan", "-f", "apps", "-o", format])
            .stdout("")
            .stderr(NO_CLUSTERS_TO_PLAN)
            .status(1)
            .run();
    }
}

#[test]
fn explain_without_clusters_fails_as_check_does() {
    let repo = team_repo();
    fleetplan(repo.path(), &["explain", "-f", "apps", "apps/storefront"])
        .stdout("")
        .stderr(NO_CLUSTERS_TO_PLAN)
        .status(1)
        .run();
}

#[test]
fn manifests_only_still_validates_the_manifests_alone() {
    let repo = team_repo();
    fleetplan(repo.path(), &["check", "-f", "apps", "--manifests-only"])
        .stdout("1 item validated, placements were not evaluated (--manifests-only)\n")
        .run();
}

// ---- Hints that name the fix ----

#[test]
fn a_placement_read_into_the_default_namespace_says_so_and_names_dash_n() {
    let repo = team_repo();
    put(
        repo.path(),
        "apps/shop/placement.yaml",
        &STOREFRONT.replace("  namespace: apps\n", ""),
    );
    fleetplan(repo.path(), &["check", "-f", "clusters", "-f", "apps"])
        .stdout(
            "unsatisfied: apps/shop/placement.yaml#1: line 1: Placement/default/storefront: \
             NoManagedClusterSetBindings: No valid ManagedClusterSetBindings found in placement \
             namespace (hint: it has no metadata.namespace and no -n was given, so it was read \
             into namespace default: set metadata.namespace, or pass -n NAMESPACE; a \
             ManagedClusterSetBinding default/prod with spec.clusterSet: prod would bind the \
             set prod to namespace default)\n\
             1 item checked: 1 unsatisfied\n",
        )
        .status(3)
        .run();
    // With -n the namespace is the one asked for, and the Placement is satisfied there.
    fleetplan(
        repo.path(),
        &["check", "-f", "clusters", "-f", "apps", "-n", "apps"],
    )
    .stdout("1 item checked, all satisfied\n")
    .run();
}

#[test]
fn no_bindings_names_the_binding_that_would_fix_it() {
    let repo = team_repo();
    put(
        repo.path(),
        "apps/shop/placement.yaml",
        &STOREFRONT.replace("namespace: apps", "namespace: web"),
    );
    let output = fleetplan(
        repo.path(),
        &["check", "-f", "clusters", "-f", "apps", "-o", "json"],
    )
    .status(3)
    .run();
    let report: serde_json::Value =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        report["unsatisfied"][0]["hint"],
        "a ManagedClusterSetBinding web/prod with spec.clusterSet: prod would bind the set prod \
         to namespace web"
    );
}

#[test]
fn an_empty_cluster_set_names_the_label_that_makes_a_member() {
    let repo = team_repo();
    put(
        repo.path(),
        "clusters/canary.yaml",
        "apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSet
metadata: {name: canary}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSetBinding
metadata: {name: canary, namespace: apps}
spec: {clusterSet: canary}
",
    );
    put(
        repo.path(),
        "apps/shop/placement.yaml",
        &format!("{STOREFRONT}  clusterSets: [canary]\n"),
    );
    fleetplan(
        repo.path(),
        &["check", "-f", "clusters", "-f", "apps", "-o", "github"],
    )
    .stdout(
        "::warning file=apps/shop/placement.yaml,line=1::Placement/apps/storefront: \
             AllManagedClusterSetsEmpty: All ManagedClusterSets [canary] have no member \
             ManagedCluster (hint: a ManagedCluster is a member of the set canary when it has \
             the label cluster.open-cluster-management.io/clusterset=canary)\n\
             1 item checked: 1 unsatisfied\n",
    )
    .status(3)
    .run();
}

// ---- Baseline ----

/// A Placement that asks for more clusters than the fleet has: unsatisfied before any change.
const LEGACY: &str = "apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata:
  name: legacy
  namespace: apps
spec:
  numberOfClusters: 3
";

/// The team repository with the legacy Placement, its findings recorded in `baseline.yaml`.
fn repo_with_baseline() -> tempfile::TempDir {
    let repo = team_repo();
    put(repo.path(), "apps/legacy/placement.yaml", LEGACY);
    fleetplan(
        repo.path(),
        &[
            "check",
            "-f",
            "clusters",
            "-f",
            "apps",
            "--write-baseline",
            "baseline.yaml",
        ],
    )
    .stdout("baseline.yaml: baseline of 1 finding written (2 items checked)\n")
    .run();
    repo
}

#[test]
fn a_written_baseline_is_sorted_reviewable_yaml_without_lines() {
    let repo = repo_with_baseline();
    let text = fs::read_to_string(repo.path().join("baseline.yaml")).unwrap_or_default();
    assert_eq!(
        text,
        "# Findings `fleetplan check --baseline` reports as known: they do not fail the run.
# Written by `fleetplan check --write-baseline`; an entry is an object (or a file) and the
# kind of finding, never a line. Regenerate it to accept the current findings.
apiVersion: fleetplan.io/v1alpha1
kind: CheckBaseline
findings:
- object: Placement/apps/legacy
  rule: unsatisfied
  condition: PlacementSatisfied
  reason: NotAllDecisionsScheduled
"
    );
}

#[test]
fn known_findings_do_not_fail_the_gate_and_new_ones_do() {
    let repo = repo_with_baseline();
    let check = [
        "check",
        "-f",
        "clusters",
        "-f",
        "apps",
        "--baseline",
        "baseline.yaml",
    ];
    fleetplan(repo.path(), &check)
        .stdout("2 items checked: no new findings; 1 known (baseline), 0 resolved\n")
        .run();
    // Lines moved by an edit elsewhere in the file do not make the known finding new; a new
    // Placement that cannot be satisfied is new.
    put(
        repo.path(),
        "apps/legacy/placement.yaml",
        &format!(
            "# Owned by the legacy team.\n\n{LEGACY}---\n{}",
            LEGACY.replace("legacy", "fresh")
        ),
    );
    fleetplan(repo.path(), &check)
        .stdout(
            "unsatisfied: apps/legacy/placement.yaml#2: line 11: Placement/apps/fresh: \
             NotAllDecisionsScheduled: 1 cluster decisions unscheduled\n\
             3 items checked: 1 new unsatisfied; 1 known (baseline), 0 resolved\n",
        )
        .status(3)
        .run();
}

#[test]
fn baseline_entries_no_longer_found_are_resolved() {
    let repo = repo_with_baseline();
    put(
        repo.path(),
        "apps/legacy/placement.yaml",
        &LEGACY.replace("numberOfClusters: 3", "numberOfClusters: 2"),
    );
    fleetplan(
        repo.path(),
        &[
            "check",
            "-f",
            "clusters",
            "-f",
            "apps",
            "--baseline",
            "baseline.yaml",
        ],
    )
    .stdout(
        "resolved: Placement/apps/legacy: unsatisfied: PlacementSatisfied: \
             NotAllDecisionsScheduled: in the baseline, no longer found\n\
             2 items checked, all satisfied; 0 known (baseline), 1 resolved\n",
    )
    .run();
}

#[test]
fn machine_formats_say_which_findings_are_new() {
    let repo = repo_with_baseline();
    put(
        repo.path(),
        "apps/fresh.yaml",
        &LEGACY.replace("legacy", "fresh"),
    );
    let check = [
        "check",
        "-f",
        "clusters",
        "-f",
        "apps",
        "--baseline",
        "baseline.yaml",
        "-o",
    ];
    let run = |format: &str| {
        let mut args = check.to_vec();
        args.push(format);
        common::stdout(&fleetplan(repo.path(), &args).status(3).run())
    };
    assert_eq!(
        run("github"),
        "::warning file=apps/fresh.yaml,line=1::new: Placement/apps/fresh: \
         NotAllDecisionsScheduled: 1 cluster decisions unscheduled\n\
         ::notice file=apps/legacy/placement.yaml,line=1::known (baseline): \
         Placement/apps/legacy: NotAllDecisionsScheduled: 1 cluster decisions unscheduled\n\
         3 items checked: 1 new unsatisfied; 1 known (baseline), 0 resolved\n"
    );
    let sarif: serde_json::Value =
        serde_json::from_str(&run("sarif")).unwrap_or_else(|e| panic!("{e}"));
    let states: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|result| result["baselineState"].as_str())
        .collect();
    assert_eq!(states, ["new", "unchanged"]);
    let junit = run("junit");
    assert!(
        junit.contains("<failure type=\"unsatisfied\" message=\"new: Placement/apps/fresh:"),
        "{junit}"
    );
    assert!(
        junit.contains(
            "<skipped type=\"unsatisfied\" message=\"known (baseline): Placement/apps/legacy:"
        ),
        "{junit}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&run("json")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(json["unsatisfied"][0]["baselineState"], "new");
    assert_eq!(json["unsatisfied"][1]["baselineState"], "unchanged");
    assert_eq!(json["resolved"], serde_json::json!([]));
}

#[test]
fn a_missing_baseline_is_an_error_not_an_empty_one() {
    let repo = team_repo();
    fleetplan(
        repo.path(),
        &[
            "check",
            "-f",
            "clusters",
            "-f",
            "apps",
            "--baseline",
            "nope.yaml",
        ],
    )
    .stderr("error: --baseline: nope.yaml: No such file or directory (os error 2)\n")
    .status(1)
    .run();
}

// ---- Config file ----

/// The team's `.fleetplan.yaml`: the inputs every job, hook and laptop checks.
const CONFIG: &str = "# fleetplan's defaults for this repository
inputs: [clusters/, apps/]
exclude: [vendor/]
namespace: apps
now: 2026-03-01T00:00:00Z
";

#[test]
fn the_config_file_gives_the_inputs_so_a_bare_check_works() {
    let repo = team_repo();
    put(repo.path(), ".fleetplan.yaml", CONFIG);
    fleetplan(repo.path(), &["check"])
        .stdout("1 item checked, all satisfied\n")
        .run();
    // From a subdirectory the file is found at the repository root; its paths are relative
    // to it.
    let output = fleetplan(&repo.path().join("apps/shop"), &["plan", "-o", "name"]).run();
    assert_eq!(common::stdout(&output), "Placement/apps/storefront\n");
    fleetplan(&repo.path().join("apps/shop"), &["check", "-o", "github"])
        .stdout("1 item checked, all satisfied\n")
        .run();
}

#[test]
fn flags_override_the_config_file() {
    let repo = team_repo();
    put(repo.path(), ".fleetplan.yaml", CONFIG);
    put(
        repo.path(),
        "apps/shop/placement.yaml",
        &STOREFRONT.replace("  namespace: apps\n", ""),
    );
    // The config's namespace applies to objects without one.
    fleetplan(repo.path(), &["check"])
        .stdout("1 item checked, all satisfied\n")
        .run();
    // -n replaces it; -f replaces the inputs.
    let output = fleetplan(repo.path(), &["check", "-n", "web"])
        .status(3)
        .run();
    assert!(common::stdout(&output).contains("Placement/web/storefront"));
    fleetplan(repo.path(), &["plan", "-f", "apps"])
        .stderr_contains("error: no clusters in the inputs")
        .status(1)
        .run();
}

#[test]
fn no_config_ignores_the_file_and_config_names_another() {
    let repo = team_repo();
    put(repo.path(), ".fleetplan.yaml", "inputs: [nowhere/]\n");
    put(
        repo.path(),
        "ci/fleetplan.yaml",
        "inputs: [../clusters/, ../apps/]\n",
    );
    fleetplan(repo.path(), &["check", "--no-config"])
        .stderr_contains("the following required arguments were not provided")
        .status(1)
        .run();
    fleetplan(repo.path(), &["check", "--config", "ci/fleetplan.yaml"])
        .stdout("1 item checked, all satisfied\n")
        .run();
}

#[test]
fn an_unknown_key_is_an_error_with_a_suggestion() {
    let repo = team_repo();
    put(
        repo.path(),
        ".fleetplan.yaml",
        "inputs: [clusters/, apps/]\nexlude: [vendor/]\n",
    );
    fleetplan(repo.path(), &["check"])
        .stderr(
            "error: .fleetplan.yaml: unknown key \"exlude\", did you mean exclude? (known keys: \
             inputs, namespace, exclude, hidden, now, baseline)\n",
        )
        .status(1)
        .run();
}

#[test]
fn the_config_file_names_the_baseline() {
    let repo = repo_with_baseline();
    put(
        repo.path(),
        ".fleetplan.yaml",
        &format!("{CONFIG}baseline: baseline.yaml\n"),
    );
    fleetplan(repo.path(), &["check"])
        .stdout("2 items checked: no new findings; 1 known (baseline), 0 resolved\n")
        .run();
}

#[test]
fn a_config_file_above_the_repository_root_is_not_read() {
    let outer = common::tempdir();
    put(
        outer.path(),
        ".fleetplan.yaml",
        "inputs: [repo/clusters/, repo/apps/]\n",
    );
    let repo = outer.path().join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap_or_else(|e| panic!("{e}"));
    fleetplan(&repo, &["check"])
        .stderr_contains("the following required arguments were not provided")
        .status(1)
        .run();
}

/// The published schema knows exactly the keys fleetplan reads, accepts the team's file and
/// refuses a misspelt key, so an editor that completes from it completes what works.
#[test]
fn the_published_config_schema_matches_the_keys_read() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text = fs::read_to_string(root.join("docs/fleetplan-config.schema.json"))
        .unwrap_or_else(|e| panic!("{e}"));
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let keys: Vec<&String> = schema["properties"]
        .as_object()
        .map(|properties| properties.keys().collect())
        .unwrap_or_default();
    let mut expected = [
        "inputs",
        "namespace",
        "exclude",
        "hidden",
        "now",
        "baseline",
    ];
    expected.sort_unstable();
    assert_eq!(keys, expected);
    let validator = jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{e}"));
    let config: serde_json::Value =
        serde_yaml::from_str(&format!("{CONFIG}baseline: b.yaml\nhidden: true\n"))
            .unwrap_or_else(|e| panic!("{e}"));
    assert!(validator.is_valid(&config), "{config}");
    let misspelt: serde_json::Value =
        serde_yaml::from_str("exlude: [vendor/]\n").unwrap_or_else(|e| panic!("{e}"));
    assert!(!validator.is_valid(&misspelt));
}

// ---- Diff summaries ----

/// A ConfigMap placed by a federation cluster-selector annotation (`operator` substituted).
fn flags(operator: &str) -> String {
    format!(
        "apiVersion: v1
kind: ConfigMap
metadata:
  name: flags
  namespace: apps
  annotations:
    federation.alpha.kubernetes.io/cluster-selector: '[{{\"key\": \"region\", \"operator\": \"{operator}\", \"values\": [\"east\"]}}]'
"
    )
}

/// The team repository with its plan committed as `plan.yaml`, the ConfigMap valid.
fn repo_with_plan() -> tempfile::TempDir {
    let repo = team_repo();
    put(repo.path(), "apps/flags.yaml", &flags("In"));
    put(
        repo.path(),
        ".fleetplan.yaml",
        "inputs: [clusters/, apps/]\n",
    );
    fleetplan(repo.path(), &["plan", "-o", "yaml", "--out", "plan.yaml"]).run();
    repo
}

#[test]
fn an_item_that_gained_an_error_is_its_own_change_and_the_summary_counts_errors() {
    let repo = repo_with_plan();
    put(repo.path(), "apps/flags.yaml", &flags("like"));
    let output = fleetplan(repo.path(), &["diff", "--previous", "plan.yaml"])
        .stderr_contains("error: apps/flags.yaml#1")
        .status(1)
        .run();
    let text = common::stdout(&output);
    assert!(
        text.starts_with("! ConfigMap/apps/flags (gained an error)\n"),
        "{text}"
    );
    assert!(
        text.ends_with("\n1 changed, 0 added, 0 removed, 1 error\n"),
        "{text}"
    );
    let output = fleetplan(
        repo.path(),
        &["diff", "--previous", "plan.yaml", "-o", "markdown"],
    )
    .stderr_contains("error: apps/flags.yaml#1")
    .status(1)
    .run();
    let markdown = common::stdout(&output);
    assert!(
        markdown.starts_with("### fleetplan diff: 1 changed, 0 added, 0 removed, 1 error\n"),
        "{markdown}"
    );
    assert!(markdown.contains("| gained an error |"), "{markdown}");
}

#[test]
fn an_item_that_lost_its_errors_is_its_own_change() {
    let repo = team_repo();
    put(repo.path(), "apps/flags.yaml", &flags("like"));
    put(
        repo.path(),
        ".fleetplan.yaml",
        "inputs: [clusters/, apps/]\n",
    );
    // The failing item's plan, as a pipeline would have kept it (`--out` refuses it).
    let output = fleetplan(repo.path(), &["plan", "-o", "yaml"])
        .stderr_contains("error: apps/flags.yaml#1")
        .status(1)
        .run();
    put(repo.path(), "plan.yaml", &common::stdout(&output));
    put(repo.path(), "apps/flags.yaml", &flags("In"));
    let output = fleetplan(repo.path(), &["diff", "--previous", "plan.yaml"])
        .status(2)
        .run();
    let text = common::stdout(&output);
    assert!(
        text.starts_with("~ ConfigMap/apps/flags (lost its errors)\n"),
        "{text}"
    );
    assert!(
        text.ends_with("\n1 changed, 0 added, 0 removed, 0 errors\n"),
        "{text}"
    );
}

// ---- Annotations where the fault is ----

/// The team's Placements with a field at fault each: block YAML after a comment, flow YAML
/// in a stream's second document, and an item of a JSON List.
fn repo_with_faults() -> tempfile::TempDir {
    let repo = team_repo();
    put(repo.path(), ".fleetplan.yaml", CONFIG);
    put(
        repo.path(),
        "apps/shop/placement.yaml",
        "# The storefront's placement.
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata:
  name: storefront
  namespace: apps
spec:
  clusterSets: [prod]
  numberOfClusters: many
",
    );
    put(
        repo.path(),
        "apps/batch.yaml",
        "apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {name: nightly, namespace: apps}
spec: {numberOfClusters: 1}
---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {name: weekly, namespace: apps}
spec: {clusterSets: [prod],
  tolerations: [{key: a, operator: Sometimes}]}
",
    );
    put(
        repo.path(),
        "apps/exported.json",
        r#"{
  "apiVersion": "v1",
  "kind": "List",
  "items": [
    {
      "apiVersion": "cluster.open-cluster-management.io/v1beta1",
      "kind": "Placement",
      "metadata": {"name": "exported", "namespace": "apps"},
      "spec": {
        "numberOfClusters": -1
      }
    }
  ]
}
"#,
    );
    repo
}

#[test]
fn github_annotations_point_at_the_field_at_fault_and_do_not_repeat_the_location() {
    let repo = repo_with_faults();
    let output = fleetplan(repo.path(), &["check", "-o", "github"])
        .status(1)
        .run();
    let text = common::stdout(&output);
    let annotations: Vec<&str> = text.lines().collect();
    assert_eq!(
        annotations,
        [
            "::error file=apps/batch.yaml,line=10::Placement/apps/weekly: \
             spec.tolerations[0].operator: expected Equal or Exists, found \"Sometimes\"",
            "::error file=apps/exported.json,line=10::Placement/apps/exported: \
             items[0].spec.numberOfClusters: expected a count of 0 or more, found -1: the \
             placement controller panics on a negative numberOfClusters",
            "::error file=apps/shop/placement.yaml,line=9::Placement/apps/storefront: \
             spec.numberOfClusters: invalid type: string \"many\", expected i32",
            "1 item checked: 3 errors",
        ],
        "{text}"
    );
}

#[test]
fn sarif_regions_and_text_lines_are_the_fields_lines() {
    let repo = repo_with_faults();
    let output = fleetplan(repo.path(), &["check", "-o", "sarif"])
        .status(1)
        .run();
    let sarif: serde_json::Value =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}"));
    let regions: Vec<(String, u64)> = sarif["runs"][0]["results"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|result| {
            let location = &result["locations"][0]["physicalLocation"];
            (
                location["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                location["region"]["startLine"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    let expected = [
        ("apps/batch.yaml", 10),
        ("apps/exported.json", 10),
        ("apps/shop/placement.yaml", 9),
    ];
    assert_eq!(
        regions,
        expected.map(|(file, line)| (file.to_string(), line)),
        "{sarif:#}"
    );
    let output = fleetplan(repo.path(), &["check"]).status(1).run();
    let places: Vec<String> = common::stdout(&output)
        .lines()
        .filter_map(|line| line.split(": ").nth(2).map(|line| line.to_string()))
        .filter(|part| part.starts_with("line "))
        .collect();
    assert_eq!(places, ["line 10", "line 10", "line 9"]);
}

#[test]
fn a_field_that_is_missing_keeps_the_line_of_its_object() {
    let repo = team_repo();
    put(
        repo.path(),
        "apps/shop/placement.yaml",
        "# no name\napiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\nmetadata:\n  namespace: apps\n",
    );
    fleetplan(repo.path(), &["check", "-f", "clusters", "-f", "apps", "-o", "github"])
        .stdout(
            "::error file=apps/shop/placement.yaml,line=2::metadata.name: expected the name of \
             the Placement, found none\n1 error: the inputs could not be read, nothing was checked\n",
        )
        .status(1)
        .run();
}

#[test]
fn a_reference_to_nothing_is_reported_at_the_reference() {
    let repo = team_repo();
    put(repo.path(), ".fleetplan.yaml", CONFIG);
    put(
        repo.path(),
        "apps/shop/rollout.yaml",
        "# Rolls the storefront's manifests out where its placement decides.
apiVersion: work.open-cluster-management.io/v1alpha1
kind: ManifestWorkReplicaSet
metadata:
  name: storefront-rollout
  namespace: apps
spec:
  placementRefs:
    - name: storefront
    - name: storefrnt
",
    );
    let message = "ManifestWorkReplicaSet/apps/storefront-rollout: spec.placementRefs[1]: \
                   Placement/apps/storefrnt is not in the inputs";
    fleetplan(repo.path(), &["check"])
        .stdout(format!(
            "error: apps/shop/rollout.yaml#1: line 10: {message}\n2 items checked: 1 error\n"
        ))
        .status(1)
        .run();
    fleetplan(repo.path(), &["check", "-o", "github"])
        .stdout(format!(
            "::error file=apps/shop/rollout.yaml,line=10::{message}\n2 items checked: 1 error\n"
        ))
        .status(1)
        .run();
    // Each reference is its own baseline entry, named by its field.
    fleetplan(repo.path(), &["check", "--write-baseline", "baseline.yaml"]).run();
    let baseline =
        fs::read_to_string(repo.path().join("baseline.yaml")).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        baseline.contains("  path: spec.placementRefs[1]\n"),
        "{baseline}"
    );
}

// ---- Markdown ----

#[test]
fn markdown_marks_new_findings_and_folds_the_known_ones() {
    let repo = repo_with_baseline();
    put(
        repo.path(),
        "apps/fresh.yaml",
        &LEGACY.replace("legacy", "fresh"),
    );
    let args = ["check", "-f", "clusters", "-f", "apps", "-o", "markdown"];
    let mut with_baseline = args.to_vec();
    with_baseline.extend(["--baseline", "baseline.yaml"]);
    fleetplan(repo.path(), &with_baseline)
        .stdout(
            "### fleetplan check: 3 items checked: 1 new unsatisfied; 1 known (baseline), 0 resolved\n\
             \n\
             | Finding | Object | Where | What is wrong |\n\
             | --- | --- | --- | --- |\n\
             | **new** unsatisfied | `Placement/apps/fresh` | `apps/fresh.yaml#1` line 1 | \
             `NotAllDecisionsScheduled: 1 cluster decisions unscheduled` |\n\
             \n\
             <details><summary>1 known finding (baseline): they do not fail the gate</summary>\n\
             \n\
             | Finding | Object | Where | What is wrong |\n\
             | --- | --- | --- | --- |\n\
             | unsatisfied | `Placement/apps/legacy` | `apps/legacy/placement.yaml#1` line 1 | \
             `NotAllDecisionsScheduled: 1 cluster decisions unscheduled` |\n\
             \n\
             </details>\n",
        )
        .status(3)
        .run();
    // Without a baseline nothing is new or known: every finding is listed as found.
    let output = fleetplan(repo.path(), &args).status(3).run();
    let text = common::stdout(&output);
    assert!(
        text.starts_with("### fleetplan check: 3 items checked: 2 unsatisfied\n"),
        "{text}"
    );
    assert!(!text.contains("new") && !text.contains("known"), "{text}");
    // Once fixed, the baseline's entry is resolved.
    fs::remove_file(repo.path().join("apps/fresh.yaml")).unwrap_or_else(|e| panic!("{e}"));
    put(
        repo.path(),
        "apps/legacy/placement.yaml",
        &LEGACY.replace("numberOfClusters: 3", "numberOfClusters: 2"),
    );
    fleetplan(repo.path(), &with_baseline)
        .stdout(
            "### fleetplan check: 2 items checked, all satisfied; 0 known (baseline), 1 resolved\n\
             \n\
             In the baseline, no longer found (regenerate it with `--write-baseline`):\n\
             \n\
             - `Placement/apps/legacy: unsatisfied: PlacementSatisfied: NotAllDecisionsScheduled`\n",
        )
        .run();
}

// ---- Terminals ----

/// The team repository with the config file and cluster names long enough that a narrow
/// terminal cannot hold a table row: what a name must never be broken in.
fn repo_with_long_names() -> tempfile::TempDir {
    let repo = team_repo();
    put(repo.path(), ".fleetplan.yaml", CONFIG);
    put(
        repo.path(),
        "clusters/hub.yaml",
        &HUB.replace("east-1", "aws-us-east-1-production-cluster")
            .replace("west-1", "gcp-europe-west4-production-cluster"),
    );
    repo
}

/// `fleetplan ARGS` run at the repository's root on a terminal `columns` wide (a pseudo
/// terminal made by util-linux `script`, sized with `stty`), as the terminal shows it.
#[cfg(target_os = "linux")]
fn on_terminal(repo: &Path, columns: u16, args: &[&str]) -> String {
    let command = format!(
        "stty cols {columns} rows 50 && exec '{}' {}",
        env!("CARGO_BIN_EXE_fleetplan"),
        args.join(" ")
    );
    let output = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(repo)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("script (util-linux) runs fleetplan on a terminal: {e}"));
    assert!(output.status.success(), "{output:?}");
    String::from_utf8_lossy(&output.stdout).replace("\r\n", "\n")
}

#[cfg(target_os = "linux")]
#[test]
fn a_terminal_of_width_zero_is_of_unknown_width_and_nothing_wraps() {
    let repo = repo_with_long_names();
    for args in [&["explain", "storefront"][..], &["plan"][..]] {
        let piped = common::stdout(&fleetplan(repo.path(), args).run());
        assert_eq!(on_terminal(repo.path(), 0, args), piped, "{args:?}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_narrow_terminal_wraps_text_but_never_breaks_an_identifier() {
    let repo = repo_with_long_names();
    let piped = common::stdout(&fleetplan(repo.path(), &["explain", "storefront"]).run());
    let narrow = on_terminal(repo.path(), 40, &["explain", "storefront"]);
    // The reasons are wrapped to the width...
    assert!(narrow.lines().count() > piped.lines().count(), "{narrow}");
    assert!(
        narrow.contains("\n                                                 100 = Balance"),
        "{narrow}"
    );
    // ...and every name is whole, on one line, even where it overflows the width.
    for name in [
        "Placement/apps/storefront",
        "aws-us-east-1-production-cluster",
        "gcp-europe-west4-production-cluster",
        "storefront-decision-1",
    ] {
        assert_eq!(
            narrow.matches(name).count(),
            piped.matches(name).count(),
            "{name} broken or lost:\n{narrow}"
        );
    }
}
