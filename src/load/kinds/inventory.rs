//! fleetplan's own `ClusterInventory`: a fleet written by hand, usable with every API.

use super::{Api, KnownKind};
use crate::load::clusters::inventory;
use crate::load::names::Names;
use crate::load::object::Scope;

pub(crate) const API: Api = Api {
    kinds: &[KnownKind {
        group: "fleetplan.io",
        kind: "ClusterInventory",
        versions: &["v1alpha1"],
        scope: Scope::Cluster,
        names: Names::Subdomain,
        read: inventory,
    }],
    claims: None,
};
