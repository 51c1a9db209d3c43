//! The federation v1 annotation `federation.alpha.kubernetes.io/cluster-selector`: a JSON
//! list of `{key, operator, values}` decoded the way Go's `encoding/json` decoded it
//! (case-insensitive field names, unknown fields ignored, `null` as no-op), with the
//! operator aliases of `clusterselector.ConvertOperator`. Any error fails closed.
use std::fmt;

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;

use super::conjunction::Selector;
use super::error::SelectorError;
use super::requirement::{Operator, Requirement};

/// `federation_v1beta1.ClusterSelectorRequirement`.
#[derive(Debug, Default)]
struct ClusterSelectorRequirement {
    key: String,
    operator: String,
    values: Vec<String>,
}

#[derive(Clone, Copy)]
enum Field {
    Key,
    Operator,
    Values,
    Other,
}

/// Go's `encoding/json` matches names with Unicode simple folding, so besides ASCII case the
/// Kelvin sign folds with `k` and the long s with `s` (both occur in these field names).
fn fold(c: char) -> char {
    match c {
        '\u{212a}' => 'K',
        '\u{17f}' => 'S',
        c => c.to_ascii_uppercase(),
    }
}

fn field_of(name: &str) -> Field {
    let same = |wanted: &str| {
        name.chars().count() == wanted.len() && name.chars().map(fold).eq(wanted.chars().map(fold))
    };
    if same("key") {
        Field::Key
    } else if same("operator") {
        Field::Operator
    } else if same("values") {
        Field::Values
    } else {
        Field::Other
    }
}

impl<'de> Deserialize<'de> for ClusterSelectorRequirement {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RequirementVisitor;

        impl<'de> Visitor<'de> for RequirementVisitor {
            type Value = ClusterSelectorRequirement;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object with key, operator and values")
            }

            // Later duplicates overwrite earlier ones and `null` leaves a field alone, as in Go.
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = ClusterSelectorRequirement::default();
                while let Some(name) = map.next_key::<String>()? {
                    match field_of(&name) {
                        Field::Key => {
                            if let Some(key) = map.next_value::<Option<String>>()? {
                                out.key = key;
                            }
                        }
                        Field::Operator => {
                            if let Some(operator) = map.next_value::<Option<String>>()? {
                                out.operator = operator;
                            }
                        }
                        Field::Values => {
                            if let Some(values) = map.next_value::<Option<Vec<Option<String>>>>()? {
                                out.values =
                                    values.into_iter().map(Option::unwrap_or_default).collect();
                            }
                        }
                        Field::Other => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(out)
            }
        }

        deserializer.deserialize_map(RequirementVisitor)
    }
}

/// `clusterselector.ConvertOperator` (exact case).
fn convert_operator(name: &str) -> Option<Operator> {
    Some(match name {
        "!" | "DoesNotExist" => Operator::DoesNotExist,
        "=" => Operator::Equals,
        "==" => Operator::DoubleEquals,
        "in" | "In" => Operator::In,
        "!=" => Operator::NotEquals,
        "notin" | "NotIn" => Operator::NotIn,
        "exists" | "Exists" => Operator::Exists,
        "gt" | "Gt" | ">" => Operator::GreaterThan,
        "lt" | "Lt" | "<" => Operator::LessThan,
        _ => return None,
    })
}

impl Selector {
    /// The value of the federation cluster-selector annotation (an absent annotation is
    /// [`Selector::everything`], the caller's business). `[]` and `null` select every
    /// cluster; empty or malformed JSON, an unknown operator or an invalid requirement is an
    /// error, and the object then goes to no cluster: the upstream controllers did nothing
    /// for it, so never fall back to "everywhere".
    pub fn from_annotation(value: &str) -> Result<Selector, SelectorError> {
        let decoded: Option<Vec<Option<ClusterSelectorRequirement>>> = serde_json::from_str(value)
            .map_err(|e: serde_json::Error| {
                SelectorError::message(format!("invalid cluster-selector JSON: {e}"))
            })?;
        let mut requirements = Vec::new();
        for (i, requirement) in decoded.into_iter().flatten().enumerate() {
            let requirement = requirement.unwrap_or_default();
            // Upstream converts an unknown operator to "" before validation; naming the
            // operator as written tells the user what to fix.
            let operator = convert_operator(&requirement.operator)
                .map_or(requirement.operator.as_str(), |op| op.as_str());
            let built = Requirement::with_operator_name(
                &requirement.key,
                operator,
                requirement.values,
                &format!("[{i}]"),
            );
            requirements.push(built?);
        }
        Ok(Selector::from_requirements(requirements))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::labels;

    #[test]
    fn null_and_empty_list_select_everything() {
        for value in ["null", "[]", " [ ] "] {
            assert_eq!(
                Selector::from_annotation(value).map(|s| s.is_everything()),
                Ok(true),
                "{value}"
            );
        }
    }

    #[test]
    fn empty_string_is_an_error() {
        assert!(Selector::from_annotation("").is_err());
    }

    #[test]
    fn field_names_match_case_insensitively() {
        let s = Selector::from_annotation(
            r#"[{"Key": "env", "OPERATOR": "In", "vAlUeS": ["prod"], "extra": {"x": 1}}]"#,
        )
        .expect("valid annotation");
        assert_eq!(s.to_string(), "env in (prod)");
    }

    #[test]
    fn kelvin_sign_folds_with_k_like_go() {
        let s = Selector::from_annotation("[{\"\u{212a}ey\": \"env\", \"operator\": \"exists\"}]")
            .expect("valid annotation");
        assert_eq!(s.to_string(), "env");
    }

    #[test]
    fn later_duplicate_fields_win_and_null_is_ignored() {
        let s = Selector::from_annotation(
            r#"[{"key": "a", "KEY": "b", "key": null, "operator": "=", "values": ["x"]}]"#,
        )
        .expect("valid annotation");
        assert_eq!(s.to_string(), "b=x");
    }

    #[test]
    fn aliases_map_to_operators() {
        let s = Selector::from_annotation(
            r#"[{"key":"v","operator":">","values":["14"]},{"key":"w","operator":"Lt","values":["3"]},{"key":"x","operator":"DoesNotExist"}]"#,
        )
        .expect("valid annotation");
        assert_eq!(s.to_string(), "v>14,w<3,!x");
        assert!(s.matches(&labels(&[("v", "15"), ("w", "2")])));
    }

    #[test]
    fn unknown_operator_aliases_are_errors() {
        for op in ["IN", "Equals", ">=", ""] {
            let json = format!(r#"[{{"key":"k","operator":"{op}","values":["a"]}}]"#);
            let err = Selector::from_annotation(&json).expect_err(op);
            assert_eq!(err.field_errors()[0].field(), "[0].operator", "{op}");
        }
    }

    #[test]
    fn missing_operator_is_an_error() {
        assert!(Selector::from_annotation(r#"[{"key":"k"}]"#).is_err());
    }

    #[test]
    fn wrong_json_types_are_errors() {
        for value in [
            r#"{"key":"k"}"#,
            r#"[{"key":5}]"#,
            r#"[{"values":"a"}]"#,
            "[1]",
        ] {
            assert!(Selector::from_annotation(value).is_err(), "{value}");
        }
    }

    #[test]
    fn null_values_inside_the_list_are_empty_strings() {
        let s = Selector::from_annotation(r#"[{"key":"k","operator":"in","values":[null,"a"]}]"#)
            .expect("valid annotation");
        assert_eq!(s.requirements()[0].values(), ["", "a"]);
    }

    #[test]
    fn invalid_requirement_names_its_index() {
        let err = Selector::from_annotation(
            r#"[{"key":"a","operator":"exists"},{"key":"b","operator":"=","values":["x y"]}]"#,
        )
        .expect_err("bad value");
        assert_eq!(err.field_errors()[0].field(), "[1].values[0][b]");
    }
}
