//! `diff -o markdown`: a pull-request comment. The summary first (a heading with the counts,
//! then a table of the items with how many clusters, replicas, groups and conditions moved),
//! then each item's details: a short list as is, a long one folded in `<details>` so that a
//! change touching hundreds of clusters does not bury the rest.

use std::fmt::Write as _;

use super::summary;
use super::text::change_lines;
use crate::diff::{ErrorState, ItemChange, PlanDiff};
use crate::plan::PlanItem;
use crate::render::escape::{html, markdown_cell, markdown_code as code};

/// Details longer than this many lines are folded.
const FOLD_ABOVE: usize = 10;

/// The most characters a comment holds: GitHub refuses a pull-request comment over 65,536.
/// A longer diff is cut to fit, with a note saying so (see [`cap`]).
pub(super) const MAX_COMMENT_CHARS: usize = 65_536;

pub(crate) fn markdown(changes: &PlanDiff) -> String {
    cap(uncapped(changes), "diff", "diff")
}

/// `text` when it fits in a comment; else its first lines (a `<details>` left open is
/// closed), then a note with how much was left out and where the whole `what` (`diff`,
/// `report`) is: what `fleetplan COMMAND` prints as text.
pub(crate) fn cap(text: String, what: &str, command: &str) -> String {
    if text.chars().count() <= MAX_COMMENT_CHARS {
        return text;
    }
    let total = text.lines().count();
    let note = |shown: usize| {
        format!(
            "\n---\n**This {what} is cut to fit a comment**: {shown} of its {total} lines are shown \
             above. The whole {what} is what `fleetplan {command}` prints with the same inputs and \
             `-o text` (or `-o json`), for instance in the job's log.\n"
        )
    };
    // The note for the largest count it could say, and room to close a `<details>`.
    let budget = MAX_COMMENT_CHARS - note(total).chars().count() - "\n</details>\n".len();
    let (mut out, mut used, mut shown, mut open) = (String::new(), 0, 0, 0usize);
    for line in text.lines() {
        let length = line.chars().count() + 1;
        if used + length > budget {
            break;
        }
        used += length;
        shown += 1;
        open += line.matches("<details>").count();
        open = open.saturating_sub(line.matches("</details>").count());
        out.push_str(line);
        out.push('\n');
    }
    for _ in 0..open {
        out.push_str("\n</details>\n");
    }
    out.push_str(&note(shown));
    out
}

fn uncapped(changes: &PlanDiff) -> String {
    let mut out = format!("### fleetplan diff: {}\n", summary(changes));
    if changes.is_empty() {
        return out;
    }
    out.push_str("\n| Item | Change | Clusters | Replica moves | Groups | Conditions |\n");
    out.push_str("| --- | --- | --- | --- | --- | --- |\n");
    for change in &changes.items_changed {
        let groups = change.selection.groups();
        let _ = writeln!(
            out,
            "| {} | {} | +{} −{} | {} | {} | {} |",
            markdown_cell(&change.source.to_string()),
            what_changed(change),
            change.clusters_added.len(),
            change.clusters_removed.len(),
            change.replicas.len(),
            groups,
            change.conditions.len()
        );
    }
    for (item, what) in whole_items(changes) {
        let _ = writeln!(
            out,
            "| {} | {what} | {} | | | |",
            markdown_cell(&item.source.to_string()),
            item.clusters.len()
        );
    }
    for change in &changes.items_changed {
        let lines: Vec<String> = change_lines(change)
            .into_iter()
            .map(|(line, _)| line)
            .collect();
        details(
            &mut out,
            &change.source.to_string(),
            what_changed(change),
            &lines,
        );
    }
    for (item, what) in whole_items(changes) {
        let sign = if what == "added" { "+" } else { "-" };
        let lines: Vec<String> = item
            .clusters
            .iter()
            .map(|cluster| format!("{sign} cluster {cluster}"))
            .collect();
        details(&mut out, &item.source.to_string(), what, &lines);
    }
    out
}

/// `changed`, or for an item that started or stopped failing, which of the two.
fn what_changed(change: &ItemChange) -> &'static str {
    change.error_state.map_or("changed", ErrorState::describe)
}

/// Items added or removed as a whole, with the word the table uses.
fn whole_items(changes: &PlanDiff) -> impl Iterator<Item = (&PlanItem, &'static str)> {
    let added = changes.items_added.iter().map(|item| (item, "added"));
    added.chain(changes.items_removed.iter().map(|item| (item, "removed")))
}

/// The item and what happened to it, then one bullet per line; folded when long.
fn details(out: &mut String, item: &str, what: &str, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    let folded = lines.len() > FOLD_ABOVE;
    if folded {
        let _ = write!(
            out,
            "\n<details><summary><code>{}</code> {what} ({} lines)</summary>\n\n",
            html(item),
            lines.len()
        );
    } else {
        let _ = write!(out, "\n**{}** {what}\n\n", code(item));
    }
    for line in lines {
        let _ = writeln!(out, "- {}", code(line));
    }
    if folded {
        out.push_str("\n</details>\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_longer_than_a_comment_is_cut_with_a_note() {
        let mut text =
            String::from("### fleetplan diff: 1 item changed\n\n<details><summary>x</summary>\n\n");
        text.push_str(&"- `+ cluster c`\n".repeat(10_000));
        text.push_str("\n</details>\n");
        let capped = cap(text, "diff", "diff");
        assert!(
            capped.chars().count() <= MAX_COMMENT_CHARS,
            "{}",
            capped.len()
        );
        assert!(capped.starts_with("### fleetplan diff: 1 item changed\n"));
        assert_eq!(
            capped.matches("<details>").count(),
            capped.matches("</details>").count()
        );
        assert!(capped.contains("**This diff is cut to fit a comment**"));
        assert!(capped.contains("of its 10006 lines are shown"));
        assert_eq!(cap("short\n".to_string(), "diff", "diff"), "short\n");
    }

    #[test]
    fn long_details_are_folded_and_short_ones_are_not() {
        let lines: Vec<String> = (0..11).map(|n| format!("+ cluster c{n}")).collect();
        let mut out = String::new();
        details(&mut out, "P<x>", "changed", &lines);
        assert!(out.starts_with(
            "\n<details><summary><code>P&lt;x&gt;</code> changed (11 lines)</summary>\n\n\
             - `+ cluster c0`\n"
        ));
        assert!(out.ends_with("- `+ cluster c10`\n\n</details>\n"));
        let mut out = String::new();
        details(&mut out, "P", "added", &lines[..2]);
        assert_eq!(
            out,
            "\n**`P`** added\n\n- `+ cluster c0`\n- `+ cluster c1`\n"
        );
    }
}
