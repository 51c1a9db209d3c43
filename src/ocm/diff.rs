//! OCM's part of `fleetplan diff`: a Placement's decision groups (matched by index), another
//! time a toleration expires at, a placement consumer's routes, a ManifestWorkReplicaSet's
//! rollout waves (its clusters and conditions are the diff's shared fields). Every format
//! words them with [`GroupChanges::lines`] and [`OcmChange::lines`].

use serde::Serialize;

use super::fields::{DecisionGroup, DecisionGroups, OcmFields, Rollout};
use crate::merge::{join, keyed, set_changes, Side};
use crate::model::ValueChange;
use crate::registry::Mark;

/// How a Placement's decision groups changed, each list sorted by group index.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct GroupChanges {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) groups_added: Vec<DecisionGroup>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) groups_removed: Vec<DecisionGroup>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) groups_changed: Vec<GroupChange>,
}

/// A decision group present in both plans (matched by index) whose name or clusters changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct GroupChange {
    pub(crate) index: usize,
    pub(crate) name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) previous_name: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) clusters_added: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) clusters_removed: Vec<String>,
}

/// Decision groups matched by index: OCM's `groupIndex` is what a rollout refers to, while a
/// group's name may repeat or change.
pub(crate) fn compare_groups(previous: &DecisionGroups, current: &DecisionGroups) -> GroupChanges {
    fn by_index(groups: &DecisionGroups) -> Vec<(usize, &DecisionGroup)> {
        keyed(groups.groups.iter().map(|group| (group.index, group)))
    }
    let mut changes = GroupChanges::default();
    for (index, side) in join(by_index(previous), by_index(current)) {
        match side {
            Side::Previous(group) => changes.groups_removed.push(group.clone()),
            Side::Current(group) => changes.groups_added.push(group.clone()),
            Side::Both(before, after) => {
                let (clusters_added, clusters_removed) =
                    set_changes(&before.clusters, &after.clusters);
                let renamed = before.name != after.name;
                if renamed || !clusters_added.is_empty() || !clusters_removed.is_empty() {
                    changes.groups_changed.push(GroupChange {
                        index,
                        name: after.name.clone(),
                        previous_name: renamed.then(|| before.name.clone()),
                        clusters_added,
                        clusters_removed,
                    });
                }
            }
        }
    }
    changes
}

impl GroupChanges {
    /// How many groups were added, removed or changed.
    pub(crate) fn len(&self) -> usize {
        self.groups_added.len() + self.groups_removed.len() + self.groups_changed.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// One line per change, the wording every diff format shares.
    pub(crate) fn lines(&self) -> Vec<(String, Option<Mark>)> {
        let mut lines = Vec::new();
        for group in &self.groups_added {
            lines.push((format!("+ {}", group_line(group)), Some(Mark::Added)));
        }
        for group in &self.groups_removed {
            lines.push((format!("- {}", group_line(group)), Some(Mark::Removed)));
        }
        for group in &self.groups_changed {
            let mut text = group_label(group.index, &group.name);
            if let Some(previous) = &group.previous_name {
                text.push_str(&format!(" (was {previous})"));
            }
            let moves: Vec<String> = group
                .clusters_added
                .iter()
                .map(|cluster| format!("+ {cluster}"))
                .chain(
                    group
                        .clusters_removed
                        .iter()
                        .map(|cluster| format!("- {cluster}")),
                )
                .collect();
            if !moves.is_empty() {
                text.push_str(&format!(": {}", moves.join(", ")));
            }
            lines.push((text, None));
        }
        lines
    }
}

fn group_line(group: &DecisionGroup) -> String {
    format!(
        "{}: {}",
        group_label(group.index, &group.name),
        group.clusters.join(", ")
    )
}

/// `group 0 canary`; `group 0` for an unnamed group (OCM's default group has no name).
fn group_label(index: usize, name: &str) -> String {
    if name.is_empty() {
        format!("group {index}")
    } else {
        format!("group {index} {name}")
    }
}

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
    use crate::diff::ItemChange;
    use crate::model::PlanItem;
    use crate::ocm::fields::Wave;
    use crate::testing::{group, plan, replica_set};

    /// How an item changed, through the whole diff, its clusters the same.
    fn item_change(previous: PlanItem, current: PlanItem) -> ItemChange {
        let diff = crate::diff::compare(&plan(vec![previous]), &plan(vec![current]));
        match diff.items_changed.as_slice() {
            [change] => {
                assert!(change.clusters_added.is_empty() && change.clusters_removed.is_empty());
                change.clone()
            }
            other => panic!("expected one changed item, found {other:?}"),
        }
    }

    /// How OCM's fields besides its decision groups changed.
    fn change(previous: PlanItem, current: PlanItem) -> OcmChange {
        item_change(previous, current).apis.ocm
    }

    #[test]
    fn groups_are_matched_by_index() {
        let mut previous = replica_set("p", &["A", "B", "C"]);
        previous.selection.ocm.groups =
            vec![group(0, "canary", &["A"]), group(1, "rest", &["B", "C"])];
        let mut current = replica_set("p", &["A", "B", "C"]);
        current.selection.ocm.groups = vec![
            group(0, "canary", &["A"]),
            group(1, "prod", &["C", "D"]),
            group(2, "late", &["E"]),
        ];
        let change = item_change(previous, current).selection.ocm;
        assert_eq!(change.groups_added, vec![group(2, "late", &["E"])]);
        assert!(change.groups_removed.is_empty());
        assert_eq!(
            change.groups_changed,
            vec![GroupChange {
                index: 1,
                name: "prod".to_string(),
                previous_name: Some("rest".to_string()),
                clusters_added: strings(&["D"]),
                clusters_removed: strings(&["B"]),
            }]
        );
    }

    #[test]
    fn a_group_missing_from_the_current_plan_is_removed() {
        let mut previous = replica_set("p", &["A"]);
        previous.selection.ocm.groups = vec![group(0, "canary", &["A"])];
        let change = item_change(previous, replica_set("p", &["A"]));
        assert_eq!(
            change.selection.ocm.groups_removed,
            vec![group(0, "canary", &["A"])]
        );
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
