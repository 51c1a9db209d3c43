//! `migrate --to karmada`: kubefed `Federated*` objects with their ReplicaSchedulingPreferences,
//! and objects with federation v1 annotations, to Karmada resource templates with a
//! PropagationPolicy each (and an OverridePolicy for a federated object's overrides).
//!
//! - A `Federated<Kind>` becomes its plain `<Kind>` (`federated`), propagated by a
//!   PropagationPolicy whose `clusterAffinity` is the federated placement: `clusters` as
//!   `clusterNames`, `clusterSelector` as `labelSelector`. Without a ReplicaSchedulingPreference
//!   the policy is Duplicated: kubefed sent the same object to every cluster.
//! - A ReplicaSchedulingPreference becomes the `Divided`/`Weighted` static weights of its
//!   target's policy (`weights`) and its `totalReplicas` the template's `spec.replicas`; its
//!   clusters are its target's placement with `intersectWithClusterSelector`, else every
//!   cluster.
//! - A federation v1 object is written back without its annotations; its cluster-selector
//!   becomes the policy's `labelSelector`, its replica-set-preferences static weights.
//! - A placement that selects no cluster gets no policy: Karmada propagates a template no
//!   policy claims nowhere.
//! - Unready clusters: kubefed and federation left them out; Karmada has no readiness filter,
//!   but its cluster controller taints them `NoSchedule`, and the policies tolerate nothing.
//!
//! `--verify` plans the old objects with the kubefed/federation engines against the
//! inventory, and the new ones with the Karmada engine against the inputs' Karmada Clusters,
//! or stand-ins made from the inventory when there are none (`stand_in`).

mod federated;
mod policy;
mod stand_in;
mod type_configs;
mod weights;

use std::collections::HashMap;

use serde_yaml::Value;

use crate::load::Document;
use crate::model::{FederatedPlacement, Inventory, LabelSelectorSpec, Model, ObjectRef, Workload};
use crate::model::{LabelSelectorRequirementSpec, WorkloadKind};
use crate::replicas::parse_replica_set_preferences;
use crate::selector::{Requirement, Selector};

use crate::migrate::api_versions;
use crate::migrate::assembly::{Assembly, Recorded};
use crate::migrate::division::ReplicaDivision;
use crate::migrate::hub_version::KarmadaVersion;
use crate::migrate::match_expression::{describe, match_expression};
use crate::migrate::object_error::ObjectError;
use crate::migrate::objects::{self, Location, RawObject};
use crate::migrate::report::{Aspect, Comparison, FieldReport};
use crate::migrate::{
    Annotations, Converted, MigrateError, MigrateOptions, Migration, Target,
    CLUSTER_SELECTOR_ANNOTATION, REPLICA_SET_PREFERENCES_ANNOTATION,
};
use policy::{ClusterAffinity, Placement, ReplicaScheduling};
use type_configs::TypeConfigs;

/// What a `Federated<Kind>` is converted with: the type configs, and each namespace's
/// FederatedNamespace placement (kubefed placed a namespaced object only where its namespace
/// was placed too).
struct Kubefed<'a> {
    raws: &'a [RawObject<'a>],
    /// The namespace objects without one are read in.
    namespace: &'a str,
    types: TypeConfigs,
    namespaces: HashMap<&'a str, &'a FederatedPlacement>,
    /// The control plane the output is for.
    version: &'static KarmadaVersion,
}

/// The inputs a migration to Karmada converts, as an error names them.
pub(crate) const INPUTS: &str = "kubefed Federated object and no object with a federation \
     placement annotation (federation.alpha.kubernetes.io/cluster-selector, \
     federation.kubernetes.io/replica-set-preferences)";

/// The migration to Karmada (a `crate::migrate::Migrate`), for the control plane
/// `options.karmada`.
pub(crate) fn migrate(
    model: &Model,
    documents: &[Document],
    namespace: &str,
    options: &MigrateOptions,
) -> Result<Migration, MigrateError> {
    let version = options.karmada;
    let raws = objects::raw_objects(documents);
    let index = objects::RawIndex::new(&raws);
    let mut assembly = Assembly::new(model);
    let (types, type_errors) = TypeConfigs::new(&raws);
    assembly.report.errors.extend(type_errors);
    let mut kubefed = Kubefed {
        raws: &raws,
        namespace,
        types,
        namespaces: HashMap::new(),
        version,
    };
    let bounded = model
        .inventory
        .clusters
        .iter()
        .any(|cluster| cluster.replica_capacity.is_some());
    let (divisions, federated_objects) = kubefed_index(model, &mut kubefed);
    let mut templates = Vec::new();
    // Namespaces first: one `kubectl apply -f` of the stream creates them before what they
    // hold.
    let (namespaces, others): (Vec<&Workload>, Vec<&Workload>) =
        model.workloads.iter().partition(|workload| {
            kubefed
                .types
                .get(&workload.object.kind)
                .is_some_and(|target| target.kind == "Namespace")
                && matches!(workload.kind, WorkloadKind::Federated(_))
        });

    for workload in namespaces.into_iter().chain(others) {
        let object = &workload.object;
        let raw = index.find(&workload.source, object, namespace);
        let division = crate::registry::replica_division(workload);
        let made = match (&workload.kind, raw, Annotations::of(workload), division) {
            (WorkloadKind::Federated(_) | WorkloadKind::Annotated { .. }, None, _, _)
            | (_, None, _, Some(_)) => Err(ObjectError::Missing),
            (WorkloadKind::Federated(placement), Some(raw), _, _) => {
                let division = divisions.get(&identity(&object.kind, object));
                federated_object(raw, object, placement, division, &kubefed)
            }
            (_, Some(raw), _, Some(division)) => {
                let target = federated_objects.get(&identity(division.target_kind, object));
                replica_division(raw, object, &division, target, bounded, &kubefed.types)
            }
            (_, Some(raw), Some(annotations), _) => {
                annotated(raw, object, annotations, &model.inventory, bounded)
            }
            _ => {
                // An object another target converts is said to be left, with that target.
                let elsewhere = crate::registry::migrated_by(&workload.kind)
                    .iter()
                    .find(|target| **target != Target::Karmada);
                if let Some(elsewhere) = elsewhere {
                    assembly.report.warnings.push(format!(
                        "{}: {object}: not migrated: --to karmada migrates kubefed and federation objects; a {} migrates with --to {}",
                        workload.source,
                        object.kind,
                        elsewhere.name()
                    ));
                }
                continue;
            }
        };
        match made {
            Ok((recorded, template)) => {
                if assembly.record(workload, recorded) {
                    templates.extend(template);
                }
            }
            Err(error) => assembly
                .report
                .errors
                .push(format!("{}: {object}: {error}", workload.source)),
        }
    }
    let mut migration = assembly.finish(Vec::new());
    if model.apis.karmada.clusters.is_empty() {
        migration.stand_ins = stand_in::clusters(&model.inventory.clusters, &templates)?;
    }
    Ok(migration)
}

/// A replica division's controller finds its target by kind, namespace and name: each
/// division its controller acted on by its target's identity, each federated object by its
/// own; a FederatedNamespace's placement goes into `kubefed`.
fn kubefed_index<'a>(
    model: &'a Model,
    kubefed: &mut Kubefed<'a>,
) -> (
    HashMap<Identity<'a>, ReplicaDivision<'a>>,
    HashMap<Identity<'a>, &'a Workload>,
) {
    let mut divisions: HashMap<Identity<'_>, ReplicaDivision<'_>> = HashMap::new();
    let mut federated_objects: HashMap<Identity<'_>, &Workload> = HashMap::new();
    for workload in &model.workloads {
        if let Some(division) = crate::registry::replica_division(workload) {
            if division.acted {
                divisions.insert(identity(division.target_kind, &workload.object), division);
            }
        } else if let WorkloadKind::Federated(placement) = &workload.kind {
            federated_objects.insert(identity(&workload.object.kind, &workload.object), workload);
            if workload.object.kind == "FederatedNamespace" {
                kubefed
                    .namespaces
                    .insert(workload.object.name.as_str(), placement);
            }
        }
    }
    (divisions, federated_objects)
}

/// Kind, namespace and name: how kubefed pairs a replica division with its target.
type Identity<'a> = (&'a str, Option<&'a str>, &'a str);

fn identity<'a>(kind: &'a str, object: &'a ObjectRef) -> Identity<'a> {
    (kind, object.namespace.as_deref(), object.name.as_str())
}

/// A conversion and the resource template it writes (or leaves in place), if any.
type Made = (Recorded, Option<ObjectRef>);

/// kubefed placed on ready clusters only; the not-ready taint does that in Karmada.
fn readiness() -> FieldReport {
    FieldReport::exact("(ready clusters only)", "no clusterTolerations").because(
        "Karmada's cluster controller taints an unready cluster cluster.karmada.io/not-ready:NoSchedule (or unreachable), which keeps it out; a NoSchedule taint of your own keeps a cluster out too",
    )
}

/// The policy's placement for the federated `spec.placement`; `None` selects no cluster.
fn federated_affinity(placement: &FederatedPlacement) -> Option<(ClusterAffinity, String)> {
    match placement {
        FederatedPlacement::Clusters(names) if !names.is_empty() => Some((
            ClusterAffinity {
                cluster_names: names.clone(),
                ..ClusterAffinity::default()
            },
            format!("clusterAffinity.clusterNames [{}]", names.join(",")),
        )),
        FederatedPlacement::Selector(Some(selector)) => Some((
            ClusterAffinity {
                label_selector: Some(selector.clone()),
                ..ClusterAffinity::default()
            },
            "clusterAffinity.labelSelector (the same selector)".to_string(),
        )),
        FederatedPlacement::Clusters(_) | FederatedPlacement::Selector(None) => None,
    }
}

fn no_cluster(field: &str) -> FieldReport {
    FieldReport::exact(field, "no PropagationPolicy")
        .because("it selects no cluster; Karmada propagates a template no policy claims nowhere")
}

/// A `Federated<Kind>`: its template, the policy (weighted when `division` divides its
/// replicas), and an OverridePolicy for its overrides.
fn federated_object(
    raw: &RawObject<'_>,
    object: &ObjectRef,
    placement: &FederatedPlacement,
    division: Option<&ReplicaDivision<'_>>,
    kubefed: &Kubefed<'_>,
) -> Result<Made, ObjectError> {
    let (mut target, template, replaces) = template(raw, object, kubefed)?;
    let served = api_versions::serve(&target, &template);
    target.api_version = served.api_version;
    let mut template = served.value;
    let mut fields = vec![FieldReport::exact(
        "spec.template",
        format!(
            "{} {} (the resource template)",
            target.api_version,
            target.clone()
        ),
    )];
    fields.extend(served.fields);
    if target.kind == "Namespace" && target.api_version == "v1" {
        fields.push(federated::skip_auto_propagation(
            &mut template,
            kubefed.version,
        ));
    } else if let Some(namespace) = &target.namespace {
        fields.extend(namespace_placement(
            placement,
            kubefed.namespaces.get(namespace.as_str()).copied(),
            namespace,
        ));
    }
    let affinity = policy_affinity(placement, division, &mut fields);
    let mut outputs = Vec::new();
    let mut comparisons = Vec::new();
    if let Some(cluster_affinity) = affinity {
        let replica_scheduling = division.map(|division| {
            set_replicas(&mut template, division.total_replicas);
            weights::convert(division.preferences, &|_| String::new(), false).0
        });
        if division.is_none() {
            fields.push(FieldReport::exact(
                "(the same object on every selected cluster)",
                "replicaScheduling absent (Duplicated)",
            ));
            comparisons.push(Comparison {
                aspect: Aspect::Clusters,
                old: object.clone(),
                new: target.clone(),
            });
        }
        fields.push(readiness());
        outputs.push(policy::propagation_policy(
            &target,
            Placement {
                cluster_affinity,
                replica_scheduling,
            },
        )?);
    }
    let (rules, override_fields) = federated::overrides(raw.value, division)?;
    fields.extend(override_fields);
    outputs.insert(
        0,
        crate::migrate::manifest::Emitted {
            object: target.clone(),
            value: template,
        },
    );
    if !rules.is_empty() {
        outputs.push(policy::override_policy(&target, rules)?);
    }
    let recorded = Recorded {
        converted: Converted { outputs, fields },
        stripped: None,
        location: raw.location.clone(),
        written: raw.namespace.is_some(),
        comparisons,
        carried_by: Vec::new(),
        replaces,
    };
    Ok((recorded, Some(target)))
}

/// The resource template a `Federated<Kind>` becomes, its identity, and the input it
/// replaces: kubefed needs a FederatedNamespace's
/// Namespace on the host, so the Namespace written is that one, labelled; any other input
/// object of the template's identity would be overwritten by it, which is refused.
fn template(
    raw: &RawObject<'_>,
    object: &ObjectRef,
    kubefed: &Kubefed<'_>,
) -> Result<(ObjectRef, Value, Vec<Location>), ObjectError> {
    let target = federated::target(object, &kubefed.types)?;
    let namespace = target.namespace.as_ref().and(raw.namespace);
    let mut template = federated::template(raw.value, &target, namespace)?;
    let existing = kubefed.raws.iter().find(|other| {
        other.api_version == target.api_version && other.is(&target, kubefed.namespace)
    });
    let mut replaces = Vec::new();
    if let Some(existing) = existing {
        if target.kind != "Namespace" {
            return Err(ObjectError::TemplateExists {
                template: target.to_string(),
                at: existing.location.source.to_string(),
            });
        }
        template = existing.value.clone();
        replaces.push(existing.location.clone());
    }
    Ok((target, template, replaces))
}

/// The policy's `clusterAffinity` for a federated placement: `None` when it selects no
/// cluster (no policy); none within (`Some(None)`) when its replica division chose among
/// every cluster, which its controller then wrote into the placement.
fn policy_affinity(
    placement: &FederatedPlacement,
    division: Option<&ReplicaDivision<'_>>,
    fields: &mut Vec<FieldReport>,
) -> Option<Option<ClusterAffinity>> {
    match division {
        Some(division) if !division.within_placement => {
            fields.push(
                FieldReport::exact("spec.placement", "not carried")
                    .because(division.words.rewrote_placement),
            );
            Some(None)
        }
        _ => {
            let affinity = federated_affinity(placement);
            match &affinity {
                Some((_, became)) => {
                    fields.push(FieldReport::exact("spec.placement", became.clone()))
                }
                None => fields.push(no_cluster("spec.placement")),
            }
            affinity.map(|(affinity, _)| Some(affinity))
        }
    }
}

/// What kubefed's intersection with the namespace's FederatedNamespace placement becomes: a
/// Karmada policy places its template alone. Exact when the FederatedNamespace names every
/// cluster the object does (the intersection changed nothing); nothing to say without a
/// FederatedNamespace in the inputs.
fn namespace_placement(
    placement: &FederatedPlacement,
    namespace_placement: Option<&FederatedPlacement>,
    namespace: &str,
) -> Option<FieldReport> {
    let field = format!("(FederatedNamespace {namespace} spec.placement)");
    let covered = match (placement, namespace_placement?) {
        (FederatedPlacement::Clusters(names), FederatedPlacement::Clusters(namespace_names)) => {
            names.iter().all(|name| namespace_names.contains(name))
        }
        _ => false,
    };
    Some(if covered {
        FieldReport::exact(field, "nothing").because(
            "kubefed placed a namespaced object only on clusters its FederatedNamespace selects too, which are every cluster it names",
        )
    } else {
        FieldReport::approximate(
            field,
            "nothing",
            "kubefed placed a namespaced object only on clusters its FederatedNamespace selects too; the PropagationPolicy places it wherever its own placement says",
        )
    })
}

/// Sets `spec.replicas`, creating `spec` when the template has none.
fn set_replicas(template: &mut Value, replicas: i64) {
    if let Value::Mapping(object) = template {
        let spec = object
            .entry("spec".into())
            .or_insert_with(|| Value::Mapping(Default::default()));
        if let Value::Mapping(spec) = spec {
            spec.insert("replicas".into(), replicas.into());
        }
    }
}

/// A replica division (kubefed's ReplicaSchedulingPreference): carried by its target's
/// policy, so it writes nothing itself; its conversion says what each preference became and
/// compares the layouts.
fn replica_division(
    raw: &RawObject<'_>,
    object: &ObjectRef,
    division: &ReplicaDivision<'_>,
    target: Option<&&Workload>,
    bounded: bool,
    types: &TypeConfigs,
) -> Result<Made, ObjectError> {
    let words = division.words;
    let recorded = |fields, comparisons, carried_by| Recorded {
        converted: Converted {
            outputs: Vec::new(),
            fields,
        },
        stripped: None,
        location: raw.location.clone(),
        written: raw.namespace.is_some(),
        comparisons,
        carried_by,
        replaces: Vec::new(),
    };
    if !division.acted {
        let fields = vec![FieldReport::lost(
            format!("{} {}", words.target_kind, division.target_kind),
            format!("{} {}", words.never_acted_on, division.target_kind),
        )];
        return Ok((recorded(fields, Vec::new(), Vec::new()), None));
    }
    let Some(target) = target else {
        return Err(ObjectError::TargetMissing {
            kind: division.target_kind.to_string(),
            namespace: object.namespace.clone().unwrap_or_default(),
            name: object.name.clone(),
        });
    };
    let template = federated::target(&target.object, types)?;
    let field = |name: &str| division.preference_field(name);
    let (_, mut fields) = weights::convert(division.preferences, &field, bounded);
    let total = division.total_replicas;
    fields.insert(
        0,
        FieldReport::exact(
            format!("{} {total}", words.total_replicas),
            format!("{template} spec.replicas {total}"),
        ),
    );
    let selects = match &target.kind {
        WorkloadKind::Federated(placement) => {
            !division.within_placement || federated_affinity(placement).is_some()
        }
        _ => false,
    };
    let mut comparisons = Vec::new();
    let mut carried_by = Vec::new();
    if selects {
        let policy = policy::policy_ref("PropagationPolicy", &template);
        fields.insert(
            1,
            FieldReport::exact(
                "spec (the division)",
                format!("{policy} spec.placement.replicaScheduling"),
            ),
        );
        comparisons.push(Comparison {
            aspect: Aspect::Replicas,
            old: object.clone(),
            new: template.clone(),
        });
        carried_by.push(policy);
    } else {
        fields.insert(1, no_cluster(&format!("{} true", words.within_placement)));
    }
    Ok((recorded(fields, comparisons, carried_by), None))
}

/// An object with federation v1 annotations: written back without them, propagated by a
/// policy of its cluster-selector (Duplicated) or replica-set-preferences (static weights).
fn annotated(
    raw: &RawObject<'_>,
    object: &ObjectRef,
    annotations: Annotations,
    inventory: &Inventory,
    bounded: bool,
) -> Result<Made, ObjectError> {
    if object.namespace.is_none() {
        return Err(ObjectError::ClusterScopedNeeds {
            kind: "ClusterPropagationPolicy",
        });
    }
    let Annotations {
        selector,
        preferences,
        replicas,
    } = annotations;
    let mut stripped = Annotations::stripped(raw.value);
    let mut fields = Vec::new();
    let cluster_affinity = match selector {
        Some(selector) => Some(selector_affinity(selector, inventory, &mut fields)?),
        None => None,
    };
    // A comparison no cluster satisfies selects nothing today: no policy, like kubefed's
    // empty placement.
    let selects = cluster_affinity.as_ref().is_none_or(Option::is_some);
    for annotation in selector
        .map(|_| CLUSTER_SELECTOR_ANNOTATION)
        .into_iter()
        .chain(preferences.map(|_| REPLICA_SET_PREFERENCES_ANNOTATION))
    {
        fields.push(FieldReport::exact(
            format!("metadata.annotations[{annotation}]"),
            "removed from the object",
        ));
    }
    let served = api_versions::serve(object, &stripped);
    let written = ObjectRef {
        api_version: served.api_version,
        ..object.clone()
    };
    stripped = served.value;
    fields.extend(served.fields);
    let replica_scheduling = match preferences {
        Some(preferences) => Some(static_weights(
            preferences,
            replicas,
            &mut stripped,
            bounded,
            &mut fields,
        )?),
        None => {
            if selects {
                fields.push(FieldReport::exact(
                    "(the same object on every selected cluster)",
                    "replicaScheduling absent (Duplicated)",
                ));
            }
            None
        }
    };
    let mut comparisons = Vec::new();
    let mut outputs = Vec::new();
    if selects {
        fields.push(readiness());
        comparisons.push(Comparison {
            aspect: if replica_scheduling.is_some() {
                Aspect::Replicas
            } else {
                Aspect::Clusters
            },
            old: object.clone(),
            new: written.clone(),
        });
        outputs.push(policy::propagation_policy(
            &written,
            Placement {
                cluster_affinity: cluster_affinity.flatten(),
                replica_scheduling,
            },
        )?);
    }
    let recorded = Recorded {
        converted: Converted { outputs, fields },
        stripped: Some(stripped),
        location: raw.location.clone(),
        written: raw.namespace.is_some(),
        comparisons,
        carried_by: Vec::new(),
        replaces: Vec::new(),
    };
    Ok((recorded, Some(written)))
}

/// The replica-set-preferences annotation as static weights; `spec.replicas` written out on
/// `stripped` when the object leaves it to its default, which Karmada reads as 0.
fn static_weights(
    preferences: &str,
    replicas: i64,
    stripped: &mut Value,
    bounded: bool,
    fields: &mut Vec<FieldReport>,
) -> Result<ReplicaScheduling, ObjectError> {
    let preferences = parse_replica_set_preferences(preferences)?;
    let field =
        |name: &str| format!("metadata.annotations[{REPLICA_SET_PREFERENCES_ANNOTATION}] {name}");
    let (scheduling, weight_fields) = weights::convert(&preferences, &field, bounded);
    if stripped
        .get("spec")
        .and_then(|spec| spec.get("replicas"))
        .is_none()
    {
        set_replicas(stripped, replicas);
        fields.push(
            FieldReport::exact(
                format!("spec.replicas (absent: {replicas})"),
                format!("spec.replicas {replicas}"),
            )
            .because("written out: Karmada reads an absent spec.replicas as 0"),
        );
    }
    fields.extend(weight_fields);
    Ok(scheduling)
}

/// The cluster-selector annotation as a `labelSelector`. `Gt`/`Lt` cannot be stated; they
/// become `In` over the label values of the inventory's clusters that satisfy them, which
/// holds until a cluster with another value joins. `None` when no cluster satisfies one.
fn selector_affinity(
    annotation: &str,
    inventory: &Inventory,
    fields: &mut Vec<FieldReport>,
) -> Result<Option<ClusterAffinity>, ObjectError> {
    let selector = Selector::from_annotation(annotation)
        .map_err(|error| ObjectError::ClusterSelector { error })?;
    let mut expressions = Vec::new();
    for requirement in selector.requirements() {
        let field = format!("metadata.annotations[{CLUSTER_SELECTOR_ANNOTATION}] {requirement}");
        let index = expressions.len();
        match match_expression(requirement) {
            Some(expression) => {
                fields.push(FieldReport::exact(
                    field,
                    format!(
                        "clusterAffinity.labelSelector.matchExpressions[{index}] {}",
                        describe(&expression)
                    ),
                ));
                expressions.push(expression);
            }
            None => {
                let Some(expression) = compared(requirement, inventory) else {
                    fields.push(FieldReport::approximate(
                        field,
                        "no PropagationPolicy",
                        "a labelSelector cannot compare, and no cluster of the inventory satisfies it: Karmada propagates a template no policy claims nowhere, until a cluster that would satisfy it joins",
                    ));
                    return Ok(None);
                };
                fields.push(FieldReport::approximate(
                    field,
                    format!("clusterAffinity.labelSelector.matchExpressions[{index}] {}", describe(&expression)),
                    "a labelSelector cannot compare: the values are the ones the inventory's clusters carry; a cluster joining with another value is not matched",
                ));
                expressions.push(expression);
            }
        }
    }
    Ok(Some(ClusterAffinity {
        label_selector: Some(LabelSelectorSpec {
            match_labels: None,
            match_expressions: (!expressions.is_empty()).then_some(expressions),
        }),
        ..ClusterAffinity::default()
    }))
}

/// `key In [values]` over the values of the clusters that satisfy a comparison; `None`
/// when no cluster does (`In` needs a value).
fn compared(
    requirement: &Requirement,
    inventory: &Inventory,
) -> Option<LabelSelectorRequirementSpec> {
    let mut values: Vec<String> = inventory
        .clusters
        .iter()
        .filter(|cluster| requirement.matches(&cluster.labels))
        .filter_map(|cluster| cluster.labels.get(requirement.key()))
        .map(|value| value.to_string())
        .collect();
    values.sort();
    values.dedup();
    (!values.is_empty()).then(|| LabelSelectorRequirementSpec {
        key: requirement.key().to_string(),
        operator: "In".to_string(),
        values,
    })
}
