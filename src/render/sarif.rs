//! `check -o sarif`: the report as SARIF 2.1.0, the format GitHub code scanning uploads.
//! Each finding is a result of one of the [`Rule`]s (errors at level `error`, unsatisfied
//! items at `warning`, as `-o github` annotates them), located at its file and, when known,
//! its line and column. The run's property bag carries what a result list cannot: how many
//! items were checked, whether placements were evaluated, how many documents were skipped.
//!
//! The types below are the part of the SARIF object model fleetplan writes; the tests
//! validate the output against the OASIS schema. (serde-sarif generates the whole model with
//! a build script, a dozen build-time crates for these few structs.)

use super::{json_document, Unrepresentable};
use serde::Serialize;

use crate::baseline::{Entry, State};
use crate::findings::{CheckReport, Finding, Rule};
use crate::load::STDIN_NAME;

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

#[derive(Serialize)]
struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run; 1],
}

#[derive(Serialize)]
struct Run {
    tool: Tool,
    results: Vec<Outcome>,
    properties: RunProperties,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
struct Driver {
    name: &'static str,
    version: &'static str,
    rules: Vec<Descriptor>,
}

/// SARIF's `reportingDescriptor`: one rule.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Descriptor {
    id: &'static str,
    short_description: Message,
    default_configuration: Configuration,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct Message {
    text: String,
}

/// SARIF's `result`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Outcome {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Message,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    locations: Vec<Location>,
    /// With `--baseline`: `new`, `unchanged`, or `absent` for a baseline entry no longer found.
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline_state: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
struct ArtifactLocation {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_column: Option<usize>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RunProperties {
    items: usize,
    placements_evaluated: bool,
    skipped_documents: usize,
}

pub(crate) fn sarif(report: &CheckReport) -> Result<String, Unrepresentable> {
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "fleetplan",
                    version: env!("CARGO_PKG_VERSION"),
                    rules: Rule::ALL
                        .iter()
                        .map(|rule| Descriptor {
                            id: rule.id(),
                            short_description: Message {
                                text: rule.description().to_string(),
                            },
                            default_configuration: Configuration {
                                level: level(*rule),
                            },
                        })
                        .collect(),
                },
            },
            results: report
                .findings()
                .map(outcome)
                .chain(report.resolved.iter().flatten().map(absent))
                .collect(),
            properties: RunProperties {
                items: report.items,
                placements_evaluated: report.placements_evaluated,
                skipped_documents: report.skipped_documents,
            },
        }],
    };
    json_document(&log)
}

fn level(rule: Rule) -> &'static str {
    if rule.is_error() {
        "error"
    } else {
        "warning"
    }
}

/// A baseline entry no finding matched any more: SARIF's `absent` result, which has no
/// location (the entry is what was found, not where).
fn absent(entry: &Entry) -> Outcome {
    let rule = Rule::ALL
        .iter()
        .copied()
        .find(|rule| rule.id() == entry.rule)
        .unwrap_or_default();
    Outcome {
        rule_id: rule.id(),
        rule_index: rule_index(rule),
        level: level(rule),
        message: Message {
            text: format!("{}: in the baseline, no longer found", entry.describe()),
        },
        locations: Vec::new(),
        baseline_state: Some("absent"),
    }
}

fn rule_index(rule: Rule) -> usize {
    Rule::ALL
        .iter()
        .position(|known| *known == rule)
        .unwrap_or_default()
}

fn outcome(finding: &Finding) -> Outcome {
    let mut text = finding.description();
    if let Some(document) = finding.document {
        text.push_str(&format!(" (document {document})"));
    }
    Outcome {
        rule_id: finding.rule.id(),
        rule_index: rule_index(finding.rule),
        level: level(finding.rule),
        message: Message { text },
        // Standard input has no path a code-scanning alert could point at.
        locations: if finding.file == STDIN_NAME {
            Vec::new()
        } else {
            vec![Location {
                physical_location: PhysicalLocation {
                    artifact_location: ArtifactLocation {
                        uri: uri(&finding.file),
                    },
                    region: finding.line.map(|start_line| Region {
                        start_line,
                        start_column: finding.column,
                    }),
                },
            }]
        },
        baseline_state: finding.baseline_state.map(|state| match state {
            State::New => "new",
            State::Unchanged => "unchanged",
        }),
    }
}

/// A path as a URI reference: relative paths stay relative (code scanning resolves them
/// against the checkout) without a leading `./`; absolute ones become `file://` URIs. Bytes
/// other than unreserved characters and `/` are percent-encoded.
fn uri(path: &str) -> String {
    let mut relative = path;
    while let Some(rest) = relative.strip_prefix("./") {
        relative = rest;
    }
    let mut out = String::new();
    if relative.starts_with('/') {
        out.push_str("file://");
    }
    for byte in relative.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_lose_their_dot_slash_and_odd_bytes_are_encoded() {
        assert_eq!(uri("./apps/my app#1.yaml"), "apps/my%20app%231.yaml");
        assert_eq!(uri("/repo/é.yaml"), "file:///repo/%C3%A9.yaml");
    }

    #[test]
    fn a_finding_without_a_line_has_no_region_and_stdin_no_location() {
        let finding = Finding {
            rule: Rule::InvalidObject,
            file: "a.yaml".to_string(),
            message: "m".to_string(),
            ..Finding::default()
        };
        let json = serde_json::to_value(outcome(&finding)).unwrap_or_default();
        assert_eq!(
            json["locations"][0]["physicalLocation"],
            serde_json::json!({"artifactLocation": {"uri": "a.yaml"}})
        );
        let stdin = Finding {
            file: STDIN_NAME.to_string(),
            ..finding
        };
        let json = serde_json::to_value(outcome(&stdin)).unwrap_or_default();
        assert_eq!(json.get("locations"), None);
        assert_eq!(json["ruleId"], "invalid-object");
        assert_eq!(json["ruleIndex"], 2);
    }
}
