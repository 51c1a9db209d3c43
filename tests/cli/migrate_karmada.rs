//! `fleetplan migrate --to karmada`: kubefed Federated* objects with their
//! ReplicaSchedulingPreferences, and federation annotations, as resource templates with
//! Karmada PropagationPolicies; the loss report, `--verify` verdicts and exit codes.

use crate::common::{self, Test};
use crate::migrate::{golden, FLEET};

fn migrate(input: &str) -> Test {
    Test::new()
        .args(["migrate", "--to", "karmada"])
        .args(FLEET)
        .args(["-f", input])
}

#[test]
fn kubefed_objects_karmada_carries_exactly_verify_identical_and_exit_0() {
    migrate("testdata/migrate/karmada/kubefed.yaml")
        .arg("--verify")
        .stdout(golden("karmada-kubefed.yaml"))
        .stderr(
            golden("karmada-kubefed.report.txt")
                + &golden("karmada-kubefed.verify.txt")
                + "4 migrated: 3 exact, 0 approximate, 1 lost; verified 3 identical\n",
        )
        .run();
}

#[test]
fn the_verification_names_what_a_lost_minimum_and_capacity_cost_and_exits_2() {
    migrate("testdata/fleet/workloads/kubefed.yaml")
        .arg("--verify")
        .stdout(golden("karmada-fleet-kubefed.yaml"))
        .stderr(
            golden("karmada-fleet-kubefed.report.txt")
                + &golden("karmada-fleet-kubefed.verify.txt")
                + "3 migrated: 2 exact, 0 approximate, 1 lost; verified 1 identical, 1 different\n",
        )
        .status(2)
        .run();
}

#[test]
fn lost_fields_are_named_in_the_report() {
    migrate("testdata/fleet/workloads/kubefed.yaml")
        .stdout(golden("karmada-fleet-kubefed.yaml"))
        .stderr_contains("  lost: spec.clusters[\"gcp-eu-central-prod-1\"].minReplicas -> not carried (Karmada static weights have no per-cluster minimum")
        .stderr_contains("  lost: spec.clusters[\"azure-ap-south-prod-1\"].maxReplicas 2 -> not carried")
        .run();
}

#[test]
fn federation_annotations_become_policies_over_the_stripped_objects() {
    migrate("testdata/migrate/cluster-selectors.yaml")
        .arg("--verify")
        .stdout(golden("karmada-cluster-selectors.yaml"))
        .stderr(
            golden("karmada-cluster-selectors.report.txt")
                + &golden("karmada-cluster-selectors.verify.txt")
                + "7 migrated: 5 exact, 2 approximate, 0 lost; verified 5 identical\n",
        )
        .run();
}

#[test]
fn verify_plans_on_stand_in_clusters_and_says_so() {
    migrate("testdata/migrate/karmada/kubefed.yaml")
        .arg("--verify")
        .stderr_contains("warning: verify: the inputs have no Karmada Clusters; the policies are planned on 14 made from the inventory")
        .run();
}

/// The migrated objects plan with the Karmada engine on real Karmada Clusters: the
/// template is claimed by its policy and divided by its static weights.
#[test]
fn migrated_objects_plan_as_karmada_workloads() {
    let output = migrate("testdata/migrate/karmada/kubefed.yaml")
        .stderr_contains("")
        .run();
    let migrated = common::stdout(&output);
    let clusters = "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: gcp-eu-central-prod-1, labels: {env: prod, cloud: gcp}}\nspec: {syncMode: Push}\nstatus: {apiEnablements: [{groupVersion: apps/v1, resources: [{kind: Deployment}]}]}\n---\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: gcp-us-east-prod-1, labels: {env: prod, cloud: gcp}}\nspec: {syncMode: Push}\nstatus: {apiEnablements: [{groupVersion: apps/v1, resources: [{kind: Deployment}]}]}\n---\n";
    let planned = Test::new()
        .args(["plan", "-f", "-"])
        .stdin(format!("{clusters}{migrated}"))
        .stderr_contains("")
        .run();
    let text = String::from_utf8_lossy(&planned.stdout);
    assert!(
        text.contains("Deployment/shop/storefront (apps/v1): 2 clusters\n  CLUSTER                 REPLICAS   POLICY\n  gcp-eu-central-prod-1   5          PropagationPolicy/shop/storefront-deployment\n  gcp-us-east-prod-1      3          PropagationPolicy/shop/storefront-deployment\n"),
        "{text}"
    );
}

#[test]
fn placement_rules_are_left_for_the_ocm_migration_with_a_warning() {
    Test::new()
        .args(["migrate", "--to", "karmada"])
        .args(FLEET)
        .args(["-f", "testdata/migrate/placementrules.yaml", "-f", "testdata/migrate/karmada/kubefed.yaml"])
        .stderr_contains("not migrated: --to karmada migrates kubefed and federation objects; a PlacementRule migrates with --to ocm")
        .run();
}

#[test]
fn set_is_refused_with_karmada() {
    migrate("testdata/migrate/karmada/kubefed.yaml")
        .args(["--set", "prod"])
        .stdout("")
        .stderr("error: --set names the OCM ManagedClusterSet of migrated Placements; Karmada policies have none (drop --set or use --to ocm)\n")
        .status(1)
        .run();
}

#[test]
fn json_holds_the_policies_report_and_verification() {
    let output = migrate("testdata/migrate/karmada/kubefed.yaml")
        .args(["--verify", "-o", "json"])
        .stderr_contains("")
        .run();
    let document: serde_json::Value =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|error| panic!("{error}"));
    let kinds: Vec<&str> = document["items"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item["kind"].as_str())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        kinds,
        vec![
            "ConfigMap",
            "PropagationPolicy",
            "Deployment",
            "PropagationPolicy",
            "Service",
            "PropagationPolicy",
            "OverridePolicy"
        ]
    );
    let verdicts: Vec<bool> = document["verification"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item["identical"].as_bool())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(verdicts, vec![true, true, true]);
}

fn sample1() -> Test {
    Test::new()
        .args(["migrate", "--to", "karmada"])
        .args(["-f", "testdata/migrate/kubefed-sample1-clusters.yaml"])
        .args(["-f", "testdata/migrate/kubefed-sample1"])
}

fn kinds_and_names(stream: &str) -> Vec<String> {
    crate::schemas::yaml_documents(stream)
        .iter()
        .map(|object| {
            format!(
                "{}/{}",
                object["kind"].as_str().unwrap_or_default(),
                object["metadata"]["name"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

/// kubefed's own example/sample1 migrates whole: every type kubefed enables by default
/// (FederatedNamespace and the cluster-scoped FederatedClusterRole and
/// FederatedClusterRoleBinding included) becomes its plain object; the namespace comes first,
/// labelled so Karmada leaves it to its ClusterPropagationPolicy, and cluster-scoped
/// templates get ClusterPropagationPolicies. Every selection verifies identical.
#[test]
fn kubefed_sample1_migrates_whole() {
    let output = sample1()
        .arg("--verify")
        .stderr_contains("FederatedNamespace/test-namespace/test-namespace -> Namespace/test-namespace, ClusterPropagationPolicy/test-namespace-namespace: exact\n")
        .stderr_contains("  exact: (the namespace on the placed clusters only) -> metadata.labels[namespace.karmada.io/skip-auto-propagation] \"true\" (Karmada's namespace sync controller creates every namespace on every member cluster unless it carries this label")
        .stderr_contains("FederatedClusterRole/test-clusterrole -> ClusterRole/test-clusterrole, ClusterPropagationPolicy/test-clusterrole-clusterrole: exact\n")
        .stderr_contains("  exact: (FederatedNamespace test-namespace spec.placement) -> nothing (kubefed placed a namespaced object only on clusters its FederatedNamespace selects too, which are every cluster it names)\n")
        .stderr_contains("FederatedNamespace/test-namespace/test-namespace: identical (selection compared on 2 clusters)\n")
        .stderr_contains("FederatedClusterRoleBinding/test-clusterrolebinding: identical (selection compared on 2 clusters)\n")
        .stderr_contains("10 migrated: 10 exact, 0 approximate, 0 lost; verified 10 identical\n")
        .stderr_contains("  exact: apiVersion extensions/v1beta1 -> apiVersion networking.k8s.io/v1 (extensions/v1beta1 Ingress is not served since Kubernetes 1.22)\n")
        .stderr_contains("  exact: spec.rules[0].http.paths[0].backend.serviceName -> spec.rules[0].http.paths[0].backend.service.name\n")
        .run();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("error:"), "{stderr}");
    let stdout = common::stdout(&output);
    let written = kinds_and_names(&stdout);
    assert_eq!(
        written[..4],
        [
            "Namespace/test-namespace",
            "ClusterPropagationPolicy/test-namespace-namespace",
            "ClusterRole/test-clusterrole",
            "ClusterPropagationPolicy/test-clusterrole-clusterrole",
        ]
    );
    // The plain Namespace of the inputs is the one written, labelled, not a second one.
    assert_eq!(
        written
            .iter()
            .filter(|w| w.starts_with("Namespace/"))
            .count(),
        1
    );
    assert!(
        stdout.contains("  labels:\n    namespace.karmada.io/skip-auto-propagation: 'true'\n"),
        "{stdout}"
    );
    // Every object is one the API server admits under kubectl's strict field validation:
    // Kubernetes' own kinds against the Kubernetes 1.37 schemas (the FederatedIngress's
    // extensions/v1beta1 body converted to networking.k8s.io/v1), Karmada's against its CRDs.
    let schemas = crate::schemas::Schemas::with_kubernetes();
    let count = schemas.assert_admitted(
        &stdout,
        &crate::schemas::Namespace::OneOf(&["test-namespace"]),
        "migrate --to karmada kubefed example/sample1",
    );
    assert_eq!(count, written.len());
    // Cluster-scoped objects have no namespace.
    for object in crate::schemas::yaml_documents(&stdout) {
        let kind = object["kind"].as_str().unwrap_or_default();
        if kind.starts_with("Cluster") || kind == "Namespace" {
            assert!(object["metadata"]["namespace"].is_null(), "{object}");
        }
    }
}

/// A FederatedTypeConfig in the inputs says what a federated kind outside kubefed's defaults
/// federates; without it the kind is an error naming what to add.
#[test]
fn a_federated_type_config_in_the_inputs_maps_another_type() {
    let widget = "apiVersion: types.kubefed.io/v1beta1\nkind: FederatedWidget\nmetadata: {name: w, namespace: shop}\nspec:\n  template: {spec: {size: 3}}\n  placement: {clusters: [{name: cluster1}]}\n";
    let config = "apiVersion: core.kubefed.io/v1beta1\nkind: FederatedTypeConfig\nmetadata: {name: widgets.example.com, namespace: kube-federation-system}\nspec:\n  federatedType: {group: types.kubefed.io, version: v1beta1, kind: FederatedWidget, pluralName: federatedwidgets, scope: Namespaced}\n  propagation: Enabled\n  targetType: {group: example.com, version: v2, kind: Widget, pluralName: widgets, scope: Namespaced}\n";
    let output = Test::new()
        .args(["migrate", "--to", "karmada"])
        .args([
            "-f",
            "testdata/migrate/kubefed-sample1-clusters.yaml",
            "-f",
            "-",
        ])
        .stdin(format!("{widget}---\n{config}"))
        .stderr_contains(
            "FederatedWidget/shop/w -> Widget/shop/w, PropagationPolicy/shop/w-widget: exact\n",
        )
        .run();
    assert!(
        common::stdout(&output).starts_with("apiVersion: example.com/v2\nkind: Widget\n"),
        "{}",
        common::stdout(&output)
    );
    Test::new()
        .args(["migrate", "--to", "karmada"])
        .args(["-f", "testdata/migrate/kubefed-sample1-clusters.yaml", "-f", "-"])
        .stdin(widget)
        .stderr_contains("error: <stdin>#1: FederatedWidget/shop/w: kind FederatedWidget: no FederatedTypeConfig says which type it federates (kubefed's defaults and the inputs' FederatedTypeConfigs know FederatedClusterRole, ")
        .stderr_contains("; add its FederatedTypeConfig with -f\n")
        .status(1)
        .run();
}

/// `--out` puts sample1's cluster-scoped objects (the Namespace, the ClusterRoles and their
/// ClusterPropagationPolicies) apart from the namespaced ones, which are all in
/// `namespaces/test-namespace/`: each folder applies with one `kubectl apply -f`.
#[test]
fn kubefed_sample1_out_folders_apply_one_by_one() {
    let dir = common::tempdir();
    let out = dir.path().join("karmada");
    sample1()
        .args(["--out", &out.to_string_lossy()])
        .stderr_contains("10 migrated: 10 exact")
        .stdout("")
        .run();
    let files = common::files_under(&out);
    let folders: std::collections::BTreeSet<&str> = files
        .iter()
        .filter_map(|file| file.rsplit_once('/').map(|(folder, _)| folder))
        .collect();
    assert_eq!(
        folders.into_iter().collect::<Vec<_>>(),
        ["cluster-scoped", "namespaces/test-namespace"]
    );
    assert!(files.contains(&"cluster-scoped/namespace_test-namespace.yaml".to_string()));
    assert!(files.contains(
        &"cluster-scoped/clusterpropagationpolicy_test-clusterrole-clusterrole.yaml".to_string()
    ));
    assert!(files.contains(&"namespaces/test-namespace/ingress_test-ingress.yaml".to_string()));
}
