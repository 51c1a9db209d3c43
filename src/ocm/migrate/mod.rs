//! The OCM migration target: PlacementRules and the federation cluster-selector annotation to
//! Placements, the consumers' references rewritten, and the workloads delivered by
//! ManifestWorkReplicaSets.

pub(crate) mod cluster_selector;
pub(crate) mod consumers;
pub(crate) mod delivery;
pub(crate) mod manifest;
pub(crate) mod placement_rule;
pub(crate) mod scope;

use crate::migrate::manifest::{emit, Emitted, Unwritten};
use crate::model::Metadata;
use crate::ocm::model::placement::{PlacementSpec, PLACEMENT_API_VERSION};

/// A v1beta1 Placement, the one spec type fleetplan reads Placements into.
pub(crate) fn placement(metadata: Metadata<'_>, spec: PlacementSpec) -> Result<Emitted, Unwritten> {
    emit(PLACEMENT_API_VERSION, "Placement", metadata, spec)
}
