//! OCM's kinds and their readers (the load layer): ManagedCluster, Placement with its ClusterSets,
//! PlacementDecisions and AddOnPlacementScores, PlacementRule, the consumers, and the
//! decisions `--previous` reads.

pub(crate) mod consumers;
mod managed_cluster;
pub(crate) mod placement;
pub(crate) mod placement_rule;
pub(crate) mod previous;

use crate::load::decode::FieldError;
use crate::load::object::Object;
use crate::load::LoadError;
use crate::ocm::model::placement::SpecError;

/// A Placement's or PlacementRule's decode error at `field` (`spec`, `status`), at its path
/// in the object.
fn spec_error(object: &Object<'_>, field: &str, error: SpecError) -> LoadError {
    let path = match error.path.as_str() {
        "" | "." => field.to_string(),
        path if path.starts_with(&format!("{field}.")) => path.to_string(),
        path => format!("{field}.{path}"),
    };
    object.invalid(FieldError::new(path, error.message))
}
