//! One label requirement `{key, operator, values}` (apimachinery `labels.Requirement`):
//! construction with Kubernetes' validation, matching, canonical text and mismatch reasons.
use std::fmt;

use super::error::{child, go_quote, FieldError, SelectorError};
use super::label_source::LabelSource;
use super::validation::{label_key_errors, label_value_errors};
use crate::model::echo;

/// `selection.Operator` as far as label selectors use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operator {
    In,
    NotIn,
    Equals,
    DoubleEquals,
    NotEquals,
    Exists,
    DoesNotExist,
    GreaterThan,
    LessThan,
}

impl Operator {
    /// In the order of apimachinery's `validRequirementOperators` (binary, then unary), which
    /// is the order its "supported values" message lists them.
    pub const ALL: [Operator; 9] = [
        Operator::In,
        Operator::NotIn,
        Operator::Equals,
        Operator::DoubleEquals,
        Operator::NotEquals,
        Operator::GreaterThan,
        Operator::LessThan,
        Operator::Exists,
        Operator::DoesNotExist,
    ];

    /// The `selection.Operator` string: `in`, `notin`, `=`, `==`, `!=`, `exists`, `!`, `gt`, `lt`.
    pub fn as_str(self) -> &'static str {
        match self {
            Operator::In => "in",
            Operator::NotIn => "notin",
            Operator::Equals => "=",
            Operator::DoubleEquals => "==",
            Operator::NotEquals => "!=",
            Operator::Exists => "exists",
            Operator::DoesNotExist => "!",
            Operator::GreaterThan => "gt",
            Operator::LessThan => "lt",
        }
    }

    /// The inverse of [`Operator::as_str`] (exact case).
    pub fn from_name(name: &str) -> Option<Operator> {
        Operator::ALL.into_iter().find(|op| op.as_str() == name)
    }
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A validated requirement. Only constructible through validation, so matching never meets
/// an unknown operator or a non-integer `gt`/`lt` bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirement {
    key: String,
    operator: Operator,
    /// In the order given (the string parser gives them sorted and deduplicated).
    values: Vec<String>,
    /// `values[0]` as an integer for `gt`/`lt`; 0 otherwise.
    bound: i64,
}

/// Whether a requirement's values must be label values (apimachinery) or may be any text
/// (Argo CD's generator selectors).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Values {
    Checked,
    Any,
}

impl Requirement {
    /// `labels.NewRequirement`: validates the key, the number of values for the operator,
    /// `gt`/`lt` integers and every value, and reports all problems at once.
    pub fn new(
        key: &str,
        operator: Operator,
        values: Vec<String>,
    ) -> Result<Requirement, SelectorError> {
        Requirement::build(key, Ok(operator), values, "", Values::Checked)
    }

    /// Argo CD's copy of `labels.NewRequirement` (`applicationset/utils/selector.go`): the
    /// same rules without the label-value check, so a generator's selector can match a
    /// parameter such as a server URL.
    pub fn with_any_values(
        key: &str,
        operator: Operator,
        values: Vec<String>,
    ) -> Result<Requirement, SelectorError> {
        Requirement::build(key, Ok(operator), values, "", Values::Any)
    }

    /// Like [`Requirement::new`] for an operator given by name, as the front ends read it;
    /// an unknown name is reported as Kubernetes does (`operator: Unsupported value`), next to
    /// the key and value errors. `path` prefixes every field path.
    pub(crate) fn with_operator_name(
        key: &str,
        operator: &str,
        values: Vec<String>,
        path: &str,
    ) -> Result<Requirement, SelectorError> {
        Requirement::build(
            key,
            Operator::from_name(operator).ok_or(operator),
            values,
            path,
            Values::Checked,
        )
    }

    fn build(
        key: &str,
        operator: Result<Operator, &str>,
        values: Vec<String>,
        path: &str,
        checked: Values,
    ) -> Result<Requirement, SelectorError> {
        let mut errors = Vec::new();
        let key_errors = label_key_errors(key);
        if !key_errors.is_empty() {
            errors.push(FieldError::invalid(
                child(path, "key"),
                key,
                key_errors.join("; "),
            ));
        }
        let values_path = child(path, "values");
        let mut bound = 0;
        match operator {
            Ok(Operator::In | Operator::NotIn) if values.is_empty() => {
                errors.push(FieldError::invalid_list(
                    values_path.clone(),
                    &values,
                    "for 'in', 'notin' operators, values set can't be empty",
                ));
            }
            Ok(Operator::Equals | Operator::DoubleEquals | Operator::NotEquals)
                if values.len() != 1 =>
            {
                errors.push(FieldError::invalid_list(
                    values_path.clone(),
                    &values,
                    "exact-match compatibility requires one single value",
                ));
            }
            Ok(Operator::Exists | Operator::DoesNotExist) if !values.is_empty() => {
                errors.push(FieldError::invalid_list(
                    values_path.clone(),
                    &values,
                    "values set must be empty for exists and does not exist",
                ));
            }
            Ok(Operator::GreaterThan | Operator::LessThan) => {
                if values.len() != 1 {
                    errors.push(FieldError::invalid_list(
                        values_path.clone(),
                        &values,
                        "for 'Gt', 'Lt' operators, exactly one value is required",
                    ));
                }
                for (i, value) in values.iter().enumerate() {
                    // strconv.ParseInt(v, 10, 64) accepts exactly what i64::from_str accepts.
                    match value.parse::<i64>() {
                        Ok(parsed) => bound = parsed,
                        Err(_) => errors.push(FieldError::invalid(
                            format!("{values_path}[{i}]"),
                            value,
                            "for 'Gt', 'Lt' operators, the value must be an integer",
                        )),
                    }
                }
            }
            Ok(_) => {}
            Err(name) => {
                let supported: Vec<&str> = Operator::ALL.iter().map(|op| op.as_str()).collect();
                errors.push(FieldError::not_supported(
                    child(path, "operator"),
                    name,
                    &supported,
                ));
            }
        }
        let checked_values = if checked == Values::Checked {
            values.as_slice()
        } else {
            &[]
        };
        for (i, value) in checked_values.iter().enumerate() {
            let value_errors = label_value_errors(value);
            if !value_errors.is_empty() {
                errors.push(FieldError::invalid(
                    format!("{values_path}[{i}][{key}]"),
                    value,
                    value_errors.join("; "),
                ));
            }
        }
        match operator {
            Ok(operator) if errors.is_empty() => Ok(Requirement {
                key: key.to_string(),
                operator,
                values,
                bound,
            }),
            _ => Err(SelectorError::fields(errors)),
        }
    }

    pub fn key(&self) -> &str {
        &self.key
    }

    pub fn operator(&self) -> Operator {
        self.operator
    }

    pub fn values(&self) -> &[String] {
        &self.values
    }

    /// The integer bound of a `gt`/`lt` requirement (0 for other operators).
    pub(crate) fn bound(&self) -> i64 {
        self.bound
    }

    fn has_value(&self, value: &str) -> bool {
        self.values.iter().any(|v| v == value)
    }

    /// The label value as an integer for `gt`/`lt`; `None` when it does not parse
    /// (such a cluster never matches, as upstream).
    fn compares(&self, value: &str) -> Option<bool> {
        let parsed = value.parse::<i64>().ok()?;
        Some(match self.operator {
            Operator::GreaterThan => parsed > self.bound,
            _ => parsed < self.bound,
        })
    }

    /// `Requirement.Matches`: one map lookup, no allocation.
    pub fn matches(&self, labels: &impl LabelSource) -> bool {
        self.matches_value(labels.label(&self.key))
    }

    /// [`Requirement::matches`] on a label set whose value of this key is `value`.
    pub(crate) fn matches_value(&self, value: Option<&str>) -> bool {
        match self.operator {
            Operator::In | Operator::Equals | Operator::DoubleEquals => {
                value.is_some_and(|v| self.has_value(v))
            }
            Operator::NotIn | Operator::NotEquals => value.is_none_or(|v| !self.has_value(v)),
            Operator::Exists => value.is_some(),
            Operator::DoesNotExist => value.is_none(),
            Operator::GreaterThan | Operator::LessThan => {
                value.and_then(|v| self.compares(v)).unwrap_or(false)
            }
        }
    }

    /// Why this requirement fails on `labels`, e.g. `location: got "us", wanted in (europe)`
    /// or `location: key missing`; `None` when it matches.
    pub fn mismatch(&self, labels: &impl LabelSource) -> Option<String> {
        self.mismatch_of(labels.label(&self.key))
    }

    /// [`Requirement::mismatch`] on a label set whose value of this key is `value`.
    pub(crate) fn mismatch_of(&self, value: Option<&str>) -> Option<String> {
        if self.matches_value(value) {
            return None;
        }
        let Some(value) = value else {
            return Some(format!("{}: key missing", echo(&self.key)));
        };
        let key = echo(&self.key);
        // A cluster's label values are not validated, so they can be of any size.
        let got = crate::model::shorten_quoted(&go_quote(value));
        Some(match self.operator {
            Operator::DoesNotExist => format!("{key}: got {got}, wanted the key absent"),
            Operator::GreaterThan | Operator::LessThan if self.compares(value).is_none() => {
                format!("{key}: got {got}, wanted an integer {}", self.wanted())
            }
            _ => format!("{key}: got {got}, wanted {}", self.wanted()),
        })
    }

    /// The operator and values part of the canonical text, spaced for reading.
    fn wanted(&self) -> String {
        let values = self.sorted_values().join(",");
        match self.operator {
            Operator::In => format!("in ({values})"),
            Operator::NotIn => format!("notin ({values})"),
            Operator::Equals | Operator::DoubleEquals => format!("= {values}"),
            Operator::NotEquals => format!("!= {values}"),
            Operator::GreaterThan => format!("> {values}"),
            Operator::LessThan => format!("< {values}"),
            Operator::Exists => "the key present".to_string(),
            Operator::DoesNotExist => "the key absent".to_string(),
        }
    }

    /// Values sorted for display only (`safeSort`), never reordering the requirement itself.
    fn sorted_values(&self) -> Vec<&str> {
        let mut sorted: Vec<&str> = self.values.iter().map(String::as_str).collect();
        sorted.sort_unstable();
        sorted
    }
}

impl fmt::Display for Requirement {
    /// `Requirement.String()`: `!k`, `k`, `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k>5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = &self.key;
        let values = self.sorted_values().join(",");
        match self.operator {
            Operator::Exists => write!(f, "{key}"),
            Operator::DoesNotExist => write!(f, "!{key}"),
            Operator::Equals => write!(f, "{key}={values}"),
            Operator::DoubleEquals => write!(f, "{key}=={values}"),
            Operator::NotEquals => write!(f, "{key}!={values}"),
            Operator::In => write!(f, "{key} in ({values})"),
            Operator::NotIn => write!(f, "{key} notin ({values})"),
            Operator::GreaterThan => write!(f, "{key}>{values}"),
            Operator::LessThan => write!(f, "{key}<{values}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selector::error::ErrorType;
    use crate::testing::{labels, req};

    #[test]
    fn missing_key_matches_only_notin_notequals_and_does_not_exist() {
        let empty = labels(&[]);
        let expected = [
            (Operator::In, &["a"][..], false),
            (Operator::Equals, &["a"], false),
            (Operator::DoubleEquals, &["a"], false),
            (Operator::NotIn, &["a"], true),
            (Operator::NotEquals, &["a"], true),
            (Operator::Exists, &[], false),
            (Operator::DoesNotExist, &[], true),
            (Operator::GreaterThan, &["1"], false),
            (Operator::LessThan, &["1"], false),
        ];
        for (op, values, matches) in expected {
            assert_eq!(req("k", op, values).matches(&empty), matches, "{op}");
        }
    }

    #[test]
    fn exists_matches_an_empty_value() {
        assert!(req("k", Operator::Exists, &[]).matches(&labels(&[("k", "")])));
    }

    #[test]
    fn gt_lt_compare_as_integers_with_leading_zeros_and_signs() {
        let gt = req("v", Operator::GreaterThan, &["0204"]);
        assert!(gt.matches(&labels(&[("v", "0206")])));
        assert!(gt.matches(&labels(&[("v", "+205")])));
        assert!(!gt.matches(&labels(&[("v", "204")])));
        let lt = req("v", Operator::LessThan, &["0"]);
        assert!(lt.matches(&labels(&[("v", "-1")])));
        assert!(!lt.matches(&labels(&[("v", "0")])));
    }

    #[test]
    fn gt_never_matches_a_non_integer_or_overflowing_value() {
        let gt = req("v", Operator::GreaterThan, &["1"]);
        for value in ["v2", "", "1.5", "1_000", "99999999999999999999", " 5"] {
            assert!(!gt.matches(&labels(&[("v", value)])), "{value:?}");
        }
    }

    #[test]
    fn gt_bound_must_be_an_integer() {
        let err = Requirement::new("x", Operator::GreaterThan, vec!["bar".into()])
            .expect_err("non-integer bound");
        assert_eq!(
            err.to_string(),
            r#"values[0]: Invalid value: "bar": for 'Gt', 'Lt' operators, the value must be an integer"#
        );
    }

    #[test]
    fn negative_gt_bound_parses_but_is_not_a_label_value() {
        let err = Requirement::new("x", Operator::GreaterThan, vec!["-1".into()])
            .expect_err("negative bound");
        assert_eq!(err.field_errors().len(), 1);
        assert_eq!(err.field_errors()[0].field(), "values[0][x]");
    }

    #[test]
    fn gt_without_values_reports_count() {
        let err = Requirement::new("x", Operator::LessThan, vec![]).expect_err("no bound");
        assert_eq!(
            err.to_string(),
            "values: Invalid value: []: for 'Gt', 'Lt' operators, exactly one value is required"
        );
    }

    #[test]
    fn in_without_values_is_rejected() {
        let err = Requirement::new("x", Operator::In, vec![]).expect_err("empty in");
        assert_eq!(
            err.to_string(),
            "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"
        );
    }

    #[test]
    fn equals_needs_one_value() {
        let err = Requirement::new("x", Operator::Equals, vec!["a".into(), "b".into()])
            .expect_err("two values");
        assert_eq!(
            err.to_string(),
            r#"values: Invalid value: ["a","b"]: exact-match compatibility requires one single value"#
        );
    }

    #[test]
    fn exists_takes_no_values() {
        let err = Requirement::new("x", Operator::Exists, vec!["a".into()]).expect_err("value");
        assert_eq!(
            err.to_string(),
            r#"values: Invalid value: ["a"]: values set must be empty for exists and does not exist"#
        );
    }

    #[test]
    fn unknown_operator_is_not_supported() {
        let err = Requirement::with_operator_name("x", "IN", vec!["a".into()], "")
            .expect_err("unknown operator");
        assert_eq!(err.field_errors()[0].error_type(), ErrorType::NotSupported);
        assert_eq!(
            err.to_string(),
            r#"operator: Unsupported value: "IN": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!""#
        );
    }

    #[test]
    fn all_errors_are_collected() {
        let err = Requirement::new("-k", Operator::In, vec!["-v".into()]).expect_err("bad");
        let fields: Vec<&str> = err.field_errors().iter().map(|e| e.field()).collect();
        assert_eq!(fields, ["key", "values[0][-k]"]);
    }

    #[test]
    fn display_sorts_values_without_reordering_the_requirement() {
        let r = req("x", Operator::NotIn, &["b", "a"]);
        assert_eq!(r.to_string(), "x notin (a,b)");
        assert_eq!(r.values(), ["b", "a"]);
    }

    #[test]
    fn mismatch_names_the_value_and_the_wish() {
        let r = req("location", Operator::In, &["europe"]);
        assert_eq!(
            r.mismatch(&labels(&[("location", "us")])).as_deref(),
            Some(r#"location: got "us", wanted in (europe)"#)
        );
        assert_eq!(
            r.mismatch(&labels(&[])).as_deref(),
            Some("location: key missing")
        );
        assert_eq!(r.mismatch(&labels(&[("location", "europe")])), None);
    }

    #[test]
    fn mismatch_of_does_not_exist_and_gt() {
        let absent = req("legacy", Operator::DoesNotExist, &[]);
        assert_eq!(
            absent.mismatch(&labels(&[("legacy", "")])).as_deref(),
            Some(r#"legacy: got "", wanted the key absent"#)
        );
        let gt = req("v", Operator::GreaterThan, &["5"]);
        assert_eq!(
            gt.mismatch(&labels(&[("v", "x")])).as_deref(),
            Some(r#"v: got "x", wanted an integer > 5"#)
        );
        assert_eq!(
            gt.mismatch(&labels(&[("v", "3")])).as_deref(),
            Some(r#"v: got "3", wanted > 5"#)
        );
    }
}
