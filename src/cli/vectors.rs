//! `fleetplan vectors SUITE FILE...`: upstream's own test cases, as vector files in the format
//! of testdata/upstream/*.yaml, run through this build's engines (`crate::vectors`), so a
//! packager or a user can check that a build agrees with upstream on upstream's tests.

use std::io::Read;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Args, ValueHint};

use super::error::Error;
use super::io::{report, write, Io};
use crate::exit_code::ExitCode;
use crate::load::{DEFAULT_MAX_INPUT_BYTES, STDIN_NAME};
use crate::registry::VECTOR_SUITES;
use crate::render::escape::terminal_line;
use crate::vectors::{FileError, Report, Suite};

#[derive(Debug, Args)]
pub(super) struct VectorsArgs {
    /// The suite the files belong to: which engine runs them, and their format.
    #[arg(value_name = "SUITE", value_parser = suites())]
    suite: String,

    /// Vector files of the suite (testdata/upstream/<SUITE>.yaml is upstream's), or - for
    /// stdin.
    #[arg(value_name = "FILE", required = true, value_hint = ValueHint::FilePath)]
    files: Vec<String>,

    /// The largest file (or stdin) read, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_INPUT_BYTES)]
    max_input_bytes: u64,
}

/// The suites' names, each with the upstream code its vectors come from.
fn suites() -> PossibleValuesParser {
    PossibleValuesParser::new(
        VECTOR_SUITES
            .iter()
            .map(|suite| PossibleValue::new(suite.name).help(suite.upstream)),
    )
}

/// Why a file was not run: it could not be read, or it is no vector file of the suite.
#[derive(Debug, thiserror::Error)]
enum Unrun {
    #[error("{name}: {source}")]
    Read {
        name: String,
        source: std::io::Error,
    },
    #[error("{0}: not a regular file")]
    NotAFile(String),
    #[error("{name}: larger than --max-input-bytes ({max} bytes)")]
    TooLarge { name: String, max: u64 },
    #[error("{name}: not UTF-8 text (byte {at} is not)")]
    NotUtf8 { name: String, at: usize },
    /// `FILE#PATH: message`, as every error about a document names where it is.
    #[error("{name}{}: {}", if .error.at.is_empty() { String::new() } else { format!("#{}", .error.at) }, .error.message)]
    Malformed { name: String, error: FileError },
}

/// Runs every file, in the order given: each failing vector and a count line per file on
/// stdout, each file that cannot be read or is no vector file of the suite on stderr. Exit 0
/// only when every vector of every file passes.
pub(super) fn run(args: VectorsArgs, io: &mut Io<'_>) -> Result<ExitCode, Error> {
    let Some(suite) = VECTOR_SUITES.iter().find(|suite| suite.name == args.suite) else {
        // clap admits the suites' names only.
        return Err(Error::Flag {
            flag: "SUITE",
            message: format!("no suite {:?}", args.suite),
        });
    };
    let mut output = String::new();
    let mut passed = true;
    for file in &args.files {
        let name = if file == "-" { STDIN_NAME } else { file };
        let outcome = read(file, name, args.max_input_bytes, io.stdin).and_then(|text| {
            (suite.run)(&text).map_err(|error| Unrun::Malformed {
                name: name.to_string(),
                error,
            })
        });
        match outcome {
            Ok(found) => {
                passed &= found.failures.is_empty();
                output.push_str(&lines(suite, name, &found));
            }
            Err(error) => {
                passed = false;
                report(io, &format!("error: {error}"));
            }
        }
    }
    write(io.stdout, &output)?;
    Ok(if passed {
        ExitCode::Success
    } else {
        ExitCode::Error
    })
}

/// A file's report: `FILE: ID (KIND): WHY` per failing vector, then `FILE: SUITE: N vectors,
/// P pass[, F fail]`; each line escaped for a terminal as a whole, so no text from the file
/// starts or breaks a line.
fn lines(suite: &Suite, name: &str, found: &Report) -> String {
    let mut text = String::new();
    let mut line = |line: String| {
        text.push_str(&terminal_line(&line));
        text.push('\n');
    };
    for failure in &found.failures {
        line(format!(
            "{name}: {} ({}): {}",
            failure.id, failure.kind, failure.why
        ));
    }
    let failed = found.failures.len();
    let mut count = format!(
        "{name}: {}: {} vectors, {} pass",
        suite.name,
        found.vectors,
        found.vectors - failed
    );
    if failed > 0 {
        count.push_str(&format!(", {failed} fail"));
    }
    line(count);
    text
}

/// The text of `file` (`-`: stdin), named `name`: at most `max` bytes of UTF-8.
fn read(file: &str, name: &str, max: u64, stdin: &mut dyn Read) -> Result<String, Unrun> {
    let failed = |source| Unrun::Read {
        name: name.to_string(),
        source,
    };
    let source: Box<dyn Read + '_> = if file == "-" {
        Box::new(stdin)
    } else {
        let opened = std::fs::File::open(file).map_err(failed)?;
        if !opened.metadata().map_err(failed)?.is_file() {
            return Err(Unrun::NotAFile(name.to_string()));
        }
        Box::new(opened)
    };
    let mut bytes = Vec::new();
    source
        .take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(failed)?;
    if u64::try_from(bytes.len()).map_or(true, |length| length > max) {
        return Err(Unrun::TooLarge {
            name: name.to_string(),
            max,
        });
    }
    String::from_utf8(bytes).map_err(|error| Unrun::NotUtf8 {
        name: name.to_string(),
        at: error.utf8_error().valid_up_to(),
    })
}
