use std::process::ExitCode;

fn main() -> ExitCode {
    fleetplan::cli::main()
}
