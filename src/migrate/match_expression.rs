//! A label requirement (the federation cluster-selector annotation's) as a `labelSelector`
//! match expression, as every migration target writes one (OCM's Placements, Karmada's
//! policies), and how the loss report names one.

use crate::model::LabelSelectorRequirementSpec;
use crate::selector::{Operator, Requirement};

/// A requirement as a labelSelector states it: `In`/`in`, `NotIn`/`notin`, `Exists`/`exists`,
/// `DoesNotExist`/`!` keep their operator, `=`/`==` become `In` and `!=` `NotIn` with the one
/// value (same truth table, the absent key included). `None` for `Gt`/`Lt`: a labelSelector
/// cannot compare.
pub(crate) fn match_expression(requirement: &Requirement) -> Option<LabelSelectorRequirementSpec> {
    let values = requirement.values().to_vec();
    let (operator, values) = match requirement.operator() {
        Operator::In | Operator::Equals | Operator::DoubleEquals => ("In", values),
        Operator::NotIn | Operator::NotEquals => ("NotIn", values),
        Operator::Exists => ("Exists", Vec::new()),
        Operator::DoesNotExist => ("DoesNotExist", Vec::new()),
        Operator::GreaterThan | Operator::LessThan => return None,
    };
    Some(LabelSelectorRequirementSpec {
        key: requirement.key().to_string(),
        operator: operator.to_string(),
        values,
    })
}

/// `key Operator [a,b]`, how the loss report names a match expression.
pub(crate) fn describe(expression: &LabelSelectorRequirementSpec) -> String {
    format!(
        "{} {} [{}]",
        expression.key,
        expression.operator,
        expression.values.join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selector::Selector;

    fn expressions(annotation: &str) -> Vec<Option<String>> {
        let selector = Selector::from_annotation(annotation).unwrap_or_else(|e| panic!("{e}"));
        selector
            .requirements()
            .iter()
            .map(|requirement| match_expression(requirement).map(|e| describe(&e)))
            .collect()
    }

    #[test]
    fn equality_becomes_in_or_notin_and_a_comparison_has_no_expression() {
        assert_eq!(
            expressions(
                r#"[{"key":"a","operator":"==","values":["x"]},{"key":"b","operator":"!=","values":["y"]},{"key":"c","operator":"exists"},{"key":"d","operator":"Gt","values":["1"]}]"#
            ),
            [
                Some("a In [x]".to_string()),
                Some("b NotIn [y]".to_string()),
                Some("c Exists []".to_string()),
                None
            ]
        );
    }
}
