//! `fleetplan check`'s report as text, JSON or GitHub Actions workflow commands (JUnit and
//! SARIF are beside it); what the findings are is decided in [`crate::findings`].

use std::fmt::Write as _;

use super::workflow::{self, At};
use crate::findings::{CheckReport, CheckResult};
use crate::verdict::NOT_EVALUATED;

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
pub(super) fn summary(report: &CheckReport) -> String {
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
            let at = At::input(&finding.file, finding.line, finding.column);
            out.push_str(&workflow::command(command, at, &finding.to_string()));
        }
    }
    out.push_str(&summary(report));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::Finding;
    use crate::load::LoadError;
    use crate::model::Model;

    fn unsatisfied(message: &str) -> CheckReport {
        CheckReport {
            result: CheckResult::Unsatisfied,
            items: 1,
            placements_evaluated: true,
            skipped_documents: 0,
            errors: Vec::new(),
            checked: Vec::new(),
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
