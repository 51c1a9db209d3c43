//! KubeFleet's part of `fleetplan diff`: what changed in a placement's recorded scores, its
//! Unscheduled bindings, its staged update run's stages and the overrides of each cluster
//! (its clusters and conditions are the diff's shared fields). Every format words it with
//! [`KubeFleetChange::lines`].

use std::collections::BTreeMap;

use serde::Serialize;

use super::fields::{ClusterOverrides, KubeFleetFields};
use super::model::binding::BindingScore;
use super::stages::Stage;
use crate::registry::Mark;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct KubeFleetChange {
    /// Recorded scores that differ, by cluster.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) scores: Vec<Keyed<BindingScore>>,
    /// Clusters whose bindings the scheduler now marks Unscheduled, then those it no longer does.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) unscheduled_added: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) unscheduled_removed: Vec<String>,
    /// Stages (by name) whose clusters changed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) stages: Vec<Keyed<Vec<String>>>,
    /// The stages' names in update order, when that order changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) stage_order: Option<Keyed<Vec<String>>>,
    /// The overrides of a cluster that differ.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) overrides: Vec<Keyed<ClusterOverrides>>,
}

/// A value of one key (a cluster, a stage) before and after; absent on the side without it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Keyed<T> {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(crate) key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) before: Option<T>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) after: Option<T>,
}

/// Every key of either map whose value differs.
fn keyed<T: Clone + PartialEq>(
    before: &BTreeMap<String, T>,
    after: &BTreeMap<String, T>,
) -> Vec<Keyed<T>> {
    let mut keys: Vec<&String> = before.keys().chain(after.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter_map(|key| {
            let (was, is) = (before.get(key), after.get(key));
            (was != is).then(|| Keyed {
                key: key.clone(),
                before: was.cloned(),
                after: is.cloned(),
            })
        })
        .collect()
}

pub(crate) fn compare(previous: &KubeFleetFields, current: &KubeFleetFields) -> KubeFleetChange {
    let stages = |stages: &[Stage]| -> BTreeMap<String, Vec<String>> {
        stages
            .iter()
            .map(|stage| (stage.name.clone(), stage.clusters.clone()))
            .collect()
    };
    let order = |stages: &[Stage]| -> Vec<String> {
        stages.iter().map(|stage| stage.name.clone()).collect()
    };
    let (before, after) = (order(&previous.stages), order(&current.stages));
    // A stage added or gone is already a change of its own; the order is said when the
    // stages both plans have come in another order.
    let common = |names: &[String], other: &[String]| -> Vec<String> {
        names
            .iter()
            .filter(|name| other.contains(name))
            .cloned()
            .collect()
    };
    let stage_order = (common(&before, &after) != common(&after, &before)).then(|| Keyed {
        key: String::new(),
        before: Some(before.clone()),
        after: Some(after.clone()),
    });
    KubeFleetChange {
        scores: keyed(&previous.scores, &current.scores),
        unscheduled_added: missing(&current.removed, &previous.removed),
        unscheduled_removed: missing(&previous.removed, &current.removed),
        stages: keyed(&stages(&previous.stages), &stages(&current.stages)),
        stage_order,
        overrides: keyed(&previous.overrides, &current.overrides),
    }
}

/// What `of` holds that `from` does not, sorted.
fn missing(of: &[String], from: &[String]) -> Vec<String> {
    let mut missing: Vec<String> = of
        .iter()
        .filter(|name| !from.contains(name))
        .cloned()
        .collect();
    missing.sort();
    missing.dedup();
    missing
}

const NONE: &str = "(none)";

fn score_text(score: Option<&BindingScore>) -> String {
    score.map_or(NONE.to_string(), |score| {
        format!(
            "affinity {}, topology spread {}",
            score.affinity_score.unwrap_or_default(),
            score.priority_score.unwrap_or_default()
        )
    })
}

fn names_text(names: Option<&Vec<String>>) -> String {
    match names {
        None => NONE.to_string(),
        Some(names) if names.is_empty() => "[]".to_string(),
        Some(names) => format!("[{}]", names.join(", ")),
    }
}

fn overrides_text(found: Option<&ClusterOverrides>) -> String {
    found.map_or(NONE.to_string(), |found| {
        let names: Vec<&str> = found
            .cluster_resource_overrides
            .iter()
            .chain(&found.resource_overrides)
            .map(String::as_str)
            .collect();
        names.join(", ")
    })
}

impl KubeFleetChange {
    pub(crate) fn is_empty(&self) -> bool {
        self.scores.is_empty()
            && self.unscheduled_added.is_empty()
            && self.unscheduled_removed.is_empty()
            && self.stages.is_empty()
            && self.stage_order.is_none()
            && self.overrides.is_empty()
    }

    /// One line per change, the wording every diff format shares.
    pub(crate) fn lines(&self) -> Vec<(String, Option<Mark>)> {
        let mut lines = Vec::new();
        for score in &self.scores {
            lines.push((
                format!(
                    "score of {}: {} → {}",
                    score.key,
                    score_text(score.before.as_ref()),
                    score_text(score.after.as_ref())
                ),
                None,
            ));
        }
        for cluster in &self.unscheduled_added {
            lines.push((format!("+ unscheduled {cluster}"), Some(Mark::Added)));
        }
        for cluster in &self.unscheduled_removed {
            lines.push((format!("- unscheduled {cluster}"), Some(Mark::Removed)));
        }
        for stage in &self.stages {
            lines.push((
                format!(
                    "stage {}: {} → {}",
                    stage.key,
                    names_text(stage.before.as_ref()),
                    names_text(stage.after.as_ref())
                ),
                None,
            ));
        }
        if let Some(order) = &self.stage_order {
            lines.push((
                format!(
                    "stage order: {} → {}",
                    names_text(order.before.as_ref()),
                    names_text(order.after.as_ref())
                ),
                None,
            ));
        }
        for found in &self.overrides {
            lines.push((
                format!(
                    "overrides of {}: {} → {}",
                    found.key,
                    overrides_text(found.before.as_ref()),
                    overrides_text(found.after.as_ref())
                ),
                None,
            ));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{kubefleet_fields, stage};

    #[test]
    fn a_cluster_moved_between_stages_and_a_new_override_are_changes() {
        let before = KubeFleetFields {
            stages: vec![stage("canary", &["a"]), stage("rest", &["b", "c"])],
            ..KubeFleetFields::default()
        };
        let after = KubeFleetFields {
            removed: vec!["d".to_string()],
            stages: vec![stage("canary", &["a", "b"]), stage("rest", &["c"])],
            overrides: kubefleet_fields().overrides,
            ..KubeFleetFields::default()
        };
        let lines: Vec<String> = compare(&before, &after)
            .lines()
            .into_iter()
            .map(|(line, _)| line)
            .collect();
        assert_eq!(
            lines,
            [
                "+ unscheduled d",
                "stage canary: [a] → [a, b]",
                "stage rest: [b, c] → [c]",
                "overrides of a: (none) → cro",
            ]
        );
        assert!(compare(&before, &before).is_empty());
    }
}
