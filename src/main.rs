use std::process::ExitCode;

fn main() -> ExitCode {
    // On a thread with a deep stack (see `parallel::STACK_BYTES`); here when none can be had.
    fleetplan::with_deep_stack(fleetplan::main).unwrap_or_else(|_| fleetplan::main())
}
