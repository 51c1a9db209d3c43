//! Arguments every planning subcommand shares: the inputs, and the what-if flags.

use clap::{Args, ValueHint};

use super::{report, Io};
use crate::load::{self, LoadError, LoadErrors, LoadOptions, PreviousKind};
use crate::model::time::parse_rfc3339;
use crate::model::Model;
use crate::plan::{Plan, WhatIf};

#[derive(Debug, Args)]
pub struct InputArgs {
    /// A file, a directory (recursive), a glob ('envs/**/*.yaml') or - for stdin. Repeatable.
    #[arg(
        short = 'f',
        long = "filename",
        value_name = "PATH",
        value_hint = ValueHint::AnyPath,
        required = true
    )]
    pub filenames: Vec<String>,

    /// The namespace of namespaced objects that have none, as `kubectl apply -n` gives it.
    #[arg(short = 'n', long, value_name = "NAMESPACE", default_value = load::DEFAULT_NAMESPACE)]
    pub namespace: String,

    /// Also list the documents that were read but not used, and what walking skipped.
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// Walking a directory or glob: leave out paths matching GLOB (gitignore syntax, relative
    /// to the directory walked: 'vendor/', '*.tmpl.yaml'). Repeatable.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,

    /// Walking a directory or glob: also read hidden files and directories (.github/, .x.yaml).
    #[arg(long)]
    pub hidden: bool,

    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Limits on what one input may cost, shared by every subcommand that reads manifests.
#[derive(Debug, Args)]
pub struct LimitArgs {
    /// The largest file (or stdin) read, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = load::DEFAULT_MAX_INPUT_BYTES)]
    pub max_input_bytes: u64,

    /// How many values YAML aliases may add to one input (a guard against alias bombs).
    #[arg(long, value_name = "N", default_value_t = load::DEFAULT_MAX_ALIAS_EXPANSION)]
    pub max_alias_expansion: usize,
}

impl InputArgs {
    /// How every input (and `--previous`) is read: the limits and the namespace.
    pub fn options(&self) -> LoadOptions {
        LoadOptions {
            max_input_bytes: self.limits.max_input_bytes,
            max_alias_expansion: self.limits.max_alias_expansion,
            namespace: self.namespace.clone(),
            walk: load::WalkOptions {
                hidden: self.hidden,
                exclude: self.exclude.clone(),
            },
        }
    }

    /// Loads the model, reporting warnings (and skipped documents with --verbose) on stderr.
    /// Load errors are reported too; `None` means the run must stop with exit code 1.
    pub fn load(&self, io: &mut Io<'_>) -> Option<Model> {
        match self.try_load(io) {
            Ok(model) => Some(model),
            Err(errors) => {
                for error in &errors.0 {
                    report(io, &format!("error: {error}"));
                }
                None
            }
        }
    }

    /// Loads the model, reporting warnings (and skipped documents with --verbose) on stderr.
    fn try_load(&self, io: &mut Io<'_>) -> Result<Model, LoadErrors> {
        let model = load::load(&self.filenames, io.stdin, &self.options())?;
        self.notes(&model, io);
        Ok(model)
    }

    /// Every object that loaded, and every error for the caller to report (`check` reports
    /// them as findings); warnings and skipped documents as [`InputArgs::load`] does.
    pub fn load_partial(&self, io: &mut Io<'_>) -> (Model, Vec<LoadError>) {
        let (model, errors) = load::load_partial(&self.filenames, io.stdin, &self.options());
        self.notes(&model, io);
        (model, errors)
    }

    fn notes(&self, model: &Model, io: &mut Io<'_>) {
        for warning in &model.warnings {
            report(io, &format!("warning: {warning}"));
        }
        if self.verbose {
            for (source, what) in &model.skipped {
                report(io, &format!("skipped {source}: {what}"));
            }
            for source in &model.not_objects {
                report(
                    io,
                    &format!("skipped {source}: not a Kubernetes object (no apiVersion or kind)"),
                );
            }
            for (path, what) in &model.skipped_files {
                report(io, &format!("skipped {path}: {what}"));
            }
        }
    }
}

/// The rule of every success verdict (`check`, `diff`, `migrate --verify`): something must
/// have been compared, see [`crate::verdict`].
#[derive(Debug, Args)]
pub struct VerdictArgs {
    /// Validate the manifests without an inventory: placements are not evaluated, and the
    /// output says so. Without it, inputs with no clusters are an error.
    #[arg(long)]
    pub manifests_only: bool,
}

#[derive(Debug, Args)]
pub struct WhatIfArgs {
    /// A previous plan (fleetplan Plan YAML/JSON) or PlacementDecision manifests (a file or
    /// directory, as a live hub exports them): previous decisions and current replicas.
    #[arg(long, value_name = "PLAN", value_hint = ValueHint::AnyPath)]
    pub previous: Option<String>,

    /// Treat CLUSTER as offline. Repeatable.
    #[arg(long, value_name = "CLUSTER")]
    pub offline: Vec<String>,

    /// Set how many replicas CLUSTER can hold. Repeatable.
    #[arg(long, value_name = "CLUSTER=N")]
    pub capacity: Vec<String>,

    /// Set (or with an empty VALUE, keep but empty) a label on CLUSTER. Repeatable.
    #[arg(long, value_name = "CLUSTER:KEY=VALUE")]
    pub label: Vec<String>,

    /// The time taint tolerations are judged at (RFC 3339); default: now.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,

    /// Enforce Placements' spec.spreadPolicy, a fleetplan extension: the OCM scheduler
    /// accepts it but does not enforce it, so by default plans select as the hub does.
    #[arg(long)]
    pub enforce_spread_policy: bool,
}

/// The what-if flags, validated.
pub struct Scenario {
    pub previous: Option<Plan>,
    /// What `--previous` held (a Plan when there is none).
    pub previous_kind: PreviousKind,
    pub what_if: WhatIf,
    pub now: i64,
    pub enforce_spread: bool,
}

impl WhatIfArgs {
    /// The what-if flags, validated; `--previous` is read under the inputs' limits.
    pub fn scenario(&self, inputs: &InputArgs, io: &mut Io<'_>) -> Result<Scenario, String> {
        let limits = &inputs.options();
        let now = match &self.now {
            Some(text) => parse_rfc3339(text).map_err(|error| format!("--now: {error}"))?,
            None => current_time(),
        };
        let (previous, previous_kind) = match &self.previous {
            // Standard input can be read once, as with `-f - -f -`.
            Some(path) if path == "-" && inputs.filenames.iter().any(|name| name == "-") => {
                return Err(format!(
                    "--previous: {}: standard input (-) given more than once (-f - reads it)",
                    load::STDIN_NAME
                ));
            }
            Some(path) => {
                let (plan, kind) = load::previous_plan_limited(path, io.stdin, limits)
                    .map_err(|error| format!("--previous: {error}"))?;
                (Some(plan), kind)
            }
            None => (None, PreviousKind::Plan),
        };
        let mut what_if = WhatIf {
            offline: self.offline.clone(),
            ..WhatIf::default()
        };
        for text in &self.capacity {
            let (cluster, count) = text
                .split_once('=')
                .ok_or_else(|| format!("--capacity: expected CLUSTER=N, found {text:?}"))?;
            let count: i64 = count.parse().ok().filter(|n| *n >= 0).ok_or_else(|| {
                format!("--capacity: expected a non-negative whole number, found {count:?}")
            })?;
            what_if.capacity.push((cluster.to_string(), count));
        }
        for text in &self.label {
            let parsed = text
                .split_once(':')
                .and_then(|(cluster, rest)| Some((cluster, rest.split_once('=')?)));
            let Some((cluster, (key, value))) = parsed else {
                return Err(format!(
                    "--label: expected CLUSTER:KEY=VALUE, found {text:?}"
                ));
            };
            what_if
                .labels
                .push((cluster.to_string(), key.to_string(), value.to_string()));
        }
        Ok(Scenario {
            previous,
            previous_kind,
            what_if,
            now,
            enforce_spread: self.enforce_spread_policy,
        })
    }
}

/// The clock is read here, at the edge: engines take time as an input.
fn current_time() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| {
            i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX)
        })
}
