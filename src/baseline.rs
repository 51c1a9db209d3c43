//! `check --baseline`: the findings a team has accepted, so a gate adopted on a repository
//! that already has problems fails only on what a change adds.
//!
//! A finding is identified by what it is about and what kind of finding it is, never by where
//! it is: its object (`Kind/namespace/name`; the file, for a finding no object holds), its
//! rule, and the field path or condition and reason that say what is wrong. Lines, documents,
//! messages (which carry counts: "2 cluster decisions unscheduled") and hints are left out, so
//! editing another part of a file, moving an object to another file or growing the fleet does
//! not make a known finding new. This is detekt's choice (an entry is the rule and the
//! signature of the code element, not its line) rather than PHPStan's (the message and the
//! path, with a count), and what SARIF consumers do with `partialFingerprints`; see
//! docs/formats.md, *Baselines*.
//!
//! The file is YAML, its entries sorted and without duplicates, so a regenerated baseline
//! diffs cleanly in review.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::findings::{CheckReport, Finding};

pub(crate) const API_VERSION: &str = "fleetplan.io/v1alpha1";
pub(crate) const KIND: &str = "CheckBaseline";

/// The comment a written baseline starts with.
pub(crate) const HEADER: &str =
    "# Findings `fleetplan check --baseline` reports as known: they do not fail the run.\n\
# Written by `fleetplan check --write-baseline`; an entry is an object (or a file) and the\n\
# kind of finding, never a line. Regenerate it to accept the current findings.\n";

/// The baseline file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Baseline {
    pub api_version: String,
    pub kind: String,
    /// Sorted, each once.
    #[serde(default)]
    pub findings: Vec<Entry>,
}

/// One accepted finding: its identity.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Entry {
    /// `Kind/namespace/name`, when the finding is about an object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    /// The file, only for a finding no object holds (a syntax error, an unreadable path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The rule's id (`unsatisfied`, `item-error`, …).
    pub rule: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Whether a finding was in the baseline: SARIF's `baselineState` values for a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum State {
    /// Not in the baseline: it fails the gate.
    New,
    /// In the baseline: reported as known, it does not change the exit code.
    Unchanged,
}

impl Entry {
    /// The identity of `finding`.
    pub(crate) fn of(finding: &Finding) -> Entry {
        Entry {
            object: finding.object.clone(),
            file: finding.object.is_none().then(|| finding.file.clone()),
            rule: finding.rule.id().to_string(),
            path: finding.path.clone(),
            condition: finding.condition.clone(),
            reason: finding.reason.clone(),
        }
    }

    /// `object: rule: path: condition: reason`, each part when known, for messages.
    pub(crate) fn describe(&self) -> String {
        [
            self.object.as_deref().or(self.file.as_deref()),
            Some(self.rule.as_str()),
            self.path.as_deref(),
            self.condition.as_deref(),
            self.reason.as_deref(),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(": ")
    }
}

impl Baseline {
    /// The baseline accepting every finding of `report`.
    pub(crate) fn of(report: &CheckReport) -> Baseline {
        let entries: BTreeSet<Entry> = report.findings().map(Entry::of).collect();
        Baseline {
            api_version: API_VERSION.to_string(),
            kind: KIND.to_string(),
            findings: entries.into_iter().collect(),
        }
    }

    /// Whether `kind` and `apiVersion` are a baseline's.
    pub(crate) fn check_type(&self) -> Result<(), NotABaseline> {
        if self.api_version == API_VERSION && self.kind == KIND {
            Ok(())
        } else {
            Err(NotABaseline {
                api_version: self.api_version.clone(),
                kind: self.kind.clone(),
            })
        }
    }
}

/// A file given as a baseline that is another kind of document.
#[derive(Debug, thiserror::Error)]
#[error("expected apiVersion {API_VERSION} and kind {KIND}, found {api_version:?} and {kind:?}")]
pub(crate) struct NotABaseline {
    api_version: String,
    kind: String,
}

/// What a baseline makes of a report: each finding's state (errors then unsatisfied, in
/// report order) and the entries no finding matched.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Comparison {
    pub states: Vec<State>,
    /// Baseline entries that no longer occur, sorted.
    pub resolved: Vec<Entry>,
}

/// Compares `report` with `baseline`. `judged(entry)` says whether the run looked at what an
/// entry is about (an item left out by `-l` or item arguments is not resolved, only unseen).
pub(crate) fn compare(
    report: &CheckReport,
    baseline: &Baseline,
    judged: impl Fn(&Entry) -> bool,
) -> Comparison {
    let known: BTreeSet<&Entry> = baseline.findings.iter().collect();
    let found: BTreeSet<Entry> = report.findings().map(Entry::of).collect();
    Comparison {
        states: report
            .findings()
            .map(|finding| {
                if known.contains(&Entry::of(finding)) {
                    State::Unchanged
                } else {
                    State::New
                }
            })
            .collect(),
        resolved: known
            .into_iter()
            .filter(|entry| !found.contains(*entry) && judged(entry))
            .cloned()
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::{CheckResult, Rule};

    fn unsatisfied(object: &str, line: usize, message: &str) -> Finding {
        Finding {
            rule: Rule::Unsatisfied,
            file: "apps/a.yaml".to_string(),
            document: Some(1),
            line: Some(line),
            object: Some(object.to_string()),
            condition: Some("PlacementSatisfied".to_string()),
            reason: Some("NotAllDecisionsScheduled".to_string()),
            message: message.to_string(),
            ..Finding::default()
        }
    }

    fn report(unsatisfied: Vec<Finding>) -> CheckReport {
        CheckReport {
            result: CheckResult::Unsatisfied,
            unsatisfied,
            ..CheckReport::default()
        }
    }

    #[test]
    fn lines_and_messages_do_not_make_a_finding_new() {
        let before = report(vec![unsatisfied("Placement/a/p", 3, "1 unscheduled")]);
        let after = report(vec![
            unsatisfied("Placement/a/p", 40, "2 unscheduled"),
            unsatisfied("Placement/a/q", 3, "1 unscheduled"),
        ]);
        let comparison = compare(&after, &Baseline::of(&before), |_| true);
        assert_eq!(comparison.states, [State::Unchanged, State::New]);
        assert!(comparison.resolved.is_empty());
    }

    #[test]
    fn entries_no_finding_matches_are_resolved_when_judged() {
        let before = report(vec![unsatisfied("Placement/a/p", 3, "m")]);
        let after = report(Vec::new());
        let baseline = Baseline::of(&before);
        assert_eq!(
            compare(&after, &baseline, |_| true).resolved,
            baseline.findings
        );
        assert!(compare(&after, &baseline, |_| false).resolved.is_empty());
    }

    #[test]
    fn entries_are_sorted_and_each_once() {
        let baseline = Baseline::of(&report(vec![
            unsatisfied("Placement/b/p", 1, "m"),
            unsatisfied("Placement/a/p", 2, "m"),
            unsatisfied("Placement/b/p", 3, "other"),
        ]));
        let objects: Vec<_> = baseline
            .findings
            .iter()
            .map(|entry| entry.object.as_deref().unwrap_or_default())
            .collect();
        assert_eq!(objects, ["Placement/a/p", "Placement/b/p"]);
    }
}
