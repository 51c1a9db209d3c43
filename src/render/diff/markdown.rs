//! `diff -o markdown`: a pull-request comment. The summary first (a heading with the counts,
//! then a table of the items with how many clusters, replicas, groups and conditions moved),
//! then each item's details: a short list as is, a long one folded in `<details>` so that a
//! change touching hundreds of clusters does not bury the rest.

use std::fmt::Write as _;

use super::summary;
use super::text::change_lines;
use crate::diff::PlanDiff;
use crate::plan::PlanItem;
use crate::render::escape::{html, markdown_cell, markdown_code as code};

/// Details longer than this many lines are folded.
const FOLD_ABOVE: usize = 10;

pub fn markdown(changes: &PlanDiff) -> String {
    let mut out = format!("### fleetplan diff: {}\n", summary(changes));
    if changes.is_empty() {
        return out;
    }
    out.push_str("\n| Item | Change | Clusters | Replica moves | Groups | Conditions |\n");
    out.push_str("| --- | --- | --- | --- | --- | --- |\n");
    for change in &changes.items_changed {
        let groups =
            change.groups_added.len() + change.groups_removed.len() + change.groups_changed.len();
        let _ = writeln!(
            out,
            "| {} | changed | +{} −{} | {} | {} | {} |",
            markdown_cell(&change.source.to_string()),
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
        details(&mut out, &change.source.to_string(), "changed", &lines);
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
