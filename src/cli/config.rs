//! `.fleetplan.yaml`: the defaults of a repository's runs, so every CI job, pre-commit hook and
//! laptop runs fleetplan the same way without repeating its flags.
//!
//! Found in the working directory or its parents, up to the repository root (the directory
//! holding `.git`); outside a repository only the working directory is looked in, so a file
//! in a home directory never changes a run by surprise. `--config PATH` names another file,
//! `--no-config` ignores it. Its keys are the flags' defaults: a flag given on the command
//! line replaces the key (`-f` replaces `inputs`, `--exclude` replaces `exclude`). Paths in it
//! (`inputs`, `baseline`) are relative to the file's directory, as `.gitignore`'s are. An
//! unknown key is an error with the closest known one, so a typo never silently does nothing.
//! The schema is `docs/fleetplan-config.schema.json`.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::args::InputArgs;
use super::error::Error;
use crate::plan::close_matches;

/// The file looked for.
pub(super) const FILE_NAME: &str = ".fleetplan.yaml";

/// The keys a config file may hold, in the order the docs list them.
pub(super) const KEYS: [&str; 6] = [
    "inputs",
    "namespace",
    "exclude",
    "hidden",
    "now",
    "baseline",
];

/// A config file's settings, paths already relative to the working directory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Config {
    pub inputs: Option<Vec<String>>,
    pub namespace: Option<String>,
    pub exclude: Option<Vec<String>>,
    pub hidden: Option<bool>,
    pub now: Option<String>,
    pub baseline: Option<String>,
}

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    inputs: Option<Vec<String>>,
    namespace: Option<String>,
    exclude: Option<Vec<String>>,
    hidden: Option<bool>,
    now: Option<String>,
    baseline: Option<String>,
}

/// The flags of one subcommand that a config file sets when the command line does not.
pub(super) struct Settable<'a> {
    pub inputs: &'a mut InputArgs,
    /// `--now`, for the subcommands that plan.
    pub now: Option<&'a mut Option<String>>,
    /// `--baseline`, for `check` (unless it writes one).
    pub baseline: Option<&'a mut Option<PathBuf>>,
}

/// Finds the run's config file (`--config`, else `.fleetplan.yaml` looked for; none with
/// `--no-config`) and sets from it every flag the command line left unset.
pub(super) fn apply(settable: Settable<'_>) -> Result<(), Error> {
    let inputs = settable.inputs;
    if inputs.no_config {
        return Ok(());
    }
    let path = match &inputs.config {
        Some(path) => path.clone(),
        None => match find() {
            Some(path) => path,
            None => return Ok(()),
        },
    };
    let text = std::fs::read_to_string(&path).map_err(|source| Error::Config {
        path: path.clone(),
        message: source.to_string(),
    })?;
    let config = parse(&path, &text)?;
    if inputs.filenames.is_empty() {
        inputs.filenames = config.inputs.unwrap_or_default();
    }
    if inputs.namespace.is_none() {
        inputs.namespace = config.namespace;
    }
    if inputs.exclude.is_empty() {
        inputs.exclude = config.exclude.unwrap_or_default();
    }
    inputs.hidden |= config.hidden.unwrap_or(false);
    if let Some(now) = settable.now {
        if now.is_none() {
            *now = config.now;
        }
    }
    if let Some(baseline) = settable.baseline {
        if baseline.is_none() {
            *baseline = config.baseline.map(PathBuf::from);
        }
    }
    Ok(())
}

/// `.fleetplan.yaml` in the working directory or its parents up to the repository root (the
/// nearest one holding `.git`; outside a repository, the working directory alone), as a path
/// relative to the working directory (`../.fleetplan.yaml`).
fn find() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    let root = cwd
        .ancestors()
        .find(|dir| dir.join(".git").exists())
        .unwrap_or(&cwd);
    let mut relative = PathBuf::new();
    for dir in cwd.ancestors() {
        if dir.join(FILE_NAME).is_file() {
            return Some(relative.join(FILE_NAME));
        }
        if dir == root {
            break;
        }
        relative.push("..");
    }
    None
}

/// The file's text, checked: its keys known, each value of its type; paths joined to the
/// file's directory.
fn parse(path: &Path, text: &str) -> Result<Config, Error> {
    let error = |message: String| Error::Config {
        path: path.to_path_buf(),
        message,
    };
    let value: serde_yaml::Value = serde_yaml::from_str(text).map_err(|e| error(e.to_string()))?;
    let keys = match &value {
        serde_yaml::Value::Null => return Ok(Config::default()),
        serde_yaml::Value::Mapping(mapping) => mapping.keys().cloned().collect::<Vec<_>>(),
        _ => return Err(error("expected a mapping of settings".to_string())),
    };
    for key in keys {
        let Some(key) = key.as_str() else {
            return Err(error(format!("expected string keys, found {key:?}")));
        };
        if !KEYS.contains(&key) {
            return Err(error(format!(
                "unknown key {:?}{} (known keys: {})",
                crate::model::echo(key),
                close_matches(key, &KEYS),
                KEYS.join(", ")
            )));
        }
    }
    // Decoded from the text, so a wrong value's error names its key and line.
    let written: Written = serde_yaml::from_str(text).map_err(|e| error(e.to_string()))?;
    if let Some(namespace) = &written.namespace {
        crate::load::parse_namespace(namespace)
            .map_err(|message| error(format!("namespace: {message}")))?;
    }
    let dir = path.parent().unwrap_or(Path::new(""));
    let relative = |file: String| {
        if file == "-" || dir.as_os_str().is_empty() {
            file
        } else {
            dir.join(file).to_string_lossy().into_owned()
        }
    };
    Ok(Config {
        inputs: written
            .inputs
            .map(|inputs| inputs.into_iter().map(relative).collect()),
        namespace: written.namespace,
        exclude: written.exclude,
        hidden: written.hidden,
        now: written.now,
        baseline: written.baseline.map(relative),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_key_names_the_closest_known_one() {
        let result = parse(Path::new(".fleetplan.yaml"), "inptus: [a]\n");
        let message = result.err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(
            message,
            ".fleetplan.yaml: unknown key \"inptus\", did you mean inputs? (known keys: inputs, \
             namespace, exclude, hidden, now, baseline)"
        );
    }

    #[test]
    fn paths_are_relative_to_the_file() {
        let config = parse(
            Path::new("../.fleetplan.yaml"),
            "inputs: [clusters/, '-']\nbaseline: b.yaml\nexclude: [vendor/]\n",
        );
        let config = config.unwrap_or_default();
        assert_eq!(
            config.inputs,
            Some(vec!["../clusters/".to_string(), "-".to_string()])
        );
        assert_eq!(config.baseline.as_deref(), Some("../b.yaml"));
        // Exclude globs are relative to the directory walked, as on the command line.
        assert_eq!(config.exclude, Some(vec!["vendor/".to_string()]));
    }

    #[test]
    fn values_of_the_wrong_type_are_errors() {
        let result = parse(Path::new("c.yaml"), "hidden: sometimes\n");
        let message = result.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            message.starts_with("c.yaml: hidden: invalid type"),
            "{message}"
        );
    }
}
