//! The one error type of the command line, and the one place errors become diagnostics and
//! exit codes. Subcommands return it; [`finish`] reports it and exits 1. Outcomes that are not
//! errors (changes found, unsatisfied items, a plan printed with failed items) are exit codes
//! the subcommands return themselves.

use std::path::PathBuf;

use super::io::{diagnostic, report, report_hidden, Io, Level};
use crate::exit_code::ExitCode;
use crate::load::LoadErrors;
use crate::migrate::MigrateError;
use crate::plan::{LookupError, WhatIfError};
use crate::render::plan::Unwritable;
use crate::render::Unrepresentable;
use crate::selector::SelectorError;
use crate::verdict::Nothing;

#[derive(Debug, thiserror::Error)]
pub(crate) enum Error {
    /// Inputs that did not load: one diagnostic per broken document.
    #[error(transparent)]
    Load(#[from] LoadErrors),
    /// A flag whose value does not validate.
    #[error("{flag}: {message}")]
    Flag { flag: &'static str, message: String },
    /// A config file (`.fleetplan.yaml`) that cannot be read or holds what no flag takes.
    #[error("{}: {message}", path.display())]
    Config { path: PathBuf, message: String },
    /// A flag the subcommand cannot run without.
    #[error("{0} is required")]
    MissingFlag(&'static str),
    /// A what-if flag naming a cluster or label the inventory cannot take.
    #[error(transparent)]
    WhatIf(#[from] WhatIfError),
    /// An item or cluster named on the command line that the inputs do not hold.
    #[error(transparent)]
    Lookup(#[from] LookupError),
    /// `-l SELECTOR` that no workload's labels match.
    #[error("-l {:?}: no workload in the inputs has matching labels", crate::model::echo(.0))]
    NoneSelected(String),
    /// A label selector given on the command line that does not parse.
    #[error(transparent)]
    Selector(#[from] SelectorError),
    /// A document the serializer refused (render::Unrepresentable): never an empty output.
    #[error("the output cannot be written as {0}")]
    Unrepresentable(#[from] Unrepresentable),
    /// A verdict that would be about nothing (see [`crate::verdict`]).
    #[error(transparent)]
    Nothing(#[from] Nothing),
    #[error(transparent)]
    Migrate(#[from] MigrateError),
    /// A plan item (or the plan's head) the chosen output format cannot represent: never left
    /// out of the output.
    #[error(transparent)]
    Render(#[from] Unwritable),
    /// A file or directory that could not be written.
    #[error("{}: {source}", path.display())]
    File {
        path: PathBuf,
        source: std::io::Error,
    },
    /// `--out FILE` is left as it was: a failed run never replaces the last good plan.
    #[error("{}: not written, the plan has errors", .0.display())]
    NotWritten(PathBuf),
    /// `migrate --out DIR` is left as it was when an object could not be migrated.
    #[error("{}: not written, some objects could not be migrated", .0.display())]
    NotMigrated(PathBuf),
    /// Standard output could not be written (a closed pipe is not an error).
    #[error("standard output: {0}")]
    Stdout(std::io::Error),
}

impl Error {
    /// Writes the error to stderr, one `error:` line per problem; load errors are capped per
    /// input file ([`diagnostic`]).
    fn report(&self, io: &mut Io<'_>) {
        let errors = match self {
            Error::Load(errors) | Error::Migrate(MigrateError::Load(errors)) => &errors.0,
            _ => return report(io, &format!("error: {self}")),
        };
        for error in errors {
            diagnostic(io, Level::Error, error.file(), &error.to_string());
        }
    }
}

/// A subcommand's result as the process's exit code: every error is reported and exits 1.
pub(super) fn finish(result: Result<ExitCode, Error>, io: &mut Io<'_>) -> ExitCode {
    let code = result.unwrap_or_else(|error| {
        error.report(io);
        ExitCode::Error
    });
    report_hidden(io);
    code
}
