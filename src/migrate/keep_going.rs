//! `--keep-going`: the inputs without what failed to load, so the rest is migrated.
//!
//! A document with an error is left out whole (a List's other items with it: the error names
//! the document), and so is the first copy of an object defined twice with different content
//! (which one is meant is for the user to say). The model is then read again from the
//! documents kept, so the old side of `--verify` and the documents rewritten are the same
//! inputs.

use std::collections::HashSet;

use crate::load::{self, Document, LoadError, LoadErrors};
use crate::model::Model;

/// The inputs that loaded, and one line per failure (`file#document: ...`), in input order.
pub(super) struct Kept {
    pub model: Model,
    pub documents: Vec<Document>,
    pub failed: Vec<String>,
}

pub(super) fn without_failed(
    model: Model,
    documents: Vec<Document>,
    errors: Vec<LoadError>,
    namespace: &str,
) -> Result<Kept, LoadErrors> {
    let mut dropped = HashSet::new();
    let mut failed = Vec::new();
    for error in &errors {
        failed.push(error.to_string());
        match error {
            LoadError::Input { .. } => {}
            LoadError::Syntax { at, .. } | LoadError::Invalid { at, .. } => {
                dropped.insert((at.file.as_str(), at.document));
            }
            LoadError::Duplicate { at, object, first } => {
                dropped.insert((at.file.as_str(), at.document));
                if dropped.insert((first.file.as_str(), first.document)) {
                    failed.push(format!(
                        "{first}: {object}: not migrated either, it differs from its copy at {at}"
                    ));
                }
            }
        }
    }
    let documents: Vec<Document> = documents
        .into_iter()
        .filter(|document| {
            !dropped.contains(&(document.source.file.as_str(), document.source.document))
        })
        .collect();
    let mut kept = load::load_documents(&documents, namespace)?;
    // What reading the inputs warned about (a file skipped while walking) stays said.
    kept.warnings = model.warnings;
    Ok(Kept {
        model: kept,
        documents,
        failed,
    })
}
