//! Generates a realistic fleet and workload mix for benchmarks and scale tests.
//!
//! `cargo run --release --example genfleet -- --clusters N --placements P
//!  [--replica-workloads W] [--karmada-workloads K] [--policies N] [--seed S]
//!  [--mix default|heavy]
//!  [--format json|yaml|both]
//!  [--clusters-as inventory|managedcluster|karmada|kubefleet] --out DIR`
//!
//! The Karmada mix: `--clusters-as karmada --placements 0 --replica-workloads 0
//! --karmada-workloads K` is a Karmada control plane's Clusters, K Deployments and a
//! PropagationPolicy per ten of them.
//!
//! `--clusters-as kubefleet` is KubeFleet's mix (`kubefleet_generator.rs`, the `kubefleet`
//! benchmark's): N MemberClusters and P ClusterResourcePlacements of every placement type,
//! whose heartbeats are judged at `--now 2026-01-02T00:00:00Z`; the workload and mix flags do
//! not apply to it.
//!
//! `--mix heavy` is issue 32's fleet: 30 regions and 200 teams, Placements that pick up to 200
//! clusters out of up to a fifth of the fleet or every cluster of one team (see
//! `generator::Mix`).
//!
//! Writes `DIR/fleet.{json,yaml}` and `DIR/workloads.{json,yaml}`; `--format both` writes
//! `DIR/json/…` and `DIR/yaml/…` so that each directory is one complete input for
//! `fleetplan plan -f`.
//!
//! Output is a pure function of the arguments (see `generator.rs`), so a benchmark run can be
//! repeated byte for byte on any machine.

mod generator;
mod kubefleet_generator;

use std::path::PathBuf;
use std::process::ExitCode;

use generator::{ClusterKind, Mix, Shape};

struct Args {
    clusters: usize,
    placements: usize,
    replica_workloads: usize,
    karmada_workloads: usize,
    policies: usize,
    seed: u64,
    json: bool,
    yaml: bool,
    clusters_as: ClusterKind,
    /// `--clusters-as kubefleet`: KubeFleet's mix instead of the generator's.
    kubefleet: bool,
    mix: Mix,
    out: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        clusters: 1000,
        placements: 100,
        replica_workloads: 100,
        karmada_workloads: 0,
        policies: 0,
        seed: 1,
        json: true,
        yaml: true,
        clusters_as: ClusterKind::Inventory,
        kubefleet: false,
        mix: Mix::Default,
        out: PathBuf::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--clusters" => args.clusters = number(&value()?)?,
            "--placements" => args.placements = number(&value()?)?,
            "--replica-workloads" => args.replica_workloads = number(&value()?)?,
            "--karmada-workloads" => args.karmada_workloads = number(&value()?)?,
            "--policies" => args.policies = number(&value()?)?,
            "--seed" => args.seed = number(&value()?)? as u64,
            "--format" => match value()?.as_str() {
                "json" => (args.json, args.yaml) = (true, false),
                "yaml" => (args.json, args.yaml) = (false, true),
                "both" => (args.json, args.yaml) = (true, true),
                other => {
                    return Err(format!(
                        "--format: expected json, yaml or both, found {other:?}"
                    ))
                }
            },
            "--clusters-as" => match value()?.as_str() {
                "inventory" => args.clusters_as = ClusterKind::Inventory,
                "managedcluster" => args.clusters_as = ClusterKind::ManagedCluster,
                "karmada" => args.clusters_as = ClusterKind::Karmada,
                "kubefleet" => args.kubefleet = true,
                other => {
                    return Err(format!(
                        "--clusters-as: expected inventory, managedcluster, karmada or kubefleet, found {other:?}"
                    ))
                }
            },
            "--mix" => {
                args.mix = match value()?.as_str() {
                    "default" => Mix::Default,
                    "heavy" => Mix::Heavy,
                    other => {
                        return Err(format!("--mix: expected default or heavy, found {other:?}"))
                    }
                }
            }
            "--out" => args.out = PathBuf::from(value()?),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if args.out.as_os_str().is_empty() {
        return Err("--out DIR is required".to_string());
    }
    Ok(args)
}

fn number(text: &str) -> Result<usize, String> {
    text.parse()
        .map_err(|_| format!("expected a whole number, found {text:?}"))
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    let (fleet, workloads) = if args.kubefleet {
        kubefleet_generator::generate(
            args.clusters,
            args.placements,
            kubefleet_generator::HEARTBEAT,
            kubefleet_generator::STALE,
        )
    } else {
        generator::generate(&Shape {
            clusters: args.clusters,
            placements: args.placements,
            replica_workloads: args.replica_workloads,
            karmada_workloads: args.karmada_workloads,
            policies: args.policies,
            seed: args.seed,
            clusters_as: args.clusters_as,
            mix: args.mix,
        })
    };
    // `plan -f DIR` reads every file of DIR: with both formats in one directory every
    // object would be defined twice, so `both` gives each format its own directory.
    let both = args.json && args.yaml;
    for (wanted, format) in [(args.json, "json"), (args.yaml, "yaml")] {
        if !wanted {
            continue;
        }
        let dir = if both {
            args.out.join(format)
        } else {
            args.out.clone()
        };
        generator::write_dir(&dir, format, &fleet, &workloads)?;
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("genfleet: {message}");
            ExitCode::FAILURE
        }
    }
}
