//! The process's streams, and the two ways a subcommand uses them: its output on stdout, its
//! diagnostics on stderr. The binary and the tests share one entry point by injecting them.

use std::collections::BTreeMap;
use std::io::{BufWriter, IsTerminal, Read, Write};
use std::path::Path;

use super::error::Error;
use crate::output::{write_atomic_with, write_dir_atomic, BUFFER_BYTES};
use crate::plan::Diagnostic;
use crate::render::escape::terminal;
use crate::render::plan::StreamError;

/// The process's streams, injectable so tests and the binary share one entry point.
pub(crate) struct Io<'a> {
    pub stdin: &'a mut dyn Read,
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
    /// The terminal width tables are fitted to; `None` when stdout is not a terminal.
    pub width: Option<u16>,
    /// The errors and warnings about objects reported so far ([`diagnostic`]).
    pub shown: Shown,
}

/// Writes command output; a closed pipe (`fleetplan select … | head`) is not an error.
pub(super) fn write(out: &mut dyn Write, text: &str) -> Result<(), Error> {
    write_with(out, |out| Ok(out.write_all(text.as_bytes())?))
}

/// Writes command output as `write` produces it, through a buffer; a closed pipe (`fleetplan
/// plan -o json | head -c 100`) ends the output early and is not an error.
pub(super) fn write_with(
    out: &mut dyn Write,
    write: impl FnOnce(&mut dyn Write) -> Result<(), StreamError>,
) -> Result<(), Error> {
    let mut buffered = BufWriter::with_capacity(BUFFER_BYTES, out);
    match write(&mut buffered).and_then(|()| Ok(buffered.flush()?)) {
        Ok(()) => Ok(()),
        Err(StreamError::Write(error)) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(StreamError::Write(error)) => Err(Error::Stdout(error)),
        Err(StreamError::Plan(error)) => Err(error.into()),
    }
}

/// Writes command output to `path` as `write` produces it, all of it or nothing.
pub(super) fn write_file_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(), StreamError>,
) -> Result<(), Error> {
    write_atomic_with(path, write).map_err(|error| match error {
        StreamError::Write(source) => Error::File {
            path: path.to_path_buf(),
            source,
        },
        StreamError::Plan(error) => error.into(),
    })
}

/// Writes a diagnostic to stderr; there is nowhere left to report a failure to do so.
/// Text from inputs in it is escaped for a terminal or a CI log (`render::escape::terminal`).
pub(super) fn report(io: &mut Io<'_>, text: &str) {
    let text = terminal(text);
    let _ = io.stderr.write_all(text.as_bytes());
    if !text.ends_with('\n') {
        let _ = io.stderr.write_all(b"\n");
    }
}

/// The most errors, and the most warnings, about the objects of one input file shown on
/// stderr; the rest are counted ([`report_hidden`]).
pub(super) const MAX_PER_FILE: usize = 100;

/// An error or a warning about an object, each capped per input file on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Level {
    Error,
    Warning,
}

impl Level {
    fn name(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
        }
    }
}

/// How many errors and warnings of each input file the run has reported: 300,000 broken
/// documents printed 22.7 MB of errors, and 100,000 clusters with one odd label value as
/// many warnings.
#[derive(Default)]
pub(crate) struct Shown(BTreeMap<(Level, String), usize>);

/// Reports `text`, an error or a warning about an object of `file` (`LEVEL: ` is added), if
/// fewer than [`MAX_PER_FILE`] of its level were reported for that file; else counts it.
pub(super) fn diagnostic(io: &mut Io<'_>, level: Level, file: &str, text: &str) {
    let count = io.shown.0.entry((level, file.to_string())).or_default();
    *count += 1;
    if *count <= MAX_PER_FILE {
        report(io, &format!("{}: {text}", level.name()));
    }
}

/// [`diagnostic`] for a message that begins with its object's source (`FILE#DOC: `, or
/// `FILE: ` for what concerns a whole file), which names the file it counts against.
pub(super) fn object_diagnostic(io: &mut Io<'_>, level: Level, text: &str) {
    let head = text.split_once(": ").map_or(text, |(head, _)| head);
    let file = match head.rsplit_once('#') {
        Some((file, document)) if document.bytes().all(|b| b.is_ascii_digit()) => file,
        _ => head,
    };
    diagnostic(io, level, file, text);
}

/// [`diagnostic`] for one of a plan run's, counted against its own document's file.
pub(super) fn plan_diagnostic(io: &mut Io<'_>, level: Level, about: &Diagnostic) {
    diagnostic(io, level, &about.source.file, &about.to_string());
}

/// One line per file and level with more than [`MAX_PER_FILE`] diagnostics: how many were
/// not shown. Written once, as the run ends.
pub(super) fn report_hidden(io: &mut Io<'_>) {
    let hidden: Vec<(Level, String, usize)> = std::mem::take(&mut io.shown.0)
        .into_iter()
        .filter(|(_, count)| *count > MAX_PER_FILE)
        .map(|((level, file), count)| (level, file, count - MAX_PER_FILE))
        .collect();
    for (level, file, more) in hidden {
        report(
            io,
            &format!(
                "{}: {file}: {more} more {}s not shown (the first {MAX_PER_FILE} of each file are)",
                level.name(),
                level.name()
            ),
        );
    }
}

/// Writes each `(name, text)` into `dir` (created when missing), all of them or none.
pub(super) fn write_into(dir: &Path, files: &[(String, String)]) -> Result<(), Error> {
    write_dir_atomic(dir, files).map_err(|source| Error::File {
        path: dir.to_path_buf(),
        source,
    })
}

/// The width to fit tables to: the terminal's when stdout is one, otherwise none.
pub(crate) fn terminal_width() -> Option<u16> {
    if std::io::stdout().is_terminal() {
        known_width(comfy_table::Table::new().width())
    } else {
        None
    }
}

/// A terminal that reports a width of 0 (`script`, some CI and container terminals) has no
/// known width: nothing is fitted, as when piped, instead of one letter per line.
fn known_width(reported: Option<u16>) -> Option<u16> {
    reported.filter(|width| *width > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reported_width_of_zero_is_no_width() {
        assert_eq!(known_width(Some(0)), None);
        assert_eq!(known_width(Some(80)), Some(80));
        assert_eq!(known_width(None), None);
    }
    use crate::exit_code::ExitCode;

    /// A stdout that fails every write with `kind`.
    struct Failing(std::io::ErrorKind);

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(self.0.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_pipe_is_not_an_error() {
        let mut out = Failing(std::io::ErrorKind::BrokenPipe);
        assert!(write(&mut out, "text").is_ok());
    }

    /// An item no format can write (none of today's types fails; the serializer's error is
    /// made up) leaves `--out` as it was and is reported by name, exiting 1.
    #[test]
    fn an_item_that_cannot_be_rendered_keeps_out_and_exits_1_naming_it() {
        use serde::ser::Error as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.yaml");
        std::fs::write(&path, "last good plan").unwrap();
        let unrendered = crate::render::plan::ItemError {
            item: "Deployment/prod/web".into(),
            source: serde_yaml::Error::custom("unrepresentable").into(),
        };
        let result = write_file_with(&path, |out| {
            out.write_all(b"apiVersion: fleetplan.io/v1alpha1\n")?;
            Err(unrendered.into())
        });
        let mut err = Vec::new();
        let mut io = Io {
            stdin: &mut std::io::empty(),
            stdout: &mut std::io::sink(),
            stderr: &mut err,
            width: None,
            shown: Shown::default(),
        };
        let code = super::super::error::finish(result.map(|()| ExitCode::Success), &mut io);
        assert_eq!(code, ExitCode::Error);
        assert_eq!(
            String::from_utf8_lossy(&err),
            "error: plan item Deployment/prod/web: cannot be written as YAML: unrepresentable\n"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "last good plan");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_failed_stdout_is_reported_and_exits_1() {
        let mut out = Failing(std::io::ErrorKind::StorageFull);
        let mut err = Vec::new();
        let mut io = Io {
            stdin: &mut std::io::empty(),
            stdout: &mut out,
            stderr: &mut err,
            width: None,
            shown: Shown::default(),
        };
        let code = crate::cli::run(
            ["fleetplan", "completions", "bash"].map(Into::into),
            &mut io,
        );
        assert_eq!(code, ExitCode::Error);
        assert_eq!(
            String::from_utf8_lossy(&err),
            "error: standard output: no storage space\n"
        );
    }
}
