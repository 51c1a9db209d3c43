use std::process::ExitCode;

fn main() -> ExitCode {
    // On a thread with a deep stack (see `parallel::STACK_BYTES`); here when none can be had.
    fleetplan::parallel::with_deep_stack(fleetplan::cli::main)
        .unwrap_or_else(|_| fleetplan::cli::main())
}
