//! The text view: a heading, a one-line summary and notes, then cluster by cluster. With
//! `--cluster` the one-sentence answer comes first, then that cluster's detail only.

use std::fmt::Write as _;

use super::replicas::ReplicaRun;
use super::{ClusterVerdict, Engine, Explanation};
use crate::render::escape::terminal;
use crate::render::table;

/// The explanation for a terminal, text from inputs escaped (`render::escape::terminal`).
pub(crate) fn text(explanation: &Explanation, width: Option<u16>) -> String {
    terminal(&unescaped(explanation, width)).into_owned()
}

fn unescaped(explanation: &Explanation, width: Option<u16>) -> String {
    let mut out = String::new();
    match &explanation.answer {
        Some(answer) => {
            let _ = writeln!(out, "{answer}");
        }
        None => {
            let _ = writeln!(out, "{}", heading(explanation));
            let _ = writeln!(out, "{}", explanation.summary);
            for note in &explanation.notes {
                let _ = writeln!(out, "{note}");
            }
        }
    }
    match (&explanation.replicas, explanation.engine) {
        (Some(run), Engine::Replicas) => {
            let (taking_part, left_out): (Vec<&ClusterVerdict>, Vec<&ClusterVerdict>) = explanation
                .clusters
                .iter()
                .partition(|verdict| verdict.planner.is_some());
            if !taking_part.is_empty() {
                out.push('\n');
                out.push_str(&planner_table(&taking_part, width));
            }
            if !run.rounds.is_empty() {
                out.push('\n');
                out.push_str(&rounds_table(run, width));
            }
            if !left_out.is_empty() {
                out.push('\n');
                out.push_str(&verdict_table(&left_out, width));
            }
        }
        // A failed item's errors say everything; every cluster would repeat them.
        (_, Engine::Failed) if explanation.answer.is_none() => {}
        _ => {
            let all: Vec<&ClusterVerdict> = explanation.clusters.iter().collect();
            if !all.is_empty() {
                out.push('\n');
                out.push_str(&verdict_table(&all, width));
            }
        }
    }
    for error in &explanation.errors {
        let _ = writeln!(out, "error: {error}");
    }
    out
}

fn heading(explanation: &Explanation) -> String {
    let source = &explanation.source;
    let name = source;
    let engine = explanation.engine.describe();
    format!("{name} ({}): {engine}", source.api_version)
}

fn strings(names: &[&str]) -> Vec<String> {
    names.iter().map(|name| name.to_string()).collect()
}

fn verdict_table(verdicts: &[&ClusterVerdict], width: Option<u16>) -> String {
    let rows = verdicts
        .iter()
        .map(|verdict| {
            vec![
                verdict.cluster.clone(),
                verdict.verdict.as_str().to_string(),
                verdict.reason.clone(),
            ]
        })
        .collect();
    table::render(strings(&["CLUSTER", "VERDICT", "REASON"]), rows, width)
}

fn planner_table(verdicts: &[&ClusterVerdict], width: Option<u16>) -> String {
    let dash = || "-".to_string();
    let rows = verdicts
        .iter()
        .filter_map(|verdict| {
            let run = verdict.planner.as_ref()?;
            Some(vec![
                verdict.cluster.clone(),
                run.replicas.to_string(),
                if run.overflow > 0 {
                    run.overflow.to_string()
                } else {
                    String::new()
                },
                run.preference.clone(),
                run.min_replicas.to_string(),
                run.max_replicas.map_or_else(dash, |max| max.to_string()),
                run.weight.to_string(),
                run.capacity
                    .map_or_else(dash, |capacity| capacity.to_string()),
                run.position.to_string(),
                run.hash.clone(),
                run.minimum.to_string(),
                run.kept.to_string(),
                match (run.full_in_round, &run.full_at) {
                    (Some(round), Some(at)) => format!("{at} in round {round}"),
                    _ => String::new(),
                },
            ])
        })
        .collect();
    table::render(
        strings(&[
            "CLUSTER",
            "REPLICAS",
            "OVERFLOW",
            "PREFERENCE",
            "MIN",
            "MAX",
            "WEIGHT",
            "CAPACITY",
            "ORDER",
            "HASH",
            "MINIMUM",
            "KEPT",
            "FULL",
        ]),
        rows,
        width,
    )
}

fn rounds_table(run: &ReplicaRun, width: Option<u16>) -> String {
    let rows = run
        .rounds
        .iter()
        .map(|round| {
            let shares: Vec<String> = round
                .shares
                .iter()
                .map(|share| format!("{} {}", share.cluster, share.text()))
                .collect();
            vec![
                round.label(),
                round.remaining.to_string(),
                round.weight_sum.to_string(),
                shares.join(", "),
            ]
        })
        .collect();
    table::render(
        strings(&["ROUND", "REMAINING", "WEIGHTS", "SHARES"]),
        rows,
        width,
    )
}
