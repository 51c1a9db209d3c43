//! PlacementRule (`apps.open-cluster-management.io/v1`) → Placement (v1beta1) of the same
//! namespace and name.
//!
//! Decisions (each one so the Placement selects what the PlacementRule selected):
//! - Candidates: a PlacementRule chose among every cluster; the Placement names one cluster
//!   set (`global`, `LabelSelector {}`, by default) in `spec.clusterSets`, bound to its
//!   namespace. `--set NAME` narrows the candidates to that set: approximate.
//! - `clusters[].name` becomes a CEL `managedCluster.metadata.name in [...]`, not a
//!   labelSelector on a `name` label: the label is a convention some hubs follow, the name is
//!   what the PlacementRule matched.
//! - Taints: a PlacementRule never looked at taints, so the Placement tolerates every taint
//!   (`{operator: Exists}`), the built-in unavailable/unreachable ones included, and
//!   `clusterConditions` — `Available=True` like any other — become CEL over
//!   `status.conditions` with the PlacementRule's rule (a cluster lacking the condition stays).
//!   OCM's default taint behaviour would also drop clusters with user `NoSelect` taints and
//!   clusters without an Available condition, which the PlacementRule kept.
//! - Order: `resourceHint` becomes `Exact` mode with ResourceAllocatableCPU/Memory at weight
//!   +1 (`desc`) or −1 (`asc`): approximate, because OCM scores the allocatable amount on an
//!   integer scale between the fleet's minimum and maximum and skips clusters that lack the
//!   resource. Without a hint, `Exact` mode with Steady: the PlacementRule kept its current
//!   decisions first; a new Placement has none yet, so with `clusterReplicas` and non-empty
//!   `status.decisions` the first schedule can differ (approximate).

use crate::model::{LabelSelectorSpec, ObjectRef};
use crate::ocm::model::placement::{
    ClusterPredicate, ClusterSelector, HintResource, PlacementRuleSpec, PlacementSpec,
    PrioritizerConfig, PrioritizerPolicy, ScoreCoordinate, ScoreCoordinateType, SelectionOrder,
    Toleration,
};
use crate::ocm::prioritizers::resource;

use super::cel;
use super::scope::{self, ClusterScope};
use crate::migrate::manifest::Unwritten;
use crate::migrate::objects::RawObject;
use crate::migrate::report::FieldReport;
use crate::migrate::Converted;
use crate::model::Metadata;

/// Annotations the PlacementRule controller read to act as the user who created the rule;
/// the Placement API has no counterpart (access is RBAC on `managedclustersets/bind`).
fn is_user_identity(key: &str) -> bool {
    key.ends_with("open-cluster-management.io/user-identity")
        || key.ends_with("open-cluster-management.io/user-group")
}

/// kubectl's bookkeeping describes the old object; carrying it would make `kubectl apply`
/// compute a wrong three-way merge for the new one.
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

pub(crate) struct RuleInput<'a> {
    pub raw: &'a RawObject<'a>,
    pub object: &'a ObjectRef,
    pub spec: &'a PlacementRuleSpec,
    /// `status.decisions` cluster names.
    pub decisions: &'a [String],
    pub scope: &'a ClusterScope,
}

pub(crate) fn convert(input: &RuleInput) -> Result<Converted, Unwritten> {
    let spec = input.spec;
    let mut fields = Vec::new();
    let metadata = metadata(input, &mut fields);

    let mut placement = PlacementSpec {
        cluster_sets: vec![input.scope.set.clone()],
        // A negative clusterReplicas selects no cluster; a negative numberOfClusters would make
        // the placement controller panic (docs/semantics.md), so it becomes 0.
        number_of_clusters: spec.cluster_replicas.map(|replicas| replicas.max(0)),
        ..PlacementSpec::default()
    };
    fields.push(scope::candidates_field(input.scope, "every cluster"));
    placement.predicates = predicate(spec, &mut fields).into_iter().collect();
    placement.tolerations = vec![Toleration::everything()];
    fields.push(
        FieldReport::exact("(taints)", "spec.tolerations [{operator: Exists}]")
            .because("a PlacementRule ignored taints, OCM's unavailable/unreachable ones included; availability is left to clusterConditions as before"),
    );

    if let Some(replicas) = spec.cluster_replicas {
        let field = FieldReport::exact(
            "spec.clusterReplicas",
            format!("spec.numberOfClusters {}", replicas.max(0)),
        );
        fields.push(if replicas < 0 {
            field.because("a negative clusterReplicas selects no cluster, and the placement controller panics on a negative numberOfClusters")
        } else {
            field
        });
    }
    order(input, &mut placement, &mut fields);

    if !spec.scheduler_name.is_empty() {
        fields.push(FieldReport::lost(
            format!("spec.schedulerName {}", spec.scheduler_name),
            "a Placement is always scheduled by the OCM placement controller",
        ));
    }
    if !spec.policies.is_empty() {
        fields.push(FieldReport::lost(
            "spec.policies",
            "a Placement has no policy references (the PlacementRule controller never filtered by them)",
        ));
    }

    Ok(Converted {
        outputs: vec![super::placement(metadata, placement)?],
        fields,
    })
}

/// The Placement's metadata: the rule's name, namespace and labels, and its annotations but
/// those that say who created it (a Placement does not act as a user) and kubectl's.
fn metadata<'a>(input: &RuleInput<'a>, fields: &mut Vec<FieldReport>) -> Metadata<'a> {
    let mut metadata = Metadata::of(input.object);
    for (key, value) in input.raw.metadata_strings("labels") {
        metadata.labels.to_mut().insert(key, value);
    }
    if !metadata.labels.is_empty() {
        fields.push(FieldReport::exact("metadata.labels", "metadata.labels"));
    }
    for (key, value) in input.raw.metadata_strings("annotations") {
        let field = format!("metadata.annotations[{key}]");
        if is_user_identity(&key) {
            fields.push(FieldReport::lost(
                field,
                "a Placement does not act as a user; who may use clusters is decided by ManagedClusterSetBindings",
            ));
        } else if key == LAST_APPLIED {
            fields.push(FieldReport::lost(
                field,
                "kubectl bookkeeping of the old object",
            ));
        } else {
            fields.push(FieldReport::exact(field.clone(), field));
            metadata.annotations.to_mut().insert(key, value);
        }
    }
    metadata
}

/// The one predicate that selects what the rule selected: `clusterSelector` as its label
/// selector, or `clusters[].name` as a CEL name match (which replaces the selector, as the
/// rule did), and each `clusterConditions` entry as a CEL condition filter; `None` when the
/// rule selects every cluster.
fn predicate(spec: &PlacementRuleSpec, fields: &mut Vec<FieldReport>) -> Option<ClusterPredicate> {
    let mut label_selector: Option<LabelSelectorSpec> = None;
    let mut expressions = Vec::new();
    if spec.clusters.is_empty() {
        if let Some(selector) = &spec.cluster_selector {
            label_selector = Some(selector.clone());
            fields.push(FieldReport::exact(
                "spec.clusterSelector",
                "spec.predicates[0].requiredClusterSelector.labelSelector",
            ));
        }
    } else {
        expressions.push(cel::name_in(&spec.clusters));
        fields.push(
            FieldReport::exact(
                "spec.clusters[].name",
                format!("celSelector {}", cel::name_in(&spec.clusters)),
            )
            .because("a Placement has no cluster-name field; CEL matches metadata.name itself, a `name` label is only a convention"),
        );
        if spec.cluster_selector.is_some() {
            fields.push(
                FieldReport::exact("spec.clusterSelector", "nothing")
                    .because("the PlacementRule ignored it because spec.clusters is set"),
            );
        }
    }
    for (index, condition) in spec.cluster_conditions.iter().enumerate() {
        let expression = cel::condition_filter(&condition.kind, &condition.status);
        fields.push(FieldReport::exact(
            format!(
                "spec.clusterConditions[{index}] {}={}",
                condition.kind, condition.status
            ),
            format!("celSelector {expression}"),
        ));
        expressions.push(expression);
    }
    (label_selector.is_some() || !expressions.is_empty()).then(|| ClusterPredicate {
        required_cluster_selector: ClusterSelector {
            label_selector,
            cel_selector: expressions,
            ..ClusterSelector::default()
        },
        ..ClusterPredicate::default()
    })
}

/// `Exact` mode with one built-in prioritizer: `Additive` would add Balance, which scores by
/// other placements' decisions, something no legacy scheduler looked at.
fn exact(built_in: &str, weight: i32) -> PrioritizerPolicy {
    PrioritizerPolicy {
        mode: "Exact".to_string(),
        configurations: vec![PrioritizerConfig {
            score_coordinate: ScoreCoordinate {
                kind: ScoreCoordinateType::BuiltIn,
                built_in: built_in.to_string(),
                add_on: None,
            },
            weight,
        }],
    }
}

/// The pick order: `resourceHint`, else the current decisions first (Steady).
fn order(input: &RuleInput, placement: &mut PlacementSpec, fields: &mut Vec<FieldReport>) {
    let spec = input.spec;
    let hint = spec.resource_hint.as_ref();
    if let Some((resource, order)) =
        hint.and_then(|hint| hint.resource.map(|resource| (resource, hint.order)))
    {
        let (prioritizer, name) = match resource {
            HintResource::Cpu => (resource::CPU, "cpu"),
            HintResource::Memory => (resource::MEMORY, "memory"),
        };
        let (weight, order_name) = match order {
            SelectionOrder::Desc => (1, "desc"),
            SelectionOrder::Asc => (-1, "asc"),
        };
        placement.prioritizer_policy = exact(prioritizer, weight);
        fields.push(FieldReport::approximate(
            format!("spec.resourceHint {name} {order_name}"),
            format!("spec.prioritizerPolicy Exact, {prioritizer} weight {weight}"),
            "OCM scores allocatable on an integer scale from the fleet's minimum to maximum, so amounts closer than 0.5% of that range tie (then by name, as before), and a cluster lacking allocatable or capacity scores 0 instead of ranking as 0 allocatable",
        ));
        if !input.decisions.is_empty() {
            fields.push(
                FieldReport::exact("status.decisions", "nothing")
                    .because("with a resourceHint the PlacementRule ignored them"),
            );
        }
        return;
    }
    if hint.is_some() {
        fields.push(
            FieldReport::exact("spec.resourceHint", "nothing")
                .because("without a type the PlacementRule sorted nothing"),
        );
    }
    placement.prioritizer_policy = exact("Steady", 1);
    fields.push(
        FieldReport::exact(
            "(current decisions first)",
            "spec.prioritizerPolicy Exact, Steady weight 1",
        )
        .because("Exact mode leaves out Balance, which the PlacementRule never had"),
    );
    match (input.decisions.is_empty(), spec.cluster_replicas) {
        (true, _) => {}
        (false, Some(_)) => fields.push(FieldReport::approximate(
            "status.decisions",
            "nothing",
            "a new Placement has no decisions yet, so its first schedule picks by name where the PlacementRule kept its current clusters",
        )),
        (false, None) => fields.push(
            FieldReport::exact("status.decisions", "nothing")
                .because("without clusterReplicas every eligible cluster is selected in any order"),
        ),
    }
}
