//! `fleetplan migrate`: legacy placement objects to a target API's (OCM's, Karmada's), with a
//! loss report for every field and, on request, a verification that plans the old and the
//! new objects against the same inventory.
//!
//! The framework: loading, the run (`run`), the report (`report`), the verification
//! (`verify`), the written output; each target's driver and conversions live in its folder
//! (`ocm/migrate/`, `karmada/migrate/`), chosen by `registry::migrate`. The migrator reads the
//! inputs through the loader's document layer (`load::load_with_documents`), because it
//! re-emits objects as written — without an annotation, with a rewritten reference — and
//! the model does not keep them.
//!
//! Output: the migrated objects as one YAML stream (or a JSON `Migration` document holding
//! the objects, the report and the verification), in this order: the cluster set and bindings
//! the Placements need, then per converted object (in plan item order) what it became, then
//! the rewritten consumers in input order.

pub(crate) mod api_versions;
pub(crate) mod assembly;
pub(crate) mod division;
#[cfg(test)]
mod golden;
pub(crate) mod hub_version;
pub(crate) mod in_place;
mod keep_going;
pub(crate) mod manifest;
pub(crate) mod match_expression;
pub(crate) mod object_error;
pub(crate) mod objects;
pub(crate) mod report;
pub(crate) mod template;
pub(crate) mod verify;

use std::collections::HashMap;
use std::io::Read;

use serde::Serialize;
use serde_yaml::Value;

pub(crate) use crate::load::CLUSTER_SELECTOR_ANNOTATION;
use crate::load::{self, Document, LoadErrors, LoadOptions};
use crate::model::{Model, Workload, WorkloadKind};
use crate::plan::PlanOptions;
use crate::render::{json_document, Unrepresentable};
pub(crate) use crate::replicas::REPLICA_SET_PREFERENCES_ANNOTATION;
use crate::verdict::{self, Nothing};

use hub_version::{KarmadaVersion, OcmVersion};
use manifest::Emitted;
use objects::Location;
use report::{FieldReport, Report, Summary};
pub(crate) use verify::Verification;

pub(crate) const API_VERSION: &str = "fleetplan.io/v1alpha1";

/// `--out` folders: cluster-scoped objects; `namespaces/<ns>/` for objects written with a
/// namespace; namespaced objects written without one (applied with `kubectl apply -n NS`).
pub(crate) const CLUSTER_SCOPED_FOLDER: &str = "cluster-scoped";
pub(crate) const NAMESPACES_FOLDER: &str = "namespaces";
pub(crate) const NO_NAMESPACE_FOLDER: &str = "no-namespace";
pub(crate) const KIND: &str = "Migration";

/// An object with federation v1 annotations (`WorkloadKind::Annotated`) as both targets
/// migrate it: its cluster-selector and replica-set-preferences as written, and its
/// `spec.replicas`.
#[derive(Clone, Copy)]
pub(crate) struct Annotations<'w> {
    pub selector: Option<&'w str>,
    pub preferences: Option<&'w str>,
    pub replicas: i64,
}

impl<'w> Annotations<'w> {
    /// `workload`'s annotations; `None` unless it is an annotated object.
    pub(crate) fn of(workload: &'w Workload) -> Option<Self> {
        match &workload.kind {
            WorkloadKind::Annotated {
                replica_set_preferences,
                replicas,
            } => Some(Annotations {
                selector: workload.cluster_selector.as_deref(),
                preferences: replica_set_preferences.as_deref(),
                replicas: *replicas,
            }),
            _ => None,
        }
    }

    /// `value`, the object as written, without either annotation: what is written back.
    pub(crate) fn stripped(value: &Value) -> Value {
        objects::without_annotations(
            value,
            &[
                CLUSTER_SELECTOR_ANNOTATION,
                REPLICA_SET_PREFERENCES_ANNOTATION,
            ],
        )
    }
}

/// The API the legacy objects are migrated to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Target {
    /// OCM Placements (and work replica sets, kubefed's replica divisions).
    #[default]
    Ocm,
    /// Karmada's propagation (and override) policies over plain resource templates.
    Karmada,
}

impl Target {
    /// The target as `--to` names it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Target::Ocm => "ocm",
            Target::Karmada => "karmada",
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct MigrateOptions<'a> {
    pub target: Target,
    /// The cluster set migrated Placements use (`global` by default).
    pub set: String,
    /// Plan the old and the migrated objects with these options and compare them.
    pub verify: Option<PlanOptions<'a>>,
    /// An object with the federation cluster-selector annotation is delivered by a
    /// work replica set; without, it is written back bare and its delivery reported
    /// lost (for users who deliver workloads another way).
    pub deliver: bool,
    /// Inputs that fail to load are reported as failed and the rest is migrated, instead of
    /// nothing.
    pub keep_going: bool,
    /// Plan the rewrite of the source files (`--in-place`).
    pub in_place: bool,
    /// The OCM hub (`--to ocm`) and Karmada control plane (`--to karmada`) the output is for.
    pub ocm: &'static OcmVersion,
    pub karmada: &'static KarmadaVersion,
}

impl Default for MigrateOptions<'_> {
    fn default() -> Self {
        MigrateOptions {
            target: Target::default(),
            set: crate::registry::GLOBAL.to_string(),
            verify: None,
            deliver: true,
            keep_going: false,
            in_place: false,
            ocm: hub_version::default_ocm(),
            karmada: hub_version::default_karmada(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum MigrateError {
    #[error("{0}")]
    Load(LoadErrors),
    /// The migrated objects are rejected by the loader: a bug, but never a silent one.
    #[error("the migrated objects do not load back:\n{0}")]
    RoundTrip(LoadErrors),
    /// `--in-place` cannot rewrite the source files as asked.
    #[error(transparent)]
    InPlace(#[from] in_place::InPlaceError),
    /// `--verify` would call identical what it did not compare.
    #[error("{0}")]
    Nothing(Nothing),
    /// A migrated object whose kind, name or namespace the API server would refuse, so it
    /// cannot name a file either.
    #[error("{object}: {field}: {message}")]
    Unnameable {
        object: String,
        field: &'static str,
        message: String,
    },
    /// A migrated object the output's format cannot write (JSON writes only string mapping
    /// keys; a migrated object keeps its input's): the command fails, never writes it empty.
    #[error("{object}: cannot be written as {source}")]
    Unrepresentable {
        object: String,
        source: Unrepresentable,
    },
}

/// What one conversion made.
pub(crate) struct Converted {
    pub outputs: Vec<Emitted>,
    pub fields: Vec<FieldReport>,
}

/// The migration: objects to apply, the loss report, and the verification when asked for.
#[derive(Clone, Debug)]
pub(crate) struct Migration {
    pub objects: Vec<Emitted>,
    pub report: Report,
    pub verification: Option<Vec<Verification>>,
    /// Input objects replaced (`Some`) or deleted (`None`) by the migration.
    replaced: Vec<(Location, Option<Value>)>,
    /// Objects the migration creates.
    created: Vec<Value>,
    /// Objects `--verify` loads with the migrated ones without writing them: the Karmada
    /// Clusters standing in for an inventory that has none.
    pub(crate) stand_ins: Vec<Value>,
    /// What each converted input object became, by its location.
    made: Vec<(Location, Vec<Value>)>,
    /// The objects the others need (cluster set, bindings), made for no one input object.
    support: Vec<Emitted>,
    /// Other copies of converted objects (identical duplicates read once), each with the
    /// location of the copy that was converted.
    copies: Vec<(Location, Location)>,
    /// `--in-place`: what to write into each source file.
    pub rewrite: Option<in_place::Rewrite>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MigrationDocument<'a> {
    api_version: &'a str,
    kind: &'a str,
    items: Vec<&'a Value>,
    report: &'a Report,
    summary: Summary,
    #[serde(skip_serializing_if = "Option::is_none")]
    verification: Option<&'a Vec<Verification>>,
}

impl Migration {
    /// Some object could not be migrated.
    pub(crate) fn has_errors(&self) -> bool {
        !self.report.errors.is_empty()
    }

    /// `--verify` found an object whose migrated form plans differently.
    pub(crate) fn differs(&self) -> bool {
        self.verification
            .iter()
            .flatten()
            .any(|verification| !verification.identical)
    }

    /// The counts of the report's last line.
    pub(crate) fn summary(&self) -> Summary {
        self.report.summary(self.verification.as_deref())
    }

    /// One YAML stream, `---` between objects.
    pub(crate) fn to_yaml(&self) -> Result<String, MigrateError> {
        let documents: Vec<String> = self
            .objects
            .iter()
            .map(|object| written(object, yaml))
            .collect::<Result<_, _>>()?;
        Ok(documents.join("---\n"))
    }

    /// The `Migration` document: objects, report and verification as data.
    pub(crate) fn to_json(&self) -> Result<String, MigrateError> {
        let document = MigrationDocument {
            api_version: API_VERSION,
            kind: KIND,
            items: self.objects.iter().map(|object| &object.value).collect(),
            report: &self.report,
            summary: self.summary(),
            verification: self.verification.as_ref(),
        };
        json_document(&document).map_err(|source| {
            // The object the serializer refuses, looked for only once it has refused one.
            let object = self
                .objects
                .iter()
                .find(|object| written(object, json_document).is_err())
                .map_or_else(|| KIND.to_string(), |object| object.object.to_string());
            MigrateError::Unrepresentable { object, source }
        })
    }

    /// One file per object for `--out DIR`, in a folder that applies with one
    /// `kubectl apply -f`: `cluster-scoped/` (cluster-scoped objects),
    /// `namespaces/<namespace>/` (objects written with that `metadata.namespace`) and
    /// `no-namespace/` (namespaced objects written without one, applied with `-n NS`), so no
    /// folder mixes objects with and without a namespace. Each file is
    /// `<kind>_<name>.yaml` (lower-case kind), or `.json` with each object as JSON.
    /// A file name is made only of a kind, namespace and name that pass the API server's
    /// rules (no `/`, never `..`); an object whose do not is an error naming it.
    pub(crate) fn files(&self, json: bool) -> Result<Vec<(String, String)>, MigrateError> {
        self.objects
            .iter()
            .map(|emitted| {
                let object = &emitted.object;
                let namespace = emitted.written_namespace();
                if let Some((field, message)) =
                    load::refused_identity(object.group(), &object.kind, namespace, &object.name)
                {
                    return Err(MigrateError::Unnameable {
                        object: object.to_string(),
                        field,
                        message,
                    });
                }
                let kind = object.kind.to_ascii_lowercase();
                let folder = match (namespace, &object.namespace) {
                    (Some(namespace), _) => format!("{NAMESPACES_FOLDER}/{namespace}"),
                    (None, Some(_)) => NO_NAMESPACE_FOLDER.to_string(),
                    (None, None) => CLUSTER_SCOPED_FOLDER.to_string(),
                };
                let stem = format!("{folder}/{kind}_{}", object.name);
                Ok(if json {
                    (format!("{stem}.json"), written(emitted, json_document)?)
                } else {
                    (format!("{stem}.yaml"), written(emitted, yaml)?)
                })
            })
            .collect()
    }
}

fn yaml(value: &Value) -> Result<String, Unrepresentable> {
    Ok(crate::yaml11::to_string(value)?)
}

/// `emitted` as `write` writes it; a refusal names the object.
fn written(
    emitted: &Emitted,
    write: impl Fn(&Value) -> Result<String, Unrepresentable>,
) -> Result<String, MigrateError> {
    write(&emitted.value).map_err(|source| MigrateError::Unrepresentable {
        object: emitted.object.to_string(),
        source,
    })
}

/// Loads the inputs, migrates them, and verifies when `options.verify`.
pub(crate) fn run(
    paths: &[String],
    stdin: &mut dyn Read,
    load_options: &LoadOptions,
    options: &MigrateOptions,
) -> Result<Migration, MigrateError> {
    let namespace = &load_options.namespace;
    let (model, documents, errors) = load::load_with_documents(paths, stdin, load_options);
    let (model, documents, failed) = match errors {
        errors if errors.is_empty() => (model, documents, Vec::new()),
        errors if !options.keep_going => return Err(MigrateError::Load(LoadErrors(errors))),
        errors => {
            let kept = keep_going::without_failed(model, documents, errors, namespace)
                .map_err(MigrateError::Load)?;
            (kept.model, kept.documents, kept.failed)
        }
    };
    let mut migration =
        crate::registry::migrate(options.target)(&model, &documents, namespace, options)?;
    // What the loader warned about (an identical duplicate, read once) is said first; each
    // copy of a duplicate is replaced as the copy that was migrated.
    migration
        .report
        .warnings
        .splice(0..0, model.warnings.iter().cloned());
    migration.report.errors.splice(0..0, failed);
    let copies = objects::copies(
        &objects::raw_objects(&documents),
        &migration.replaced,
        namespace,
    );
    let changes: HashMap<&Location, &Option<Value>> = migration
        .replaced
        .iter()
        .map(|(location, change)| (location, change))
        .collect();
    let replaced: Vec<(Location, Option<Value>)> = copies
        .iter()
        .filter_map(|(copy, original)| Some((copy.clone(), (*changes.get(original)?).clone())))
        .collect();
    migration.replaced.extend(replaced);
    migration.copies = copies;
    verdict::migrated(
        migration.report.conversions.len(),
        migration.report.errors.len(),
        crate::registry::migrated_inputs(options.target),
    )
    .map_err(MigrateError::Nothing)?;
    if let Some(plan_options) = &options.verify {
        verdict::clusters(&model, true).map_err(MigrateError::Nothing)?;
        let verified = verify::verify(&model, &documents, &migration, namespace, plan_options)
            .map_err(MigrateError::RoundTrip)?;
        if verified.items.is_empty() {
            let compared = crate::registry::verified_kinds(options.target);
            return Err(MigrateError::Nothing(Nothing::Migrated { compared }));
        }
        if !migration.stand_ins.is_empty() {
            migration.report.warnings.push(format!(
                "verify: the inputs have no Karmada Clusters; the policies are planned on {} made from the inventory (names and labels, offline ones tainted cluster.karmada.io/not-ready:NoSchedule, every migrated API enabled)",
                migration.stand_ins.len()
            ));
        }
        migration.report.warnings.extend(verified.warnings);
        migration.verification = Some(verified.items);
    }
    if options.in_place {
        migration.rewrite = Some(in_place::plan(&documents, &migration, namespace)?);
    }
    Ok(migration)
}

/// A target's migration: the pure migration of a loaded model and its documents to its API;
/// `namespace` is the one the model gave objects written without one. `registry::migrate`
/// chooses it by `Target`. It fails only on an object it made that cannot be written.
pub(crate) type Migrate =
    fn(&Model, &[Document], &str, &MigrateOptions) -> Result<Migration, MigrateError>;
