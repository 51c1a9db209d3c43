//! OCM's part of `fleetplan diff`: another time a toleration expires at, a placement
//! consumer's routes, a ManifestWorkReplicaSet's rollout waves (its clusters and conditions
//! are the diff's shared fields). Every format words it with [`OcmChange::lines`].

use serde::Serialize;

use super::fields::{OcmFields, Rollout};
use crate::merge::{join, keyed, set_changes};
use crate::model::ValueChange;
use crate::registry::Mark;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OcmChange {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) changes_at: Option<ValueChange>,
    /// A placement consumer's routes (`via` chains) only in the current plan, then only in
    /// the previous one: a consumer that now lands through other objects is changed even when
    /// its clusters are the same.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) via_added: Vec<Vec<String>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) via_removed: Vec<Vec<String>>,
    /// A ManifestWorkReplicaSet's rollouts (matched by placement) whose strategy or waves
    /// changed: the same clusters reached in another order is a change.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) rollout: Vec<RolloutChange>,
}

/// A rollout present in one plan only (one side absent) or different in both.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RolloutChange {
    /// `Placement/ns/name`.
    pub(crate) placement: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) before: Option<Rollout>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) after: Option<Rollout>,
}

pub(crate) fn compare(previous: &OcmFields, current: &OcmFields) -> OcmChange {
    let (via_added, via_removed) = set_changes(&previous.via, &current.via);
    OcmChange {
        changes_at: ValueChange::of(&previous.changes_at, &current.changes_at),
        via_added,
        via_removed,
        rollout: rollout_changes(&previous.rollout, &current.rollout),
    }
}

/// Rollouts matched by placement; one that differs in strategy or in any wave is changed.
fn rollout_changes(previous: &[Rollout], current: &[Rollout]) -> Vec<RolloutChange> {
    fn by_placement(rollouts: &[Rollout]) -> Vec<(&str, &Rollout)> {
        keyed(
            rollouts
                .iter()
                .map(|rollout| (rollout.placement.as_str(), rollout)),
        )
    }
    join(by_placement(previous), by_placement(current))
        .filter_map(|(placement, side)| {
            let (before, after) = side.sides();
            (before != after).then(|| RolloutChange {
                placement: placement.to_string(),
                before: before.cloned(),
                after: after.cloned(),
            })
        })
        .collect()
}

impl OcmChange {
    pub(crate) fn is_empty(&self) -> bool {
        self.changes_at.is_none()
            && self.rollout.is_empty()
            && self.via_added.is_empty()
            && self.via_removed.is_empty()
    }

    /// One line per change, the wording every diff format shares.
    pub(crate) fn lines(&self) -> Vec<(String, Option<Mark>)> {
        let mut lines = Vec::new();
        if let Some(value) = &self.changes_at {
            lines.push((value.line("changesAt"), None));
        }
        for chain in &self.via_added {
            lines.push((format!("+ via {}", chain.join(" -> ")), Some(Mark::Added)));
        }
        for chain in &self.via_removed {
            lines.push((format!("- via {}", chain.join(" -> ")), Some(Mark::Removed)));
        }
        for rollout in &self.rollout {
            let text = format!(
                "rollout over {}: {} → {}",
                rollout.placement,
                rollout_text(rollout.before.as_ref()),
                rollout_text(rollout.after.as_ref())
            );
            lines.push((text, None));
        }
        lines
    }
}

/// `Progressive [a, b] [c]`: the strategy, then each wave's clusters in the order they are
/// reached (a mandatory wave marked `!`).
fn rollout_text(rollout: Option<&Rollout>) -> String {
    let Some(rollout) = rollout else {
        return "(none)".to_string();
    };
    let mut text = rollout.strategy.clone();
    for wave in &rollout.waves {
        let clusters: Vec<&str> = wave.clusters.iter().collect();
        let mark = if wave.mandatory { "!" } else { "" };
        text.push_str(&format!(" {mark}[{}]", clusters.join(", ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PlanItem;
    use crate::ocm::fields::Wave;
    use crate::testing::{plan, replica_set};

    /// How OCM's fields of an item changed, through the whole diff.
    fn change(previous: PlanItem, current: PlanItem) -> OcmChange {
        let diff = crate::diff::compare(&plan(vec![previous]), &plan(vec![current]));
        match diff.items_changed.as_slice() {
            [change] => {
                assert!(change.clusters_added.is_empty() && change.clusters_removed.is_empty());
                change.apis.ocm.clone()
            }
            other => panic!("expected one changed item, found {other:?}"),
        }
    }

    fn strings(values: &[&str]) -> Vec<String> {
        values.iter().map(|value| value.to_string()).collect()
    }

    #[test]
    fn a_chain_that_alone_changed_is_a_change() {
        let chain = |placement: &str| vec![strings(&["PlacementBinding/p/b", placement])];
        let mut previous = replica_set("policy", &["A"]);
        previous.api.ocm.via = chain("Placement/p/one");
        let mut current = previous.clone();
        current.api.ocm.via = chain("Placement/p/two");
        let change = change(previous, current);
        assert_eq!(change.via_added, chain("Placement/p/two"));
        assert_eq!(change.via_removed, chain("Placement/p/one"));
    }

    #[test]
    fn the_same_clusters_in_other_rollout_waves_are_a_change() {
        let rollout = |waves: &[&[&str]]| {
            vec![Rollout {
                placement: "Placement/p/canary".to_string(),
                strategy: "Progressive".to_string(),
                waves: waves
                    .iter()
                    .map(|clusters| Wave {
                        clusters: strings(clusters).into(),
                        ..Wave::default()
                    })
                    .collect(),
            }]
        };
        let mut previous = replica_set("work", &["A", "B"]);
        previous.api.ocm.rollout = rollout(&[&["A", "B"]]);
        let mut current = previous.clone();
        current.api.ocm.rollout = rollout(&[&["A"], &["B"]]);
        assert_eq!(
            change(previous.clone(), current.clone()).rollout,
            vec![RolloutChange {
                placement: "Placement/p/canary".to_string(),
                before: previous.api.ocm.rollout.first().cloned(),
                after: current.api.ocm.rollout.first().cloned(),
            }]
        );
    }

    #[test]
    fn changes_at_records_before_and_after() {
        let mut current = replica_set("p", &["A"]);
        current.api.ocm.changes_at = Some("2026-01-01T00:00:00Z".to_string());
        assert_eq!(
            change(replica_set("p", &["A"]), current).changes_at,
            Some(ValueChange {
                before: None,
                after: Some("2026-01-01T00:00:00Z".to_string()),
            })
        );
    }
}
