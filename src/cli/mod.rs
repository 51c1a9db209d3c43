//! Command-line parsing and dispatch. Holds no logic: parse, call the library, render.

mod args;
mod check;
mod color;
pub(crate) mod completions;
mod config;
mod context;
mod diff;
mod error;
mod explain;
mod io;
pub(crate) mod man;
pub(crate) mod man_usage;
mod migrate;
mod plan;
mod select;
mod vectors;

use std::ffi::OsString;

use clap::{Command as ClapCommand, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::exit_code::ExitCode;
pub(crate) use io::Io;
use io::{report, write};

/// `fleetplan --version`: the crate version and the commit it was built from (see build.rs).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("FLEETPLAN_COMMIT"),
    ")"
);

/// Plan where Kubernetes workloads go across a fleet of clusters, offline. `--help` opens with
/// the crate's description (`about`), which names the APIs: Federation v1, kubefed, Open Cluster
/// Management and Karmada.
#[derive(Debug, Parser)]
#[command(name = "fleetplan", version = VERSION, about, long_about = None)]
pub(crate) struct Cli {
    /// When to colour output: auto colours a terminal unless NO_COLOR is set.
    #[arg(long, value_enum, global = true, value_name = "WHEN", default_value_t = color::ColorChoice::Auto)]
    color: color::ColorChoice,

    #[command(subcommand)]
    command: Command,

    /// A config file that failed to apply: reported once parsing is done.
    #[arg(skip)]
    failed: Option<error::Error>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Plan every workload: selected clusters, replica layouts, decisions and conditions.
    Plan(plan::PlanArgs),
    /// Explain one item cluster by cluster: why each was or was not chosen, with scores.
    Explain(explain::ExplainArgs),
    /// List the clusters of an inventory that match label and claim selectors.
    Select(select::SelectArgs),
    /// Compare the plan with a previous one (exit 0 no change, 2 changes, 1 error).
    #[command(mut_arg("previous", |arg| arg.required(true)))]
    Diff(diff::DiffArgs),
    /// Validate every input and plan everything (exit 0 clean, 1 errors, 3 unsatisfied).
    Check(check::CheckArgs),
    /// Convert PlacementRules and federation annotations to Placements,
    /// ManifestWorkReplicaSets and ReplicaSchedulingPreferences, with a loss report (and
    /// --verify, a proof).
    Migrate(migrate::MigrateArgs),
    /// Run upstream's own test cases (vector files) through this build's engines (exit 0
    /// every vector passes, 1 one fails or a file is not a vector file).
    Vectors(vectors::VectorsArgs),
    /// Print the shell completion script of SHELL, or write every shell's into --dir.
    Completions(completions::CompletionsArgs),
    /// Print the manual page, or write one page per subcommand into --dir.
    Man(man::ManArgs),
}

/// Sets what the subcommand's command line left unset from the config file; false when the
/// subcommand reads inputs and still has none.
fn configure(command: &mut Command) -> Result<bool, error::Error> {
    let settable = match command {
        Command::Plan(args) => (&mut args.inputs, Some(&mut args.what_if.now), None),
        Command::Explain(args) => (&mut args.inputs, Some(&mut args.what_if.now), None),
        Command::Diff(args) => (&mut args.inputs, Some(&mut args.what_if.now), None),
        Command::Check(args) => {
            let baseline = args.write_baseline.is_none().then_some(&mut args.baseline);
            (&mut args.inputs, Some(&mut args.what_if.now), baseline)
        }
        Command::Select(args) => (&mut args.inputs, None, None),
        Command::Migrate(args) => (&mut args.inputs, None, None),
        Command::Vectors(_) | Command::Completions(_) | Command::Man(_) => return Ok(true),
    };
    let (inputs, now, baseline) = settable;
    config::apply(config::Settable {
        inputs: &mut *inputs,
        now,
        baseline,
    })?;
    Ok(!inputs.filenames.is_empty())
}

/// Whether the only required argument missing is `-f`.
fn only_inputs_missing(error: &clap::Error) -> bool {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    error.kind() == ErrorKind::MissingRequiredArgument
        && matches!(
            error.get(ContextKind::InvalidArg),
            Some(ContextValue::Strings(missing))
                if missing.iter().all(|arg| arg.starts_with("--filename"))
        )
}

/// The command with `-f` optional in every subcommand.
fn inputs_optional(mut cmd: ClapCommand) -> ClapCommand {
    let names: Vec<String> = cmd
        .get_subcommands()
        .filter(|sub| sub.get_arguments().any(|arg| arg.get_id() == "filenames"))
        .map(|sub| sub.get_name().to_string())
        .collect();
    for name in names {
        cmd = cmd.mut_subcommand(name, |sub| {
            sub.mut_arg("filenames", |arg| arg.required(false))
        });
    }
    cmd
}

/// The clap definition every generated file (completions, manual pages) is made from.
pub fn command() -> ClapCommand {
    Cli::command()
}

/// How usage lines name the program: `kubectl fleetplan` when run as a kubectl plugin (kubectl
/// runs `kubectl-fleetplan` for `kubectl fleetplan`), else the name it was run as.
fn bin_name(program: Option<&OsString>) -> Option<String> {
    let name = std::path::Path::new(program?).file_name()?.to_str()?;
    let plugin = name
        .strip_suffix(".exe")
        .unwrap_or(name)
        .strip_prefix("kubectl-")?;
    Some(format!("kubectl {plugin}"))
}

pub fn main() -> std::process::ExitCode {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut io = Io {
        stdin: &mut stdin.lock(),
        stdout: &mut stdout.lock(),
        stderr: &mut stderr.lock(),
        width: io::terminal_width(),
        shown: Default::default(),
    };
    run(std::env::args_os(), &mut io).into()
}

/// Parses `args` (program name first) and runs the subcommand.
pub(crate) fn run(args: impl IntoIterator<Item = OsString>, io: &mut Io<'_>) -> ExitCode {
    let args: Vec<OsString> = args.into_iter().collect();
    let mut cmd = command();
    if let Some(name) = bin_name(args.first()) {
        cmd = cmd.bin_name(name);
    }
    let parsed = cmd
        .clone()
        .try_get_matches_from(&args)
        .and_then(|matches| Cli::from_arg_matches(&matches));
    // Without -f, the inputs may come from the config file: parsed again with -f optional,
    // the missing -f stays the usage error it was unless the config names inputs.
    let parsed = match parsed {
        Err(error) if only_inputs_missing(&error) => {
            let relaxed = inputs_optional(cmd)
                .try_get_matches_from(&args)
                .and_then(|matches| Cli::from_arg_matches(&matches));
            match relaxed {
                Ok(mut cli) => match configure(&mut cli.command) {
                    Ok(true) => Ok(cli),
                    Ok(false) => Err(error),
                    Err(config_error) => Ok(Cli {
                        failed: Some(config_error),
                        ..cli
                    }),
                },
                Err(_) => Err(error),
            }
        }
        parsed => parsed.map(|mut cli| {
            if let Err(error) = configure(&mut cli.command) {
                cli.failed = Some(error);
            }
            cli
        }),
    };
    let cli = match parsed {
        Ok(Cli {
            failed: Some(error),
            ..
        }) => return error::finish(Err(error), io),
        Ok(cli) => cli,
        Err(error) => {
            let text = error.render().to_string();
            if error.use_stderr() {
                report(io, &text);
                return ExitCode::Error;
            }
            return error::finish(write(io.stdout, &text).map(|()| ExitCode::Success), io);
        }
    };
    // Io::width is set exactly when stdout is a terminal.
    let color = cli
        .color
        .enabled(io.width.is_some(), std::env::var_os("NO_COLOR").as_deref());
    let result = match cli.command {
        Command::Plan(args) => plan::run(args, io),
        Command::Explain(args) => explain::run(args, io),
        Command::Select(args) => select::run(args, io),
        Command::Diff(args) => diff::run(args, color, io),
        Command::Check(args) => check::run(args, io),
        Command::Migrate(args) => migrate::run(args, io),
        Command::Vectors(args) => vectors::run(args, io),
        Command::Completions(args) => completions::run(args, io),
        Command::Man(args) => man::run(args, io),
    };
    error::finish(result, io)
}
