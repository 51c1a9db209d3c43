//! `fleetplan completions SHELL` and `fleetplan completions --dir DIR`: shell completion
//! scripts generated from the clap definitions, the generator behind `completions/`.
//!
//! clap's scripts are static: subcommands, flags, the values of `-o` and of other enumerated
//! flags, and file/directory completion where a flag takes a path. clap_complete's dynamic
//! engine is still behind an unstable feature, so for bash fleetplan adds its own wrapper:
//! after `explain` with `-f` inputs on the line, `--cluster` completes the inventory's cluster
//! names (`fleetplan select -f … -o name`) and the ITEM argument the plan's items
//! (`fleetplan plan -f … -o name`). The other shells get clap's static scripts.

use std::path::PathBuf;

use clap::{Arg, Args, Command, ValueEnum, ValueHint};
use clap_complete::{Generator, Shell};

use super::args::InputArgs;
use super::error::Error;
use super::io::{write, write_into, Io};
use crate::exit_code::ExitCode;

/// The command the scripts complete, as typed by the user.
const BIN_NAME: &str = "fleetplan";

#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to print the completion script of.
    #[arg(value_enum, required_unless_present = "dir", conflicts_with = "dir")]
    shell: Option<Shell>,

    /// Write the scripts of every shell into DIR instead (as committed in completions/).
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    dir: Option<PathBuf>,
}

/// Completes names read from the `-f` inputs for `explain`, then defers to clap's `_fleetplan`.
/// The `@…@` flag lists are filled from the clap definition (see [`bash_names`]), so a flag
/// added to `explain` or to the input flags is known to the wrapper without editing it.
const BASH_NAMES: &str = r#"
# fleetplan: names read from the -f inputs of the command line being completed.
_fleetplan_names() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
    local -a inputs=()
    local explain=0 files=0 i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${COMP_WORDS[i]}" in
            explain) explain=1 ;;
            -f|--filename) files=1; inputs+=("${COMP_WORDS[i]}" "${COMP_WORDS[i+1]}") ;;
            @INPUT_VALUE_FLAGS@) inputs+=("${COMP_WORDS[i]}" "${COMP_WORDS[i+1]}") ;;
            @INPUT_SWITCHES@) inputs+=("${COMP_WORDS[i]}") ;;
        esac
    done
    if [[ $explain -eq 1 && $files -eq 1 ]]; then
        case "$prev" in
            --cluster)
                COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" select "${inputs[@]}" -o name 2>/dev/null)" -- "$cur"))
                return 0 ;;
            @VALUE_FLAGS@) ;;
            *)
                if [[ "$cur" != -* ]]; then
                    COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" plan "${inputs[@]}" -o name 2>/dev/null)" -- "$cur"))
                    return 0
                fi ;;
        esac
    fi
    _fleetplan "$@"
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _fleetplan_names -o nosort -o bashdefault -o default fleetplan
else
    complete -F _fleetplan_names -o bashdefault -o default fleetplan
fi
"#;

/// The bash wrapper for `cmd`: `explain`'s flags that take a value (the word after them is
/// that value, not an item), and the input flags passed on to `plan` and `select` (all but
/// `-f`, which the wrapper also requires).
fn bash_names(cmd: &Command) -> String {
    let explain = cmd
        .find_subcommand("explain")
        .expect("fleetplan has an explain subcommand");
    let inputs = InputArgs::augment_args(Command::new(BIN_NAME));
    let is_file = |arg: &Arg| arg.get_id() == "filenames";
    BASH_NAMES
        .replace(
            "@VALUE_FLAGS@",
            &flags(explain.get_arguments(), takes_value),
        )
        .replace(
            "@INPUT_VALUE_FLAGS@",
            &flags(inputs.get_arguments(), |arg| {
                takes_value(arg) && !is_file(arg)
            }),
        )
        .replace(
            "@INPUT_SWITCHES@",
            &flags(inputs.get_arguments(), |arg| {
                !takes_value(arg) && arg.get_id() != "verbose"
            }),
        )
}

fn takes_value(arg: &Arg) -> bool {
    arg.get_action().takes_values() && !arg.is_positional()
}

/// `-o|--output|…`: a bash `case` pattern of the flags of the arguments `keep` accepts.
fn flags<'a>(args: impl Iterator<Item = &'a Arg>, keep: impl Fn(&Arg) -> bool) -> String {
    let mut words = Vec::new();
    for arg in args.filter(|arg| keep(arg)) {
        words.extend(arg.get_short().map(|short| format!("-{short}")));
        words.extend(arg.get_long().map(|long| format!("--{long}")));
    }
    if words.is_empty() {
        // A `case` pattern cannot be empty; this one matches no word bash will see.
        return "--fleetplan-no-such-flag".to_string();
    }
    words.join("|")
}

/// The completion script of `shell` for `cmd`.
pub(crate) fn script(shell: Shell, cmd: &Command) -> String {
    let mut cmd = cmd.clone();
    let mut buffer = Vec::new();
    clap_complete::generate(shell, &mut cmd, BIN_NAME, &mut buffer);
    let mut text = String::from_utf8_lossy(&buffer).into_owned();
    if shell == Shell::Bash {
        text.push_str(&bash_names(&cmd));
    }
    text
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

pub(crate) fn run(args: CompletionsArgs, io: &mut Io<'_>) -> Result<ExitCode, Error> {
    let cmd = super::command();
    match (args.shell, args.dir) {
        (_, Some(dir)) => write_into(&dir, &scripts(&cmd))?,
        (Some(shell), None) => write(io.stdout, &script(shell, &cmd))?,
        // clap requires SHELL or --dir.
        (None, None) => return Ok(ExitCode::Error),
    }
    Ok(ExitCode::Success)
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
