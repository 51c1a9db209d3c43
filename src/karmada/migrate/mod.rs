//! `migrate --to karmada`: template objects (kubefed's federated objects) with the replica
//! divisions of their replicas (kubefed's), and objects with federation v1 annotations, to
//! Karmada resource templates with a PropagationPolicy each (and an OverridePolicy for a
//! template object's overrides). Both of kubefed's are read through the registry
//! (`registry::template_object`, `registry::template_types`, `registry::replica_division`),
//! in their API's words.
//!
//! - A template object becomes the plain object it stands for (`federated`), propagated by a
//!   PropagationPolicy whose `clusterAffinity` is its placement: named clusters as
//!   `clusterNames`, a label selector as `labelSelector`. Without a replica division the
//!   policy is Duplicated: the source sent the same object to every cluster.
//! - A replica division becomes the `Divided`/`Weighted` static weights of its target's
//!   policy (`weights`) and its total the template's `spec.replicas`; its clusters are its
//!   target's placement when it divides within it, else every cluster.
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
mod weights;

use std::collections::HashMap;

use serde_yaml::Value;

use crate::load::Document;
use crate::model::{Inventory, LabelSelectorSpec, Model, ObjectRef, Workload};
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
use crate::migrate::template::{TemplateClusters, TemplateObject, TemplateTypes};
use crate::migrate::{
    Annotations, Converted, MigrateError, MigrateOptions, Migration, Target,
    CLUSTER_SELECTOR_ANNOTATION, REPLICA_SET_PREFERENCES_ANNOTATION,
};
use policy::{ClusterAffinity, Placement, ReplicaScheduling};

/// What a template object is converted with: the plain types of the template kinds, and each
/// namespace's placement (the source placed a namespaced object only where its namespace was
/// placed too).
struct Templates<'a> {
    raws: &'a [RawObject<'a>],
    /// The namespace objects without one are read in.
    namespace: &'a str,
    types: TemplateTypes,
    namespaces: HashMap<&'a str, TemplateClusters<'a>>,
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
    let (types, type_errors) = crate::registry::template_types(&raws);
    assembly.report.errors.extend(type_errors);
    let mut templated = Templates {
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
    let (divisions, template_objects) = index_of(model, &mut templated);
    let mut templates = Vec::new();
    // Namespaces first: one `kubectl apply -f` of the stream creates them before what they
    // hold.
    let (namespaces, others): (Vec<&Workload>, Vec<&Workload>) =
        model.workloads.iter().partition(|workload| {
            templated
                .types
                .get(&workload.object.kind)
                .is_some_and(|target| target.kind == "Namespace")
                && crate::registry::template_object(workload).is_some()
        });

    for workload in namespaces.into_iter().chain(others) {
        let object = &workload.object;
        let raw = index.find(&workload.source, object, namespace);
        let division = crate::registry::replica_division(workload);
        let template = crate::registry::template_object(workload);
        let made = match (raw, template, Annotations::of(workload), division) {
            (None, Some(_), _, _) | (None, _, _, Some(_)) => Err(ObjectError::Missing),
            (None, ..) if matches!(workload.kind, WorkloadKind::Annotated { .. }) => {
                Err(ObjectError::Missing)
            }
            (Some(raw), Some(template), _, _) => {
                let division = divisions.get(&identity(&object.kind, object));
                template_object(raw, object, &template, division, &templated)
            }
            (Some(raw), _, _, Some(division)) => {
                let target = template_objects.get(&identity(division.target_kind, object));
                replica_division(raw, object, &division, target, bounded, &templated.types)
            }
            (Some(raw), _, Some(annotations), _) => {
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
/// division its controller acted on by its target's identity, each template object by its
/// own, with its description; a namespace's placement goes into `templated`.
fn index_of<'a>(
    model: &'a Model,
    templated: &mut Templates<'a>,
) -> (
    HashMap<Identity<'a>, ReplicaDivision<'a>>,
    HashMap<Identity<'a>, Described<'a>>,
) {
    let mut divisions: HashMap<Identity<'_>, ReplicaDivision<'_>> = HashMap::new();
    let mut template_objects: HashMap<Identity<'_>, Described<'_>> = HashMap::new();
    for workload in &model.workloads {
        if let Some(division) = crate::registry::replica_division(workload) {
            if division.acted {
                divisions.insert(identity(division.target_kind, &workload.object), division);
            }
        } else if let Some(template) = crate::registry::template_object(workload) {
            template_objects.insert(
                identity(&workload.object.kind, &workload.object),
                (workload, template),
            );
            if template.scopes_namespace {
                templated
                    .namespaces
                    .insert(workload.object.name.as_str(), template.placement);
            }
        }
    }
    (divisions, template_objects)
}

/// A template object and its description.
type Described<'a> = (&'a Workload, TemplateObject<'a>);

/// Kind, namespace and name: how a replica division is paired with its target.
type Identity<'a> = (&'a str, Option<&'a str>, &'a str);

fn identity<'a>(kind: &'a str, object: &'a ObjectRef) -> Identity<'a> {
    (kind, object.namespace.as_deref(), object.name.as_str())
}

/// A conversion and the resource template it writes (or leaves in place), if any.
type Made = (Recorded, Option<ObjectRef>);

/// kubefed and federation placed on ready clusters only; the not-ready taint does that in
/// Karmada.
fn readiness() -> FieldReport {
    FieldReport::exact("(ready clusters only)", "no clusterTolerations").because(
        "Karmada's cluster controller taints an unready cluster cluster.karmada.io/not-ready:NoSchedule (or unreachable), which keeps it out; a NoSchedule taint of your own keeps a cluster out too",
    )
}

/// The policy's placement for a template object's placement; `None` selects no cluster.
fn template_affinity(placement: TemplateClusters<'_>) -> Option<(ClusterAffinity, String)> {
    match placement {
        TemplateClusters::Named(names) if !names.is_empty() => Some((
            ClusterAffinity {
                cluster_names: names.to_vec(),
                ..ClusterAffinity::default()
            },
            format!("clusterAffinity.clusterNames [{}]", names.join(",")),
        )),
        TemplateClusters::Selected(Some(selector)) => Some((
            ClusterAffinity {
                label_selector: Some(selector.clone()),
                ..ClusterAffinity::default()
            },
            "clusterAffinity.labelSelector (the same selector)".to_string(),
        )),
        TemplateClusters::Named(_) | TemplateClusters::Selected(None) => None,
    }
}

fn no_cluster(field: &str) -> FieldReport {
    FieldReport::exact(field, "no PropagationPolicy")
        .because("it selects no cluster; Karmada propagates a template no policy claims nowhere")
}

/// A template object: its template, the policy (weighted when `division` divides its
/// replicas), and an OverridePolicy for its overrides.
fn template_object(
    raw: &RawObject<'_>,
    object: &ObjectRef,
    described: &TemplateObject<'_>,
    division: Option<&ReplicaDivision<'_>>,
    templated: &Templates<'_>,
) -> Result<Made, ObjectError> {
    let words = &described.api.words;
    let (mut target, template, replaces) = template(raw, object, described, templated)?;
    let served = api_versions::serve(&target, &template);
    target.api_version = served.api_version;
    let mut template = served.value;
    let mut fields = vec![FieldReport::exact(
        words.template,
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
            templated.version,
        ));
    } else if let Some(namespace) = &target.namespace {
        fields.extend(namespace_placement(
            described,
            templated.namespaces.get(namespace.as_str()).copied(),
            namespace,
        ));
    }
    let affinity = policy_affinity(described, division, &mut fields);
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
    let (rules, override_fields) =
        federated::overrides((described.api.overrides)(raw.value)?, division);
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

/// The resource template a template object becomes, its identity, and the input it
/// replaces: kubefed needs a federated namespace's Namespace on the host, so the Namespace
/// written is that one, labelled; any other input object of the template's identity would
/// be overwritten by it, which is refused.
fn template(
    raw: &RawObject<'_>,
    object: &ObjectRef,
    described: &TemplateObject<'_>,
    templated: &Templates<'_>,
) -> Result<(ObjectRef, Value, Vec<Location>), ObjectError> {
    let target = templated.types.target(object)?;
    let namespace = target.namespace.as_ref().and(raw.namespace);
    let mut template = (described.api.template)(raw.value, &target, namespace)?;
    let existing = templated.raws.iter().find(|other| {
        other.api_version == target.api_version && other.is(&target, templated.namespace)
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

/// The policy's `clusterAffinity` for a template object's placement: `None` when it selects
/// no cluster (no policy); none within (`Some(None)`) when its replica division chose among
/// every cluster, which its controller then wrote into the placement.
fn policy_affinity(
    described: &TemplateObject<'_>,
    division: Option<&ReplicaDivision<'_>>,
    fields: &mut Vec<FieldReport>,
) -> Option<Option<ClusterAffinity>> {
    let field = described.api.words.placement;
    match division {
        Some(division) if !division.within_placement => {
            fields.push(
                FieldReport::exact(field, "not carried").because(division.words.rewrote_placement),
            );
            Some(None)
        }
        _ => {
            let affinity = template_affinity(described.placement);
            match &affinity {
                Some((_, became)) => fields.push(FieldReport::exact(field, became.clone())),
                None => fields.push(no_cluster(field)),
            }
            affinity.map(|(affinity, _)| Some(affinity))
        }
    }
}

/// What the source's intersection with the namespace's placement becomes: a Karmada policy
/// places its template alone. Exact when the namespace's placement names every cluster the
/// object does (the intersection changed nothing); nothing to say without a namespace
/// placement in the inputs.
fn namespace_placement(
    described: &TemplateObject<'_>,
    namespace_placement: Option<TemplateClusters<'_>>,
    namespace: &str,
) -> Option<FieldReport> {
    let words = &described.api.words;
    let field = format!("({} {namespace} {})", words.namespace_kind, words.placement);
    let covered = match (described.placement, namespace_placement?) {
        (TemplateClusters::Named(names), TemplateClusters::Named(namespace_names)) => {
            names.iter().all(|name| namespace_names.contains(name))
        }
        _ => false,
    };
    let scoped = words.scoped_by_namespace;
    Some(if covered {
        FieldReport::exact(field, "nothing")
            .because(format!("{scoped}, which are every cluster it names"))
    } else {
        FieldReport::approximate(
            field,
            "nothing",
            format!("{scoped}; the PropagationPolicy places it wherever its own placement says"),
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

/// A replica division: carried by its target's
/// policy, so it writes nothing itself; its conversion says what each preference became and
/// compares the layouts.
fn replica_division(
    raw: &RawObject<'_>,
    object: &ObjectRef,
    division: &ReplicaDivision<'_>,
    target: Option<&Described<'_>>,
    bounded: bool,
    types: &TemplateTypes,
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
    let (target, described) = target;
    let template = types.target(&target.object)?;
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
    let selects = !division.within_placement || template_affinity(described.placement).is_some();
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
