//! Upstream's own test cases, transcribed as data (testdata/upstream/*.yaml), run through this
//! build's engine functions the way upstream's unit tests call them: `fleetplan vectors`, and
//! each suite's library test, share one runner per suite (a registry line,
//! [`crate::registry::VECTOR_SUITES`]). A runner gets the file's text and never reads files or
//! prints; it returns every vector's outcome, or why the file is not a vector file of its
//! suite. A vector file is user input: nothing in it may panic a runner.

use serde::de::DeserializeOwned;
use serde_json::Value;

/// A suite: the name `fleetplan vectors` takes, and its runner.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Suite {
    pub(crate) name: &'static str,
    /// The upstream code its vectors come from (for the help text).
    pub(crate) upstream: &'static str,
    pub(crate) run: fn(&str) -> Result<Report, FileError>,
}

/// What a runner found: how many vectors the file holds and the ones that fail, in file order.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Report {
    pub(crate) vectors: usize,
    pub(crate) failures: Vec<Failure>,
}

/// A vector that does not pass: its id, its kind (the upstream function it calls) and why.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Failure {
    pub(crate) id: String,
    pub(crate) kind: String,
    pub(crate) why: Mismatch,
}

/// Why a vector does not pass.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub(crate) enum Mismatch {
    /// The engine's result is not the expected one.
    #[error("got {got}, expected {expected}")]
    Differs { got: Value, expected: Value },
    /// The vector's input does not decode as the engine's input (`path` within the value).
    #[error("the input does not decode: {}{message}", if .path.is_empty() || .path == "." { String::new() } else { format!("{}: ", .path) })]
    Input { path: String, message: String },
    /// No runner in this suite for the vector's kind (or the plugin it names).
    #[error("no runner for {0} in this suite")]
    Kind(String),
    /// The engine failed where the vector expects a result.
    #[error("the engine failed: {0}")]
    Engine(String),
    /// The expected fields that differ, each `field: got …, want …`.
    #[error("{}", .0.join("; "))]
    Fields(Vec<String>),
}

/// A file that is not a vector file of the suite: where in it (a YAML path such as
/// `vectors[3].id`, empty for the whole file) and what is wrong.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}{message}", if .at.is_empty() { String::new() } else { format!("{}: ", .at) })]
pub(crate) struct FileError {
    pub(crate) at: String,
    pub(crate) message: String,
}

impl FileError {
    pub(crate) fn new(at: impl Into<String>, message: impl Into<String>) -> FileError {
        FileError {
            at: at.into(),
            message: message.into(),
        }
    }
}

/// The file's YAML as `T`, an error naming the path of the first field that does not fit.
/// The YAML parser bounds recursion and alias expansion, so a hostile file is an error too.
pub(crate) fn parse<T: DeserializeOwned>(text: &str) -> Result<T, FileError> {
    if text.trim().is_empty() {
        return Err(FileError::new(
            "",
            "the file is empty: there are no vectors to run",
        ));
    }
    let deserializer = serde_yaml::Deserializer::from_str(text);
    serde_path_to_error::deserialize(deserializer).map_err(|error| {
        let at = error.path().to_string();
        let at = if at == "." { String::new() } else { at };
        // serde_yaml names the path (or the object holding it) in some messages itself.
        let message = error.into_inner().to_string();
        let message = match message.split_once(": ") {
            Some((path, rest)) if !path.is_empty() && at.starts_with(path) => rest.to_string(),
            _ => message,
        };
        FileError::new(at, message)
    })
}

/// A case's outcome once its runner compared what it could: the comparisons that failed
/// (`failures`), then each `expected` field it did not compare (remarks such as a note aside),
/// and a case that expects nothing, which would pass vacuously.
pub(crate) fn checked<'a>(
    mut failures: Vec<String>,
    expected: impl IntoIterator<Item = &'a str>,
    compared: impl Fn(&str) -> bool,
    remarks: &[&str],
) -> Result<(), Mismatch> {
    let mut expects = false;
    for name in expected {
        if remarks.contains(&name) {
            continue;
        }
        expects = true;
        if !compared(name) {
            failures.push(format!("{name}: not compared for this case"));
        }
    }
    if !expects {
        failures.push("nothing expected".to_string());
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(Mismatch::Fields(failures))
    }
}

/// A report over `vectors`, each `(path, id, kind, outcome)` with `path` where the vector is
/// in the file (`vectors[3]`); a file without vectors (`at` says where they belong) or with a
/// repeated id is an error (a run over nothing would pass vacuously, and a failure must name
/// one vector).
pub(crate) fn report<'a>(
    at: &str,
    vectors: impl IntoIterator<Item = (String, &'a str, &'a str, Result<(), Mismatch>)>,
) -> Result<Report, FileError> {
    let mut report = Report::default();
    let mut seen = std::collections::HashMap::new();
    for (path, id, kind, outcome) in vectors {
        if let Some(first) = seen.get(id) {
            return Err(FileError::new(
                format!("{path}.id"),
                format!("{id:?} is also the id of {first}"),
            ));
        }
        seen.insert(id, path);
        report.vectors += 1;
        if let Err(why) = outcome {
            report.failures.push(Failure {
                id: id.to_string(),
                kind: kind.to_string(),
                why,
            });
        }
    }
    if report.vectors == 0 {
        return Err(FileError::new(at, "no vectors: there is nothing to run"));
    }
    Ok(report)
}
