//! kubefed's migrate pieces: a ReplicaSchedulingPreference as the replica division another
//! API's migration reads (`division`), its federated objects as template objects
//! (`template`) with the plain type each federated kind stands for (`type_configs`), and the
//! ReplicaSchedulingPreference a migration to OCM writes for a federation annotation:
//!
//! `federation.kubernetes.io/replica-set-preferences` → a kubefed
//! `ReplicaSchedulingPreference` of the object's namespace and name (so the planner hashes
//! the same `namespace/name` key and orders clusters alike), with the same preferences and
//! `spec.replicas` (default 1) as `totalReplicas`; the object is re-emitted without the
//! annotation.
//!
//! Decisions:
//! - An empty `clusters` map is written as `"*": {weight: 1}`, what both controllers read it
//!   as, so the RSP says what it does.
//! - The target is `Federated<Kind>`; kubefed's RSP controller only acts on
//!   FederatedDeployment and FederatedReplicaSet, so other kinds are a loss.
//! - With a cluster-selector too, federation spread replicas over the selected clusters only.
//!   kubefed narrows an RSP by its target's `spec.placement` (`intersectWithClusterSelector`),
//!   not by an OCM Placement, so that is approximate, and `--verify` plans the RSP as kubefed
//!   would: against its target in the inputs.

pub(crate) mod template;
pub(crate) mod type_configs;

use crate::kubefed::model::{RspSpec, RSP_API_VERSION};
use crate::model::preferences::{ClusterPreferences, ReplicaPreferences};
use crate::model::ObjectRef;
use crate::replicas::parse_replica_set_preferences;

use crate::migrate::division::{DivisionWords, ReplicaDivision};
use crate::migrate::manifest;
use crate::migrate::object_error::ObjectError;
use crate::migrate::report::FieldReport;
use crate::migrate::{Converted, REPLICA_SET_PREFERENCES_ANNOTATION};
use crate::model::Metadata;

/// Kinds kubefed's ReplicaSchedulingPreference controller schedules.
const RSP_TARGETS: &[&str] = &["Deployment", "ReplicaSet"];

/// A ReplicaSchedulingPreference as the replica division a migration reads
/// (`registry::replica_division`): its target by kind (the RSP's own namespace and name), its
/// total and preferences, and kubefed's words for them.
pub(crate) fn division(spec: &RspSpec) -> ReplicaDivision<'_> {
    ReplicaDivision {
        target_kind: &spec.target_kind,
        total_replicas: spec.total_replicas,
        preferences: &spec.preferences,
        within_placement: spec.intersect_with_cluster_selector,
        acted: RSP_TARGETS.contains(&spec.target_kind.trim_start_matches("Federated")),
        words: &WORDS,
    }
}

/// How the loss report names a ReplicaSchedulingPreference's fields and what kubefed's
/// controller did with one.
pub(crate) static WORDS: DivisionWords = DivisionWords {
    target_kind: "spec.targetKind",
    total_replicas: "spec.totalReplicas",
    within_placement: "spec.intersectWithClusterSelector",
    preferences: "spec.",
    never_acted_on: "kubefed's ReplicaSchedulingPreference controller only schedules FederatedDeployment and FederatedReplicaSet; it never acted on",
    rewrote_placement: "its ReplicaSchedulingPreference chose among every cluster (no intersectWithClusterSelector) and rewrote the placement",
    overrode_replicas: "kubefed's ReplicaSchedulingPreference controller wrote its own /spec/replicas over it",
    split_is: "the ReplicaSchedulingPreference's, which only kubefed reads",
    objects: "ReplicaSchedulingPreferences",
};

pub(super) fn rsp_ref(object: &ObjectRef) -> ObjectRef {
    ObjectRef {
        api_version: RSP_API_VERSION.to_string(),
        kind: "ReplicaSchedulingPreference".to_string(),
        namespace: object.namespace.clone(),
        name: object.name.clone(),
    }
}

pub(crate) fn convert(
    object: &ObjectRef,
    annotation: &str,
    replicas: i64,
    with_selector: bool,
) -> Result<Converted, ObjectError> {
    let preferences = parse_replica_set_preferences(annotation)?;
    let field =
        |name: &str| format!("metadata.annotations[{REPLICA_SET_PREFERENCES_ANNOTATION}] {name}");
    let mut fields = Vec::new();
    let target_kind = format!("Federated{}", object.kind);
    let target = FieldReport::exact(
        format!("kind {}", object.kind),
        format!("spec.targetKind {target_kind}"),
    );
    fields.push(if RSP_TARGETS.contains(&object.kind.as_str()) {
        target
    } else {
        FieldReport::lost(
            format!("kind {}", object.kind),
            format!("kubefed's ReplicaSchedulingPreference only schedules FederatedDeployment and FederatedReplicaSet, not {target_kind}"),
        )
    });
    fields.push(FieldReport::exact(
        "spec.replicas",
        format!("spec.totalReplicas {replicas}"),
    ));
    fields.push(FieldReport::exact(
        field("rebalance"),
        format!("spec.rebalance {}", preferences.rebalance),
    ));
    let mut clusters = preferences.clusters.clone();
    if clusters.is_empty() {
        clusters.insert("*".to_string(), ClusterPreferences::new(0, None, 1));
        fields.push(
            FieldReport::exact(field("clusters (none)"), "spec.clusters[\"*\"] weight 1")
                .because("both controllers read no clusters as every cluster with weight 1"),
        );
    } else {
        for name in preferences.clusters.keys() {
            fields.push(FieldReport::exact(
                field(&format!("clusters[{name:?}]")),
                format!("spec.clusters[{name:?}]"),
            ));
        }
    }
    if with_selector {
        fields.push(FieldReport::approximate(
            format!("(replicas only on clusters the {} selects)", crate::migrate::CLUSTER_SELECTOR_ANNOTATION),
            "spec.intersectWithClusterSelector true",
            format!("kubefed narrows the RSP by {target_kind}/{}'s spec.placement, not by the Placement; give that object the same cluster selector", object.name),
        ));
    }
    fields.push(FieldReport::exact(
        format!("metadata.annotations[{REPLICA_SET_PREFERENCES_ANNOTATION}]"),
        "removed from the object",
    ));
    let spec = RspSpec {
        target_kind,
        total_replicas: replicas,
        preferences: ReplicaPreferences {
            rebalance: preferences.rebalance,
            clusters,
        },
        intersect_with_cluster_selector: with_selector,
    };
    Ok(Converted {
        outputs: vec![manifest::emit(
            RSP_API_VERSION,
            "ReplicaSchedulingPreference",
            Metadata::of(&rsp_ref(object)),
            spec,
        )?],
        fields,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::source;

    fn spec(annotation: &str) -> String {
        match convert(
            &source("apps/v1", "Deployment", Some("shop"), "checkout"),
            annotation,
            10,
            false,
        ) {
            Ok(converted) => {
                serde_yaml::to_string(&converted.outputs[0].value["spec"]).unwrap_or_default()
            }
            Err(error) => panic!("{error}"),
        }
    }

    #[test]
    fn preferences_and_total_are_carried() {
        assert_eq!(
            spec(r#"{"rebalance": true, "clusters": {"A": {"minReplicas": 2, "maxReplicas": 5, "weight": 3}}}"#),
            "targetKind: FederatedDeployment\ntotalReplicas: 10\nrebalance: true\nclusters:\n  A:\n    minReplicas: 2\n    maxReplicas: 5\n    weight: 3\n"
        );
    }

    #[test]
    fn no_clusters_is_written_as_every_cluster_weight_one() {
        assert_eq!(
            spec("{}"),
            "targetKind: FederatedDeployment\ntotalReplicas: 10\nrebalance: false\nclusters:\n  '*':\n    weight: 1\n"
        );
    }

    #[test]
    fn a_division_says_whether_the_controller_acts_on_its_target_kind() {
        let spec = |target_kind: &str| RspSpec {
            target_kind: target_kind.into(),
            total_replicas: 4,
            intersect_with_cluster_selector: true,
            ..RspSpec::default()
        };
        let deployment = spec("FederatedDeployment");
        let division = division(&deployment);
        assert!(division.acted && division.within_placement);
        assert_eq!(
            (division.target_kind, division.total_replicas),
            ("FederatedDeployment", 4)
        );
        assert_eq!(division.preference_field("rebalance"), "spec.rebalance");
        assert!(!super::division(&spec("FederatedStatefulSet")).acted);
    }

    #[test]
    fn other_kinds_lose_the_controller() {
        let object = ObjectRef {
            kind: "StatefulSet".into(),
            ..source("apps/v1", "Deployment", Some("shop"), "checkout")
        };
        let converted = convert(&object, "{}", 1, false).ok();
        let lost = converted
            .iter()
            .flat_map(|c| &c.fields)
            .any(|f| f.fidelity == crate::migrate::report::Fidelity::Lost);
        assert!(lost);
    }
}
