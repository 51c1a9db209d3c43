//! `fleetplan migrate --in-place`: the source files rewritten, every unchanged document byte
//! for byte, all files or none, only once `--verify` proved the migration; the `kubectl
//! delete` lines for the old objects.

use std::path::Path;

use crate::common::{self, Test};
use crate::migrate::FLEET;

const POLICIES: &str = "testdata/migrate/policies";

/// A document that the migration does not touch, with comments and odd formatting.
const UNTOUCHED: &str = "---\n# kept as written\napiVersion: v1\nkind:   ConfigMap   # odd spacing\nmetadata: {name: notes, namespace: default}\ndata: {a: 'x'}\n";

/// A copy of testdata/migrate/policies in a temporary directory, with [`UNTOUCHED`] after
/// policy-pod.yaml's documents.
fn policies() -> tempfile::TempDir {
    let dir = common::tempdir();
    for name in ["policy-namespace.yaml", "policy-pod.yaml"] {
        let mut text = read(&Path::new(POLICIES).join(name));
        if name == "policy-pod.yaml" {
            text.push_str(UNTOUCHED);
        }
        common::write(&dir.path().join(name), &text);
    }
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Each Policy's clusters, as `plan -o json` gives them.
fn policy_clusters(inputs: &str) -> Vec<(String, serde_json::Value)> {
    let output = Test::new()
        .args(["plan", "-o", "json"])
        .args(FLEET)
        .args(["-f", inputs])
        .stderr_contains("")
        .run();
    let plan: serde_json::Value =
        serde_json::from_str(&common::stdout(&output)).unwrap_or_default();
    let mut policies: Vec<(String, serde_json::Value)> = plan["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|item| item["source"]["kind"] == "Policy")
        .map(|item| (item["source"]["name"].to_string(), item["clusters"].clone()))
        .collect();
    policies.sort_by(|a, b| a.0.cmp(&b.0));
    policies
}

#[test]
fn in_place_rewrites_each_rule_into_its_placement_and_plans_the_same_clusters() {
    let dir = policies();
    let inputs = dir.path().to_string_lossy().into_owned();
    let before = policy_clusters(&inputs);
    assert!(!before.is_empty());
    Test::new()
        .arg("migrate")
        .args(FLEET)
        .args(["-f", &inputs, "--in-place"])
        .stdout(
            "kubectl delete placementrule.apps.open-cluster-management.io/placement-policy-namespace\n\
             kubectl delete placementrule.apps.open-cluster-management.io/placement-policy-pod\n",
        )
        .stderr_contains("verified 3 identical\nrewrote 2 files; delete the old objects from the hub with the commands on standard output\n")
        .run();
    let pod = read(&dir.path().join("policy-pod.yaml"));
    assert!(pod.ends_with(UNTOUCHED), "{pod}");
    for name in ["policy-namespace.yaml", "policy-pod.yaml"] {
        let text = read(&dir.path().join(name));
        assert!(!text.contains("kind: PlacementRule"), "{text}");
        // Each file applies alone: its Placement's binding is in it.
        assert!(text.contains("kind: ManagedClusterSetBinding\n"), "{text}");
    }
    // The Policy documents themselves did not change.
    let original = read(&Path::new(POLICIES).join("policy-namespace.yaml"));
    let policy = &original[..original.find("---").unwrap_or_default()];
    assert!(
        read(&dir.path().join("policy-namespace.yaml")).starts_with(policy),
        "{policy}"
    );
    assert_eq!(policy_clusters(&inputs), before);
}

#[test]
fn in_place_rewrites_nothing_when_verify_finds_a_difference() {
    let dir = common::tempdir();
    let file = dir.path().join("rules.yaml");
    let original = read(Path::new("testdata/migrate/placementrules.yaml"));
    common::write(&file, &original);
    Test::new()
        .arg("migrate")
        .args(FLEET)
        .args(["-f", &file.to_string_lossy(), "--in-place"])
        .stderr_contains(
            "error: --in-place: nothing rewritten, --verify found objects that plan differently\n",
        )
        .stdout("")
        .status(2)
        .run();
    assert_eq!(read(&file), original);
    assert_eq!(common::entries(dir.path()), ["rules.yaml"]);
}

#[test]
fn in_place_refuses_standard_input() {
    Test::new()
        .arg("migrate")
        .args(FLEET)
        .args(["-f", "-", "--in-place"])
        .stdin("")
        .stderr("error: --in-place: standard input cannot be rewritten; give the files with -f\n")
        .status(1)
        .run();
}

#[cfg(unix)]
#[test]
fn in_place_refuses_a_symbolic_link() {
    let dir = policies();
    let link = dir.path().join("link.yaml");
    let target = std::fs::canonicalize(dir.path().join("policy-pod.yaml")).unwrap_or_default();
    std::os::unix::fs::symlink(&target, &link).unwrap_or_else(|error| panic!("{error}"));
    Test::new()
        .arg("migrate")
        .args(FLEET)
        .args(["-f", &link.to_string_lossy(), "--in-place"])
        .stderr_contains(
            "not a regular file or directory (a symbolic link, device or FIFO is not rewritten)\n",
        )
        .status(1)
        .run();
}

/// The same rule under two folders (community/ and stable/ in policy-collection): both
/// copies become the Placement, each with its binding, so either folder applies alone.
#[test]
fn in_place_rewrites_every_copy_of_an_identical_duplicate() {
    let dir = policies();
    let copy = dir.path().join("stable");
    std::fs::create_dir(&copy).unwrap_or_else(|error| panic!("{error}"));
    let pod = read(&dir.path().join("policy-pod.yaml"));
    common::write(&copy.join("policy-pod.yaml"), &pod);
    let output = Test::new()
        .arg("migrate")
        .args(FLEET)
        .args(["-f", &dir.path().to_string_lossy(), "--in-place"])
        .stderr_contains("rewrote 3 files;")
        .run();
    let stdout = common::stdout(&output);
    assert_eq!(
        stdout
            .matches("placementrule.apps.open-cluster-management.io/placement-policy-pod\n")
            .count(),
        1,
        "{stdout}"
    );
    assert_eq!(
        read(&copy.join("policy-pod.yaml")),
        read(&dir.path().join("policy-pod.yaml"))
    );
}

/// policy-collection's excerpt (testdata/migrate/policy-collection, from cec403c) in place
/// with `--keep-going`: the rule both folders share becomes its Placement in both, each file
/// with its binding; the documents that failed (differing copies, a rule whose Placement
/// already exists) stay byte for byte, and the run exits 1 naming them.
#[test]
fn in_place_with_keep_going_rewrites_what_migrated_and_keeps_what_failed() {
    let dir = common::tempdir();
    let source = Path::new("testdata/migrate/policy-collection");
    let files = common::files_under(source);
    for relative in &files {
        let to = dir.path().join(relative);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|error| panic!("{error}"));
        }
        common::write(&to, &read(&source.join(relative)));
    }
    let output = Test::new()
        .args(["migrate", "-f", "testdata/migrate/policy-collection-fleet.yaml"])
        .args(["-f", &dir.path().to_string_lossy(), "--in-place", "--keep-going"])
        .stderr_contains("1 migrated: 1 exact, 0 approximate, 0 lost; 1 references rewritten; 5 failed; verified 2 identical\n")
        .stderr_contains("rewrote 2 files;")
        .stdout("kubectl delete placementrule.apps.open-cluster-management.io/placement-policy-gatekeeper-operator\n")
        .status(1)
        .run();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("stable/CM-Configuration-Management/policy-pod.yaml#3: PlacementRule/default/placement-policy-pod: Placement/default/placement-policy-pod already exists in the inputs or another migration\nrewrote 2 files;"),
        "{stderr}"
    );
    for gatekeeper in [
        "community/CM-Configuration-Management/policy-gatekeeper-operator.yaml",
        "stable/CM-Configuration-Management/policy-gatekeeper-operator-downstream.yaml",
    ] {
        let text = read(&dir.path().join(gatekeeper));
        assert!(
            !text.contains("\nkind: PlacementRule"),
            "{gatekeeper}: {text}"
        );
        assert!(text.contains("\nkind: Placement\n"), "{gatekeeper}: {text}");
        assert!(
            text.contains("\nkind: ManagedClusterSetBinding\n"),
            "{gatekeeper}: {text}"
        );
    }
    for failed in [
        "community/CM-Configuration-Management/policy-pod-placement.yaml",
        "stable/CM-Configuration-Management/policy-pod.yaml",
    ] {
        assert_eq!(
            read(&dir.path().join(failed)),
            read(&source.join(failed)),
            "{failed}"
        );
    }
}
