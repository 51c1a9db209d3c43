//! Command-line parsing and dispatch. Holds no logic: parse, call the library, render.

use clap::Parser;

use crate::exit_code::ExitCode;

/// Plan where Kubernetes workloads go across a fleet of clusters, offline.
#[derive(Debug, Parser)]
#[command(name = "fleetplan", version, about, long_about = None)]
pub struct Cli {}

pub fn main() -> std::process::ExitCode {
    let _cli = Cli::parse();
    ExitCode::Success.into()
}
