//! What `check` found, decided once for every output format: each input error, item error
//! and unsatisfied condition becomes a [`Finding`] with where it is (file, document, line when
//! known), the object it is about and the [`Rule`] it breaks; every item checked is listed so
//! formats with one entry per item (JUnit) have them. The renderers in `render/` only format.

mod hints;

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

pub(crate) use hints::Hints;

use crate::baseline::{Comparison, Entry, State};
use crate::load::LoadError;
use crate::model::{Model, Source, Workload, WorkloadKind};
use crate::plan::PlanOutcome;

/// What `check` found; `-o json` serializes it as is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CheckReport {
    pub result: CheckResult,
    /// Items planned (or, with `--manifests-only`, validated); 0 when none could be read.
    pub items: usize,
    /// False when no placement was evaluated: `--manifests-only`, or nothing could be read.
    pub placements_evaluated: bool,
    /// Documents found by walking that are not Kubernetes objects (neither apiVersion nor
    /// kind), left out; `--verbose` names them.
    pub skipped_documents: usize,
    /// Input and item errors, in input order.
    pub errors: Vec<Finding>,
    /// One entry per condition in its bad state, of items without errors, in plan order.
    pub unsatisfied: Vec<Finding>,
    /// Every item checked (or validated), in plan order; `-o json` gives only their count.
    #[serde(skip)]
    pub checked: Vec<Checked>,
    /// With `--baseline`: its entries no finding matched any more, sorted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolved: Option<Vec<Entry>>,
}

/// An item that was checked: the object and where it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Checked {
    /// `Kind/namespace/name`.
    pub object: String,
    pub source: Source,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum CheckResult {
    /// Everything valid and satisfied.
    #[default]
    Clean,
    /// Some input or item has an error.
    Errors,
    /// Everything is valid, but some item is unsatisfied.
    Unsatisfied,
}

/// The kinds of problem `check` reports: SARIF's rules, JUnit's failure types.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Rule {
    /// A path that cannot be read: missing, too large, not UTF-8.
    #[default]
    UnreadableInput,
    /// A document that is not well-formed YAML or JSON.
    SyntaxError,
    /// An object whose fields do not hold what its API allows.
    InvalidObject,
    /// An object defined twice.
    DuplicateObject,
    /// An item that cannot be planned (a selector that does not parse, a broken reference).
    ItemError,
    /// A valid item the fleet cannot satisfy (a condition in its bad state).
    Unsatisfied,
}

impl Rule {
    /// Every rule, in the order SARIF lists them.
    pub(crate) const ALL: [Rule; 6] = [
        Rule::UnreadableInput,
        Rule::SyntaxError,
        Rule::InvalidObject,
        Rule::DuplicateObject,
        Rule::ItemError,
        Rule::Unsatisfied,
    ];

    /// A stable identifier, kebab-case.
    pub(crate) fn id(self) -> &'static str {
        match self {
            Rule::UnreadableInput => "unreadable-input",
            Rule::SyntaxError => "syntax-error",
            Rule::InvalidObject => "invalid-object",
            Rule::DuplicateObject => "duplicate-object",
            Rule::ItemError => "item-error",
            Rule::Unsatisfied => "unsatisfied",
        }
    }

    /// One sentence saying what breaks the rule.
    pub(crate) fn description(self) -> &'static str {
        match self {
            Rule::UnreadableInput => {
                "An input path cannot be read (missing, too large, not UTF-8)."
            }
            Rule::SyntaxError => "A document is not well-formed YAML or JSON.",
            Rule::InvalidObject => "An object's fields do not hold what its API allows.",
            Rule::DuplicateObject => "An object is defined more than once.",
            Rule::ItemError => "A workload or placement cannot be planned.",
            Rule::Unsatisfied => "A valid placement the fleet cannot satisfy.",
        }
    }

    /// Errors fail the gate with exit 1; unsatisfied items with exit 3.
    pub(crate) fn is_error(self) -> bool {
        self != Rule::Unsatisfied
    }
}

/// One problem, with where it is as far as it is known.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Finding {
    /// What kind of problem this is; `-o json` tells errors from unsatisfied by their list.
    #[serde(skip)]
    pub rule: Rule,
    pub file: String,
    /// The document within the file, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub document: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// `Kind/namespace/name`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    /// The field path (`spec.taints[0].effect`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The unsatisfied condition's type (`PlacementSatisfied`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// The unsatisfied condition's reason (`NotAllDecisionsScheduled`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub message: String,
    /// What would fix it, when the inputs show it (the binding to add, `-n`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// With `--baseline`: whether the baseline knew it (SARIF's `baselineState`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_state: Option<State>,
}

impl Finding {
    fn at(source: &Source) -> Finding {
        Finding {
            file: source.file.clone(),
            document: Some(source.document),
            line: source.line,
            ..Finding::default()
        }
    }

    /// Whether it fails the gate: anything but a finding the baseline knows.
    pub(crate) fn is_new(&self) -> bool {
        self.baseline_state != Some(State::Unchanged)
    }

    /// What is wrong, without where: `object: path: reason: message (hint: …)`, each part
    /// when known.
    pub(crate) fn description(&self) -> String {
        match &self.object {
            Some(object) => format!("{object}: {}", self.what()),
            None => self.what(),
        }
    }

    /// What is wrong with the object: `path: reason: message (hint: …)`, each part when known.
    pub(crate) fn what(&self) -> String {
        let mut text = String::new();
        for part in [&self.path, &self.reason].into_iter().flatten() {
            text.push_str(part);
            text.push_str(": ");
        }
        text.push_str(&self.message);
        if let Some(hint) = &self.hint {
            text.push_str(" (hint: ");
            text.push_str(hint);
            text.push(')');
        }
        text
    }
}

/// `file#document: line L column C: object: path: reason: message`, each part when known.
impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some(document) = self.document {
            write!(f, "#{document}")?;
        }
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, ": line {line} column {column}")?,
            (Some(line), None) => write!(f, ": line {line}")?,
            _ => {}
        }
        write!(f, ": {}", self.description())
    }
}

impl CheckReport {
    /// A report that starts with the inputs' errors (each file's, in input order); the
    /// objects that did load are checked next.
    pub(crate) fn new(model: &Model, load_errors: &[LoadError]) -> CheckReport {
        let mut report = CheckReport {
            skipped_documents: model.not_objects.len(),
            errors: load_errors.iter().map(load_finding).collect(),
            ..CheckReport::default()
        };
        report.conclude();
        report
    }

    /// Adds the plan of `workloads`: its item errors, else its unsatisfied conditions, each
    /// with what `hints` says would fix it.
    pub(crate) fn planned(
        mut self,
        workloads: &[&Workload],
        outcome: &PlanOutcome,
        hints: &Hints<'_>,
    ) -> CheckReport {
        self.items = outcome.plan.items.len();
        self.placements_evaluated = true;
        // plan::build keeps the workloads' order: item i plans workload i.
        self.checked = checked(workloads);
        for (workload, item) in workloads.iter().zip(&outcome.plan.items) {
            let finding = || Finding {
                object: Some(workload.object.to_string()),
                ..Finding::at(&workload.source)
            };
            if !item.errors.is_empty() {
                let consumer = matches!(workload.kind, WorkloadKind::Consumer(_));
                self.errors.extend(item.errors.iter().map(|error| {
                    let (path, message) = if consumer {
                        field_and_message(error)
                    } else {
                        (None, error.clone())
                    };
                    Finding {
                        rule: Rule::ItemError,
                        path,
                        message,
                        hint: hints.about(workload, None),
                        ..finding()
                    }
                }));
                continue;
            }
            self.unsatisfied
                .extend(item.problems().map(|condition| Finding {
                    rule: Rule::Unsatisfied,
                    condition: Some(condition.type_.clone()),
                    reason: Some(condition.reason.clone()),
                    message: condition.message.clone(),
                    hint: hints.about(workload, Some(&condition.reason)),
                    ..finding()
                }));
        }
        // Objects that are not items (a policy binding) with a reference that resolves
        // to nothing: errors at the object that holds the reference.
        self.errors
            .extend(outcome.problems.iter().map(|problem| Finding {
                rule: Rule::ItemError,
                object: Some(problem.object.to_string()),
                path: problem.field.map(str::to_string),
                message: problem.message.clone(),
                ..Finding::at(&problem.source)
            }));
        self.conclude();
        self
    }

    /// `--manifests-only`: `workloads` were read and validated, not planned.
    pub(crate) fn validated(mut self, workloads: &[&Workload]) -> CheckReport {
        self.items = workloads.len();
        self.checked = checked(workloads);
        self.placements_evaluated = false;
        self.conclude();
        self
    }

    /// Each finding with a field path at the line of that field: `lines` gives, for one file,
    /// the line of each `(document, path)` asked, `None` where it cannot tell (the finding
    /// keeps its object's line). Each file is asked once, for all of its findings.
    pub(crate) fn at_fields(
        mut self,
        lines: impl Fn(&str, &[(usize, &str)]) -> Vec<Option<usize>>,
    ) -> CheckReport {
        let mut by_file: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (at, finding) in self.errors.iter().enumerate() {
            if finding.path.is_some() && finding.document.is_some() {
                by_file.entry(&finding.file).or_default().push(at);
            }
        }
        let mut found = Vec::new();
        for (file, at) in by_file {
            let queries: Vec<(usize, &str)> = at
                .iter()
                .filter_map(|&at| {
                    let finding = self.errors.get(at)?;
                    Some((finding.document?, finding.path.as_deref()?))
                })
                .collect();
            found.extend(at.into_iter().zip(lines(file, &queries)));
        }
        for (at, line) in found {
            if let (Some(finding), Some(line)) = (self.errors.get_mut(at), line) {
                finding.line = Some(line);
            }
        }
        self
    }

    /// Every finding: the errors, then the unsatisfied conditions.
    pub(crate) fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.errors.iter().chain(&self.unsatisfied)
    }

    /// Marks each finding new or known by `comparison` (made from this report), and records
    /// the baseline entries that no longer occur; known findings stop deciding the result.
    pub(crate) fn with_baseline(mut self, comparison: Comparison) -> CheckReport {
        let mut states = comparison.states.into_iter();
        for finding in self.errors.iter_mut().chain(&mut self.unsatisfied) {
            finding.baseline_state = states.next();
        }
        self.resolved = Some(comparison.resolved);
        self.conclude();
        self
    }

    /// Findings the baseline knew: `(errors, unsatisfied)`.
    pub(crate) fn known(&self) -> (usize, usize) {
        let known = |findings: &[Finding]| findings.iter().filter(|f| !f.is_new()).count();
        (known(&self.errors), known(&self.unsatisfied))
    }

    fn conclude(&mut self) {
        self.result = if self.errors.iter().any(Finding::is_new) {
            CheckResult::Errors
        } else if self.unsatisfied.iter().any(Finding::is_new) {
            CheckResult::Unsatisfied
        } else {
            CheckResult::Clean
        };
    }
}

fn checked(workloads: &[&Workload]) -> Vec<Checked> {
    workloads
        .iter()
        .map(|workload| Checked {
            object: workload.object.to_string(),
            source: workload.source.clone(),
        })
        .collect()
}

/// A placement consumer's errors name the reference at fault first
/// (`spec.placementRefs[0]: Placement/ns/p is not in the inputs`, plan/consumers; a
/// policy binding's carry it apart, as their diagnostic's field):
/// split off, that path locates the finding at the reference's line and makes each
/// reference its own baseline entry. Anything else is all message.
fn field_and_message(error: &str) -> (Option<String>, String) {
    let split = error
        .split_once(": ")
        .filter(|(path, _)| is_field_path(path));
    match split {
        Some((path, message)) => (Some(path.to_string()), message.to_string()),
        None => (None, error.to_string()),
    }
}

/// `spec.placementRefs[0].name`: fields (a letter, then letters and digits), each with any
/// `[index]`, joined by dots.
fn is_field_path(path: &str) -> bool {
    !path.is_empty()
        && path.split('.').all(|segment| {
            let (field, mut indices) = segment.split_at(segment.find('[').unwrap_or(segment.len()));
            while let Some(rest) = indices.strip_prefix('[') {
                match rest.split_once(']') {
                    Some((index, after))
                        if !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()) =>
                    {
                        indices = after;
                    }
                    _ => return false,
                }
            }
            indices.is_empty()
                && field.starts_with(|c: char| c.is_ascii_alphabetic())
                && field.chars().all(|c| c.is_ascii_alphanumeric())
        })
}

fn load_finding(error: &LoadError) -> Finding {
    match error {
        LoadError::Input { path, message } => Finding {
            rule: Rule::UnreadableInput,
            file: path.clone(),
            message: message.clone(),
            ..Finding::default()
        },
        LoadError::Syntax {
            at,
            line,
            column,
            message,
        } => Finding {
            rule: Rule::SyntaxError,
            line: *line,
            column: *column,
            message: message.clone(),
            ..Finding::at(at)
        },
        LoadError::Invalid {
            at,
            object,
            path,
            message,
        } => Finding {
            rule: Rule::InvalidObject,
            object: object.clone(),
            path: (!path.is_empty()).then(|| path.clone()),
            message: message.clone(),
            ..Finding::at(at)
        },
        LoadError::Duplicate { at, object, first } => Finding {
            rule: Rule::DuplicateObject,
            object: Some(object.clone()),
            message: format!("duplicate, first defined at {first}"),
            ..Finding::at(at)
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finding_names_every_known_part_in_order() {
        let finding = Finding {
            line: Some(7),
            column: Some(3),
            object: Some("Placement/ns/p".to_string()),
            path: Some("spec.numberOfClusters".to_string()),
            message: "expected a number".to_string(),
            file: "a.yaml".to_string(),
            document: Some(2),
            ..Finding::default()
        };
        assert_eq!(
            finding.to_string(),
            "a.yaml#2: line 7 column 3: Placement/ns/p: spec.numberOfClusters: expected a number"
        );
    }

    #[test]
    fn a_consumer_error_names_its_field_first() {
        assert_eq!(
            field_and_message("spec.placementRefs[0]: Placement/ns/p is not in the inputs"),
            (
                Some("spec.placementRefs[0]".to_string()),
                "Placement/ns/p is not in the inputs".to_string()
            )
        );
        for message in [
            "placed nowhere: no binding",
            "Placement/ns/p has errors: it places nothing",
            "spec.x[]: m",
            "spec.x[1: m",
            "spec..x: m",
            "no field path at all",
        ] {
            assert_eq!(field_and_message(message), (None, message.to_string()));
        }
    }

    #[test]
    fn a_duplicate_names_where_it_was_first_defined() {
        let errors = [LoadError::Duplicate {
            at: Source {
                file: "b.yaml".to_string(),
                document: 3,
                line: None,
            },
            object: "cluster east".to_string(),
            first: Source {
                file: "a.yaml".to_string(),
                document: 1,
                line: None,
            },
        }];
        let report = CheckReport::new(&Model::default(), &errors);
        assert_eq!(
            report.errors.first().map(ToString::to_string).as_deref(),
            Some("b.yaml#3: cluster east: duplicate, first defined at a.yaml#1")
        );
    }
}
