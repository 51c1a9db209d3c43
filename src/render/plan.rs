//! Plans as JSON, YAML and a per-item table.

use std::fmt::Write as _;

use comfy_table::{presets, ContentArrangement, Table};

use crate::plan::{ItemTrace, Plan, PlanItem, PlanOutcome};
use crate::replicas::{PreferenceSource, ReplicaTrace};

pub fn json(plan: &Plan) -> String {
    // Serializing plain structs of strings, integers and maps cannot fail.
    let mut text = serde_json::to_string_pretty(plan).unwrap_or_default();
    text.push('\n');
    text
}

pub fn yaml(plan: &Plan) -> String {
    serde_yaml::to_string(plan).unwrap_or_default()
}

/// One block per item: its status line, then its clusters.
pub fn table(outcome: &PlanOutcome, width: Option<u16>) -> String {
    let mut out = String::new();
    for (item, trace) in outcome.plan.items.iter().zip(&outcome.traces) {
        if !out.is_empty() {
            out.push('\n');
        }
        let _ = writeln!(out, "{}", heading(item));
        let table = match trace {
            ItemTrace::Replicas { planner, .. } => replica_table(item, planner),
            ItemTrace::Selection(_) => cluster_list(item),
            ItemTrace::Failed => {
                for error in &item.errors {
                    let _ = writeln!(out, "  error: {error}");
                }
                continue;
            }
        };
        let _ = writeln!(out, "{}", fit(table, width));
        for condition in item
            .conditions
            .iter()
            .filter(|condition| condition.status == "False")
        {
            let _ = writeln!(out, "  {}: {}", condition.reason, condition.message);
        }
    }
    out
}

fn heading(item: &PlanItem) -> String {
    let source = &item.source;
    let name = match &source.namespace {
        Some(namespace) => format!("{}/{}/{}", source.kind, namespace, source.name),
        None => format!("{}/{}", source.kind, source.name),
    };
    let status = if !item.errors.is_empty() {
        "error".to_string()
    } else if item.conditions.iter().any(|c| c.status == "False") {
        "unsatisfied".to_string()
    } else {
        format!("{} clusters", item.clusters.len())
    };
    format!("{name} ({}): {status}", source.api_version)
}

fn new_table(header: &[&str]) -> Table {
    let mut table = Table::new();
    table.load_preset(presets::NOTHING);
    table.set_header(header.iter().copied());
    table
}

fn fit(mut table: Table, width: Option<u16>) -> String {
    if let Some(width) = width {
        table.set_content_arrangement(ContentArrangement::Dynamic);
        table.set_width(width);
    }
    table.to_string()
}

fn cluster_list(item: &PlanItem) -> Table {
    let mut table = new_table(&["CLUSTER"]);
    for cluster in &item.clusters {
        table.add_row([cluster]);
    }
    table
}

fn replica_table(item: &PlanItem, trace: &ReplicaTrace) -> Table {
    let mut table = new_table(&[
        "CLUSTER",
        "REPLICAS",
        "OVERFLOW",
        "MIN",
        "MAX",
        "WEIGHT",
        "PREFERENCE",
    ]);
    let mut clusters: Vec<_> = trace
        .clusters
        .iter()
        .filter(|cluster| cluster.source != PreferenceSource::None)
        .collect();
    clusters.sort_by(|a, b| a.cluster.cmp(&b.cluster));
    for cluster in clusters {
        let prefs = &cluster.preferences;
        table.add_row([
            cluster.cluster.clone(),
            item.replicas
                .get(&cluster.cluster)
                .copied()
                .unwrap_or(0)
                .to_string(),
            item.overflow
                .get(&cluster.cluster)
                .map_or_else(String::new, i64::to_string),
            prefs.min_replicas.to_string(),
            prefs
                .max_replicas
                .map_or_else(|| "-".to_string(), |max| max.to_string()),
            prefs.weight.to_string(),
            match cluster.source {
                PreferenceSource::Own => "own".to_string(),
                _ if trace.defaulted => "\"*\" (default)".to_string(),
                _ => "\"*\"".to_string(),
            },
        ]);
    }
    let assigned: i64 = item.replicas.values().sum();
    let unassigned = trace.total.saturating_sub(assigned);
    if unassigned > 0 {
        table.add_row(["(unassigned)".to_string(), unassigned.to_string()]);
    }
    table
}
