//! A replica division as a migration reads it from the API that states it: an object that
//! divides another object's replicas among clusters by weight (today kubefed's, described by
//! its folder behind `registry::replica_division`). The target converts the numbers; the
//! source's field paths and what its controller did come with them as data, so the loss
//! report says them in the source's words while the target's code names none of the
//! source's kinds or types.

use crate::model::preferences::ReplicaPreferences;

/// One division object, as its API describes it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReplicaDivision<'m> {
    /// The kind of the object whose replicas it divides, as written; the source's controller
    /// finds that object by this kind and the division's own namespace and name.
    pub target_kind: &'m str,
    /// The replicas divided: what the divided object runs in all.
    pub total_replicas: i64,
    /// Each cluster's weight, minimum and maximum, and whether running replicas move when
    /// the division changes.
    pub preferences: &'m ReplicaPreferences,
    /// It divides among the clusters the divided object's own placement selects; else among
    /// every cluster, and its controller writes the ones it chose into that placement.
    pub within_placement: bool,
    /// Its controller divides objects of `target_kind` at all.
    pub acted: bool,
    /// How its API names its fields and what its controller did.
    pub words: &'static DivisionWords,
}

/// What a division's API calls its fields and says its controller did, as the loss report
/// quotes them.
#[derive(Debug)]
pub(crate) struct DivisionWords {
    /// The fields of `target_kind`, `total_replicas` and `within_placement`.
    pub target_kind: &'static str,
    pub total_replicas: &'static str,
    pub within_placement: &'static str,
    /// What comes before a preference's own path (`clusters["a"].weight`, `rebalance`).
    pub preferences: &'static str,
    /// Why its controller never acted on a division of a kind it does not divide (the kind
    /// is said after it).
    pub never_acted_on: &'static str,
    /// What the division did to the divided object's placement when it chose among every
    /// cluster.
    pub rewrote_placement: &'static str,
    /// What its controller did to a per-cluster override of the divided object's replicas.
    pub overrode_replicas: &'static str,
    /// What its API calls division objects, in the plural.
    pub objects: &'static str,
    /// Whose the per-cluster split is once a migration writes it as such an object: "the
    /// per-cluster split is …".
    pub split_is: &'static str,
}

impl ReplicaDivision<'_> {
    /// The report's name of a preference field, `name` its path below the preferences.
    pub(crate) fn preference_field(&self, name: &str) -> String {
        format!("{}{name}", self.words.preferences)
    }
}
