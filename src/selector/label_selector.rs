//! `metav1.LabelSelector` (`matchLabels` + `matchExpressions`) and OCM claim selectors
//! (`matchExpressions` over cluster claims): `metav1.LabelSelectorAsSelector` and
//! `ValidateLabelSelector`.
use crate::model::{LabelSelectorRequirementSpec, LabelSelectorSpec};

use super::conjunction::Selector;
use super::error::{child, go_quote, FieldError, SelectorError};
use super::requirement::{Operator, Requirement};
use super::validation::{label_key_errors, label_value_errors};

/// The `LabelSelectorOperator`s, case-sensitive.
fn label_selector_operator(name: &str) -> Option<Operator> {
    match name {
        "In" => Some(Operator::In),
        "NotIn" => Some(Operator::NotIn),
        "Exists" => Some(Operator::Exists),
        "DoesNotExist" => Some(Operator::DoesNotExist),
        _ => None,
    }
}

/// How a selector's requirements are made, and what its operator error calls it.
struct Rules {
    requirement: fn(&str, Operator, Vec<String>) -> Result<Requirement, SelectorError>,
    /// `label` (apimachinery) or `pod` (Argo CD's copy).
    selector: &'static str,
}

const APIMACHINERY: Rules = Rules {
    requirement: Requirement::new,
    selector: "label",
};

fn expression_requirement(
    expr: &LabelSelectorRequirementSpec,
    rules: &Rules,
) -> Result<Requirement, SelectorError> {
    let Some(operator) = label_selector_operator(&expr.operator) else {
        return Err(SelectorError::message(format!(
            "{} is not a valid {} selector operator",
            crate::model::shorten_quoted(&go_quote(&expr.operator)),
            rules.selector
        )));
    };
    (rules.requirement)(&expr.key, operator, expr.values.clone())
}

impl Selector {
    /// `metav1.LabelSelectorAsSelector`: absent → nothing, no terms → everything,
    /// `matchLabels` as `=`; the first failing requirement's errors are returned (labels in key
    /// order, then expressions in order).
    pub fn from_label_selector(
        spec: Option<&LabelSelectorSpec>,
    ) -> Result<Selector, SelectorError> {
        Selector::with_rules(spec, &APIMACHINERY)
    }

    /// Argo CD's copy of `LabelSelectorAsSelector` (`applicationset/utils/selector.go`), which
    /// an application set generator's `selector` is read with: values may be any text.
    pub fn from_generator_selector(
        spec: Option<&LabelSelectorSpec>,
    ) -> Result<Selector, SelectorError> {
        const ARGO_CD: Rules = Rules {
            requirement: Requirement::with_any_values,
            selector: "pod",
        };
        Selector::with_rules(spec, &ARGO_CD)
    }

    fn with_rules(
        spec: Option<&LabelSelectorSpec>,
        rules: &Rules,
    ) -> Result<Selector, SelectorError> {
        let Some(spec) = spec else {
            return Ok(Selector::nothing());
        };
        let labels = spec.match_labels.iter().flatten();
        let expressions = spec.match_expressions.iter().flatten();
        let mut requirements = Vec::new();
        for (key, value) in labels {
            requirements.push((rules.requirement)(
                key,
                Operator::Equals,
                vec![value.clone()],
            )?);
        }
        for expr in expressions {
            requirements.push(expression_requirement(expr, rules)?);
        }
        if requirements.is_empty() {
            return Ok(Selector::everything());
        }
        Ok(Selector::from_requirements(requirements))
    }

    /// An OCM `ClusterClaimSelector` (`matchExpressions` only) over a cluster's claims;
    /// no expressions → everything.
    pub fn from_claim_selector(
        exprs: &[LabelSelectorRequirementSpec],
    ) -> Result<Selector, SelectorError> {
        let requirements = exprs
            .iter()
            .map(|expr| expression_requirement(expr, &APIMACHINERY))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Selector::from_requirements(requirements))
    }
}

/// `metav1validation.ValidateLabelSelector` (values validated, as with
/// `AllowInvalidLabelValueInSelector: false`): every problem of `spec`, with paths under `path`
/// (e.g. `spec.predicates[0].requiredClusterSelector.labelSelector`).
pub(crate) fn validate_label_selector(spec: &LabelSelectorSpec, path: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let labels_path = child(path, "matchLabels");
    for (key, value) in spec.match_labels.iter().flatten() {
        for message in label_key_errors(key) {
            errors.push(FieldError::invalid(labels_path.clone(), key, message));
        }
        for message in label_value_errors(value) {
            errors.push(FieldError::invalid(labels_path.clone(), value, message));
        }
    }
    for (i, expr) in spec.match_expressions.iter().flatten().enumerate() {
        let expr_path = format!("{}[{i}]", child(path, "matchExpressions"));
        let values_path = child(&expr_path, "values");
        match label_selector_operator(&expr.operator) {
            Some(Operator::In | Operator::NotIn) if expr.values.is_empty() => {
                errors.push(FieldError::required(
                    values_path.clone(),
                    "must be specified when `operator` is 'In' or 'NotIn'",
                ));
            }
            Some(Operator::Exists | Operator::DoesNotExist) if !expr.values.is_empty() => {
                errors.push(FieldError::forbidden(
                    values_path.clone(),
                    "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                ));
            }
            Some(_) => {}
            None => errors.push(FieldError::invalid(
                child(&expr_path, "operator"),
                &expr.operator,
                "not a valid selector operator",
            )),
        }
        for message in label_key_errors(&expr.key) {
            errors.push(FieldError::invalid(
                child(&expr_path, "key"),
                &expr.key,
                message,
            ));
        }
        for (j, value) in expr.values.iter().enumerate() {
            for message in label_value_errors(value) {
                errors.push(FieldError::invalid(
                    format!("{values_path}[{j}]"),
                    value,
                    message,
                ));
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::expr;
    use std::collections::BTreeMap;

    #[test]
    fn gt_is_not_a_label_selector_operator() {
        let spec = LabelSelectorSpec {
            match_labels: None,
            match_expressions: Some(vec![expr("v", "Gt", &["1"])]),
        };
        let err = Selector::from_label_selector(Some(&spec)).expect_err("Gt");
        assert_eq!(
            err.to_string(),
            r#""Gt" is not a valid label selector operator"#
        );
    }

    #[test]
    fn operators_are_case_sensitive() {
        let err = Selector::from_claim_selector(&[expr("v", "in", &["1"])]).expect_err("in");
        assert_eq!(
            err.to_string(),
            r#""in" is not a valid label selector operator"#
        );
    }

    #[test]
    fn empty_match_lists_are_everything() {
        let spec = LabelSelectorSpec {
            match_labels: Some(BTreeMap::new()),
            match_expressions: Some(vec![]),
        };
        assert_eq!(
            Selector::from_label_selector(Some(&spec)).map(|s| s.is_everything()),
            Ok(true)
        );
    }

    #[test]
    fn absent_selector_is_nothing() {
        assert_eq!(
            Selector::from_label_selector(None).map(|s| s.is_nothing()),
            Ok(true)
        );
    }

    #[test]
    fn empty_claim_selector_is_everything() {
        assert_eq!(
            Selector::from_claim_selector(&[]).map(|s| s.is_everything()),
            Ok(true)
        );
    }

    #[test]
    fn validation_reports_every_problem_with_its_path() {
        let spec = LabelSelectorSpec {
            match_labels: Some(BTreeMap::from([("-a".to_string(), "b".to_string())])),
            match_expressions: Some(vec![
                expr("k", "In", &[]),
                expr("k", "Exists", &["x"]),
                expr("k", "Gt", &["-1"]),
            ]),
        };
        let fields: Vec<String> = validate_label_selector(&spec, "spec.selector")
            .iter()
            .map(|e| format!("{}:{}", e.field(), e.error_type().as_str()))
            .collect();
        assert_eq!(
            fields,
            [
                "spec.selector.matchLabels:FieldValueInvalid",
                "spec.selector.matchExpressions[0].values:FieldValueRequired",
                "spec.selector.matchExpressions[1].values:FieldValueForbidden",
                "spec.selector.matchExpressions[2].operator:FieldValueInvalid",
                "spec.selector.matchExpressions[2].values[0]:FieldValueInvalid",
            ]
        );
    }
}
