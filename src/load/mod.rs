//! Reading inputs: files, directories, globs and stdin; multi-document YAML and JSON; dispatch
//! by apiVersion/kind into the model, with `file#document` locations for every error.

mod cluster_sets;
mod clusters;
mod decisions;
mod decode;
mod dispatch;
mod documents;
mod error;
mod inputs;
mod model_builder;
mod object;
mod previous;
mod scores;
mod workloads;

use std::io::Read;

pub(crate) use documents::Document;
pub use error::{LoadError, LoadErrors};
pub use inputs::STDIN_NAME;
pub use previous::previous_plan;
pub(crate) use workloads::CLUSTER_SELECTOR_ANNOTATION;

use crate::model::Model;
use model_builder::ModelBuilder;

/// Limits against hostile or accidental huge input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadOptions {
    /// The largest file (or stdin) read, in bytes.
    pub max_input_bytes: u64,
}

impl Default for LoadOptions {
    fn default() -> LoadOptions {
        LoadOptions {
            max_input_bytes: 256 * 1024 * 1024,
        }
    }
}

/// Reads every path (`-` reads `stdin`) into one model. Either every document is read, or
/// the errors of all of them are returned.
pub fn load(
    paths: &[String],
    stdin: &mut dyn Read,
    options: &LoadOptions,
) -> Result<Model, LoadErrors> {
    load_with_documents(paths, stdin, options).map(|(model, _documents)| model)
}

/// [`load`], also handing back the parsed documents: `migrate` re-emits objects (without an
/// annotation, with a rewritten reference) and needs them as written, not as the model.
pub(crate) fn load_with_documents(
    paths: &[String],
    stdin: &mut dyn Read,
    options: &LoadOptions,
) -> Result<(Model, Vec<Document>), LoadErrors> {
    let (inputs, read_errors) = inputs::read_inputs(paths, stdin, options.max_input_bytes);
    let mut builder = ModelBuilder::default();
    builder.errors(read_errors);
    let mut all = Vec::new();
    for input in &inputs {
        match documents::parse_documents(input) {
            Ok(documents) => {
                for document in &documents {
                    dispatch::load_document(document, &mut builder);
                }
                all.extend(documents);
            }
            Err(error) => builder.error(error),
        }
    }
    builder.finish().map(|model| (model, all))
}

/// The model of documents already in memory: `migrate --verify` loads its own output
/// through the same readers as any input, so a migrated object that the loader would
/// reject or warn about cannot pass as verified.
pub(crate) fn load_documents(documents: &[Document]) -> Result<Model, LoadErrors> {
    let mut builder = ModelBuilder::default();
    for document in documents {
        dispatch::load_document(document, &mut builder);
    }
    builder.finish()
}

#[cfg(test)]
mod tests;
