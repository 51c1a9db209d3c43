//! The loader end to end: text in, model or errors out.

use std::collections::BTreeMap;

use super::*;
use crate::kubefed::model::FederatedPlacement;
use crate::model::{
    ClusterSetSelector, Interned, LabelSelectorSpec, Labels, TaintEffect, WorkloadKind,
};

fn load_text(text: &str) -> Result<Model, LoadErrors> {
    load(
        &["-".to_string()],
        &mut text.as_bytes(),
        &LoadOptions::default(),
    )
}

fn model(text: &str) -> Model {
    load_text(text).unwrap_or_else(|errors| panic!("{errors}"))
}

fn errors(text: &str) -> Vec<String> {
    match load_text(text) {
        Ok(_) => panic!("expected errors"),
        Err(errors) => errors.0.iter().map(ToString::to_string).collect(),
    }
}

fn cluster_names(model: &Model) -> Vec<&str> {
    model
        .inventory
        .clusters
        .iter()
        .map(|cluster| cluster.name.as_str())
        .collect()
}

fn workload_names(model: &Model) -> Vec<String> {
    model
        .workloads
        .iter()
        .map(|workload| workload.object.to_string())
        .collect()
}

const INVENTORY: &str = "
apiVersion: fleetplan.io/v1alpha1
kind: ClusterInventory
metadata: {name: fleet}
clusters:
  - name: a
    labels: {env: prod}
    claims: {region.open-cluster-management.io: eu-west-1}
    sets: [blue]
    taints: [{key: gpu, value: 'true', effect: NoSelect, timeAdded: '2026-01-01T00:00:00Z'}]
    allocatable: {cpu: 16, memory: 64Gi}
    capacity: 6
  - name: b
    online: false
";

#[test]
fn inventory_clusters_are_read_in_order() {
    let model = model(INVENTORY);
    assert_eq!(cluster_names(&model), ["a", "b"]);
    let a = &model.inventory.clusters[0];
    assert_eq!(a.labels.get("env").map(Interned::as_str), Some("prod"));
    assert_eq!(a.replica_capacity, Some(6));
    assert_eq!(
        a.allocatable.get("memory").map(|q| q.value),
        Some(64.0 * 2f64.powi(30))
    );
    assert_eq!(a.taints[0].effect, TaintEffect::NoSelect);
    assert_eq!(a.taints[0].time_added, Some(1_767_225_600));
    assert!(a.online);
    assert_eq!(a.source.to_string(), "<stdin>#1");
}

#[test]
fn inventory_set_becomes_the_clusterset_label() {
    let model = model(INVENTORY);
    assert_eq!(
        model.inventory.clusters[0]
            .labels
            .get("cluster.open-cluster-management.io/clusterset")
            .map(Interned::as_str),
        Some("blue")
    );
}

#[test]
fn inventory_online_implies_the_available_condition() {
    let model = model(INVENTORY);
    let available = |index: usize| {
        model.inventory.clusters[index]
            .conditions
            .get("ManagedClusterConditionAvailable")
            .cloned()
    };
    assert_eq!(available(0).as_deref(), Some("True"));
    assert_eq!(available(1).as_deref(), Some("False"));
    assert!(!model.inventory.clusters[1].online);
}

#[test]
fn inventory_cluster_in_two_sets_is_an_error() {
    let errors = errors(
        "apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\nmetadata: {name: f}\nclusters: [{name: a, sets: [x, y]}]\n",
    );
    assert_eq!(
        errors,
        ["<stdin>#1: ClusterInventory/f: clusters[0].sets: expected at most one exclusive cluster set, found 2 (x, y)"]
    );
}

#[test]
fn inventory_unknown_fields_are_errors() {
    let errors = errors(
        "apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\nmetadata: {name: f}\nclusters: [{name: a, lables: {}}]\n",
    );
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].starts_with("<stdin>#1: ClusterInventory/f: clusters[0].lables: unknown field `lables`, expected one of"),
        "{}",
        errors[0]
    );
}

#[test]
fn wrong_types_name_the_field_path() {
    let errors = errors(
        "apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\nmetadata: {name: f}\nclusters: [{name: a, capacity: lots}]\n",
    );
    assert_eq!(
        errors,
        ["<stdin>#1: ClusterInventory/f: clusters[0].capacity: invalid type: string \"lots\", expected i64"]
    );
}

#[test]
fn invalid_quantities_name_the_field_path() {
    let errors = errors(
        "apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\nmetadata: {name: f}\nclusters: [{name: a, allocatable: {cpu: 2x}}]\n",
    );
    assert_eq!(
        errors,
        ["<stdin>#1: ClusterInventory/f: clusters[0].allocatable.cpu: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$', found \"2x\""]
    );
}

#[test]
fn malformed_yaml_names_document_and_line() {
    let errors = errors("apiVersion: v1\nkind: List\n---\napiVersion: v1\nkind: [\n");
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].starts_with("<stdin>#2: line 6 column 1: "),
        "{}",
        errors[0]
    );
}

const INVENTORY_IN_EU: &str = "
apiVersion: fleetplan.io/v1alpha1
kind: ClusterInventory
metadata: {name: fleet}
clusters:
  - {name: a, labels: {region: eu}}
  - {name: b, labels: {region: eu}, claims: {region: eu}}
";

const MANAGED_CLUSTER: &str = "
apiVersion: cluster.open-cluster-management.io/v1
kind: ManagedCluster
metadata:
  name: east
  labels: {cloud: aws}
spec:
  taints:
    - {key: maintenance, effect: PreferNoSelect}
status:
  clusterClaims:
    - {name: platform.open-cluster-management.io, value: AWS}
  allocatable: {cpu: '8', memory: 32Gi}
  capacity: {cpu: '10', memory: 40Gi}
  conditions:
    - {type: ManagedClusterConditionAvailable, status: 'True'}
    - {type: ManagedClusterJoined, status: 'True'}
";

#[test]
fn clusters_of_any_kind_share_one_copy_of_equal_labels() {
    let model = model(&format!(
        "{INVENTORY_IN_EU}---\n{}",
        MANAGED_CLUSTER.replace("{cloud: aws}", "{region: eu}")
    ));
    let region = |labels: &Labels| {
        labels
            .iter()
            .find(|(key, _)| key.as_str() == "region")
            .map(|(key, value)| (key.as_ptr(), value.as_ptr()))
    };
    let clusters = &model.inventory.clusters;
    let first = region(&clusters[0].labels);
    assert!(first.is_some());
    assert_eq!(region(&clusters[1].labels), first);
    assert_eq!(region(&clusters[1].claims), first);
    assert_eq!(region(&clusters[2].labels), first);
}

#[test]
fn managed_clusters_are_read() {
    let model = model(MANAGED_CLUSTER);
    let east = &model.inventory.clusters[0];
    assert_eq!(east.name, "east");
    assert_eq!(east.labels.get("cloud").map(Interned::as_str), Some("aws"));
    assert_eq!(
        east.claims
            .get("platform.open-cluster-management.io")
            .map(Interned::as_str),
        Some("AWS")
    );
    assert_eq!(east.taints[0].effect, TaintEffect::PreferNoSelect);
    assert_eq!(east.taints[0].time_added, None);
    assert_eq!(
        east.resource_capacity.get("cpu").map(|q| q.value),
        Some(10.0)
    );
    assert!(east.online);
    assert_eq!(east.conditions.len(), 2);
    assert!(!east.deleting);
}

#[test]
fn managed_cluster_without_available_condition_is_offline() {
    let model = model(
        "apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata: {name: x}\n",
    );
    assert!(!model.inventory.clusters[0].online);
}

#[test]
fn managed_cluster_with_unknown_availability_is_offline() {
    let model = model(
        "apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata: {name: x}\nstatus: {conditions: [{type: ManagedClusterConditionAvailable, status: Unknown}]}\n",
    );
    assert!(!model.inventory.clusters[0].online);
}

#[test]
fn deletion_timestamp_marks_a_cluster_deleting() {
    let model = model(
        "apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata: {name: x, deletionTimestamp: '2026-01-01T00:00:00Z'}\n",
    );
    assert!(model.inventory.clusters[0].deleting);
}

#[test]
fn unknown_taint_effect_is_an_error_with_path() {
    let errors = errors(
        "apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata: {name: x}\nspec: {taints: [{key: k, effect: NoSchedule}]}\n",
    );
    assert_eq!(
        errors,
        ["<stdin>#1: ManagedCluster/x: spec.taints[0].effect: unknown variant `NoSchedule`, expected one of `NoSelect`, `PreferNoSelect`, `NoSelectIfNew`"]
    );
}

#[test]
fn kubefed_clusters_are_online_when_ready() {
    let model = model(
        "apiVersion: core.kubefed.io/v1beta1\nkind: KubeFedCluster\nmetadata: {name: k, namespace: kube-federation-system, labels: {a: b}}\nstatus: {conditions: [{type: Ready, status: 'True'}]}\n---\napiVersion: federation/v1beta1\nkind: Cluster\nmetadata: {name: f}\nstatus: {conditions: [{type: Ready, status: 'False'}]}\n",
    );
    let online: Vec<bool> = model.inventory.clusters.iter().map(|c| c.online).collect();
    assert_eq!(cluster_names(&model), ["k", "f"]);
    assert_eq!(online, [true, false]);
}

#[test]
fn the_same_cluster_from_two_kinds_is_a_duplicate_naming_both_places() {
    let text = format!(
        "{INVENTORY}---\n{MANAGED_CLUSTER}---\n{}",
        MANAGED_CLUSTER.replace("east", "a")
    );
    assert_eq!(
        errors(&text),
        ["<stdin>#3: cluster a: duplicate, first defined at <stdin>#1"]
    );
}

#[test]
fn duplicate_objects_in_two_files_name_both_files() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let object = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations: {federation.alpha.kubernetes.io/cluster-selector: '[]'}\n";
    let first = dir.path().join("a.yaml");
    let second = dir.path().join("b.yaml");
    std::fs::write(&first, object).unwrap_or_else(|e| panic!("{e}"));
    // Another object under the same identity (the same object twice is read once).
    let other = object.replace("'[]'", "'[x]'");
    std::fs::write(&second, format!("---\n{other}")).unwrap_or_else(|e| panic!("{e}"));
    let result = load(
        &[dir.path().display().to_string()],
        &mut std::io::empty(),
        &LoadOptions::default(),
    );
    let messages: Vec<String> = result
        .err()
        .map(|errors| errors.0.iter().map(ToString::to_string).collect())
        .unwrap_or_default();
    assert_eq!(
        messages,
        [format!(
            "{}#1: ConfigMap/default/c: duplicate, first defined at {}#1",
            second.display(),
            first.display()
        )]
    );
}

/// A large input's documents are found on another thread while the input before it is
/// loaded: the model and the errors are those of reading the inputs one after the other (each
/// input's errors in input order, objects from every input, an input that does not parse and
/// an empty one in their places, large and small inputs interleaved), and the same with the
/// documents kept (read on this thread).
#[test]
fn inputs_read_ahead_load_in_input_order() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let placement = |name: &str| {
        format!(
            r#"{{"apiVersion": "cluster.open-cluster-management.io/v1beta1", "kind": "Placement", "metadata": {{"name": "{name}", "namespace": "apps"}}}}"#
        )
    };
    // Past the size from which the next input is read ahead.
    let large = " ".repeat(super::READ_AHEAD_BYTES);
    let files = [
        ("a.json", placement("a")),
        ("b.json", format!("{large}{{\"apiVersion\": \"v1\", \"kind\": ")),
        ("c.yaml", "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\nmetadata: {name: c, namespace: apps}\nspec: {numberOfClusters: -1}\n".to_string()),
        ("d.json", format!("{}\n{large}{}", placement("d1"), placement("d2"))),
        ("e.yaml", String::new()),
        ("f.json", format!("{}{large}", placement("f"))),
    ];
    let mut paths = Vec::new();
    for (name, text) in &files {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
        paths.push(path.display().to_string());
    }
    let messages = |errors: &[LoadError]| -> Vec<String> {
        errors
            .iter()
            .map(|error| {
                error
                    .to_string()
                    .replace(&format!("{}/", dir.path().display()), "")
            })
            .collect()
    };
    let options = LoadOptions::default();
    let (model, _, errors) = read(&paths, &mut std::io::empty(), &options, false);
    assert_eq!(
        workload_names(&model),
        [
            "Placement/apps/a",
            "Placement/apps/d1",
            "Placement/apps/d2",
            "Placement/apps/f"
        ]
    );
    let found = messages(&errors);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("b.json"), "{found:?}");
    assert!(
        found[1].starts_with("c.yaml#1: Placement/apps/c: spec.numberOfClusters"),
        "{found:?}"
    );
    let (kept_model, _, kept_errors) = read(&paths, &mut std::io::empty(), &options, true);
    assert_eq!(workload_names(&kept_model), workload_names(&model));
    assert_eq!(messages(&kept_errors), found);
}

/// The same object read twice (here once as YAML, once as JSON with its keys in another
/// order, as a generator writes its output) is one object: kept once, with a warning.
#[test]
fn the_same_object_twice_is_kept_once_with_a_warning() {
    let yaml = "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\nmetadata: {name: p, namespace: apps}\nspec: {numberOfClusters: 2}\n";
    let json = r#"{"spec": {"numberOfClusters": 2}, "metadata": {"namespace": "apps", "name": "p"}, "kind": "Placement", "apiVersion": "cluster.open-cluster-management.io/v1beta1"}"#;
    let model = model(&format!("{yaml}---\n{json}\n"));
    assert_eq!(workload_names(&model), ["Placement/apps/p"]);
    assert_eq!(
        model.warnings,
        ["<stdin>#2: Placement/apps/p: the same object as at <stdin>#1, read once"]
    );
}

/// JSON objects are fingerprinted from their text only when an identity repeats, the first
/// object's text found in its input: the same content in another file, another List, another
/// key order or as YAML is read once; different content under the identity is an error.
#[test]
fn a_repeated_json_object_is_compared_by_content_from_its_input() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let placement = |spec: &str| {
        format!(
            r#"{{"apiVersion": "cluster.open-cluster-management.io/v1beta1", "kind": "Placement", "metadata": {{"name": "p", "namespace": "apps"}}, "spec": {spec}}}"#
        )
    };
    let cluster = r#"{"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster", "metadata": {"name": "east", "labels": {"a": "1"}}}"#;
    let files = [
        (
            "a.json",
            format!(
                r#"{{"apiVersion": "v1", "kind": "List", "items": [{cluster}, {}, {cluster}]}}"#,
                placement(r#"{"numberOfClusters": 2}"#)
            ),
        ),
        (
            "b.json",
            r#"{"spec":{"numberOfClusters":2},"metadata":{"namespace":"apps","name":"p"},"kind":"Placement","apiVersion":"cluster.open-cluster-management.io/v1beta1"}"#.to_string(),
        ),
        (
            "c.yaml",
            "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\nmetadata: {name: p, namespace: apps}\nspec: {numberOfClusters: 2}\n".to_string(),
        ),
        ("d.json", placement(r#"{"numberOfClusters": 3}"#)),
        ("e.json", cluster.replace(r#""a": "1""#, r#""a": "2""#)),
    ];
    for (name, text) in &files {
        std::fs::write(dir.path().join(name), text).unwrap_or_else(|e| panic!("{e}"));
    }
    let at = |name: &str| dir.path().join(name).display().to_string();
    let (model, errors) = load_partial(
        &[dir.path().display().to_string()],
        &mut std::io::empty(),
        &LoadOptions::default(),
    );
    let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        [
            format!(
                "{}#1: Placement/apps/p: duplicate, first defined at {}#1",
                at("d.json"),
                at("a.json")
            ),
            format!(
                "{}#1: cluster east: duplicate, first defined at {}#1",
                at("e.json"),
                at("a.json")
            ),
        ]
    );
    let read_once = |second: &str, object: &str| {
        format!(
            "{}#1: {object}: the same object as at {}#1, read once",
            at(second),
            at("a.json")
        )
    };
    assert_eq!(
        model.warnings,
        [
            read_once("a.json", "cluster east"),
            read_once("b.json", "Placement/apps/p"),
            read_once("c.yaml", "Placement/apps/p"),
        ]
    );
}

#[test]
fn cluster_sets_and_bindings_are_read() {
    let model = model(
        "apiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSet\nmetadata: {name: blue}\n---\napiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSet\nmetadata: {name: global}\nspec: {clusterSelector: {selectorType: LabelSelector, labelSelector: {}}}\n---\napiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSetBinding\nmetadata: {name: blue, namespace: apps}\nspec: {clusterSet: blue}\n",
    );
    let selectors: Vec<&ClusterSetSelector> = model
        .inventory
        .cluster_sets
        .iter()
        .map(|set| &set.selector)
        .collect();
    assert_eq!(
        selectors,
        [
            &ClusterSetSelector::ExclusiveClusterSetLabel,
            &ClusterSetSelector::LabelSelector(Some(LabelSelectorSpec::default()))
        ]
    );
    let binding = &model.inventory.bindings[0];
    assert_eq!(
        (binding.namespace.as_str(), binding.cluster_set.as_str()),
        ("apps", "blue")
    );
}

#[test]
fn unsupported_version_of_a_known_kind_is_an_error() {
    assert_eq!(
        errors("apiVersion: cluster.open-cluster-management.io/v1\nkind: Placement\nmetadata: {name: p}\n"),
        ["<stdin>#1: apiVersion: expected cluster.open-cluster-management.io/v1alpha1 or cluster.open-cluster-management.io/v1beta1 for Placement, found cluster.open-cluster-management.io/v1"]
    );
}

#[test]
fn addon_placement_scores_are_read() {
    let model = model(
        "apiVersion: cluster.open-cluster-management.io/v1alpha1\nkind: AddOnPlacementScore\nmetadata: {name: load, namespace: east}\nstatus:\n  scores: [{name: cpu, value: 70}]\n  validUntil: '2026-01-01T00:00:00Z'\n",
    );
    let score = &model.inventory.apis.addon_scores[0];
    assert_eq!(score.namespace, "east");
    assert_eq!(score.scores, BTreeMap::from([("cpu".to_string(), 70)]));
    assert_eq!(score.valid_until, Some(1_767_225_600));
}

#[test]
fn placement_decisions_name_their_placement() {
    let model = model(
        "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: PlacementDecision\nmetadata:\n  name: p-decision-1\n  namespace: apps\n  labels: {cluster.open-cluster-management.io/placement: p}\nstatus: {decisions: [{clusterName: a, reason: ''}, {clusterName: b, reason: ''}]}\n",
    );
    let decision = &model.decisions[0];
    assert_eq!(decision.placement, "p");
    assert_eq!(decision.clusters, ["a", "b"]);
}

#[test]
fn placement_decision_without_placement_label_belongs_to_no_placement() {
    // Upstream Balance counts every PlacementDecision of the hub, labelled or not
    // (ocm schedule_test "schedule to cluster with least decisions").
    let model = model(
        "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: PlacementDecision\nmetadata: {name: d}\nstatus: {decisions: [{clusterName: a, reason: ''}]}\n",
    );
    let decision = &model.decisions[0];
    assert_eq!(decision.placement, "");
    assert_eq!(decision.clusters, ["a"]);
}

#[test]
fn annotated_objects_default_to_one_replica_in_the_default_namespace() {
    let model = model(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations: {federation.alpha.kubernetes.io/cluster-selector: '[{\"key\": \"env\", \"operator\": \"In\", \"values\": [\"prod\"]}]'}\n",
    );
    let workload = &model.workloads[0];
    assert_eq!(workload.object.namespace.as_deref(), Some("default"));
    assert_eq!(
        workload.cluster_selector.as_deref(),
        Some("[{\"key\": \"env\", \"operator\": \"In\", \"values\": [\"prod\"]}]")
    );
    assert_eq!(
        workload.kind,
        WorkloadKind::Annotated {
            replica_set_preferences: None,
            replicas: 1
        }
    );
}

#[test]
fn annotated_replica_sets_read_spec_replicas_and_preferences() {
    let model = model(
        "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: r\n  namespace: web\n  annotations: {federation.kubernetes.io/replica-set-preferences: '{\"rebalance\": true}'}\nspec: {replicas: 9}\n",
    );
    assert_eq!(
        model.workloads[0].kind,
        WorkloadKind::Annotated {
            replica_set_preferences: Some("{\"rebalance\": true}".to_string()),
            replicas: 9
        }
    );
}

#[test]
fn negative_replicas_are_an_error() {
    assert_eq!(
        errors("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  annotations: {federation.kubernetes.io/replica-set-preferences: '{}'}\nspec: {replicas: -1}\n"),
        ["<stdin>#1: Deployment/default/d: spec.replicas: expected a non-negative integer, found -1"]
    );
}

#[test]
fn replica_scheduling_preferences_are_read() {
    let model = model(
        "apiVersion: scheduling.kubefed.io/v1alpha1\nkind: ReplicaSchedulingPreference\nmetadata: {name: web, namespace: apps}\nspec:\n  targetKind: FederatedDeployment\n  totalReplicas: 10\n  rebalance: true\n  clusters:\n    '*': {weight: 1}\n    a: {minReplicas: 2, maxReplicas: 4, weight: 2}\n",
    );
    let WorkloadKind::ReplicaSchedulingPreference(spec) = &model.workloads[0].kind else {
        panic!("expected an RSP, got {:?}", model.workloads[0].kind);
    };
    assert_eq!(spec.target_kind, "FederatedDeployment");
    assert_eq!(spec.total_replicas, 10);
    assert!(spec.preferences.rebalance);
    let a = &spec.preferences.clusters["a"];
    assert_eq!((a.min_replicas, a.max_replicas, a.weight), (2, Some(4), 2));
    assert_eq!(spec.preferences.clusters["*"].max_replicas, None);
}

fn federated_placement(placement: &str) -> FederatedPlacement {
    let model = model(&format!(
        "apiVersion: types.kubefed.io/v1beta1\nkind: FederatedDeployment\nmetadata: {{name: web}}\nspec: {{{placement}}}\n"
    ));
    match &model.workloads[0].kind {
        WorkloadKind::Federated(placement) => placement.clone(),
        other => panic!("expected a federated placement, got {other:?}"),
    }
}

#[test]
fn federated_cluster_list_wins_even_when_empty() {
    assert_eq!(
        federated_placement("placement: {clusters: [], clusterSelector: {}}"),
        FederatedPlacement::Clusters(vec![])
    );
    assert_eq!(
        federated_placement("placement: {clusters: [{name: a}]}"),
        FederatedPlacement::Clusters(vec!["a".to_string()])
    );
}

#[test]
fn federated_selector_is_used_without_a_cluster_list() {
    assert_eq!(
        federated_placement("placement: {clusters: null, clusterSelector: {}}"),
        FederatedPlacement::Selector(Some(LabelSelectorSpec::default()))
    );
}

#[test]
fn federated_placement_absent_selects_nothing() {
    assert_eq!(federated_placement(""), FederatedPlacement::Selector(None));
}

#[test]
fn workloads_are_sorted_by_group_kind_namespace_and_name() {
    let annotated = |api: &str, kind: &str, ns: &str, name: &str| {
        format!("apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: {name}\n  namespace: {ns}\n  annotations: {{federation.alpha.kubernetes.io/cluster-selector: '[]'}}\n---\n")
    };
    let text = [
        annotated("apps/v1", "ReplicaSet", "b", "x"),
        annotated("v1", "Secret", "a", "w"),
        annotated("apps/v1", "Deployment", "z", "x"),
        annotated("apps/v1", "ReplicaSet", "a", "z"),
        annotated("v1", "ConfigMap", "a", "w"),
        // A kind of one group in two versions is one kind; a kind's name in another group
        // is another kind, ordered by its group.
        annotated("batch/v1", "Deployment", "a", "a"),
        annotated("apps/v1beta2", "ReplicaSet", "a", "v"),
    ]
    .concat();
    assert_eq!(
        workload_names(&model(&text)),
        [
            "ConfigMap/a/w",
            "Secret/a/w",
            "Deployment/z/x",
            "ReplicaSet/a/v",
            "ReplicaSet/a/z",
            "ReplicaSet/b/x",
            "Deployment/a/a"
        ]
    );
}

#[test]
fn lists_are_expanded() {
    let model = model(
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: cluster.open-cluster-management.io/v1\n  kind: ManagedCluster\n  metadata: {name: a}\n- apiVersion: cluster.open-cluster-management.io/v1\n  kind: ManagedCluster\n  metadata: {name: b}\n",
    );
    assert_eq!(cluster_names(&model), ["a", "b"]);
}

#[test]
fn list_item_errors_name_the_item() {
    assert_eq!(
        errors("apiVersion: v1\nkind: List\nitems:\n- apiVersion: cluster.open-cluster-management.io/v1\n  kind: ManagedCluster\n  metadata: {name: a}\n  spec: {taints: 3}\n"),
        ["<stdin>#1: ManagedCluster/a: items[0].spec.taints: invalid type: integer `3`, expected a sequence"]
    );
}

#[test]
fn json_documents_are_read() {
    let model = model(
        r#"{"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster", "metadata": {"name": "j"}}"#,
    );
    assert_eq!(cluster_names(&model), ["j"]);
}

#[test]
fn unknown_kinds_are_skipped_and_recorded() {
    let model = model("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain}\n---\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n");
    let skipped: Vec<String> = model
        .skipped
        .iter()
        .map(|(source, what)| format!("{source} {what}"))
        .collect();
    assert_eq!(
        skipped,
        [
            "<stdin>#1 v1/ConfigMap",
            "<stdin>#2 kustomize.config.k8s.io/v1beta1/Kustomization"
        ]
    );
}

#[test]
fn empty_documents_are_skipped_silently() {
    let model = model(&format!("---\n# nothing\n---\n{INVENTORY}---\n"));
    assert!(model.skipped.is_empty());
    assert_eq!(cluster_names(&model), ["a", "b"]);
}

#[test]
fn an_input_without_documents_is_an_error() {
    assert_eq!(
        errors("---\n# nothing\n---\n"),
        ["<stdin>: no documents (the input is empty)"]
    );
}

#[test]
fn an_empty_file_beside_other_inputs_is_not_an_error() {
    let dir = tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"));
    let empty = dir.path().join("empty.yaml");
    std::fs::write(&empty, "").unwrap_or_else(|error| panic!("{error}"));
    let paths = [empty.to_string_lossy().into_owned(), "-".to_string()];
    let result = load(&paths, &mut INVENTORY.as_bytes(), &LoadOptions::default());
    assert!(result.is_ok(), "{result:?}");
}

#[test]
fn documents_without_a_kind_are_errors() {
    assert_eq!(
        errors("apiVersion: v1\nmetadata: {name: x}\n"),
        ["<stdin>#1: missing field `kind`"]
    );
}

#[test]
fn scalar_documents_are_errors() {
    assert_eq!(
        errors("just text\n"),
        ["<stdin>#1: expected a Kubernetes object (a mapping with apiVersion and kind), found a string"]
    );
}

#[test]
fn placement_rules_contribute_their_status_decisions() {
    let model = model(
        "apiVersion: apps.open-cluster-management.io/v1\nkind: PlacementRule\nmetadata: {name: rule, namespace: apps}\nstatus: {decisions: [{clusterName: a, clusterNamespace: a}]}\n",
    );
    assert_eq!(workload_names(&model), ["PlacementRule/apps/rule"]);
    assert_eq!(model.decisions[0].placement, "rule");
    assert_eq!(model.decisions[0].clusters, ["a"]);
}

#[test]
fn every_broken_document_is_reported() {
    let errors = errors("apiVersion: v1\n---\nkind: List\n");
    assert_eq!(
        errors,
        [
            "<stdin>#1: missing field `kind`",
            "<stdin>#2: missing field `apiVersion`"
        ]
    );
}

#[test]
fn inventory_labels_kubernetes_would_reject_are_warnings() {
    let model = model(
        "apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\nmetadata: {name: f}\nclusters: [{name: a, labels: {ok: fine, tier: 'web frontend'}}]\n",
    );
    assert_eq!(model.warnings.len(), 1);
    assert!(
        model.warnings[0].starts_with(
            "<stdin>#1: cluster a: label tier=\"web frontend\" would be rejected by Kubernetes: "
        ),
        "{}",
        model.warnings[0]
    );
}

#[test]
fn placements_decode_their_spec() {
    let model = model(
        "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\nmetadata: {name: p, namespace: apps}\nspec: {clusterSets: [blue], numberOfClusters: 2}\n",
    );
    let WorkloadKind::Placement(spec) = &model.workloads[0].kind else {
        panic!("expected a placement, got {:?}", model.workloads[0].kind);
    };
    assert_eq!(spec.cluster_sets, ["blue"]);
    assert_eq!(spec.number_of_clusters, Some(2));
}

#[test]
fn placement_spec_errors_name_the_spec_field() {
    assert_eq!(
        errors("apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\nmetadata: {name: p}\nspec: {numberOfClusters: many}\n"),
        ["<stdin>#1: Placement/default/p: spec.numberOfClusters: invalid type: string \"many\", expected i32"]
    );
}

fn load_testdata(paths: &[&str]) -> Model {
    let root = env!("CARGO_MANIFEST_DIR");
    let paths: Vec<String> = paths.iter().map(|path| format!("{root}/{path}")).collect();
    load(&paths, &mut std::io::empty(), &LoadOptions::default())
        .unwrap_or_else(|errors| panic!("{errors}"))
}

#[test]
fn example_fleet_loads_without_errors_or_warnings() {
    let model = load_testdata(&["testdata/fleet"]);
    assert_eq!(model.inventory.clusters.len(), 14);
    assert_eq!(model.inventory.cluster_sets.len(), 4);
    assert_eq!(model.inventory.bindings.len(), 4);
    assert_eq!(model.inventory.apis.addon_scores.len(), 2);
    assert_eq!(model.decisions.len(), 2);
    assert_eq!(
        workload_names(&model),
        [
            "ConfigMap/shop/shop-settings",
            "Deployment/shop/checkout",
            "ReplicaSet/shop/frontend",
            "PlacementRule/shop/legacy-reports",
            "Placement/ci/canary-rollout",
            "Placement/shop/gpu-batch",
            "Placement/shop/storefront",
            "ReplicaSchedulingPreference/shop/catalog",
            "FederatedConfigMap/shop/catalog-flags",
            "FederatedDeployment/shop/catalog",
        ]
    );
    assert_eq!(model.warnings, Vec::<String>::new());
    assert!(model.skipped.is_empty());
}

#[test]
fn example_fleet_as_managed_clusters_matches_the_inventory() {
    let inventory = load_testdata(&["testdata/fleet/inventory.yaml"]).inventory;
    let managed = load_testdata(&["testdata/managedclusters"]).inventory;
    let view = |clusters: &[crate::model::Cluster]| -> Vec<String> {
        clusters
            .iter()
            .map(|c| {
                format!(
                    "{} {:?} {:?} {:?} {:?} {:?} {}",
                    c.name,
                    c.labels,
                    c.claims,
                    c.taints,
                    c.allocatable,
                    c.resource_capacity,
                    c.online
                )
            })
            .collect()
    };
    assert_eq!(view(&managed.clusters), view(&inventory.clusters));
}

/// `head` followed by `count` entries (each `entry(n)`, else `usual(n)`) and `]}`, as JSON
/// (read without a tree) and as YAML (a tree).
fn large_document(
    head: &str,
    count: usize,
    entry: impl Fn(usize) -> Option<String>,
    usual: impl Fn(usize) -> String,
) -> [String; 2] {
    let entries: Vec<String> = (0..count)
        .map(|n| entry(n).unwrap_or_else(|| usual(n)))
        .collect();
    let json = format!("{head}{}]}}", entries.join(",\n"));
    let value: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    let yaml = serde_yaml::to_string(&value).expect("YAML");
    [json, yaml]
}

/// An inventory of `count` entries, each `{name: c-NNNNN, labels: {region: rN}}` unless
/// `entry` says otherwise.
fn large_inventory(count: usize, entry: impl Fn(usize) -> Option<String>) -> [String; 2] {
    let head = r#"{"apiVersion": "fleetplan.io/v1alpha1", "kind": "ClusterInventory", "metadata": {"name": "fleet"}, "clusters": ["#;
    large_document(head, count, entry, |n| {
        format!(
            r#"{{"name": "c-{n:05}", "labels": {{"region": "r{}"}}}}"#,
            n % 3
        )
    })
}

/// Large inventories are read on every core: the clusters, their order, warnings and the
/// sharing of label strings (one copy per loading thread at most) are as one thread gives.
#[test]
fn a_large_inventory_reads_on_every_core_as_on_one() {
    let bad_label = |n| {
        (n == 2500)
            .then(|| r#"{"name": "c-02500", "labels": {"tier": "web frontend"}}"#.to_string())
    };
    for text in large_inventory(3000, bad_label) {
        let model = model(&text);
        let names: Vec<String> = (0..3000).map(|n| format!("c-{n:05}")).collect();
        assert_eq!(cluster_names(&model), names);
        let clusters = &model.inventory.clusters;
        assert_eq!(
            clusters[7].labels.get("region").map(Interned::as_str),
            Some("r1")
        );
        assert_eq!(model.warnings.len(), 1);
        assert!(
            model.warnings[0]
                .starts_with("<stdin>#1: cluster c-02500: label tier=\"web frontend\""),
            "{}",
            model.warnings[0]
        );
        let copies: std::collections::HashSet<*const u8> = clusters
            .iter()
            .filter_map(|cluster| cluster.labels.keys().next())
            .map(|key| key.as_ptr())
            .collect();
        let threads = crate::parallel::threads();
        assert!(copies.len() <= threads + 1, "{} copies", copies.len());
    }
}

/// An entry that does not decode makes the whole document decide, so the error is the one
/// a single thread reports; entries that decode but are wrong are each an error, in order.
#[test]
fn a_large_inventory_reports_errors_as_one_thread_does() {
    let unnamed = |n| matches!(n, 2100 | 2900).then(|| r#"{"name": ""}"#.to_string());
    for text in large_inventory(3000, unnamed) {
        assert_eq!(
            errors(&text),
            [
                "<stdin>#1: ClusterInventory/fleet: clusters[2100].name: expected a cluster name, found an empty string",
                "<stdin>#1: ClusterInventory/fleet: clusters[2900].name: expected a cluster name, found an empty string",
            ]
        );
    }
    let undecodable = |n| (n == 2200).then(|| r#"{"name": "x", "labels": "x"}"#.to_string());
    for text in large_inventory(3000, undecodable) {
        let errors = errors(&text);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with("<stdin>#1: ClusterInventory/fleet: clusters[2200].labels: "),
            "{}",
            errors[0]
        );
    }
}

/// A large inventory's clusters are kept as each run of entries was read, yet they, their
/// warnings and the errors of refused and duplicate entries are in entry order, and objects
/// read after it find its clusters where they are.
#[test]
fn a_large_inventory_keeps_entry_order_across_its_runs() {
    let entry = |n: usize| match n {
        4 | 2500 => Some(format!(r#"{{"name": "c-{n:05}", "sets": ["s", "t"]}}"#)),
        5 => Some(r#"{"name": "east"}"#.to_string()),
        2000 => Some(r#"{"name": "c-00003"}"#.to_string()),
        10 | 2990 => Some(format!(
            r#"{{"name": "c-{n:05}", "labels": {{"a": "b c"}}}}"#
        )),
        _ => None,
    };
    for (extension, text) in ["json", "yaml"]
        .into_iter()
        .zip(large_inventory(3000, entry))
    {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let files = [
            ("a.yaml", MANAGED_CLUSTER.to_string()),
            (&format!("b.{extension}"), text),
            ("c.yaml", MANAGED_CLUSTER.replace("east", "c-02999")),
        ];
        for (name, text) in &files {
            std::fs::write(dir.path().join(name), text).unwrap_or_else(|e| panic!("{e}"));
        }
        let at = |name: &str| format!("{}#1", dir.path().join(name).display());
        let inventory = at(&format!("b.{extension}"));
        let (model, errors) = load_partial(
            &[dir.path().display().to_string()],
            &mut std::io::empty(),
            &LoadOptions::default(),
        );
        let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
        let two_sets = |n: usize| {
            format!("{inventory}: ClusterInventory/fleet: clusters[{n}].sets: expected at most one exclusive cluster set, found 2 (s, t)")
        };
        let duplicate = |at: &str, name: &str, first: &str| {
            format!("{at}: cluster {name}: duplicate, first defined at {first}")
        };
        assert_eq!(
            errors,
            [
                two_sets(4),
                duplicate(&inventory, "east", &at("a.yaml")),
                duplicate(&inventory, "c-00003", &inventory),
                two_sets(2500),
                duplicate(&at("c.yaml"), "c-02999", &inventory),
            ]
        );
        let mut names = vec!["east".to_string()];
        names.extend(
            (0..3000)
                .filter(|n| ![4, 5, 2000, 2500].contains(n))
                .map(|n| format!("c-{n:05}")),
        );
        assert_eq!(cluster_names(&model), names);
        let warned: Vec<&str> = model
            .warnings
            .iter()
            .filter_map(|warning| warning.split(": ").nth(1))
            .collect();
        assert_eq!(warned, ["cluster c-00010", "cluster c-02990"]);
    }
}

/// A `List` of `count` items, each the Placement `apps/p-NNNNN` unless `item` says otherwise.
fn large_list(count: usize, item: impl Fn(usize) -> Option<String>) -> [String; 2] {
    let head = r#"{"apiVersion": "v1", "kind": "List", "items": ["#;
    large_document(head, count, item, |n| {
        format!(
            r#"{{"apiVersion": "cluster.open-cluster-management.io/v1beta1", "kind": "Placement", "metadata": {{"name": "p-{n:05}", "namespace": "apps"}}, "spec": {{"numberOfClusters": {}}}}}"#,
            n % 5
        )
    })
}

/// A List this long is decoded on every core (`load::dispatch`), yet it reports what one
/// thread reading the items in order does: every item's error in document order, an item's
/// decoding error before (and instead of) its duplicate, a duplicate against the item that
/// came first, and a reader's warning only for the object kept.
#[test]
fn a_large_list_reports_errors_as_one_thread_does() {
    let placement = |name: &str, spec: &str| {
        format!(
            r#"{{"apiVersion": "cluster.open-cluster-management.io/v1beta1", "kind": "Placement", "metadata": {{"name": "{name}", "namespace": "apps"}}, "spec": {spec}}}"#
        )
    };
    let modelled = r#"{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster", "metadata": {"name": "m"}, "spec": {"syncMode": "Pull"}, "status": {"resourceSummary": {"allocatableModelings": []}}}"#;
    let item = |n| {
        match n {
        40 => Some(placement("p-00040", r#"{"numberOfClusters": "many"}"#)),
        300 => Some(r#"{"apiVersion": "cluster.open-cluster-management.io/v1beta1", "kind": "Placement", "metadata": {"namespace": "apps"}}"#.to_string()),
        350 => Some(placement("p-00003", "{}")),
        500 => Some(modelled.to_string()),
        560 => Some(modelled.replace(r#""allocatableModelings": []"#, r#""allocatableModelings": null"#)),
        598 => Some(placement("p-00001", r#"{"numberOfClusters": "many"}"#)),
        599 => Some(r#"{"apiVersion": "cluster.open-cluster-management.io/v1", "kind": "ManagedCluster", "metadata": {"name": "late"}, "spec": {"taints": 3}}"#.to_string()),
        _ => None,
    }
    };
    for text in large_list(600, item) {
        let (model, errors) = load_partial(
            &["-".to_string()],
            &mut text.as_bytes(),
            &LoadOptions::default(),
        );
        let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            errors,
            [
                "<stdin>#1: Placement/apps/p-00040: items[40].spec.numberOfClusters: invalid type: string \"many\", expected i32",
                "<stdin>#1: items[300].metadata.name: expected the name of the Placement, found none",
                "<stdin>#1: Placement/apps/p-00003: duplicate, first defined at <stdin>#1",
                "<stdin>#1: Cluster/m: duplicate, first defined at <stdin>#1",
                "<stdin>#1: Placement/apps/p-00001: items[598].spec.numberOfClusters: invalid type: string \"many\", expected i32",
                "<stdin>#1: ManagedCluster/late: items[599].spec.taints: invalid type: integer `3`, expected a sequence",
            ]
        );
        let placements = workload_names(&model);
        assert_eq!(placements.len(), 600 - 7, "{placements:?}");
        assert_eq!(placements[0], "Placement/apps/p-00000");
        assert_eq!(model.warnings.len(), 1, "{:?}", model.warnings);
        assert!(model.warnings[0]
            .starts_with("<stdin>#1: Cluster/m: status.resourceSummary.allocatableModelings: "));
        assert_eq!(model.apis.karmada.clusters.len(), 1);
    }
}

// ---- YAML 1.1 scalars ----

const PLACEMENT: &str = "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\n";

#[test]
fn misread_scalars_in_list_items_are_refused_at_the_item_path() {
    let text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: cluster.open-cluster-management.io/v1beta1\n  kind: Placement\n  metadata: {name: p, namespace: apps, labels: {tier: on}}\n";
    assert_eq!(
        errors(text),
        ["<stdin>#1: Placement/apps/p: items[0].metadata.labels.tier: unquoted on is the boolean true to kubectl (YAML 1.1), not a string: quote it (\"on\")"]
    );
}

#[test]
fn merged_and_aliased_scalars_are_refused_where_they_land() {
    let text = format!(
        "{PLACEMENT}metadata:\n  name: p\n  namespace: apps\n  labels:\n    <<: {{tier: 'y', zone: n}}\n  annotations: {{a: &x off, b: *x}}\n"
    );
    assert_eq!(
        errors(&text),
        [
            "<stdin>#1: Placement/apps/p: metadata.labels.zone: unquoted n is the boolean false to kubectl (YAML 1.1), not a string: quote it (\"n\")",
            "<stdin>#1: Placement/apps/p: metadata.annotations.a: unquoted off is the boolean false to kubectl (YAML 1.1), not a string: quote it (\"off\")",
            "<stdin>#1: Placement/apps/p: metadata.annotations.b: unquoted off is the boolean false to kubectl (YAML 1.1), not a string: quote it (\"off\")",
        ]
    );
}

#[test]
fn tagged_and_block_scalars_are_strings_to_every_reader() {
    let text = format!(
        "{PLACEMENT}metadata:\n  name: p\n  namespace: apps\n  labels: {{a: !!str yes, b: \"no\"}}\n  annotations:\n    c: |-\n      on\n"
    );
    let model = model(&text);
    let labels = &model.workloads[0].labels;
    assert_eq!(labels.get("a").map(String::as_str), Some("yes"));
    assert_eq!(labels.get("b").map(String::as_str), Some("no"));
}

#[test]
fn templates_a_policy_selects_are_taken_back_from_the_skipped_one_item_each() {
    // Two Deployments of one List share its document: each kept template removes one entry,
    // and the ConfigMap, of a kind no policy selects, stays skipped.
    let model = model(
        "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: apps/v1, kind: Deployment, metadata: {name: a, namespace: default}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}}\n- {apiVersion: apps/v1, kind: Deployment, metadata: {name: b, namespace: default}}\n---\napiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: pp, namespace: default}\nspec:\n  resourceSelectors:\n  - {apiVersion: apps/v1, kind: Deployment}\n  placement: {}\n",
    );
    let skipped: Vec<String> = model
        .skipped
        .iter()
        .map(|(source, what)| format!("{source} {what}"))
        .collect();
    assert_eq!(skipped, ["<stdin>#1 v1/ConfigMap"]);
    assert_eq!(model.workloads.len(), 2);
}

/// A YAML List long enough to be read on every core still hands each item its own misread
/// scalars: item 10's unquoted label value `yes` (refused before the item is read) and item
/// 280's unquoted `yes` in a selector (found when it is decoded) are reported at each item's
/// own path, in document order, and only those two items are left out.
#[test]
fn a_large_yaml_lists_misread_scalars_stay_with_their_items() {
    let mut text = String::from("apiVersion: v1\nkind: List\nitems:\n");
    for n in 0..300 {
        let (labels, spec) = match n {
            10 => (", labels: {gpu: yes}", "{numberOfClusters: 1}"),
            280 => (
                "",
                "{predicates: [{requiredClusterSelector: {labelSelector: {matchLabels: {gpu: yes}}}}]}",
            ),
            _ => ("", "{numberOfClusters: 1}"),
        };
        text.push_str(&format!(
            "- apiVersion: cluster.open-cluster-management.io/v1beta1\n  kind: Placement\n  \
             metadata: {{name: p-{n:05}, namespace: apps{labels}}}\n  spec: {spec}\n"
        ));
    }
    let (model, errors) = load_partial(
        &["-".to_string()],
        &mut text.as_bytes(),
        &LoadOptions::default(),
    );
    let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
    let refused = |n: usize, field: &str| {
        format!(
            "<stdin>#1: Placement/apps/p-{n:05}: items[{n}].{field}: \
             unquoted yes is the boolean true to kubectl (YAML 1.1), not a string: quote it (\"yes\")"
        )
    };
    assert_eq!(
        errors,
        [
            refused(10, "metadata.labels.gpu"),
            refused(
                280,
                "spec.predicates[0].requiredClusterSelector.labelSelector.matchLabels.gpu"
            ),
        ]
    );
    let placements = workload_names(&model);
    assert_eq!(placements.len(), 298, "{placements:?}");
    assert!(!placements.contains(&"Placement/apps/p-00010".to_string()));
    assert!(!placements.contains(&"Placement/apps/p-00280".to_string()));
}
