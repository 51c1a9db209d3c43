//! What-if changes to the fleet (`--offline`, `--capacity`, `--label`), applied to the model
//! before planning so every engine sees the same altered fleet: the inventory's clusters and
//! Karmada's `Cluster`s alike, each with its own API's meaning (docs/semantics.md).

use crate::model::{Model, Taint, TaintEffect};
use crate::registry::{self, Found};
use crate::selector::{Requirement, SelectorError};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct WhatIf {
    pub offline: Vec<String>,
    pub capacity: Vec<(String, i64)>,
    /// (cluster, key, value)
    pub labels: Vec<(String, String, String)>,
    pub taints: Vec<TaintEdit>,
}

/// `--taint CLUSTER:KEY[=VALUE]:EFFECT`, as given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct TaintEdit {
    pub cluster: String,
    pub key: String,
    pub value: String,
    pub effect: String,
}

/// The effects of an OCM cluster taint, and of a Karmada Cluster taint.
const OCM_EFFECTS: [(&str, TaintEffect); 3] = [
    ("NoSelect", TaintEffect::NoSelect),
    ("PreferNoSelect", TaintEffect::PreferNoSelect),
    ("NoSelectIfNew", TaintEffect::NoSelectIfNew),
];

impl TaintEdit {
    /// `key=value:Effect` (`key:Effect` without a value), as taints are written.
    pub(crate) fn taint(&self) -> String {
        match self.value.as_str() {
            "" => format!("{}:{}", self.key, self.effect),
            value => format!("{}={value}:{}", self.key, self.effect),
        }
    }

    /// When the upstream controllers act on this taint (`explain` says it).
    pub(crate) fn when_upstream_acts(&self, model: &Model) -> String {
        let when = registry::when_api_acts_on_taint(model, &self.cluster, &self.effect);
        format!("--taint {}:{}: {when}", self.cluster, self.taint())
    }
}

/// A what-if change the inventory cannot take.
#[derive(Debug, thiserror::Error)]
pub(crate) enum WhatIfError {
    /// `suggestion` is ", did you mean …?" or empty; `searched` says which clusters were
    /// loaded, so a Karmada-only fleet is not told about an inventory it never had.
    #[error(
        "{flag}: no cluster named {:?} {searched}{suggestion}",
        crate::model::echo(name)
    )]
    UnknownCluster {
        flag: &'static str,
        name: String,
        searched: &'static str,
        suggestion: String,
    },
    #[error(
        "--taint {}:{}: {message}",
        crate::model::echo(cluster),
        crate::model::echo(taint)
    )]
    InvalidTaint {
        cluster: String,
        taint: String,
        message: String,
    },
    /// A label no real cluster could carry.
    #[error(
        "--label {}:{}={}: {source}",
        crate::model::echo(cluster),
        crate::model::echo(key),
        crate::model::echo(value)
    )]
    InvalidLabel {
        cluster: String,
        key: String,
        value: String,
        source: SelectorError,
    },
}

impl WhatIf {
    /// Applies every change to the clusters of that name, in the inventory and among the
    /// Karmada `Cluster`s; naming a cluster neither has is an error.
    pub(crate) fn apply(&self, model: &mut Model, now: i64) -> Result<(), WhatIfError> {
        for name in &self.offline {
            let mut found = clusters(model, "--offline", name)?;
            if let Some(cluster) = found.inventory.as_deref_mut() {
                cluster.online = false;
            }
            found.go_offline(now);
        }
        for (name, count) in &self.capacity {
            let mut found = clusters(model, "--capacity", name)?;
            if let Some(cluster) = found.inventory.as_deref_mut() {
                cluster.replica_capacity = Some(*count);
            }
            found.set_capacity(*count);
        }
        for edit in &self.taints {
            taint(model, edit, now)?;
        }
        for (name, key, value) in &self.labels {
            // Validate like Kubernetes would, so a what-if never holds a label a real cluster
            // could not carry.
            Requirement::new(key, crate::selector::Operator::Equals, vec![value.clone()]).map_err(
                |source| WhatIfError::InvalidLabel {
                    cluster: name.clone(),
                    key: key.clone(),
                    value: value.clone(),
                    source,
                },
            )?;
            let mut found = clusters(model, "--label", name)?;
            if let Some(cluster) = found.inventory.as_deref_mut() {
                cluster
                    .labels
                    .insert(key.as_str().into(), value.as_str().into());
            }
            found.set_label(key, value);
        }
        Ok(())
    }
}

/// Adds `edit`'s taint (replacing one of the same key and effect) to the OCM hub's cluster
/// object for an OCM effect, to the Karmada Cluster for a Karmada one. Key and value follow
/// Kubernetes' label rules, as both APIs validate a taint's.
fn taint(model: &mut Model, edit: &TaintEdit, now: i64) -> Result<(), WhatIfError> {
    let invalid = |message: String| WhatIfError::InvalidTaint {
        cluster: edit.cluster.clone(),
        taint: edit.taint(),
        message,
    };
    Requirement::new(
        &edit.key,
        crate::selector::Operator::Equals,
        vec![edit.value.clone()],
    )
    .map_err(|error| invalid(error.to_string()))?;
    let ocm = OCM_EFFECTS
        .iter()
        .find(|(name, _)| *name == edit.effect)
        .map(|(_, effect)| *effect);
    if ocm.is_none() && !registry::is_api_taint_effect(&edit.effect) {
        return Err(invalid(format!(
            "unknown effect {:?}: expected {}",
            crate::model::echo(&edit.effect),
            registry::TAINT_EFFECTS
        )));
    }
    let found = clusters(model, "--taint", &edit.cluster)?;
    let missing = |fleet: &str| {
        invalid(format!(
            "{} is {fleet}: no cluster of that name is there",
            edit.effect
        ))
    };
    match ocm {
        Some(effect) => {
            let cluster = found
                .inventory
                .ok_or_else(|| missing(registry::OCM_TAINT_FLEET))?;
            cluster
                .taints
                .retain(|taint| !(taint.key == edit.key && taint.effect == effect));
            cluster.taints.push(Taint {
                key: edit.key.clone(),
                value: edit.value.clone(),
                effect,
                time_added: Some(now),
            });
        }
        None => {
            let written = edit.taint();
            if !found.add_api_taint(&edit.key, &edit.value, &edit.effect, &written) {
                return Err(missing(registry::api_taint_fleets(&edit.effect)));
            }
        }
    }
    Ok(())
}

/// The clusters a flag names, in every fleet; naming a cluster no fleet has is an error.
fn clusters<'m>(
    model: &'m mut Model,
    flag: &'static str,
    name: &str,
) -> Result<Found<'m>, WhatIfError> {
    if registry::has_cluster(model, name) {
        return Ok(registry::find_clusters(model, name));
    }
    let (known, searched) = registry::every_cluster(model);
    Err(WhatIfError::UnknownCluster {
        flag,
        name: name.to_string(),
        searched,
        suggestion: close_matches(name, &known),
    })
}

/// ", did you mean A or B?" for names within a small edit distance, else "".
pub(crate) fn close_matches(name: &str, known: &[&str]) -> String {
    // Few enough edits to be a typo: at most a fifth of the name, but always 2.
    let limit = (name.chars().count() / 5).max(2);
    let mut close: Vec<(usize, &str)> = known
        .iter()
        .map(|candidate| (edit_distance(name, candidate), *candidate))
        .filter(|(distance, _)| *distance <= limit)
        .collect();
    close.sort_unstable();
    close.truncate(3);
    let names: Vec<&str> = close.into_iter().map(|(_, name)| name).collect();
    match names.as_slice() {
        [] => String::new(),
        names => format!(", did you mean {}?", names.join(" or ")),
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_matches_suggest_names_one_typo_away() {
        assert_eq!(
            close_matches("prod-eu-1", &["prod-eu-2", "dev-us-1", "prod-eu-1x"]),
            ", did you mean prod-eu-1x or prod-eu-2?"
        );
        assert_eq!(
            close_matches(
                "aws-eu-west-prod-3",
                &["aws-us-east-prod-1", "aws-eu-west-prod-1"]
            ),
            ", did you mean aws-eu-west-prod-1?"
        );
        assert_eq!(close_matches("zzz", &["prod-eu-2"]), "");
    }
}
