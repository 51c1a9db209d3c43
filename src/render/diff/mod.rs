//! `fleetplan diff`'s change set as text (with a unified diff of the two plans), JSON,
//! markdown for a pull-request comment, or GitHub workflow-command annotations. The wording
//! of one item's changes is `text::change_lines`, shared by every format.

mod github;
mod markdown;
mod paint;
mod text;
mod unified;

use crate::render::{json_document, Unrepresentable};
use std::collections::BTreeMap;

pub(crate) use github::github;
pub(crate) use markdown::cap;
pub(crate) use markdown::markdown;
pub(crate) use text::render_text;

use super::plan::{yaml_pieces, Unwritable, YamlPieces};
use crate::diff::PlanDiff;
use crate::model::Source;
use crate::plan::{ObjectRef, Plan};
use unified::unified_diff;

/// Where each current item was read, by `Kind/namespace/name`: what annotations point at.
pub(crate) type Sources = BTreeMap<String, Source>;

/// The summary, then (when something changed) the unified diff of the two plans' YAML.
pub fn text(
    changes: &PlanDiff,
    previous: &Plan,
    current: &Plan,
    color: bool,
) -> Result<String, Unwritable> {
    let mut text = render_text(changes, color);
    if !changes.is_empty() {
        let (previous_yaml, current_yaml) = (yaml_pieces(previous)?, yaml_pieces(current)?);
        let unified = unified_diff(
            &keyed(previous, &previous_yaml),
            &keyed(current, &current_yaml),
            color,
        );
        if !unified.is_empty() {
            text.push('\n');
            text.push_str(&unified);
        }
    }
    // The last line, under the unified diff, is the one-line summary.
    if !changes.is_empty() || changes.errors > 0 {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&summary(changes));
        text.push('\n');
    }
    Ok(text)
}

/// A plan's YAML pieces, each keyed by its item's source (the head by none), as
/// `unified_diff` matches them.
fn keyed<'p>(
    plan: &'p Plan,
    (head, items): &'p YamlPieces,
) -> Vec<(Option<&'p ObjectRef>, &'p str)> {
    std::iter::once((None, head.as_str()))
        .chain(
            plan.items
                .iter()
                .zip(items)
                .map(|(item, text)| (Some(&item.source), text.as_str())),
        )
        .collect()
}

/// The change set as is (documented in docs/formats.md); `{}` when nothing changed.
pub(crate) fn json(changes: &PlanDiff) -> Result<String, Unrepresentable> {
    json_document(changes)
}

/// `N changed, M added, K removed, E errors` (E: the errors of the current plan's items), or
/// `no changes` when nothing changed and nothing failed.
fn summary(changes: &PlanDiff) -> String {
    if changes.is_empty() && changes.errors == 0 {
        return "no changes".to_string();
    }
    format!(
        "{} changed, {} added, {} removed, {} error{}",
        changes.items_changed.len(),
        changes.items_added.len(),
        changes.items_removed.len(),
        changes.errors,
        if changes.errors == 1 { "" } else { "s" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::compare;
    use crate::diff::ItemChange;
    use crate::plan::PlanItem;
    use crate::render::plan::yaml;
    use crate::testing::{plan, replica_set};

    #[test]
    fn the_summary_counts_every_kind_of_change_and_the_errors() {
        let mut changes = PlanDiff::default();
        assert_eq!(summary(&changes), "no changes");
        changes.items_removed.push(replica_set("a", &[]));
        assert_eq!(summary(&changes), "0 changed, 0 added, 1 removed, 0 errors");
        changes.items_changed = vec![ItemChange::default(), ItemChange::default()];
        changes.errors = 1;
        assert_eq!(summary(&changes), "2 changed, 0 added, 1 removed, 1 error");
        // An unchanged plan whose items fail is no "no changes".
        let failing = PlanDiff {
            errors: 3,
            ..PlanDiff::default()
        };
        assert_eq!(summary(&failing), "0 changed, 0 added, 0 removed, 3 errors");
    }

    /// The unified diff part of `text`'s output between two plans.
    fn unified(previous: &Plan, current: &Plan) -> String {
        let text = text(&compare(previous, current), previous, current, false).unwrap();
        let start = text.find("--- previous\n").expect("a unified diff");
        // Up to the blank line before the summary, which ends the text.
        let end = text.rfind("\n\n").map_or(text.len(), |at| at + 1);
        text[start..end].to_string()
    }

    /// `text` with `diff` applied as `patch` applies it: each hunk's context and removed lines
    /// must be the text's at the hunk's line numbers, and its header must count its lines.
    fn patched(text: &str, diff: &str) -> String {
        fn range(range: &str) -> (usize, usize) {
            let (start, len) = range.split_once(',').unwrap_or((range, "1"));
            (start.parse().unwrap(), len.parse().unwrap())
        }
        let old: Vec<&str> = text.split_inclusive('\n').collect();
        let mut new: Vec<&str> = Vec::new();
        let mut at = 0;
        let mut lines = diff.split_inclusive('\n').skip(2).peekable();
        while let Some(header) = lines.next() {
            let ranges: Vec<&str> = header.split(' ').collect();
            let ((old_start, old_len), (_, new_len)) = (
                range(ranges[1].trim_start_matches('-')),
                range(ranges[2].trim_start_matches('+')),
            );
            // An empty range names the line before it.
            let start = if old_len == 0 {
                old_start
            } else {
                old_start - 1
            };
            new.extend(&old[at..start]);
            at = start;
            let (mut removed, mut added) = (0, 0);
            while let Some(line) = lines.next_if(|line| !line.starts_with("@@")) {
                let (tag, line) = line.split_at(1);
                if tag != "+" {
                    assert_eq!(old[at], line, "line {} of the previous text", at + 1);
                    at += 1;
                    removed += 1;
                }
                if tag != "-" {
                    new.push(line);
                    added += 1;
                }
            }
            assert_eq!((removed, added), (old_len, new_len), "{header}");
        }
        new.extend(&old[at..]);
        new.concat()
    }

    /// Items changed, kept, removed and added all through the plan, so hunks begin and end
    /// in different items and the line numbers of later hunks count every item before them.
    #[test]
    fn the_unified_diff_of_many_items_applies_to_the_previous_plan() {
        let clusters = ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"];
        let item = |n: usize, skip: usize| {
            let kept: Vec<&str> = clusters
                .iter()
                .copied()
                .filter(|c| *c != clusters[skip])
                .collect();
            replica_set(&format!("app-{n:02}"), &kept)
        };
        let previous: Vec<PlanItem> = (0..30).map(|n| item(n, 0)).collect();
        let mut current: Vec<PlanItem> = (0..30)
            .filter(|n| n % 7 != 3)
            .map(|n| item(n, if n % 4 == 1 { n % 8 } else { 0 }))
            .collect();
        current.extend((30..33).map(|n| item(n, 2)));
        current.insert(5, item(99, 1));
        current.sort_by(|a, b| a.source.cmp(&b.source));
        // A hand-edited previous plan, its items in another order, too.
        let mut shuffled = previous.clone();
        shuffled.swap(2, 20);
        for previous in [previous, shuffled] {
            let (previous, current) = (plan(previous), plan(current.clone()));
            let diff = unified(&previous, &current);
            assert_eq!(
                patched(&yaml(&previous).unwrap(), &diff),
                yaml(&current).unwrap()
            );
        }
    }

    /// A hand-edited previous plan may list an item twice: its first copy is diffed with the
    /// current item and the second is shown removed, so the unified diff still turns the
    /// previous YAML into the current one.
    #[test]
    fn an_item_repeated_in_the_previous_plan_has_its_extra_copy_removed() {
        let previous = plan(vec![
            replica_set("a", &["c1"]),
            replica_set("b", &["c1"]),
            replica_set("b", &["c2"]),
        ]);
        let current = plan(vec![replica_set("a", &["c2"]), replica_set("b", &["c1"])]);
        let diff = unified(&previous, &current);
        assert!(diff.contains("-  - c1\n+  - c2\n"), "{diff}");
        // b's first copy is the current b: nothing of b is added.
        assert!(!diff.contains("+  - c1"), "{diff}");
        assert_eq!(
            patched(&yaml(&previous).unwrap(), &diff),
            yaml(&current).unwrap()
        );
    }

    /// Items are matched by key: an item renamed is one removed and one added, never the
    /// same clusters kept under another name (the whole texts' diff changed just the name).
    #[test]
    fn a_renamed_item_is_shown_removed_then_added_whole() {
        let previous = plan(vec![replica_set("old", &["a", "b"])]);
        let current = plan(vec![replica_set("new", &["a", "b"])]);
        let diff = unified(&previous, &current);
        let item = |tag: &str, name: &str| {
            format!(
                "{tag}- source:\n{tag}    apiVersion: apps/v1\n{tag}    kind: ReplicaSet\n\
                 {tag}    namespace: default\n{tag}    name: {name}\n{tag}  clusters:\n\
                 {tag}  - a\n{tag}  - b\n"
            )
        };
        assert_eq!(
            diff,
            format!(
                "--- previous\n+++ current\n@@ -1,11 +1,11 @@\n apiVersion: {}\n kind: Plan\n \
                 items:\n{}{}",
                previous.api_version,
                item("-", "old"),
                item("+", "new")
            )
        );
        assert_eq!(
            patched(&yaml(&previous).unwrap(), &diff),
            yaml(&current).unwrap()
        );
    }
}
