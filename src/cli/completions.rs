//! `fleetplan completions SHELL` and `fleetplan completions --dir DIR`: shell completion
//! scripts generated from the clap definitions, the generator behind `completions/`.
//!
//! The scripts are static: subcommands, flags, the values of `-o` and of other enumerated flags,
//! and file/directory completion where a flag takes a path. Completing cluster and object names
//! read from the `-f` files would need clap_complete's dynamic engine, which is still behind an
//! unstable feature; `fleetplan select -f FILES -o name` lists the cluster names instead.

use std::path::PathBuf;

use clap::{Args, Command, ValueEnum, ValueHint};
use clap_complete::{Generator, Shell};

use super::{report, write, Io};
use crate::exit_code::ExitCode;
use crate::output::write_atomic;

/// The command the scripts complete, as typed by the user.
const BIN_NAME: &str = "fleetplan";

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to print the completion script of.
    #[arg(value_enum, required_unless_present = "dir", conflicts_with = "dir")]
    shell: Option<Shell>,

    /// Write the scripts of every shell into DIR instead (as committed in completions/).
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    dir: Option<PathBuf>,
}

/// The completion script of `shell` for `cmd`.
pub fn script(shell: Shell, cmd: &Command) -> String {
    let mut cmd = cmd.clone();
    let mut buffer = Vec::new();
    clap_complete::generate(shell, &mut cmd, BIN_NAME, &mut buffer);
    String::from_utf8_lossy(&buffer).into_owned()
}

/// Every shell's script for `cmd` with its conventional file name (`fleetplan.bash`,
/// `_fleetplan`, ...), sorted by file name: what `completions/` holds.
pub fn scripts(cmd: &Command) -> Vec<(String, String)> {
    let mut scripts: Vec<(String, String)> = Shell::value_variants()
        .iter()
        .map(|shell| (shell.file_name(BIN_NAME), script(*shell, cmd)))
        .collect();
    scripts.sort();
    scripts
}

pub fn run(args: CompletionsArgs, io: &mut Io<'_>) -> ExitCode {
    let cmd = super::command();
    match (args.shell, args.dir) {
        (Some(shell), None) => write(io.stdout, &script(shell, &cmd)),
        (_, Some(dir)) => {
            for (name, text) in scripts(&cmd) {
                let path = dir.join(name);
                let written = std::fs::create_dir_all(&dir)
                    .and_then(|()| write_atomic(&path, text.as_bytes()));
                if let Err(error) = written {
                    report(io, &format!("error: {}: {error}", path.display()));
                    return ExitCode::Error;
                }
            }
            ExitCode::Success
        }
        // clap requires SHELL or --dir.
        (None, None) => ExitCode::Error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shell_has_a_script_naming_every_subcommand() {
        let cmd = crate::cli::command();
        let scripts = scripts(&cmd);
        assert_eq!(scripts.len(), Shell::value_variants().len());
        for (name, text) in &scripts {
            for subcommand in cmd.get_subcommands() {
                assert!(
                    text.contains(subcommand.get_name()),
                    "{name} lacks {}",
                    subcommand.get_name()
                );
            }
        }
    }

    #[test]
    fn output_formats_are_completed_as_values() {
        let text = script(Shell::Bash, &crate::cli::command());
        assert!(text.contains("table yaml json decisions"), "{text}");
    }
}
