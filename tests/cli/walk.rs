//! Pointing fleetplan at a repository checkout (testdata/ci/repo, copied to a temporary
//! directory so the test can add what git would not keep): walking reads exactly the
//! manifests, by ripgrep's rules, and never opens what is not a regular file.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::{self, Test};

/// Every run here must end by itself; a FIFO opened for reading would block forever.
const BOUND_SECONDS: u64 = 60;

const SKIPPED: &str =
    "skipped kustomization.yaml#1: not a Kubernetes object (no apiVersion or kind)
skipped templates/deployment.json#1: not a Kubernetes object (no apiVersion or kind)
skipped tests/mapping.yaml#1: not a Kubernetes object (no apiVersion or kind)
";

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The checkout, with a broken manifest under the git-ignored `generated/`.
fn checkout() -> tempfile::TempDir {
    let dir = common::tempdir();
    copy_dir(Path::new("testdata/ci/repo"), dir.path());
    fs::create_dir_all(dir.path().join("generated")).unwrap();
    fs::write(
        dir.path().join("generated/broken.yaml"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: [not, a, mapping]\n",
    )
    .unwrap();
    dir
}

/// `fleetplan check -f .` (and `args`) in `dir`.
fn check(dir: &Path, args: &[&str]) -> Test {
    Test::new()
        .current_dir(dir)
        .args(["check", "-f", "."])
        .args(args.iter().copied())
        .within(BOUND_SECONDS)
}

#[test]
fn a_checkout_is_checked_for_exactly_its_manifests() {
    let repo = checkout();
    check(repo.path(), &["--exclude", "vendor/"])
        .stdout("1 item checked, all satisfied; 3 documents skipped (not Kubernetes objects)\n")
        .run();
}

#[test]
fn verbose_names_every_skipped_document_in_path_order() {
    let repo = checkout();
    check(repo.path(), &["--exclude", "vendor/", "--verbose"])
        .stderr(SKIPPED)
        .run();
}

#[test]
fn without_the_exclude_the_vendored_manifest_is_read_and_reported() {
    let repo = checkout();
    check(repo.path(), &[])
        .stdout(
            "error: vendor/upstream/broken.yaml#1: line 1: Placement/shop/vendored: \
             spec.numberOfClusters: invalid type: string \"many\", expected i32\n\
             1 item checked: 1 error; 3 documents skipped (not Kubernetes objects)\n",
        )
        .status(1)
        .run();
}

#[test]
fn excludes_take_gitignore_globs_and_repeat() {
    let repo = checkout();
    check(
        repo.path(),
        &["--exclude", "broken.yaml", "--exclude", "*.json", "-v"],
    )
    .stderr(
        "skipped kustomization.yaml#1: not a Kubernetes object (no apiVersion or kind)\n\
         skipped tests/mapping.yaml#1: not a Kubernetes object (no apiVersion or kind)\n",
    )
    .stdout("1 item checked, all satisfied; 2 documents skipped (not Kubernetes objects)\n")
    .run();
}

#[test]
fn a_bad_exclude_glob_is_an_error() {
    let repo = checkout();
    check(repo.path(), &["--exclude", "a[b"])
        .stdout(
            "error: --exclude a[b: invalid glob: unclosed character class; missing ']'\n\
             1 error: the inputs could not be read, nothing was checked\n",
        )
        .status(1)
        .run();
}

#[test]
fn hidden_paths_are_walked_only_when_asked() {
    let repo = checkout();
    check(repo.path(), &["--exclude", "vendor/", "--hidden", "-v"])
        .stderr(format!(
            "skipped .github/workflows/ci.yml#1: not a Kubernetes object (no apiVersion or kind)\n\
             {SKIPPED}"
        ))
        .stdout("1 item checked, all satisfied; 4 documents skipped (not Kubernetes objects)\n")
        .run();
}

#[test]
fn globs_skip_hidden_paths_too() {
    let repo = checkout();
    Test::new()
        .current_dir(repo.path())
        .args(["check", "-f", "**/*.yml"])
        .stdout("error: **/*.yml: no files match\n1 error: the inputs could not be read, nothing was checked\n")
        .status(1)
        .run();
}

#[test]
fn a_document_with_kind_but_no_api_version_found_by_walking_is_an_error() {
    let repo = checkout();
    fs::write(
        repo.path().join("apps/shop/half.yaml"),
        "kind: Placement\nmetadata: {name: half, namespace: shop}\n",
    )
    .unwrap();
    check(repo.path(), &["--exclude", "vendor/"])
        .stdout(
            "error: apps/shop/half.yaml#1: line 1: missing field `apiVersion`\n\
             1 item checked: 1 error; 3 documents skipped (not Kubernetes objects)\n",
        )
        .status(1)
        .run();
}

#[test]
fn a_file_named_explicitly_keeps_the_strict_rules() {
    let repo = checkout();
    Test::new()
        .current_dir(repo.path())
        .args(["check", "-f", "clusters", "-f", "kustomization.yaml"])
        .stdout(
            "error: kustomization.yaml#1: line 1: missing field `apiVersion`\n\
             1 error: the inputs could not be read, nothing was checked\n",
        )
        .status(1)
        .run();
}

/// A FIFO found by walking or matched by a glob is never opened: opening one for reading
/// blocks until a writer comes, and none ever does here. The run ends by itself (the harness
/// kills it and fails the test otherwise) and `--verbose` says what was skipped.
#[cfg(unix)]
#[test]
fn fifos_found_by_walking_or_globbing_are_skipped_unopened() {
    let repo = checkout();
    let status = Command::new("mkfifo")
        .arg(repo.path().join("apps/shop/pipe.yaml"))
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    let skipped = "skipped apps/shop/pipe.yaml: a FIFO, not a regular file: not opened\n";
    check(repo.path(), &["--exclude", "vendor/", "-v"])
        .stderr(format!("{SKIPPED}{skipped}"))
        .stdout("1 item checked, all satisfied; 3 documents skipped (not Kubernetes objects)\n")
        .run();
    Test::new()
        .current_dir(repo.path())
        .args(["check", "-f", "clusters", "-f", "apps/**/*.yaml", "-v"])
        .within(BOUND_SECONDS)
        .stderr(skipped)
        .stdout("1 item checked, all satisfied\n")
        .run();
}
