//! YAML 1.1 scalars: what kubectl (go-yaml v2) reads as booleans or numbers where fleetplan's
//! YAML 1.2 reads strings. Kubernetes objects are refused where the API server wants a
//! string and read as kubectl reads them elsewhere; fleetplan's own ClusterInventory is warned
//! about; everything fleetplan writes as YAML quotes such strings.

use crate::common::Test;

/// Ten clusters, a global set and its binding in `apps`; the shared start of every input.
fn fleet() -> String {
    let clusters: Vec<String> = (0..10)
        .map(|index| format!("  - {{name: c{index}, labels: {{env: prod, gpu: 'yes'}}}}\n"))
        .collect();
    format!(
        "apiVersion: fleetplan.io/v1alpha1
kind: ClusterInventory
metadata: {{name: fleet}}
clusters:
{}---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSet
metadata: {{name: all}}
spec: {{clusterSelector: {{selectorType: LabelSelector, labelSelector: {{}}}}}}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSetBinding
metadata: {{name: all, namespace: apps}}
spec: {{clusterSet: all}}
---
",
        clusters.concat()
    )
}

fn placement(spec: &str) -> String {
    format!(
        "{}apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {{name: p, namespace: apps}}
spec:
  clusterSets: [all]
{spec}",
        fleet()
    )
}

fn plan(input: String) -> Test {
    Test::new().args(["plan", "-f", "-"]).stdin(input)
}

#[test]
fn a_placement_match_labels_value_yes_is_refused() {
    let input = placement(
        "  predicates:
  - requiredClusterSelector:
      labelSelector:
        matchLabels: {env: yes}
",
    );
    plan(input)
        .stderr(
            "error: <stdin>#4: Placement/apps/p: spec.predicates[0].requiredClusterSelector.labelSelector.matchLabels.env: \
             unquoted yes is the boolean true to kubectl (YAML 1.1), not a string: quote it (\"yes\")\n",
        )
        .status(1)
        .run();
}

#[test]
fn a_quoted_yes_is_a_string() {
    let input = placement(
        "  predicates:
  - requiredClusterSelector:
      labelSelector:
        matchLabels: {gpu: \"yes\"}
  numberOfClusters: 2
",
    );
    let output = plan(input).args(["-o", "json"]).run();
    let plan: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
    let clusters = plan["items"][0]["clusters"].as_array().map(Vec::len);
    assert_eq!(clusters, Some(2), "{plan}");
}

#[test]
fn a_match_labels_key_on_is_refused() {
    let input = placement(
        "  predicates:
  - requiredClusterSelector:
      labelSelector:
        matchLabels: {on: x}
",
    );
    plan(input)
        .stderr(
            "error: <stdin>#4: Placement/apps/p: spec.predicates[0].requiredClusterSelector.labelSelector.matchLabels.on: \
             unquoted key on is the boolean true to kubectl (YAML 1.1), not a string: quote it (\"on\")\n",
        )
        .status(1)
        .run();
}

#[test]
fn deployment_labels_namespaces_and_pod_template_labels_are_refused() {
    let input = format!(
        "{}apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: no
  labels: {{app: web, feature: on}}
  annotations:
    federation.alpha.kubernetes.io/cluster-selector: '[]'
spec:
  replicas: 1
  template:
    metadata:
      labels: {{app: web, canary: Off}}
",
        fleet()
    );
    plan(input)
        .stderr(
            "error: <stdin>#4: Deployment/no/web: metadata.namespace: unquoted no is the boolean false to kubectl (YAML 1.1), not a string: quote it (\"no\")
error: <stdin>#4: Deployment/no/web: metadata.labels.feature: unquoted on is the boolean true to kubectl (YAML 1.1), not a string: quote it (\"on\")
error: <stdin>#4: Deployment/no/web: spec.template.metadata.labels.canary: unquoted Off is the boolean false to kubectl (YAML 1.1), not a string: quote it (\"Off\")
",
        )
        .status(1)
        .run();
}

#[test]
fn an_octal_number_of_clusters_is_read_as_kubectl_reads_it() {
    // kubectl sends 010 as 8 (YAML 1.1 octal); YAML 1.2 reads the string "010".
    let output = plan(placement("  numberOfClusters: 010\n"))
        .args(["-o", "json"])
        .run();
    let plan: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
    let clusters = plan["items"][0]["clusters"].as_array().map(Vec::len);
    assert_eq!(clusters, Some(8), "{plan}");
}

#[test]
fn a_merge_key_replaces_the_fields_written_before_it_as_kubectl_reads_it() {
    // go-yaml v2 merges where `<<` stands: 3 replaces the 1 above it.
    assert_eq!(
        clusters_planned("  numberOfClusters: 1\n  <<: {numberOfClusters: 3}\n"),
        Some(3)
    );
}

/// How many clusters the placement with `spec` selects.
fn clusters_planned(spec: &str) -> Option<usize> {
    let output = plan(placement(spec)).args(["-o", "json"]).run();
    let plan: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
    plan["items"][0]["clusters"].as_array().map(Vec::len)
}

#[test]
fn every_merge_key_of_a_mapping_applies_where_it_stands() {
    // A second `<<` is no duplicate to go-yaml v2: each merges where it stands, so 2 replaces
    // the first merge's 3 and the `numberOfClusters: 1` written before both.
    let spec = "  numberOfClusters: 1\n  <<: {numberOfClusters: 3}\n  <<: {numberOfClusters: 2}\n";
    assert_eq!(clusters_planned(spec), Some(2));
}

#[test]
fn a_number_that_does_not_fit_its_field_says_how_kubectl_read_it() {
    plan(placement("  numberOfClusters: 1_000_000_000_000\n"))
        .stderr_contains(
            "error: <stdin>#4: Placement/apps/p: spec.numberOfClusters: invalid value: integer `1000000000000`, expected i32 \
             (kubectl reads the unquoted 1_000_000_000_000 as the integer 1000000000000: YAML 1.1)",
        )
        .status(1)
        .run();
}

#[test]
fn the_cluster_inventory_warns_once_per_value() {
    let input = "apiVersion: fleetplan.io/v1alpha1
kind: ClusterInventory
metadata: {name: fleet}
clusters:
  - {name: a, labels: {gpu: yes, zone: '017'}}
  - {name: b, labels: {gpu: yes, rack: 017}}
  - {name: c, labels: {gpu: yes}}
";
    Test::new()
        .args(["select", "-f", "-", "-l", "gpu=yes", "-o", "name"])
        .stdin(input)
        .stdout("a\nb\nc\n")
        .stderr(
            "warning: <stdin>#1: ClusterInventory/fleet: clusters[0].labels.gpu: unquoted yes is the string \"yes\" here but the boolean true to YAML 1.1 readers such as kubectl: quote it (\"yes\") (and at 2 other fields)
warning: <stdin>#1: ClusterInventory/fleet: clusters[1].labels.rack: unquoted 017 is the string \"017\" here but the integer 15 to YAML 1.1 readers such as kubectl: quote it (\"017\")
",
        )
        .run();
}

#[test]
fn json_input_is_never_ambiguous() {
    let input = r#"{"apiVersion": "fleetplan.io/v1alpha1", "kind": "ClusterInventory", "metadata": {"name": "fleet"}, "clusters": [{"name": "a", "labels": {"gpu": "yes"}}]}"#;
    Test::new()
        .args(["select", "-f", "-", "-l", "gpu=yes", "-o", "name"])
        .stdin(input)
        .stdout("a\n")
        .run();
}

#[test]
fn migrated_label_values_that_yaml_1_1_misreads_are_quoted() {
    let input = "apiVersion: apps.open-cluster-management.io/v1
kind: PlacementRule
metadata: {name: r, namespace: apps, labels: {audit: 'no'}}
spec:
  clusterSelector:
    matchLabels: {feature: 'on', rack: '1_0', zone: 'y'}
";
    let output = Test::new()
        .args(["migrate", "-f", "-"])
        .stdin(input)
        .stderr_contains("PlacementRule/apps/r -> Placement/apps/r: exact")
        .run();
    let stdout = String::from_utf8_lossy(&output.stdout);
    for quoted in ["audit: 'no'", "feature: 'on'", "rack: '1_0'", "zone: 'y'"] {
        assert!(stdout.contains(quoted), "{quoted} in:\n{stdout}");
    }
}

#[test]
fn plans_and_decisions_quote_cluster_names_that_yaml_1_1_misreads() {
    let input = "apiVersion: fleetplan.io/v1alpha1
kind: ClusterInventory
metadata: {name: fleet}
clusters: [{name: 'y'}, {name: 'n'}]
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSet
metadata: {name: all}
spec: {clusterSelector: {selectorType: LabelSelector, labelSelector: {}}}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSetBinding
metadata: {name: all, namespace: apps}
spec: {clusterSet: all}
---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {name: p, namespace: apps}
spec: {clusterSets: [all]}
";
    for (format, expected) in [
        ("yaml", ["- 'n'", "- 'y'"]),
        ("decisions", ["clusterName: 'n'", "clusterName: 'y'"]),
    ] {
        let output = plan(input.to_string()).args(["-o", format]).run();
        let stdout = String::from_utf8_lossy(&output.stdout);
        for quoted in expected {
            assert!(stdout.contains(quoted), "{format}: {quoted} in:\n{stdout}");
        }
    }
}

/// In a List, each item gets its own misread scalars: item 1's unquoted `yes` is refused at
/// its path, item 0's quoted one is a string, item 3's `07` is kubectl's 7 and item 2's
/// `<<` merge applies to it alone.
#[test]
fn a_lists_items_each_get_their_own_misread_scalars() {
    let placement = |name: &str, spec: &str| {
        format!(
            "- apiVersion: cluster.open-cluster-management.io/v1beta1
  kind: Placement
  metadata: {{name: {name}, namespace: apps}}
  spec: {{clusterSets: [all], {spec}}}
"
        )
    };
    let list = format!(
        "{}apiVersion: v1
kind: List
items:
{}{}{}{}",
        fleet(),
        placement(
            "quoted",
            "predicates: [{requiredClusterSelector: {labelSelector: {matchLabels: {gpu: 'yes'}}}}]"
        ),
        placement(
            "unquoted",
            "predicates: [{requiredClusterSelector: {labelSelector: {matchLabels: {gpu: yes}}}}]"
        ),
        placement("merged", "numberOfClusters: 1, <<: {numberOfClusters: 2}"),
        placement("octal", "numberOfClusters: 07"),
    );
    plan(list.clone())
        .stderr(
            "error: <stdin>#4: Placement/apps/unquoted: items[1].spec.predicates[0].requiredClusterSelector.labelSelector.matchLabels.gpu: \
             unquoted yes is the boolean true to kubectl (YAML 1.1), not a string: quote it (\"yes\")\n",
        )
        .status(1)
        .run();
    let without_unquoted = list.replace("{gpu: yes}", "{gpu: 'yes'}");
    let output = plan(without_unquoted).args(["-o", "json"]).run();
    let plan: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
    let clusters: Vec<(String, usize)> = plan["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|item| {
            (
                item["source"]["name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                item["clusters"].as_array().map_or(0, Vec::len),
            )
        })
        .collect();
    let expected = [
        ("merged", 2),
        ("octal", 7),
        ("quoted", 10),
        ("unquoted", 10),
    ]
    .map(|(name, count)| (name.to_string(), count));
    assert_eq!(clusters, expected, "{plan}");
}
