//! What upstream refuses to store of the objects around a placement (a placement's own
//! policy is `admission.rs`'s): the CRDs' schema and CEL rules, checked by the API server
//! first, then the validating webhooks, at kubefleet-dev/kubefleet e160c1cdfdd9:
//! - MemberCluster: `pkg/utils/validator/membercluster.go validateTaints`;
//! - ClusterResourceOverride / ResourceOverride: `pkg/utils/validator/
//!   clusterresourceoverride.go validateClusterResourceSelectors`, `resourceoverride.go
//!   validateResourceSelectors`, `validateOverridePolicy`, `validateJSONPatchOverride`,
//!   `validateJSONPatchOverridePath` (the refusal across overrides is `plan.rs`'s);
//! - (Cluster)StagedUpdateStrategy: the CRD's limits and CEL rules
//!   (`apis/placement/v1beta1/stageupdate_types.go`).
//!
//! Each check reads the object's `spec` as written (the rules test which fields are
//! present) and returns every refusal of the API server, each at its field path, in one
//! fixed order: field by field as the checks below walk the object, depth first, a rule of
//! the whole object first; or, when the schema admits the object, the webhook's aggregated
//! message at the field it judged (the webhook never sees what the API server refused).
//! fleetplan refuses such an object as the hub would: one load error per refusal, the object
//! never used.

use std::collections::HashSet;

use serde_json::Value;

use crate::kubefleet::model::aggregate;
use crate::load::api::FieldError;
use crate::selector::{go_quote, label_key_errors, label_value_errors, Selector};

/// The schema's refusals, as the API server words them, in the order they are found.
struct Schema {
    refusals: Vec<FieldError>,
}

impl Schema {
    fn new() -> Schema {
        Schema {
            refusals: Vec::new(),
        }
    }

    fn refuse(&mut self, path: &str, message: String) {
        self.refusals.push(FieldError::new(path, message));
    }

    fn required(&mut self, path: &str) {
        self.refuse(path, "Required value".to_string());
    }

    /// An array's `minItems` / `maxItems`.
    fn items(&mut self, path: &str, items: &[Value], min: usize, max: usize) {
        if items.len() > max {
            self.refuse(
                path,
                format!("Too many: {}: must have at most {max} items", items.len()),
            );
        } else if items.len() < min {
            self.refuse(
                path,
                format!(
                    "Invalid value: {}: {path} in body should have at least {min} items",
                    items.len()
                ),
            );
        }
    }

    fn one_of(&mut self, path: &str, value: &str, supported: &[&str]) {
        if !supported.contains(&value) {
            // The API server quotes with Go's `%q` (`field.NotSupported`).
            let supported: Vec<String> = supported.iter().map(|one| go_quote(one)).collect();
            self.refuse(
                path,
                format!(
                    "Unsupported value: {}: supported values: {}",
                    crate::model::shorten_quoted(&go_quote(value)),
                    supported.join(", ")
                ),
            );
        }
    }

    fn pattern(&mut self, path: &str, value: &str, pattern: &str, matches: bool) {
        if !matches {
            self.refuse(
                path,
                format!(
                    "Invalid value: {}: {path} in body should match '{pattern}'",
                    go_quote(value)
                ),
            );
        }
    }

    /// A CEL rule of an array or object field: `Invalid value: "array": <message>`.
    fn rule(&mut self, path: &str, what: &str, holds: bool, message: &str) {
        if !holds {
            self.refuse(path, format!("Invalid value: {what:?}: {message}"));
        }
    }

    /// An integer's `minimum` / `maximum`.
    fn bounds(&mut self, path: &str, value: i64, min: i64, max: i64) {
        let bound = if value < min {
            format!("greater than or equal to {min}")
        } else if value > max {
            format!("less than or equal to {max}")
        } else {
            return;
        };
        self.refuse(
            path,
            format!("Invalid value: {value}: {path} in body should be {bound}"),
        );
    }
}

fn array(value: Option<&Value>) -> &[Value] {
    value.and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

fn text<'a>(value: &'a Value, field: &str) -> Option<&'a str> {
    value.get(field).and_then(Value::as_str)
}

fn has(value: &Value, field: &str) -> bool {
    value.get(field).is_some_and(|field| !field.is_null())
}

/// A MemberCluster: the CRD's schema (`spec` and `spec.identity` with its `kind` and `name`
/// required, `heartbeatPeriodSeconds` 1–600, at most 100 taints, each with a `key` and an
/// `effect` that is `NoSchedule`), then `validateTaints`.
pub(super) fn member_cluster(name: &str, spec: &Value) -> Vec<FieldError> {
    let mut schema = Schema::new();
    // Both versions' CRD: `size(self.metadata.name) < 64`.
    name_at_most(&mut schema, name, 63);
    if spec.is_null() {
        schema.required("spec");
        return schema.refusals;
    }
    match spec.get("heartbeatPeriodSeconds") {
        None | Some(Value::Null) => {}
        Some(Value::Number(number)) if number.as_i64().is_some() => schema.bounds(
            "spec.heartbeatPeriodSeconds",
            number.as_i64().unwrap_or_default(),
            1,
            600,
        ),
        Some(other) => schema.refuse(
            "spec.heartbeatPeriodSeconds",
            format!(
                "Invalid value: {kind:?}: spec.heartbeatPeriodSeconds in body must be of type integer: {kind:?}",
                kind = json_type(other)
            ),
        ),
    }
    match spec.get("identity").filter(|identity| !identity.is_null()) {
        None => schema.required("spec.identity"),
        Some(identity) => {
            for field in ["kind", "name"] {
                if !has(identity, field) {
                    schema.required(&format!("spec.identity.{field}"));
                }
            }
        }
    }
    let taints = array(spec.get("taints"));
    schema.items("spec.taints", taints, 0, 100);
    for (index, taint) in taints.iter().enumerate() {
        let path = format!("spec.taints[{index}].effect");
        match text(taint, "effect") {
            None => schema.required(&path),
            Some(effect) => schema.one_of(&path, effect, &["NoSchedule"]),
        }
        if !has(taint, "key") {
            schema.required(&format!("spec.taints[{index}].key"));
        }
    }
    if !schema.refusals.is_empty() {
        return schema.refusals;
    }
    let mut messages = Vec::new();
    let mut seen = HashSet::new();
    for taint in taints {
        let key = text(taint, "key").unwrap_or_default();
        let value = text(taint, "value").unwrap_or_default();
        let effect = text(taint, "effect").unwrap_or_default();
        // Go's `%+v` of the Taint struct.
        let shown = format!("{{Key:{key} Value:{value} Effect:{effect}}}");
        for error in label_key_errors(key) {
            messages.push(format!("invalid taint key {shown}: {error}"));
        }
        if !value.is_empty() {
            for error in label_value_errors(value) {
                messages.push(format!("invalid taint value {shown}: {error}"));
            }
        }
        if !seen.insert((key, value, effect)) {
            messages.push(format!(
                "taint {shown} already exists, taints must be unique"
            ));
        }
    }
    webhook("spec.taints", &messages)
}

/// The webhook's refusal at `path`: its messages as `utilerrors.NewAggregate` prints them.
fn webhook(path: &str, messages: &[String]) -> Vec<FieldError> {
    if messages.is_empty() {
        Vec::new()
    } else {
        vec![FieldError::new(path, aggregate(messages))]
    }
}

/// The JSON type the API server names in a type refusal.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        // The API server's type names: a whole number is an `integer`.
        Value::Number(number) if number.is_i64() || number.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The field a ClusterResourceOverride (`cluster_scoped`) or ResourceOverride selects its
/// resources with.
pub(crate) fn selectors_field(cluster_scoped: bool) -> &'static str {
    if cluster_scoped {
        "clusterResourceSelectors"
    } else {
        "resourceSelectors"
    }
}

/// Go's `%+v` of a selector as the webhook prints it: a ClusterResourceOverride's
/// `ResourceSelectorTerm` (with the CRD's default `selectionScope`; a label selector, a
/// pointer, as `&{…}`), a ResourceOverride's `ResourceSelector`.
pub(crate) fn shown_selector(selector: &Value, cluster_scoped: bool) -> String {
    let field = |name: &str| text(selector, name).unwrap_or_default();
    let base = format!(
        "{{Group:{} Version:{} Kind:{} Name:{}",
        field("group"),
        field("version"),
        field("kind"),
        field("name")
    );
    if !cluster_scoped {
        return format!("{base}}}");
    }
    let label_selector = if has(selector, "labelSelector") {
        "&{…}"
    } else {
        "<nil>"
    };
    let scope = text(selector, "selectionScope").unwrap_or("NamespaceWithResources");
    format!("{base} LabelSelector:{label_selector} SelectionScope:{scope}}}")
}

/// A ClusterResourceOverride (`cluster_scoped`) or ResourceOverride: the CRD's limits and
/// CEL rule, then the webhook's checks of the override alone.
pub(super) fn override_(spec: &Value, cluster_scoped: bool) -> Vec<FieldError> {
    let refusals = override_schema(spec, cluster_scoped);
    if !refusals.is_empty() {
        return refusals;
    }
    let field = selectors_field(cluster_scoped);
    let selectors = array(spec.get(field));
    let mut messages = Vec::new();
    let mut seen = HashSet::new();
    for selector in selectors {
        let shown = shown_selector(selector, cluster_scoped);
        if cluster_scoped && has(selector, "labelSelector") {
            messages.push(format!(
                "label selector is not supported for resource selection {shown}"
            ));
            continue;
        }
        if cluster_scoped && text(selector, "name").unwrap_or_default().is_empty() {
            messages.push(format!(
                "resource name is required for resource selection {shown}"
            ));
            continue;
        }
        if !seen.insert(shown.clone()) {
            messages.push(format!(
                "resource selector {shown} already exists, and must be unique"
            ));
        }
    }
    if !messages.is_empty() {
        return webhook(&format!("spec.{field}"), &messages);
    }
    let rules = array(
        spec.get("policy")
            .and_then(|policy| policy.get("overrideRules")),
    );
    webhook("spec.policy.overrideRules", &override_policy(rules))
}

fn override_schema(spec: &Value, cluster_scoped: bool) -> Vec<FieldError> {
    let mut schema = Schema::new();
    if cluster_scoped {
        let namespaced = spec
            .get("placement")
            .and_then(|placement| text(placement, "scope"))
            == Some("Namespaced");
        // A rule of the whole object: the API server names no field.
        schema.rule(
            "",
            "object",
            !namespaced,
            "clusterResourceOverride placement reference cannot be Namespaced scope",
        );
    }
    if let Some(scope) = spec
        .get("placement")
        .and_then(|placement| text(placement, "scope"))
    {
        schema.one_of("spec.placement.scope", scope, &["Cluster", "Namespaced"]);
    }
    let field = selectors_field(cluster_scoped);
    let path = format!("spec.{field}");
    if has(spec, field) {
        let selectors = array(spec.get(field));
        schema.items(&path, selectors, 1, 20);
        for (index, selector) in selectors.iter().enumerate() {
            let mut required = vec!["group", "version", "kind"];
            if !cluster_scoped {
                required.push("name");
            }
            for name in required {
                if !has(selector, name) {
                    schema.required(&format!("{path}[{index}].{name}"));
                }
            }
        }
    } else {
        schema.required(&path);
    }
    match spec.get("policy").filter(|policy| !policy.is_null()) {
        None => schema.required("spec.policy"),
        Some(policy) if !has(policy, "overrideRules") => {
            schema.required("spec.policy.overrideRules");
        }
        Some(policy) => {
            let rules = array(policy.get("overrideRules"));
            schema.items("spec.policy.overrideRules", rules, 1, 20);
            for (index, rule) in rules.iter().enumerate() {
                let path = format!("spec.policy.overrideRules[{index}]");
                if let Some(selector) = rule.get("clusterSelector").filter(|s| !s.is_null()) {
                    if has(selector, "clusterSelectorTerms") {
                        let terms = array(selector.get("clusterSelectorTerms"));
                        schema.items(
                            &format!("{path}.clusterSelector.clusterSelectorTerms"),
                            terms,
                            0,
                            10,
                        );
                    } else {
                        schema.required(&format!("{path}.clusterSelector.clusterSelectorTerms"));
                    }
                }
                if let Some(kind) = text(rule, "overrideType") {
                    schema.one_of(
                        &format!("{path}.overrideType"),
                        kind,
                        &["JSONPatch", "Delete"],
                    );
                }
                if has(rule, "jsonPatchOverrides") {
                    let patches = array(rule.get("jsonPatchOverrides"));
                    schema.items(&format!("{path}.jsonPatchOverrides"), patches, 1, 20);
                    for (at, patch) in patches.iter().enumerate() {
                        let patch_path = format!("{path}.jsonPatchOverrides[{at}]");
                        match text(patch, "op") {
                            None => schema.required(&format!("{patch_path}.op")),
                            Some(op) => schema.one_of(
                                &format!("{patch_path}.op"),
                                op,
                                &["add", "remove", "replace"],
                            ),
                        }
                        if !has(patch, "path") {
                            schema.required(&format!("{patch_path}.path"));
                        }
                    }
                }
            }
        }
    }
    schema.refusals
}

/// `validateOverridePolicy`: the messages of every rule, in order; a Delete rule with JSON
/// patches ends the check with that one message (upstream returns it alone).
fn override_policy(rules: &[Value]) -> Vec<String> {
    let mut messages = Vec::new();
    for rule in rules {
        let terms = rule
            .get("clusterSelector")
            .map(|selector| array(selector.get("clusterSelectorTerms")))
            .unwrap_or_default();
        for term in terms {
            let pointer = |field: &str| if has(term, field) { "&{…}" } else { "<nil>" };
            // Go's `%+v` of the ClusterSelectorTerm; a set pointer is written `&{…}`.
            let shown = format!(
                "{{LabelSelector:{} PropertySelector:{} PropertySorter:{}}}",
                pointer("labelSelector"),
                pointer("propertySelector"),
                pointer("propertySorter")
            );
            if has(term, "propertySelector") || has(term, "propertySorter") {
                messages.push(format!(
                    "invalid clusterSelector {shown}: only labelSelector is supported"
                ));
                continue;
            }
            match term
                .get("labelSelector")
                .filter(|selector| !selector.is_null())
            {
                None => messages.push(format!(
                    "invalid clusterSelector {shown}: labelSelector is required"
                )),
                Some(selector) => {
                    let parsed = serde_json::from_value(selector.clone())
                        .map_err(|error| error.to_string())
                        .and_then(|spec| {
                            Selector::from_label_selector(Some(&spec))
                                .map(|_| ())
                                .map_err(|error| error.to_string())
                        });
                    if let Err(error) = parsed {
                        messages.push(format!(
                            "the labelSelector in cluster selector is invalid: {error}"
                        ));
                    }
                }
            }
        }
        let patches = array(rule.get("jsonPatchOverrides"));
        match text(rule, "overrideType").unwrap_or("JSONPatch") {
            "Delete" if !patches.is_empty() => {
                return vec![
                    "invalid JSONPatchOverrides: JSONPatchOverrides cannot be set when the override type is Delete"
                        .to_string(),
                ];
            }
            "JSONPatch" if patches.is_empty() => messages
                .push("invalid JSONPatchOverrides: JSONPatchOverrides cannot be empty".to_string()),
            "JSONPatch" => {
                for patch in patches {
                    let op = text(patch, "op").unwrap_or_default();
                    let path = text(patch, "path").unwrap_or_default();
                    let value = patch.get("value");
                    // Go's `%s` of the JSONPatchOverride: its value's raw JSON text.
                    let raw = value.map(Value::to_string).unwrap_or_default();
                    let shown = format!("{{{op} {path} {{{raw}}}}}");
                    if let Err(why) = patch_path(path) {
                        messages.push(format!("invalid JSONPatchOverride {shown}: {why}"));
                    }
                    if op == "remove" && value.is_some() {
                        messages.push(format!(
                            "invalid JSONPatchOverride {shown}: remove operation cannot have value"
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    messages
}

/// `validateJSONPatchOverridePath`.
fn patch_path(path: &str) -> Result<(), &'static str> {
    if path.is_empty() {
        return Err("path cannot be empty");
    }
    let Some(rest) = path.strip_prefix('/') else {
        return Err("path must start with /");
    };
    let parts: Vec<&str> = rest.split('/').collect();
    match parts.as_slice() {
        ["kind" | "apiVersion", ..] => return Err("cannot override typeMeta fields"),
        ["metadata"] => return Err("cannot override field metadata"),
        ["metadata", field, ..] if *field != "annotations" && *field != "labels" => {
            return Err("cannot override metadata fields except annotations and labels");
        }
        ["status", ..] => return Err("cannot override status fields"),
        _ => {}
    }
    if parts.iter().any(|part| part.trim().is_empty()) {
        return Err("path cannot contain empty string");
    }
    Ok(())
}

/// The CRD rule `size(self.metadata.name) < longest + 1`, on the whole object, with its message.
fn name_at_most(schema: &mut Schema, name: &str, longest: usize) {
    schema.rule(
        "",
        "object",
        name.len() <= longest,
        &format!("metadata.name max length is {longest}"),
    );
}

/// A (Cluster)StagedUpdateRun: the CRD's rule on the name's length (127 bytes in
/// `v1alpha1`, 63 in `v1beta1` and `v1`), its required fields (`spec`, `placementName`,
/// `stagedRolloutStrategyName`, and in `v1alpha1` `resourceSnapshotIndex`),
/// `placementName` at most 255 bytes, and `state` one of its values (`v1` and `v1beta1`).
pub(super) fn run(version: &str, name: &str, spec: &Value) -> Vec<FieldError> {
    let mut schema = Schema::new();
    name_at_most(
        &mut schema,
        name,
        if version == "v1alpha1" { 127 } else { 63 },
    );
    if spec.is_null() {
        schema.required("spec");
        return schema.refusals;
    }
    let mut required = vec!["placementName", "stagedRolloutStrategyName"];
    if version == "v1alpha1" {
        required.insert(1, "resourceSnapshotIndex");
    }
    for field in required {
        if !has(spec, field) {
            schema.required(&format!("spec.{field}"));
        }
    }
    if let Some(placement) = text(spec, "placementName") {
        if placement.len() > 255 {
            schema.refuse(
                "spec.placementName",
                "Too long: may not be more than 255 bytes".to_string(),
            );
        }
    }
    // `v1alpha1` has no `state` (the API server drops the unknown field).
    if let Some(state) = text(spec, "state").filter(|_| version != "v1alpha1") {
        schema.one_of("spec.state", state, &["Initialize", "Run", "Stop"]);
    }
    schema.refusals
}

const STAGE_NAME_PATTERN: &str = "^[a-z0-9]+$";
const MAX_CONCURRENCY_PATTERN: &str = "^(100|[1-9][0-9]?)%$";
const WAIT_TIME_PATTERN: &str = r"^(?:(?:0|[1-9][0-9]*)(\.[0-9]+)?(?:s|m|h))+$";

/// A (Cluster)StagedUpdateStrategy's `spec.stages`: the CRD's limits, patterns and CEL
/// rules (`stageupdate_types.go` v1beta1).
/// A placement's `spec.strategy.type` as the CRD admits it: `RollingUpdate` (its default, when
/// absent) or `External`.
pub(super) fn strategy_type(strategy: Option<&Value>) -> Result<String, FieldError> {
    const PATH: &str = "spec.strategy.type";
    let mut schema = Schema::new();
    match strategy.and_then(|strategy| strategy.get("type")) {
        None | Some(Value::Null) => return Ok("RollingUpdate".to_string()),
        Some(Value::String(kind)) => {
            schema.one_of(PATH, kind, &["RollingUpdate", "External"]);
            if schema.refusals.is_empty() {
                return Ok(kind.clone());
            }
        }
        Some(other) => schema.refuse(
            PATH,
            format!(
                "Invalid value: {kind:?}: {PATH} in body must be of type string: {kind:?}",
                kind = json_type(other)
            ),
        ),
    }
    Err(schema.refusals.remove(0))
}

pub(super) fn strategy(spec: &Value) -> Vec<FieldError> {
    let mut schema = Schema::new();
    let Some(stages) = spec.get("stages").filter(|s| !s.is_null()) else {
        schema.required("spec.stages");
        return schema.refusals;
    };
    let stages = array(Some(stages));
    schema.items("spec.stages", stages, 0, 31);
    for (index, stage) in stages.iter().enumerate() {
        let path = format!("spec.stages[{index}]");
        match text(stage, "name") {
            None => schema.required(&format!("{path}.name")),
            Some(name) if name.len() > 63 => schema.refuse(
                &format!("{path}.name"),
                "Too long: may not be more than 63 bytes".to_string(),
            ),
            Some(name) => schema.pattern(
                &format!("{path}.name"),
                name,
                STAGE_NAME_PATTERN,
                !name.is_empty()
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
            ),
        }
        match stage.get("maxConcurrency") {
            Some(Value::Number(number)) => schema.rule(
                &format!("{path}.maxConcurrency"),
                "",
                number.as_i64().is_some_and(|n| n >= 1),
                "maxConcurrency must be at least 1",
            ),
            Some(Value::String(percent)) => schema.pattern(
                &format!("{path}.maxConcurrency"),
                percent,
                MAX_CONCURRENCY_PATTERN,
                is_percent(percent),
            ),
            _ => {}
        }
        for (field, max) in [("afterStageTasks", 2), ("beforeStageTasks", 1)] {
            let Some(tasks) = stage.get(field).filter(|tasks| !tasks.is_null()) else {
                continue;
            };
            let tasks = array(Some(tasks));
            let path = format!("{path}.{field}");
            schema.items(&path, tasks, 0, max);
            for (at, task) in tasks.iter().enumerate() {
                match text(task, "type") {
                    None => schema.required(&format!("{path}[{at}].type")),
                    Some(kind) => {
                        schema.one_of(
                            &format!("{path}[{at}].type"),
                            kind,
                            &["TimedWait", "Approval"],
                        );
                    }
                }
                if let Some(wait) = text(task, "waitTime") {
                    schema.pattern(
                        &format!("{path}[{at}].waitTime"),
                        wait,
                        WAIT_TIME_PATTERN,
                        is_wait_time(wait),
                    );
                }
            }
            let any = |kind: &str, wait: bool| {
                tasks
                    .iter()
                    .any(|task| text(task, "type") == Some(kind) && has(task, "waitTime") == wait)
            };
            schema.rule(
                &path,
                "array",
                !any("Approval", true),
                "AfterStageTaskType is Approval, waitTime is not allowed",
            );
            if field == "afterStageTasks" {
                schema.rule(
                    &path,
                    "array",
                    !any("TimedWait", false),
                    "AfterStageTaskType is TimedWait, waitTime is required",
                );
            } else {
                schema.rule(
                    &path,
                    "array",
                    !any("TimedWait", false) && !any("TimedWait", true),
                    "BeforeStageTaskType cannot be TimedWait",
                );
            }
        }
    }
    schema.refusals
}

/// `^(100|[1-9][0-9]?)%$`.
fn is_percent(text: &str) -> bool {
    let Some(number) = text.strip_suffix('%') else {
        return false;
    };
    number == "100"
        || (matches!(number.len(), 1 | 2)
            && !number.starts_with('0')
            && number.bytes().all(|b| b.is_ascii_digit()))
}

/// `^(?:(?:0|[1-9][0-9]*)(\.[0-9]+)?(?:s|m|h))+$`.
fn is_wait_time(text: &str) -> bool {
    let mut rest = text.as_bytes();
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || (digits > 1 && rest[0] == b'0') {
            return false;
        }
        rest = &rest[digits..];
        if let Some(after) = rest.strip_prefix(b".") {
            let fraction = after.iter().take_while(|b| b.is_ascii_digit()).count();
            if fraction == 0 {
                return false;
            }
            rest = &after[fraction..];
        }
        match rest.split_first() {
            Some((b's' | b'm' | b'h', after)) => rest = after,
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn refusals(errors: Vec<FieldError>) -> Vec<(String, String)> {
        errors
            .into_iter()
            .map(|error| (error.path, error.message))
            .collect()
    }

    #[test]
    fn wait_times_and_percentages_follow_the_crd_patterns() {
        for good in ["1h", "1.5m", "0s", "10m30s", "1h0m0.5s"] {
            assert!(is_wait_time(good), "{good}");
        }
        for bad in ["", "1d", "01s", "1.s", "s", "1h-"] {
            assert!(!is_wait_time(bad), "{bad}");
        }
        for good in ["1%", "50%", "99%", "100%"] {
            assert!(is_percent(good), "{good}");
        }
        for bad in ["0%", "05%", "101%", "%", "50"] {
            assert!(!is_percent(bad), "{bad}");
        }
    }

    #[test]
    fn patch_paths_are_refused_as_upstream_refuses_them() {
        assert_eq!(patch_path(""), Err("path cannot be empty"));
        assert_eq!(patch_path("spec"), Err("path must start with /"));
        assert_eq!(patch_path("/kind"), Err("cannot override typeMeta fields"));
        assert_eq!(
            patch_path("/metadata"),
            Err("cannot override field metadata")
        );
        assert_eq!(
            patch_path("/metadata/name"),
            Err("cannot override metadata fields except annotations and labels")
        );
        assert_eq!(
            patch_path("/status/x"),
            Err("cannot override status fields")
        );
        assert_eq!(
            patch_path("/spec//replicas"),
            Err("path cannot contain empty string")
        );
        assert_eq!(patch_path("/metadata/labels/a"), Ok(()));
    }

    #[test]
    fn a_member_cluster_s_taints_are_checked_by_schema_then_webhook() {
        let identity = json!({"kind": "ServiceAccount", "name": "member"});
        let spec = json!({"identity": identity, "taints": [
            {"key": "a", "effect": "NoExecute"},
            {"key": "a", "value": "b", "effect": "NoSchedule"},
            {"key": "a", "value": "b", "effect": "NoSchedule"}
        ]});
        // The webhook would refuse the repeated taint, but it never sees what the schema
        // refused.
        assert_eq!(
            refusals(member_cluster("m", &spec)),
            [(
                "spec.taints[0].effect".to_string(),
                "Unsupported value: \"NoExecute\": supported values: \"NoSchedule\"".to_string()
            )]
        );
        let spec = json!({"identity": identity, "taints": [
            {"key": "a", "value": "b", "effect": "NoSchedule"},
            {"key": "a", "value": "b", "effect": "NoSchedule"}
        ]});
        assert_eq!(
            refusals(member_cluster("m", &spec)),
            [(
                "spec.taints".to_string(),
                "taint {Key:a Value:b Effect:NoSchedule} already exists, taints must be unique"
                    .to_string()
            )]
        );
    }

    #[test]
    fn every_schema_refusal_of_a_member_cluster_is_reported_in_field_order() {
        let spec = json!({
            "heartbeatPeriodSeconds": 0,
            "identity": {"kind": "ServiceAccount"},
            "taints": [{"effect": "NoExecute"}, {"key": "b"}]
        });
        let refused = refusals(member_cluster("m", &spec));
        let paths: Vec<&str> = refused.iter().map(|(path, _)| path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "spec.heartbeatPeriodSeconds",
                "spec.identity.name",
                "spec.taints[0].effect",
                "spec.taints[0].key",
                "spec.taints[1].effect",
            ]
        );
        assert_eq!(
            refused[0].1,
            "Invalid value: 0: spec.heartbeatPeriodSeconds in body should be greater than or equal to 1"
        );
        assert_eq!(
            refusals(member_cluster("m", &Value::Null)),
            [("spec".to_string(), "Required value".to_string())]
        );
        assert_eq!(
            refusals(member_cluster("m", &json!({"heartbeatPeriodSeconds": "60"}))),
            [
                (
                    "spec.heartbeatPeriodSeconds".to_string(),
                    "Invalid value: \"string\": spec.heartbeatPeriodSeconds in body must be of type integer: \"string\"".to_string()
                ),
                ("spec.identity".to_string(), "Required value".to_string()),
            ]
        );
    }

    #[test]
    fn a_delete_rule_with_patches_is_the_only_message() {
        let rules = [
            json!({"clusterSelector": {"clusterSelectorTerms": [{}]}}),
            json!({"overrideType": "Delete", "jsonPatchOverrides": [{"op": "add", "path": "/a"}]}),
        ];
        assert_eq!(
            override_policy(&rules),
            ["invalid JSONPatchOverrides: JSONPatchOverrides cannot be set when the override type is Delete"]
        );
    }
}
