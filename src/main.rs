use std::process::ExitCode;

// mimalloc, not the C library's allocator: a fleet's plan allocates and frees millions of small
// strings and vectors on every core (Cargo.toml says what it measured).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // On a thread with a deep stack (see `parallel::STACK_BYTES`); here when none can be had.
    fleetplan::with_deep_stack(fleetplan::main).unwrap_or_else(|_| fleetplan::main())
}
