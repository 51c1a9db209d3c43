//! Puts the git commit into `FLEETPLAN_COMMIT` for `fleetplan --version`.
//!
//! A build from a tarball (no `.git` beside Cargo.toml, or no git at all) says `unknown`, unless
//! the packager sets `FLEETPLAN_COMMIT`. Only the files that move when HEAD moves are watched, so
//! an ordinary edit-build cycle does not rerun this script.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=FLEETPLAN_COMMIT");
    let commit = match std::env::var("FLEETPLAN_COMMIT") {
        Ok(commit) if !commit.is_empty() => commit,
        _ => git_commit().unwrap_or_else(|| "unknown".to_string()),
    };
    println!("cargo:rustc-env=FLEETPLAN_COMMIT={commit}");
}

fn git_commit() -> Option<String> {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR")?);
    // Without this check an unpacked crate inside some other repository would report that
    // repository's commit.
    if !root.join(".git").exists() {
        return None;
    }
    for watched in watched_files(&root) {
        println!("cargo:rerun-if-changed={}", watched.display());
    }
    git(&root, &["rev-parse", "--short", "HEAD"])
}

/// HEAD, packed-refs and the branch ref HEAD points to (before that ref is first written, its
/// folder): in a worktree these live in different git directories, which
/// `git rev-parse --git-path` resolves. Never the whole git directory, which changes on every
/// `git add`.
fn watched_files(root: &Path) -> Vec<PathBuf> {
    let path = |name: &str| Some(root.join(git(root, &["rev-parse", "--git-path", name])?));
    let mut files: Vec<PathBuf> = ["HEAD", "packed-refs"]
        .into_iter()
        .filter_map(path)
        .filter(|file| file.exists())
        .collect();
    let reference = git(root, &["symbolic-ref", "-q", "HEAD"]).and_then(|name| path(&name));
    if let Some(reference) = reference {
        if reference.exists() {
            files.push(reference);
        } else if let Some(folder) = reference.parent().filter(|folder| folder.exists()) {
            files.push(folder.to_path_buf());
        }
    }
    files
}

fn git(root: &Path, args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (output.status.success() && !text.is_empty()).then(|| text.to_string())
}
