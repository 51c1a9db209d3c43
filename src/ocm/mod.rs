//! Open Cluster Management, one folder: Placement and PlacementRule and the objects that use
//! them (Policies through PlacementBindings, Subscriptions, ManifestWorkReplicaSets, Argo CD
//! ApplicationSets, add-ons). `model/` holds their specs, `read/` is the load layer (their
//! kinds and readers), `plan/` the plan steps (a Placement, a PlacementRule, the consumers
//! planned through their placements), `explain/` explain's pieces, `migrate/` the OCM
//! migration target. The rest is the engine, described below.
//!
//! The OCM placement scheduler: clusterset resolution, filters, prioritizers, selection,
//! spread and anti-affinity, decision groups, conditions. Plus PlacementRule evaluation.
//!
//! `schedule` is pure: what the run shares (a [`Scheduler`]: the fleet index, the previous
//! decisions and each plugin's data, built once), one placement and the time in; selected
//! clusters, PlacementDecision objects, conditions and a trace out. The filters live in
//! `filters/`, the prioritizers in `prioritizers/` (one file each, registered in their
//! folder's `mod.rs`), and `scheduler.rs` runs them in one loop for `plan` and `explain`.
//!
//! A seed v1alpha1 placement whose predicates carry their own `clusterSets` or
//! `numberOfClusters` is scheduled predicate by predicate (`select::per_predicate`): the same
//! filters and score order, but each predicate fills its own count, previous clusters first,
//! then in score order where the seed says "random".

pub(crate) mod clustersets;
pub(crate) mod conditions;
pub(crate) mod diff;
pub(crate) mod explain;
pub(crate) mod feasible;
pub(crate) mod fields;
pub(crate) mod filters;
pub(crate) mod fleet;
pub(crate) mod groups;
pub(crate) mod hints;
mod memo;
pub(crate) mod migrate;
pub(crate) mod model;
pub(crate) mod plan;
pub(crate) mod previous;
pub(crate) mod prioritizers;
pub(crate) mod read;
pub(crate) mod rule;
mod scheduler;
pub(crate) mod select;
pub(crate) mod spread;
pub(crate) mod trace;
pub(crate) mod upstream_vectors;

use std::collections::{BTreeMap, BTreeSet};

use crate::model::ClusterNames;
use crate::ocm::model::placement::PlacementSpec;

use conditions::{Condition, Counts, Status};
use filters::predicate::Scope;
pub(crate) use fleet::FleetIndex;
use fleet::Members;
use groups::{DecisionGroupStatus, DecisionObject};
pub(crate) use scheduler::Ahead;
use scheduler::Scheduled;
pub use scheduler::Scheduler;
use trace::{DebugResult, PrioritizerResult, Score, ScorePart, Trace, Verdict};

/// One Placement to schedule against the fleet.
pub struct PlacementInput<'a> {
    pub scheduler: &'a Scheduler<'a>,
    pub namespace: &'a str,
    pub name: &'a str,
    pub spec: &'a PlacementSpec,
    /// Unix seconds: taint toleration expiry and AddOnPlacementScore validity.
    pub now: i64,
    /// Record per-cluster verdicts and upstream's debug shape (what `explain` shows).
    pub trace: bool,
    /// Enforce `spec.spreadPolicy` (a fleetplan extension): the OCM scheduler accepts it but
    /// does not enforce it, so by default the placement selects as if it were absent.
    pub enforce_spread: bool,
}

/// What a plan and `explain` say about a spreadPolicy the hub does not enforce.
pub(crate) const SPREAD_NOT_ENFORCED: &str =
    "spreadPolicy is accepted by the API but not enforced by the OCM scheduler";

/// What the scheduler warns about besides its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// A prioritizer's Warning status (upstream logs it and goes on).
    Plugin { plugin: String, message: String },
    /// `spec.spreadPolicy` is written and not enforced (no `--enforce-spread-policy`).
    SpreadNotEnforced,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Warning::Plugin { message, .. } => f.write_str(message),
            Warning::SpreadNotEnforced => write!(
                f,
                "{SPREAD_NOT_ENFORCED}: the hub selects as if it were absent (--enforce-spread-policy enforces it as a fleetplan extension)"
            ),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacementResult {
    /// Valid ManagedClusterSetBindings in the namespace.
    pub bindings: Vec<String>,
    pub eligible_sets: Vec<String>,
    /// Candidates: members of the eligible sets that are not being deleted.
    pub available: usize,
    /// Selected clusters, sorted by name.
    pub selected: ClusterNames,
    /// Rank and total score of each selected cluster, aligned with `selected`. Kept in every
    /// run (the plan table shows them); `trace` holds every cluster's verdict only when asked.
    pub scores: Vec<Ranked>,
    pub unscheduled: i64,
    pub groups: Vec<DecisionGroupStatus>,
    pub decisions: Vec<DecisionObject>,
    pub status: Status,
    pub satisfied: Condition,
    pub misconfigured: Condition,
    /// When upstream would reschedule: the earliest future expiry of a toleration on a
    /// cluster of this placement's previous decisions (Unix seconds).
    pub requeue_at: Option<i64>,
    /// When this plan stops holding: the earliest of `requeue_at` and the toleration
    /// expiries of the clusters selected now.
    pub changes_at: Option<i64>,
    pub warnings: Vec<Warning>,
    /// Fields written in the spec that do not change the selection (`spec.sortBy`, ...).
    pub unread_fields: Vec<&'static str>,
    pub trace: Option<Trace>,
}

impl PlacementResult {
    /// Whether upstream's sync got as far as scheduling. When it fails before (a clusterset
    /// whose members cannot be listed), the hub writes no decision, group or condition and
    /// keeps the ones it has.
    pub fn synced(&self) -> bool {
        !matches!(self.status, Status::Error { .. })
    }

    /// The conditions the hub writes: none when the sync failed.
    pub fn conditions(&self) -> Vec<Condition> {
        if self.synced() {
            vec![self.satisfied.clone(), self.misconfigured.clone()]
        } else {
            Vec::new()
        }
    }
}

/// A cluster's place in the score order (1 = best) and its total score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ranked {
    pub rank: usize,
    pub total: i64,
}

/// The clusterSets a placement names: its own, or (seed v1alpha1) those of its predicates.
fn sets_in_spec(spec: &PlacementSpec) -> Vec<String> {
    if !spec.cluster_sets.is_empty() || !spec.per_predicate() {
        return spec.cluster_sets.clone();
    }
    let named: BTreeSet<&String> = spec
        .predicates
        .iter()
        .flat_map(|predicate| &predicate.cluster_sets)
        .collect();
    named.into_iter().cloned().collect()
}

/// The fields of `spec` the scheduler does not read, as written; spreadPolicy unless enforced.
fn unread_fields(spec: &PlacementSpec, enforce_spread: bool) -> Vec<&'static str> {
    let mut fields = Vec::new();
    if spec.sort_by.is_some() {
        fields.push("spec.sortBy");
    }
    if spec.score_rate_limit.is_some() {
        fields.push("spec.scoreRateLimit");
    }
    if !enforce_spread && !spec.spread_policy.spread_constraints.is_empty() {
        fields.push("spec.spreadPolicy");
    }
    fields
}

/// Schedules one Placement (upstream `schedulingController.syncPlacement`).
pub fn schedule(input: &PlacementInput) -> PlacementResult {
    let unread = unread_fields(input.spec, input.enforce_spread);
    if !unread.contains(&"spec.spreadPolicy") {
        let mut result = schedule_spec(input);
        result.unread_fields = unread;
        return result;
    }
    // The hub selects as if spreadPolicy were absent.
    let hub_spec = PlacementSpec {
        spread_policy: Default::default(),
        ..input.spec.clone()
    };
    let mut result = schedule_spec(&PlacementInput {
        spec: &hub_spec,
        ..*input
    });
    result.warnings.push(Warning::SpreadNotEnforced);
    result.unread_fields = unread;
    result
}

fn schedule_spec(input: &PlacementInput) -> PlacementResult {
    let fleet = &input.scheduler.fleet;
    let spec = input.spec;
    let bindings = clustersets::valid_bindings(fleet, input.namespace);
    let (eligible_sets, scopes, candidates) = candidates(fleet, spec, &bindings);
    let (candidates, scheduled) = match candidates {
        Ok(candidates) => {
            let scheduled = scheduler::run(input, &candidates, &eligible_sets, &scopes);
            (candidates, scheduled)
        }
        Err(error) => (
            Default::default(),
            Scheduled::default().stop(Status::Error {
                message: error.to_string(),
            }),
        ),
    };

    let chosen = chosen(fleet, &scheduled);
    let mut status = scheduled.status.clone().unwrap_or(Status::Success);
    let (groups, decisions) = decide(input, &scheduled, &chosen, &mut status);
    let selected = ClusterNames::ranked(fleet.names(), chosen.iter().map(|&(rank, _)| rank));
    let scores = chosen
        .iter()
        .map(|&(_, position)| Ranked {
            rank: position + 1,
            total: scheduled.totals.get(position).copied().unwrap_or(0),
        })
        .collect();

    let satisfied = conditions::satisfied(
        &Counts {
            cluster_sets_in_spec: &sets_in_spec(spec),
            eligible_sets: &eligible_sets,
            bindings: bindings.len(),
            available: candidates.len(),
            feasible: selected.len(),
            unscheduled: scheduled.unscheduled,
        },
        &status,
    );
    let misconfigured = conditions::misconfigured(&status);
    let trace = input.trace.then(|| {
        build_trace(
            input,
            &eligible_sets,
            &candidates,
            &scheduled,
            &status,
            &decisions,
        )
    });
    PlacementResult {
        bindings,
        eligible_sets,
        available: candidates.len(),
        selected,
        scores,
        unscheduled: scheduled.unscheduled,
        groups,
        decisions,
        status,
        satisfied,
        misconfigured,
        requeue_at: scheduled.requeue_at,
        changes_at: scheduled.changes_at,
        warnings: scheduled.warnings,
        unread_fields: Vec::new(),
        trace,
    }
}

/// The clusterSets the placement may choose from (the bound ones it names; seed v1alpha1:
/// with its predicates' own, and each predicate's scope) and their members, the candidates:
/// an error when a clusterSet's members cannot be listed, which fails the sync.
fn candidates(
    fleet: &FleetIndex,
    spec: &PlacementSpec,
    bindings: &[String],
) -> (Vec<String>, Vec<Scope>, Members) {
    let mut eligible_sets = clustersets::eligible_sets(bindings, &spec.cluster_sets);
    let mut scopes = Vec::new();
    let mut candidates = Ok(Default::default());
    if spec.per_predicate() {
        match filters::predicate::scopes(fleet, spec, &eligible_sets) {
            Ok((sets, found)) => {
                eligible_sets = sets;
                scopes = found;
            }
            Err(message) => candidates = Err(message),
        }
    }
    if candidates.is_ok() && !eligible_sets.is_empty() {
        candidates = fleet.candidates(&eligible_sets);
    }
    (eligible_sets, scopes, candidates)
}

/// The selected clusters as (name rank, score order position): sorted by rank they are in
/// name order, which is how groups, decisions and the plan list them, without comparing a
/// name.
fn chosen(fleet: &FleetIndex, scheduled: &Scheduled) -> Vec<(usize, usize)> {
    let mut chosen: Vec<(usize, usize)> = scheduled
        .selection
        .iter()
        .flat_map(|selection| selection.selected.iter())
        .filter_map(|&position| {
            let index = *scheduled.ranked.get(position)?;
            Some((fleet.name_rank(index), position))
        })
        .collect();
    chosen.sort_unstable();
    chosen
}

/// The decision groups and PlacementDecision objects of the `chosen` clusters. A group
/// strategy that cannot be applied makes `status` Misconfigured, with none of either.
fn decide(
    input: &PlacementInput,
    scheduled: &Scheduled,
    chosen: &[(usize, usize)],
    status: &mut Status,
) -> (Vec<DecisionGroupStatus>, Vec<DecisionObject>) {
    if matches!(status, Status::Error { .. }) {
        // The sync failed before scheduling: upstream writes nothing, so the hub keeps its
        // decisions; an empty group or decision, applied, would wipe them.
        return (Vec::new(), Vec::new());
    }
    let fleet = &input.scheduler.fleet;
    let selected_clusters: Vec<(usize, usize)> = chosen
        .iter()
        .map(|&(rank, position)| (scheduled.ranked[position], rank))
        .collect();
    let grouped = groups::decision_groups(
        &input.spec.decision_strategy.group_strategy,
        fleet,
        &selected_clusters,
    );
    match grouped {
        Ok(grouped) => {
            groups::decision_objects(input.namespace, input.name, fleet.names(), grouped)
        }
        Err(error) => {
            *status = Status::Misconfigured {
                plugin: String::new(),
                message: error.to_string(),
            };
            (Vec::new(), Vec::new())
        }
    }
}

fn build_trace(
    input: &PlacementInput,
    eligible_sets: &[String],
    candidates: &[usize],
    scheduled: &Scheduled,
    status: &Status,
    decisions: &[DecisionObject],
) -> Trace {
    let fleet = &input.scheduler.fleet;
    let mut verdicts = ranked_verdicts(fleet, scheduled, decisions);
    let stopped = match status {
        Status::Misconfigured { plugin, message } => {
            format!("placement misconfigured: {plugin}:{message}")
        }
        Status::Error { message } => format!("scheduling failed: {message}"),
        _ => "not scheduled".to_string(),
    };
    for &index in candidates {
        let name = &fleet.cluster(index).name;
        if verdicts.contains_key(name) {
            continue;
        }
        let verdict = scheduled
            .filtered_out
            .get(&index)
            .cloned()
            .unwrap_or_else(|| Verdict::NotScheduled {
                reason: stopped.clone(),
            });
        verdicts.insert(name.clone(), verdict);
    }
    for (index, cluster) in fleet.inventory.clusters.iter().enumerate() {
        if verdicts.contains_key(&cluster.name) {
            continue;
        }
        let verdict =
            if cluster.deleting && eligible_sets.iter().any(|set| fleet.is_member(set, index)) {
                Verdict::BeingDeleted
            } else {
                Verdict::NotInEligibleSet
            };
        verdicts.insert(cluster.name.clone(), verdict);
    }
    Trace {
        verdicts,
        debug: debug_result(fleet, scheduled),
    }
}

/// The verdicts of the clusters that passed every filter, with their scores: selected (in
/// which group and decision), kept out by a spread rule, or cut by numberOfClusters.
fn ranked_verdicts(
    fleet: &FleetIndex,
    scheduled: &Scheduled,
    decisions: &[DecisionObject],
) -> BTreeMap<String, Verdict> {
    let placed = groups::placed(decisions);
    let score_of = |position: usize| Score {
        rank: position + 1,
        total: scheduled.totals.get(position).copied().unwrap_or(0),
        parts: scheduled
            .weights
            .iter()
            .zip(&scheduled.scores)
            .map(|(weighted, scores)| ScorePart {
                prioritizer: weighted.name.clone(),
                score: scores.get(position).copied().flatten(),
                weight: weighted.weight,
            })
            .collect(),
    };
    let mut verdicts = BTreeMap::new();
    for (position, &index) in scheduled.ranked.iter().enumerate() {
        let name = fleet.cluster(index).name.as_str();
        let score = score_of(position);
        let verdict = if let Some(placed) = placed.get(name) {
            Verdict::Selected {
                score,
                group_index: placed.group_index,
                group_name: placed.group_name.to_string(),
                decision: placed.decision.to_string(),
            }
        } else if let Some(block) = scheduled
            .selection
            .as_ref()
            .and_then(|selection| selection.blocked.get(&position))
        {
            Verdict::Spread {
                rule: block.rule.clone(),
                domain: block.domain.clone(),
                taken_by: block.taken_by.clone(),
                score,
            }
        } else {
            Verdict::CutByNumberOfClusters { score }
        };
        verdicts.insert(name.to_string(), verdict);
    }
    verdicts
}

/// Upstream's debug shape: what each filter step left, each prioritizer's scores and the
/// totals, by cluster name.
fn debug_result(fleet: &FleetIndex, scheduled: &Scheduled) -> DebugResult {
    let prioritize_results = scheduled
        .weights
        .iter()
        .zip(&scheduled.scores)
        .map(|(weighted, scores)| PrioritizerResult {
            name: weighted.name.clone(),
            weight: weighted.weight,
            scores: scheduled
                .ranked
                .iter()
                .zip(scores)
                .filter_map(|(&index, score)| {
                    score.map(|score| (fleet.cluster(index).name.clone(), score))
                })
                .collect(),
        })
        .collect();
    let aggregated_scores = scheduled
        .ranked
        .iter()
        .zip(&scheduled.totals)
        .map(|(&index, &total)| (fleet.cluster(index).name.clone(), total))
        .collect();
    DebugResult {
        filtered_pipeline_results: scheduled.filter_results.clone(),
        prioritize_results,
        aggregated_scores,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::model::{
        Binding, Cluster, ClusterIndex, ClusterSet, ClusterSetSelector, Inventory, ObjectRef,
        PreviousDecision, Taint, TaintEffect, CLUSTERSET_LABEL,
    };
    use crate::ocm::model::decision::DECISION_KIND;
    use crate::ocm::model::placement::decode_placement_spec;
    use crate::ocm::model::scores::AddOnPlacementScore;

    use super::*;
    use crate::testing::cluster;

    /// An online cluster of the clusterset `set`.
    pub(crate) fn member(name: &str) -> Cluster {
        cluster(name).label(CLUSTERSET_LABEL, "set").build()
    }

    /// The clusters, with the clusterset `set` bound to the namespace `ns`.
    pub(crate) fn fleet(clusters: Vec<Cluster>) -> Inventory {
        Inventory {
            clusters,
            cluster_sets: vec![ClusterSet {
                name: "set".into(),
                selector: ClusterSetSelector::ExclusiveClusterSetLabel,
                source: Default::default(),
            }],
            bindings: vec![Binding {
                namespace: "ns".into(),
                name: "set".into(),
                cluster_set: "set".into(),
                source: Default::default(),
            }],
            apis: Default::default(),
        }
    }

    /// The previous decision of the placement `ns/p`.
    pub(crate) fn decided(clusters: &[&str]) -> Vec<PreviousDecision> {
        decided_by("p", clusters)
    }

    /// The previous decision of the placement `ns/<placement>`.
    pub(crate) fn decided_by(placement: &str, clusters: &[&str]) -> Vec<PreviousDecision> {
        vec![PreviousDecision {
            object: ObjectRef {
                api_version: "cluster.open-cluster-management.io/v1beta1".into(),
                kind: DECISION_KIND.into(),
                namespace: Some("ns".into()),
                name: format!("{placement}-decision-1"),
            },
            placement: placement.into(),
            clusters: clusters.iter().map(|name| name.to_string()).collect(),
            source: Default::default(),
        }]
    }

    fn run(
        inventory: &Inventory,
        previous: &[PreviousDecision],
        spec: serde_json::Value,
    ) -> PlacementResult {
        run_version("v1beta1", inventory, previous, spec, true)
    }

    fn run_alpha(
        inventory: &Inventory,
        previous: &[PreviousDecision],
        spec: serde_json::Value,
    ) -> PlacementResult {
        run_version("v1alpha1", inventory, previous, spec, true)
    }

    fn run_version(
        version: &str,
        inventory: &Inventory,
        previous: &[PreviousDecision],
        spec: serde_json::Value,
        trace: bool,
    ) -> PlacementResult {
        let api_version = format!("cluster.open-cluster-management.io/{version}");
        let spec = decode_placement_spec(&api_version, spec).unwrap();
        let clusters = ClusterIndex::new(&inventory.clusters);
        let scheduler = Scheduler::new(&clusters, inventory, previous);
        schedule(&PlacementInput {
            scheduler: &scheduler,
            namespace: "ns",
            name: "p",
            spec: &spec,
            now: 0,
            trace,
            enforce_spread: false,
        })
    }

    #[test]
    fn better_scoring_new_cluster_does_not_evict_a_steady_one() {
        let mut inventory = fleet(vec![member("a-old"), member("b-new")]);
        inventory.apis.addon_scores.push(AddOnPlacementScore {
            namespace: "b-new".into(),
            name: "demo".into(),
            scores: BTreeMap::from([("score".to_string(), 50)]),
            valid_until: None,
            source: Default::default(),
        });
        let spec = serde_json::json!({
            "numberOfClusters": 1,
            "prioritizerPolicy": {"configurations": [
                {"scoreCoordinate": {"type": "AddOn", "addOn": {"resourceName": "demo", "scoreName": "score"}}}
            ]}
        });
        let result = run(&inventory, &decided(&["a-old"]), spec);
        assert_eq!(result.selected, vec!["a-old"]);
        let verdicts = result.trace.unwrap().verdicts;
        assert!(
            matches!(verdicts["b-new"], Verdict::CutByNumberOfClusters { ref score } if score.total == 150)
        );
    }

    #[test]
    fn every_cluster_gets_one_verdict() {
        let mut deleting = member("deleting");
        deleting.deleting = true;
        let mut tainted = member("tainted");
        tainted.taints.push(Taint {
            key: "k".into(),
            value: String::new(),
            effect: TaintEffect::NoSelect,
            time_added: None,
        });
        let outsider = cluster("outsider").build();
        let inventory = fleet(vec![member("a"), member("b"), deleting, tainted, outsider]);
        let result = run(&inventory, &[], serde_json::json!({"numberOfClusters": 1}));
        let verdicts = result.trace.unwrap().verdicts;
        assert_eq!(verdicts.len(), 5);
        assert!(matches!(
            verdicts["a"],
            Verdict::Selected { ref decision, group_index: 0, .. } if decision == "p-decision-1"
        ));
        assert!(
            matches!(verdicts["b"], Verdict::CutByNumberOfClusters { ref score } if score.rank == 2)
        );
        assert_eq!(verdicts["deleting"], Verdict::BeingDeleted);
        assert_eq!(
            verdicts["tainted"],
            Verdict::TaintNotTolerated {
                taint: "k:NoSelect".into()
            }
        );
        assert_eq!(verdicts["outsider"], Verdict::NotInEligibleSet);
        assert_eq!(result.satisfied.reason, "AllDecisionsScheduled");
    }

    #[test]
    fn misconfigured_prioritizer_selects_nothing() {
        let inventory = fleet(vec![member("a")]);
        let spec = serde_json::json!({"prioritizerPolicy": {"configurations": [
            {"scoreCoordinate": {"builtIn": "Spread"}}
        ]}});
        let result = run(&inventory, &[], spec);
        assert!(result.selected.is_empty());
        assert_eq!(
            result.misconfigured.message,
            ":incorrect builtin prioritizer: Spread"
        );
        assert_eq!(result.satisfied.reason, "NoManagedClusterMatched");
        assert_eq!(result.decisions.len(), 1);
        assert!(result.decisions[0].clusters.is_empty());
    }

    #[test]
    fn offline_cluster_is_not_selected_unless_tolerated() {
        let mut offline = member("offline");
        offline.online = false;
        let inventory = fleet(vec![member("a"), offline]);
        assert_eq!(
            run(&inventory, &[], serde_json::json!({})).selected,
            vec!["a"]
        );
        let tolerant = serde_json::json!({"tolerations": [
            {"key": "cluster.open-cluster-management.io/unreachable", "operator": "Exists"}
        ]});
        assert_eq!(
            run(&inventory, &[], tolerant).selected,
            vec!["a", "offline"]
        );
    }

    #[test]
    fn unknown_clusterset_type_is_an_error() {
        let mut inventory = fleet(vec![member("a")]);
        inventory.cluster_sets[0].selector = ClusterSetSelector::Unknown("errorType".into());
        let result = run(&inventory, &[], serde_json::json!({}));
        assert!(matches!(result.status, Status::Error { .. }));
        assert_eq!(result.satisfied.reason, "NotAllDecisionsScheduled");
    }

    #[test]
    fn untraced_schedule_selects_what_the_traced_one_does() {
        let mut clusters: Vec<Cluster> = (0..40).map(|n| member(&format!("c{n:02}"))).collect();
        clusters[3].online = false;
        let inventory = fleet(clusters);
        let previous = decided(&["c07", "c30", "c31"]);
        let spec = serde_json::json!({"numberOfClusters": 5});
        let run = |trace| run_version("v1beta1", &inventory, &previous, spec.clone(), trace);
        let (traced, untraced) = (run(true), run(false));
        assert_eq!(untraced.selected, vec!["c00", "c01", "c07", "c30", "c31"]);
        assert_eq!(untraced.selected, traced.selected);
        assert_eq!(untraced.decisions, traced.decisions);
    }

    /// The untraced taint filter reads the fleet-wide `Admitted` bits; the traced one judges
    /// every cluster. They must agree, also on NoSelectIfNew for the placement's own clusters
    /// and on the expiry a toleration with seconds gives.
    #[test]
    fn untraced_taint_filter_agrees_with_the_traced_one() {
        let taint = |key: &str, effect, time_added| Taint {
            key: key.into(),
            value: String::new(),
            effect,
            time_added,
        };
        let mut clusters: Vec<Cluster> = (0..8).map(|n| member(&format!("c{n}"))).collect();
        clusters[1]
            .taints
            .push(taint("new", TaintEffect::NoSelectIfNew, None));
        clusters[2]
            .taints
            .push(taint("new", TaintEffect::NoSelectIfNew, None));
        clusters[3]
            .taints
            .push(taint("k", TaintEffect::NoSelect, Some(0)));
        clusters[4]
            .taints
            .push(taint("other", TaintEffect::NoSelect, None));
        clusters[5].online = false;
        let inventory = fleet(clusters);
        let previous = decided(&["c2"]);
        let spec = serde_json::json!({"tolerations": [
            {"key": "k", "operator": "Exists", "tolerationSeconds": 600}
        ]});
        let run = |trace| run_version("v1beta1", &inventory, &previous, spec.clone(), trace);
        let (traced, untraced) = (run(true), run(false));
        assert_eq!(untraced.selected, vec!["c0", "c2", "c3", "c6", "c7"]);
        assert_eq!(untraced.selected, traced.selected);
        assert_eq!(untraced.changes_at, Some(600));
        assert_eq!(untraced.changes_at, traced.changes_at);
    }

    #[test]
    fn undeclared_cel_variable_is_misconfigured() {
        let inventory = fleet(vec![member("a")]);
        let spec = serde_json::json!({"predicates": [{"requiredClusterSelector": {
            "celSelector": {"celExpressions": ["cluster.metadata.name == 'a'"]}
        }}]});
        let result = run(&inventory, &[], spec);
        assert!(result.selected.is_empty());
        assert_eq!(
            result.misconfigured.status,
            crate::model::ConditionStatus::True
        );
        assert!(
            result
                .misconfigured
                .message
                .starts_with("Predicate:compilation failed: undeclared reference to 'cluster'"),
            "{}",
            result.misconfigured.message
        );
    }

    const PLATFORM: &str = "platform.open-cluster-management.io";

    fn on(platform: &str, name: &str) -> Cluster {
        let mut cluster = member(name);
        cluster.claims.insert(PLATFORM.into(), platform.into());
        cluster
    }

    fn clouds() -> Inventory {
        fleet(vec![
            on("AWS", "aws1"),
            on("AWS", "aws2"),
            on("AWS", "aws3"),
            on("GCE", "gce1"),
            on("GCE", "gce2"),
        ])
    }

    /// The seed's Example 4, with the given numberOfClusters for GCE.
    fn aws_and_gce(gce: i32) -> serde_json::Value {
        let platform = |value: &str| {
            serde_json::json!({"claimSelector": {"matchExpressions": [
                {"key": PLATFORM, "operator": "In", "values": [value]}
            ]}})
        };
        serde_json::json!({"predicates": [
            {"numberOfClusters": 2, "requiredDuringSchedulingRequiredDuringExecution": platform("AWS")},
            {"numberOfClusters": gce, "requiredDuringSchedulingRequiredDuringExecution": platform("GCE")}
        ]})
    }

    #[test]
    fn seed_example_four_selects_two_aws_and_one_gce() {
        let result = run_alpha(&clouds(), &[], aws_and_gce(1));
        assert_eq!(result.selected, vec!["aws1", "aws2", "gce1"]);
        assert_eq!(result.unscheduled, 0);
        assert_eq!(result.satisfied.reason, "AllDecisionsScheduled");
    }

    #[test]
    fn per_predicate_shortfalls_add_up_to_unscheduled() {
        let result = run_alpha(&clouds(), &[], aws_and_gce(4));
        assert_eq!(result.selected, vec!["aws1", "aws2", "gce1", "gce2"]);
        assert_eq!(result.unscheduled, 2);
        assert_eq!(
            result.satisfied.status,
            crate::model::ConditionStatus::False
        );
        assert_eq!(result.satisfied.reason, "NotAllDecisionsScheduled");
    }

    #[test]
    fn per_predicate_keeps_previous_clusters_first() {
        let result = run_alpha(&clouds(), &decided(&["aws3", "gce2"]), aws_and_gce(1));
        assert_eq!(result.selected, vec!["aws1", "aws3", "gce2"]);
    }

    #[test]
    fn per_predicate_verdicts_agree_with_the_selection() {
        let mut inventory = clouds();
        inventory.clusters.push(on("Azure", "azure1"));
        let result = run_alpha(&inventory, &[], aws_and_gce(1));
        let verdicts = result.trace.unwrap().verdicts;
        assert_eq!(verdicts.len(), 6);
        let selected: Vec<&str> = verdicts
            .iter()
            .filter(|(_, verdict)| matches!(verdict, Verdict::Selected { .. }))
            .map(|(name, _)| name.as_str())
            .collect();
        assert_eq!(result.selected, selected);
        assert!(matches!(
            verdicts["aws3"],
            Verdict::CutByNumberOfClusters { .. }
        ));
        assert!(matches!(
            verdicts["azure1"],
            Verdict::NoPredicateMatched { ref reasons } if reasons.len() == 2
        ));
    }

    fn two_sets() -> Inventory {
        let mut inventory = fleet(Vec::new());
        for (set, cluster) in [
            ("east", "e1"),
            ("east", "e2"),
            ("west", "w1"),
            ("west", "w2"),
        ] {
            let mut cluster = member(cluster);
            cluster.labels.insert(CLUSTERSET_LABEL.into(), set.into());
            inventory.clusters.push(cluster);
        }
        inventory.cluster_sets = ["east", "west"]
            .iter()
            .map(|set| ClusterSet {
                name: set.to_string(),
                selector: ClusterSetSelector::ExclusiveClusterSetLabel,
                source: Default::default(),
            })
            .collect();
        inventory.bindings = ["east", "west"]
            .iter()
            .map(|set| Binding {
                namespace: "ns".into(),
                name: set.to_string(),
                cluster_set: set.to_string(),
                source: Default::default(),
            })
            .collect();
        inventory
    }

    #[test]
    fn per_predicate_cluster_sets_scope_each_predicate() {
        let spec = serde_json::json!({"predicates": [
            {"clusterSets": ["east"], "numberOfClusters": 1},
            {"clusterSets": ["west", "unbound"], "numberOfClusters": 1}
        ]});
        let result = run_alpha(&two_sets(), &[], spec);
        assert_eq!(result.selected, vec!["e1", "w1"]);
        assert_eq!(result.eligible_sets, vec!["east", "west"]);
    }

    #[test]
    fn no_intersection_names_the_predicates_sets() {
        let spec = serde_json::json!({"predicates": [
            {"clusterSets": ["north"]}, {"clusterSets": ["south"]}
        ]});
        let result = run_alpha(&two_sets(), &[], spec);
        assert_eq!(result.satisfied.reason, "NoIntersection");
        assert_eq!(
            result.satisfied.message,
            "None of ManagedClusterSets [north,south] is bound to placement namespace"
        );
    }

    #[test]
    fn cluster_outside_a_predicate_sets_says_so() {
        let spec = serde_json::json!({"predicates": [
            {"clusterSets": ["east"], "requiredDuringSchedulingRequiredDuringExecution":
                {"labelSelector": {"matchLabels": {"tier": "gold"}}}},
            {"clusterSets": ["east"]}
        ]});
        let result = run_alpha(&two_sets(), &[], spec);
        assert_eq!(result.selected, vec!["e1", "e2"]);
        assert_eq!(
            result.trace.unwrap().verdicts["w1"],
            Verdict::NotInEligibleSet
        );
        let spec = serde_json::json!({"predicates": [
            {"clusterSets": ["east"]},
            {"requiredDuringSchedulingRequiredDuringExecution":
                {"labelSelector": {"matchLabels": {"tier": "gold"}}}}
        ]});
        let result = run_alpha(&two_sets(), &[], spec);
        let Verdict::NoPredicateMatched { reasons } = &result.trace.unwrap().verdicts["w1"] else {
            panic!("w1 should match no predicate");
        };
        assert_eq!(reasons[0], "predicates[0]: not in its clusterSets [east]");
    }

    #[test]
    fn anti_affinity_applies_to_the_union_of_predicates() {
        let mut inventory = clouds();
        for cluster in &mut inventory.clusters {
            cluster.labels.insert("region".into(), "one".into());
        }
        let mut spec = aws_and_gce(1);
        spec["affinity"] = serde_json::json!({"clusterAntiAffinity": {
            "requiredDuringSchedulingRequiredDuringExecution": [
                {"topologyKey": "region", "topologyKeyType": "Label"}
            ]
        }});
        let result = run_alpha(&inventory, &[], spec);
        assert_eq!(result.selected, vec!["aws1"]);
        assert_eq!(result.unscheduled, 0);
        let verdicts = result.trace.unwrap().verdicts;
        assert!(
            matches!(verdicts["gce1"], Verdict::Spread { ref taken_by, .. } if taken_by == &["aws1"])
        );
    }
}
