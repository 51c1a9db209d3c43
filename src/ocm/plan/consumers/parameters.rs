//! A clusterDecisionResource generator's `selector`: Argo CD keeps a generated parameter set
//! only when the selector matches it, flattened (argo-cd `applicationset/generators/
//! generator_spec_processor.go` `Transform`, at 37ee0097cf85). Each set a decided cluster
//! generates is known offline (`duck_type.go` `GenerateParams`): `name` and `server` of the
//! Argo CD cluster, the decision's `clusterName` and `reason` (a PlacementDecision writes
//! `reason: ""`), and `values.<key>` for each of the generator's `values`.

use std::collections::BTreeMap;

use crate::model::LabelSelectorSpec;
use crate::selector::{Selector, SelectorError};

/// The selector of one generator, with what every set it filters holds besides the cluster.
#[derive(Clone, Debug)]
pub(super) struct ParameterFilter {
    /// `spec.generators[0].selector`.
    pub(super) path: String,
    selector: Selector,
    /// `values.<key>` → value.
    values: BTreeMap<String, String>,
}

/// Argo CD's refusal of a generator's selector, which fails the whole ApplicationSet.
#[derive(Debug, thiserror::Error)]
#[error("{path}: error parsing label selector: {error}")]
pub(super) struct SelectorRefused {
    path: String,
    error: SelectorError,
}

impl ParameterFilter {
    /// The filter of `selector` at `path`, or Argo CD's refusal.
    pub(super) fn new(
        path: &str,
        selector: &LabelSelectorSpec,
        values: &BTreeMap<String, String>,
    ) -> Result<ParameterFilter, SelectorRefused> {
        let selector =
            Selector::from_generator_selector(Some(selector)).map_err(|error| SelectorRefused {
                path: path.to_string(),
                error,
            })?;
        Ok(ParameterFilter {
            path: path.to_string(),
            selector,
            values: values
                .iter()
                .map(|(key, value)| (format!("values.{key}"), value.clone()))
                .collect(),
        })
    }

    /// Whether the set generated for `cluster` (registered with `server`) is kept.
    pub(super) fn keeps(&self, cluster: &str, server: &str) -> bool {
        let mut parameters: BTreeMap<&str, &str> = self
            .values
            .iter()
            .map(|(key, value)| (key.as_str(), value.as_str()))
            .collect();
        // `values.` keys never collide with these.
        parameters.extend([
            ("name", cluster),
            ("server", server),
            ("clusterName", cluster),
            ("reason", ""),
        ]);
        self.selector.matches(&parameters)
    }
}

/// Whether `selector` reads the `server` parameter, which only a cluster Secret tells.
pub(super) fn reads_server(selector: &LabelSelectorSpec) -> bool {
    let labels = selector.match_labels.iter().flatten().map(|(key, _)| key);
    let expressions = selector
        .match_expressions
        .iter()
        .flatten()
        .map(|expression| &expression.key);
    labels.chain(expressions).any(|key| key == "server")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::LabelSelectorRequirementSpec;

    fn selector(
        labels: &[(&str, &str)],
        expressions: &[(&str, &str, &[&str])],
    ) -> LabelSelectorSpec {
        LabelSelectorSpec {
            match_labels: (!labels.is_empty()).then(|| {
                labels
                    .iter()
                    .map(|(key, value)| (key.to_string(), value.to_string()))
                    .collect()
            }),
            match_expressions: (!expressions.is_empty()).then(|| {
                expressions
                    .iter()
                    .map(|(key, operator, values)| LabelSelectorRequirementSpec {
                        key: key.to_string(),
                        operator: operator.to_string(),
                        values: values.iter().map(|value| value.to_string()).collect(),
                    })
                    .collect()
            }),
        }
    }

    #[test]
    fn a_selector_matches_the_cluster_parameters_and_the_values() {
        let values = BTreeMap::from([("env".to_string(), "prod".to_string())]);
        let by_name = ParameterFilter::new("s", &selector(&[("name", "east")], &[]), &values);
        let by_name = by_name.expect("valid");
        assert!(by_name.keeps("east", ""));
        assert!(!by_name.keeps("west", ""));
        let by_value = selector(&[("values.env", "prod")], &[("reason", "In", &[""])]);
        let by_value = ParameterFilter::new("s", &by_value, &values).expect("valid");
        assert!(by_value.keeps("west", ""));
        // A server URL is no label value; Argo CD's selector takes it all the same.
        let by_server = selector(&[], &[("server", "NotIn", &["https://east.example:6443"])]);
        let by_server = ParameterFilter::new("s", &by_server, &values).expect("valid");
        assert!(!by_server.keeps("east", "https://east.example:6443"));
        assert!(by_server.keeps("west", "https://west.example:6443"));
    }

    #[test]
    fn a_bad_selector_fails_as_argo_cd_parses_it() {
        let values = BTreeMap::new();
        let error = |spec: LabelSelectorSpec| {
            ParameterFilter::new("spec.generators[0].selector", &spec, &values)
                .err()
                .map(|error| error.to_string())
                .unwrap_or_default()
        };
        assert_eq!(
            error(selector(&[], &[("env", "Gt", &["1"])])),
            "spec.generators[0].selector: error parsing label selector: \"Gt\" is not a valid pod selector operator"
        );
        assert_eq!(
            error(selector(&[("a b", "x")], &[])),
            "spec.generators[0].selector: error parsing label selector: key: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
        );
    }

    #[test]
    fn only_a_selector_that_names_server_reads_it() {
        assert!(reads_server(&selector(&[("server", "x")], &[])));
        assert!(reads_server(&selector(&[], &[("server", "Exists", &[])])));
        assert!(!reads_server(&selector(&[("name", "x")], &[])));
    }
}
