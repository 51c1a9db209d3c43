//! What Karmada's admission refuses in a policy, a Cluster or a resource template beyond the
//! scheduling fields `karmada.rs` decodes, with upstream's messages. At karmada-io/karmada
//! f8fdd02df376: `pkg/util/validation/validation.go` (`ValidatePropagationSpec`,
//! `ValidatePlacement`, `ValidateClusterAffinities`, `ValidateOverflowAffinities`,
//! `ValidatePolicyFieldSelector`, `validateClusterTolerations`, `ValidateWorkloadAffinity`,
//! `ValidateFailover`), the policy webhooks' defaults (`pkg/webhook/propagationpolicy/
//! mutating.go`: `SetDefaultGracePeriodSeconds`, `ContainsServiceImport`), the Cluster API's
//! `pkg/apis/cluster/validation/validation.go` (`validateClusterSpecForFieldSelector`) with
//! `pkg/util/lifted/validateclustertaints.go`, and the CRD schemas
//! (`charts/karmada/_crds/bases/policy/policy.karmada.io_propagationpolicies.yaml`). For
//! templates, the API server's own validation of the fields the replica interpreter reads.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use crate::load::decode::{null_as_default, FieldError};
use crate::load::names::invalid_value;
use crate::model::Quantity;
use crate::selector::{label_key_errors, label_value_errors};

/// `Unsupported value: "X": supported values: "A", "B"` (`field.NotSupported`).
pub(super) fn unsupported(value: &str, supported: &[&str]) -> String {
    let supported: Vec<String> = supported.iter().map(|value| format!("{value:?}")).collect();
    format!(
        "Unsupported value: {:?}: supported values: {}",
        crate::model::echo(value),
        supported.join(", ")
    )
}

/// An enum field of the CRD: `value` must be one of `supported` (absent or empty is the
/// default, checked by the caller).
fn one_of(errors: &mut Vec<FieldError>, path: &str, value: &str, supported: &[&str]) {
    if !value.is_empty() && !supported.contains(&value) {
        errors.push(FieldError::new(path, unsupported(value, supported)));
    }
}

// ---- PropagationPolicy / ClusterPropagationPolicy: the fields the scheduler does not read ----

/// `spec.failover` (`FailoverBehavior`).
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct FailoverDoc {
    #[serde(default)]
    application: Option<ApplicationFailoverDoc>,
    #[serde(default)]
    cluster: Option<ClusterFailoverDoc>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ApplicationFailoverDoc {
    #[serde(default)]
    decision_conditions: Option<DecisionConditionsDoc>,
    #[serde(default, deserialize_with = "null_as_default")]
    purge_mode: String,
    #[serde(default)]
    grace_period_seconds: Option<i32>,
    #[serde(default)]
    state_preservation: Option<StatePreservationDoc>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DecisionConditionsDoc {
    #[serde(default)]
    toleration_seconds: Option<i32>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClusterFailoverDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    purge_mode: String,
    #[serde(default)]
    state_preservation: Option<StatePreservationDoc>,
}

#[derive(Default, Deserialize)]
struct StatePreservationDoc {
    #[serde(default)]
    rules: Option<Vec<StatePreservationRuleDoc>>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StatePreservationRuleDoc {
    #[serde(default)]
    alias_label_name: Option<String>,
    #[serde(default)]
    json_path: Option<String>,
}

/// `spec.suspension`.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct SuspensionDoc {
    #[serde(default)]
    dispatching: Option<bool>,
    #[serde(default)]
    dispatching_on_clusters: Option<SuspendClustersDoc>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SuspendClustersDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    cluster_names: Vec<String>,
}

/// `spec.schedulePriority`.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct SchedulePriorityDoc {
    #[serde(default)]
    priority_class_source: Option<String>,
    #[serde(default)]
    priority_class_name: Option<String>,
}

/// The policy spec's fields checked here, as written.
pub(super) struct PolicyFields<'a> {
    /// Every resource selector as `(apiVersion, kind, namespace after the webhook's default,
    /// name)`.
    pub selectors: Vec<(&'a str, &'a str, &'a str, &'a str)>,
    /// The PropagationPolicy's namespace; `None` for a ClusterPropagationPolicy.
    pub namespace: Option<&'a str>,
    pub propagate_deps: bool,
    pub preemption: &'a str,
    pub conflict_resolution: &'a str,
    pub activation_preference: &'a str,
    pub failover: Option<&'a FailoverDoc>,
    pub suspension: Option<&'a SuspensionDoc>,
    pub schedule_priority: Option<&'a SchedulePriorityDoc>,
}

/// `ServiceImport` of `multicluster.x-k8s.io/v1alpha1`: the webhook sets `propagateDeps`.
fn imports_services(selectors: &[(&str, &str, &str, &str)]) -> bool {
    selectors.iter().any(|(api_version, kind, _, _)| {
        *kind == "ServiceImport" && *api_version == "multicluster.x-k8s.io/v1alpha1"
    })
}

/// The CRD's enums and required fields, then `ValidatePropagationSpec` after the mutating
/// webhook, except `ValidatePlacement` (checked where the placement is read).
pub(super) fn policy(fields: &PolicyFields<'_>, errors: &mut Vec<FieldError>) {
    if fields.selectors.is_empty() {
        errors.push(FieldError::new(
            "spec.resourceSelectors",
            "should have at least 1 items, found 0",
        ));
    }
    one_of(
        errors,
        "spec.preemption",
        fields.preemption,
        &["Always", "Never"],
    );
    one_of(
        errors,
        "spec.conflictResolution",
        fields.conflict_resolution,
        &["Abort", "Overwrite"],
    );
    one_of(
        errors,
        "spec.activationPreference",
        fields.activation_preference,
        &["Lazy"],
    );
    if let Some(priority) = fields.schedule_priority {
        const PATH: &str = "spec.schedulePriority";
        match priority.priority_class_source.as_deref() {
            None => errors.push(FieldError::new(
                format!("{PATH}.priorityClassSource"),
                "Required value",
            )),
            Some(source) if source != "KubePriorityClass" => errors.push(FieldError::new(
                format!("{PATH}.priorityClassSource"),
                unsupported(source, &["KubePriorityClass"]),
            )),
            Some(_) => {}
        }
        if priority.priority_class_name.is_none() {
            errors.push(FieldError::new(
                format!("{PATH}.priorityClassName"),
                "Required value",
            ));
        }
    }
    if let Some(failover) = fields.failover {
        let propagate_deps = fields.propagate_deps || imports_services(&fields.selectors);
        if failover.application.is_some() && !propagate_deps {
            errors.push(FieldError::new(
                "spec.propagateDeps",
                "application failover is set, propagateDeps must be true",
            ));
        }
        failover_behavior(failover, errors);
    }
    if let Some(namespace) = fields.namespace {
        for (index, (_, _, selector_namespace, _)) in fields.selectors.iter().enumerate() {
            if selector_namespace != &namespace {
                errors.push(FieldError::new(
                    format!("spec.resourceSelectors[{index}].namespace"),
                    format!(
                        "{:?}: namespace of resource selector must be the same as the namespace of the policy",
                        crate::model::echo(selector_namespace)
                    ),
                ));
            }
        }
    }
    if fields.preemption == "Always" {
        for (index, (_, _, _, name)) in fields.selectors.iter().enumerate() {
            if name.is_empty() {
                errors.push(FieldError::new(
                    format!("spec.resourceSelectors[{index}].name"),
                    "name cannot be empty if preemption is Always, the empty name may cause unexpected resources preemption",
                ));
            }
        }
    }
    if let Some(suspension) = fields.suspension {
        let clusters = suspension
            .dispatching_on_clusters
            .as_ref()
            .is_some_and(|on| !on.cluster_names.is_empty());
        if suspension.dispatching == Some(true) && clusters {
            errors.push(FieldError::new(
                "spec.suspension",
                "suspension dispatching cannot co-exist with dispatchingOnClusters.clusterNames",
            ));
        }
    }
}

/// `ValidateFailover` with the CRD's defaults (`purgeMode: Gracefully`,
/// `tolerationSeconds: 300`) and the webhook's (`gracePeriodSeconds: 600` when graceful).
fn failover_behavior(failover: &FailoverDoc, errors: &mut Vec<FieldError>) {
    if let Some(application) = &failover.application {
        const PATH: &str = "spec.failover.application";
        match &application.decision_conditions {
            None => errors.push(FieldError::new(
                format!("{PATH}.decisionConditions"),
                "Required value",
            )),
            Some(conditions) => {
                if let Some(seconds) = conditions.toleration_seconds.filter(|s| *s < 0) {
                    errors.push(FieldError::new(
                        format!("{PATH}.decisionConditions.tolerationSeconds"),
                        format!("Invalid value: {seconds}: must be greater than or equal to 0"),
                    ));
                }
            }
        }
        let purge_mode = match application.purge_mode.as_str() {
            "" => "Gracefully",
            mode => mode,
        };
        one_of(
            errors,
            &format!("{PATH}.purgeMode"),
            purge_mode,
            &["Directly", "Gracefully", "Never"],
        );
        let grace = match (purge_mode, application.grace_period_seconds) {
            ("Gracefully", None) => Some(600),
            (_, grace) => grace,
        };
        if let Some(grace) = grace {
            if purge_mode != "Gracefully" {
                errors.push(FieldError::new(
                    format!("{PATH}.gracePeriodSeconds"),
                    format!(
                        "Invalid value: {grace}: only takes effect when purgeMode is gracefully"
                    ),
                ));
            }
            if grace <= 0 {
                errors.push(FieldError::new(
                    format!("{PATH}.gracePeriodSeconds"),
                    format!("Invalid value: {grace}: must be greater than 0"),
                ));
            }
        }
        state_preservation(
            application.state_preservation.as_ref(),
            &format!("{PATH}.statePreservation"),
            errors,
        );
    }
    if let Some(cluster) = &failover.cluster {
        const PATH: &str = "spec.failover.cluster";
        one_of(
            errors,
            &format!("{PATH}.purgeMode"),
            &cluster.purge_mode,
            &["Directly", "Gracefully"],
        );
        state_preservation(
            cluster.state_preservation.as_ref(),
            &format!("{PATH}.statePreservation"),
            errors,
        );
    }
}

/// `validateStatePreservation`: each rule's alias is a label name (`ValidateLabelName`); the
/// CRD requires `rules`, and `aliasLabelName` and `jsonPath` in each.
fn state_preservation(
    preservation: Option<&StatePreservationDoc>,
    path: &str,
    errors: &mut Vec<FieldError>,
) {
    let Some(preservation) = preservation else {
        return;
    };
    let Some(rules) = &preservation.rules else {
        errors.push(FieldError::new(format!("{path}.rules"), "Required value"));
        return;
    };
    for (index, rule) in rules.iter().enumerate() {
        let path = format!("{path}.rules[{index}]");
        match &rule.alias_label_name {
            None => errors.push(FieldError::new(
                format!("{path}.aliasLabelName"),
                "Required value",
            )),
            Some(alias) => label_name(errors, &format!("{path}.aliasLabelName"), alias),
        }
        if rule.json_path.is_none() {
            errors.push(FieldError::new(
                format!("{path}.jsonPath"),
                "Required value",
            ));
        }
    }
}

/// `ValidateLabelName` / `content.IsLabelKey`: a qualified name.
fn label_name(errors: &mut Vec<FieldError>, path: &str, name: &str) {
    let problems = label_key_errors(name);
    if !problems.is_empty() {
        errors.push(FieldError::new(path, invalid_value(name, &problems)));
    }
}

// ---- placement ----

/// `ValidateClusterAffinities`' name rules for one term (`affinityName`, CRD length 1..32,
/// a label key) and `ValidateOverflowAffinities`' for its overflow terms: names that are
/// label keys, unique and unlike the term's own, and an inline affinity to overflow from.
pub(super) fn affinity_term_names(
    path: &str,
    name: &str,
    inline_is_empty: bool,
    overflow: Option<&[&str]>,
    errors: &mut Vec<FieldError>,
) {
    affinity_name(errors, &format!("{path}.affinityName"), name);
    let Some(overflow) = overflow else {
        return;
    };
    if inline_is_empty {
        errors.push(FieldError::new(
            format!("{path}.overflowAffinities"),
            "overflowAffinities can only be used together with the inline ClusterAffinity",
        ));
    }
    let mut names = BTreeSet::from([name]);
    for (index, overflow_name) in overflow.iter().enumerate() {
        let path = format!("{path}.overflowAffinities[{index}].affinityName");
        affinity_name(errors, &path, overflow_name);
        if !names.insert(overflow_name) {
            errors.push(FieldError::new(
                path,
                "overflow affinity name must be unique and must not duplicate the primary group's affinityName",
            ));
        }
    }
}

/// The CRD's `minLength: 1`, `maxLength: 32`, then `content.IsLabelKey`.
fn affinity_name(errors: &mut Vec<FieldError>, path: &str, name: &str) {
    if name.is_empty() {
        errors.push(FieldError::new(path, "should be at least 1 chars long"));
    } else if name.chars().count() > 32 {
        errors.push(FieldError::new(
            path,
            format!(
                "should be at most 32 chars long, found {}",
                name.chars().count()
            ),
        ));
    } else {
        label_name(errors, path, name);
    }
}

/// `ValidatePolicyFieldSelector`: keys provider, region or zone; operators In or NotIn. The
/// first requirement that breaks either rule is the error, as upstream returns.
pub(super) fn field_selector(
    path: &str,
    requirements: &[(&str, &str)],
    errors: &mut Vec<FieldError>,
) {
    for (key, operator) in requirements {
        let message = if !matches!(*key, "provider" | "region" | "zone") {
            format!(
                "unsupported key {:?}, must be provider, region, or zone",
                crate::model::echo(key)
            )
        } else if !matches!(*operator, "In" | "NotIn") {
            format!(
                "unsupported operator {:?}, must be In or NotIn",
                crate::model::echo(operator)
            )
        } else {
            continue;
        };
        errors.push(FieldError::new(format!("{path}.fieldSelector"), message));
        return;
    }
}

/// `validateClusterTolerations`: the `Lt` and `Gt` operators of nodes are refused.
pub(super) fn toleration_operator(index: usize, operator: &str, errors: &mut Vec<FieldError>) {
    if matches!(operator, "Lt" | "Gt") {
        errors.push(FieldError::new(
            format!("spec.placement.clusterTolerations[{index}].operator"),
            unsupported(operator, &["", "Exists", "Equal"]),
        ));
    }
}

/// `spec.placement.workloadAffinity`.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct WorkloadAffinityDoc {
    #[serde(default)]
    affinity: Option<GroupByDoc>,
    #[serde(default)]
    anti_affinity: Option<GroupByDoc>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct GroupByDoc {
    #[serde(default)]
    group_by_label_key: Option<String>,
}

/// `ValidateWorkloadAffinity` (the CRD requires `groupByLabelKey`).
pub(super) fn workload_affinity(doc: &WorkloadAffinityDoc, errors: &mut Vec<FieldError>) {
    const PATH: &str = "spec.placement.workloadAffinity";
    let mut keys = Vec::new();
    for (field, term) in [
        ("affinity", &doc.affinity),
        ("antiAffinity", &doc.anti_affinity),
    ] {
        let Some(term) = term else {
            continue;
        };
        let path = format!("{PATH}.{field}.groupByLabelKey");
        match &term.group_by_label_key {
            None => errors.push(FieldError::new(path, "Required value")),
            Some(key) => {
                label_name(errors, &path, key);
                keys.push(key.as_str());
            }
        }
    }
    if let [affinity, anti_affinity] = keys.as_slice() {
        if affinity == anti_affinity {
            errors.push(FieldError::new(
                PATH,
                "affinity and antiAffinity must not use the same groupByLabelKey",
            ));
        }
    }
}

// ---- Cluster ----

/// `ValidateClusterSpec`'s first rule: `syncMode` is required, and Push or Pull (the Cluster
/// API is served by karmada-aggregated-apiserver, whose strategy runs this validation; no
/// CRD schema defaults it).
pub(super) fn cluster_sync_mode(mode: &str, errors: &mut Vec<FieldError>) {
    const PATH: &str = "spec.syncMode";
    if mode.is_empty() {
        // Upstream also reports "" as unsupported; only the first refusal is shown.
        errors.push(FieldError::new(PATH, "Required value"));
    }
    // `supportedSyncModes.List()`: sorted.
    one_of(errors, PATH, mode, &["Pull", "Push"]);
}

/// `validateClusterSpecForFieldSelector`: provider, region and zone(s) are label values,
/// and `zone` and `zones` do not co-exist.
pub(super) fn cluster_location(
    provider: &str,
    region: &str,
    zone: &str,
    zones: &[String],
    errors: &mut Vec<FieldError>,
) {
    let mut value = |path: String, text: &str| {
        let problems = label_value_errors(text);
        if !problems.is_empty() {
            errors.push(FieldError::new(
                path,
                invalid_value(text, &[problems.join("; ")]),
            ));
        }
    };
    value("spec.provider".to_string(), provider);
    value("spec.region".to_string(), region);
    if !zone.is_empty() && !zones.is_empty() {
        errors.push(FieldError::new("spec", "Zone and Zones cannot co-exist"));
        return;
    }
    value("spec.zone".to_string(), zone);
    for (index, zone) in zones.iter().enumerate() {
        value(format!("spec.zones[{index}]"), zone);
    }
}

/// `lifted.ValidateClusterTaints`: key a label name, value a label value, effect NoSchedule
/// or NoExecute, each key and effect pair once.
pub(super) fn cluster_taints<'t>(
    taints: impl Iterator<Item = (&'t str, &'t str, &'t str)>,
    errors: &mut Vec<FieldError>,
) {
    let mut seen: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (index, (key, value, effect)) in taints.enumerate() {
        let path = format!("spec.taints[{index}]");
        label_name(errors, &format!("{path}.key"), key);
        let problems = label_value_errors(value);
        if !problems.is_empty() {
            errors.push(FieldError::new(
                format!("{path}.value"),
                invalid_value(value, &[problems.join(";")]),
            ));
        }
        if effect.is_empty() {
            errors.push(FieldError::new(format!("{path}.effect"), "Required value"));
        } else if !matches!(effect, "NoSchedule" | "NoExecute") {
            errors.push(FieldError::new(
                format!("{path}.effect"),
                unsupported(effect, &["NoSchedule", "NoExecute"]),
            ));
        }
        if !seen.entry(effect).or_default().insert(key) {
            errors.push(FieldError::new(
                path,
                format!(
                    "Duplicate value: {{key: {:?}, effect: {:?}}}: taints must be unique by key and effect pair",
                    crate::model::echo(key),
                    crate::model::echo(effect)
                ),
            ));
        }
    }
}

// ---- resource templates ----

/// The API server's `ValidateNonnegativeField` for a count the replica interpreter reads
/// (`spec.replicas`, a Job's `parallelism` and `completions`).
pub(super) fn non_negative(path: &str, value: Option<i32>, errors: &mut Vec<FieldError>) {
    if let Some(value) = value.filter(|value| *value < 0) {
        errors.push(FieldError::new(
            path,
            format!("Invalid value: {value}: must be greater than or equal to 0"),
        ));
    }
}

/// `ValidateResourceQuantityValue` for each request and limit of a container.
pub(super) fn resources(
    path: &str,
    lists: [(&str, Option<&BTreeMap<String, Quantity>>); 2],
    errors: &mut Vec<FieldError>,
) {
    for (field, list) in lists {
        for (name, quantity) in list.into_iter().flatten() {
            if quantity.nanos() < 0 {
                errors.push(FieldError::new(
                    format!("{path}.{field}[{name}]"),
                    format!(
                        "Invalid value: {:?}: must be greater than or equal to 0",
                        quantity.text
                    ),
                ));
            }
        }
    }
}
