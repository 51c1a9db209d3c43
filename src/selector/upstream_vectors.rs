//! The selector suite of `fleetplan vectors`: every case of a file in the format of
//! testdata/upstream/selector.yaml (transcribed from the Kubernetes and federation test
//! suites) through the selector engine, every expected field checked (one the case's kind
//! does not compare fails it). The library test runs the bundled copy: all 221 pass.
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_yaml::{Mapping, Value};

use super::{validate_label_selector, Requirement, Selector, SelectorError};
use crate::model::LabelSelectorSpec;
use crate::vectors::{self, FileError, Mismatch, Report};

struct Case<'a> {
    input: &'a Mapping,
    expected: &'a Mapping,
    failures: Vec<String>,
    /// The expected fields compared so far.
    compared: RefCell<BTreeSet<&'static str>>,
}

impl<'a> Case<'a> {
    fn input(&self, name: &str) -> Option<&'a Value> {
        self.input.get(name)
    }

    fn expected(&self, name: &'static str) -> Option<&'a Value> {
        self.compared.borrow_mut().insert(name);
        self.expected.get(name)
    }

    fn expected_bool(&self, name: &'static str) -> Option<bool> {
        self.expected(name).and_then(Value::as_bool)
    }

    fn expected_str(&self, name: &'static str) -> Option<&'a str> {
        self.expected(name).and_then(Value::as_str)
    }

    fn check<T: PartialEq + std::fmt::Debug>(&mut self, what: &str, got: T, want: T) {
        if got != want {
            self.failures
                .push(format!("{what}: got {got:?}, want {want:?}"));
        }
    }

    fn labels(&self) -> BTreeMap<String, String> {
        string_map(self.input("labels").or(self.input("cluster_labels")))
    }

    /// Checks `ok`, `string`, `empty`, `matches_nothing` and `matches` against a built
    /// selector, or the error expectations against its error.
    fn check_outcome(&mut self, outcome: &Result<Selector, SelectorError>) {
        if let Some(ok) = self.expected_bool("ok") {
            self.check("ok", outcome.is_ok(), ok);
        }
        match outcome {
            Ok(selector) => {
                if let Some(string) = self.expected_str("string") {
                    self.check("string", selector.to_string().as_str(), string);
                }
                if let Some(empty) = self.expected_bool("empty") {
                    self.check("empty", selector.is_everything(), empty);
                }
                if let Some(nothing) = self.expected_bool("matches_nothing") {
                    self.check("matches_nothing", selector.is_nothing(), nothing);
                }
                if let Some(matches) = self.expected_bool("matches") {
                    let labels = self.labels();
                    self.check("matches", selector.matches(&labels), matches);
                }
            }
            Err(error) => self.check_error(error),
        }
    }

    fn check_error(&mut self, error: &SelectorError) {
        let text = error.to_string();
        if let Some(fragment) = self.expected_str("error_contains") {
            let fragment = fragment.to_string();
            self.check_contains("error_contains", &text, &fragment);
        }
        if let Some(field) = self.expected_str("error_field") {
            let fields: Vec<&str> = error.field_errors().iter().map(|e| e.field()).collect();
            self.check("error_field", fields.contains(&field), true);
            if let Some(kind) = self.expected_str("error_type") {
                let kinds: Vec<&str> = error
                    .field_errors()
                    .iter()
                    .filter(|e| e.field() == field)
                    .map(|e| e.error_type().as_str())
                    .collect();
                self.check("error_type", kinds.contains(&kind), true);
            }
        }
    }

    /// A fragment may list alternatives for different upstream versions, each tagged with
    /// the version in parentheses: `label key must consist of (HEAD) / a qualified ... (<=2025)`.
    /// fleetplan follows HEAD.
    fn check_contains(&mut self, what: &str, text: &str, fragment: &str) {
        let wanted = fragment
            .split(" / ")
            .find(|alt| alt.ends_with(" (HEAD)"))
            .map_or(fragment, |alt| alt.trim_end_matches(" (HEAD)"));
        if !text.contains(wanted) {
            self.failures
                .push(format!("{what}: {text:?} does not contain {wanted:?}"));
        }
    }
}

fn string_map(value: Option<&Value>) -> BTreeMap<String, String> {
    value
        .and_then(Value::as_mapping)
        .into_iter()
        .flatten()
        .map(|(k, v)| (scalar(k), scalar(v)))
        .collect()
}

fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        other => format!("{other:?}"),
    }
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_sequence)
        .into_iter()
        .flatten()
        .map(scalar)
        .collect()
}

fn requirement_from(value: &Value) -> Result<Requirement, SelectorError> {
    let field = |name: &str| value.get(name).map(scalar).unwrap_or_default();
    Requirement::with_operator_name(
        &field("key"),
        &field("op"),
        strings(value.get("values")),
        "",
    )
}

fn run_parse(case: &mut Case) {
    let source = case.input("selector").map(scalar).unwrap_or_default();
    let outcome = Selector::parse(&source);
    case.check_outcome(&outcome);
    if let (Ok(selector), Some(want)) = (&outcome, case.expected("requirements")) {
        let got: Vec<(String, String, Vec<String>)> = selector
            .requirements()
            .iter()
            .map(|r| {
                (
                    r.key().to_string(),
                    r.operator().as_str().to_string(),
                    r.values().to_vec(),
                )
            })
            .collect();
        let want: Vec<(String, String, Vec<String>)> = want
            .as_sequence()
            .into_iter()
            .flatten()
            .map(|r| {
                let field = |name: &str| r.get(name).map(scalar).unwrap_or_default();
                (field("key"), field("op"), strings(r.get("values")))
            })
            .collect();
        case.check("requirements", got, want);
    }
}

fn run_match(case: &mut Case) {
    let source = case.input("selector").map(scalar).unwrap_or_default();
    let outcome = Selector::parse(&source);
    case.check("parses", outcome.is_ok(), true);
    case.check_outcome(&outcome);
}

fn run_requirement(case: &mut Case) {
    let Some(list) = case.input("requirements").and_then(Value::as_sequence) else {
        let outcome = case
            .input
            .get("key")
            .map(|_| requirement_from(&Value::Mapping(case.input.clone())))
            .map(|r| r.map(|r| Selector::from_requirements(vec![r])));
        match outcome {
            Some(outcome) => case.check_outcome(&outcome),
            None => case.failures.push("no key and no requirements".to_string()),
        }
        return;
    };
    let built: Vec<Result<Requirement, SelectorError>> =
        list.iter().map(requirement_from).collect();
    let all_valid = built.iter().all(Result::is_ok);
    if let Some(valid) = case.expected_bool("valid") {
        case.check("valid", all_valid, valid);
    }
    if all_valid {
        let requirements = built.into_iter().flatten().collect();
        case.check_outcome(&Ok(Selector::from_requirements(requirements)));
        return;
    }
    // Upstream builds a zero-value Requirement (unknown operator) directly; fleetplan cannot
    // construct one. It never matches upstream; here the selector fails to build and every
    // front end then selects nothing. It renders as "" upstream.
    if let Some(matches) = case.expected_bool("matches") {
        case.check("matches (fail closed)", false, matches);
    }
    if let Some(string) = case.expected_str("string") {
        let rendered: Vec<String> = built
            .iter()
            .map(|r| r.as_ref().map(|r| r.to_string()).unwrap_or_default())
            .collect();
        case.check("string", rendered.join(",").as_str(), string);
    }
}

fn run_annotation(case: &mut Case) {
    let outcome = match case.input("annotation").and_then(Value::as_str) {
        None => Ok(Selector::everything()),
        Some(value) => Selector::from_annotation(value),
    };
    let labels = case.labels();
    if let Some(error) = case.expected_bool("error") {
        case.check("error", outcome.is_err(), error);
    }
    if let Some(send) = case.expected_bool("send") {
        let got = outcome.as_ref().is_ok_and(|s| s.matches(&labels));
        case.check("send", got, send);
    }
}

fn run_label_selector(case: &mut Case) {
    let spec: Option<LabelSelectorSpec> = match case.input("label_selector") {
        None | Some(Value::Null) => None,
        Some(value) => match serde_yaml::from_value(value.clone()) {
            Ok(spec) => Some(spec),
            Err(e) => {
                case.failures
                    .push(format!("label_selector does not load: {e}"));
                return;
            }
        },
    };
    let outcome = Selector::from_label_selector(spec.as_ref());
    case.check_outcome(&outcome);
    let errors = spec
        .as_ref()
        .map(|s| validate_label_selector(s, ""))
        .unwrap_or_default();
    if let Some(count) = case
        .expected("validation_error_count")
        .and_then(Value::as_u64)
    {
        case.check("validation_error_count", errors.len() as u64, count);
    }
    if let Some(fragment) = case.expected_str("validation_error_contains") {
        let fragment = fragment.to_string();
        let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        case.check_contains("validation_error_contains", &text.join("; "), &fragment);
    }
}

/// One vector of the file: its source, kind, input and expected fields.
#[derive(serde::Deserialize)]
struct Vector {
    source: String,
    kind: String,
    input: Mapping,
    expected: Mapping,
}

/// Runs every case of `text` (the format of testdata/upstream/selector.yaml). A case is named
/// by its source, with `#N` after it when several cases share it (the N-th of them).
pub(crate) fn run_file(text: &str) -> Result<Report, FileError> {
    let cases: Vec<Vector> = vectors::parse(text)?;
    let mut shared: HashMap<&str, usize> = HashMap::new();
    for case in &cases {
        *shared.entry(case.source.as_str()).or_default() += 1;
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let ids: Vec<String> = cases
        .iter()
        .map(|case| {
            let source = case.source.as_str();
            if shared.get(source).copied().unwrap_or_default() < 2 {
                return source.to_string();
            }
            let n = seen.entry(source).or_default();
            *n += 1;
            format!("{source} #{n}")
        })
        .collect();
    vectors::report(
        "",
        cases
            .iter()
            .zip(&ids)
            .enumerate()
            .map(|(index, (case, id))| {
                (
                    format!("[{index}]"),
                    id.as_str(),
                    case.kind.as_str(),
                    check(case),
                )
            }),
    )
}

/// One case: every expected field compared.
fn check(vector: &Vector) -> Result<(), Mismatch> {
    let mut case = Case {
        input: &vector.input,
        expected: &vector.expected,
        failures: Vec::new(),
        compared: RefCell::new(BTreeSet::new()),
    };
    match vector.kind.as_str() {
        "parse" => run_parse(&mut case),
        "match" => run_match(&mut case),
        "requirement" => run_requirement(&mut case),
        "annotation" => run_annotation(&mut case),
        "labelselector" => run_label_selector(&mut case),
        other => return Err(Mismatch::Kind(format!("kind {other:?}"))),
    }
    let compared = case.compared.borrow();
    vectors::checked(
        case.failures,
        case.expected
            .keys()
            .map(|key| key.as_str().unwrap_or("<a key that is no text>")),
        |name| compared.contains(name),
        &[],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_selector_vector_passes() {
        assert_eq!(
            run_file(include_str!("../../testdata/upstream/selector.yaml")),
            Ok(Report {
                vectors: 221,
                failures: Vec::new(),
            })
        );
    }
}
