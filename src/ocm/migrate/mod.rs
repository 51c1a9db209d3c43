//! The OCM migration target: PlacementRules and the federation cluster-selector annotation to
//! Placements, the consumers' references rewritten, and the workloads delivered by
//! ManifestWorkReplicaSets; `migrate` drives them over the loaded inputs (the annotation's
//! replica-set-preferences become kubefed's replica divisions, through the registry).

/// The inputs a migration to OCM converts, as an error names them.
pub(crate) const INPUTS: &str = "PlacementRule and no object with a federation placement \
     annotation (federation.alpha.kubernetes.io/cluster-selector, \
     federation.kubernetes.io/replica-set-preferences)";

pub(crate) mod cel;
pub(crate) mod cluster_selector;
pub(crate) mod consumers;
pub(crate) mod delivery;
mod hub_version;
pub(crate) mod manifest;
pub(crate) mod placement_rule;
pub(crate) mod scope;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_yaml::Value;

use crate::load::Document;
use crate::migrate::assembly::{Assembly, Recorded};
use crate::migrate::manifest::{emit, Emitted, Unwritten};
use crate::migrate::object_error::ObjectError;
use crate::migrate::objects::{self, Location, RawIndex, RawObject};
use crate::migrate::report::{Added, Aspect, Comparison, Conversion, Report};
use crate::migrate::{
    api_versions, Annotations, Converted, MigrateError, MigrateOptions, Migration,
};
use crate::model::Metadata;
use crate::model::{Model, ObjectRef, WorkloadKind};
use crate::ocm::model::placement::{PlacementSpec, PLACEMENT_API_VERSION};
use scope::{ClusterScope, GLOBAL};

/// A v1beta1 Placement, the one spec type fleetplan reads Placements into.
pub(crate) fn placement(metadata: Metadata<'_>, spec: PlacementSpec) -> Result<Emitted, Unwritten> {
    emit(PLACEMENT_API_VERSION, "Placement", metadata, spec)
}

/// The migration to OCM (a `migrate::Migrate`, chosen by `registry::migrate`).
///
/// What is written keeps the inputs' namespaces as written: the objects made for an input
/// without `metadata.namespace` have none either, so `kubectl apply -n NS` (or a kustomize
/// `namespace:`) puts them where it puts the input, together.
pub(crate) fn migrate(
    model: &Model,
    documents: &[Document],
    namespace: &str,
    options: &MigrateOptions,
) -> Result<Migration, MigrateError> {
    let raws = objects::raw_objects(documents);
    let index = RawIndex::new(&raws);
    let decisions = own_decisions(model);
    let scope = ClusterScope::new(&options.set, &model.inventory);
    let mut assembly = Assembly::new(model);
    // Each namespace Placements are made in, and whether any input there named it.
    let mut namespaces: BTreeMap<String, bool> = BTreeMap::new();
    let mut rules = BTreeSet::new();

    for workload in &model.workloads {
        let object = &workload.object;
        let raw = || index.find(&workload.source, object, namespace);
        let result = if let WorkloadKind::PlacementRule(spec) = &workload.kind {
            raw().ok_or(ObjectError::Missing).and_then(|raw| {
                let namespace = namespace_of(object)?;
                let converted = placement_rule::convert(&placement_rule::RuleInput {
                    raw,
                    object,
                    spec,
                    decisions: decisions.get(object).copied().unwrap_or_default(),
                    scope: &scope,
                })?;
                let placement = converted
                    .outputs
                    .iter()
                    .map(|e| e.object.clone())
                    .collect::<Vec<_>>();
                rules.insert((namespace.to_string(), object.name.clone()));
                Ok((converted, None, raw.location.clone(), placement, Vec::new()))
            })
        } else if let Some(annotations) = Annotations::of(workload) {
            raw().ok_or(ObjectError::Missing).and_then(|raw| {
                namespace_of(object)?;
                annotated(raw, object, annotations, &scope, options.deliver)
            })
        } else {
            continue;
        };
        let (mut converted, stripped, location, placements, rsps) = match result {
            Ok(parts) => parts,
            Err(error) => {
                assembly
                    .report
                    .errors
                    .push(format!("{}: {object}: {error}", workload.source));
                continue;
            }
        };
        hub_version::restrict(options.ocm, &mut converted);
        let written = raw().and_then(|raw| raw.namespace).is_some();
        let recorded = Recorded {
            converted,
            stripped,
            location,
            written,
            comparisons: comparisons(object, &placements, &rsps),
            carried_by: Vec::new(),
            replaces: Vec::new(),
        };
        if !assembly.record(workload, recorded) {
            continue;
        }
        if !placements.is_empty() {
            if let Some(namespace) = &object.namespace {
                *namespaces.entry(namespace.clone()).or_default() |= written;
            }
        }
    }

    rewrite_consumers(&raws, namespace, &rules, &mut assembly);
    let support = support_objects(model, &scope, &namespaces, &mut assembly.report)?;
    Ok(assembly.finish(support))
}

/// Each PlacementRule's own decisions: the first PlacementDecision-like entry read for it.
fn own_decisions(model: &Model) -> HashMap<&ObjectRef, &[String]> {
    let mut decisions: HashMap<&ObjectRef, &[String]> = HashMap::new();
    for decision in &model.decisions {
        decisions
            .entry(&decision.object)
            .or_insert(decision.clusters.as_slice());
    }
    decisions
}

/// What `--verify` compares for one converted object: its clusters against each Placement
/// made for it, its replicas against each replica division written for it.
fn comparisons(
    object: &ObjectRef,
    placements: &[ObjectRef],
    rsps: &[ObjectRef],
) -> Vec<Comparison> {
    let mut comparisons: Vec<Comparison> = placements
        .iter()
        .map(|placement| Comparison {
            aspect: Aspect::Clusters,
            old: object.clone(),
            new: placement.clone(),
        })
        .collect();
    comparisons.extend(rsps.iter().map(|rsp| Comparison {
        aspect: Aspect::Replicas,
        old: object.clone(),
        new: rsp.clone(),
    }));
    comparisons
}

/// The consumers (`raws` in input order) whose references name a migrated PlacementRule of
/// `rules`, rewritten to name its Placement. An identical duplicate (read once by the
/// loader) is rewritten once.
fn rewrite_consumers(
    raws: &[RawObject<'_>],
    namespace: &str,
    rules: &BTreeSet<(String, String)>,
    assembly: &mut Assembly,
) {
    let mut rewritten = std::collections::HashSet::new();
    for raw in raws {
        let Some((value, field)) = consumers::rewrite(raw, namespace, rules) else {
            continue;
        };
        if !rewritten.insert((
            raw.group(),
            raw.kind,
            raw.namespace.unwrap_or(namespace),
            raw.name,
        )) {
            continue;
        }
        let object = ObjectRef {
            api_version: raw.api_version.to_string(),
            kind: raw.kind.to_string(),
            namespace: Some(raw.namespace.unwrap_or(namespace).to_string()),
            name: raw.name.to_string(),
        };
        let conversion = Conversion::new(
            object.clone(),
            vec![object.clone()],
            vec![field],
            Vec::new(),
        );
        assembly.rewrite(Emitted { object, value }, raw.location.clone(), conversion);
    }
}

type Parts = (
    Converted,
    Option<Value>,
    Location,
    Vec<ObjectRef>,
    Vec<ObjectRef>,
);

/// An object with the federation annotations: a Placement for the cluster-selector and a
/// ManifestWorkReplicaSet delivering the object (without either annotation) to its clusters,
/// an RSP for the replica-set-preferences. Without a cluster-selector, or without `deliver`,
/// the object itself is written back without the annotations.
fn annotated(
    raw: &RawObject<'_>,
    object: &ObjectRef,
    annotations: Annotations,
    scope: &ClusterScope,
    deliver: bool,
) -> Result<Parts, ObjectError> {
    let mut converted = Converted {
        outputs: Vec::new(),
        fields: Vec::new(),
    };
    let mut placements = Vec::new();
    let mut rsps = Vec::new();
    let mut stripped = Some(Annotations::stripped(raw.value));
    if let Some(selector) = annotations.selector {
        let made = cluster_selector::convert(object, selector, scope)?;
        placements.extend(made.outputs.iter().map(|e| e.object.clone()));
        converted.outputs.extend(made.outputs);
        converted.fields.extend(made.fields);
        let placement = cluster_selector::placement_ref(object);
        if !deliver {
            converted.fields.push(delivery::not_delivered(&placement));
        } else if let Some(workload) = stripped.take() {
            let delivered = delivery::convert(
                object,
                &placement,
                &workload,
                raw.namespace.is_some(),
                annotations
                    .preferences
                    .map(|_| crate::registry::DIVISION_WORDS.split_is),
            )?;
            converted.outputs.extend(delivered.outputs);
            converted.fields.extend(delivered.fields);
        }
    }
    // Written back bare, the object itself must still be served by the clusters.
    if let Some(value) = stripped.as_mut() {
        let served = api_versions::serve(object, value);
        *value = served.value;
        converted.fields.extend(served.fields);
    }
    if let Some(preferences) = annotations.preferences {
        let made = crate::registry::replica_set_preferences(
            object,
            preferences,
            annotations.replicas,
            annotations.selector.is_some(),
        )?;
        rsps.extend(made.outputs.iter().map(|e| e.object.clone()));
        converted.outputs.extend(made.outputs);
        converted.fields.extend(made.fields);
    }
    Ok((converted, stripped, raw.location.clone(), placements, rsps))
}

fn namespace_of(object: &ObjectRef) -> Result<&str, ObjectError> {
    object
        .namespace
        .as_deref()
        .ok_or_else(|| ObjectError::ClusterScoped {
            written: format!("Placements and {}", crate::registry::DIVISION_WORDS.objects),
        })
}

/// The cluster set and the bindings the migrated Placements need, unless the inputs have them.
/// `namespaces` maps each namespace Placements are made in to whether an input named it: a
/// binding is written without a namespace when every Placement it serves is.
fn support_objects(
    model: &Model,
    scope: &ClusterScope,
    namespaces: &BTreeMap<String, bool>,
    report: &mut Report,
) -> Result<Vec<Emitted>, Unwritten> {
    let mut out = Vec::new();
    if namespaces.is_empty() {
        return Ok(out);
    }
    if !scope.defined {
        if scope.set == GLOBAL {
            let set = manifest::every_cluster_set(GLOBAL)?;
            report.added.push(Added {
                object: set.object.clone(),
                reason:
                    "the inputs have no global set; this one holds every cluster (LabelSelector {})"
                        .to_string(),
            });
            out.push(set);
        } else {
            report.warnings.push(format!(
                "ManagedClusterSet {} is not in the inputs; the bindings take effect once it exists",
                scope.set
            ));
        }
    }
    for (namespace, written) in namespaces {
        let bound = model.inventory.bindings.iter().any(|binding| {
            binding.namespace == *namespace
                && binding.name == scope.set
                && binding.cluster_set == scope.set
        });
        if bound {
            continue;
        }
        let mut binding = manifest::binding(namespace, &scope.set)?;
        if !written {
            binding.drop_namespace();
        }
        report.added.push(Added {
            object: binding.object.clone(),
            reason: format!(
                "Placements in {namespace} choose from the ManagedClusterSet {}, which must be bound there",
                scope.set
            ),
        });
        out.push(binding);
    }
    Ok(out)
}
