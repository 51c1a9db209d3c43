//! `fleetplan check`'s report: every input error, every item error and every unsatisfied
//! item, as text, JSON or GitHub Actions workflow commands.

use std::fmt::{self, Write as _};

use serde::Serialize;

use crate::load::LoadError;
use crate::model::{Model, Source};
use crate::plan::PlanOutcome;
use crate::verdict::NOT_EVALUATED;

/// What `check` found; `-o json` serializes it as is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckReport {
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
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum CheckResult {
    /// Everything valid and satisfied.
    #[default]
    Clean,
    /// Some input or item has an error.
    Errors,
    /// Everything is valid, but some item is unsatisfied.
    Unsatisfied,
}

/// One problem, with where it is as far as it is known.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
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
        for part in [&self.object, &self.path, &self.reason]
            .into_iter()
            .flatten()
        {
            write!(f, ": {part}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl CheckReport {
    /// A report that starts with the inputs' errors (each file's, in input order); the
    /// objects that did load are checked next.
    pub fn new(model: &Model, load_errors: &[LoadError]) -> CheckReport {
        let mut report = CheckReport {
            skipped_documents: model.not_objects.len(),
            errors: load_errors.iter().map(load_finding).collect(),
            ..CheckReport::default()
        };
        report.conclude();
        report
    }

    /// Adds a plan of `model`: its item errors, else its unsatisfied conditions.
    pub fn planned(mut self, model: &Model, outcome: &PlanOutcome) -> CheckReport {
        self.items = outcome.plan.items.len();
        self.placements_evaluated = true;
        // plan::build keeps the model's workload order: item i plans workload i.
        for (workload, item) in model.workloads.iter().zip(&outcome.plan.items) {
            let finding = || Finding {
                object: Some(workload.object.to_string()),
                ..Finding::at(&workload.source)
            };
            if !item.errors.is_empty() {
                self.errors.extend(item.errors.iter().map(|error| Finding {
                    message: error.clone(),
                    ..finding()
                }));
                continue;
            }
            self.unsatisfied
                .extend(item.problems().map(|condition| Finding {
                    condition: Some(condition.type_.clone()),
                    reason: Some(condition.reason.clone()),
                    message: condition.message.clone(),
                    ..finding()
                }));
        }
        self.conclude();
        self
    }

    /// `--manifests-only`: `model`'s workloads were read and validated, not planned.
    pub fn validated(mut self, model: &Model) -> CheckReport {
        self.items = model.workloads.len();
        self.placements_evaluated = false;
        self.conclude();
        self
    }

    fn conclude(&mut self) {
        self.result = if !self.errors.is_empty() {
            CheckResult::Errors
        } else if !self.unsatisfied.is_empty() {
            CheckResult::Unsatisfied
        } else {
            CheckResult::Clean
        };
    }
}

fn load_finding(error: &LoadError) -> Finding {
    match error {
        LoadError::Input { path, message } => Finding {
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
            object: object.clone(),
            path: (!path.is_empty()).then(|| path.clone()),
            message: message.clone(),
            ..Finding::at(at)
        },
        LoadError::Duplicate { at, object, first } => Finding {
            object: Some(object.clone()),
            message: format!("duplicate, first defined at {first}"),
            ..Finding::at(at)
        },
    }
}

/// One line per finding, then a summary line.
pub fn text(report: &CheckReport) -> String {
    let mut out = String::new();
    for error in &report.errors {
        let _ = writeln!(out, "error: {error}");
    }
    for finding in &report.unsatisfied {
        let _ = writeln!(out, "unsatisfied: {finding}");
    }
    out.push_str(&summary(report));
    out
}

/// The verdict line; then, when walking left documents out, how many.
fn summary(report: &CheckReport) -> String {
    let mut line = verdict(report);
    match report.skipped_documents {
        0 => {}
        1 => line.push_str("; 1 document skipped (not a Kubernetes object)"),
        n => line.push_str(&format!("; {n} documents skipped (not Kubernetes objects)")),
    }
    line.push('\n');
    line
}

fn verdict(report: &CheckReport) -> String {
    let count = |n: usize, what: &str| {
        if n == 1 {
            format!("1 {what}")
        } else {
            format!("{n} {what}s")
        }
    };
    let items = count(report.items, "item");
    match report.result {
        CheckResult::Clean if !report.placements_evaluated => {
            format!("{items} validated, {NOT_EVALUATED}")
        }
        CheckResult::Clean => format!("{items} checked, all satisfied"),
        CheckResult::Errors if report.items == 0 => format!(
            "{}: the inputs could not be read, nothing was checked",
            count(report.errors.len(), "error")
        ),
        CheckResult::Errors | CheckResult::Unsatisfied => {
            let mut parts = Vec::new();
            if !report.errors.is_empty() {
                parts.push(count(report.errors.len(), "error"));
            }
            if !report.unsatisfied.is_empty() {
                parts.push(format!("{} unsatisfied", report.unsatisfied.len()));
            }
            let verb = if report.placements_evaluated {
                "checked"
            } else {
                "validated"
            };
            format!("{items} {verb}: {}", parts.join(", "))
        }
    }
}

pub fn json(report: &CheckReport) -> String {
    // Plain structs of strings and integers always serialize.
    let mut text = serde_json::to_string_pretty(report).unwrap_or_default();
    text.push('\n');
    text
}

/// GitHub Actions workflow commands: `::error` per error and `::warning` per unsatisfied
/// condition, annotating the file (and line when known); then the summary as a plain log line.
pub fn github(report: &CheckReport) -> String {
    let mut out = String::new();
    for (command, findings) in [("error", &report.errors), ("warning", &report.unsatisfied)] {
        for finding in findings {
            let mut properties = format!("file={}", escape_property(&finding.file));
            if let Some(line) = finding.line {
                let _ = write!(properties, ",line={line}");
                if let Some(column) = finding.column {
                    let _ = write!(properties, ",col={column}");
                }
            }
            let message = escape_data(&finding.to_string());
            let _ = writeln!(out, "::{command} {properties}::{message}");
        }
    }
    out.push_str(&summary(report));
    out
}

/// The escaping of actions/toolkit's `command.ts`: data escapes `%`, CR and LF.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Property values also escape the `:` and `,` that delimit properties.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unsatisfied(message: &str) -> CheckReport {
        CheckReport {
            result: CheckResult::Unsatisfied,
            items: 1,
            placements_evaluated: true,
            skipped_documents: 0,
            errors: Vec::new(),
            unsatisfied: vec![Finding {
                object: Some("Placement/ns/p".to_string()),
                condition: Some("PlacementSatisfied".to_string()),
                reason: Some("NotAllDecisionsScheduled".to_string()),
                message: message.to_string(),
                file: "a,b:c.yaml".to_string(),
                document: Some(1),
                ..Finding::default()
            }],
        }
    }

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
    fn an_unreadable_path_has_no_document() {
        let errors = [LoadError::input("gone.yaml", "no such file or directory")];
        let report = CheckReport::new(&Model::default(), &errors);
        assert_eq!(
            text(&report),
            "error: gone.yaml: no such file or directory\n\
             1 error: the inputs could not be read, nothing was checked\n"
        );
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

    #[test]
    fn one_clean_item_is_singular() {
        let report = CheckReport {
            items: 1,
            placements_evaluated: true,
            ..CheckReport::default()
        };
        assert_eq!(text(&report), "1 item checked, all satisfied\n");
    }

    #[test]
    fn errors_and_unsatisfied_are_both_counted() {
        let mut report = unsatisfied("m");
        report.result = CheckResult::Errors;
        report.errors = vec![Finding::default(), Finding::default()];
        assert_eq!(
            summary(&report),
            "1 item checked: 2 errors, 1 unsatisfied\n"
        );
    }

    #[test]
    fn github_escapes_property_delimiters_in_the_file_and_newlines_in_the_message() {
        assert_eq!(
            github(&unsatisfied("50% done\nrest")),
            "::warning file=a%2Cb%3Ac.yaml::a,b:c.yaml#1: Placement/ns/p: \
             NotAllDecisionsScheduled: 50%25 done%0Arest\n\
             1 item checked: 1 unsatisfied\n"
        );
    }

    #[test]
    fn github_gives_a_column_only_with_a_line() {
        let mut report = unsatisfied("m");
        if let Some(finding) = report.unsatisfied.first_mut() {
            finding.column = Some(4);
        }
        assert!(github(&report).starts_with("::warning file=a%2Cb%3Ac.yaml::"));
    }
}
