//! NodeSelector-style terms (component-helpers `nodeaffinity.NewNodeSelector`): each term
//! is the AND of its expressions, the terms are ORed, and an empty term selects nothing.
//! Operators `In`, `NotIn`, `Exists`, `DoesNotExist`, `Gt`, `Lt`. Used for inventory filters.

use crate::model::LabelSelectorRequirementSpec;

use super::bits::ClusterBits;
use super::conjunction::Selector;
use super::error::{child, FieldError, SelectorError};
use super::index::LabelIndex;
use super::label_source::LabelSource;
use super::requirement::{Operator, Requirement};

/// `v1.NodeSelectorOperator` names, in upstream's order.
const NODE_SELECTOR_OPERATORS: [(&str, Operator); 6] = [
    ("In", Operator::In),
    ("NotIn", Operator::NotIn),
    ("Exists", Operator::Exists),
    ("DoesNotExist", Operator::DoesNotExist),
    ("Gt", Operator::GreaterThan),
    ("Lt", Operator::LessThan),
];

/// ORed terms; no terms (or only empty ones) selects nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermSelector {
    /// The non-empty terms, each the AND of its expressions.
    terms: Vec<Selector>,
}

impl TermSelector {
    /// Builds every term, reporting every problem of every term at once, with paths like
    /// `{path}[1].matchExpressions[0].operator`.
    pub fn new(
        terms: &[Vec<LabelSelectorRequirementSpec>],
        path: &str,
    ) -> Result<TermSelector, SelectorError> {
        let mut errors = Vec::new();
        let mut built = Vec::new();
        for (t, term) in terms.iter().enumerate() {
            // "nil or empty term selects no objects"
            if term.is_empty() {
                continue;
            }
            let term_path = child(&format!("{path}[{t}]"), "matchExpressions");
            let mut requirements = Vec::new();
            for (i, expr) in term.iter().enumerate() {
                let expr_path = format!("{term_path}[{i}]");
                let operator = NODE_SELECTOR_OPERATORS
                    .iter()
                    .find(|(name, _)| *name == expr.operator)
                    .map(|(_, op)| *op);
                let Some(operator) = operator else {
                    let names: Vec<&str> =
                        NODE_SELECTOR_OPERATORS.iter().map(|(n, _)| *n).collect();
                    errors.push(FieldError::not_supported(
                        child(&expr_path, "operator"),
                        &expr.operator,
                        &names,
                    ));
                    continue;
                };
                match Requirement::with_operator_name(
                    &expr.key,
                    operator.as_str(),
                    expr.values.clone(),
                    &expr_path,
                ) {
                    Ok(requirement) => requirements.push(requirement),
                    Err(e) => errors.extend(e.field_errors().iter().cloned()),
                }
            }
            built.push(Selector::from_requirements(requirements));
        }
        if errors.is_empty() {
            Ok(TermSelector { terms: built })
        } else {
            Err(SelectorError::fields(errors))
        }
    }

    /// The non-empty terms.
    pub fn terms(&self) -> &[Selector] {
        &self.terms
    }

    /// Some term matches.
    pub fn matches(&self, labels: &impl LabelSource) -> bool {
        self.terms.iter().any(|term| term.matches(labels))
    }
}

impl LabelIndex {
    /// The clusters some term of `selector` matches.
    pub fn select_terms(&self, selector: &TermSelector) -> ClusterBits {
        let mut selected = ClusterBits::empty(self.len());
        for term in selector.terms() {
            selected.or_assign(&self.select(term));
        }
        selected
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{expr, labels};

    fn terms(terms: Vec<Vec<LabelSelectorRequirementSpec>>) -> TermSelector {
        match TermSelector::new(&terms, "where") {
            Ok(t) => t,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn terms_are_ored() {
        let t = terms(vec![
            vec![expr("env", "In", &["prod"])],
            vec![expr("gpu", "Gt", &["3"])],
        ]);
        assert!(t.matches(&labels(&[("env", "prod")])));
        assert!(t.matches(&labels(&[("gpu", "4")])));
        assert!(!t.matches(&labels(&[("env", "dev"), ("gpu", "3")])));
    }

    #[test]
    fn no_terms_and_empty_terms_select_nothing() {
        let any = labels(&[("env", "prod")]);
        assert!(!terms(vec![]).matches(&any));
        assert!(!terms(vec![vec![]]).matches(&any));
    }

    #[test]
    fn every_error_is_reported_with_its_path() {
        let err = TermSelector::new(
            &[
                vec![expr("env", "in", &["prod"])],
                vec![expr("gpu", "Gt", &["x"]), expr("-k", "Exists", &[])],
            ],
            "where",
        )
        .expect_err("bad terms");
        let fields: Vec<&str> = err.field_errors().iter().map(|e| e.field()).collect();
        assert_eq!(
            fields,
            [
                "where[0].matchExpressions[0].operator",
                "where[1].matchExpressions[0].values[0]",
                "where[1].matchExpressions[1].key",
            ]
        );
        assert!(err.to_string().contains(
            r#"where[0].matchExpressions[0].operator: Unsupported value: "in": supported values: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt""#
        ));
    }

    #[test]
    fn index_ors_the_terms() {
        let fleet = vec![
            labels(&[("env", "prod")]),
            labels(&[("gpu", "8")]),
            labels(&[("env", "dev")]),
        ];
        let index = LabelIndex::new(&fleet, |labels| labels);
        let t = terms(vec![
            vec![expr("env", "In", &["prod"])],
            vec![expr("gpu", "Gt", &["3"])],
        ]);
        assert_eq!(
            index.select_terms(&t).iter_ones().collect::<Vec<_>>(),
            [0, 1]
        );
    }
}
