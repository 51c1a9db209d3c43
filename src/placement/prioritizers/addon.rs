//! AddOn (upstream `plugins/addon`): the score `scoreName` of the AddOnPlacementScore
//! `resourceName` in the cluster's namespace; missing or expired scores count 0.

use crate::model::placement::AddOnScore;
use crate::model::Cluster;
use crate::placement::fleet::FleetIndex;

/// Upstream names the prioritizer `AddOn/<resourceName>/<scoreName>`.
pub fn name(addon: &AddOnScore) -> String {
    format!("AddOn/{}/{}", addon.resource_name, addon.score_name)
}

/// The scores, and upstream's warning naming the expired AddOnPlacementScores, if any.
pub fn score(
    clusters: &[&Cluster],
    fleet: &FleetIndex,
    addon: &AddOnScore,
    now: i64,
) -> (Vec<Option<i64>>, Option<String>) {
    let mut expired = String::new();
    let scores = clusters
        .iter()
        .map(|cluster| {
            let Some(found) = fleet.addon_score(&cluster.name, &addon.resource_name) else {
                return Some(0);
            };
            if found.valid_until.is_some_and(|until| now > until) {
                expired.push_str(&format!(" {}/{}", cluster.name, addon.resource_name));
                return Some(0);
            }
            Some(found.scores.get(&addon.score_name).copied().unwrap_or(0))
        })
        .collect();
    let warning = (!expired.is_empty()).then(|| format!("AddOnPlacementScores{expired} expired"));
    (scores, warning)
}
