//! Hostile and broken inputs: every case in `testdata/bad/` fails with exit code 1 and exactly
//! the message in its sibling `.stderr` snapshot. Cases git cannot carry (a 300 MB file, a
//! symbolic link loop, an unreadable file) are made in a temporary directory at test time.
//!
//! After an intended message change, rewrite the snapshots with
//! `FLEETPLAN_BLESS=1 cargo test --test cli bad_input::` and review the diff.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{self, Test};

const CORPUS: &str = "testdata/bad";

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every input of the corpus (a file or a directory), by name, sorted.
fn cases() -> Vec<String> {
    let dir = repo_root().join(CORPUS);
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| {
            let entry = entry.unwrap_or_else(|error| panic!("{error}"));
            entry.file_name().to_string_lossy().into_owned()
        })
        .filter(|name| !name.ends_with(".stderr"))
        .collect();
    names.sort();
    names
}

/// Some cases crashed or hung the tool: every run must end by itself well within this.
const BOUND_SECONDS: u64 = 120;

fn stderr_of(args: &[&str], status: i32) -> String {
    let output = Test::new()
        .args(args.iter().copied())
        .stderr_contains("")
        .status(status)
        .within(BOUND_SECONDS)
        .run();
    String::from_utf8_lossy(&output.stderr).into_owned()
}

const INVENTORY: &str = "apiVersion: fleetplan.io/v1alpha1
kind: ClusterInventory
metadata: {name: fleet}
clusters:
  - {name: east, labels: {env: prod}}
";

#[test]
fn every_bad_input_fails_with_its_snapshot_message() {
    let bless = common::blessing();
    let mut mismatches = Vec::new();
    let cases = cases();
    assert!(cases.len() >= 20, "the corpus is missing: {cases:?}");
    for case in &cases {
        let input = format!("{CORPUS}/{case}");
        let snapshot = repo_root().join(format!("{input}.stderr"));
        let stderr = stderr_of(&["plan", "-f", &input], 1);
        if bless {
            common::write(&snapshot, &stderr);
            continue;
        }
        let expected = fs::read_to_string(&snapshot)
            .unwrap_or_else(|error| panic!("{}: {error}", snapshot.display()));
        if stderr != expected {
            mismatches.push(format!(
                "{input}\n--- expected\n{expected}--- found\n{stderr}"
            ));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn every_snapshot_names_its_file_on_every_line() {
    for case in cases() {
        let snapshot = repo_root().join(format!("{CORPUS}/{case}.stderr"));
        let text = fs::read_to_string(&snapshot).unwrap_or_default();
        assert!(!text.is_empty(), "{case}: empty snapshot");
        for line in text.lines() {
            assert!(
                line.starts_with(&format!("error: {CORPUS}/{case}")),
                "{case}: {line}"
            );
        }
    }
}

/// The corpus's documents as one JSON stream, when every document has a JSON form.
fn as_json_stream(yaml: &str) -> Option<String> {
    let mut stream = String::new();
    for document in serde_yaml::Deserializer::from_str(yaml) {
        let value: serde_json::Value = serde::Deserialize::deserialize(document).ok()?;
        stream.push_str(&serde_json::to_string_pretty(&value).ok()?);
        stream.push('\n');
    }
    Some(stream)
}

/// Valid JSON is decoded straight from its text, everything else through a parsed tree; the
/// two must report every wrongly typed field exactly alike.
#[test]
fn json_inputs_report_wrong_fields_exactly_as_yaml_does() {
    let dir = common::tempdir();
    let mut mismatches = Vec::new();
    let mut compared = 0;
    let decode_cases = cases().into_iter().filter(|case| {
        [
            "wrong-types-",
            "negative-",
            "overflowing-",
            "duplicate-clusters",
        ]
        .iter()
        .any(|prefix| case.starts_with(prefix))
    });
    for case in decode_cases {
        let yaml_path = format!("{CORPUS}/{case}");
        let yaml = fs::read_to_string(repo_root().join(&yaml_path))
            .unwrap_or_else(|error| panic!("{yaml_path}: {error}"));
        // Non-string keys and tags have no JSON form.
        let Some(json) = as_json_stream(&yaml) else {
            continue;
        };
        compared += 1;
        let json_path = dir.path().join(format!("{case}.json"));
        common::write(&json_path, &json);
        let json_name = json_path.to_string_lossy().into_owned();
        let expected = fs::read_to_string(repo_root().join(format!("{yaml_path}.stderr")))
            .unwrap_or_else(|error| panic!("{yaml_path}.stderr: {error}"))
            .replace(&yaml_path, &json_name);
        let found = stderr_of(&["plan", "-f", &json_name], 1);
        if found != expected {
            mismatches.push(format!("{case}\n--- yaml\n{expected}--- json\n{found}"));
        }
    }
    assert!(compared >= 12, "only {compared} cases have a JSON form");
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn duplicate_keys_in_json_are_syntax_errors() {
    let dir = common::tempdir();
    let path = dir.path().join("fleet.json");
    common::write(
        &path,
        r#"{"apiVersion": "fleetplan.io/v1alpha1", "kind": "ClusterInventory", "metadata": {"name": "fleet"},
 "clusters": [{"name": "east", "labels": {"env": "prod", "env": "dev"}}]}"#,
    );
    let name = path.to_string_lossy().into_owned();
    let stderr = stderr_of(&["plan", "-f", &name], 1);
    assert_eq!(
        stderr,
        format!("error: {name}#1: line 2 column 62: duplicate entry with key \"env\"\n")
    );
}

#[test]
fn select_reports_load_errors_exactly_as_plan_does() {
    for case in cases() {
        let input = format!("{CORPUS}/{case}");
        let planning_error = case.starts_with("cel-")
            || case.starts_with("planning-")
            || case.contains("annotation");
        let output = Test::new()
            .args(["select", "-f", &input, "-o", "name"])
            .stderr_contains("")
            .status(i32::from(!planning_error))
            .within(BOUND_SECONDS)
            .run();
        // CEL, annotation and `planning-` cases are planning errors: select does not plan,
        // so they pass it (the annotation cases carry a one-cluster inventory to select from).
        if planning_error {
            continue;
        }
        let snapshot = repo_root().join(format!("{input}.stderr"));
        let expected = fs::read_to_string(&snapshot).unwrap_or_default();
        assert_eq!(String::from_utf8_lossy(&output.stderr), expected, "{case}");
    }
}

#[test]
fn a_file_over_the_size_limit_is_refused_before_it_is_read() {
    let dir = common::tempdir();
    // Sparse: 300 MB long, no disk used, never committed.
    let file = fs::File::create(dir.path().join("huge.yaml")).unwrap_or_else(|e| panic!("{e}"));
    file.set_len(300 * 1000 * 1000)
        .unwrap_or_else(|e| panic!("{e}"));
    Test::new()
        .current_dir(dir.path())
        .args(["plan", "-f", "huge.yaml"])
        .stderr(
            "error: huge.yaml: larger than the limit of 268435456 bytes (raise it with --max-input-bytes)\n",
        )
        .status(1)
        .run();
}

#[test]
fn max_input_bytes_sets_the_size_limit() {
    let dir = common::tempdir();
    common::write(&dir.path().join("fleet.yaml"), INVENTORY);
    Test::new()
        .current_dir(dir.path())
        .args(["plan", "-f", "fleet.yaml", "--max-input-bytes", "10"])
        .stderr(
            "error: fleet.yaml: larger than the limit of 10 bytes (raise it with --max-input-bytes)\n",
        )
        .status(1)
        .run();
}

#[test]
fn max_input_bytes_applies_to_stdin() {
    Test::new()
        .args(["select", "-f", "-", "--max-input-bytes", "10", "-o", "name"])
        .stdin(INVENTORY)
        .stderr(
            "error: <stdin>: larger than the limit of 10 bytes (raise it with --max-input-bytes)\n",
        )
        .status(1)
        .run();
}

/// 300 aliases of a 1,000-item list: 300,000 values, above the default allowance.
fn many_aliases() -> String {
    let mut text = String::from(INVENTORY);
    text.push_str("---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: big, namespace: ns}\n");
    text.push_str(&format!(
        "data:\n  items: &items [{}]\n  refs:\n",
        "1,".repeat(1000)
    ));
    text.push_str(&"  - *items\n".repeat(300));
    text
}

#[test]
fn alias_expansion_beyond_the_allowance_is_an_error() {
    Test::new()
        .args(["select", "-f", "-", "-o", "name"])
        .stdin(many_aliases())
        .stderr_contains("document expands to too many values (too many aliases?)")
        .status(1)
        .run();
}

#[test]
fn max_alias_expansion_raises_the_allowance() {
    Test::new()
        .args(["select", "-f", "-", "-o", "name"])
        .args(["--max-alias-expansion", "1000000"])
        .stdin(many_aliases())
        .stdout("east\n")
        .run();
}

/// `fleet/` with an inventory in it, under `root`.
fn fleet_dir(root: &Path) -> PathBuf {
    let fleet = root.join("fleet");
    fs::create_dir(&fleet).unwrap_or_else(|e| panic!("{e}"));
    common::write(&fleet.join("inventory.yaml"), INVENTORY);
    fleet
}

#[cfg(unix)]
#[test]
fn a_directory_with_a_symlink_loop_is_an_error() {
    let dir = common::tempdir();
    let fleet = fleet_dir(dir.path());
    std::os::unix::fs::symlink(&fleet, fleet.join("again")).unwrap_or_else(|e| panic!("{e}"));
    let canonical = fs::canonicalize(&fleet).unwrap_or_else(|e| panic!("{e}"));
    Test::new()
        .current_dir(dir.path())
        .args(["plan", "-f", "fleet"])
        .stderr(format!(
            "error: fleet/again: symbolic link loop: leads back to {}\n",
            canonical.display()
        ))
        .status(1)
        .run();
}

#[cfg(unix)]
#[test]
fn a_dangling_symlink_in_a_directory_is_an_error() {
    let dir = common::tempdir();
    let fleet = fleet_dir(dir.path());
    std::os::unix::fs::symlink("gone.yaml", fleet.join("moved.yaml"))
        .unwrap_or_else(|e| panic!("{e}"));
    Test::new()
        .current_dir(dir.path())
        .args(["plan", "-f", "fleet"])
        .stderr("error: fleet/moved.yaml: no such file or directory\n")
        .status(1)
        .run();
}

#[cfg(unix)]
#[test]
fn an_unreadable_file_is_an_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = common::tempdir();
    let path = dir.path().join("secret.yaml");
    common::write(&path, INVENTORY);
    fs::set_permissions(&path, fs::Permissions::from_mode(0o000)).unwrap_or_else(|e| panic!("{e}"));
    // root (CI containers) reads a mode-000 file anyway; there is nothing to refuse then, and
    // the dangling-symlink test covers the same error path.
    if fs::File::open(&path).is_ok() {
        return;
    }
    Test::new()
        .current_dir(dir.path())
        .args(["plan", "-f", "secret.yaml"])
        .stderr("error: secret.yaml: permission denied\n")
        .status(1)
        .run();
}

#[test]
fn min_replicas_above_max_is_accepted_with_a_warning() {
    let input = format!(
        "{INVENTORY}---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  annotations:
    federation.kubernetes.io/replica-set-preferences: '{{\"clusters\": {{\"*\": {{\"weight\": 1, \"minReplicas\": 5, \"maxReplicas\": 2}}}}}}'
spec: {{replicas: 3}}
"
    );
    let output = Test::new()
        .args(["plan", "-f", "-", "-o", "yaml"])
        .stdin(input)
        .stderr_contains("warning: <stdin>#2: Deployment/shop/web: ")
        .stderr_contains("minReplicas exceeds maxReplicas")
        .run();
    let stdout = common::stdout(&output);
    assert!(stdout.contains("east: 3"), "{stdout}");
}

// ---- atomic --out ----

const OLD_PLAN: &str =
    "apiVersion: fleetplan.io/v1alpha1\nkind: Plan\nitems: []  # the last good plan\n";

fn out_dir_with_old_plan() -> tempfile::TempDir {
    let dir = common::tempdir();
    common::write(&dir.path().join("plan.yaml"), OLD_PLAN);
    dir
}

/// The directory's entries: no temporary file may be left behind.
#[test]
fn a_run_that_fails_while_planning_keeps_the_previous_out_file() {
    let dir = out_dir_with_old_plan();
    let input = repo_root()
        .join(CORPUS)
        .join("negative-annotation-numbers.yaml");
    let out = dir.path().join("plan.yaml");
    let stderr = {
        let output = Test::new()
            .args(["plan", "-o", "yaml", "-f"])
            .arg(input.to_string_lossy())
            .arg("--out")
            .arg(out.to_string_lossy())
            .stderr_contains("")
            .status(1)
            .run();
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    assert!(
        stderr.ends_with(&format!(
            "error: {}: not written, the plan has errors\n",
            out.display()
        )),
        "{stderr}"
    );
    assert_eq!(fs::read(&out).unwrap_or_default(), OLD_PLAN.as_bytes());
    assert_eq!(common::entries(dir.path()), ["plan.yaml"]);
}

#[test]
fn a_run_that_fails_while_loading_keeps_the_previous_out_file() {
    let dir = out_dir_with_old_plan();
    let out = dir.path().join("plan.yaml");
    Test::new()
        .args(["plan", "-f", "testdata/bad/malformed.yaml", "--out"])
        .arg(out.to_string_lossy())
        .stderr_contains("malformed.yaml")
        .status(1)
        .run();
    assert_eq!(fs::read(&out).unwrap_or_default(), OLD_PLAN.as_bytes());
    assert_eq!(common::entries(dir.path()), ["plan.yaml"]);
}

#[test]
fn a_successful_run_replaces_the_out_file() {
    let dir = out_dir_with_old_plan();
    let out = dir.path().join("plan.yaml");
    Test::new()
        .args(["plan", "-f", "testdata/fleet", "-o", "yaml", "--out"])
        .arg(out.to_string_lossy())
        .stdout("")
        .run();
    let written = fs::read_to_string(&out).unwrap_or_default();
    assert!(written.starts_with("apiVersion: fleetplan.io/v1alpha1\nkind: Plan\n"));
    assert_ne!(written, OLD_PLAN);
    assert_eq!(common::entries(dir.path()), ["plan.yaml"]);
}

/// A write that fails for every user, root included: the file's directory is a regular file
/// (ENOTDIR). Nothing is written, and the regular file is left as it was.
#[test]
fn an_out_file_below_a_regular_file_writes_nothing() {
    let dir = out_dir_with_old_plan();
    let out = dir.path().join("plan.yaml").join("plan.yaml");
    Test::new()
        .args(["plan", "-f", "testdata/fleet", "-o", "yaml", "--out"])
        .arg(out.to_string_lossy())
        .stderr_contains("Not a directory")
        .stdout("")
        .status(1)
        .run();
    assert_eq!(
        fs::read_to_string(dir.path().join("plan.yaml")).unwrap_or_default(),
        OLD_PLAN
    );
    assert_eq!(common::entries(dir.path()), ["plan.yaml"]);
}

#[test]
fn usage_errors_exit_with_code_one() {
    Test::new()
        .args(["plan", "-f", "testdata/fleet", "--max-input-bytes", "lots"])
        .stderr_contains("invalid value 'lots' for '--max-input-bytes <BYTES>'")
        .status(1)
        .run();
}

// ---- CEL limits ----

/// The CEL cases crashed `explain` and `check` as they crashed `plan` (the corpus runs `plan`).
#[test]
fn explain_and_check_refuse_cel_over_the_parser_limits() {
    Test::new()
        .args(["explain", "-f", "testdata/bad/cel-left-deep-sum.yaml"])
        .arg("placement/ns/left-deep-sum")
        .stderr_contains("Placement/ns/left-deep-sum: PlacementMisconfigured: Predicate:compilation failed: expression recursion limit exceeded: 250")
        .status(1)
        .within(BOUND_SECONDS)
        .run();
    let output = Test::new()
        .args(["check", "-f", "testdata/bad/cel-string-concatenation.yaml"])
        .status(1)
        .within(BOUND_SECONDS)
        .run();
    let stdout = common::stdout(&output);
    assert!(
        stdout.contains("expression recursion limit exceeded: 250"),
        "{stdout}"
    );
}

/// An expression at cel-go's nesting limit still parses and evaluates (on the deep stack).
#[test]
fn cel_at_the_nesting_limit_is_evaluated() {
    let sum = vec!["1"; 240].join(" + ");
    let nested = format!("{}{sum}{} == 240", "(".repeat(5), ")".repeat(5));
    let input = fs::read_to_string(repo_root().join("testdata/bad/cel-left-deep-sum.yaml"))
        .unwrap_or_default();
    let start = input.find("            - ").unwrap_or(input.len());
    let input = format!(
        "{}            - {nested:?}\n",
        input.get(..start).unwrap_or("")
    );
    Test::new()
        .args(["select", "-f", "-", "-o", "name"])
        .stdin(input.clone())
        .stdout("east\n")
        .run();
    let output = Test::new()
        .args(["plan", "-f", "-", "-o", "yaml"])
        .stdin(input)
        .within(BOUND_SECONDS)
        .run();
    assert!(common::stdout(&output).contains("- east"));
}

// ---- YAML before the parser ----

/// libyaml takes time quadratic in the depth of flow collections (100,000 levels: minutes);
/// the nesting limit applies in one pass before it.
#[test]
fn deep_flow_nesting_is_refused_without_parsing_it() {
    let dir = common::tempdir();
    let levels = 100_000;
    for (name, text, column) in [
        (
            "sequences.yaml",
            format!("a: {}{}\n", "[".repeat(levels), "]".repeat(levels)),
            4 + 128,
        ),
        (
            "mappings.yaml",
            format!("- {}1{}\n", "{a: ".repeat(levels), "}".repeat(levels)),
            3 + 128 * 4,
        ),
    ] {
        common::write(&dir.path().join(name), &text);
        Test::new()
            .current_dir(dir.path())
            .args(["plan", "-f", name])
            .stderr(format!(
                "error: {name}#1: line 1 column {column}: recursion limit exceeded\n"
            ))
            .status(1)
            .within(BOUND_SECONDS)
            .run();
    }
}

/// YAML allows a byte order mark at the start of every document of a stream.
#[test]
fn a_byte_order_mark_may_start_a_later_document() {
    let input = format!(
        "{INVENTORY}---\n\u{feff}apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata: {{name: west}}\n\u{feff}---\napiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata: {{name: north}}\n"
    );
    Test::new()
        .args(["select", "-f", "-", "-o", "name"])
        .stdin(input)
        .stdout("east\nnorth\nwest\n")
        .run();
}

/// An error in a document that starts with a byte order mark names that document.
#[test]
fn an_error_after_a_byte_order_mark_names_its_document() {
    let input = format!(
        "{INVENTORY}---\n\u{feff}apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata: {{name: west, labels: [1]}}\n"
    );
    Test::new()
        .args(["select", "-f", "-", "-o", "name"])
        .stdin(input)
        .stderr("error: <stdin>#2: metadata.labels: invalid type: sequence, expected a map\n")
        .status(1)
        .run();
}

// ---- small ones ----

/// `tolerationSeconds` near the int64 maximum: `changesAt` stays RFC 3339, at the last
/// second a four-digit year can write.
#[test]
fn a_toleration_beyond_year_9999_changes_at_its_end() {
    let input = fs::read_to_string(repo_root().join("testdata/bad/planning-decision-group-percentage.yaml"))
        .unwrap_or_default()
        .replace(
            "{name: east, labels: {cluster.open-cluster-management.io/clusterset: default}}",
            "{name: east, labels: {cluster.open-cluster-management.io/clusterset: default}, taints: [{key: k, effect: NoSelect, timeAdded: \"2026-01-01T00:00:00Z\"}]}",
        )
        .replace(
            "  decisionStrategy:\n    groupStrategy:\n      clustersPerDecisionGroup: \"5\"\n",
            "  tolerations: [{key: k, operator: Exists, tolerationSeconds: 9223372036854775000}]\n",
        );
    let output = Test::new()
        .args([
            "plan",
            "-f",
            "-",
            "-o",
            "yaml",
            "--now",
            "2026-06-01T00:00:00Z",
        ])
        .stdin(input)
        .run();
    let stdout = common::stdout(&output);
    assert!(
        stdout.contains("changesAt: 9999-12-31T23:59:59Z\n"),
        "{stdout}"
    );
}

#[test]
fn stdin_for_both_inputs_and_previous_is_refused() {
    Test::new()
        .args(["plan", "-f", "-", "--previous", "-"])
        .stdin(INVENTORY)
        .stderr(
            "error: --previous: <stdin>: standard input (-) given more than once (-f - reads it)\n",
        )
        .status(1)
        .run();
}

/// Two million bytes: a value no message may repeat whole.
const HUGE: usize = 2_000_000;

/// Asserts a run's diagnostics are small whatever the input's values, and that each huge
/// value is named by its length.
fn assert_echoed_short(text: &[u8], lengths: usize) {
    let text = String::from_utf8_lossy(text);
    assert!(
        text.len() < 8 * 1024,
        "{} bytes: {}",
        text.len(),
        &text[..2048.min(text.len())]
    );
    assert_eq!(
        text.matches(&format!("... ({HUGE} bytes)")).count(),
        lengths,
        "{text}"
    );
}

#[test]
fn huge_field_names_enum_values_and_names_are_echoed_short() {
    let huge = "x".repeat(HUGE);
    let input = format!(
        "apiVersion: fleetplan.io/v1alpha1
kind: ClusterInventory
metadata: {{name: fleet}}
clusters:
  - name: west
    ? {huge}
    : 1
---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {{name: p, namespace: shop}}
spec:
  tolerations: [{{key: a, operator: \"{huge}\"}}]
---
apiVersion: cluster.open-cluster-management.io/v1
kind: ManagedCluster
metadata: {{name: \"{huge}\"}}
"
    );
    let output = Test::new()
        .args(["plan", "-f", "-"])
        .stdin(input)
        .stderr_contains("clusters[0].xxxx")
        .stderr_contains("unknown field `xxxx")
        .stderr_contains("spec.tolerations[0].operator: expected Equal or Exists, found \"xxxx")
        .stderr_contains("metadata.name: Invalid value: \"xxxx")
        .status(1)
        .within(BOUND_SECONDS)
        .run();
    // The unknown field: in the path and in serde's message; the operator; the name.
    assert_echoed_short(&output.stderr, 4);
}

/// A cluster's label value (a warning), a selector's value and a CEL expression that does not
/// parse far into its line (the cel crate's own rendering of that error panicked past column
/// 65,535) are planned, explained and checked with short messages.
#[test]
fn huge_label_values_selectors_and_cel_errors_are_echoed_short() {
    let huge = "x".repeat(HUGE);
    let far = "y".repeat(90_000);
    let input = format!(
        "apiVersion: fleetplan.io/v1alpha1
kind: ClusterInventory
metadata: {{name: fleet}}
clusters:
  - {{name: east, labels: {{env: prod, bad: \"{}-\"}}}}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSet
metadata: {{name: global}}
spec: {{clusterSelector: {{selectorType: LabelSelector, labelSelector: {{}}}}}}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSetBinding
metadata: {{name: global, namespace: shop}}
spec: {{clusterSet: global}}
---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {{name: by-label, namespace: shop}}
spec:
  predicates:
    - requiredClusterSelector:
        labelSelector: {{matchLabels: {{env: \"{huge}\"}}}}
---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {{name: by-cel, namespace: shop}}
spec:
  predicates:
    - requiredClusterSelector:
        celSelector: {{celExpressions: [\"managedCluster.metadata.name == '{far}' &&\"]}}
",
        &huge[1..]
    );
    let output = Test::new()
        .args(["plan", "-f", "-"])
        .stdin(input.clone())
        .stderr_contains("label bad=\"xxxx")
        .stderr_contains("compilation failed: ERROR: <input>:1:90038: Syntax error")
        .status(1)
        .within(BOUND_SECONDS)
        .run();
    // The label warning names the value twice; the selector's error once, and the table
    // twice (the item's error and its condition).
    assert_echoed_short(&output.stderr, 3);
    assert_echoed_short(&output.stdout, 2);
    for placement in ["Placement/shop/by-label", "Placement/shop/by-cel"] {
        let output = Test::new()
            .args(["explain", "-f", "-", placement])
            .stdin(input.clone())
            .stderr_contains("")
            .status(1)
            .within(BOUND_SECONDS)
            .run();
        assert!(output.stdout.len() < 8 * 1024, "{placement}");
        assert!(output.stderr.len() < 8 * 1024, "{placement}");
    }
}

/// The cel crate reports a syntax error per token it cannot read; cel-go stops at the 101st
/// (`errorReportingLimit`), which it counts as one more error but does not list: its message
/// keeps the first 100 (`maxErrorsToReport`) and ends `1 more errors were truncated`. 5,000
/// stray characters made 350 KB of message.
#[test]
fn cel_syntax_errors_stop_after_one_hundred_as_cel_go_does() {
    let dir = common::tempdir();
    let input = dir.path().join("flood.yaml");
    common::write(
        &input,
        &format!(
            "{}---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {{name: p, namespace: ns}}
spec:
  predicates:
    - requiredClusterSelector:
        celSelector:
          celExpressions: [\"{} == 1\"]
",
            common::ONE_BOUND_CLUSTER,
            "é".repeat(5000)
        ),
    );
    let input = input.display().to_string();
    let stderr = stderr_of(&["plan", "-f", &input], 1);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 101, "{}", &stderr[..stderr.len().min(2000)]);
    assert!(
        lines[0].ends_with("Syntax error: token recognition error at: 'é'"),
        "{}",
        lines[0]
    );
    assert!(
        lines[99].ends_with("ERROR: <input>:1:100: Syntax error: token recognition error at: 'é'"),
        "{}",
        lines[99]
    );
    assert_eq!(lines[100], "1 more errors were truncated");
}

/// A `--label-selector` of 60,000 nested flow sequences took 19 s in libyaml: the flag is
/// scanned as inputs are, and refused at the bracket past serde_yaml's limit at once.
#[test]
fn a_deeply_nested_label_selector_flag_is_refused_at_once() {
    let deep = format!("{}{}", "[".repeat(60_000), "]".repeat(60_000));
    Test::new()
        .args(["select", "-f", "testdata/fleet/inventory.yaml"])
        .args(["--label-selector", &deep])
        .stderr("error: --label-selector: line 1 column 129: recursion limit exceeded\n")
        .status(1)
        .within(60)
        .run();
}

/// Go's encoding/json stops at 10,000 levels, also inside a field it ignores; serde_json
/// skips an ignored value at any depth, so a replica-set-preferences annotation nested
/// 100,000 deep was accepted.
#[test]
fn a_replica_set_preferences_annotation_nested_past_go_limit_is_refused() {
    let deep = format!(
        "{{\"x\": {}1{}}}",
        "{\"a\": ".repeat(100_000),
        "}".repeat(100_000)
    );
    let manifest = format!(
        "apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\nmetadata: {{name: f}}\n\
         clusters: [{{name: east}}]\n---\napiVersion: apps/v1\nkind: ReplicaSet\n\
         metadata:\n  name: web\n  namespace: shop\n  annotations:\n    \
         federation.kubernetes.io/replica-set-preferences: '{deep}'\nspec: {{replicas: 2}}\n"
    );
    Test::new()
        .args(["plan", "-f", "-"])
        .stdin(manifest)
        .stderr_contains(
            "annotation federation.kubernetes.io/replica-set-preferences: invalid character '{' \
             exceeded max depth (Go's encoding/json nests at most 10000) at line 1 column 60001",
        )
        .status(1)
        .within(60)
        .run();
}
