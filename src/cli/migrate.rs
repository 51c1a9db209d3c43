//! `fleetplan migrate -f PATH... [--to ocm|karmada] [-o yaml|json] [--out DIR] [--set global|NAME] [--verify] [--fail-on lost|approximate] [--keep-going] [--in-place] [--ocm-version V] [--karmada-version V]`
//!
//! stdout holds only the migrated objects (apply-ready YAML, or the JSON `Migration`
//! document with the report and verification as data); the loss report, the verification and
//! the summary line, then what failed, go to stderr. Exit codes: 0 ok, 1 an input or object
//! could not be migrated (with `--keep-going` the rest is written) or `--fail-on` refused the
//! report (nothing written), 2 `--verify` found an object that plans differently after
//! migration.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::args::{InputArgs, VerdictArgs};
use super::context::Scenario;
use super::error::Error;
use super::io::{report, write, write_into, Io};
use crate::exit_code::ExitCode;
use crate::migrate::hub_version::{self, KarmadaVersion, OcmVersion};
use crate::migrate::report::Fidelity;
use crate::migrate::{self, verify, MigrateOptions, Target};
use crate::plan::Trace;
use crate::registry::GLOBAL;
use crate::verdict::NOT_EVALUATED;

#[derive(Debug, Args)]
pub(super) struct MigrateArgs {
    #[command(flatten)]
    pub(super) inputs: InputArgs,

    /// What to migrate to. `ocm`: PlacementRules and federation annotations become OCM
    /// Placements. `karmada`: kubefed Federated* objects with their
    /// ReplicaSchedulingPreferences, and federation annotations, become resource templates
    /// with Karmada PropagationPolicies (and OverridePolicies for per-cluster overrides).
    #[arg(long, value_enum, default_value_t = MigrateTarget::Ocm)]
    to: MigrateTarget,

    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value_t = MigrateFormat::Yaml)]
    output: MigrateFormat,

    /// Write one file per object into DIR (created when missing) instead of stdout.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,

    /// The ManagedClusterSet the Placements choose from, bound in their namespaces.
    /// `global` (added when the inputs lack it) holds every cluster, as the legacy schedulers
    /// saw them; another set narrows the candidates. `--to ocm` only; `global` when not given.
    #[arg(long, value_name = "global|NAME", value_parser = crate::registry::parse_cluster_set)]
    set: Option<String>,

    /// Plan the old and the migrated objects against the inventory in the inputs and compare
    /// them per object; exit 2 when any differs.
    #[arg(long)]
    verify: bool,

    /// Write an object with the federation cluster-selector annotation back without it
    /// instead of inside a ManifestWorkReplicaSet, for workloads delivered another way. The
    /// loss report says what then delivers it: applied to the hub as is, it runs there.
    /// `--to ocm` only.
    #[arg(long)]
    no_manifest_work: bool,

    /// Exit 1 without writing any object when a conversion carries a field this faithfully
    /// or worse: `lost` (a field not carried), `approximate` (one the new scheduler may
    /// decide differently, or lost). The report is still printed.
    #[arg(long, value_enum, value_name = "FIDELITY")]
    fail_on: Option<FailOn>,

    /// Migrate everything that can be when some inputs or objects cannot (a document that
    /// does not load, an object defined twice with different content: both copies), write
    /// it (also with `--out`), and exit 1 at the end with the list of what failed.
    #[arg(long)]
    keep_going: bool,

    /// Rewrite the source files instead of printing: each converted object's document holds
    /// what it became (a PlacementRule its Placement, with the ManagedClusterSetBinding it
    /// needs), consumers point at the new objects, every other document stays byte for byte.
    /// Runs `--verify` first and rewrites nothing unless every object migrated (with
    /// `--keep-going`: what migrated is rewritten, the documents that failed stay as they
    /// were, exit 1) and verified identical; all files are replaced together or none. Prints
    /// the `kubectl delete` lines for the old objects on the hub.
    #[arg(long, conflicts_with_all = ["out", "output"])]
    in_place: bool,

    /// The OCM release of the hub the objects are for (`v1.0`, `v0.16.1`, ...; default: the
    /// commit fleetplan follows, 00f84c32): nothing is written that it does not serve (before
    /// v1.0, no celSelector: what would need one is reported lost). An unknown version is an
    /// error listing the known ones. `--to ocm` only.
    #[arg(long, value_name = "VERSION", value_parser = hub_version::parse_ocm)]
    ocm_version: Option<&'static OcmVersion>,

    /// The Karmada release of the control plane the objects are for (`v1.4`, `v1.18.2`, ...;
    /// default: the commit fleetplan follows, f8fdd02df376): before v1.4 a Namespace cannot be
    /// kept off the clusters its policy does not choose (reported approximate). An unknown
    /// version is an error listing the known ones. `--to karmada` only.
    #[arg(long, value_name = "VERSION", value_parser = hub_version::parse_karmada)]
    karmada_version: Option<&'static KarmadaVersion>,

    #[command(flatten)]
    verdict: VerdictArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum FailOn {
    /// Any field not carried.
    Lost,
    /// Any field carried approximately or not at all.
    Approximate,
}

impl FailOn {
    fn threshold(self) -> Fidelity {
        match self {
            FailOn::Lost => Fidelity::Lost,
            FailOn::Approximate => Fidelity::Approximate,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum MigrateTarget {
    /// Open Cluster Management Placements.
    Ocm,
    /// Karmada PropagationPolicies.
    Karmada,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum MigrateFormat {
    /// The objects as one YAML stream.
    Yaml,
    /// A Migration document: the objects, the loss report and the verification.
    Json,
}

pub(super) fn run(args: MigrateArgs, io: &mut Io<'_>) -> Result<ExitCode, Error> {
    if args.in_place {
        if let Some(refused) = in_place_refusal(&args) {
            report(io, &format!("error: --in-place: {refused}"));
            return Ok(ExitCode::Error);
        }
    }
    // `--verify --manifests-only` migrates and says the proof was not attempted.
    let verify = (args.verify || args.in_place) && !args.verdict.manifests_only;
    if args.verify && !verify {
        report(io, &format!("verify: {NOT_EVALUATED}"));
    }
    let target = match args.to {
        MigrateTarget::Ocm => Target::Ocm,
        MigrateTarget::Karmada => Target::Karmada,
    };
    if let Some(refused) = target_refusal(target, &args) {
        report(io, refused);
        return Ok(ExitCode::Error);
    }
    // Migrated Placements carry no tolerationSeconds and the legacy schedulers had no clock,
    // so the verification judges the objects as they are now, with no previous plan.
    let scenario = Scenario::current();
    let options = MigrateOptions {
        target,
        set: args.set.clone().unwrap_or_else(|| GLOBAL.to_string()),
        verify: verify.then(|| scenario.plan_options(Trace::Plan)),
        deliver: !args.no_manifest_work,
        keep_going: args.keep_going,
        in_place: args.in_place,
        ocm: args.ocm_version.unwrap_or_else(hub_version::default_ocm),
        karmada: args
            .karmada_version
            .unwrap_or_else(hub_version::default_karmada),
    };
    let migration = migrate::run(
        &args.inputs.filenames,
        io.stdin,
        &args.inputs.options(),
        &options,
    )?;
    let report_text = migration.report.to_string();
    if !report_text.is_empty() {
        report(io, &report_text);
    }
    if let Some(verification) = &migration.verification {
        let text = verify::render(verification);
        if !text.is_empty() {
            report(io, &text);
        }
    }
    report(io, &migration.summary().to_string());
    let errors = migration.report.errors();
    if !errors.is_empty() {
        report(io, errors.trim_end());
    }
    if let Some(refused) = args
        .fail_on
        .and_then(|fail_on| fail_on_refusal(fail_on, &migration))
    {
        report(io, &refused);
        return Ok(ExitCode::Error);
    }
    if let Some(rewrite) = &migration.rewrite {
        return rewrite_in_place(&migration, rewrite, args.keep_going, io);
    }
    let json = args.output == MigrateFormat::Json;
    match &args.out {
        // All or nothing, as `plan --out`: an object that failed leaves the directory as it was.
        Some(dir) if migration.has_errors() && !args.keep_going => {
            return Err(Error::NotMigrated(dir.clone()))
        }
        Some(dir) => write_into(dir, &migration.files(json)?)?,
        None if json => write(io.stdout, &migration.to_json()?)?,
        None => write(io.stdout, &migration.to_yaml()?)?,
    }
    Ok(if migration.has_errors() {
        ExitCode::Error
    } else if migration.differs() {
        ExitCode::Changes
    } else {
        ExitCode::Success
    })
}

/// Why a flag of the other target cannot run with `--to` `target`.
fn target_refusal(target: Target, args: &MigrateArgs) -> Option<&'static str> {
    if target == Target::Karmada && args.no_manifest_work {
        return Some("error: --no-manifest-work leaves out the OCM ManifestWorkReplicaSet; Karmada resource templates are delivered by their PropagationPolicies (drop it or use --to ocm)");
    }
    if target == Target::Karmada && args.ocm_version.is_some() {
        return Some(
            "error: --ocm-version names the OCM hub of --to ocm; for Karmada use --karmada-version",
        );
    }
    if target == Target::Ocm && args.karmada_version.is_some() {
        return Some("error: --karmada-version names the Karmada control plane of --to karmada; for OCM use --ocm-version");
    }
    if target == Target::Karmada && args.set.is_some() {
        return Some("error: --set names the OCM ManagedClusterSet of migrated Placements; Karmada policies have none (drop --set or use --to ocm)");
    }
    None
}

/// `--fail-on`'s error when some conversion is at or below its threshold: nothing is written.
fn fail_on_refusal(fail_on: FailOn, migration: &migrate::Migration) -> Option<String> {
    let failing = migration.report.at_or_below(fail_on.threshold());
    if failing.is_empty() {
        return None;
    }
    let names: Vec<String> = failing.iter().map(|c| c.source.to_string()).collect();
    Some(format!(
        "error: --fail-on {}: nothing written, {} {}: {}",
        fail_on.threshold(),
        names.len(),
        match (fail_on, names.len()) {
            (FailOn::Lost, 1) => "conversion loses a field",
            (FailOn::Lost, _) => "conversions lose a field",
            (FailOn::Approximate, 1) => "conversion is not exact",
            (FailOn::Approximate, _) => "conversions are not exact",
        },
        names.join(", ")
    ))
}

/// Why `--in-place` cannot run with these arguments: it rewrites files, so every input must
/// be one (or a directory of them), and it must prove the migration first.
fn in_place_refusal(args: &MigrateArgs) -> Option<String> {
    if args.verdict.manifests_only {
        return Some("it rewrites only what --verify proved; drop --manifests-only".to_string());
    }
    args.inputs.filenames.iter().find_map(|path| {
        if path == "-" {
            return Some("standard input cannot be rewritten; give the files with -f".to_string());
        }
        match std::fs::symlink_metadata(path) {
            Ok(metadata) if metadata.is_file() || metadata.is_dir() => None,
            Ok(_) => Some(format!(
                "{path}: not a regular file or directory (a symbolic link, device or FIFO is not rewritten)"
            )),
            // Globs, and missing paths the loader names.
            Err(_) => None,
        }
    })
}

/// Writes the rewritten source files (all or none) once the migration is proven, then prints
/// the `kubectl delete` lines for the old objects.
fn rewrite_in_place(
    migration: &migrate::Migration,
    rewrite: &migrate::in_place::Rewrite,
    keep_going: bool,
    io: &mut Io<'_>,
) -> Result<ExitCode, Error> {
    if migration.has_errors() && !keep_going {
        report(
            io,
            "error: --in-place: nothing rewritten, some objects could not be migrated",
        );
        return Ok(ExitCode::Error);
    }
    if migration.differs() {
        report(
            io,
            "error: --in-place: nothing rewritten, --verify found objects that plan differently",
        );
        return Ok(ExitCode::Changes);
    }
    let mut files = Vec::with_capacity(rewrite.files.len());
    for (file, changes) in &rewrite.files {
        let path = PathBuf::from(file);
        let file_error = |source| Error::File {
            path: path.clone(),
            source,
        };
        let metadata = std::fs::symlink_metadata(&path).map_err(file_error)?;
        if !metadata.is_file() {
            report(
                io,
                &format!("error: --in-place: {file}: not a regular file (a symbolic link is not rewritten); nothing rewritten"),
            );
            return Ok(ExitCode::Error);
        }
        let text = std::fs::read_to_string(&path).map_err(file_error)?;
        let text = migrate::in_place::splice(file, &text, changes)
            .map_err(|error| Error::Migrate(error.into()))?;
        files.push((path, text));
    }
    crate::output::replace_files_atomic(&files).map_err(|source| Error::File {
        path: PathBuf::from(rewrite.files.first().map_or("", |(file, _)| file.as_str())),
        source,
    })?;
    report(
        io,
        &format!(
            "rewrote {} {}; delete the old objects from the hub with the commands on standard output",
            files.len(),
            if files.len() == 1 { "file" } else { "files" }
        ),
    );
    write(io.stdout, &rewrite.to_string())?;
    Ok(if migration.has_errors() {
        ExitCode::Error
    } else {
        ExitCode::Success
    })
}
