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
            "error: vendor/upstream/broken.yaml#1: line 5: Placement/shop/vendored: \
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

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
}

/// A committed ignore file is input: one that is a symbolic link (to `/dev/zero`, which never
/// ends, or to a regular file: git does not follow them either) or a FIFO (opening it blocks
/// for ever) is named in a warning and not read; the walk goes on by the other rules.
#[cfg(unix)]
#[test]
fn ignore_files_that_are_not_regular_files_are_not_opened() {
    let repo = checkout();
    std::os::unix::fs::symlink("/dev/zero", repo.path().join("clusters/.gitignore")).unwrap();
    std::os::unix::fs::symlink("../README.md", repo.path().join("apps/.gitignore")).unwrap();
    mkfifo(&repo.path().join("apps/shop/.ignore"));
    check(repo.path(), &["--exclude", "vendor/"])
        .stderr(
            "warning: apps/.gitignore: ignore file not read: a symbolic link, not a regular \
             file: not opened\n\
             warning: apps/shop/.ignore: ignore file not read: a FIFO, not a regular file: not \
             opened\n\
             warning: clusters/.gitignore: ignore file not read: a symbolic link, not a regular \
             file: not opened\n",
        )
        .stdout("1 item checked, all satisfied; 3 documents skipped (not Kubernetes objects)\n")
        .run();
}

/// The directories above the walked tree have their ignore files read too (as ripgrep
/// reads them), under the same rules: a FIFO there does not block the walk.
#[cfg(unix)]
#[test]
fn an_ignore_file_above_the_walked_tree_is_read_under_the_same_rules() {
    let above = common::tempdir();
    let repo = above.path().join("repo");
    copy_dir(Path::new("testdata/ci/repo"), &repo);
    mkfifo(&above.path().join(".gitignore"));
    let fifo = fs::canonicalize(above.path()).unwrap().join(".gitignore");
    check(&repo, &["--exclude", "vendor/"])
        .stderr(format!(
            "warning: {}: ignore file not read: a FIFO, not a regular file: not opened\n",
            fifo.display()
        ))
        .stdout("1 item checked, all satisfied; 3 documents skipped (not Kubernetes objects)\n")
        .run();
    // A rule above the tree still applies when its file is a regular one.
    fs::remove_file(above.path().join(".gitignore")).unwrap();
    common::write(&above.path().join(".gitignore"), "vendor/\n");
    check(&repo, &[])
        .stdout("1 item checked, all satisfied; 3 documents skipped (not Kubernetes objects)\n")
        .run();
}

/// 150,000 patterns cost over a gigabyte once compiled: a repeated pattern is kept once (the
/// last copy decides anyway), and a file that takes the run past the limit of distinct
/// patterns (10,000, all ignore files together) is not read.
#[test]
fn huge_ignore_files_are_bounded() {
    let repo = checkout();
    let clean = "1 item checked, all satisfied; 3 documents skipped (not Kubernetes objects)\n";
    let over_the_limit = "warning: vendor/.gitignore: ignore file not read: over the limit of \
                          10000 patterns in all ignore files together\n";
    let patterns = |prefix: &str, count: usize| -> String {
        (0..count).map(|n| format!("**/{prefix}{n}/**\n")).collect()
    };
    let vendor = repo.path().join("vendor/.gitignore");
    common::write(&vendor, &"**\n".repeat(150_000));
    check(repo.path(), &[]).stdout(clean).run();
    common::write(&vendor, &patterns("p", 150_000));
    check(repo.path(), &["--exclude", "vendor/upstream/"])
        .stderr(over_the_limit)
        .stdout(clean)
        .run();
    // The limit is for the run: 6,000 patterns in `apps/` (walked first) leave too few for
    // 6,000 more in `vendor/`.
    common::write(&repo.path().join("apps/.gitignore"), &patterns("a", 6_000));
    common::write(&vendor, &patterns("v", 6_000));
    check(repo.path(), &["--exclude", "vendor/upstream/"])
        .stderr(over_the_limit)
        .stdout(clean)
        .run();
}

/// A committed link out of the tree (`root -> /`, `proc -> /proc`) would walk the machine: it
/// is named in a warning and not followed. Named with `-f`, a link is read.
#[cfg(unix)]
#[test]
fn symbolic_links_out_of_the_walked_tree_are_not_followed() {
    let repo = checkout();
    let elsewhere = common::tempdir();
    copy_dir(Path::new("testdata/ci/repo/clusters"), elsewhere.path());
    std::os::unix::fs::symlink("/", repo.path().join("root")).unwrap();
    std::os::unix::fs::symlink("/proc", repo.path().join("apps/proc")).unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), repo.path().join("fleet")).unwrap();
    // A link that stays inside the tree is followed (the file is read once).
    std::os::unix::fs::symlink("../clusters", repo.path().join("apps/clusters")).unwrap();
    let target = fs::canonicalize(elsewhere.path()).unwrap();
    check(repo.path(), &["--exclude", "vendor/"])
        .stderr(format!(
            "warning: apps/proc: a symbolic link out of the walked tree (to /proc): not \
             followed (name it with -f to read it)\n\
             warning: fleet: a symbolic link out of the walked tree (to {}): not followed \
             (name it with -f to read it)\n\
             warning: root: a symbolic link out of the walked tree (to /): not followed (name \
             it with -f to read it)\n",
            target.display()
        ))
        .stdout("1 item checked, all satisfied; 3 documents skipped (not Kubernetes objects)\n")
        .within(BOUND_SECONDS)
        .run();
    Test::new()
        .current_dir(repo.path())
        .args(["select", "-f", "fleet", "-l", "region=east", "-o", "name"])
        .within(BOUND_SECONDS)
        .stdout("east-1\n")
        .run();
}
