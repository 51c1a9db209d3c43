use std::fmt;

use crate::model::Source;

/// One problem with the inputs. Every variant names where it is, so the CLI can print
/// `file#document: kind/namespace/name: message` lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// A path that cannot be read: missing, unreadable, not UTF-8, too large, a symlink loop.
    Input { path: String, message: String },
    /// YAML or JSON that does not parse.
    Syntax {
        at: Source,
        line: Option<usize>,
        column: Option<usize>,
        message: String,
    },
    /// A document that parses but does not have the expected shape.
    Invalid {
        at: Source,
        /// `Kind/namespace/name` once the object's identity is known.
        object: Option<String>,
        /// The field path (`spec.taints[0].effect`); empty for the whole document.
        path: String,
        message: String,
    },
    /// The same object (or the same cluster name) defined twice.
    Duplicate {
        at: Source,
        object: String,
        first: Source,
    },
}

impl LoadError {
    /// The file (or `<stdin>`) the problem is in.
    pub fn file(&self) -> &str {
        match self {
            LoadError::Input { path, .. } => path,
            LoadError::Syntax { at, .. }
            | LoadError::Invalid { at, .. }
            | LoadError::Duplicate { at, .. } => &at.file,
        }
    }

    pub(crate) fn input(path: &str, message: impl Into<String>) -> LoadError {
        LoadError::Input {
            path: path.to_string(),
            message: message.into(),
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Input { path, message } => write!(f, "{path}: {message}"),
            LoadError::Syntax {
                at,
                line,
                column,
                message,
            } => {
                write!(f, "{at}: ")?;
                match (line, column) {
                    (Some(line), Some(column)) => write!(f, "line {line} column {column}: ")?,
                    (Some(line), None) => write!(f, "line {line}: ")?,
                    _ => {}
                }
                f.write_str(message)
            }
            LoadError::Invalid {
                at,
                object,
                path,
                message,
            } => {
                write!(f, "{at}: ")?;
                if let Some(object) = object {
                    write!(f, "{object}: ")?;
                }
                if !path.is_empty() {
                    write!(f, "{path}: ")?;
                }
                f.write_str(message)
            }
            LoadError::Duplicate { at, object, first } => {
                write!(f, "{at}: {object}: duplicate, first defined at {first}")
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// Every problem found in one load, in input order. A load either succeeds completely or
/// reports all of these, so one run shows every broken document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadErrors(pub Vec<LoadError>);

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, error) in self.0.iter().enumerate() {
            if index > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadErrors {}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(file: &str, document: usize) -> Source {
        Source {
            file: file.to_string(),
            document,
            line: None,
        }
    }

    #[test]
    fn input_errors_name_the_path() {
        let error = LoadError::input("a.yaml", "permission denied");
        assert_eq!(error.to_string(), "a.yaml: permission denied");
    }

    #[test]
    fn syntax_errors_name_document_and_line() {
        let error = LoadError::Syntax {
            at: at("a.yaml", 2),
            line: Some(7),
            column: Some(3),
            message: "did not find expected key".to_string(),
        };
        assert_eq!(
            error.to_string(),
            "a.yaml#2: line 7 column 3: did not find expected key"
        );
    }

    #[test]
    fn invalid_documents_name_object_and_field() {
        let error = LoadError::Invalid {
            at: at("a.yaml", 1),
            object: Some("ManagedCluster/east".to_string()),
            path: "spec.taints[0].effect".to_string(),
            message: "unknown variant `Never`".to_string(),
        };
        assert_eq!(
            error.to_string(),
            "a.yaml#1: ManagedCluster/east: spec.taints[0].effect: unknown variant `Never`"
        );
    }

    #[test]
    fn duplicates_name_both_places() {
        let error = LoadError::Duplicate {
            at: at("b.yaml", 3),
            object: "cluster east".to_string(),
            first: at("a.yaml", 1),
        };
        assert_eq!(
            error.to_string(),
            "b.yaml#3: cluster east: duplicate, first defined at a.yaml#1"
        );
    }
}
