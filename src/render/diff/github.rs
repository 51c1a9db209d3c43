//! `diff -o github`: one workflow-command annotation per changed, added or removed item, on
//! the file (and line, when known) the item was read from, then the summary as a log line.
//! Changes are notices; an item that gained errors (or is new with errors) is an error. A removed item is no longer
//! in any input, so its annotation has no file.

use super::text::change_lines;
use super::{summary, Sources};
use crate::diff::PlanDiff;
use crate::model::ClusterNames;
use crate::plan::ObjectRef;
use crate::render::workflow::{self, At};

pub(crate) fn github(changes: &PlanDiff, sources: &Sources) -> String {
    let at = |item: &ObjectRef| {
        sources
            .get(&item.to_string())
            .map_or(At::default(), |source| {
                At::input(&source.file, source.line, None)
            })
    };
    let mut out = String::new();
    for change in &changes.items_changed {
        let what = change
            .error_state
            .map_or("changed", |state| state.describe());
        let mut message = format!("{} {what}", change.source);
        for (line, _) in change_lines(change) {
            message.push('\n');
            message.push_str(&line);
        }
        let command = level(&change.errors_added);
        out.push_str(&workflow::command(command, at(&change.source), &message));
    }
    for item in &changes.items_added {
        let mut message = format!("{} (new item): {}", item.source, clusters(&item.clusters));
        for error in &item.errors {
            message.push_str("\nerror: ");
            message.push_str(error);
        }
        out.push_str(&workflow::command(
            level(&item.errors),
            at(&item.source),
            &message,
        ));
    }
    for item in &changes.items_removed {
        let message = format!(
            "{} (item removed): was on {}",
            item.source,
            clusters(&item.clusters)
        );
        out.push_str(&workflow::command("notice", At::default(), &message));
    }
    out.push_str(&summary(changes));
    out.push('\n');
    out
}

/// A change is a notice; errors it brings make it an error.
fn level(errors: &[String]) -> &'static str {
    if errors.is_empty() {
        "notice"
    } else {
        "error"
    }
}

fn clusters(names: &ClusterNames) -> String {
    match names.len() {
        0 => "no clusters".to_string(),
        1 => format!("1 cluster ({})", names.join(", ")),
        n => format!("{n} clusters ({})", names.join(", ")),
    }
}
