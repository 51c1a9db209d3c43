//! The flags every planning subcommand shares, as clap parses them: the inputs, their limits,
//! the what-if flags and the verdict flags. [`super::context`] turns them into a validated run.

use std::path::PathBuf;

use clap::{Args, ValueHint};

use super::error::Error;
use crate::load::{self, LoadOptions};
use crate::model::{echo, Model};
use crate::plan::{self, ObjectRef, TaintEdit, WhatIf};
use crate::selector::Selector;

/// Which workloads `plan` and `check` judge, as `kubectl get` names them: item arguments or a
/// label selector, not both (kubectl refuses names with a selector too).
#[derive(Debug, Args)]
pub(super) struct ItemArgs {
    /// Only these items: [KIND/][NAMESPACE/]NAME as `explain` takes it (kind
    /// case-insensitive; plural and short forms like deploy, rs, cm, rsp work).
    #[arg(value_name = "ITEM")]
    pub items: Vec<String>,

    /// Only the workloads whose labels match SELECTOR, as `kubectl get -l`
    /// ('tier=web,env!=dev', 'app in (shop,cart)', '!legacy').
    #[arg(short = 'l', long, value_name = "SELECTOR", conflicts_with = "items")]
    pub selector: Option<String>,
}

impl ItemArgs {
    /// The indices of the workloads asked for, in plan order; `None` for all of them. An
    /// argument that names no item, or a selector no workload matches, is an error.
    pub(super) fn select(&self, model: &Model) -> Result<Option<Vec<usize>>, Error> {
        let mut indices = if let Some(text) = &self.selector {
            let selector = Selector::parse(text).map_err(|error| Error::Flag {
                flag: "-l",
                message: error.to_string(),
            })?;
            let matching: Vec<usize> = (0..model.workloads.len())
                .filter(|&index| {
                    model
                        .workloads
                        .get(index)
                        .is_some_and(|workload| selector.matches(&workload.labels))
                })
                .collect();
            if matching.is_empty() {
                return Err(Error::NoneSelected(text.clone()));
            }
            matching
        } else if self.items.is_empty() {
            return Ok(None);
        } else {
            let sources: Vec<ObjectRef> = model
                .workloads
                .iter()
                .map(|workload| workload.object.clone())
                .collect();
            self.items
                .iter()
                .map(|item| plan::find_item(&sources, item))
                .collect::<Result<_, _>>()?
        };
        indices.sort_unstable();
        indices.dedup();
        Ok(Some(indices))
    }
}

#[derive(Debug, Args)]
pub(super) struct InputArgs {
    /// A file, a directory (recursive), a glob ('envs/**/*.yaml') or - for stdin. Repeatable.
    #[arg(
        short = 'f',
        long = "filename",
        value_name = "PATH",
        value_hint = ValueHint::AnyPath,
        required = true
    )]
    pub filenames: Vec<String>,

    /// Read the defaults of this run from FILE instead of the .fleetplan.yaml found in the
    /// working directory or its parents (up to the repository root).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath, conflicts_with = "no_config")]
    pub config: Option<PathBuf>,

    /// Ignore .fleetplan.yaml: only the command line counts.
    #[arg(long)]
    pub no_config: bool,

    /// The namespace of namespaced objects that have none, as `kubectl apply -n` gives it
    /// [default: default].
    #[arg(
        short = 'n',
        long,
        value_name = "NAMESPACE",
        value_parser = load::parse_namespace
    )]
    pub namespace: Option<String>,

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
pub(super) struct LimitArgs {
    /// The largest file (or stdin) read, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = load::DEFAULT_MAX_INPUT_BYTES)]
    pub max_input_bytes: u64,

    /// How many values YAML aliases may add to one input (a guard against alias bombs).
    #[arg(long, value_name = "N", default_value_t = load::DEFAULT_MAX_ALIAS_EXPANSION)]
    pub max_alias_expansion: usize,
}

impl InputArgs {
    /// The namespace objects without one are read into, when it is the built-in default
    /// (no `-n`): `check`'s hints say so.
    pub(super) fn defaulted_namespace(&self) -> Option<&'static str> {
        self.namespace.is_none().then_some(load::DEFAULT_NAMESPACE)
    }

    /// How every input (and `--previous`) is read: the limits and the namespace.
    pub(super) fn options(&self) -> LoadOptions {
        LoadOptions {
            max_input_bytes: self.limits.max_input_bytes,
            max_alias_expansion: self.limits.max_alias_expansion,
            namespace: self
                .namespace
                .clone()
                .unwrap_or_else(|| load::DEFAULT_NAMESPACE.to_string()),
            walk: load::WalkOptions {
                hidden: self.hidden,
                exclude: self.exclude.clone(),
            },
            // Every command's process ends right after its run.
            left_to_exit: true,
        }
    }
}

/// The rule of every success verdict (`check`, `diff`, `migrate --verify`): something must
/// have been compared, see [`crate::verdict`].
#[derive(Debug, Args)]
pub(super) struct VerdictArgs {
    /// Validate the manifests without an inventory: placements are not evaluated, and the
    /// output says so. Without it, inputs with no clusters are an error.
    #[arg(long)]
    pub manifests_only: bool,
}

#[derive(Debug, Args)]
pub(super) struct WhatIfArgs {
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

    /// Add a taint to CLUSTER: an OCM effect (NoSelect, PreferNoSelect, NoSelectIfNew) taints
    /// its ManagedCluster, a Karmada one (NoSchedule, PreferNoSchedule, NoExecute) its Karmada
    /// Cluster, NoSchedule also its KubeFleet MemberCluster. Repeatable.
    #[arg(long, value_name = "CLUSTER:KEY[=VALUE]:EFFECT")]
    pub taint: Vec<String>,

    /// The time taint tolerations are judged at (RFC 3339); default: now.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,

    /// Enforce Placements' spec.spreadPolicy, a fleetplan extension: the OCM scheduler
    /// accepts it but does not enforce it, so by default plans select as the hub does.
    #[arg(long)]
    pub enforce_spread_policy: bool,
}

impl WhatIfArgs {
    /// The cluster edits of `--offline`, `--capacity` and `--label`, validated.
    pub(super) fn what_if(&self) -> Result<WhatIf, Error> {
        let mut what_if = WhatIf {
            offline: self.offline.clone(),
            ..WhatIf::default()
        };
        for text in &self.capacity {
            let (cluster, count) = text.split_once('=').ok_or_else(|| Error::Flag {
                flag: "--capacity",
                message: format!("expected CLUSTER=N, found {:?}", echo(text)),
            })?;
            let count: i64 = count
                .parse()
                .ok()
                .filter(|n| *n >= 0)
                .ok_or_else(|| Error::Flag {
                    flag: "--capacity",
                    message: format!(
                        "expected a non-negative whole number, found {:?}",
                        echo(count)
                    ),
                })?;
            what_if.capacity.push((cluster.to_string(), count));
        }
        for text in &self.taint {
            let parsed = text.split_once(':').and_then(|(cluster, rest)| {
                let (taint, effect) = rest.rsplit_once(':')?;
                let (key, value) = taint.split_once('=').unwrap_or((taint, ""));
                Some((cluster, key, value, effect))
            });
            let Some((cluster, key, value, effect)) = parsed.filter(|(cluster, key, _, effect)| {
                !cluster.is_empty() && !key.is_empty() && !effect.is_empty()
            }) else {
                return Err(Error::Flag {
                    flag: "--taint",
                    message: format!(
                        "expected CLUSTER:KEY[=VALUE]:EFFECT, found {:?}",
                        echo(text)
                    ),
                });
            };
            what_if.taints.push(TaintEdit {
                cluster: cluster.to_string(),
                key: key.to_string(),
                value: value.to_string(),
                effect: effect.to_string(),
            });
        }
        for text in &self.label {
            let parsed = text
                .split_once(':')
                .and_then(|(cluster, rest)| Some((cluster, rest.split_once('=')?)));
            let Some((cluster, (key, value))) = parsed else {
                return Err(Error::Flag {
                    flag: "--label",
                    message: format!("expected CLUSTER:KEY=VALUE, found {:?}", echo(text)),
                });
            };
            what_if
                .labels
                .push((cluster.to_string(), key.to_string(), value.to_string()));
        }
        Ok(what_if)
    }
}
