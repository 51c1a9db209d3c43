//! AddOn (upstream `plugins/addon`): the score `scoreName` of the AddOnPlacementScore
//! `resourceName` in the cluster's namespace; missing or expired scores count 0.

use std::collections::HashMap;

use crate::model::Inventory;
use crate::ocm::model::placement::AddOnScore;
use crate::ocm::model::scores::AddOnPlacementScore;

use crate::ocm::feasible::Feasible;

use super::{Context, PerCluster, Prioritizer, Scores};

const PREFIX: &str = "AddOn/";

/// The prioritizer of one score coordinate.
#[derive(Debug)]
pub(crate) struct AddOn(pub AddOnScore);

impl AddOn {
    /// Upstream names the prioritizer `AddOn/<resourceName>/<scoreName>`.
    pub(crate) fn name(&self) -> String {
        format!("{PREFIX}{}/{}", self.0.resource_name, self.0.score_name)
    }

    /// The prioritizer [`AddOn::name`] names.
    pub(crate) fn from_name(name: &str) -> Option<AddOn> {
        let (resource_name, score_name) = name.strip_prefix(PREFIX)?.split_once('/')?;
        Some(AddOn(AddOnScore {
            resource_name: resource_name.to_string(),
            score_name: score_name.to_string(),
        }))
    }
}

/// Cluster namespace → AddOnPlacementScore name → score, indexed once per run.
pub struct ScoreIndex<'a> {
    by_cluster: HashMap<&'a str, HashMap<&'a str, &'a AddOnPlacementScore>>,
}

impl<'a> ScoreIndex<'a> {
    pub fn new(inventory: &'a Inventory) -> ScoreIndex<'a> {
        let mut by_cluster: HashMap<&str, HashMap<&str, &AddOnPlacementScore>> = HashMap::new();
        for score in &inventory.apis.addon_scores {
            by_cluster
                .entry(score.namespace.as_str())
                .or_default()
                .insert(score.name.as_str(), score);
        }
        ScoreIndex { by_cluster }
    }

    fn get(&self, cluster: &str, resource: &str) -> Option<&'a AddOnPlacementScore> {
        self.by_cluster.get(cluster)?.get(resource).copied()
    }
}

impl Prioritizer for AddOn {
    /// The scores, and upstream's warning naming the expired AddOnPlacementScores, if any.
    fn score(&self, context: &Context, clusters: &Feasible) -> Scores {
        let scheduler = context.scheduler;
        let addon = &self.0;
        let mut expired = String::new();
        let scores = clusters
            .list()
            .iter()
            .map(|&index| {
                let cluster = scheduler.fleet.cluster(index);
                let index = &scheduler.prioritizers.addon;
                let Some(found) = index.get(&cluster.name, &addon.resource_name) else {
                    return Some(0);
                };
                if found.valid_until.is_some_and(|until| context.now > until) {
                    expired.push_str(&format!(" {}/{}", cluster.name, addon.resource_name));
                    return Some(0);
                }
                Some(found.scores.get(&addon.score_name).copied().unwrap_or(0))
            })
            .collect();
        let warning =
            (!expired.is_empty()).then(|| format!("AddOnPlacementScores{expired} expired"));
        Scores {
            scores: PerCluster::Each(scores),
            warning,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_is_upstreams_and_names_the_same_prioritizer() {
        let name = "AddOn/demo/cpu-ratio";
        let addon = AddOn::from_name(name).unwrap();
        assert_eq!(addon.0.resource_name, "demo");
        assert_eq!(addon.0.score_name, "cpu-ratio");
        assert_eq!(addon.name(), name);
        assert!(AddOn::from_name("Balance").is_none());
    }
}
