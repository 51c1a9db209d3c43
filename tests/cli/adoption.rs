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
     federation Cluster or Karmada Cluster objects); add it with -f; to validate the manifests \
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
        "::warning file=apps/shop/placement.yaml,line=1::apps/shop/placement.yaml#1: line 1: \
             Placement/apps/storefront: \
             AllManagedClusterSetsEmpty: All ManagedClusterSets [canary] have no member \
             ManagedCluster (hint: a ManagedCluster is a member of the set canary when it has \
             the label cluster.open-cluster-management.io/clusterset=canary)\n\
             1 item checked: 1 unsatisfied\n",
    )
    .status(3)
    .run();
}
