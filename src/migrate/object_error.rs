//! Why one object cannot be migrated. The migration goes on without it: the message joins
//! the report's errors as `source: object: message`.

use crate::replicas::PreferencesError;
use crate::selector::SelectorError;

use super::manifest::Unwritten;
use super::CLUSTER_SELECTOR_ANNOTATION;

#[derive(Debug, thiserror::Error)]
pub(crate) enum ObjectError {
    /// The model has the object but its document does not: a loader bug, never silent.
    #[error("the object is missing from its document")]
    Missing,
    /// A cluster-scoped object; `written` are what the migration writes for it, which are
    /// namespaced.
    #[error("a cluster-scoped object cannot be migrated: {written} are namespaced")]
    ClusterScoped { written: String },
    /// A cluster-scoped object that would need a `kind` of the target's, which the migration
    /// does not write.
    #[error("a cluster-scoped object needs a {kind}, which this migration does not write")]
    ClusterScopedNeeds { kind: &'static str },
    #[error("annotation {}: {error}", CLUSTER_SELECTOR_ANNOTATION)]
    ClusterSelector { error: SelectorError },
    #[error(transparent)]
    Preferences(#[from] PreferencesError),
    /// A `Gt`/`Lt` requirement whose bound is not an integer (`field` names it).
    #[error("{field}: expected an integer bound")]
    IntegerBound { field: String },
    /// A template object of a kind nothing maps to a plain type: neither its API's defaults
    /// nor the `config` objects of the inputs.
    #[error(
        "kind {kind}: no {config} says which type it federates ({defaults} and the inputs' {config}s know {}); add its {config} with -f",
        .known.join(", ")
    )]
    UnknownTemplateKind {
        kind: String,
        known: Vec<String>,
        config: &'static str,
        defaults: &'static str,
    },
    /// The resource template a federated object becomes is already an object of the inputs.
    #[error("its resource template {template} is already in the inputs ({at}): applied, one would overwrite the other")]
    TemplateExists { template: String, at: String },
    #[error("{field}: expected a mapping")]
    NotAMapping { field: &'static str },
    #[error("spec.overrides: {0}")]
    Overrides(serde_yaml::Error),
    #[error("{field}: op {op:?}: expected add, remove or replace")]
    OverrideOperator { field: String, op: String },
    /// A migrated object serde_yaml cannot write: it is reported, never written empty.
    #[error("its migrated {0}")]
    Unwritten(#[from] Unwritten),
    /// A replica division whose target object is not among the inputs.
    #[error(
        "its target {kind}/{namespace}/{name} is not in the inputs: there is no resource template to divide"
    )]
    TargetMissing {
        kind: String,
        namespace: String,
        name: String,
    },
}
