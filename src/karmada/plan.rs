//! Karmada: which policy claims the resource template (the resource detector), then what
//! `karmada-scheduler` writes into its ResourceBinding: `spec.clusters` and the `Scheduled`
//! condition. Upstream quirks that matter to a user become warnings.

use std::collections::{BTreeMap, HashSet};

use crate::karmada::filter::{self, FilterContext, TermAffinity, Verdict};
use crate::karmada::fleet::Fleet as KarmadaFleet;
use crate::karmada::model::{
    KarmadaCluster, PropagationPolicy, ResourceBinding, ResourceTemplate, TargetCluster,
};
use crate::karmada::scheduler::{Clusters, Outcome, Reason};
use crate::karmada::{binding_name, claim, ignored, schedule, spread, Binding, Candidate, Claim};
use crate::model::{ClusterNames, Condition, PlanItem, Workload};

use crate::plan::trace::ItemTrace;
use crate::plan::{Diagnostic, DiagnosticKind, Planned, Run, Trace};

/// The binding condition fleetplan reports (`workv1alpha2.Scheduled`).
pub(crate) const SCHEDULED: &str = "Scheduled";

/// What `explain` shows for a Karmada item.
#[derive(Clone, Debug)]
pub struct KarmadaTrace<'a> {
    pub claim: Claim<'a>,
    pub candidates: Vec<Candidate<'a>>,
    /// The binding the scheduler read (`None` when no policy claimed the resource).
    pub binding: Option<BindingTrace>,
    pub outcome: Option<Outcome<'a>>,
    pub clusters: &'a [KarmadaCluster],
}

/// The previous result the scheduler started from.
#[derive(Clone, Debug, Default)]
pub struct BindingTrace {
    pub name: String,
    /// `spec.replicas` the detector writes (the resource's replicas).
    pub replicas: i64,
    /// Where the previous `spec.clusters` came from (`--previous` or a ResourceBinding's
    /// place); `None` for a first schedule.
    pub from: Option<String>,
    pub clusters: Vec<TargetCluster>,
    pub reschedule: bool,
    pub observed_affinity: Option<String>,
}

pub(crate) fn plan<'a>(
    run: &Run<'_, 'a>,
    workload: &'a Workload,
    resource: &'a ResourceTemplate,
) -> Planned<'a> {
    let karmada = &run.model.apis.karmada;
    let mut warnings = Vec::new();
    // What the resource detector filters out never reaches a policy.
    let (claim, candidates) = match ignored(resource) {
        Some(why) => {
            let why = format!("not propagated: {why}");
            warnings.push(Diagnostic::about(
                workload,
                DiagnosticKind::NotPropagated,
                why.clone(),
            ));
            (Claim::Unclaimed { why }, Vec::new())
        }
        None => claim(resource, &karmada.policies),
    };
    let mut item = PlanItem {
        source: workload.object.clone(),
        ..PlanItem::default()
    };
    let Claim::Claimed { policy, .. } = &claim else {
        let trace = KarmadaTrace {
            claim,
            candidates,
            binding: None,
            outcome: None,
            clusters: &karmada.clusters,
        };
        return Planned {
            item,
            trace: ItemTrace::Karmada(Box::new(trace)),
            warnings,
        };
    };
    let policy: &PropagationPolicy = policy;
    let previous = previous_binding(run, workload, resource);
    let binding = Binding {
        resource,
        placement: &policy.placement,
        clusters: &previous.clusters,
        eviction_from: previous.eviction_from,
        reschedule: previous.trace.reschedule,
        observed_affinity: previous.trace.observed_affinity.as_deref(),
    };
    let outcome = schedule(
        &run.hubs.karmada,
        &binding,
        run.options.trace == Trace::Full,
    );
    warnings.extend(
        quirks(&run.hubs.karmada, &binding, policy, &outcome)
            .into_iter()
            .map(|quirk| Diagnostic::about(workload, DiagnosticKind::UpstreamQuirk, quirk)),
    );
    item.selection.karmada.policy = Some(policy.reference());
    item.selection.karmada.affinity_term = outcome.term.clone();
    // Already in name order: a placed entry's rank is read off its index, not sorted again.
    let named = outcome.clusters.entries(&karmada.clusters);
    item.clusters = match &outcome.clusters {
        Clusters::Placed(_) => ClusterNames::ranked(
            run.hubs.karmada.names(),
            named
                .iter()
                .filter_map(|entry| entry.index)
                .map(|index| run.hubs.karmada.rank(index) as usize),
        ),
        Clusters::Kept(_) => named.iter().map(|entry| entry.name.to_string()).collect(),
    };
    item.replicas = named
        .iter()
        .filter(|entry| entry.replicas != 0)
        .map(|entry| (entry.name.to_string(), entry.replicas))
        .collect::<BTreeMap<_, _>>();
    item.conditions = vec![Condition {
        type_: SCHEDULED.to_string(),
        status: outcome.scheduled().into(),
        reason: outcome.reason.as_str().to_string(),
        message: outcome.message.clone(),
    }];
    let trace = KarmadaTrace {
        claim,
        candidates,
        binding: Some(previous.trace),
        outcome: Some(outcome),
        clusters: &karmada.clusters,
    };
    Planned {
        item,
        trace: ItemTrace::Karmada(Box::new(trace)),
        warnings,
    }
}

struct Previous<'a> {
    clusters: Vec<TargetCluster>,
    eviction_from: &'a [String],
    trace: BindingTrace,
}

/// The previous result: `--previous` first, else the ResourceBinding named
/// `<name>-<kind>` in the inputs, else none (a first schedule).
fn previous_binding<'a>(
    run: &Run<'_, 'a>,
    workload: &Workload,
    resource: &ResourceTemplate,
) -> Previous<'a> {
    let object = &resource.object;
    let name = binding_name(&object.kind, &object.name);
    let stored: Option<&'a ResourceBinding> = run
        .model
        .apis
        .karmada
        .bindings
        .iter()
        .find(|binding| binding.name == name && binding.namespace == object.namespace);
    if let Some(item) = run.previous_item(workload) {
        let clusters = item
            .clusters
            .iter()
            .map(|cluster| TargetCluster {
                name: cluster.to_string(),
                replicas: item.replicas.get(cluster).copied().unwrap_or(0),
            })
            .collect::<Vec<_>>();
        return Previous {
            clusters: clusters.clone(),
            eviction_from: stored.map_or(&[], |binding| binding.eviction_from.as_slice()),
            trace: BindingTrace {
                name,
                replicas: resource.replicas,
                from: Some("--previous".to_string()),
                clusters,
                reschedule: false,
                observed_affinity: item.selection.karmada.affinity_term.clone(),
            },
        };
    }
    let Some(binding) = stored else {
        return Previous {
            clusters: Vec::new(),
            eviction_from: &[],
            trace: BindingTrace {
                name,
                replicas: resource.replicas,
                ..BindingTrace::default()
            },
        };
    };
    // RescheduleRequired: both times set, the trigger after the last schedule.
    let reschedule = matches!(
        (binding.reschedule_triggered_at, binding.last_scheduled_time),
        (Some(triggered), Some(scheduled)) if triggered > scheduled
    );
    Previous {
        clusters: binding.clusters.clone(),
        eviction_from: &binding.eviction_from,
        trace: BindingTrace {
            name,
            replicas: resource.replicas,
            from: Some(binding.source.to_string()),
            clusters: binding.clusters.clone(),
            reschedule,
            observed_affinity: binding.observed_affinity.clone(),
        },
    }
}

/// The upstream behaviours a user would not expect, said where they shaped this result.
fn quirks(
    fleet: &KarmadaFleet,
    binding: &Binding,
    policy: &PropagationPolicy,
    outcome: &Outcome,
) -> Vec<String> {
    let mut quirks = Vec::new();
    // The placed clusters in fleet order: a Duplicated workload is placed on thousands.
    let mut placed: Vec<usize> = match &outcome.clusters {
        Clusters::Placed(targets) => targets.iter().map(|t| t.index as usize).collect(),
        Clusters::Kept(targets) => targets
            .iter()
            .filter_map(|target| fleet.position(&target.name))
            .collect(),
    };
    placed.sort_unstable();
    placed.dedup();
    let placed: Vec<&KarmadaCluster> = placed.iter().map(|&index| &fleet.clusters[index]).collect();
    // Clusters already in the binding skip the taint and API filters.
    let targeted: HashSet<&str> = binding.clusters.iter().map(|c| c.name.as_str()).collect();
    let fresh = Binding {
        clusters: &[],
        ..*binding
    };
    let affinity = TermAffinity::default();
    let context = FilterContext {
        binding: &fresh,
        affinity: &affinity,
    };
    for cluster in placed.iter().filter(|c| targeted.contains(c.name.as_str())) {
        if let Verdict::Unfit { plugin, reason } = filter::verdict(&context, cluster) {
            if plugin == "APIEnablement" || plugin == "TaintToleration" {
                quirks.push(format!(
                    "cluster {} keeps the workload although it {}: clusters already in the binding skip the {plugin} filter",
                    cluster.name,
                    reason.trim_start_matches("cluster(s) ")
                ));
            }
        }
    }
    for cluster in &placed {
        if cluster
            .ready
            .as_deref()
            .is_some_and(|ready| ready != "True")
        {
            quirks.push(format!(
                "cluster {} is not Ready (Ready={}) yet is chosen: Karmada has no readiness filter, only the not-ready/unreachable taints keep workloads off",
                cluster.name,
                cluster.ready.as_deref().unwrap_or("")
            ));
        }
    }
    let placement = &policy.placement;
    if !placement.spread_constraints.is_empty() && spread::ignores_spread_constraints(placement) {
        quirks.push(format!(
            "{}: spread constraints are ignored with static weights (only their provider/region/zone property filter applies)",
            policy.reference()
        ));
    }
    let resource = binding.resource;
    if outcome.scheduled()
        && resource.replicas == 0
        && resource.requirements.is_some()
        && outcome.clusters.is_empty()
    {
        quirks.push(
            "0 replicas with resource requests or a node claim: upstream schedules it to no cluster and still reports Scheduled=True"
                .to_string(),
        );
    }
    if policy.scheduler_name != "default-scheduler" {
        quirks.push(format!(
            "{} names schedulerName {:?}: the default karmada-scheduler ignores it; planned as the default scheduler would",
            policy.reference(),
            policy.scheduler_name
        ));
    }
    if !policy.dependent_overrides.is_empty() {
        quirks.push(format!(
            "{} lists dependentOverrides ({}): upstream waits until those OverridePolicies exist before binding",
            policy.reference(),
            policy.dependent_overrides.join(", ")
        ));
    }
    let kept = matches!(
        outcome.reason,
        Reason::Unschedulable | Reason::SchedulerError
    );
    if kept && !binding.clusters.is_empty() {
        quirks.push("scheduling failed: the binding keeps its previous clusters".to_string());
    }
    quirks
}
