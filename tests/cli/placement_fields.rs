//! Every field of the upstream Placement API, as its CRD declares it (testdata/crds, every
//! served version), is accepted: for each field, and each value of an enum, a Placement using
//! it with a valid value (checked against the CRD itself) plans without an error. A field
//! upstream adds fails here until fleetplan accepts it.

use serde_json::{json, Map, Value};

use crate::common::Test;
use crate::schemas::{crate_path, yaml_documents, Namespace, Schemas};

const CRD: &str = "testdata/crds/0000_02_clusters.open-cluster-management.io_placements.crd.yaml";

/// Valid values for fields whose schema does not say enough to make one: the values the
/// scheduler's own validation and the label selector accept.
const EXAMPLES: &[(&str, &[&str])] = &[
    (
        "matchExpressions[].operator",
        &["In", "NotIn", "Exists", "DoesNotExist"],
    ),
    (
        "celExpressions[]",
        &[r#"managedCluster.metadata.name == "a""#],
    ),
    ("groupName", &["group-1"]),
    ("clustersPerDecisionGroup", &["25%", "2"]),
    (
        "scoreCoordinate.builtIn",
        &[
            "Balance",
            "Steady",
            "ResourceAllocatableCPU",
            "ResourceAllocatableMemory",
        ],
    ),
    ("prioritizerPolicy.mode", &["Additive", "Exact"]),
    ("scoreRateLimit", &["30s", "2m", "1h"]),
    ("tolerations[].operator", &["Equal", "Exists"]),
];

/// Where a field is: a property, an array's items, or a map's values.
#[derive(Clone)]
enum Step {
    Field(String),
    Item,
    Entry,
}

fn render(path: &[Step]) -> String {
    let mut text = String::from("spec");
    for step in path {
        match step {
            Step::Field(name) => {
                text.push('.');
                text.push_str(name);
            }
            Step::Item => text.push_str("[]"),
            Step::Entry => text.push_str("{}"),
        }
    }
    text
}

/// Every field under `schema`, as the path to it.
fn fields(schema: &Value, path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    let mut children: Vec<(Step, &Value)> = Vec::new();
    if let Some(properties) = schema["properties"].as_object() {
        children.extend(
            properties
                .iter()
                .map(|(name, child)| (Step::Field(name.clone()), child)),
        );
    }
    if schema["items"].is_object() {
        children.push((Step::Item, &schema["items"]));
    }
    if schema["additionalProperties"].is_object() {
        children.push((Step::Entry, &schema["additionalProperties"]));
    }
    for (step, child) in children {
        path.push(step);
        out.push(path.clone());
        fields(child, path, out);
        path.pop();
    }
}

/// The valid values to try for the field at `path`: an example when the table has one, every
/// value of an enum, else the smallest value of its type (with its required fields).
fn values(schema: &Value, path: &str) -> Vec<Value> {
    if let Some((_, examples)) = EXAMPLES.iter().find(|(suffix, _)| path.ends_with(suffix)) {
        return examples
            .iter()
            .map(|example| match example.parse::<i64>() {
                Ok(number) => json!(number),
                Err(_) => json!(example),
            })
            .collect();
    }
    if let Some(values) = schema["enum"].as_array() {
        return values.clone();
    }
    vec![smallest(schema, path)]
}

fn smallest(schema: &Value, path: &str) -> Value {
    match schema["type"].as_str() {
        Some("integer") => {
            let minimum = schema["minimum"].as_i64().unwrap_or(1);
            json!(minimum.max(1))
        }
        Some("boolean") => json!(true),
        Some("array") => {
            let item = format!("{path}[]");
            json!([values(&schema["items"], &item)[0]])
        }
        Some("object") => {
            let mut object = Map::new();
            for required in schema["required"].as_array().into_iter().flatten() {
                let name = required.as_str().unwrap_or_default();
                let child = format!("{path}.{name}");
                object.insert(
                    name.into(),
                    values(&schema["properties"][name], &child)[0].clone(),
                );
            }
            if schema["additionalProperties"].is_object() {
                let entry = format!("{path}{{}}");
                object.insert(
                    "a".into(),
                    values(&schema["additionalProperties"], &entry)[0].clone(),
                );
            }
            complete(path, Value::Object(object))
        }
        _ => json!("a"),
    }
}

/// What a valid object needs beyond its required fields: In and NotIn need values, a
/// toleration a key, and a score coordinate names the prioritizer its type says.
fn complete(path: &str, mut value: Value) -> Value {
    let Some(object) = value.as_object_mut() else {
        return value;
    };
    if path.ends_with("matchExpressions[]") {
        let listed = matches!(object["operator"].as_str(), Some("In" | "NotIn"));
        if listed && !object.contains_key("values") {
            object.insert("values".into(), json!(["a"]));
        }
        if !listed {
            object.remove("values");
        }
    }
    // Upstream's toleration check: an empty key needs operator Exists.
    if path.ends_with("tolerations[]") && !object.contains_key("key") {
        object.insert("key".into(), json!("a"));
    }
    if path.ends_with("scoreCoordinate") {
        if object.contains_key("addOn") {
            object.insert("type".into(), json!("AddOn"));
        }
        match object["type"].as_str() {
            Some("AddOn") if !object.contains_key("addOn") => {
                object.insert(
                    "addOn".into(),
                    json!({"resourceName": "r", "scoreName": "s"}),
                );
            }
            Some("BuiltIn") if !object.contains_key("builtIn") => {
                object.insert("builtIn".into(), json!("Balance"));
            }
            _ => {}
        }
    }
    value
}

/// The smallest spec holding `leaf` at `path`, each object on the way with its required fields.
fn build(schema: &Value, path: &[Step], at: &str, leaf: &Value) -> Value {
    let Some((step, rest)) = path.split_first() else {
        return leaf.clone();
    };
    match step {
        Step::Field(name) => {
            let mut object = smallest(
                &json!({"type": "object", "required": schema["required"], "properties": schema["properties"]}),
                at,
            );
            let child = format!("{at}.{name}");
            let value = build(&schema["properties"][name], rest, &child, leaf);
            if let Some(fields) = object.as_object_mut() {
                fields.insert(name.clone(), value);
            }
            complete(at, object)
        }
        Step::Item => json!([build(&schema["items"], rest, &format!("{at}[]"), leaf)]),
        Step::Entry => {
            json!({"a": build(&schema["additionalProperties"], rest, &format!("{at}{{}}"), leaf)})
        }
    }
}

/// One field of a served version of the Placement CRD.
struct Field {
    api_version: String,
    /// The version's `spec` schema.
    spec: Value,
    path: Vec<Step>,
    /// The path as written: `spec.tolerations[].key`.
    at: String,
    /// The field's own schema.
    schema: Value,
}

/// Every field of every served version of the Placement CRD.
fn upstream_fields() -> Vec<Field> {
    let text = std::fs::read_to_string(crate_path(CRD)).unwrap_or_else(|error| panic!("{error}"));
    let crd = yaml_documents(&text).remove(0);
    let mut out = Vec::new();
    for version in crd["spec"]["versions"].as_array().into_iter().flatten() {
        if version["served"] != json!(true) {
            continue;
        }
        let api_version = format!(
            "cluster.open-cluster-management.io/{}",
            version["name"].as_str().unwrap_or_default()
        );
        let spec = &version["schema"]["openAPIV3Schema"]["properties"]["spec"];
        let mut paths = Vec::new();
        fields(spec, &mut Vec::new(), &mut paths);
        for path in paths {
            let mut schema = spec;
            for step in &path {
                schema = match step {
                    Step::Field(name) => &schema["properties"][name.as_str()],
                    Step::Item => &schema["items"],
                    Step::Entry => &schema["additionalProperties"],
                };
            }
            out.push(Field {
                api_version: api_version.clone(),
                spec: spec.clone(),
                at: render(&path),
                path,
                schema: schema.clone(),
            });
        }
    }
    out
}

#[test]
fn every_field_of_the_upstream_placement_api_is_accepted() {
    let schemas = Schemas::load();
    let mut stream = String::new();
    let mut named = Vec::new();
    let mut listed = Vec::new();
    for upstream in upstream_fields() {
        let Field {
            api_version,
            spec,
            path,
            at,
            schema,
        } = &upstream;
        listed.push(at.clone());
        for value in values(schema, at) {
            // Named after its field, so a refusal names the field it is about.
            let field = at
                .trim_start_matches("spec.")
                .replace(['[', ']', '{', '}'], "");
            let name = format!("{}-{}", field.to_lowercase(), named.len());
            let placement = json!({
                "apiVersion": api_version,
                "kind": "Placement",
                "metadata": {"name": name, "namespace": "shop"},
                "spec": build(spec, path, "spec", &complete(at, value.clone())),
            });
            // The Placement is one the API server admits, so a refusal is fleetplan's.
            let yaml = serde_yaml::to_string(&placement).unwrap_or_else(|error| panic!("{error}"));
            schemas.assert_admitted(
                &yaml,
                &Namespace::OneOf(&["shop"]),
                &format!("{at} = {value}"),
            );
            stream.push_str("---\n");
            stream.push_str(&yaml);
            named.push(format!("{name}: {at} = {value}"));
        }
    }
    // The walk found the API, the newest fields included.
    for field in ["spec.sortBy", "spec.scoreRateLimit", "spec.spreadPolicy.spreadConstraints[].maxSkew", "spec.decisionStrategy.groupStrategy.decisionGroups[].groupClusterSelector.claimSelector.matchExpressions[].values[]", "spec.tolerations[].tolerationSeconds"] {
        assert!(listed.iter().any(|listed| listed == field), "{field} not in {listed:?}");
    }
    let output = Test::new()
        .args([
            "plan",
            "-f",
            "testdata/fleet/inventory.yaml",
            "-f",
            "testdata/fleet/clustersets.yaml",
        ])
        .args([
            "-f",
            "testdata/fleet/addonscores.yaml",
            "-f",
            "-",
            "-o",
            "json",
        ])
        .stdin(stream.clone())
        .stderr_contains("")
        .run();
    let plan: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    let refused: Vec<String> = plan["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|item| {
            item["errors"]
                .as_array()
                .is_some_and(|errors| !errors.is_empty())
        })
        .map(|item| format!("{}: {}", item["source"]["name"], item["errors"]))
        .collect();
    assert!(
        refused.is_empty() && plan["items"].as_array().map(Vec::len) == Some(named.len()),
        "fleetplan refused Placements the CRD admits:\n{}\nfields:\n{}",
        refused.join("\n"),
        named.join("\n")
    );
}

/// Values the CRD refuses for the field at `at`, each with what the error must name: one
/// outside each enum, minimum, maximum, pattern, length and item count the schema declares,
/// and the object without each of its required fields that has no default.
fn violations(schema: &Value, at: &str) -> Vec<(Value, String)> {
    let mut out = Vec::new();
    if schema["enum"].is_array() {
        out.push((json!("NotAnEnumValue"), at.to_string()));
    }
    if let Some(minimum) = schema["minimum"].as_i64() {
        out.push((json!(minimum - 1), at.to_string()));
    }
    if let Some(maximum) = schema["maximum"].as_i64() {
        out.push((json!(maximum + 1), at.to_string()));
    }
    if schema["pattern"].is_string() {
        out.push((json!("not valid!"), at.to_string()));
    }
    if let Some(length) = schema["maxLength"].as_u64() {
        out.push((json!("a".repeat(length as usize + 1)), at.to_string()));
    }
    if let Some(count) = schema["maxItems"].as_u64() {
        let item = values(&schema["items"], &format!("{at}[]"))[0].clone();
        let items: Vec<Value> = (0..=count)
            .map(|index| match &item {
                // Items that differ, so only the count is wrong.
                Value::Object(object) if object.contains_key("topologyKey") => {
                    let mut object = object.clone();
                    object.insert("topologyKey".into(), json!(format!("k{index}")));
                    Value::Object(object)
                }
                other => other.clone(),
            })
            .collect();
        out.push((json!(items), at.to_string()));
    }
    if schema["type"] == "object" {
        // A list where an object is wanted (serde would take a struct's fields in order).
        out.push((json!([]), at.to_string()));
        for required in schema["required"].as_array().into_iter().flatten() {
            let name = required.as_str().unwrap_or_default();
            // The API server fills in a missing field that has a default.
            if schema["properties"][name].get("default").is_some() {
                continue;
            }
            if let Value::Object(mut object) = smallest(schema, at) {
                object.remove(name);
                out.push((Value::Object(object), name.to_string()));
            }
        }
    }
    out
}

/// `spec.a[].b` as an error names it: the one item of each list is `[0]`.
fn indexed(path: &str) -> String {
    path.replace("[]", "[0]").replace("{}", ".a")
}

/// What the API server refuses for a field the Placement CRD constrains, fleetplan refuses
/// too, with an error naming the Placement and the field: read from YAML, and from a JSON
/// List (whose specs are decoded from their text).
#[test]
fn every_constraint_of_the_upstream_placement_crd_is_enforced() {
    let schemas = Schemas::load();
    let mut stream = String::new();
    let mut items = Vec::new();
    let mut expected: Vec<(String, String, String)> = Vec::new();
    for upstream in upstream_fields() {
        let Field {
            api_version,
            spec,
            path,
            at,
            schema,
        } = &upstream;
        for (value, names) in violations(schema, at) {
            let placement = json!({
                "apiVersion": api_version,
                "kind": "Placement",
                "metadata": {"name": format!("refused-{}", expected.len()), "namespace": "shop"},
                "spec": build(spec, path, "spec", &value),
            });
            let yaml = serde_yaml::to_string(&placement).unwrap_or_else(|error| panic!("{error}"));
            // The API server refuses it.
            let problems = schemas.problems(&placement, &Namespace::OneOf(&["shop"]));
            assert!(
                !problems.is_empty(),
                "the CRD admits {at} = {value}:\n{yaml}"
            );
            let field = indexed(at);
            let named = if names == *at { field.clone() } else { names };
            let parent = field
                .rsplit_once('.')
                .map_or(field.clone(), |(parent, _)| parent.to_string());
            stream.push_str("---\n");
            stream.push_str(&yaml);
            items.push(placement);
            expected.push((parent, named, format!("{at} = {value}")));
        }
    }
    let list = json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string();
    // A List's item's fields are named under `items[N].`.
    let in_list = |index: usize| format!("items[{index}].");
    for (input, within) in [(stream, None), (list, Some(in_list))] {
        let output = Test::new()
            .args(["plan", "-f", "testdata/fleet/inventory.yaml", "-f", "-"])
            .stdin(input)
            .stderr_contains("")
            .status(1)
            .run();
        let stderr = String::from_utf8_lossy(&output.stderr);
        let missed: Vec<&String> = expected
            .iter()
            .enumerate()
            .filter(|(index, (parent, named, _))| {
                let item = within.map(|within| within(*index)).unwrap_or_default();
                let prefix = format!("Placement/shop/refused-{index}: {item}{parent}");
                !stderr
                    .lines()
                    .any(|line| line.contains(&prefix) && line.contains(named.as_str()))
            })
            .map(|(_, (_, _, case))| case)
            .collect();
        assert!(
            missed.is_empty(),
            "not refused naming the field:\n{missed:#?}\n{stderr}"
        );
    }
    assert!(
        expected.len() > 20,
        "only {} constraints found",
        expected.len()
    );
}

/// A ManagedCluster's taint keys are refused exactly when its CRD (testdata/crds) refuses
/// them: its `pattern` and `maxLength`, checked by the schema itself, each refusal a load
/// error naming the cluster and the field.
#[test]
fn managed_cluster_taint_keys_are_refused_as_the_crd_refuses_them() {
    let keys = [
        "gpu".to_string(),
        "foo.example.com/Bar_1.x".to_string(),
        "a".repeat(316),
        "a".repeat(317),
        "gpu type".to_string(),
        String::new(),
        "Example.com/gpu".to_string(),
        "gpu/".to_string(),
        "/gpu".to_string(),
        "-gpu".to_string(),
        "gpu_".to_string(),
        "a.b/c/d".to_string(),
        "é".to_string(),
    ];
    let taints: Vec<_> = keys
        .iter()
        .map(|key| json!({"key": key, "effect": "NoSelect"}))
        .collect();
    let (stream, refused) = clusters_with_taints(&taints);
    let refused: Vec<String> = refused
        .iter()
        .map(|index| format!("ManagedCluster/c-{index}: spec.taints[0].key: "))
        .collect();
    assert_eq!(
        refused.len(),
        10,
        "the CRD's verdicts changed: {refused:#?}"
    );
    let output = Test::new()
        .args(["plan", "-f", "-"])
        .stdin(stream)
        .stderr_contains("")
        .status(1)
        .run();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let found: Vec<String> = stderr
        .lines()
        .filter_map(|line| {
            let at = line.find("ManagedCluster/")?;
            let field = line[at..].find("spec.taints[0].key: ")? + "spec.taints[0].key: ".len();
            Some(line[at..at + field].to_string())
        })
        .collect();
    assert_eq!(found, refused, "{stderr}");
}

/// A ManagedCluster's taint value is refused exactly when its CRD refuses it (`maxLength`
/// 1024 characters, counted as characters), as a load error naming the cluster and field.
#[test]
fn managed_cluster_taint_values_are_refused_beyond_the_crds_length() {
    let values = ["é".repeat(1024), "a".repeat(1025), String::new()];
    let taints: Vec<_> = values
        .iter()
        .map(|value| json!({"key": "gpu", "value": value, "effect": "NoSelect"}))
        .collect();
    let (stream, refused) = clusters_with_taints(&taints);
    assert_eq!(refused, [1], "the CRD's verdicts changed");
    Test::new()
        .args(["plan", "-f", "-"])
        .stdin(stream)
        .stderr_contains(
            "ManagedCluster/c-1: spec.taints[0].value: expected at most 1024 characters, found 1025",
        )
        .status(1)
        .run();
}

/// ManagedClusters `c-<index>`, one per taint, as one stream, and the indices of those the
/// ManagedCluster CRD's schema (testdata/crds) refuses.
fn clusters_with_taints(taints: &[serde_json::Value]) -> (String, Vec<usize>) {
    let schemas = Schemas::load();
    let mut stream = String::new();
    let mut refused = Vec::new();
    for (index, taint) in taints.iter().enumerate() {
        let cluster = json!({
            "apiVersion": "cluster.open-cluster-management.io/v1",
            "kind": "ManagedCluster",
            "metadata": {"name": format!("c-{index}")},
            "spec": {"taints": [taint]},
        });
        if !schemas.problems(&cluster, &Namespace::Absent).is_empty() {
            refused.push(index);
        }
        stream.push_str("---\n");
        stream.push_str(&serde_json::to_string(&cluster).unwrap());
        stream.push('\n');
    }
    (stream, refused)
}
