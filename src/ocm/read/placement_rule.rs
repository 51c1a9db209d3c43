//! `PlacementRule` (`apps.open-cluster-management.io/v1`), with its `status.decisions` as
//! its previous decisions. It selects the `ManagedCluster`s the OCM Placement API reads.

use super::spec_error;
use crate::load::kinds::{subtree, workload, Api, KnownKind};
use crate::load::model_builder::Decoded;
use crate::load::names::Names;
use crate::load::object::{Object, Scope};
use crate::load::{LoadError, Strict};
use crate::model::{PreviousDecision, WorkloadKind};
use crate::ocm::model::decision::RULE_KIND;
use crate::ocm::model::placement::{decode_placement_rule_decisions, decode_placement_rule_spec};

pub(crate) const API: Api = Api {
    kinds: &[KnownKind {
        group: "apps.open-cluster-management.io",
        kind: RULE_KIND,
        versions: &["v1"],
        scope: Scope::Namespaced,
        names: Names::Subdomain,
        read: placement_rule,
    }],
    claims: None,
};

fn placement_rule(object: Object<'_>) -> Result<Decoded, LoadError> {
    // Structs are taken only from mappings, as the API server's schema takes objects.
    let spec = decode_placement_rule_spec(Strict(subtree(&object, "spec")?))
        .map_err(|error| spec_error(&object, "spec", error))?;
    let clusters = decode_placement_rule_decisions(Strict(subtree(&object, "status")?))
        .map_err(|error| spec_error(&object, "status", error))?;
    // A rule without `status.decisions` has decided nothing so far: that is its previous
    // decision too (an export of such a rule compares as no cluster chosen, and replaces
    // older decisions of the rule), not the absence of one.
    let decision = Some(PreviousDecision {
        object: object.object.clone(),
        placement: object.name().to_string(),
        clusters,
        source: object.source.clone(),
    });
    let kind = WorkloadKind::PlacementRule(Box::new(spec));
    Ok(workload(object, kind, decision))
}
