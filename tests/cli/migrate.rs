//! `fleetplan migrate`: golden output, the loss report on stderr, `--verify` verdicts and exit
//! codes, `-o json`, `--set`, `--out`, per-object errors, and the round trip through `plan`.

use crate::common::{self, entries, Test};
use crate::schemas::{Namespace, Schemas};

pub(crate) const FLEET: [&str; 4] = [
    "-f",
    "testdata/fleet/inventory.yaml",
    "-f",
    "testdata/fleet/clustersets.yaml",
];

pub(crate) fn golden(name: &str) -> String {
    let path = format!(
        "{}/testdata/migrate/golden/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// The summary line of testdata/migrate/placementrules.yaml, before what `--verify` adds.
const PLACEMENT_RULES_SUMMARY: &str =
    "6 migrated: 2 exact, 3 approximate, 1 lost; 2 references rewritten";

fn migrate(input: &str) -> Test {
    Test::new().arg("migrate").args(FLEET).args(["-f", input])
}

/// A cluster-scoped object with federation annotations has no namespace for the Placement and
/// the ReplicaSchedulingPreference `--to ocm` writes: an error naming both, exit 1.
#[test]
fn a_cluster_scoped_annotated_object_is_an_error_naming_what_is_namespaced() {
    Test::new()
        .args(["migrate", "--to", "ocm"])
        .args(FLEET)
        .args(["-f", "-"])
        .stdin("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: reader\n  annotations:\n    federation.alpha.kubernetes.io/cluster-selector: '[{\"key\":\"env\",\"operator\":\"in\",\"values\":[\"prod\"]}]'\nrules: []\n")
        .stderr_contains("error: <stdin>#1: ClusterRole/reader: a cluster-scoped object cannot be migrated: Placements and ReplicaSchedulingPreferences are namespaced\n")
        .status(1)
        .run();
}

#[test]
fn placement_rules_print_the_golden_objects_and_report() {
    migrate("testdata/migrate/placementrules.yaml")
        .stdout(golden("placementrules.yaml"))
        .stderr(golden("placementrules.report.txt") + PLACEMENT_RULES_SUMMARY + "\n")
        .run();
}

/// A rule inside a List is found in its document (its source carries the item's own line).
#[test]
fn a_placement_rule_inside_a_list_is_migrated() {
    let list = "apiVersion: v1\nkind: List\nitems:\n\
                - apiVersion: apps.open-cluster-management.io/v1\n  kind: PlacementRule\n  \
                metadata: {name: web, namespace: shop}\n  \
                spec: {clusterSelector: {matchLabels: {env: prod}}}\n";
    let output = migrate("-").stdin(list).stderr_contains("").run();
    let stdout = common::stdout(&output);
    assert!(
        stdout.contains("kind: Placement\nmetadata:\n  name: web\n  namespace: shop\n"),
        "{stdout}"
    );
}

#[test]
fn verify_exits_2_and_names_the_difference_of_a_lossy_rule() {
    migrate("testdata/migrate/placementrules.yaml")
        .arg("--verify")
        .stdout(golden("placementrules.yaml"))
        .stderr(
            golden("placementrules.report.txt")
                + &golden("placementrules.verify.txt")
                + PLACEMENT_RULES_SUMMARY
                + "; verified 6 identical, 1 different\n",
        )
        .status(2)
        .run();
}

#[test]
fn verify_of_exact_selector_conversions_exits_0() {
    migrate("testdata/migrate/cluster-selectors.yaml")
        .arg("--verify")
        .stdout(golden("cluster-selectors.yaml"))
        .stderr(
            golden("cluster-selectors.report.txt")
                + &golden("cluster-selectors.verify.txt")
                + "7 migrated: 0 exact, 7 approximate, 0 lost; verified 7 identical\n",
        )
        .run();
}

#[test]
fn verify_shows_the_replica_layout_difference_of_a_selected_rsp() {
    migrate("testdata/migrate/replica-set-preferences.yaml")
        .arg("--verify")
        .stdout(golden("replica-set-preferences.yaml"))
        .stderr(
            golden("replica-set-preferences.report.txt")
                + &golden("replica-set-preferences.verify.txt")
                + "12 migrated: 10 exact, 1 approximate, 1 lost; verified 11 identical, 1 different\n",
        )
        .status(2)
        .run();
}

/// The JSON document: every conversion the report calls exact verifies identical, and every
/// one that differs names at least one difference.
#[test]
fn json_holds_report_and_verification_and_exact_means_identical() {
    for input in [
        "testdata/migrate/placementrules.yaml",
        "testdata/migrate/cluster-selectors.yaml",
        "testdata/migrate/replica-set-preferences.yaml",
        "testdata/fleet/workloads",
    ] {
        let output = migrate(input)
            .args(["--verify", "-o", "json"])
            .stderr_contains("")
            .status(if input.ends_with("cluster-selectors.yaml") {
                0
            } else {
                2
            })
            .run();
        let document: serde_json::Value =
            serde_json::from_slice(&output.stdout).unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(document["kind"], "Migration");
        let verification = document["verification"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let conversions = document["report"]["conversions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert!(!conversions.is_empty(), "{input}");
        for conversion in &conversions {
            let verified = verification
                .iter()
                .find(|v| v["source"] == conversion["source"]);
            let Some(verified) = verified else { continue };
            if conversion["exact"] == true {
                assert_eq!(verified["identical"], true, "{input}: {conversion}");
            }
            if verified["identical"] == false {
                let named = verified["checks"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|check| {
                        check["differences"]
                            .as_array()
                            .is_some_and(|d| !d.is_empty())
                    });
                assert!(named, "{input}: {verified}");
            }
        }
    }
}

#[test]
fn set_narrows_candidates_and_verify_shows_what_moved() {
    let output = migrate("testdata/migrate/placementrules.yaml")
        .args(["--set", "prod", "--verify"])
        .stderr_contains("approximate: (candidates: every cluster) -> spec.clusterSets [prod]")
        .stderr_contains("PlacementRule/shop/pinned-by-name: different")
        .stderr_contains("    - aws-ap-south-dev (selected before only)")
        .stderr_contains("added ManagedClusterSetBinding/ci/prod")
        .status(2)
        .run();
    let stdout = common::stdout(&output);
    // shop already binds prod; the example fleet defines the set.
    assert!(!stdout.contains("kind: ManagedClusterSet\n"), "{stdout}");
    assert!(
        !stdout.contains("name: prod\n  namespace: shop"),
        "{stdout}"
    );
}

#[test]
fn missing_global_set_is_added_with_every_cluster() {
    let output = Test::new()
        .args(["migrate", "-f", "testdata/fleet/inventory.yaml"])
        .args(["-f", "testdata/migrate/placementrules.yaml"])
        .stderr_contains("added ManagedClusterSet/global:")
        .stderr_contains("added ManagedClusterSetBinding/shop/global:")
        .run();
    let stdout = common::stdout(&output);
    assert!(
        stdout.starts_with("apiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSet\nmetadata:\n  name: global\nspec:\n  clusterSelector:\n    selectorType: LabelSelector\n    labelSelector: {}\n---\n"),
        "{stdout}"
    );
}

#[test]
fn out_writes_one_file_per_object() {
    let dir = common::tempdir();
    let out = dir.path().join("migrated");
    migrate("testdata/migrate/placementrules.yaml")
        .args(["--out", &out.to_string_lossy()])
        .stderr(golden("placementrules.report.txt") + PLACEMENT_RULES_SUMMARY + "\n")
        .stdout("")
        .run();
    let placement =
        std::fs::read_to_string(out.join("namespaces/shop/placement_prod-by-selector.yaml"))
            .unwrap_or_else(|error| panic!("{error}"));
    assert!(placement
        .starts_with("apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\n"));
    assert!(out
        .join("namespaces/shop/subscription_shop-app.yaml")
        .exists());
    assert!(out
        .join("namespaces/ci/managedclustersetbinding_global.yaml")
        .exists());
    // The example fleet defines the global set: nothing cluster-scoped to write.
    assert_eq!(entries(&out), ["namespaces"]);
}

#[test]
fn an_object_that_cannot_be_migrated_is_an_error_but_the_rest_is_printed() {
    let stdin = r#"
apiVersion: v1
kind: ConfigMap
metadata:
  name: broken
  namespace: shop
  annotations:
    federation.alpha.kubernetes.io/cluster-selector: '[{"key": "env", "operator": "Equals", "values": ["prod"]}]'
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: fine
  namespace: shop
  annotations:
    federation.alpha.kubernetes.io/cluster-selector: '[{"key": "env", "operator": "in", "values": ["prod"]}]'
"#;
    let output = Test::new()
        .args(["migrate", "-f", "testdata/fleet/inventory.yaml", "-f", "-"])
        .stdin(stdin)
        .stderr_contains("error: <stdin>#1: ConfigMap/shop/broken: annotation federation.alpha.kubernetes.io/cluster-selector:")
        .status(1)
        .run();
    let stdout = common::stdout(&output);
    assert!(stdout.contains("name: configmap-fine\n"), "{stdout}");
    assert!(!stdout.contains("broken"), "{stdout}");
}

const FINE_THEN_BROKEN: &str = r#"
apiVersion: v1
kind: ConfigMap
metadata:
  name: fine
  namespace: shop
  annotations:
    federation.alpha.kubernetes.io/cluster-selector: '[{"key": "env", "operator": "in", "values": ["prod"]}]'
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: broken
  namespace: shop
  annotations:
    federation.alpha.kubernetes.io/cluster-selector: '[{"key": "env", "operator": "Equals", "values": ["prod"]}]'
"#;

#[test]
fn out_writes_nothing_when_a_later_object_cannot_be_migrated() {
    let dir = common::tempdir();
    let out = dir.path().join("migrated");
    Test::new()
        .args(["migrate", "-f", "testdata/fleet/inventory.yaml", "-f", "-"])
        .args(["--out", &out.to_string_lossy()])
        .stdin(FINE_THEN_BROKEN)
        .stderr_contains("error: <stdin>#2: ConfigMap/shop/broken: annotation federation.alpha.kubernetes.io/cluster-selector:")
        .stderr_contains(format!(
            "error: {}: not written, some objects could not be migrated\n",
            out.display()
        ))
        .stdout("")
        .status(1)
        .run();
    assert_eq!(entries(dir.path()), Vec::<String>::new());
}

/// A Deployment whose pod spec has a mapping key that is a list: YAML writes it, JSON writes
/// only string keys.
const LIST_KEY: &str = r#"
apiVersion: extensions/v1beta1
kind: Deployment
metadata:
  name: hello
  namespace: shop
  annotations:
    federation.alpha.kubernetes.io/cluster-selector: '[{"key": "env", "operator": "in", "values": ["prod"]}]'
spec:
  template:
    metadata:
      labels: {app: hello}
    spec:
      containers: [{name: hello, image: nginx}]
      ? [a, b]
      : c
"#;

/// `migrate -o json` of [`LIST_KEY`]: it fails naming the object JSON cannot write.
fn json_of_a_list_key() -> Test {
    Test::new()
        .args(["migrate", "-f", "-", "--to", "ocm", "-o", "json"])
        .stdin(LIST_KEY)
        .stderr_contains(
            "error: ManifestWorkReplicaSet/shop/deployment-hello: cannot be written as JSON: key must be a string\n",
        )
        .stdout("")
        .status(1)
}

/// `-o json` of an object JSON cannot write is an error; it printed an empty document and
/// exited 0.
#[test]
fn json_of_an_object_json_cannot_write_is_an_error_not_empty_output() {
    json_of_a_list_key().run();
}

/// `--out DIR -o json` writes no file when one object cannot be written as JSON.
#[test]
fn out_as_json_writes_nothing_when_an_object_json_cannot_write() {
    let dir = common::tempdir();
    let out = dir.path().join("migrated");
    json_of_a_list_key()
        .args(["--out", &out.to_string_lossy()])
        .run();
    assert_eq!(entries(dir.path()), Vec::<String>::new());
}

/// A file of the same name as an output that is not a regular file (here a directory) is
/// never replaced; the outputs moved in before it are taken back out, and the files they
/// replaced restored.
#[test]
fn out_into_an_existing_directory_is_all_or_nothing() {
    let dir = common::tempdir();
    let out = dir.path().join("migrated");
    let first = out.join("cluster-scoped/managedclusterset_global.yaml");
    let blocked = out.join("namespaces/shop/subscription_shop-app.yaml");
    std::fs::create_dir_all(blocked.join("inside")).unwrap_or_else(|error| panic!("{error}"));
    std::fs::create_dir_all(out.join("cluster-scoped")).unwrap_or_else(|error| panic!("{error}"));
    std::fs::write(&first, "previous").unwrap_or_else(|error| panic!("{error}"));
    migrate("testdata/migrate/placementrules.yaml")
        .args(["--out", &out.to_string_lossy()])
        .stderr_contains("subscription_shop-app.yaml: exists and is not a regular file\n")
        .stdout("")
        .status(1)
        .run();
    assert_eq!(
        common::files_under(&out),
        ["cluster-scoped/managedclusterset_global.yaml"]
    );
    assert!(blocked.join("inside").is_dir());
    assert_eq!(
        std::fs::read_to_string(&first).unwrap_or_default(),
        "previous"
    );
    assert_eq!(entries(dir.path()), ["migrated"]);
}

#[cfg(unix)]
#[test]
fn out_into_a_read_only_directory_writes_nothing() {
    use std::os::unix::fs::PermissionsExt;
    let dir = common::tempdir();
    let out = dir.path().join("migrated");
    std::fs::create_dir(&out).unwrap_or_else(|error| panic!("{error}"));
    std::fs::write(out.join("placement_shop_prod-by-selector.yaml"), "previous")
        .unwrap_or_else(|error| panic!("{error}"));
    let read_only = std::fs::Permissions::from_mode(0o555);
    std::fs::set_permissions(&out, read_only).unwrap_or_else(|error| panic!("{error}"));
    // root (CI containers) writes into a read-only directory anyway: nothing to refuse then.
    if std::fs::write(out.join("probe"), "").is_ok() {
        return;
    }
    migrate("testdata/migrate/placementrules.yaml")
        .args(["--out", &out.to_string_lossy()])
        .stderr_contains("Permission denied")
        .stdout("")
        .status(1)
        .run();
    assert_eq!(entries(&out), ["placement_shop_prod-by-selector.yaml"]);
    assert_eq!(entries(dir.path()), ["migrated"]);
}

/// A write that fails for every user, root included (CI runs as root, who writes into a
/// read-only directory anyway): the directory's parent is a regular file.
#[test]
fn out_below_a_regular_file_writes_nothing() {
    let dir = common::tempdir();
    let file = dir.path().join("file");
    std::fs::write(&file, "previous").unwrap_or_else(|error| panic!("{error}"));
    let out = file.join("migrated");
    migrate("testdata/migrate/placementrules.yaml")
        .args(["--out", &out.to_string_lossy()])
        .stderr_contains(format!(
            "error: {}: {}: exists and is not a directory",
            out.display(),
            file.display()
        ))
        .stdout("")
        .status(1)
        .run();
    assert_eq!(
        std::fs::read_to_string(&file).unwrap_or_default(),
        "previous"
    );
    assert_eq!(entries(dir.path()), ["file"]);
}

/// What a `migrate --out` killed by SIGKILL leaves behind: its staging directory, named for
/// the process (one that no longer runs) and the target.
#[test]
fn out_removes_what_a_killed_run_staged_for_the_same_target() {
    let dir = common::tempdir();
    let stale = dir.path().join(".fleetplan-tmp-99999999-migrated");
    std::fs::create_dir(&stale).unwrap_or_else(|error| panic!("{error}"));
    std::fs::write(stale.join("placement_shop_x.yaml"), "partial")
        .unwrap_or_else(|error| panic!("{error}"));
    migrate("testdata/migrate/placementrules.yaml")
        .args(["--out", &dir.path().join("migrated").to_string_lossy()])
        .stderr_contains("")
        .stdout("")
        .run();
    assert_eq!(entries(dir.path()), ["migrated"]);
}

/// A namespace that is a path is refused at load (as the API server refuses it), so no
/// output path is ever built from it.
#[test]
fn a_namespace_that_is_a_path_never_reaches_an_output_path() {
    let dir = common::tempdir();
    let out = dir.path().join("a").join("b").join("migrated");
    let input = std::fs::read_to_string("testdata/migrate/placementrules.yaml")
        .unwrap_or_default()
        .replace("namespace: shop", "namespace: a/../../esc");
    Test::new()
        .arg("migrate")
        .args(FLEET)
        .args(["-f", "-", "--out", &out.to_string_lossy()])
        .stdin(input)
        .stderr_contains("metadata.namespace: Invalid value: \"a/../../esc\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'")
        .stdout("")
        .status(1)
        .run();
    assert_eq!(entries(dir.path()), Vec::<String>::new());
}

#[test]
fn namespace_and_set_flags_are_validated_as_names() {
    Test::new()
        .args(["migrate", "-f", "testdata/migrate/placementrules.yaml", "-n", "a/../b"])
        .stderr_contains("error: invalid value 'a/../b' for '--namespace <NAMESPACE>': a lowercase RFC 1123 label must consist of")
        .status(1)
        .run();
    Test::new()
        .args(["migrate", "-f", "testdata/migrate/placementrules.yaml", "--set", "../x"])
        .stderr_contains("error: invalid value '../x' for '--set <global|NAME>': a lowercase RFC 1123 subdomain must consist of")
        .status(1)
        .run();
}

#[test]
fn unreadable_input_is_an_error_with_nothing_on_stdout() {
    Test::new()
        .args(["migrate", "-f", "testdata/migrate/does-not-exist.yaml"])
        .stdout("")
        .stderr_contains("error: testdata/migrate/does-not-exist.yaml")
        .status(1)
        .run();
}

/// Migrated Placements load back and plan without warnings.
#[test]
fn migrated_objects_plan_without_warnings() {
    let output = migrate("testdata/migrate/placementrules.yaml")
        .stderr_contains("")
        .run();
    let migrated = common::stdout(&output);
    Test::new()
        .arg("plan")
        .args(FLEET)
        .args(["-f", "-", "-o", "json"])
        .stdin(migrated)
        .run();
}

/// The namespaced objects of a YAML stream, each with `metadata.namespace` as written.
fn namespaces_as_written(stream: &str) -> Vec<(String, Option<String>)> {
    use serde::Deserialize;
    serde_yaml::Deserializer::from_str(stream)
        .map(|document| serde_yaml::Value::deserialize(document).unwrap_or_default())
        .filter(|object| object["kind"].as_str() != Some("ManagedClusterSet"))
        .map(|object| {
            let kind = object["kind"].as_str().unwrap_or_default();
            let name = object["metadata"]["name"].as_str().unwrap_or_default();
            let namespace = object["metadata"]["namespace"].as_str().map(String::from);
            (format!("{kind}/{name}"), namespace)
        })
        .collect()
}

/// The largest real source's shape: PlacementRules and PlacementBindings without a namespace,
/// applied with `kubectl apply -n NS`. Every object made for them has no namespace either, so
/// they land together wherever NS is; `--verify` reads them with the same `-n` and agrees.
#[test]
fn namespace_less_inputs_migrate_into_namespace_less_objects_and_verify_with_n() {
    let output = Test::new()
        .args(["migrate", "-f", "testdata/fleet/inventory.yaml"])
        .args([
            "-f",
            "testdata/migrate/policies",
            "-n",
            "policies",
            "--verify",
        ])
        .stderr_contains("PlacementRule/policies/placement-policy-namespace: identical (selection compared on 14 clusters)\n")
        .stderr_contains("PlacementRule/policies/placement-policy-pod: identical (selection compared on 14 clusters)\n")
        .stderr_contains("added ManagedClusterSetBinding/policies/global:")
        .run();
    let stdout = common::stdout(&output);
    // Every object is one the API server admits, with no namespace for `-n` to contradict.
    let schemas = Schemas::load();
    schemas.assert_admitted(&stdout, &Namespace::Absent, "migrate policies -n policies");
    let written = namespaces_as_written(&stdout);
    assert_eq!(
        written,
        vec![
            ("ManagedClusterSetBinding/global".to_string(), None),
            ("Placement/placement-policy-namespace".to_string(), None),
            ("Placement/placement-policy-pod".to_string(), None),
            (
                "PlacementBinding/binding-policy-namespace".to_string(),
                None
            ),
            ("PlacementBinding/binding-policy-pod".to_string(), None),
        ]
    );
    // Applied with -n policies, the Placements are where their bindings look for them.
    Test::new()
        .args(["plan", "-f", "testdata/fleet/inventory.yaml", "-f", "-"])
        .args(["-n", "policies", "-o", "name"])
        .stdin(stdout)
        .stdout("Placement/policies/placement-policy-namespace\nPlacement/policies/placement-policy-pod\n")
        .run();
}

/// `--out` puts namespace-less objects in `no-namespace/` (applied with `kubectl apply -n NS`)
/// and the cluster set in `cluster-scoped/`: no folder mixes objects with and without a
/// namespace.
#[test]
fn out_file_names_follow_the_namespace_as_written() {
    let dir = common::tempdir();
    let out = dir.path().join("migrated");
    Test::new()
        .args(["migrate", "-f", "testdata/fleet/inventory.yaml"])
        .args([
            "-f",
            "testdata/migrate/policies",
            "--out",
            &out.to_string_lossy(),
        ])
        .stderr_contains("added ManagedClusterSetBinding/default/global:")
        .run();
    assert_eq!(
        common::files_under(&out),
        [
            "cluster-scoped/managedclusterset_global.yaml",
            "no-namespace/managedclustersetbinding_global.yaml",
            "no-namespace/placement_placement-policy-namespace.yaml",
            "no-namespace/placement_placement-policy-pod.yaml",
            "no-namespace/placementbinding_binding-policy-namespace.yaml",
            "no-namespace/placementbinding_binding-policy-pod.yaml",
        ]
    );
}

/// Objects with a namespace keep it whatever `-n` says: it only names the namespace of
/// objects that have none.
#[test]
fn namespaced_inputs_keep_their_namespace_under_n() {
    migrate("testdata/migrate/placementrules.yaml")
        .args(["-n", "elsewhere"])
        .stdout(golden("placementrules.yaml"))
        .stderr(golden("placementrules.report.txt") + PLACEMENT_RULES_SUMMARY + "\n")
        .run();
}

/// Without `-n`, as kubectl does, a namespace-less object is in `default`: a PlacementRule
/// there needs a binding there, and `--verify` still compares like with like.
#[test]
fn without_n_namespace_less_inputs_resolve_to_default() {
    Test::new()
        .args(["migrate", "-f", "testdata/fleet/inventory.yaml"])
        .args(["-f", "testdata/migrate/policies", "--verify", "-o", "json"])
        .stderr_contains("PlacementRule/default/placement-policy-pod: identical (selection compared on 14 clusters)\n")
        .run();
}

/// A federation annotation's workload is delivered by a ManifestWorkReplicaSet holding it,
/// tied to the Placement, in the same namespace as written (none here); the manifest names
/// the namespace it runs in, and an apiVersion no current cluster serves is reported lost.
#[test]
fn annotated_workloads_are_delivered_by_a_manifest_work_replica_set() {
    let output = Test::new()
        .args(["migrate", "-f", "testdata/fleet/inventory.yaml"])
        .args(["-f", "testdata/migrate/federated-deployment.yaml", "-n", "demo", "--verify"])
        .stderr_contains("Deployment/demo/hello -> Placement/demo/deployment-hello, ManifestWorkReplicaSet/demo/deployment-hello: lossy\n")
        .stderr_contains("  exact: apiVersion extensions/v1beta1 -> apiVersion apps/v1 (extensions/v1beta1 Deployment is not served since Kubernetes 1.16)\n")
        .stderr_contains("  exact: spec.selector (absent) -> spec.selector.matchLabels (the template's labels) (extensions/v1beta1 defaulted the selector to the template's labels; apps/v1 requires it written)\n")
        .stderr_contains("  exact: spec.revisionHistoryLimit (absent) -> spec.revisionHistoryLimit 2147483647 (the extensions/v1beta1 default, written out: apps/v1 would default it otherwise)\n")
        .stderr_contains("  approximate: (namespace demo on the clusters) -> nothing")
        .stderr_contains("  approximate: (delivery by the hub) -> the ManifestWorkReplicaSet feature gate of the hub (the hub runs the ManifestWorkReplicaSet controller only with the ManifestWorkReplicaSet feature gate, off by default: a default hub accepts the object and delivers nothing; enable it on the ClusterManager (kubectl edit clustermanager cluster-manager): add {feature: ManifestWorkReplicaSet, mode: Enable} to spec.workConfiguration.featureGates)\n")
        .stderr_contains("Deployment/demo/hello: identical (selection compared on 14 clusters)\n")
        .run();
    let stdout = common::stdout(&output);
    use serde::Deserialize;
    let objects: Vec<serde_yaml::Value> = serde_yaml::Deserializer::from_str(&stdout)
        .map(|document| serde_yaml::Value::deserialize(document).unwrap_or_default())
        .collect();
    let kinds: Vec<&str> = objects
        .iter()
        .map(|object| object["kind"].as_str().unwrap_or_default())
        .collect();
    // The workload is not written back bare: applied to the hub, it would run there.
    assert_eq!(
        kinds,
        [
            "ManagedClusterSet",
            "ManagedClusterSetBinding",
            "Placement",
            "ManifestWorkReplicaSet"
        ]
    );
    let work = &objects[3];
    assert_eq!(
        work["apiVersion"],
        "work.open-cluster-management.io/v1alpha1"
    );
    assert!(work["metadata"]["namespace"].is_null(), "{stdout}");
    assert_eq!(work["spec"]["placementRefs"][0]["name"], "deployment-hello");
    let manifest = &work["spec"]["manifestWorkTemplate"]["workload"]["manifests"][0];
    assert_eq!(manifest["kind"], "Deployment");
    // Converted as kubectl convert does: apps/v1, with the selector extensions/v1beta1 implied.
    assert_eq!(manifest["apiVersion"], "apps/v1");
    assert_eq!(manifest["spec"]["selector"]["matchLabels"]["app"], "hello");
    assert_eq!(manifest["spec"]["strategy"]["rollingUpdate"]["maxSurge"], 1);
    assert_eq!(manifest["metadata"]["namespace"], "demo");
    assert!(manifest["metadata"]["annotations"].is_null(), "{stdout}");
}

/// `--no-manifest-work` writes the annotated object back bare instead of inside a
/// ManifestWorkReplicaSet, and the loss report says it is not delivered and what to do;
/// the removed apiVersion is still flagged, and the selection still verifies identical.
#[test]
fn no_manifest_work_writes_the_workload_back_and_reports_its_delivery_lost() {
    let output = Test::new()
        .args(["migrate", "-f", "testdata/fleet/inventory.yaml"])
        .args(["-f", "testdata/migrate/federated-deployment.yaml", "-n", "demo"])
        .args(["--verify", "--no-manifest-work"])
        .stderr_contains("Deployment/demo/hello -> Placement/demo/deployment-hello, Deployment/demo/hello: lossy\n")
        .stderr_contains("  lost: (delivery to the selected clusters) -> not carried (--no-manifest-work: the object is written back without the annotation and, applied to the hub, runs there; deliver it to the clusters Placement/deployment-hello selects yourself")
        .stderr_contains("  exact: apiVersion extensions/v1beta1 -> apiVersion apps/v1 (extensions/v1beta1 Deployment is not served since Kubernetes 1.16)\n")
        .stderr_contains("Deployment/demo/hello: identical (selection compared on 14 clusters)\n")
        .run();
    let stdout = common::stdout(&output);
    let written = namespaces_as_written(&stdout);
    assert_eq!(
        written
            .iter()
            .map(|(object, _)| object.as_str())
            .collect::<Vec<_>>(),
        [
            "ManagedClusterSetBinding/global",
            "Placement/deployment-hello",
            "Deployment/hello"
        ]
    );
    assert!(!stdout.contains("ManifestWorkReplicaSet"), "{stdout}");
    assert!(
        stdout.contains("apiVersion: apps/v1\nkind: Deployment\n"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("federation.alpha.kubernetes.io"),
        "{stdout}"
    );
}

#[test]
fn no_manifest_work_is_refused_with_karmada() {
    Test::new()
        .args(["migrate", "-f", "testdata/migrate/federated-deployment.yaml"])
        .args(["--to", "karmada", "--no-manifest-work"])
        .stderr("error: --no-manifest-work leaves out the OCM ManifestWorkReplicaSet; Karmada resource templates are delivered by their PropagationPolicies (drop it or use --to ocm)\n")
        .status(1)
        .run();
}

#[test]
fn a_negative_cluster_replicas_becomes_zero_clusters_and_verifies() {
    // The rule selects no cluster; a Placement with a negative numberOfClusters would make the
    // placement controller panic, so the migrated one asks for 0 and plans the same.
    let output = Test::new()
        .args(["migrate", "-f", "testdata/fleet/inventory.yaml", "-f", "-", "--verify"])
        .stdin("apiVersion: apps.open-cluster-management.io/v1\nkind: PlacementRule\nmetadata:\n  name: r\n  namespace: ns\nspec:\n  clusterReplicas: -1\n")
        .stderr_contains("exact: spec.clusterReplicas -> spec.numberOfClusters 0 (a negative clusterReplicas selects no cluster, and the placement controller panics on a negative numberOfClusters)")
        .status(0)
        .run();
    assert!(common::stdout(&output).contains("  numberOfClusters: 0\n"));
}

/// `--fail-on lost` gates on the loss report: the report and the summary are printed, then an
/// error naming the conversions that lose a field, with nothing on stdout and exit 1, even
/// though `--verify` finds every selection identical.
#[test]
fn fail_on_lost_exits_1_and_writes_nothing_though_verify_is_identical() {
    // autoscaling/v2beta1 metrics have another shape in autoscaling/v2: not converted.
    let hpa = "apiVersion: autoscaling/v2beta1\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\n  namespace: demo\n  annotations:\n    federation.alpha.kubernetes.io/cluster-selector: '[{\"key\": \"env\", \"operator\": \"in\", \"values\": [\"prod\"]}]'\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 3\n";
    Test::new()
        .args(["migrate", "-f", "testdata/fleet/inventory.yaml", "-f", "-"])
        .args(["--verify", "--fail-on", "lost"])
        .stdin(hpa)
        .stderr_contains("  lost: apiVersion autoscaling/v2beta1 -> not carried (autoscaling/v2beta1 HorizontalPodAutoscaler is not served since Kubernetes 1.25: every cluster refuses it; write it as autoscaling/v2)\n")
        .stderr_contains("HorizontalPodAutoscaler/demo/web: identical (selection compared on 14 clusters)\n1 migrated: 0 exact, 0 approximate, 1 lost; verified 1 identical\nerror: --fail-on lost: nothing written, 1 conversion loses a field: HorizontalPodAutoscaler/demo/web\n")
        .stdout("")
        .status(1)
        .run();
}

/// `--fail-on approximate` also refuses what is only approximate, and `--out` then writes
/// nothing; `--fail-on lost` lets the same inputs through.
#[test]
fn fail_on_approximate_refuses_an_approximation_and_out_stays_empty() {
    let dir = common::tempdir();
    let out = dir.path().join("migrated");
    migrate("testdata/migrate/cluster-selectors.yaml")
        .args(["--fail-on", "approximate", "--out", &out.to_string_lossy()])
        .stderr_contains("7 migrated: 0 exact, 7 approximate, 0 lost\nerror: --fail-on approximate: nothing written, 7 conversions are not exact: ConfigMap/shop/equality-aliases, ")
        .stdout("")
        .status(1)
        .run();
    assert_eq!(entries(dir.path()), Vec::<String>::new());
    migrate("testdata/migrate/cluster-selectors.yaml")
        .args(["--fail-on", "lost", "--out", &out.to_string_lossy()])
        .stderr_contains("7 migrated: 0 exact, 7 approximate, 0 lost\n")
        .run();
    assert_eq!(entries(dir.path()), ["migrated"]);
}

/// The JSON document carries the summary's counts.
#[test]
fn json_carries_the_summary() {
    let output = migrate("testdata/migrate/placementrules.yaml")
        .args(["-o", "json", "--verify"])
        .stderr_contains("; verified 6 identical, 1 different\n")
        .status(2)
        .run();
    let document: serde_json::Value =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        document["summary"],
        serde_json::json!({"migrated": 6, "exact": 2, "approximate": 3, "lost": 1, "references": 2, "failed": 0})
    );
    assert_eq!(document["verification"][0]["checks"][0]["compared"], 14);
}

/// The same rule under two folders (as policy-collection has under `community/` and
/// `stable/`): read once with a warning naming both places, migrated once, its binding
/// rewritten once, and `--out` writes each object once.
#[test]
fn identical_duplicates_are_migrated_once_with_a_warning() {
    let dir = common::tempdir();
    for folder in ["community", "stable"] {
        let copy = dir.path().join(folder);
        std::fs::create_dir(&copy).unwrap_or_else(|error| panic!("{error}"));
        for file in
            std::fs::read_dir("testdata/migrate/policies").unwrap_or_else(|error| panic!("{error}"))
        {
            let path = file.unwrap_or_else(|error| panic!("{error}")).path();
            let name = path.file_name().unwrap_or_default();
            std::fs::copy(&path, copy.join(name)).unwrap_or_else(|error| panic!("{error}"));
        }
    }
    let inputs = dir.path().to_string_lossy().into_owned();
    let out = dir.path().join("out");
    let output = Test::new()
        .args(["migrate", "-f", "testdata/fleet/inventory.yaml", "-f", &inputs])
        .args(["-n", "policies", "--verify"])
        .stderr_contains("stable/")
        .stderr_contains(": the same object as at ")
        .stderr_contains(", read once\n")
        .stderr_contains("PlacementRule/policies/placement-policy-pod: the same object as at ")
        .stderr_contains("2 migrated: 2 exact, 0 approximate, 0 lost; 2 references rewritten; verified 3 identical\n")
        .run();
    let written = namespaces_as_written(&common::stdout(&output));
    assert_eq!(written.len(), 5, "{written:?}");
    Test::new()
        .args([
            "migrate",
            "-f",
            "testdata/fleet/inventory.yaml",
            "-f",
            &inputs,
        ])
        .args(["-n", "policies", "--out", &out.to_string_lossy()])
        .stderr_contains(", read once\n")
        .run();
    assert_eq!(common::files_under(&out).len(), 6);
}

/// Two different objects under one identity are an error naming both places; nothing is
/// written.
#[test]
fn differing_duplicates_are_an_error_naming_both() {
    let dir = common::tempdir();
    let rule = "apiVersion: apps.open-cluster-management.io/v1\nkind: PlacementRule\nmetadata: {name: r, namespace: ns}\nspec: {clusterReplicas: REPLICAS}\n";
    common::write(&dir.path().join("a.yaml"), &rule.replace("REPLICAS", "1"));
    common::write(&dir.path().join("b.yaml"), &rule.replace("REPLICAS", "2"));
    let output = Test::new()
        .args(["migrate", "-f", "testdata/fleet/inventory.yaml"])
        .args(["-f", &dir.path().to_string_lossy()])
        .stdout("")
        .status(1)
        .stderr_contains("b.yaml#1")
        .stderr_contains("a.yaml#1")
        .run();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("PlacementRule/ns/r"), "{stderr}");
}

/// Two PlacementRules of one name whose content differs, and a third rule that is fine.
const DIFFERING_COPIES: &str = r#"
apiVersion: apps.open-cluster-management.io/v1
kind: PlacementRule
metadata: {name: web, namespace: shop}
spec: {clusterSelector: {matchLabels: {env: prod}}}
---
apiVersion: apps.open-cluster-management.io/v1
kind: PlacementRule
metadata: {name: web, namespace: shop}
spec: {clusterSelector: {matchLabels: {env: staging}}}
---
apiVersion: apps.open-cluster-management.io/v1
kind: PlacementRule
metadata: {name: api, namespace: shop}
spec: {clusterSelector: {matchLabels: {env: prod}}}
"#;

#[test]
fn without_keep_going_a_differing_duplicate_migrates_nothing() {
    migrate("-")
        .stdin(DIFFERING_COPIES)
        .stderr("error: <stdin>#2: PlacementRule/shop/web: duplicate, first defined at <stdin>#1\n")
        .stdout("")
        .status(1)
        .run();
}

#[test]
fn keep_going_migrates_the_rest_and_ends_with_what_failed() {
    let output = migrate("-")
        .arg("--keep-going")
        .arg("--verify")
        .stdin(DIFFERING_COPIES)
        .stderr_contains(
            "1 migrated: 1 exact, 0 approximate, 0 lost; 2 failed; verified 1 identical\n\
             error: <stdin>#2: PlacementRule/shop/web: duplicate, first defined at <stdin>#1\n\
             error: <stdin>#1: PlacementRule/shop/web: not migrated either, it differs from its copy at <stdin>#2\n",
        )
        .status(1)
        .run();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.ends_with("its copy at <stdin>#2\n"), "{stderr}");
    let stdout = common::stdout(&output);
    assert!(
        stdout.contains("kind: Placement\nmetadata:\n  name: api\n  namespace: shop\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("name: web"), "{stdout}");
}

#[test]
fn keep_going_leaves_out_a_document_that_does_not_load() {
    let stdin = "apiVersion: apps.open-cluster-management.io/v1\nkind: PlacementRule\n\
                 metadata: {name: web, namespace: shop}\n\
                 spec: {clusterReplicas: many}\n---\n"
        .to_string()
        + DIFFERING_COPIES.split("---").nth(2).unwrap_or_default();
    let output = migrate("-")
        .arg("--keep-going")
        .stdin(stdin)
        .stderr_contains("1 migrated: 1 exact, 0 approximate, 0 lost; 1 failed\nerror: <stdin>#1: PlacementRule/shop/web: spec.clusterReplicas: ")
        .status(1)
        .run();
    let stdout = common::stdout(&output);
    assert!(stdout.contains("  name: api\n"), "{stdout}");
    assert!(!stdout.contains("name: web"), "{stdout}");
}

#[test]
fn keep_going_writes_out_the_objects_that_migrated() {
    let dir = common::tempdir();
    let out = dir.path().join("migrated");
    Test::new()
        .args(["migrate", "-f", "testdata/fleet/inventory.yaml", "-f", "-"])
        .args(["--out", &out.to_string_lossy(), "--keep-going"])
        .stdin(FINE_THEN_BROKEN)
        .stderr_contains("; 1 failed\nerror: <stdin>#2: ConfigMap/shop/broken: annotation federation.alpha.kubernetes.io/cluster-selector:")
        .stdout("")
        .status(1)
        .run();
    let written = common::files_under(&out);
    assert!(
        written.iter().any(|file| file.contains("configmap-fine")),
        "{written:?}"
    );
    assert!(
        !written.iter().any(|file| file.contains("broken")),
        "{written:?}"
    );
}
