//! The human summary of a change set: one block per changed item, one line per added or
//! removed item.

use super::paint::{paint, Colour};
use crate::diff::{ConditionChange, ConditionState, CountChange, ErrorState, ItemChange, PlanDiff};
use crate::registry::Mark;

const INDENT: &str = "    ";

pub(crate) fn render_text(diff: &PlanDiff, color: bool) -> String {
    if diff.is_empty() {
        // The summary says what failed, if anything did.
        return if diff.errors == 0 {
            "no changes\n".to_string()
        } else {
            String::new()
        };
    }
    let mut out = String::new();
    let mut line = |indent: &str, text: &str, colour: Option<Colour>| {
        out.push_str(indent);
        paint(&mut out, text, colour, color);
        out.push('\n');
    };
    for change in &diff.items_changed {
        // An item that started or stopped failing is its own kind of change.
        let (text, colour) = match change.error_state {
            Some(state @ ErrorState::Gained) => (
                format!("! {} ({})", change.source, state.describe()),
                Colour::Removed,
            ),
            Some(state @ ErrorState::Lost) => (
                format!("~ {} ({})", change.source, state.describe()),
                Colour::Added,
            ),
            None => (format!("~ {}", change.source), Colour::Changed),
        };
        line("", &text, Some(colour));
        for (text, colour) in change_lines(change) {
            line(INDENT, &text, colour);
        }
    }
    for item in &diff.items_added {
        let text = format!("+ {} (new item)", item.source);
        line("", &text, Some(Colour::Added));
    }
    for item in &diff.items_removed {
        let text = format!("- {} (item removed)", item.source);
        line("", &text, Some(Colour::Removed));
    }
    out
}

/// What changed in one item, a line each (`+ cluster east`, `replicas: east 1 → 2`), with the
/// colour a terminal shows it in: the wording every diff format shares.
pub(super) fn change_lines(change: &ItemChange) -> Vec<(String, Option<Colour>)> {
    let mut lines = Vec::new();
    let mut line = |text: String, colour: Option<Colour>| lines.push((text, colour));
    for cluster in &change.clusters_added {
        line(format!("+ cluster {cluster}"), Some(Colour::Added));
    }
    for cluster in &change.clusters_removed {
        line(format!("- cluster {cluster}"), Some(Colour::Removed));
    }
    if !change.replicas.is_empty() {
        line(format!("replicas: {}", counts(&change.replicas)), None);
    }
    if !change.overflow.is_empty() {
        line(format!("overflow: {}", counts(&change.overflow)), None);
    }
    let api_colour = |mark: Option<Mark>| {
        mark.map(|mark| match mark {
            Mark::Added => Colour::Added,
            Mark::Removed => Colour::Removed,
        })
    };
    for (text, mark) in change.selection.lines() {
        line(text, api_colour(mark));
    }
    for condition in &change.conditions {
        line(condition_line(condition), None);
    }
    for (text, mark) in change.apis.lines() {
        line(text, api_colour(mark));
    }
    for error in &change.errors_added {
        line(format!("+ error: {error}"), Some(Colour::Added));
    }
    for error in &change.errors_removed {
        line(format!("- error: {error}"), Some(Colour::Removed));
    }
    lines
}

const NONE: &str = "(none)";

fn counts(changes: &[CountChange]) -> String {
    let parts: Vec<String> = changes
        .iter()
        .map(|change| format!("{} {} → {}", change.cluster, change.before, change.after))
        .collect();
    parts.join(", ")
}

/// `Type: status/reason → status/reason`; when only the message moved, the messages.
fn condition_line(change: &ConditionChange) -> String {
    let state = |state: &Option<ConditionState>| match state {
        Some(state) => format!("{}/{}", state.status, state.reason),
        None => NONE.to_string(),
    };
    let (before, after) = (state(&change.before), state(&change.after));
    match (&change.before, &change.after) {
        (Some(previous), Some(current)) if before == after => format!(
            "{}: {before}, message {:?} → {:?}",
            change.type_, previous.message, current.message
        ),
        _ => format!("{}: {before} → {after}", change.type_),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::compare;
    use crate::model::ConditionStatus;
    use crate::plan::PlanItem;
    use crate::testing::{
        condition_message_moved, group, plan, replica_set, source, with_condition, with_replicas,
    };

    fn frontend_diff() -> PlanDiff {
        let previous = with_condition(
            with_replicas(
                replica_set("frontend", &["A", "B", "C"]),
                &[("A", 16), ("B", 17), ("C", 17)],
            ),
            "PlacementSatisfied",
            ConditionStatus::True,
            "AllDecisionsScheduled",
            "",
        );
        let current = with_condition(
            with_replicas(
                replica_set("frontend", &["A", "B", "D"]),
                &[("A", 20), ("B", 17), ("D", 13)],
            ),
            "PlacementSatisfied",
            ConditionStatus::False,
            "NotAllDecisionsScheduled",
            "",
        );
        let placement = PlanItem {
            source: source(
                "cluster.open-cluster-management.io/v1beta1",
                "Placement",
                Some("ns1"),
                "placement2",
            ),
            ..PlanItem::default()
        };
        let mut old = replica_set("old", &["A"]);
        old.source.kind = "Deployment".to_string();
        compare(&plan(vec![previous, old]), &plan(vec![current, placement]))
    }

    #[test]
    fn an_empty_change_set_says_no_changes() {
        assert_eq!(render_text(&PlanDiff::default(), true), "no changes\n");
    }

    #[test]
    fn changed_items_come_first_then_added_then_removed() {
        assert_eq!(
            render_text(&frontend_diff(), false),
            "~ ReplicaSet/default/frontend\n\
             \x20   + cluster D\n\
             \x20   - cluster C\n\
             \x20   replicas: A 16 → 20, C 17 → 0, D 0 → 13\n\
             \x20   PlacementSatisfied: True/AllDecisionsScheduled → False/NotAllDecisionsScheduled\n\
             + Placement/ns1/placement2 (new item)\n\
             - Deployment/default/old (item removed)\n"
        );
    }

    #[test]
    fn colour_marks_changed_added_and_removed_lines() {
        let text = render_text(&frontend_diff(), true);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines.first(),
            Some(&"\x1b[33m~ ReplicaSet/default/frontend\x1b[0m")
        );
        assert_eq!(lines.get(1), Some(&"    \x1b[32m+ cluster D\x1b[0m"));
        assert_eq!(lines.get(2), Some(&"    \x1b[31m- cluster C\x1b[0m"));
        assert_eq!(
            lines.get(3),
            Some(&"    replicas: A 16 → 20, C 17 → 0, D 0 → 13")
        );
        assert_eq!(
            lines.get(5),
            Some(&"\x1b[32m+ Placement/ns1/placement2 (new item)\x1b[0m")
        );
        assert_eq!(
            lines.get(6),
            Some(&"\x1b[31m- Deployment/default/old (item removed)\x1b[0m")
        );
    }

    #[test]
    fn without_colour_there_are_no_escape_sequences() {
        assert!(!render_text(&frontend_diff(), false).contains('\x1b'));
    }

    #[test]
    fn overflow_groups_changes_at_and_errors_each_get_a_line() {
        let mut previous = replica_set("p", &["A", "B"]);
        previous.overflow.insert("B".to_string(), 4);
        previous.selection.ocm.groups = vec![group(0, "canary", &["A"]), group(1, "rest", &["B"])];
        previous.api.ocm.changes_at = Some("2026-01-01T00:00:00Z".to_string());
        previous.errors = vec!["old problem".to_string()];
        let mut current = replica_set("p", &["A", "B"]);
        current.selection.ocm.groups = vec![
            group(0, "first", &["A", "B"]),
            group(2, "late", &["C", "D"]),
        ];
        current.errors = vec!["new problem".to_string()];
        let diff = compare(&plan(vec![previous]), &plan(vec![current]));
        assert_eq!(
            render_text(&diff, false),
            "~ ReplicaSet/default/p\n\
             \x20   overflow: B 4 → 0\n\
             \x20   + group 2 late: C, D\n\
             \x20   - group 1 rest: B\n\
             \x20   group 0 first (was canary): + B\n\
             \x20   changesAt: 2026-01-01T00:00:00Z → (none)\n\
             \x20   + error: new problem\n\
             \x20   - error: old problem\n"
        );
    }

    #[test]
    fn an_unnamed_group_is_shown_by_its_index() {
        let mut previous = replica_set("p", &["A"]);
        previous.selection.ocm.groups = vec![group(0, "", &["A"])];
        let mut current = replica_set("p", &["A"]);
        current.selection.ocm.groups = vec![group(0, "", &[]), group(1, "", &["A"])];
        let diff = compare(&plan(vec![previous]), &plan(vec![current]));
        assert_eq!(
            render_text(&diff, false),
            "~ ReplicaSet/default/p\n    + group 1: A\n    group 0: - A\n"
        );
    }

    #[test]
    fn a_condition_whose_message_alone_changed_shows_the_messages() {
        let (previous, current) = condition_message_moved();
        let diff = compare(&plan(vec![previous]), &plan(vec![current]));
        assert_eq!(
            render_text(&diff, false),
            "~ ReplicaSet/default/p\n    PlacementSatisfied: True/R, message \"2 clusters\" → \"3 clusters\"\n"
        );
    }

    #[test]
    fn a_condition_that_disappeared_shows_none() {
        let previous = with_condition(
            replica_set("p", &["A"]),
            "PlacementSatisfied",
            ConditionStatus::True,
            "R",
            "",
        );
        let diff = compare(&plan(vec![previous]), &plan(vec![replica_set("p", &["A"])]));
        assert_eq!(
            render_text(&diff, false),
            "~ ReplicaSet/default/p\n    PlacementSatisfied: True/R → (none)\n"
        );
    }
}
