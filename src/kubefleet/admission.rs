//! What upstream refuses to store as a placement's `spec.policy` (design §1): the CRD's
//! schema and CEL rules, checked by the API server first, then the validating webhook
//! (`pkg/utils/validator/placement.go validatePlacementPolicy`). fleetplan refuses such a
//! placement with the same reason and never plans it.

use std::cmp::Ordering;
use std::collections::HashSet;
use std::fmt;

use serde_json::Value;

use super::model::aggregate;
use super::model::policy::{
    ClusterSelectorTerm, PlacementPolicy, PlacementType, PropertySelectorRequirement,
};
use super::model::taint::{Toleration, TolerationOperator};
use super::property::{self, RESOURCE_PROPERTY_PREFIX};
use crate::model::quantity::QuantityError;
use crate::model::Quantity;
use crate::selector::{
    dns1123_subdomain_errors, go_quote, label_key_errors, label_value_errors, Selector,
};

/// One refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The API server, from the CRD: the field under `spec.policy` and Kubernetes' message.
    Schema { field: String, message: String },
    /// The validating webhook: its aggregated messages.
    Webhook(Vec<String>),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Schema { field, message } => write!(f, "{field}: {message}"),
            Refusal::Webhook(messages) => {
                write!(
                    f,
                    "the placement policy field is invalid: {}",
                    aggregate(messages)
                )
            }
        }
    }
}

const POLICY: &str = "spec.policy";

/// Checks a placement's policy: `raw` is `spec.policy` as written (the CEL rules test which
/// fields are present), `policy` the same read with the CRD's defaults. The schema's
/// refusals come first; the webhook only sees what the API server accepted.
pub(crate) fn admit(raw: Option<&Value>, policy: &PlacementPolicy) -> Result<(), Vec<Refusal>> {
    let Some(raw) = raw else {
        return Ok(());
    };
    let mut refusals = schema(raw, policy);
    if refusals.is_empty() {
        let messages = webhook(policy);
        if !messages.is_empty() {
            refusals.push(Refusal::Webhook(messages));
        }
    }
    if refusals.is_empty() {
        Ok(())
    } else {
        Err(refusals)
    }
}

/// The CRD's schema of `spec.policy` (design §1, `clusterresourceplacement_types.go`), field
/// by field, then its CEL rule on the placement type.
fn schema(raw: &Value, policy: &PlacementPolicy) -> Vec<Refusal> {
    let mut missing = Vec::new();
    required(&POLICY_SCHEMA, raw, POLICY, &mut missing);
    let mut refusals: Vec<Refusal> = missing
        .iter()
        .map(|field| Refusal::Schema {
            field: field.clone(),
            message: "Required value".to_string(),
        })
        .collect();
    // A field the API server reports missing is not also judged by its other rules (the
    // decoded policy holds a default there).
    let mut refuse = |field: String, message: String| {
        if !missing.contains(&field) {
            refusals.push(Refusal::Schema { field, message });
        }
    };
    cluster_count_schema(policy, &mut refuse);
    affinity_schema(policy, &mut refuse);
    for (index, constraint) in policy.topology_spread_constraints.iter().enumerate() {
        if constraint.max_skew < 1 {
            let field = format!("{POLICY}.topologySpreadConstraints[{index}].maxSkew");
            let message = format!(
                "Invalid value: {}: {field} in body should be greater than or equal to 1",
                constraint.max_skew
            );
            refuse(field, message);
        }
    }
    tolerations_schema(&policy.tolerations, &mut refuse);
    if let Some(message) = placement_type_rule(raw, policy.placement_type) {
        refuse(
            POLICY.to_string(),
            format!("Invalid value: \"object\": {message}"),
        );
    }
    refusals
}

/// The part of the CRD's `spec.policy` schema that holds `required` lists the decoder does
/// not enforce (the same in v1 and v1beta1 of both placement CRDs): an object's required
/// fields, and the fields that lead to more.
enum Node {
    Object(&'static [&'static str], &'static [(&'static str, Node)]),
    List(&'static Node),
}

const TERM: Node = Node::Object(
    &[],
    &[
        (
            "propertySelector",
            Node::Object(
                &["matchExpressions"],
                &[(
                    "matchExpressions",
                    Node::List(&Node::Object(&["name", "operator", "values"], &[])),
                )],
            ),
        ),
        ("propertySorter", Node::Object(&["name", "sortOrder"], &[])),
    ],
);

const POLICY_SCHEMA: Node = Node::Object(
    &[],
    &[
        (
            "affinity",
            Node::Object(
                &[],
                &[(
                    "clusterAffinity",
                    Node::Object(
                        &[],
                        &[
                            (
                                "requiredDuringSchedulingIgnoredDuringExecution",
                                Node::Object(
                                    &["clusterSelectorTerms"],
                                    &[("clusterSelectorTerms", Node::List(&TERM))],
                                ),
                            ),
                            (
                                "preferredDuringSchedulingIgnoredDuringExecution",
                                Node::List(&Node::Object(
                                    &["preference", "weight"],
                                    &[("preference", TERM)],
                                )),
                            ),
                        ],
                    ),
                )],
            ),
        ),
        (
            "topologySpreadConstraints",
            Node::List(&Node::Object(&["topologyKey"], &[])),
        ),
    ],
);

/// Every required field of `node` absent from `value` (a `null` is absent: the API server
/// prunes it), by path: an object's own first, then its fields' in the schema's order.
fn required(node: &Node, value: &Value, path: &str, missing: &mut Vec<String>) {
    match node {
        Node::Object(fields, children) => {
            let Some(object) = value.as_object() else {
                return;
            };
            let present = |key: &str| object.get(key).filter(|value| !value.is_null());
            for field in *fields {
                if present(field).is_none() {
                    missing.push(format!("{path}.{field}"));
                }
            }
            for (key, child) in *children {
                if let Some(value) = present(key) {
                    required(child, value, &format!("{path}.{key}"), missing);
                }
            }
        }
        Node::List(item) => {
            for (index, value) in value.as_array().into_iter().flatten().enumerate() {
                required(item, value, &format!("{path}[{index}]"), missing);
            }
        }
    }
}

/// `numberOfClusters` (minimum 0) and `clusterNames` (at most 100 items).
fn cluster_count_schema(policy: &PlacementPolicy, refuse: &mut impl FnMut(String, String)) {
    if let Some(count) = policy.number_of_clusters.filter(|count| *count < 0) {
        let field = format!("{POLICY}.numberOfClusters");
        let message =
            format!("Invalid value: {count}: {field} in body should be greater than or equal to 0");
        refuse(field, message);
    }
    if policy.cluster_names.len() > 100 {
        refuse(
            format!("{POLICY}.clusterNames"),
            format!(
                "Too many: {}: must have at most 100 items",
                policy.cluster_names.len()
            ),
        );
    }
}

/// `affinity.clusterAffinity`: at most 10 required terms, preferred weights in [-100, 100],
/// and each term's own limits.
fn affinity_schema(policy: &PlacementPolicy, refuse: &mut impl FnMut(String, String)) {
    let required = policy.required_terms();
    if required.len() > 10 {
        refuse(
            format!("{POLICY}.affinity.clusterAffinity.requiredDuringSchedulingIgnoredDuringExecution.clusterSelectorTerms"),
            format!("Too many: {}: must have at most 10 items", required.len()),
        );
    }
    for (index, term) in required.iter().enumerate() {
        let path = format!(
            "{POLICY}.affinity.clusterAffinity.requiredDuringSchedulingIgnoredDuringExecution.clusterSelectorTerms[{index}]"
        );
        term_schema(&path, term, refuse);
    }
    for (index, preferred) in policy.preferred_terms().iter().enumerate() {
        let path = format!(
            "{POLICY}.affinity.clusterAffinity.preferredDuringSchedulingIgnoredDuringExecution[{index}]"
        );
        if !(-100..=100).contains(&preferred.weight) {
            let (bound, word) = if preferred.weight < 0 {
                (-100, "greater")
            } else {
                (100, "less")
            };
            refuse(
                format!("{path}.weight"),
                format!(
                    "Invalid value: {}: {path}.weight in body should be {word} than or equal to {bound}",
                    preferred.weight
                ),
            );
        }
        term_schema(&format!("{path}.preference"), &preferred.preference, refuse);
    }
}

/// The CRD's `maxItems` on `spec.policy.tolerations`.
const MAX_TOLERATIONS: usize = 100;

/// `tolerations`: the list's `maxItems`, the `effect` enum, then the list's two CEL rules.
fn tolerations_schema(tolerations: &[Toleration], refuse: &mut impl FnMut(String, String)) {
    if tolerations.len() > MAX_TOLERATIONS {
        refuse(
            format!("{POLICY}.tolerations"),
            format!(
                "Too many: {}: must have at most {MAX_TOLERATIONS} items",
                tolerations.len()
            ),
        );
    }
    for (index, toleration) in tolerations.iter().enumerate() {
        if !toleration.effect.is_empty() && toleration.effect != "NoSchedule" {
            refuse(
                format!("{POLICY}.tolerations[{index}].effect"),
                format!(
                    "Unsupported value: {}: supported values: \"NoSchedule\"",
                    go_quote(&toleration.effect)
                ),
            );
        }
    }
    if tolerations.iter().any(|toleration| {
        toleration.operator == TolerationOperator::Exists && !toleration.value.is_empty()
    }) {
        refuse(
            format!("{POLICY}.tolerations"),
            "Invalid value: \"array\": value must be empty when operator is Exists".to_string(),
        );
    }
    if tolerations.iter().any(|toleration| {
        toleration.key.is_empty() && toleration.operator != TolerationOperator::Exists
    }) {
        refuse(
            format!("{POLICY}.tolerations"),
            "Invalid value: \"array\": operator must be Exists when key is empty".to_string(),
        );
    }
}

/// The CEL rule on `spec.policy` that ties the fields present (in `raw`, as written) to the
/// placement type: its message, if it refuses.
fn placement_type_rule(raw: &Value, placement_type: PlacementType) -> Option<&'static str> {
    let has = |field: &str| raw.get(field).is_some_and(|value| !value.is_null());
    match placement_type {
        PlacementType::PickFixed
            if has("affinity") || has("numberOfClusters") || has("topologySpreadConstraints") || has("tolerations") =>
        {
            Some("affinity, numberOfClusters, topologySpreadConstraints, and tolerations cannot be set when placementType is PickFixed")
        }
        PlacementType::PickAll
            if has("clusterNames") || has("numberOfClusters") || has("topologySpreadConstraints") =>
        {
            Some("clusterNames, numberOfClusters, and topologySpreadConstraints cannot be set when placementType is PickAll")
        }
        PlacementType::PickN if has("clusterNames") || !has("numberOfClusters") => {
            Some("clusterNames cannot be set and numberOfClusters must be set when placementType is PickN")
        }
        _ => None,
    }
}

/// A term's schema limits: one value per property expression, a known sort order.
fn term_schema(path: &str, term: &ClusterSelectorTerm, refuse: &mut impl FnMut(String, String)) {
    if let Some(selector) = &term.property_selector {
        for (index, expression) in selector.match_expressions.iter().enumerate() {
            if expression.values.len() > 1 {
                refuse(
                    format!("{path}.propertySelector.matchExpressions[{index}].values"),
                    format!(
                        "Too many: {}: must have at most 1 items",
                        expression.values.len()
                    ),
                );
            }
        }
    }
    if let Some(sorter) = &term.property_sorter {
        if sorter.sort_order != "Ascending" && sorter.sort_order != "Descending" {
            refuse(
                format!("{path}.propertySorter.sortOrder"),
                format!(
                    "Unsupported value: {}: supported values: \"Descending\", \"Ascending\"",
                    go_quote(&sorter.sort_order)
                ),
            );
        }
    }
}

/// `validatePlacementPolicy`: the webhook's messages, in its order.
fn webhook(policy: &PlacementPolicy) -> Vec<String> {
    let mut messages = Vec::new();
    match policy.placement_type {
        PlacementType::PickFixed => pick_fixed_names(&policy.cluster_names, &mut messages),
        PlacementType::PickAll | PlacementType::PickN => {
            for term in policy.required_terms() {
                label_selector(term, "cluster selector", &mut messages);
                if term.property_sorter.is_some() {
                    messages.push(
                        "PropertySorter is not allowed for RequiredDuringSchedulingIgnoredDuringExecution affinity"
                            .to_string(),
                    );
                }
                if let Some(selector) = &term.property_selector {
                    property_requirements(&selector.match_expressions, &mut messages);
                }
            }
            let preferred = policy.preferred_terms();
            if policy.placement_type == PlacementType::PickAll {
                if !preferred.is_empty() {
                    messages.push(
                        "PreferredDuringSchedulingIgnoredDuringExecution will be ignored for placement policy type PickAll"
                            .to_string(),
                    );
                }
            } else {
                for term in preferred {
                    label_selector(
                        &term.preference,
                        "preferred cluster selector",
                        &mut messages,
                    );
                    if term.preference.property_selector.is_some() {
                        messages.push(
                            "PropertySelector is not allowed for PreferredDuringSchedulingIgnoredDuringExecution affinity"
                                .to_string(),
                        );
                    }
                    if let Some(sorter) = &term.preference.property_sorter {
                        if let Err(error) = property_name(&sorter.name) {
                            messages.push(error.to_string());
                        }
                    }
                }
            }
            tolerations(&policy.tolerations, &mut messages);
        }
    }
    messages
}

/// `validatePolicyForPickFixedPlacementType`: per name, `IsDNS1123Subdomain`'s faults, then
/// a name longer than a DNS-1035 label (63) as a message of its own; a repeated name once.
fn pick_fixed_names(names: &[String], messages: &mut Vec<String>) {
    let mut seen = HashSet::new();
    for name in names {
        let errors = dns1123_subdomain_errors(name);
        if !errors.is_empty() {
            messages.push(format!(
                "PickFixed cluster name {name} is not a valid member name: {}",
                errors.join("; ")
            ));
        }
        if name.len() > 63 {
            messages.push(format!(
                "PickFixed cluster name {name} cannot have length exceeding 63"
            ));
        }
        if !seen.insert(name.as_str()) {
            messages.push("cluster names must be unique for policy type PickFixed".to_string());
            break;
        }
    }
}

fn label_selector(term: &ClusterSelectorTerm, parent: &str, messages: &mut Vec<String>) {
    if let Some(spec) = &term.label_selector {
        if let Err(error) = Selector::from_label_selector(Some(spec)) {
            messages.push(format!("the labelSelector in {parent} is invalid: {error}"));
        }
    }
}

/// `validateTolerations`: each message names the whole toleration as Go's `%+v` prints it,
/// one message per fault the key or value check reports. Its two other messages (a value with
/// `Exists`, an empty key with `Equal`) never show: the CRD's CEL rules refuse both first.
fn tolerations(tolerations: &[Toleration], messages: &mut Vec<String>) {
    let mut seen = HashSet::new();
    for toleration in tolerations {
        let shown = format!(
            "{{Key:{} Operator:{} Value:{} Effect:{}}}",
            toleration.key,
            toleration.operator.as_str(),
            toleration.value,
            toleration.effect
        );
        if !toleration.key.is_empty() {
            for error in label_key_errors(&toleration.key) {
                messages.push(format!("invalid toleration key {shown}: {error}"));
            }
        }
        if toleration.operator == TolerationOperator::Equal {
            for error in label_value_errors(&toleration.value) {
                messages.push(format!("invalid toleration value {shown}: {error}"));
            }
        }
        if !seen.insert(toleration) {
            messages.push(format!(
                "toleration {shown} already exists, tolerations must be unique"
            ));
        }
    }
}

/// `validatePropertySelectorRequirements`: each requirement's name, then its operator and
/// value (`validateOperatorAndValues`: the first fault only), then, for each property with two
/// or more requirements, the first contradiction between them
/// (`validateRequirementsConsistency`). Upstream visits the properties in Go's map order,
/// which is random; fleetplan takes them in the order they first appear.
fn property_requirements(requirements: &[PropertySelectorRequirement], messages: &mut Vec<String>) {
    let mut by_name: Vec<(&str, Vec<&PropertySelectorRequirement>)> = Vec::new();
    for requirement in requirements {
        let name = requirement.name.as_str();
        if let Err(error) = property_name(name) {
            messages.push(format!("invalid property name {name}: {error}"));
        }
        if let Err(error) = operator_and_values(requirement) {
            messages.push(format!("invalid requirement on property {name}: {error}"));
        }
        match by_name.iter_mut().find(|(seen, _)| *seen == name) {
            Some((_, same)) => same.push(requirement),
            None => by_name.push((name, vec![requirement])),
        }
    }
    for (name, same) in by_name {
        if same.len() < 2 {
            continue;
        }
        if let Err(error) = consistency(&same) {
            messages.push(format!(
                "inconsistent requirements on property {name}: {error}"
            ));
        }
    }
}

/// An operator the webhook knows (`supportedPropertyOperators`: each takes one value).
fn known_operator(operator: &str) -> bool {
    matches!(operator, "Gt" | "Ge" | "Lt" | "Le" | "Eq" | "Ne")
}

/// `validateOperatorAndValues`: a known operator, one value, a quantity; the value when all
/// hold.
fn operator_and_values(
    requirement: &PropertySelectorRequirement,
) -> Result<Quantity, RequirementError> {
    let operator = &requirement.operator;
    if !known_operator(operator) {
        return Err(RequirementError::Operator(operator.clone()));
    }
    let [value] = requirement.values.as_slice() else {
        return Err(RequirementError::ValueCount {
            operator: operator.clone(),
            count: requirement.values.len(),
        });
    };
    Quantity::parse(value).map_err(|error| RequirementError::Value {
        value: value.clone(),
        error,
    })
}

/// Why the webhook refuses a property requirement, or the requirements on one property
/// (`validateOperatorAndValues`, `validateRequirementsConsistency`), in upstream's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum RequirementError {
    #[error("unsupported operator {0}")]
    Operator(String),
    #[error("operator {operator} requires exactly one value, got {count}")]
    ValueCount { operator: String, count: usize },
    #[error("value {} is not a valid resource.Quantity: {}", go_quote(.value), .error.upstream_text())]
    Value { value: String, error: QuantityError },
    #[error("conflicting Eq values {0} and {1}")]
    EqValues(String, String),
    #[error("conflicting Eq and Ne on same value {0}")]
    EqAndNe(String),
    #[error("lower bound ({0}) and upper bound ({1}) exclude all values")]
    Interval(String, String),
    #[error("eq value {0} violates lower bound {1}")]
    BelowLower(String, String),
    #[error("eq value {0} violates upper bound {1}")]
    AboveUpper(String, String),
}

/// A bound on a property: its value and whether it is strict (`Gt`, `Lt`).
type Bound<'q> = (&'q Quantity, bool);

/// `validateRequirementsConsistency` over the requirements on one property, well-formed ones
/// only (`collectRequirementBounds`): two different `Eq` values (at the second, as the bounds
/// are collected), then `Eq` and `Ne` on one value, then bounds excluding every value, then an
/// `Eq` value outside the bounds, lower first. The first that holds.
fn consistency(requirements: &[&PropertySelectorRequirement]) -> Result<(), RequirementError> {
    let parsed: Vec<(&str, Quantity)> = requirements
        .iter()
        .filter_map(|requirement| {
            operator_and_values(requirement)
                .ok()
                .map(|quantity| (requirement.operator.as_str(), quantity))
        })
        .collect();
    let mut equal: Option<&Quantity> = None;
    let mut not_equal: Vec<&Quantity> = Vec::new();
    let mut lower: Option<Bound<'_>> = None;
    let mut upper: Option<Bound<'_>> = None;
    for (operator, quantity) in &parsed {
        let strict = matches!(*operator, "Gt" | "Lt");
        match *operator {
            "Eq" => {
                if let Some(first) =
                    equal.filter(|first| property::compare(first, quantity).is_ne())
                {
                    return Err(RequirementError::EqValues(
                        first.to_string(),
                        quantity.to_string(),
                    ));
                }
                equal = Some(quantity);
            }
            "Ne" => not_equal.push(quantity),
            "Gt" | "Ge" => lower = tighter(lower, (quantity, strict), Ordering::Greater),
            _ => upper = tighter(upper, (quantity, strict), Ordering::Less),
        }
    }
    if let Some(value) = equal {
        if not_equal
            .iter()
            .any(|other| property::compare(value, other).is_eq())
        {
            return Err(RequirementError::EqAndNe(value.to_string()));
        }
    }
    if let (Some((low, low_strict)), Some((high, high_strict))) = (lower, upper) {
        let order = property::compare(low, high);
        if order.is_gt() || (order.is_eq() && (low_strict || high_strict)) {
            return Err(RequirementError::Interval(
                low.to_string(),
                high.to_string(),
            ));
        }
    }
    if let Some(value) = equal {
        if let Some((low, strict)) = lower {
            let order = property::compare(value, low);
            if order.is_lt() || (order.is_eq() && strict) {
                return Err(RequirementError::BelowLower(
                    value.to_string(),
                    low.to_string(),
                ));
            }
        }
        if let Some((high, strict)) = upper {
            let order = property::compare(value, high);
            if order.is_gt() || (order.is_eq() && strict) {
                return Err(RequirementError::AboveUpper(
                    value.to_string(),
                    high.to_string(),
                ));
            }
        }
    }
    Ok(())
}

/// `tightenLower` (`restrictive` = greater) and `tightenUpper` (less): the new bound replaces
/// the kept one when it is more restrictive, or equal and strict where the kept one is not.
fn tighter<'q>(
    kept: Option<Bound<'q>>,
    new: Bound<'q>,
    restrictive: Ordering,
) -> Option<Bound<'q>> {
    let Some(current) = kept else {
        return Some(new);
    };
    let order = property::compare(new.0, current.0);
    if order == restrictive || (order.is_eq() && new.1 && !current.1) {
        Some(new)
    } else {
        Some(current)
    }
}

/// Why a property name is refused (`validateName`'s texts).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum NameError {
    #[error("invalid resource property name {0}, expected format is [PREFIX]/[CAPACITY_TYPE]-[RESOURCE_NAME]")]
    Format(String),
    #[error("invalid capacity type in resource property name {0}, supported values are [allocatable available total]")]
    CapacityType(String),
    #[error("property name {name} is not valid: {errors}")]
    Name { name: String, errors: String },
    #[error("property name first segment {prefix} is not valid: it is neither a valid DNS subdomain ({subdomain}) nor a valid qualified name ({qualified})")]
    Prefix {
        prefix: String,
        subdomain: String,
        qualified: String,
    },
    #[error("property name segment {segment} is not valid: {errors}")]
    Segment { segment: String, errors: String },
}

/// `validateName`: a resource property is `<prefix><capacity type>-<resource>` with a known
/// capacity type; any other name is one or more `/`-separated segments.
fn property_name(name: &str) -> Result<(), NameError> {
    let qualified = |name: &str| {
        let errors = label_key_errors(name);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(NameError::Name {
                name: name.to_string(),
                errors: errors.join("; "),
            })
        }
    };
    if let Some(resource) = name.strip_prefix(RESOURCE_PROPERTY_PREFIX) {
        let Some((capacity, _)) = resource.split_once('-') else {
            return Err(NameError::Format(name.to_string()));
        };
        if !["allocatable", "available", "total"].contains(&capacity) {
            return Err(NameError::CapacityType(name.to_string()));
        }
        return qualified(name);
    }
    let segments: Vec<&str> = name.split('/').collect();
    let [prefix, rest @ ..] = segments.as_slice() else {
        return qualified(name);
    };
    if rest.is_empty() {
        return qualified(name);
    }
    let subdomain = dns1123_subdomain_errors(prefix);
    let prefix_errors = label_key_errors(prefix);
    if !subdomain.is_empty() && !prefix_errors.is_empty() {
        return Err(NameError::Prefix {
            prefix: prefix.to_string(),
            subdomain: subdomain.join("; "),
            qualified: prefix_errors.join("; "),
        });
    }
    for segment in rest {
        let errors = label_key_errors(segment);
        if !errors.is_empty() {
            return Err(NameError::Segment {
                segment: segment.to_string(),
                errors: errors.join("; "),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::kubefleet::model::wire::read;

    fn refusals(raw: Value) -> Vec<String> {
        let policy: PlacementPolicy = read(&raw).unwrap_or_default();
        match admit(Some(&raw), &policy) {
            Ok(()) => Vec::new(),
            Err(refusals) => refusals.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn pick_n_without_a_count_is_refused_by_the_crd_rule() {
        assert_eq!(
            refusals(json!({"placementType": "PickN"})),
            ["spec.policy: Invalid value: \"object\": clusterNames cannot be set and numberOfClusters must be set when placementType is PickN"]
        );
    }

    #[test]
    fn an_empty_list_is_still_set() {
        assert_eq!(
            refusals(json!({"placementType": "PickAll", "clusterNames": []})).len(),
            1
        );
    }

    #[test]
    fn repeated_pick_fixed_names_are_refused_by_the_webhook() {
        assert_eq!(
            refusals(json!({"placementType": "PickFixed", "clusterNames": ["a", "a"]})),
            ["the placement policy field is invalid: cluster names must be unique for policy type PickFixed"]
        );
    }

    #[test]
    fn pick_all_with_preferred_terms_is_refused() {
        assert_eq!(
            refusals(json!({"affinity": {"clusterAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference": {}}]}}})),
            ["the placement policy field is invalid: PreferredDuringSchedulingIgnoredDuringExecution will be ignored for placement policy type PickAll"]
        );
    }

    #[test]
    fn contradicting_requirements_are_named() {
        let found = refusals(json!({
            "placementType": "PickN", "numberOfClusters": 1,
            "affinity": {"clusterAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"clusterSelectorTerms": [
                {"propertySelector": {"matchExpressions": [
                    {"name": "kubernetes-fleet.io/node-count", "operator": "Gt", "values": ["5"]},
                    {"name": "kubernetes-fleet.io/node-count", "operator": "Lt", "values": ["3"]}
                ]}}
            ]}}}
        }));
        assert_eq!(
            found,
            ["the placement policy field is invalid: inconsistent requirements on property kubernetes-fleet.io/node-count: lower bound (5) and upper bound (3) exclude all values"]
        );
    }

    #[test]
    fn several_webhook_messages_are_bracketed() {
        assert_eq!(
            aggregate(&["a".to_string(), "b".to_string(), "a".to_string()]),
            "[a, b]"
        );
    }
}
