//! `fleetplan man [--dir DIR]`: manual pages generated from the clap definitions, the generator
//! behind `man/`: `fleetplan.1` and one page per subcommand (`fleetplan-plan.1`, ...).

use std::path::PathBuf;

use clap::{Args, Command, ValueHint};
use clap_mangen::roff::{bold, roman, Roff};
use clap_mangen::Man;

use super::error::Error;
use super::io::{write, write_into, Io};
use super::man_usage::{usage, Example};
use crate::exit_code::ExitCode;

#[derive(Debug, Args)]
pub(crate) struct ManArgs {
    /// Write every page into DIR (as committed in man/) instead of printing fleetplan.1.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    dir: Option<PathBuf>,
}

/// The pages for `cmd` by file name, the root page first, then its subcommands' in their order.
pub fn pages(cmd: &Command) -> Vec<(String, String)> {
    // The pages carry the version without the commit, so committing them does not change them.
    let mut root = cmd
        .clone()
        .version(env!("CARGO_PKG_VERSION"))
        .disable_help_subcommand(true);
    root.build();
    let mut pages = vec![page(&root, root_sections(&root))];
    for subcommand in root.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        let mut extra = Roff::default();
        if let Some(usage) = usage(subcommand.get_name()) {
            examples(&mut extra, usage.examples.iter());
            exit_status(&mut extra, usage.exit);
        }
        extra.control("SH", ["SEE ALSO"]);
        extra.text([bold(root.get_name()), roman("(1)")]);
        pages.push(page(subcommand, extra));
    }
    pages
}

/// `.SH EXAMPLES`: each command in bold, then what it does.
fn examples<'a>(roff: &mut Roff, examples: impl Iterator<Item = &'a Example>) {
    roff.control("SH", ["EXAMPLES"]);
    for example in examples {
        let words: Vec<String> = example
            .args
            .iter()
            .map(|arg| {
                if arg.contains(' ') {
                    format!("\"{arg}\"")
                } else {
                    (*arg).to_string()
                }
            })
            .collect();
        roff.control("TP", []);
        roff.text([bold(format!("fleetplan {}", words.join(" ")))]);
        roff.text([roman(example.what)]);
    }
}

/// `.SH EXIT STATUS`: each code in bold, then its meaning.
fn exit_status(roff: &mut Roff, codes: &[(ExitCode, &str)]) {
    roff.control("SH", ["EXIT STATUS"]);
    for (code, meaning) in codes {
        roff.control("TP", []);
        roff.text([bold(code.code().to_string())]);
        roff.text([roman(*meaning)]);
    }
}

/// `cmd`'s page followed by `extra` sections (whose text has no apostrophes, so the page's
/// own apostrophe preamble serves them and `to_roff` need not repeat it).
fn page(cmd: &Command, extra: Roff) -> (String, String) {
    let man = Man::new(cmd.clone()).source(format!("fleetplan {}", env!("CARGO_PKG_VERSION")));
    let mut buffer = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = man.render(&mut buffer);
    let mut text = String::from_utf8_lossy(&buffer).into_owned();
    text.push_str(&extra.to_roff());
    (man.get_filename(), text)
}

/// The root page: a few examples of the main subcommands, every exit status, every page.
fn root_sections(root: &Command) -> Roff {
    let mut roff = Roff::default();
    let first_examples = ["plan", "check", "diff", "explain"]
        .into_iter()
        .filter_map(|name| usage(name)?.examples.first());
    examples(&mut roff, first_examples);
    exit_status(
        &mut roff,
        &[
            (ExitCode::Success, "success"),
            (
                ExitCode::Error,
                "bad input, or an item that could not be planned",
            ),
            (
                ExitCode::Changes,
                "diff: the new plan differs from the previous one",
            ),
            (
                ExitCode::Unsatisfied,
                "check: every input is valid but some item is unsatisfied",
            ),
        ],
    );
    roff.control("SH", ["SEE ALSO"]);
    let names: Vec<String> = root
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set())
        .map(|sub| format!("{}-{}", root.get_name(), sub.get_name()))
        .collect();
    let mut text = Vec::new();
    for (index, name) in names.iter().enumerate() {
        if index > 0 {
            text.push(roman(", "));
        }
        text.push(bold(name.as_str()));
        text.push(roman("(1)"));
    }
    roff.text(text);
    roff
}

pub(crate) fn run(args: ManArgs, io: &mut Io<'_>) -> Result<ExitCode, Error> {
    let pages = pages(&super::command());
    match args.dir {
        Some(dir) => write_into(&dir, &pages)?,
        None => write(
            io.stdout,
            pages.first().map_or("", |(_, text)| text.as_str()),
        )?,
    }
    Ok(ExitCode::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_page_for_the_root_and_each_subcommand() {
        let names: Vec<String> = pages(&crate::cli::command())
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        assert_eq!(names.first().map(String::as_str), Some("fleetplan.1"));
        assert!(names.contains(&"fleetplan-plan.1".to_string()), "{names:?}");
        assert!(
            !names.contains(&"fleetplan-help.1".to_string()),
            "{names:?}"
        );
    }

    #[test]
    fn pages_carry_the_version_without_the_commit() {
        let pages = pages(&crate::cli::command());
        let root = pages.first().map_or("", |(_, text)| text.as_str());
        assert!(
            root.contains(&format!("fleetplan {}\"", env!("CARGO_PKG_VERSION"))),
            "{root}"
        );
        assert!(!root.contains(env!("FLEETPLAN_COMMIT")), "{root}");
    }

    #[test]
    fn every_subcommand_page_has_examples_and_exit_status() {
        for (name, text) in pages(&crate::cli::command()) {
            assert!(text.contains(".SH EXAMPLES"), "{name}");
            assert!(text.contains(".SH \"EXIT STATUS\""), "{name}");
        }
    }

    #[test]
    fn the_root_page_lists_exit_codes() {
        let pages = pages(&crate::cli::command());
        let root = pages.first().map_or("", |(_, text)| text.as_str());
        assert!(root.contains(".SH \"EXIT STATUS\""), "{root}");
    }
}
