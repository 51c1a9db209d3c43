//! Reading inputs: files, directories, globs and stdin; multi-document YAML and JSON; dispatch
//! by apiVersion/kind into the model, with `file#document` locations for every error.

pub(crate) mod clusters;
pub(crate) mod content;
pub(crate) mod decode;
mod dispatch;
mod documents;
mod error;
mod field_line;
mod fields;
mod fingerprint;
mod ignore_files;
mod inputs;
mod interning;
pub(crate) mod kinds;
pub(crate) mod model_builder;
pub(crate) mod names;
pub(crate) mod object;
mod plain_scalars;
mod previous;
mod strict;
mod yaml_scan;

use std::io::Read;

pub(crate) use documents::Document;
pub(crate) use error::{LoadError, LoadErrors};
pub(crate) use field_line::field_lines;
pub(crate) use inputs::{WalkOptions, STDIN_NAME};
pub(crate) use kinds::CLUSTER_SELECTOR_ANNOTATION;
pub(crate) use names::{parse_namespace, refused_identity};
pub use previous::previous_plan;
pub(crate) use previous::previous_plan_limited;
pub(crate) use strict::Strict;

use crate::model::{Model, Source};
use content::{Content, Shape};

/// What an API folder's reader (`src/<api>/read.rs`) builds on: the registry's types, the
/// object being read and what a reader returns.
pub(crate) mod api {
    pub(crate) use super::decode::FieldError;
    pub(crate) use super::kinds::{claimed, workload, Api, KnownKind};
    pub(crate) use super::model_builder::{Decoded, Entry};
    pub(crate) use super::names::Names;
    pub(crate) use super::object::{Object, Scope};
}
use model_builder::ModelBuilder;
use plain_scalars::Misread;

/// Limits against hostile or accidental huge input, so memory stays bounded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    /// The largest file (or stdin) read, in bytes.
    pub max_input_bytes: u64,
    /// How many values YAML aliases may add to one input beyond two per input byte (without
    /// aliases an input never has more values than bytes, so only alias expansion reaches it).
    pub max_alias_expansion: usize,
    /// The namespace of namespaced objects that have none (kubectl's `-n`; `default`).
    pub namespace: String,
    /// How directories and globs are walked (`--hidden`, `--exclude`).
    pub walk: WalkOptions,
    /// Whether what only the loading needs (an identity entry per object and per cluster read,
    /// each with its strings, and the parsed documents) is left to the process's exit rather
    /// than freed: the CLI, which ends right after its run, sets it. Freeing the maps took a
    /// core ~13 ms while the run planned (100k clusters with 10k Policies, their bindings and
    /// 10k Placements).
    pub left_to_exit: bool,
}

/// 256 MiB: a 100k-cluster fleet exported as a hub's cluster objects is ~64 MB even without
/// `managedFields`, and 100k clusters is a normal input; a stray multi-gigabyte dump is still
/// refused from its size before a byte is read.
pub(crate) const DEFAULT_MAX_INPUT_BYTES: u64 = 256 * 1024 * 1024;
pub(crate) const DEFAULT_MAX_ALIAS_EXPANSION: usize = 100_000;
/// Where kubectl puts a namespaced object without `metadata.namespace` when no `-n` is given.
pub(crate) const DEFAULT_NAMESPACE: &str = "default";

impl Default for LoadOptions {
    fn default() -> LoadOptions {
        LoadOptions {
            max_input_bytes: DEFAULT_MAX_INPUT_BYTES,
            max_alias_expansion: DEFAULT_MAX_ALIAS_EXPANSION,
            namespace: DEFAULT_NAMESPACE.to_string(),
            walk: WalkOptions::default(),
            left_to_exit: false,
        }
    }
}

/// Reads every path (`-` reads `stdin`) into one model. Either every document is read, or
/// the errors of all of them are returned.
/// A YAML value given on the command line (`select --label-selector`), read under the same
/// nesting rule as inputs: flow nesting past serde_yaml's recursion limit is refused in one
/// linear pass before the parser, whose time is quadratic in flow depth (60,000 levels: 19 s).
pub(crate) fn flag_yaml<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, FlagYamlError> {
    if let Err(refusal) = yaml_scan::scan(text) {
        return Err(FlagYamlError::Refused {
            line: refusal.line,
            column: refusal.column,
            message: refusal.message,
        });
    }
    serde_yaml::from_str(text).map_err(FlagYamlError::Yaml)
}

/// Why a YAML flag value could not be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FlagYamlError {
    #[error("line {line} column {column}: {message}")]
    Refused {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{0}")]
    Yaml(serde_yaml::Error),
}

pub fn load(
    paths: &[String],
    stdin: &mut dyn Read,
    options: &LoadOptions,
) -> Result<Model, LoadErrors> {
    match read(paths, stdin, options, false) {
        (model, _documents, errors) if errors.is_empty() => Ok(model),
        (_, _, errors) => Err(LoadErrors(errors)),
    }
}

/// Reads every path into a model of the objects that loaded, and every error found: `check`
/// goes on with what it could read, like kubeconform, and reports the rest.
pub(crate) fn load_partial(
    paths: &[String],
    stdin: &mut dyn Read,
    options: &LoadOptions,
) -> (Model, Vec<LoadError>) {
    let (model, _documents, errors) = read(paths, stdin, options, false);
    (model, errors)
}

/// [`load_partial`], also handing back the parsed documents: `migrate` re-emits objects
/// (without an annotation, with a rewritten reference) and needs them as written, not as the
/// model; it stops at the errors unless `--keep-going`.
pub(crate) fn load_with_documents(
    paths: &[String],
    stdin: &mut dyn Read,
    options: &LoadOptions,
) -> (Model, Vec<Document>, Vec<LoadError>) {
    read(paths, stdin, options, true)
}

fn read(
    paths: &[String],
    stdin: &mut dyn Read,
    options: &LoadOptions,
    keep_documents: bool,
) -> (Model, Vec<Document>, Vec<LoadError>) {
    let read = inputs::read_inputs(paths, stdin, options.max_input_bytes, &options.walk);
    let inputs = read.inputs;
    // The inputs' bytes stay until every object is added: an object's fingerprint is hashed
    // from its text there only when another claims its identity (`fingerprint::Print`).
    let mut builder = ModelBuilder::new(&options.namespace, &inputs);
    builder.left_to_exit(options.left_to_exit);
    builder.errors(read.errors);
    builder.skip_files(read.skipped);
    for warning in read.warnings {
        builder.warn(warning);
    }
    let mut found_documents = false;
    let mut empty_inputs = Vec::new();
    let mut kept = Vec::new();
    // Each document's tree, unless asked for, is dropped once read: a 100k-cluster
    // inventory's parsed tree is several times the size of the model.
    std::thread::scope(|scope| {
        let mut ahead = ReadAhead { next: None };
        for (index, input) in inputs.iter().enumerate() {
            builder.reading(index);
            let read = if keep_documents {
                documents::parse_documents(input, options).map(|documents| {
                    let found = read_all(
                        documents.iter().map(|document| {
                            (
                                Content::Tree(&document.value),
                                &document.source,
                                document.misread.as_slice(),
                                document.item_lines.as_slice(),
                            )
                        }),
                        input.walked,
                        &mut builder,
                    );
                    // What walking skipped as not a Kubernetes object is not migrated either.
                    kept.extend(documents.into_iter().filter(|document| {
                        !input.walked || dispatch::has_type_meta(Content::Tree(&document.value))
                    }));
                    found
                })
            } else {
                let documents = ahead.documents(scope, &inputs, (index, input), options);
                documents.map(|documents| {
                    let found = read_all(
                        documents.iter().map(|document| {
                            (
                                document.content(),
                                document.source(),
                                document.misread(),
                                document.item_lines(),
                            )
                        }),
                        input.walked,
                        &mut builder,
                    );
                    // Only the loading needs them, and freeing a large List's (every item's
                    // fields, found on the other cores) took ~1.7 ms of this one with 10k
                    // Policies, their bindings and Placements.
                    if options.left_to_exit {
                        std::mem::forget(documents);
                    }
                    found
                })
            };
            match read {
                Ok(true) => found_documents = true,
                Ok(false) => empty_inputs.push(input.name.clone()),
                Err(error) => builder.error(error),
            }
        }
    });
    // Like `kubectl apply`'s "no objects passed": inputs with nothing in them are a mistake (a
    // truncated export, a wrong path), not an empty fleet. One empty file among others is not.
    if !found_documents {
        for name in empty_inputs {
            builder.error(LoadError::input(&name, "no documents (the input is empty)"));
        }
    }
    let (model, errors) = builder.finish_partial();
    (model, kept, errors)
}

/// Each input's documents ([`documents::read_documents`]: a JSON input walked and checked, a
/// YAML one parsed), the next input's found on a thread of their own while one is found and
/// loaded when it is large: a 100k-cluster inventory's loading spends ~25 ms on one core
/// walking its List before its clusters are decoded on every core, and the workloads' List
/// after it was walked only once all of that was done. Finding them reads the input alone,
/// so the documents and errors are the ones found here, in order. A small input is not worth
/// a thread: 5000 small files, each handed over from one, took 1.45 times as long.
struct ReadAhead<'scope, 't> {
    /// The next input's position and the thread finding its documents.
    next: Option<(usize, std::thread::ScopedJoinHandle<'scope, Found<'t>>)>,
}

/// An input's documents, or why it has none.
type Found<'t> = Result<Vec<documents::Parsed<'t>>, LoadError>;

/// An input from this many bytes on is worth a thread of its own ([`ReadAhead`]).
const READ_AHEAD_BYTES: usize = 1 << 20;

impl<'scope, 't: 'scope> ReadAhead<'scope, 't> {
    /// The documents of `inputs[index]`, the next input's finding set going first when it is
    /// large (and a thread can be had): it overlaps this input's own finding, whose walk of a
    /// large List is on one core.
    fn documents(
        &mut self,
        scope: &'scope std::thread::Scope<'scope, '_>,
        inputs: &'t [inputs::Input],
        (index, input): (usize, &'t inputs::Input),
        options: &'t LoadOptions,
    ) -> Found<'t> {
        let this = self.next.take();
        if let Some(next) = inputs
            .get(index + 1)
            .filter(|next| next.bytes.len() >= READ_AHEAD_BYTES)
        {
            self.next = std::thread::Builder::new()
                .spawn_scoped(scope, move || documents::read_documents(next, options))
                .ok()
                .map(|finding| (index + 1, finding));
        }
        match this {
            Some((at, finding)) if at == index => finding
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            _ => documents::read_documents(input, options),
        }
    }
}

/// Reads documents (each with its misread scalars and its List items' lines) into the model;
/// whether any of them had content.
fn read_all<'a>(
    documents: impl Iterator<Item = (Content<'a>, &'a Source, &'a [Misread], &'a [Option<usize>])>,
    walked: bool,
    builder: &mut ModelBuilder<'_>,
) -> bool {
    let mut found = false;
    for (content, source, misread, item_lines) in documents {
        found |= content.shape() != Shape::Null;
        dispatch::load_document(content, source, misread, item_lines, walked, builder);
    }
    found
}

/// The model of documents already in memory: `migrate --verify` loads its own output
/// through the same readers as any input, so a migrated object that the loader would
/// reject or warn about cannot pass as verified.
/// `namespace` is the namespace of objects without one, as for any input.
pub(crate) fn load_documents(documents: &[Document], namespace: &str) -> Result<Model, LoadErrors> {
    let mut builder = ModelBuilder::new(namespace, &[]);
    read_all(
        documents.iter().map(|document| {
            (
                Content::Tree(&document.value),
                &document.source,
                document.misread.as_slice(),
                document.item_lines.as_slice(),
            )
        }),
        false,
        &mut builder,
    );
    builder.finish()
}

#[cfg(test)]
mod json_properties;
#[cfg(test)]
mod tests;
