//! The rule behind every success fleetplan reports ("all satisfied", "no changes",
//! "identical", a selection): something must have been compared. An inventory with no
//! clusters, or inputs with no workloads, would make each of them true of nothing, so they
//! are errors; a user who wants the manifests validated without an inventory says so with
//! `--manifests-only`, and the output then says placements were not evaluated.

use std::fmt;

use crate::model::Model;

/// What a run that passed the rule will judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// The placements, against the inventory.
    Placements,
    /// Only that the manifests are valid (`--manifests-only`).
    ManifestsOnly,
}

impl Scope {
    /// Asked for with `--manifests-only`.
    pub(crate) fn new(manifests_only: bool) -> Scope {
        if manifests_only {
            Scope::ManifestsOnly
        } else {
            Scope::Placements
        }
    }
}

/// What fleetplan plans, as the messages about inputs without any of it name it.
pub(crate) use crate::registry::PLANNED_KINDS;

/// Why a verdict would be about nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Nothing {
    /// No cluster in the inputs: every placement would select nothing. `manifests_only`:
    /// the command offers `--manifests-only`, and the message says so.
    NoClusters { manifests_only: bool },
    /// No cluster in the inputs of `plan` or `explain`: every item would show 0 clusters.
    /// They have no `--manifests-only`; the message names `check --manifests-only`.
    NoClustersToPlan,
    /// No workload in the inputs (nor, for `diff`, in the previous plan).
    NoItems,
    /// `migrate` found nothing it converts to its target (named: what it looks for), so its
    /// output would be empty or only the inputs' own objects.
    ToMigrate { looked_for: &'static str },
    /// `migrate --verify` converted no object, so there is no pair to compare (named: what
    /// the target's verification compares).
    Migrated { compared: &'static str },
}

impl fmt::Display for Nothing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Nothing::NoClusters { manifests_only } => {
                no_clusters(f)?;
                if *manifests_only {
                    f.write_str(", or pass --manifests-only to validate the manifests alone")?;
                }
                Ok(())
            }
            Nothing::NoClustersToPlan => {
                no_clusters(f)?;
                f.write_str(
                    "; to validate the manifests alone, run `fleetplan check --manifests-only`",
                )
            }
            Nothing::NoItems => write!(
                f,
                "no workloads in the inputs: nothing to check (no {PLANNED_KINDS} was found)"
            ),
            Nothing::ToMigrate { looked_for } => {
                write!(f, "nothing to migrate: the inputs have no {looked_for}")
            }
            Nothing::Migrated { compared } => write!(
                f,
                "nothing to verify: the inputs have no {compared} to migrate"
            ),
        }
    }
}

impl std::error::Error for Nothing {}

/// The inputs hold no cluster: the start of the messages that say so.
fn no_clusters(f: &mut fmt::Formatter<'_>) -> fmt::Result {
    write!(
        f,
        "no clusters in the inputs: placements cannot be evaluated without an inventory ({} \
         objects); add it with -f",
        crate::registry::CLUSTER_KINDS
    )
}

/// What `check` and `migrate --verify` may judge in `model`: its workloads against its
/// clusters, or (asked for) the manifests alone; never nothing.
pub(crate) fn require(model: &Model, scope: Scope) -> Result<(), Nothing> {
    if scope == Scope::Placements {
        clusters(model, true)?;
    }
    if model.workloads.is_empty() {
        return Err(Nothing::NoItems);
    }
    Ok(())
}

/// The inventory a selection or a placement is judged against is not empty;
/// `manifests_only`: the command offers `--manifests-only` instead.
pub(crate) fn clusters(model: &Model, manifests_only: bool) -> Result<(), Nothing> {
    if crate::registry::no_clusters(model) {
        Err(Nothing::NoClusters { manifests_only })
    } else {
        Ok(())
    }
}

/// What `plan` and `explain` plan has clusters to be planned on: with none, every item
/// would show 0 clusters and the run would look like a plan.
pub(crate) fn clusters_to_plan(model: &Model) -> Result<(), Nothing> {
    clusters(model, false).map_err(|_| Nothing::NoClustersToPlan)
}

/// A migration converted something: `conversions` made, or `errors` reported for objects
/// that could not be (their own verdict); else there is nothing to call migrated.
pub(crate) fn migrated(
    conversions: usize,
    errors: usize,
    looked_for: &'static str,
) -> Result<(), Nothing> {
    if conversions == 0 && errors == 0 {
        Err(Nothing::ToMigrate { looked_for })
    } else {
        Ok(())
    }
}

/// The words every output uses when `--manifests-only` was asked for.
pub(crate) const NOT_EVALUATED: &str = "placements were not evaluated (--manifests-only)";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::migrate::Target;
    use crate::model::Cluster;

    /// A verification that compared nothing names what its target's migration converts (a
    /// migration to Karmada converts kubefed's Federated objects, not PlacementRules).
    #[test]
    fn nothing_verified_names_what_the_target_compares() {
        let text = |target| {
            let compared = crate::registry::verified_kinds(target);
            Nothing::Migrated { compared }.to_string()
        };
        assert_eq!(
            text(Target::Ocm),
            "nothing to verify: the inputs have no PlacementRule and no object with a \
             federation placement annotation to migrate"
        );
        assert_eq!(
            text(Target::Karmada),
            "nothing to verify: the inputs have no kubefed Federated object and no object with \
             a federation placement annotation to migrate"
        );
    }

    #[test]
    fn an_empty_model_is_judged_on_its_clusters_first() {
        let mut model = Model::default();
        assert_eq!(
            require(&model, Scope::Placements),
            Err(Nothing::NoClusters {
                manifests_only: true
            })
        );
        assert_eq!(require(&model, Scope::ManifestsOnly), Err(Nothing::NoItems));
        model.inventory.clusters.push(Cluster::default());
        assert_eq!(require(&model, Scope::Placements), Err(Nothing::NoItems));
    }
}
