//! `fleetplan diff`'s change set as text (with a unified diff of the two plans), JSON,
//! markdown for a pull-request comment, or GitHub workflow-command annotations. The wording
//! of one item's changes is `text::change_lines`, shared by every format.

mod github;
mod markdown;
mod paint;
mod text;
mod unified;

use std::collections::BTreeMap;

pub use github::github;
pub use markdown::markdown;
pub use text::render_text;
pub use unified::unified_yaml_diff;

use super::plan::ItemError;
use crate::diff::PlanDiff;
use crate::model::Source;
use crate::plan::Plan;

/// Where each current item was read, by `Kind/namespace/name`: what annotations point at.
pub type Sources = BTreeMap<String, Source>;

/// The summary, then (when something changed) the unified diff of the two plans' YAML.
pub fn text(
    changes: &PlanDiff,
    previous: &Plan,
    current: &Plan,
    color: bool,
) -> Result<String, ItemError> {
    let mut text = render_text(changes, color);
    if !changes.is_empty() {
        let unified = unified_yaml_diff(
            &super::plan::yaml(previous)?,
            &super::plan::yaml(current)?,
            color,
        );
        if !unified.is_empty() {
            text.push('\n');
            text.push_str(&unified);
        }
    }
    Ok(text)
}

/// The change set as is (documented in docs/formats.md); `{}` when nothing changed.
pub fn json(changes: &PlanDiff) -> String {
    // Plain structs of strings, integers and maps always serialize.
    let mut text = serde_json::to_string_pretty(changes).unwrap_or_default();
    text.push('\n');
    text
}

/// `2 items changed, 1 added, 1 removed` (zero counts left out), or `no changes`.
fn summary(changes: &PlanDiff) -> String {
    let counts = [
        (changes.items_changed.len(), "changed"),
        (changes.items_added.len(), "added"),
        (changes.items_removed.len(), "removed"),
    ];
    let parts: Vec<String> = counts
        .iter()
        .filter(|(count, _)| *count > 0)
        .enumerate()
        .map(|(index, (count, what))| match (index, count) {
            (0, 1) => format!("1 item {what}"),
            (0, _) => format!("{count} items {what}"),
            _ => format!("{count} {what}"),
        })
        .collect();
    if parts.is_empty() {
        "no changes".to_string()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::ItemChange;
    use crate::testing::replica_set;

    #[test]
    fn the_summary_names_items_once_and_leaves_out_zero_counts() {
        let mut changes = PlanDiff::default();
        assert_eq!(summary(&changes), "no changes");
        changes.items_removed.push(replica_set("a", &[]));
        assert_eq!(summary(&changes), "1 item removed");
        changes.items_changed = vec![ItemChange::default(), ItemChange::default()];
        assert_eq!(summary(&changes), "2 items changed, 1 removed");
    }
}
