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

pub use error::{LoadError, LoadErrors};
pub use inputs::STDIN_NAME;
pub use previous::previous_plan;

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
    let (inputs, read_errors) = inputs::read_inputs(paths, stdin, options.max_input_bytes);
    let mut builder = ModelBuilder::default();
    builder.errors(read_errors);
    // Each input's bytes, and each document's tree, are dropped once read: a 100k-cluster
    // inventory's parsed tree is several times the size of the model made from it.
    for input in inputs {
        match documents::parse_documents(&input) {
            Ok(documents) => {
                drop(input);
                for document in documents {
                    dispatch::load_document(&document, &mut builder);
                }
            }
            Err(error) => builder.error(error),
        }
    }
    builder.finish()
}

#[cfg(test)]
mod tests;
