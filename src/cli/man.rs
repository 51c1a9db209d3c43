//! `fleetplan man [--dir DIR]`: manual pages generated from the clap definitions, the generator
//! behind `man/`: `fleetplan.1` and one page per subcommand (`fleetplan-plan.1`, ...).

use std::path::PathBuf;

use clap::{Args, Command, ValueHint};
use clap_mangen::roff::{bold, roman, Roff};
use clap_mangen::Man;

use super::error::Error;
use super::io::{write, write_into, Io};
use crate::exit_code::ExitCode;

#[derive(Debug, Args)]
pub struct ManArgs {
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
    let mut pages = vec![page(&root, exit_status_and_see_also(&root))];
    for subcommand in root.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        let see_also = section("SEE ALSO", vec![bold(root.get_name()), roman("(1)")]);
        pages.push(page(subcommand, see_also));
    }
    pages
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

fn section(title: &str, text: Vec<clap_mangen::roff::Inline>) -> Roff {
    let mut roff = Roff::default();
    roff.control("SH", [title]);
    roff.text(text);
    roff
}

fn exit_status_and_see_also(root: &Command) -> Roff {
    let mut roff = Roff::default();
    roff.control("SH", ["EXIT STATUS"]);
    for (code, meaning) in [
        ("0", "success"),
        ("1", "bad input, or an item that could not be planned"),
        ("2", "diff: the new plan differs from the previous one"),
        (
            "3",
            "check: every input is valid but some item is unsatisfied",
        ),
    ] {
        roff.control("TP", []);
        roff.text([bold(code)]);
        roff.text([roman(meaning)]);
    }
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

pub fn run(args: ManArgs, io: &mut Io<'_>) -> Result<ExitCode, Error> {
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
    fn the_root_page_lists_exit_codes() {
        let pages = pages(&crate::cli::command());
        let root = pages.first().map_or("", |(_, text)| text.as_str());
        assert!(root.contains(".SH \"EXIT STATUS\""), "{root}");
    }
}
