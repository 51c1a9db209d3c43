//! What the API server enforces from a CRD's schema beyond JSON Schema, for the schema tests
//! (`schemas.rs`): `x-kubernetes-list-type: map` (the items of such a list are unique by their
//! `x-kubernetes-list-map-keys`) and the CEL rules of `x-kubernetes-validations`, with `self`
//! the value the rule is declared on.
//!
//! The rules are evaluated with the `cel` crate, fleetplan's own CEL engine (its `celSelector`
//! evaluator is built on it, for a `managedCluster` variable; these rules need `self`). A rule
//! that does not compile, fails to evaluate or does not give a boolean is a problem like a
//! broken rule is: the API server refuses the object then too, and a check that cannot run
//! must never pass.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

/// Every problem the list-map keys and CEL rules of `schema` find in `value` (at `path`, `""`
/// for the object itself), each naming the field.
pub fn problems(schema: &Value, value: &Value, path: &str) -> Vec<String> {
    let mut found = Vec::new();
    walk(schema, value, path, &mut found);
    found
}

fn walk(schema: &Value, value: &Value, path: &str, found: &mut Vec<String>) {
    if value.is_null() {
        return;
    }
    for rule in schema["x-kubernetes-validations"]
        .as_array()
        .into_iter()
        .flatten()
    {
        if let Some(problem) = broken_rule(rule, value) {
            found.push(format!("{}: {problem}", shown(path)));
        }
    }
    match value {
        Value::Object(fields) => {
            for (name, field) in fields {
                let field_schema = match schema["properties"].get(name) {
                    Some(property) => property,
                    None => &schema["additionalProperties"],
                };
                walk(field_schema, field, &format!("{path}.{name}"), found);
            }
        }
        Value::Array(items) => {
            if schema["x-kubernetes-list-type"] == "map" {
                found.extend(duplicate_keys(schema, items, path));
            }
            for (index, item) in items.iter().enumerate() {
                walk(&schema["items"], item, &format!("{path}[{index}]"), found);
            }
        }
        _ => {}
    }
}

fn shown(path: &str) -> &str {
    if path.is_empty() {
        "<object>"
    } else {
        path.trim_start_matches('.')
    }
}

/// Items of a `map` list with the same values of every map key; a key an item lacks takes
/// its schema default, as the API server defaults before it validates.
fn duplicate_keys(schema: &Value, items: &[Value], path: &str) -> Vec<String> {
    let keys: Vec<&str> = schema["x-kubernetes-list-map-keys"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if keys.is_empty() {
        return vec![format!(
            "{}: x-kubernetes-list-type map without x-kubernetes-list-map-keys",
            shown(path)
        )];
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut found = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let values: Vec<&Value> = keys
            .iter()
            .map(|key| match item.get(*key) {
                Some(value) => value,
                None => &schema["items"]["properties"][*key]["default"],
            })
            .collect();
        let shown_values: Vec<String> = keys
            .iter()
            .zip(&values)
            .map(|(key, value)| format!("{key}={value}"))
            .collect();
        if let Some(first) = seen.insert(shown_values.join(", "), index) {
            found.push(format!(
                "{}[{index}]: duplicate entry of a map list ({}), first at [{first}]",
                shown(path),
                shown_values.join(", ")
            ));
        }
    }
    found
}

/// Why one `x-kubernetes-validations` rule refuses `value`, if it does.
fn broken_rule(rule: &Value, value: &Value) -> Option<String> {
    let Some(source) = rule["rule"].as_str() else {
        return Some(format!(
            "x-kubernetes-validations entry without a rule: {rule}"
        ));
    };
    if source.contains("oldSelf") {
        // A transition rule: the API server checks it on updates only, and these tests only
        // create objects. Refused rather than skipped, so a CRD that adds one is looked at.
        return Some(format!(
            "rule {source:?} is a transition rule (oldSelf), which this check cannot evaluate"
        ));
    }
    let program = match cel::Program::compile(source) {
        Ok(program) => program,
        Err(error) => return Some(format!("rule {source:?} does not compile: {error}")),
    };
    let mut context = cel::Context::default();
    context.add_variable_from_value("self", cel_value(value));
    match program.execute(&context) {
        Ok(cel::Value::Bool(true)) => None,
        Ok(cel::Value::Bool(false)) => Some(match rule["message"].as_str() {
            Some(message) => format!("{message} (rule {source:?})"),
            None => format!("failed rule: {source}"),
        }),
        Ok(other) => Some(format!("rule {source:?} gave {other:?}, not a boolean")),
        Err(error) => Some(format!("rule {source:?} cannot be evaluated: {error}")),
    }
}

/// A JSON value as CEL sees a Kubernetes object: integers as `int`, objects as maps.
fn cel_value(value: &Value) -> cel::Value {
    match value {
        Value::Null => cel::Value::Null,
        Value::Bool(flag) => cel::Value::Bool(*flag),
        Value::Number(number) => match (number.as_i64(), number.as_u64()) {
            (Some(int), _) => cel::Value::Int(int),
            (None, Some(uint)) => cel::Value::UInt(uint),
            _ => cel::Value::Float(number.as_f64().unwrap_or_default()),
        },
        Value::String(text) => cel::Value::String(Arc::new(text.clone())),
        Value::Array(items) => cel::Value::List(Arc::new(items.iter().map(cel_value).collect())),
        Value::Object(fields) => cel::Value::from(
            fields
                .iter()
                .map(|(name, field)| (name.clone(), cel_value(field)))
                .collect::<HashMap<String, cel::Value>>(),
        ),
    }
}

use serde_json::json;

fn rule(source: &str) -> Value {
    json!({
        "type": "object",
        "x-kubernetes-validations": [{"rule": source, "message": "must hold"}]
    })
}

#[test]
fn a_rule_that_holds_passes_and_one_that_fails_says_its_message() {
    let schema = rule("self.a > 1");
    assert_eq!(
        problems(&schema, &json!({"a": 2}), ""),
        Vec::<String>::new()
    );
    assert_eq!(
        problems(&schema, &json!({"a": 1}), ".spec"),
        ["spec: must hold (rule \"self.a > 1\")"]
    );
}

#[test]
fn a_rule_that_cannot_be_evaluated_is_a_problem_never_a_pass() {
    for (source, expected) in [
        ("self.a >", "does not compile"),
        ("self.missing == 1", "cannot be evaluated"),
        ("self.a", "not a boolean"),
        ("self.a == oldSelf.a", "transition rule"),
    ] {
        let found = problems(&rule(source), &json!({"a": 2}), "");
        assert!(
            found.len() == 1 && found[0].contains(expected),
            "{source}: {found:?}"
        );
    }
}

#[test]
fn map_list_items_are_unique_by_their_keys_with_defaults() {
    let schema = json!({
        "type": "array",
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["name", "protocol"],
        "items": {"properties": {"protocol": {"type": "string", "default": "TCP"}}}
    });
    let distinct = json!([{"name": "a"}, {"name": "a", "protocol": "UDP"}]);
    assert_eq!(problems(&schema, &distinct, ".ports"), Vec::<String>::new());
    let same = json!([{"name": "a"}, {"name": "b"}, {"name": "a", "protocol": "TCP"}]);
    assert_eq!(
        problems(&schema, &same, ".ports"),
        ["ports[2]: duplicate entry of a map list (name=\"a\", protocol=\"TCP\"), first at [0]"]
    );
}

#[test]
fn rules_apply_where_they_are_declared_in_nested_fields() {
    let schema = json!({
        "properties": {"spec": {"properties": {"rules": {"items": rule("self.on")}}}}
    });
    let object = json!({"spec": {"rules": [{"on": true}, {"on": false}]}});
    assert_eq!(
        problems(&schema, &object, ""),
        ["spec.rules[1]: must hold (rule \"self.on\")"]
    );
}
