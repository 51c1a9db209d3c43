//! Placement consumers: the chain to each placement, then each cluster's answer from the
//! placements' own explanations, so "why is my Policy not on cluster X" has one answer.

use std::fmt::Write as _;

use crate::model::Cluster;
use crate::ocm::fields::OcmFields;
use crate::ocm::plan::consumers::ConsumerTrace;

use crate::render::explain::{
    clusters_text, explain as explain_item, ClusterVerdict, Code, Explanation,
};

/// How a consumer lands on `cluster` (`plan --cluster`): each route that reaches it.
pub(crate) fn landing(trace: &ConsumerTrace, cluster: &str) -> Vec<String> {
    trace
        .routes
        .iter()
        .filter(|route| route.clusters.iter().any(|name| name == cluster))
        .map(|route| format!("via {}", route.chain.join(" -> ")))
        .collect()
}

/// `  via: PlacementBinding/ns/b -> Placement/ns/p`: each way a consumer lands, a line each
/// under its item's rows in the plan table.
pub(crate) fn via_lines(fields: &OcmFields, out: &mut String) {
    for chain in &fields.via {
        let _ = writeln!(out, "  via: {}", chain.join(" -> "));
    }
}

pub(crate) fn explain(explanation: &mut Explanation, trace: &ConsumerTrace, clusters: &[Cluster]) {
    let selected: Vec<&str> = trace
        .routes
        .iter()
        .flat_map(|route| route.clusters.iter())
        .collect();
    let placements = trace.routes.len();
    explanation.summary = if explanation.errors.is_empty() {
        let mut distinct = selected.clone();
        distinct.sort_unstable();
        distinct.dedup();
        format!(
            "lands on {} of {} through {} route{}",
            distinct.len(),
            clusters_text(clusters.len()),
            placements,
            if placements == 1 { "" } else { "s" }
        )
    } else {
        "lands nowhere: a reference resolves to nothing".to_string()
    };
    for route in &trace.routes {
        explanation.notes.push(format!(
            "via {}: {}",
            route.chain.join(" -> "),
            clusters_text(route.clusters.len())
        ));
        for (cluster, why) in &route.dropped {
            explanation
                .notes
                .push(format!("  {cluster} left out: {why}"));
        }
    }
    explanation.notes.extend(trace.notes.iter().cloned());
    let placed: Vec<Explanation> = trace
        .placements
        .iter()
        .map(|(item, trace)| explain_item(item, trace, clusters))
        .collect();
    for placement in &placed {
        explanation
            .notes
            .push(format!("{}: {}", placement.source, placement.summary));
    }
    explanation.clusters = clusters
        .iter()
        .map(|cluster| {
            let name = cluster.name.as_str();
            if !explanation.errors.is_empty() {
                let error = explanation.errors.first().cloned().unwrap_or_default();
                return ClusterVerdict::new(
                    name,
                    false,
                    Code::Failed,
                    format!("the item failed: {error}"),
                );
            }
            if let Some(route) = trace
                .routes
                .iter()
                .find(|route| route.clusters.iter().any(|c| c == name))
            {
                return ClusterVerdict::new(
                    name,
                    true,
                    Code::Selected,
                    format!("placed via {}", route.chain.join(" -> ")),
                );
            }
            let mut reasons = Vec::new();
            for route in &trace.routes {
                if let Some((_, why)) = route.dropped.iter().find(|(c, _)| c == name) {
                    reasons.push(format!("{}: {why}", route.placement));
                    continue;
                }
                if let Some(verdict) = placed
                    .iter()
                    .find(|placement| &placement.source == route.placement)
                    .and_then(|placement| placement.verdict(name))
                {
                    reasons.push(format!("{}: {}", route.placement, verdict.reason));
                }
            }
            if reasons.is_empty() {
                // No route at all: what the controller does instead says why (a disabled
                // Policy, a local Subscription, a Manual add-on).
                reasons.push(match trace.notes.first() {
                    Some(note) if trace.routes.is_empty() => format!("lands nowhere: {note}"),
                    _ => "no placement places it".to_string(),
                });
            }
            reasons.dedup();
            ClusterVerdict::new(name, false, Code::NotPlaced, reasons.join("; "))
        })
        .collect();
}
