//! `check -o junit`: the report as JUnit XML, the test report GitLab, Jenkins and Azure
//! Pipelines read. One test case per item checked, named `Kind/namespace/name` in a class
//! named after its file; an item error is an `<error>`, an unsatisfied condition a
//! `<failure>`. An input that could not be read has no item, so it gets a test case of its
//! own (named after the object when known, else the file and document) holding its `<error>`.
//! The summary line goes to the suite's `<system-out>`, so a run that validated without
//! evaluating placements says so there too. Times are left out: the output is deterministic.
//!
//! The shape follows the JUnit schema of Jenkins' xUnit plugin (junit-10.xsd), which the
//! tests validate against; it has no file or line attribute, so the location is in the
//! failure's text (`file#document: line L column C: …`).

use std::fmt::Write as _;

use super::check::summary;
use super::escape::{xml_attribute as attribute, xml_text as text};
use crate::findings::{CheckReport, Finding};

/// The name of the test suite (and of the whole report).
const SUITE: &str = "fleetplan check";

/// One test case: an item, or an input with no item; its findings in report order.
struct Case<'a> {
    name: String,
    class: &'a str,
    findings: Vec<&'a Finding>,
}

pub(crate) fn junit(report: &CheckReport) -> String {
    let cases = cases(report);
    let failed = |error: bool| {
        cases
            .iter()
            .filter(|case| {
                case.findings
                    .iter()
                    .any(|f| f.is_new() && f.rule.is_error() == error)
            })
            .count()
    };
    // A case whose findings the baseline all knew is skipped, not failed.
    let skipped = cases
        .iter()
        .filter(|case| !case.findings.is_empty() && case.findings.iter().all(|f| !f.is_new()))
        .count();
    let counts = format!(
        "tests=\"{}\" failures=\"{}\" errors=\"{}\"",
        cases.len(),
        failed(false),
        failed(true)
    );
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(out, "<testsuites name=\"{SUITE}\" {counts}>");
    let _ = writeln!(
        out,
        "  <testsuite name=\"{SUITE}\" {counts} skipped=\"{skipped}\">"
    );
    for case in &cases {
        let _ = write!(
            out,
            "    <testcase name=\"{}\" classname=\"{}\"",
            attribute(&case.name),
            attribute(case.class)
        );
        if case.findings.is_empty() {
            out.push_str("/>\n");
            continue;
        }
        out.push_str(">\n");
        for finding in &case.findings {
            // With a baseline, a known finding is a `<skipped>` and a new one says so.
            let (element, label) = match (report.resolved.is_some(), finding.is_new()) {
                (true, false) => ("skipped", "known (baseline): "),
                (baseline, _) => {
                    let element = if finding.rule.is_error() {
                        "error"
                    } else {
                        "failure"
                    };
                    (element, if baseline { "new: " } else { "" })
                }
            };
            let _ = writeln!(
                out,
                "      <{element} type=\"{}\" message=\"{}\">{}</{element}>",
                finding.rule.id(),
                attribute(&format!("{label}{}", finding.description())),
                text(&finding.to_string())
            );
        }
        out.push_str("    </testcase>\n");
    }
    let _ = writeln!(
        out,
        "    <system-out>{}</system-out>",
        text(summary(report).trim_end())
    );
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// The items checked, each with its findings, then the findings no item holds (inputs that
/// did not load), each its own case.
fn cases(report: &CheckReport) -> Vec<Case<'_>> {
    let findings = || report.findings();
    let mut cases: Vec<Case<'_>> = report
        .checked
        .iter()
        .map(|item| Case {
            name: item.object.clone(),
            class: &item.source.file,
            findings: findings()
                .filter(|finding| finding.object.as_ref() == Some(&item.object))
                .collect(),
        })
        .collect();
    let is_item = |finding: &Finding| {
        report
            .checked
            .iter()
            .any(|item| finding.object.as_ref() == Some(&item.object))
    };
    for finding in findings().filter(|finding| !is_item(finding)) {
        let name = match (&finding.object, finding.document) {
            (Some(object), _) => object.clone(),
            (None, Some(document)) => format!("{}#{document}", finding.file),
            (None, None) => finding.file.clone(),
        };
        cases.push(Case {
            name,
            class: &finding.file,
            findings: vec![finding],
        });
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::{CheckResult, Checked, Rule};
    use crate::model::Source;

    fn source(file: &str) -> Source {
        Source {
            file: file.to_string(),
            document: 1,
            line: None,
        }
    }

    #[test]
    fn each_item_is_a_case_and_an_input_without_item_is_one_too() {
        let report = CheckReport {
            result: CheckResult::Errors,
            items: 1,
            placements_evaluated: true,
            checked: vec![Checked {
                object: "Placement/ns/p".to_string(),
                source: source("a.yaml"),
            }],
            errors: vec![Finding {
                rule: Rule::SyntaxError,
                file: "b.yaml".to_string(),
                document: Some(2),
                line: Some(3),
                message: "bad".to_string(),
                ..Finding::default()
            }],
            ..CheckReport::default()
        };
        assert_eq!(
            junit(&report),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <testsuites name=\"fleetplan check\" tests=\"2\" failures=\"0\" errors=\"1\">\n\
             \x20 <testsuite name=\"fleetplan check\" tests=\"2\" failures=\"0\" errors=\"1\" skipped=\"0\">\n\
             \x20   <testcase name=\"Placement/ns/p\" classname=\"a.yaml\"/>\n\
             \x20   <testcase name=\"b.yaml#2\" classname=\"b.yaml\">\n\
             \x20     <error type=\"syntax-error\" message=\"bad\">b.yaml#2: line 3: bad</error>\n\
             \x20   </testcase>\n\
             \x20   <system-out>1 item checked: 1 error</system-out>\n\
             \x20 </testsuite>\n\
             </testsuites>\n"
        );
    }
}
