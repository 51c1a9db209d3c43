//! `fleetplan check`'s report as text, JSON, GitHub Actions workflow commands or a markdown
//! comment (JUnit and SARIF are beside it); what the findings are is decided in [`crate::findings`].

use super::{json_document, Unrepresentable};
use std::fmt::Write as _;

use super::diff::cap;
use super::escape::{markdown_cell, markdown_code, terminal_line};
use super::workflow::{self, At};
use crate::findings::{CheckReport, CheckResult, Finding};
use crate::verdict::NOT_EVALUATED;

/// One line per finding (with a baseline, per new finding), one per baseline entry that no
/// longer occurs, then a summary line.
pub(crate) fn text(report: &CheckReport) -> String {
    let mut out = String::new();
    for error in report.errors.iter().filter(|f| f.is_new()) {
        let _ = writeln!(out, "error: {}", terminal_line(&error.to_string()));
    }
    for finding in report.unsatisfied.iter().filter(|f| f.is_new()) {
        let _ = writeln!(out, "unsatisfied: {}", terminal_line(&finding.to_string()));
    }
    for entry in report.resolved.iter().flatten() {
        let _ = writeln!(
            out,
            "resolved: {}: in the baseline, no longer found",
            terminal_line(&entry.describe())
        );
    }
    out.push_str(&summary(report));
    out
}

/// The verdict line; then, with a baseline, what it knew and what it lost; then, when
/// walking left documents out, how many.
pub(super) fn summary(report: &CheckReport) -> String {
    let mut line = verdict(report);
    if let Some(resolved) = &report.resolved {
        let (errors, unsatisfied) = report.known();
        let known = errors + unsatisfied;
        line.push_str(&format!(
            "; {known} known (baseline), {} resolved",
            resolved.len()
        ));
    }
    match report.skipped_documents {
        0 => {}
        1 => line.push_str("; 1 document skipped (not a Kubernetes object)"),
        n => line.push_str(&format!("; {n} documents skipped (not Kubernetes objects)")),
    }
    line.push('\n');
    line
}

fn verdict(report: &CheckReport) -> String {
    // With a baseline, what is counted is what is new.
    let new = if report.resolved.is_some() {
        "new "
    } else {
        ""
    };
    let count = |n: usize, what: &str| {
        if n == 1 {
            format!("1 {what}")
        } else {
            format!("{n} {what}s")
        }
    };
    let items = count(report.items, "item");
    let (known_errors, known_unsatisfied) = report.known();
    let errors = report.errors.len() - known_errors;
    let unsatisfied = report.unsatisfied.len() - known_unsatisfied;
    match report.result {
        CheckResult::Clean if known_errors + known_unsatisfied > 0 => {
            let verb = if report.placements_evaluated {
                "checked"
            } else {
                "validated"
            };
            format!("{items} {verb}: no new findings")
        }
        CheckResult::Clean if !report.placements_evaluated => {
            format!("{items} validated, {NOT_EVALUATED}")
        }
        CheckResult::Clean => format!("{items} checked, all satisfied"),
        CheckResult::Errors if report.items == 0 => format!(
            "{}: the inputs could not be read, nothing was checked",
            count(errors, &format!("{new}error"))
        ),
        CheckResult::Errors | CheckResult::Unsatisfied => {
            let mut parts = Vec::new();
            if errors > 0 {
                parts.push(count(errors, &format!("{new}error")));
            }
            if unsatisfied > 0 {
                parts.push(format!("{unsatisfied} {new}unsatisfied"));
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

pub(crate) fn json(report: &CheckReport) -> Result<String, Unrepresentable> {
    json_document(report)
}

/// GitHub Actions workflow commands: `::error` per error and `::warning` per unsatisfied
/// condition, annotating the file (and line when known); then the summary as a plain log line.
/// The annotation carries the location, so the message does not repeat it (a finding on
/// standard input, which annotates no file, keeps it). With a baseline, new findings say
/// so and known ones are `::notice`s, which do not fail a review.
pub(crate) fn github(report: &CheckReport) -> String {
    let mut out = String::new();
    let baseline = report.resolved.is_some();
    for (command, findings) in [("error", &report.errors), ("warning", &report.unsatisfied)] {
        for finding in findings {
            let at = At::input(&finding.file, finding.line, finding.column);
            let mut message = if at.file.is_some() {
                finding.description()
            } else {
                finding.to_string()
            };
            let command = match (baseline, finding.is_new()) {
                (false, _) => command,
                (true, true) => {
                    message.insert_str(0, "new: ");
                    command
                }
                (true, false) => {
                    message.insert_str(0, "known (baseline): ");
                    "notice"
                }
            };
            out.push_str(&workflow::command(command, at, &message));
        }
    }
    for entry in report.resolved.iter().flatten() {
        let message = format!(
            "resolved: {}: in the baseline, no longer found",
            terminal_line(&entry.describe())
        );
        out.push_str(&workflow::command("notice", At::default(), &message));
    }
    out.push_str(&summary(report));
    out
}

/// `-o markdown`: the report as a pull-request comment. A heading with the summary (the line
/// `-o text` ends with), a table of the findings that fail the gate, then, with a baseline,
/// the known findings folded in `<details>` and the entries no longer found. Text from inputs
/// is in code spans ([`markdown_cell`]), so no manifest can inject markdown, and the comment
/// is cut to GitHub's size limit as `diff -o markdown` is.
pub(crate) fn markdown(report: &CheckReport) -> String {
    cap(markdown_uncapped(report), "report", "check")
}

fn markdown_uncapped(report: &CheckReport) -> String {
    let mut out = format!("### fleetplan check: {}", summary(report));
    let baseline = report.resolved.is_some();
    // (what the finding is, the finding), new or known ones, errors first.
    let findings = |new: bool| {
        let (error, unsatisfied) = if baseline && new {
            ("**new** error", "**new** unsatisfied")
        } else {
            ("error", "unsatisfied")
        };
        let errors = report.errors.iter().map(move |finding| (error, finding));
        let unsatisfied = report.unsatisfied.iter().map(move |f| (unsatisfied, f));
        errors
            .chain(unsatisfied)
            .filter(move |(_, finding)| finding.is_new() == new)
    };
    if findings(true).next().is_some() {
        finding_table(&mut out, findings(true));
    }
    let known = findings(false).count();
    if known > 0 {
        let _ = writeln!(
            out,
            "\n<details><summary>{known} known finding{} (baseline): they do not fail the \
             gate</summary>",
            if known == 1 { "" } else { "s" }
        );
        finding_table(&mut out, findings(false));
        out.push_str("\n</details>\n");
    }
    let resolved = report.resolved.as_deref().unwrap_or_default();
    if !resolved.is_empty() {
        out.push_str(
            "\nIn the baseline, no longer found (regenerate it with `--write-baseline`):\n\n",
        );
        for entry in resolved {
            let _ = writeln!(out, "- {}", markdown_code(&entry.describe()));
        }
    }
    out
}

fn finding_table<'f>(out: &mut String, findings: impl Iterator<Item = (&'f str, &'f Finding)>) {
    out.push_str("\n| Finding | Object | Where | What is wrong |\n");
    out.push_str("| --- | --- | --- | --- |\n");
    for (kind, finding) in findings {
        let object = finding.object.as_deref().map(markdown_cell);
        let _ = writeln!(
            out,
            "| {kind} | {} | {} | {} |",
            object.unwrap_or_default(),
            place(finding),
            markdown_cell(&finding.what()),
        );
    }
}

/// `` `FILE#N` line L `` (and `column C` when known): where a finding is.
fn place(finding: &Finding) -> String {
    let file = match finding.document {
        Some(document) => format!("{}#{document}", finding.file),
        None => finding.file.clone(),
    };
    let mut place = markdown_cell(&file);
    if let Some(line) = finding.line {
        let _ = write!(place, " line {line}");
        if let Some(column) = finding.column {
            let _ = write!(place, " column {column}");
        }
    }
    place
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
            resolved: None,
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
            "::warning file=a%2Cb%3Ac.yaml::Placement/ns/p: \
             NotAllDecisionsScheduled: 50%25 done%0Arest\n\
             1 item checked: 1 unsatisfied\n"
        );
    }

    #[test]
    fn markdown_keeps_input_text_in_code_spans() {
        let mut report = unsatisfied("a | b `c`\n# heading");
        if let Some(finding) = report.unsatisfied.first_mut() {
            finding.object = Some("Placement/ns/<img src=x>".to_string());
            finding.line = Some(3);
        }
        assert_eq!(
            markdown(&report),
            "### fleetplan check: 1 item checked: 1 unsatisfied\n\
             \n| Finding | Object | Where | What is wrong |\n\
             | --- | --- | --- | --- |\n\
             | unsatisfied | `Placement/ns/<img src=x>` | `a,b:c.yaml#1` line 3 | \
             `` NotAllDecisionsScheduled: a \\| b `c`\\u{a}# heading `` |\n"
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
