//! Every object `plan -o decisions` and `migrate` write, run through the real binary, checked
//! as an API server would admit it under kubectl's strict field validation: against the
//! `openAPIV3Schema` of its upstream CRD (testdata/crds, sources in its README) with no
//! undeclared fields, the API server's own schema extensions (`set` and `map` lists unique,
//! the CEL rules of `x-kubernetes-validations`: `schema_extensions.rs`), an apiVersion the
//! CRD serves, a valid `metadata.name`, labels the API server accepts, and a namespace
//! exactly where the namespace rule puts it.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::{self, Test};
use crate::schema_extensions;
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// One served version of a CRD, its schema compiled with strict field validation.
struct Served {
    namespaced: bool,
    validator: jsonschema::Validator,
    /// The schema as the CRD declares it, for its Kubernetes extensions.
    schema: Value,
}

/// The CRDs of testdata/crds, by `group/version` and kind.
pub struct Schemas {
    served: BTreeMap<(String, String), Served>,
    /// Kubernetes' own kinds, by `group/version` (or `v1`) and kind.
    built_in: BTreeMap<(String, String), Served>,
}

/// Kinds of Kubernetes itself that migrate passes through (the workload a kubefed
/// ReplicaSchedulingPreference targets, an annotated object under `--no-manifest-work`), with
/// the apiVersion current Kubernetes serves them as. [`Schemas::load`] admits them unchecked:
/// they are the user's objects, not fleetplan's, and the example inputs are not complete
/// workloads. [`Schemas::with_kubernetes`] checks every Kubernetes kind against its schema.
const BUILT_IN: &[(&str, &str)] = &[
    ("v1", "ConfigMap"),
    ("v1", "Secret"),
    ("v1", "Service"),
    ("apps/v1", "Deployment"),
    ("apps/v1", "ReplicaSet"),
    ("apps/v1", "StatefulSet"),
];

/// The Kubernetes kinds of testdata/schemas/kubernetes-1.37-strict.json (its README says
/// where they come from) that are cluster-scoped; every other kind there is namespaced.
const CLUSTER_SCOPED_BUILT_IN: &[&str] = &[
    "Namespace",
    "ClusterRole",
    "ClusterRoleBinding",
    "PriorityClass",
];

pub fn crate_path(relative: &str) -> String {
    format!("{}/{relative}", env!("CARGO_MANIFEST_DIR"))
}

pub fn yaml_documents(text: &str) -> Vec<Value> {
    serde_yaml::Deserializer::from_str(text)
        .map(|document| {
            Value::deserialize(document).unwrap_or_else(|error| panic!("{error}\n{text}"))
        })
        .filter(|document| !document.is_null())
        .collect()
}

/// The API server's structural schema made into a JSON Schema that refuses what it would:
/// an object schema that declares `properties` and does not preserve unknown fields admits
/// no others (kubectl's strict field validation turns their pruning into an error),
/// `nullable` is the only way to admit null, a required field with a default is filled in,
/// and a `set` list has unique items.
fn strict(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    let preserves = object.get("x-kubernetes-preserve-unknown-fields") == Some(&json!(true));
    if object.contains_key("properties")
        && !preserves
        && !object.contains_key("additionalProperties")
    {
        object.insert("additionalProperties".into(), json!(false));
    }
    if object.remove("nullable") == Some(json!(true)) {
        if let Some(Value::String(kind)) = object.get("type").cloned() {
            object.insert("type".into(), json!([kind, "null"]));
        }
    }
    // The API server applies defaults before it validates: a required field with a default
    // is never missing.
    if let (Some(Value::Array(required)), Some(Value::Object(properties))) =
        (object.get("required"), object.get("properties"))
    {
        let kept: Vec<Value> = required
            .iter()
            .filter(|name| {
                let property = name.as_str().and_then(|name| properties.get(name));
                property.is_none_or(|property| property.get("default").is_none())
            })
            .cloned()
            .collect();
        // Draft 4 wants a `required` list to be non-empty.
        if kept.is_empty() {
            object.remove("required");
        } else {
            object.insert("required".into(), Value::Array(kept));
        }
    }
    if object.get("x-kubernetes-list-type") == Some(&json!("set")) {
        object.insert("uniqueItems".into(), json!(true));
    }
    for key in ["items", "additionalProperties", "not"] {
        if let Some(child) = object.get_mut(key) {
            strict(child);
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(children)) = object.get_mut(key) {
            children.iter_mut().for_each(strict);
        }
    }
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        properties.values_mut().for_each(strict);
    }
}

impl Schemas {
    pub fn load() -> Schemas {
        let mut served = BTreeMap::new();
        let dir = crate_path("testdata/crds");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|error| panic!("{dir}: {error}"))
            .filter_map(|entry| Some(entry.ok()?.path()))
            .filter(|path| {
                path.extension()
                    .is_some_and(|extension| extension == "yaml")
            })
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            for crd in yaml_documents(&text) {
                assert_eq!(
                    crd["kind"],
                    "CustomResourceDefinition",
                    "{}",
                    path.display()
                );
                let group = crd["spec"]["group"].as_str().unwrap_or_default();
                let kind = crd["spec"]["names"]["kind"].as_str().unwrap_or_default();
                let namespaced = crd["spec"]["scope"] == "Namespaced";
                for version in crd["spec"]["versions"].as_array().into_iter().flatten() {
                    if version["served"] != json!(true) {
                        continue;
                    }
                    let schema = version["schema"]["openAPIV3Schema"].clone();
                    assert!(schema.is_object(), "{}: no openAPIV3Schema", path.display());
                    let mut strict_schema = schema.clone();
                    strict(&mut strict_schema);
                    let validator = jsonschema::draft4::options()
                        .should_validate_formats(true)
                        .build(&strict_schema)
                        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
                    let api_version =
                        format!("{group}/{}", version["name"].as_str().unwrap_or_default());
                    served.insert(
                        (api_version, kind.to_string()),
                        Served {
                            namespaced,
                            validator,
                            schema,
                        },
                    );
                }
            }
        }
        Schemas {
            served,
            built_in: BTreeMap::new(),
        }
    }

    /// [`Schemas::load`], and every Kubernetes kind checked against the Kubernetes 1.37
    /// schema of its apiVersion (strict: no undeclared field), for outputs whose inputs are
    /// complete objects.
    pub fn with_kubernetes() -> Schemas {
        Schemas {
            built_in: built_in(),
            ..Schemas::load()
        }
    }

    fn served_kinds(&self) -> Vec<String> {
        self.served
            .keys()
            .map(|(api, kind)| format!("{api} {kind}"))
            .collect()
    }

    /// Every reason the API server would refuse `object`, each naming it.
    pub fn problems(&self, object: &Value, namespace: &Namespace) -> Vec<String> {
        let api_version = object["apiVersion"].as_str().unwrap_or_default();
        let kind = object["kind"].as_str().unwrap_or_default();
        let name = object["metadata"]["name"].as_str().unwrap_or_default();
        let written = object["metadata"]["namespace"].as_str();
        let id = format!("{kind}/{}/{name}", written.unwrap_or(""));
        let mut problems = Vec::new();
        let key = (api_version.to_string(), kind.to_string());
        let namespaced = match self.served.get(&key).or_else(|| self.built_in.get(&key)) {
            Some(served) => {
                problems.extend(
                    served
                        .validator
                        .iter_errors(object)
                        .map(|error| format!("{id}: {}: {error}", error.instance_path())),
                );
                problems.extend(
                    schema_extensions::problems(&served.schema, object, "")
                        .into_iter()
                        .map(|problem| format!("{id}: {problem}")),
                );
                served.namespaced
            }
            None if self.built_in.is_empty() && BUILT_IN.contains(&(api_version, kind)) => true,
            None => {
                problems.push(format!(
                    "{id}: apiVersion {api_version:?} kind {kind:?} is not served by any CRD in testdata/crds ({:?}) nor by Kubernetes",
                    self.served_kinds()
                ));
                return problems;
            }
        };
        problems.extend(
            metadata_problems(&object["metadata"])
                .into_iter()
                .map(|p| format!("{id}: {p}")),
        );
        match (namespaced, written) {
            (false, Some(found)) => {
                problems.push(format!(
                    "{id}: cluster-scoped, but metadata.namespace is {found:?}"
                ));
            }
            (true, found) if !namespace.admits(found) => problems.push(format!(
                "{id}: metadata.namespace is {found:?}, expected {namespace:?}"
            )),
            _ => {}
        }
        if kind == "ManifestWorkReplicaSet" {
            let manifests = &object["spec"]["manifestWorkTemplate"]["workload"]["manifests"];
            for (index, manifest) in manifests.as_array().into_iter().flatten().enumerate() {
                problems.extend(embedded_problems(manifest).into_iter().map(|p| {
                    format!("{id}: spec.manifestWorkTemplate.workload.manifests[{index}]: {p}")
                }));
            }
        }
        problems
    }

    /// Checks every object of a YAML stream; returns how many there were.
    pub fn assert_admitted(&self, stream: &str, namespace: &Namespace, context: &str) -> usize {
        let objects = yaml_documents(stream);
        let problems: Vec<String> = objects
            .iter()
            .flat_map(|object| self.problems(object, namespace))
            .collect();
        assert!(
            problems.is_empty(),
            "{context}: the API server would refuse:\n{}\n--- output:\n{stream}",
            problems.join("\n")
        );
        objects.len()
    }
}

/// The Kubernetes kinds of testdata/schemas/kubernetes-1.37-strict.json, each compiled with
/// every definition it may reference.
fn built_in() -> BTreeMap<(String, String), Served> {
    let path = crate_path("testdata/schemas/kubernetes-1.37-strict.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    let bundle: Value =
        serde_json::from_str(&text).unwrap_or_else(|error| panic!("{path}: {error}"));
    let kinds = bundle["kinds"].as_object().cloned().unwrap_or_default();
    kinds
        .iter()
        .map(|(id, definition)| {
            let (api_version, kind) = id.rsplit_once('/').unwrap_or(("", id));
            let definition = definition.as_str().unwrap_or_default();
            let schema = json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$defs": bundle["$defs"],
                "$ref": format!("#/$defs/{definition}"),
            });
            let validator = jsonschema::draft202012::options()
                .build(&schema)
                .unwrap_or_else(|error| panic!("{path}: {id}: {error}"));
            (
                (api_version.to_string(), kind.to_string()),
                Served {
                    namespaced: !CLUSTER_SCOPED_BUILT_IN.contains(&kind),
                    validator,
                    schema: json!({}),
                },
            )
        })
        .collect()
}

/// Where the namespace rule puts namespaced objects of one run.
#[derive(Debug)]
pub enum Namespace {
    /// The inputs had none: `kubectl apply -n NS` gives it, so the output has none either.
    Absent,
    /// The inputs' own namespaces (or the `-n` a plan resolved them into).
    OneOf(&'static [&'static str]),
}

impl Namespace {
    fn admits(&self, found: Option<&str>) -> bool {
        match (self, found) {
            (Namespace::Absent, None) => true,
            (Namespace::OneOf(allowed), Some(found)) => allowed.contains(&found),
            _ => false,
        }
    }
}

/// Kubernetes' DNS-1123 subdomain: a custom resource's name.
fn is_dns_subdomain(name: &str) -> bool {
    !name.is_empty() && name.len() <= 253 && name.split('.').all(is_dns_label_part)
}

fn is_dns_label_part(part: &str) -> bool {
    let bytes = part.as_bytes();
    !bytes.is_empty()
        && bytes
            .iter()
            .all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || *byte == b'-')
        && bytes[0] != b'-'
        && bytes[bytes.len() - 1] != b'-'
}

/// A namespace's name: a DNS-1123 label.
fn is_dns_label(name: &str) -> bool {
    name.len() <= 63 && is_dns_label_part(name)
}

/// A label or annotation key: an optional DNS subdomain prefix and a name of at most 63
/// alphanumerics, '-', '_' or '.', starting and ending alphanumeric.
fn is_qualified_name(key: &str) -> bool {
    let (prefix, name) = match key.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    prefix.is_none_or(is_dns_subdomain) && !name.is_empty() && is_label_value(name)
}

/// A label value: empty, or at most 63 alphanumerics, '-', '_' or '.' starting and ending
/// alphanumeric.
fn is_label_value(value: &str) -> bool {
    let bytes = value.as_bytes();
    bytes.is_empty()
        || (bytes.len() <= 63
            && bytes
                .iter()
                .all(|byte| byte.is_ascii_alphanumeric() || b"-_.".contains(byte))
            && bytes[0].is_ascii_alphanumeric()
            && bytes[bytes.len() - 1].is_ascii_alphanumeric())
}

/// What ObjectMeta validation refuses in what fleetplan writes: a missing or invalid name, an
/// invalid namespace, invalid label keys and values or annotation keys.
fn metadata_problems(metadata: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    match metadata["name"].as_str() {
        Some(name) if is_dns_subdomain(name) => {}
        found => problems.push(format!(
            "metadata.name {found:?} is not a DNS-1123 subdomain"
        )),
    }
    if let Some(namespace) = metadata.get("namespace") {
        if !namespace.as_str().is_some_and(is_dns_label) {
            problems.push(format!(
                "metadata.namespace {namespace} is not a DNS-1123 label"
            ));
        }
    }
    let empty = Map::new();
    for (key, value) in metadata["labels"].as_object().unwrap_or(&empty) {
        if !is_qualified_name(key) {
            problems.push(format!(
                "metadata.labels key {key:?} is not a qualified name"
            ));
        }
        if !value.as_str().is_some_and(is_label_value) {
            problems.push(format!(
                "metadata.labels[{key}] {value} is not a label value"
            ));
        }
    }
    for (key, value) in metadata["annotations"].as_object().unwrap_or(&empty) {
        if !is_qualified_name(key) || !value.is_string() {
            problems.push(format!(
                "metadata.annotations[{key}] {value} is not admitted"
            ));
        }
    }
    problems
}

/// An `x-kubernetes-embedded-resource`: the API server requires apiVersion and kind and
/// validates its metadata.
fn embedded_problems(manifest: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    for field in ["apiVersion", "kind"] {
        if manifest[field].as_str().is_none_or(str::is_empty) {
            problems.push(format!("{field} is missing"));
        }
    }
    problems.extend(metadata_problems(&manifest["metadata"]));
    problems
}

fn stdout_of(test: Test) -> String {
    let output = test.stderr_contains("").run();
    String::from_utf8(output.stdout).unwrap_or_else(|error| panic!("{error}"))
}

const FLEET: [&str; 4] = [
    "-f",
    "testdata/fleet/inventory.yaml",
    "-f",
    "testdata/fleet/clustersets.yaml",
];

/// A migrate run: its inputs and extra arguments, where its namespaced objects belong, and
/// its exit status (2 when `--verify` finds a difference).
struct MigrateCase {
    args: &'static [&'static str],
    namespace: Namespace,
    status: i32,
}

const MIGRATE_CASES: &[MigrateCase] = &[
    MigrateCase {
        // policy-collection's duplicates (identical and differing) with --keep-going: what
        // migrates is written, namespace-less as its inputs; exit 1 for what did not.
        args: &["-f", "testdata/migrate/policy-collection", "--keep-going"],
        namespace: Namespace::Absent,
        status: 1,
    },
    MigrateCase {
        // PlacementRules, a Subscription and a PlacementBinding, in two namespaces.
        args: &["-f", "testdata/migrate/placementrules.yaml"],
        namespace: Namespace::OneOf(&["shop", "ci"]),
        status: 0,
    },
    MigrateCase {
        args: &[
            "-f",
            "testdata/migrate/placementrules.yaml",
            "--set",
            "prod",
        ],
        namespace: Namespace::OneOf(&["shop", "ci"]),
        status: 0,
    },
    MigrateCase {
        // Federation cluster-selector annotations: Placements and ManifestWorkReplicaSets.
        args: &["-f", "testdata/migrate/cluster-selectors.yaml"],
        namespace: Namespace::OneOf(&["shop"]),
        status: 0,
    },
    MigrateCase {
        // The same written back bare, for users who deliver workloads another way.
        args: &[
            "-f",
            "testdata/migrate/cluster-selectors.yaml",
            "--no-manifest-work",
        ],
        namespace: Namespace::OneOf(&["shop"]),
        status: 0,
    },
    MigrateCase {
        // Federation replica-set-preferences: kubefed ReplicaSchedulingPreferences.
        args: &["-f", "testdata/migrate/replica-set-preferences.yaml"],
        namespace: Namespace::OneOf(&["shop"]),
        status: 0,
    },
    MigrateCase {
        // Every placement API of the example fleet, with --verify.
        args: &[
            "-f",
            "testdata/fleet/workloads",
            "--verify",
            "-n",
            "elsewhere",
        ],
        namespace: Namespace::OneOf(&["shop", "ci"]),
        status: 2,
    },
    MigrateCase {
        // Namespace-less PlacementRules, PlacementBindings, a Subscription, a federation
        // annotation and a replica-set-preferences annotation, applied with `-n`.
        args: &[
            "-f",
            "testdata/migrate/policies",
            "-f",
            "testdata/migrate/federated-deployment.yaml",
            "-f",
            "testdata/migrate/namespace-less.yaml",
            "-n",
            "policies",
        ],
        namespace: Namespace::Absent,
        status: 0,
    },
    MigrateCase {
        // kubefed Federated* objects and an RSP to Karmada: templates, PropagationPolicies
        // (Duplicated and static weights) and an OverridePolicy.
        args: &[
            "--to",
            "karmada",
            "-f",
            "testdata/migrate/karmada/kubefed.yaml",
            "-f",
            "testdata/fleet/workloads/kubefed.yaml",
            "--verify",
        ],
        namespace: Namespace::OneOf(&["shop"]),
        status: 2,
    },
    MigrateCase {
        // Federation annotations to Karmada: policies over the stripped objects.
        args: &[
            "--to",
            "karmada",
            "-f",
            "testdata/migrate/cluster-selectors.yaml",
            "-f",
            "testdata/migrate/replica-set-preferences.yaml",
        ],
        namespace: Namespace::OneOf(&["shop"]),
        status: 0,
    },
];

#[test]
fn every_crd_is_loaded_with_its_served_versions() {
    let schemas = Schemas::load();
    assert_eq!(
        schemas.served_kinds(),
        [
            "apps.open-cluster-management.io/v1 PlacementRule",
            "apps.open-cluster-management.io/v1 Subscription",
            "cluster.open-cluster-management.io/v1 ManagedCluster",
            "cluster.open-cluster-management.io/v1alpha1 AddOnPlacementScore",
            "cluster.open-cluster-management.io/v1beta1 Placement",
            "cluster.open-cluster-management.io/v1beta1 PlacementDecision",
            "cluster.open-cluster-management.io/v1beta2 ManagedClusterSet",
            "cluster.open-cluster-management.io/v1beta2 ManagedClusterSetBinding",
            "policy.karmada.io/v1alpha1 ClusterPropagationPolicy",
            "policy.karmada.io/v1alpha1 OverridePolicy",
            "policy.karmada.io/v1alpha1 PropagationPolicy",
            "policy.open-cluster-management.io/v1 PlacementBinding",
            "scheduling.kubefed.io/v1alpha1 ReplicaSchedulingPreference",
            "work.open-cluster-management.io/v1alpha1 ManifestWorkReplicaSet",
        ]
    );
}

/// The checker itself refuses what the API server would, so a pass means something.
#[test]
fn the_checker_refuses_what_the_api_server_would() {
    let schemas = Schemas::load();
    let refused = |yaml: &str, namespace: Namespace| -> Vec<String> {
        yaml_documents(yaml)
            .iter()
            .flat_map(|object| schemas.problems(object, &namespace))
            .collect()
    };
    let placement = "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\n";
    for admitted in [
        format!("{placement}metadata: {{name: p}}\nspec: {{}}\n"),
        manifest_work(&[
            "{condition: Complete, type: WellKnownConditions}",
            "{condition: Ready, type: CEL, celExpressions: [x]}",
        ]),
    ] {
        assert_eq!(refused(&admitted, Namespace::Absent), Vec::<String>::new());
    }
    for (yaml, namespace, expected) in [
        (format!("{placement}metadata: {{name: p}}\nspec: {{clusterSet: [a]}}\n"), Namespace::Absent, "Additional properties"),
        (format!("{placement}metadata: {{name: p}}\nspec: {{numberOfClusters: x}}\n"), Namespace::Absent, "/spec/numberOfClusters"),
        (format!("{placement}metadata: {{name: p}}\nspec: {{sortBy: Sideways}}\n"), Namespace::Absent, "/spec/sortBy"),
        (format!("{placement}metadata: {{name: P_1}}\nspec: {{}}\n"), Namespace::Absent, "not a DNS-1123 subdomain"),
        (format!("{placement}metadata: {{}}\nspec: {{}}\n"), Namespace::Absent, "metadata.name None"),
        (format!("{placement}metadata: {{name: p, namespace: shop}}\nspec: {{}}\n"), Namespace::Absent, "expected Absent"),
        (format!("{placement}metadata: {{name: p}}\nspec: {{}}\n"), Namespace::OneOf(&["shop"]), "expected OneOf"),
        (format!("{placement}metadata: {{name: p, labels: {{a: -x}}}}\nspec: {{}}\n"), Namespace::Absent, "not a label value"),
        ("apiVersion: cluster.open-cluster-management.io/v1alpha1\nkind: Placement\nmetadata: {name: p}\n".to_string(), Namespace::Absent, "not served"),
        ("apiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSet\nmetadata: {name: s, namespace: shop}\n".to_string(), Namespace::Absent, "cluster-scoped"),
        ("apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: PlacementDecision\nmetadata: {name: d}\nstatus: {decisions: [{clusterName: c}]}\n".to_string(), Namespace::Absent, "reason"),
        ("apiVersion: work.open-cluster-management.io/v1alpha1\nkind: ManifestWorkReplicaSet\nmetadata: {name: w}\nspec: {placementRefs: [{name: p}], manifestWorkTemplate: {workload: {manifests: [{metadata: {name: x}}]}}}\n".to_string(), Namespace::Absent, "apiVersion is missing"),
        // x-kubernetes-list-type: map, keyed by condition.
        (manifest_work(&["{condition: Complete, type: WellKnownConditions}", "{condition: Complete, type: CEL, celExpressions: [x]}"]), Namespace::Absent, "conditionRules[1]: duplicate entry of a map list (condition=\"Complete\")"),
        // The CRD's CEL rule, `self.type != 'CEL' || self.condition != ""`.
        (manifest_work(&["{condition: '', type: CEL, celExpressions: [x]}"]), Namespace::Absent, "conditionRules[0]: Condition is required for CEL rules"),
    ] {
        let problems = refused(&yaml, namespace);
        assert!(
            problems.iter().any(|problem| problem.contains(expected)),
            "{yaml}: expected a problem containing {expected:?}, got {problems:?}"
        );
    }
}

/// A ManifestWorkReplicaSet whose one manifest has these `conditionRules`.
fn manifest_work(rules: &[&str]) -> String {
    format!(
        "apiVersion: work.open-cluster-management.io/v1alpha1\nkind: ManifestWorkReplicaSet\n\
         metadata: {{name: w}}\nspec:\n  placementRefs: [{{name: p}}]\n  manifestWorkTemplate:\n    \
         workload: {{manifests: [{{apiVersion: v1, kind: ConfigMap, metadata: {{name: c}}}}]}}\n    \
         manifestConfigs:\n    - resourceIdentifier: {{resource: configmaps, name: c}}\n      \
         conditionRules: [{}]\n",
        rules.join(", ")
    )
}

/// The CRDs' own rules are all ones the check evaluates: each compiles and none is a
/// transition rule, so an output that reaches a rule is judged by it.
#[test]
fn every_cel_rule_of_the_crds_can_be_evaluated() {
    fn rules<'v>(schema: &'v Value, found: &mut Vec<&'v str>) {
        match schema {
            Value::Object(fields) => {
                for rule in fields
                    .get("x-kubernetes-validations")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    found.push(rule["rule"].as_str().unwrap_or_default());
                }
                fields.values().for_each(|child| rules(child, found));
            }
            Value::Array(children) => children.iter().for_each(|child| rules(child, found)),
            _ => {}
        }
    }
    let schemas = Schemas::load();
    let mut found = Vec::new();
    for served in schemas.served.values() {
        rules(&served.schema, &mut found);
    }
    assert_eq!(found, [r#"self.type != 'CEL' || self.condition != """#]);
    for rule in found {
        assert!(!rule.contains("oldSelf"), "{rule}");
        assert!(
            cel::Program::compile(rule).is_ok(),
            "{rule} does not compile"
        );
    }
}

#[test]
fn every_migrated_object_is_admitted_by_its_crd() {
    let schemas = Schemas::load();
    for case in MIGRATE_CASES {
        let stdout = stdout_of(
            Test::new()
                .arg("migrate")
                .args(FLEET)
                .args(case.args.iter().copied())
                .status(case.status),
        );
        let context = format!("migrate {}", case.args.join(" "));
        let count = schemas.assert_admitted(&stdout, &case.namespace, &context);
        assert!(count > 0, "{context}: wrote nothing");
    }
}

/// The `--out` layout: a folder never mixes objects with and without `metadata.namespace`,
/// so each applies with one `kubectl apply -f` (`-n NS` for `no-namespace/`).
fn assert_folder_holds(relative: &str, text: &str, context: &str) {
    for object in yaml_documents(text) {
        let namespace = object["metadata"]["namespace"].as_str();
        let kind = object["kind"].as_str().unwrap_or_default();
        match relative.split('/').collect::<Vec<_>>()[..] {
            ["cluster-scoped", _] => assert!(
                namespace.is_none() && kind != "Placement",
                "{context}: {kind} with namespace {namespace:?} among cluster-scoped objects"
            ),
            ["no-namespace", _] => assert_eq!(namespace, None, "{context}"),
            ["namespaces", folder, _] => assert_eq!(namespace, Some(folder), "{context}"),
            _ => panic!("{context}: {relative} is outside the documented folders"),
        }
    }
}

/// `--out` writes the same objects, one file each, in folders `kubectl apply -f` takes.
#[test]
fn every_file_migrate_out_writes_is_admitted_by_its_crd() {
    let schemas = Schemas::load();
    for case in MIGRATE_CASES {
        let dir = common::tempdir();
        let out = dir.path().join("out");
        Test::new()
            .arg("migrate")
            .args(FLEET)
            .args(case.args.iter().copied())
            .args(["--out", &out.to_string_lossy()])
            .stderr_contains("")
            .status(case.status)
            .run();
        let files = common::files_under(&out);
        assert!(!files.is_empty(), "{}: no files", out.display());
        for relative in files {
            let file = out.join(&relative);
            let text = std::fs::read_to_string(&file)
                .unwrap_or_else(|error| panic!("{}: {error}", file.display()));
            let context = format!("migrate {} --out: {}", case.args.join(" "), file.display());
            assert_folder_holds(&relative, &text, &context);
            assert_eq!(
                schemas.assert_admitted(&text, &case.namespace, &context),
                1,
                "{context}"
            );
        }
    }
}

/// PlacementDecisions as `plan -o decisions` writes them: in the Placement's namespace as the
/// plan resolved it (the input's, else `-n`), as the hub writes them.
#[test]
fn every_placement_decision_is_admitted_by_its_crd() {
    let schemas = Schemas::load();
    let mut runs: Vec<(Vec<String>, Namespace)> = vec![
        (
            [
                &FLEET[..],
                &[
                    "-f",
                    "testdata/fleet/addonscores.yaml",
                    "-f",
                    "testdata/fleet/workloads",
                ],
            ]
            .concat()
            .iter()
            .map(|arg| arg.to_string())
            .collect(),
            Namespace::OneOf(&["shop", "ci"]),
        ),
        (
            [
                &FLEET[..],
                &["-f", "testdata/namespace/placement.yaml", "-n", "team"],
            ]
            .concat()
            .iter()
            .map(|arg| arg.to_string())
            .collect(),
            Namespace::OneOf(&["team"]),
        ),
    ];
    let stories = crate_path("testdata/stories/placements");
    let mut story_files: Vec<_> = std::fs::read_dir(&stories)
        .unwrap_or_else(|error| panic!("{stories}: {error}"))
        .filter_map(|entry| Some(entry.ok()?.file_name().to_string_lossy().into_owned()))
        .collect();
    story_files.sort();
    for story in story_files {
        runs.push((
            vec![
                "-f".into(),
                "testdata/stories/fleet.yaml".into(),
                "-f".into(),
                format!("testdata/stories/placements/{story}"),
            ],
            Namespace::OneOf(&["ns1", "ns2", "ns3"]),
        ));
    }
    for (args, namespace) in runs {
        let stdout = stdout_of(
            Test::new()
                .arg("plan")
                .args(args.iter().cloned())
                .args(["-o", "decisions"]),
        );
        let context = format!("plan {} -o decisions", args.join(" "));
        let count = schemas.assert_admitted(&stdout, &namespace, &context);
        assert!(count > 0, "{context}: wrote nothing");
        assert!(
            yaml_documents(&stdout)
                .iter()
                .all(|object| object["kind"] == "PlacementDecision"),
            "{context}"
        );
    }
}

#[test]
fn crd_sources_are_named_for_every_file() {
    let readme = std::fs::read_to_string(crate_path("testdata/crds/README.md"))
        .unwrap_or_else(|error| panic!("{error}"));
    for entry in std::fs::read_dir(Path::new(&crate_path("testdata/crds")))
        .unwrap_or_else(|error| panic!("{error}"))
    {
        let name = entry
            .unwrap_or_else(|error| panic!("{error}"))
            .file_name()
            .to_string_lossy()
            .into_owned();
        if name != "README.md" {
            assert!(
                readme.contains(&format!("| `{name}` |")),
                "{name} has no source line"
            );
        }
    }
}
