//! Plans as JSON, YAML and a per-item table.

use std::fmt::Write as _;

use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter};

use super::table;
use crate::parallel;
use crate::placement::groups;
use crate::placement::PlacementResult;
use crate::plan::{ItemTrace, Plan, PlanItem, PlanOutcome};
use crate::replicas::{PreferenceSource, ReplicaTrace};

/// The Plan as indented JSON: byte for byte serde_json's rendering of the whole document, but
/// the items (tens of megabytes for 10k placements over 100k clusters) are rendered on every
/// core and joined in order.
pub fn json(plan: &Plan) -> String {
    let head = Plan {
        api_version: plan.api_version.clone(),
        kind: plan.kind.clone(),
        items: Vec::new(),
    };
    // Plain structs of strings, integers and maps always serialize.
    let mut text = serde_json::to_string_pretty(&head).unwrap_or_default();
    // `items` is the document's last field: `"items": []` then the closing brace.
    const NO_ITEMS: &str = "[]\n}";
    if !plan.items.is_empty() && text.ends_with(NO_ITEMS) {
        let items = parallel::map_in_order(&plan.items, item_json);
        text.truncate(text.len() - NO_ITEMS.len());
        text.reserve(
            items
                .iter()
                .map(|item| item.len() + ITEM_SEPARATOR.len())
                .sum::<usize>()
                + 8,
        );
        text.push('[');
        for (index, item) in items.iter().enumerate() {
            if index > 0 {
                text.push(',');
            }
            text.push_str(ITEM_SEPARATOR);
            text.push_str(item);
        }
        text.push_str("\n  ]\n}");
    }
    text.push('\n');
    text
}

/// What precedes an item in the `items` list: a new line at its depth.
const ITEM_SEPARATOR: &str = "\n    ";

/// One item as serde_json writes it inside the document, two levels deep (the document's
/// mapping and its `items` list), so every line carries the whole document's indentation.
fn item_json(item: &PlanItem) -> String {
    let mut formatter = PrettyFormatter::new();
    for _ in 0..2 {
        // Only the depth counts: what a begun list writes goes nowhere.
        let _ = formatter.begin_array(&mut std::io::sink());
    }
    let mut bytes = Vec::new();
    let _ = item.serialize(&mut serde_json::Serializer::with_formatter(
        &mut bytes, formatter,
    ));
    // serde_json writes only valid UTF-8.
    String::from_utf8(bytes).unwrap_or_default()
}

pub fn yaml(plan: &Plan) -> String {
    crate::yaml11::to_string(plan).unwrap_or_default()
}

/// `Kind/namespace/name` (or `Kind/name`) per item, one a line.
pub fn names(plan: &Plan) -> String {
    plan.items
        .iter()
        .map(|item| format!("{}\n", item.source))
        .collect()
}

/// One block per item: a heading with its state, its clusters, then what is unsatisfied.
/// Blocks are rendered on every core (10k placements make a million rows) and joined in order.
pub fn table(outcome: &PlanOutcome, width: Option<u16>) -> String {
    let items: Vec<(&PlanItem, &ItemTrace)> =
        outcome.plan.items.iter().zip(&outcome.traces).collect();
    parallel::map_in_order(&items, |(item, trace)| item_block(item, trace, width)).join("\n")
}

fn item_block(item: &PlanItem, trace: &ItemTrace, width: Option<u16>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", heading(item));
    let (header, rows) = match trace {
        ItemTrace::Replicas { planner, .. } => replica_rows(item, planner),
        ItemTrace::Placement(result) => placement_rows(item, result),
        ItemTrace::Selection(_) | ItemTrace::PlacementRule(_) => cluster_rows(item),
        ItemTrace::Karmada(_) => karmada_rows(item),
        ItemTrace::Failed => (Vec::new(), Vec::new()),
    };
    if !rows.is_empty() {
        out.push_str(&indent(&table::render(header, rows, width)));
    }
    for error in &item.errors {
        let _ = writeln!(out, "  error: {error}");
    }
    for condition in item.problems() {
        let _ = writeln!(out, "  {}: {}", condition.reason, condition.message);
    }
    out
}

fn indent(text: &str) -> String {
    text.lines().map(|line| format!("  {line}\n")).collect()
}

fn heading(item: &PlanItem) -> String {
    let source = &item.source;
    let name = source;
    let state = if !item.errors.is_empty() {
        "error".to_string()
    } else {
        let clusters = match item.clusters.len() {
            1 => "1 cluster".to_string(),
            n => format!("{n} clusters"),
        };
        if item.problems().next().is_some() {
            format!("{clusters}, unsatisfied")
        } else {
            clusters
        }
    };
    format!("{name} ({}): {state}", source.api_version)
}

type Rows = (Vec<String>, Vec<Vec<String>>);

fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|name| name.to_string()).collect()
}

/// Each cluster of the binding with its replicas, after the claiming policy.
fn karmada_rows(item: &PlanItem) -> Rows {
    let rows = item
        .clusters
        .iter()
        .map(|cluster| {
            vec![
                cluster.to_string(),
                item.replicas.get(cluster).copied().unwrap_or(0).to_string(),
                item.policy.clone().unwrap_or_default(),
            ]
        })
        .collect();
    (header(&["CLUSTER", "REPLICAS", "POLICY"]), rows)
}

fn cluster_rows(item: &PlanItem) -> Rows {
    let rows = item.clusters.iter().map(|c| vec![c.to_string()]).collect();
    (header(&["CLUSTER"]), rows)
}

/// Each cluster that took part, with its replicas, overflow and the preference it used.
fn replica_rows(item: &PlanItem, trace: &ReplicaTrace) -> Rows {
    let mut clusters: Vec<_> = trace
        .clusters
        .iter()
        .filter(|cluster| cluster.source != PreferenceSource::None)
        .collect();
    clusters.sort_by(|a, b| a.cluster.cmp(b.cluster));
    let mut rows: Vec<Vec<String>> = clusters
        .into_iter()
        .map(|cluster| {
            let prefs = &cluster.preferences;
            vec![
                cluster.cluster.to_string(),
                item.replicas
                    .get(cluster.cluster)
                    .copied()
                    .unwrap_or(0)
                    .to_string(),
                item.overflow
                    .get(cluster.cluster)
                    .map_or_else(String::new, i64::to_string),
                prefs.min_replicas.to_string(),
                prefs
                    .max_replicas
                    .map_or_else(|| "-".to_string(), |max| max.to_string()),
                prefs.weight.to_string(),
                match cluster.source {
                    PreferenceSource::Own => "own".to_string(),
                    _ if trace.defaulted => "* (default)".to_string(),
                    _ => "*".to_string(),
                },
            ]
        })
        .collect();
    let assigned: i64 = item.replicas.values().sum();
    let unassigned = trace.total.saturating_sub(assigned);
    if unassigned > 0 {
        rows.push(vec!["(unassigned)".to_string(), unassigned.to_string()]);
    }
    let names = [
        "CLUSTER",
        "REPLICAS",
        "OVERFLOW",
        "MIN",
        "MAX",
        "WEIGHT",
        "PREFERENCE",
    ];
    (header(&names), rows)
}

/// Selected clusters with their score, rank, decision group and PlacementDecision object.
fn placement_rows(item: &PlanItem, result: &PlacementResult) -> Rows {
    let placed = groups::placed(&result.decisions);
    let rows = item
        .clusters
        .iter()
        .map(|cluster| {
            let ranked = result
                .selected
                .binary_search(cluster)
                .ok()
                .and_then(|position| result.scores.get(position));
            match (ranked, placed.get(cluster)) {
                (Some(ranked), Some(placed)) => vec![
                    cluster.to_string(),
                    ranked.total.to_string(),
                    ranked.rank.to_string(),
                    group_label(placed.group_index, placed.group_name),
                    placed.decision.to_string(),
                ],
                _ => vec![cluster.to_string()],
            }
        })
        .collect();
    (
        header(&["CLUSTER", "SCORE", "RANK", "GROUP", "DECISION"]),
        rows,
    )
}

fn group_label(index: usize, name: &str) -> String {
    if name.is_empty() {
        index.to_string()
    } else {
        format!("{index} ({name})")
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::plan::{Condition, Group, ItemSource};

    fn item(name: &str, namespace: Option<&str>) -> PlanItem {
        PlanItem {
            source: ItemSource {
                api_version: "apps/v1".into(),
                kind: "Deployment".into(),
                namespace: namespace.map(str::to_string),
                name: name.into(),
            },
            ..PlanItem::default()
        }
    }

    /// The items rendered apart and joined must be the whole document's rendering, for every
    /// field an item can carry and for no item at all.
    #[test]
    fn json_is_serde_jsons_rendering_of_the_whole_plan() {
        let mut full = item("web", Some("prod"));
        full.clusters = vec!["a".to_string(), "b \"quoted\" é".to_string()].into();
        full.replicas = BTreeMap::from([("a".into(), 3), ("b".into(), 0)]);
        full.overflow = BTreeMap::from([("a".into(), 1)]);
        full.groups = vec![Group {
            name: "canary".into(),
            index: 0,
            clusters: vec!["a".to_string()].into(),
        }];
        full.conditions = vec![Condition {
            type_: "PlacementSatisfied".into(),
            status: "True".into(),
            reason: "AllDecisionsScheduled".into(),
            message: "line\nbreak".into(),
        }];
        full.changes_at = Some("2026-06-01T00:00:00Z".into());
        let mut failed = item("broken", None);
        failed.errors = vec!["no clusters".into()];
        let many: Vec<PlanItem> = (0..700)
            .map(|n| item(&format!("app-{n}"), Some("ns")))
            .collect();
        for items in [
            Vec::new(),
            vec![item("only", None)],
            vec![full.clone(), failed.clone(), item("empty", Some("ns"))],
            many,
        ] {
            let plan = Plan {
                items,
                ..Plan::default()
            };
            let expected = serde_json::to_string_pretty(&plan).unwrap() + "\n";
            assert_eq!(json(&plan), expected);
        }
    }
}
