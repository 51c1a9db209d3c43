//! How fleetplan reaches its users, run offline against a folder laid out like a GitHub release:
//! the archives `scripts/package.sh` packs (the release workflow's own step), the Action's
//! install script (`scripts/install.sh`: the right archive per runner, checksums enforced, the
//! cargo fallback), the krew manifest `scripts/krew-manifest.sh` renders (checked as krew
//! validates manifests), cargo-binstall's metadata, and the workflow, Action and image
//! definitions agreeing with them. The linters in `.ci/run` check the files' syntax.
#![cfg(unix)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;

/// The release targets: what `.github/workflows/release.yml` builds, in the order krew lists
/// them, with krew's os/arch names and the binary's name.
const TARGETS: [(&str, &str, &str, &str); 5] = [
    ("x86_64-unknown-linux-musl", "linux", "amd64", "fleetplan"),
    ("aarch64-unknown-linux-musl", "linux", "arm64", "fleetplan"),
    ("x86_64-apple-darwin", "darwin", "amd64", "fleetplan"),
    ("aarch64-apple-darwin", "darwin", "arm64", "fleetplan"),
    (
        "x86_64-pc-windows-msvc",
        "windows",
        "amd64",
        "fleetplan.exe",
    ),
];

const VERSION: &str = "0.2.0";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    fs::read_to_string(root().join(path)).unwrap_or_else(|error| panic!("{path}: {error}"))
}

fn archive(version: &str, target: &str) -> String {
    format!("fleetplan-v{version}-{target}.tar.gz")
}

fn run(command: &mut Command) -> Output {
    command
        .output()
        .unwrap_or_else(|error| panic!("{command:?}: {error}"))
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Fails with the whole of stderr unless it holds `fragment`.
fn assert_stderr_has(output: &Output, fragment: &str) {
    let text = stderr(output);
    assert!(text.contains(fragment), "expected {fragment:?} in:\n{text}");
}

fn succeed(command: &mut Command) -> Output {
    let output = run(command);
    assert!(
        output.status.success(),
        "{command:?}\n{}{}",
        common::stdout(&output),
        stderr(&output)
    );
    output
}

/// The stand-in binary packed for `target`: a script that names its target.
fn fake_binary(dir: &Path, target: &str) -> PathBuf {
    let path = dir.join(format!("built-{target}"));
    common::write(
        &path,
        &format!("#!/bin/sh\necho 'fleetplan for {target}'\n"),
    );
    path
}

/// Packs an archive of every target into `folder` with `scripts/package.sh` and writes the
/// SHA256SUMS the release job writes: the archives' `.sha256` files, concatenated. Each
/// archive holds a stand-in binary that names its target.
fn pack_release(folder: &Path, version: &str) {
    pack_release_of(folder, version, None);
}

/// [`pack_release`], with `binary` (when given) as every target's binary.
fn pack_release_of(folder: &Path, version: &str, binary: Option<&Path>) {
    let work = common::tempdir();
    fs::create_dir_all(folder).unwrap();
    for (target, ..) in TARGETS {
        let built = binary.map_or_else(|| fake_binary(work.path(), target), Path::to_path_buf);
        succeed(
            Command::new("bash")
                .arg(root().join("scripts/package.sh"))
                .args([version, target])
                .arg(built)
                .arg(folder),
        );
    }
    let mut sums = String::new();
    for (target, ..) in TARGETS {
        let sidecar = folder.join(format!("{}.sha256", archive(version, target)));
        sums.push_str(&fs::read_to_string(&sidecar).unwrap());
        fs::remove_file(sidecar).unwrap();
    }
    common::write(&folder.join("SHA256SUMS"), &sums);
}

/// A folder laid out like `https://github.com/OWNER/REPO/releases`: `download/vVERSION/` for
/// each version, and `latest/download/` holding the newest.
struct Releases {
    dir: tempfile::TempDir,
}

impl Releases {
    fn new(versions: &[&str]) -> Releases {
        let dir = common::tempdir();
        for version in versions {
            pack_release(&dir.path().join(format!("download/v{version}")), version);
        }
        if let Some(newest) = versions.last() {
            pack_release(&dir.path().join("latest/download"), newest);
        }
        Releases { dir }
    }

    fn folder(&self, version: &str) -> PathBuf {
        self.dir.path().join(format!("download/v{version}"))
    }

    /// `scripts/install.sh ARGS` on a runner of `os`/`arch`, with this folder as the releases
    /// and no cargo to build with.
    fn install(&self, runner: (&str, &str), args: &[&str]) -> Output {
        self.install_with(runner, args, Path::new("/nonexistent/cargo"))
    }

    /// `scripts/install.sh --dir INTO --version VERSION`, as [`Releases::install`].
    fn install_into(&self, runner: (&str, &str), into: &Path, version: &str) -> Output {
        let into = into.display().to_string();
        self.install(runner, &["--dir", &into, "--version", version])
    }

    /// [`Releases::install`] with `cargo` as the cargo to build with.
    fn install_with(&self, runner: (&str, &str), args: &[&str], cargo: &Path) -> Output {
        run(Command::new("bash")
            .arg(root().join("scripts/install.sh"))
            .args(args)
            .env(
                "FLEETPLAN_RELEASES",
                format!("file://{}", self.dir.path().display()),
            )
            .env("RUNNER_OS", runner.0)
            .env("RUNNER_ARCH", runner.1)
            .env("CARGO", cargo))
    }
}

/// What a fake `cargo` records: it writes its arguments, and a binary where `--root` says.
fn fake_cargo(dir: &Path) -> PathBuf {
    let path = dir.join("cargo");
    common::write(
        &path,
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/cargo-args\"\n\
         while [ $# -gt 0 ]; do [ \"$1\" = --root ] && root=$2; shift; done\n\
         mkdir -p \"$root/bin\" && echo built > \"$root/bin/fleetplan\"\n",
    );
    succeed(Command::new("chmod").arg("755").arg(&path));
    path
}

#[test]
fn install_picks_the_archive_of_each_runner_platform() {
    let releases = Releases::new(&[VERSION]);
    let runners = [
        (("Linux", "X64"), "x86_64-unknown-linux-musl", "fleetplan"),
        (
            ("Linux", "ARM64"),
            "aarch64-unknown-linux-musl",
            "fleetplan",
        ),
        (("macOS", "X64"), "x86_64-apple-darwin", "fleetplan"),
        (("macOS", "ARM64"), "aarch64-apple-darwin", "fleetplan"),
        (
            ("Windows", "X64"),
            "x86_64-pc-windows-msvc",
            "fleetplan.exe",
        ),
        // Windows on Arm runs the x86_64 build.
        (
            ("Windows", "ARM64"),
            "x86_64-pc-windows-msvc",
            "fleetplan.exe",
        ),
        // Outside GitHub: uname's names.
        (
            ("Linux", "aarch64"),
            "aarch64-unknown-linux-musl",
            "fleetplan",
        ),
        (("Darwin", "arm64"), "aarch64-apple-darwin", "fleetplan"),
    ];
    for (runner, target, exe) in runners {
        for version in [VERSION.to_string(), format!("v{VERSION}")] {
            let into = common::tempdir();
            let output = releases.install_into(runner, into.path(), &version);
            assert!(output.status.success(), "{runner:?}: {}", stderr(&output));
            assert_eq!(
                common::entries(&into.path().join("bin")),
                [exe],
                "{runner:?}"
            );
            assert_eq!(
                fs::read_to_string(into.path().join("bin").join(exe)).unwrap(),
                format!("#!/bin/sh\necho 'fleetplan for {target}'\n"),
                "{runner:?} {version}"
            );
            assert_stderr_has(&output, &format!("installed {}", archive(VERSION, target)));
        }
    }
}

#[test]
fn install_refuses_an_archive_whose_checksum_does_not_match_and_installs_nothing() {
    let releases = Releases::new(&[VERSION]);
    let name = archive(VERSION, "x86_64-unknown-linux-musl");
    let tampered = releases.folder(VERSION).join(&name);
    let mut bytes = fs::read(&tampered).unwrap();
    bytes.push(0);
    fs::write(&tampered, bytes).unwrap();
    let into = common::tempdir();
    let output = releases.install_into(("Linux", "X64"), into.path(), VERSION);
    assert_eq!(output.status.code(), Some(1));
    assert_stderr_has(&output, &format!("checksum mismatch for {name}"));
    assert!(common::entries(into.path()).is_empty());
    // The other archives are untouched: a macOS runner installs from the same release.
    let output = releases.install_into(("macOS", "ARM64"), into.path(), VERSION);
    assert!(output.status.success(), "{}", stderr(&output));
}

/// A mismatch is refused even with a source tree to fall back to: only a missing release
/// falls back.
#[test]
fn a_checksum_mismatch_never_falls_back_to_building() {
    let releases = Releases::new(&[VERSION]);
    let tampered = releases
        .folder(VERSION)
        .join(archive(VERSION, "aarch64-apple-darwin"));
    fs::write(&tampered, b"not the archive").unwrap();
    let into = common::tempdir();
    let cargo = fake_cargo(into.path());
    let tool = into.path().join("tool").display().to_string();
    let source = root().display().to_string();
    let output = releases.install_with(
        ("macOS", "ARM64"),
        &["--dir", &tool, "--version", VERSION, "--source", &source],
        &cargo,
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_stderr_has(&output, "checksum mismatch");
    assert!(!into.path().join("cargo-args").exists());
    assert!(!into.path().join("tool").exists());
}

#[test]
fn install_latest_takes_the_version_from_the_newest_sha256sums() {
    let releases = Releases::new(&["0.2.0", "0.3.0"]);
    let into = common::tempdir();
    let output = releases.install_into(("Linux", "X64"), into.path(), "latest");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_stderr_has(
        &output,
        "installed fleetplan-v0.3.0-x86_64-unknown-linux-musl.tar.gz",
    );
}

#[test]
fn a_ref_without_a_release_is_built_from_its_source_with_cargo_install_locked() {
    let releases = Releases::new(&[VERSION]);
    // A tag with no release yet, a branch, and no version at all (`uses: ./`).
    for version in [&["--version", "v9.9.9"][..], &["--version", "main"], &[]] {
        let into = common::tempdir();
        let cargo = fake_cargo(into.path());
        let tool = into.path().join("tool");
        let mut args = vec!["--dir".to_string(), tool.display().to_string()];
        args.extend(version.iter().map(|word| word.to_string()));
        args.extend(["--source".to_string(), root().display().to_string()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = releases.install_with(("Linux", "X64"), &args, &cargo);
        assert!(output.status.success(), "{version:?}: {}", stderr(&output));
        assert_eq!(
            fs::read_to_string(into.path().join("cargo-args")).unwrap(),
            format!(
                "install\n--locked\n--path\n{}\n--root\n{}\n",
                root().display(),
                tool.display()
            ),
            "{version:?}"
        );
        assert_eq!(common::entries(&tool.join("bin")), ["fleetplan"]);
    }
}

#[test]
fn a_platform_without_an_archive_builds_from_source_or_fails_clearly() {
    let releases = Releases::new(&[VERSION]);
    let into = common::tempdir();
    let cargo = fake_cargo(into.path());
    let dir = into.path().join("tool").display().to_string();
    let install = |extra: &[&str]| {
        let mut args = vec!["--dir", &dir, "--version", VERSION];
        args.extend(extra);
        releases.install_with(("Linux", "ARM"), &args, &cargo)
    };
    let output = install(&[]);
    assert_eq!(output.status.code(), Some(1));
    assert_stderr_has(&output, "no release 0.2.0 at file://");
    let root = root().display().to_string();
    let output = install(&["--source", &root]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(into.path().join("cargo-args").exists());
}

#[test]
fn install_without_a_release_or_a_source_fails_and_names_what_it_looked_for() {
    let releases = Releases::new(&[VERSION]);
    let into = common::tempdir();
    for (version, message) in [
        ("1.0.0", "no release 1.0.0 at file://"),
        ("main", "'main' is not a version (0.2.0, v0.2.0 or latest)"),
        ("../../etc", "'../../etc' is not a version"),
    ] {
        let output = releases.install_into(("Linux", "X64"), into.path(), version);
        assert_eq!(output.status.code(), Some(1), "{version}");
        assert_stderr_has(&output, message);
    }
    assert!(common::entries(into.path()).is_empty());
}

/// SHA256SUMS is downloaded text: a name in it that is not a plain archive name never
/// becomes a path or a URL.
#[test]
fn install_uses_no_archive_name_from_sha256sums_that_is_not_a_plain_name() {
    let releases = Releases::new(&[VERSION]);
    let sums = releases.folder(VERSION).join("SHA256SUMS");
    let evil = format!(
        "{}  fleetplan-v0.2.0/../../evil-x86_64-unknown-linux-musl.tar.gz\n",
        "0".repeat(64)
    );
    let kept = without_lines(&sums, "x86_64-unknown-linux-musl");
    common::write(&sums, &format!("{kept}{evil}"));
    let into = common::tempdir();
    let output = releases.install_into(("Linux", "X64"), into.path(), VERSION);
    assert_eq!(output.status.code(), Some(1));
    assert_stderr_has(
        &output,
        "lists no single archive for x86_64-unknown-linux-musl",
    );
}

/// The text of `path` less its lines that hold `needle`.
fn without_lines(path: &Path, needle: &str) -> String {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|line| !line.contains(needle))
        .map(|line| format!("{line}\n"))
        .collect()
}

/// `tar -tzf`'s listing of an archive.
fn listing(path: &Path) -> BTreeSet<String> {
    let output = succeed(Command::new("tar").arg("-tzf").arg(path));
    common::stdout(&output)
        .lines()
        .map(|line| line.trim_end_matches('/').to_string())
        .collect()
}

#[test]
fn a_release_archive_holds_the_binary_completions_manual_pages_readme_and_license() {
    let out = common::tempdir();
    pack_release(out.path(), VERSION);
    for (target, _, _, exe) in TARGETS {
        let folder = format!("fleetplan-v{VERSION}-{target}");
        let mut expected: BTreeSet<String> = [
            folder.clone(),
            format!("{folder}/{exe}"),
            format!("{folder}/README.md"),
            format!("{folder}/LICENSE"),
            format!("{folder}/completions"),
            format!("{folder}/man"),
        ]
        .into();
        for dir in ["completions", "man"] {
            for name in common::entries(&root().join(dir)) {
                expected.insert(format!("{folder}/{dir}/{name}"));
            }
        }
        assert_eq!(
            listing(&out.path().join(archive(VERSION, target))),
            expected
        );
    }
    let sums = fs::read_to_string(out.path().join("SHA256SUMS")).unwrap();
    assert_eq!(sums.lines().count(), TARGETS.len());
    succeed(
        Command::new("sha256sum")
            .args(["-c", "SHA256SUMS"])
            .current_dir(out.path()),
    );
}

#[test]
fn package_refuses_a_version_with_a_v_or_a_missing_binary() {
    let out = common::tempdir();
    let binary = fake_binary(out.path(), "x");
    for (version, binary, message) in [
        (
            "v0.2.0",
            binary.clone(),
            "VERSION must be a semantic version",
        ),
        ("0.2.0", out.path().join("missing"), "no binary at"),
    ] {
        let output = run(Command::new("bash")
            .arg(root().join("scripts/package.sh"))
            .args([version, "x86_64-unknown-linux-musl"])
            .arg(&binary)
            .arg(out.path().join("dist")));
        assert_eq!(output.status.code(), Some(1));
        assert_stderr_has(&output, message);
    }
}

/// Renders the krew manifest for `version` from the SHA256SUMS in `folder`.
fn render_krew(version: &str, sums: &Path) -> Output {
    run(Command::new("bash")
        .arg(root().join("scripts/krew-manifest.sh"))
        .args([version, "fleetplan/fleetplan"])
        .arg(sums))
}

fn text<'a>(value: &'a serde_yaml::Value, key: &str) -> &'a str {
    value[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is not a string in {value:?}"))
}

/// The rules krew applies to a plugin manifest (kubernetes-sigs/krew
/// internal/index/validation/validate.go at 65de93cc: apiVersion, kind, a safe name equal to
/// the file's, a one-line shortDescription, a semver version, and for each platform a uri, a
/// 64-hex sha256, a bin, non-empty files with from and to, and a selector on os and arch only).
fn krew_problems(manifest: &serde_yaml::Value) -> Vec<String> {
    let mut problems = Vec::new();
    let mut check = |ok: bool, problem: String| {
        if !ok {
            problems.push(problem);
        }
    };
    check(
        manifest["apiVersion"].as_str() == Some("krew.googlecontainertools.github.com/v1alpha2"),
        "apiVersion".into(),
    );
    check(manifest["kind"].as_str() == Some("Plugin"), "kind".into());
    check(
        manifest["metadata"]["name"].as_str() == Some("fleetplan"),
        "name".into(),
    );
    let spec = &manifest["spec"];
    let short = spec["shortDescription"].as_str().unwrap_or_default();
    check(
        !short.is_empty() && !short.contains(['\r', '\n']),
        "shortDescription".into(),
    );
    let version = spec["version"].as_str().unwrap_or_default();
    let semver = version.strip_prefix('v').is_some_and(|rest| {
        let core = rest.split(['-', '+']).next().unwrap_or_default();
        let parts: Vec<&str> = core.split('.').collect();
        parts.len() == 3 && parts.iter().all(|part| part.parse::<u64>().is_ok())
    });
    check(semver, format!("version {version:?}"));
    let platforms = spec["platforms"].as_sequence().cloned().unwrap_or_default();
    check(!platforms.is_empty(), "no platforms".into());
    for platform in &platforms {
        let uri = platform["uri"].as_str().unwrap_or_default();
        check(!uri.is_empty(), format!("uri of {platform:?}"));
        let sha = platform["sha256"].as_str().unwrap_or_default();
        check(
            sha.len() == 64
                && sha
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            format!("sha256 {sha:?}"),
        );
        check(
            !platform["bin"].as_str().unwrap_or_default().is_empty(),
            format!("bin of {uri}"),
        );
        let files = platform["files"].as_sequence().cloned().unwrap_or_default();
        check(!files.is_empty(), format!("files of {uri}"));
        for file in &files {
            check(
                file["from"].as_str().is_some_and(|from| !from.is_empty())
                    && file["to"].as_str().is_some_and(|to| !to.is_empty()),
                format!("file {file:?}"),
            );
        }
        let labels = platform["selector"]["matchLabels"]
            .as_mapping()
            .cloned()
            .unwrap_or_default();
        let keys: BTreeSet<&str> = labels.keys().filter_map(|key| key.as_str()).collect();
        check(
            keys == BTreeSet::from(["arch", "os"]),
            format!("selector of {uri}: {keys:?}"),
        );
    }
    problems
}

#[test]
fn the_krew_manifest_renders_with_the_release_checksums_and_passes_krews_checks() {
    let out = common::tempdir();
    pack_release(out.path(), VERSION);
    let output = render_krew(VERSION, &out.path().join("SHA256SUMS"));
    assert!(output.status.success(), "{}", stderr(&output));
    let manifest: serde_yaml::Value = serde_yaml::from_slice(&output.stdout).unwrap();
    assert_eq!(krew_problems(&manifest), Vec::<String>::new());
    assert_eq!(text(&manifest["spec"], "version"), "v0.2.0");
    let sums: BTreeMap<String, String> = fs::read_to_string(out.path().join("SHA256SUMS"))
        .unwrap()
        .lines()
        .filter_map(|line| line.split_once("  "))
        .map(|(sha, name)| (name.to_string(), sha.to_string()))
        .collect();
    let platforms = manifest["spec"]["platforms"].as_sequence().unwrap();
    assert_eq!(platforms.len(), TARGETS.len());
    for (platform, (target, os, arch, exe)) in platforms.iter().zip(TARGETS) {
        let labels = &platform["selector"]["matchLabels"];
        assert_eq!((text(labels, "os"), text(labels, "arch")), (os, arch));
        let name = archive(VERSION, target);
        assert_eq!(
            text(platform, "uri"),
            format!("https://github.com/fleetplan/fleetplan/releases/download/v0.2.0/{name}")
        );
        assert_eq!(text(platform, "sha256"), sums[&name]);
        // krew copies each `from` (a path inside the archive) to `to`, then runs `bin`.
        let inside = listing(&out.path().join(&name));
        let files = platform["files"].as_sequence().unwrap();
        for file in files {
            assert!(inside.contains(text(file, "from")), "{name}: {file:?}");
            assert_eq!(text(file, "to"), ".");
        }
        assert_eq!(text(platform, "bin"), exe);
        assert_eq!(
            text(&files[0], "from"),
            format!("fleetplan-v{VERSION}-{target}/{exe}")
        );
    }
}

#[test]
fn the_krew_manifest_is_not_rendered_without_every_checksum() {
    let out = common::tempdir();
    pack_release(out.path(), VERSION);
    let sums = out.path().join("SHA256SUMS");
    common::write(&sums, &without_lines(&sums, "windows"));
    let output = render_krew(VERSION, &sums);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    assert_stderr_has(
        &output,
        "has no checksum for fleetplan-v0.2.0-x86_64-pc-windows-msvc.tar.gz",
    );
}

/// `[package.metadata.binstall]`'s templates, filled in as cargo-binstall fills them, name an
/// archive the release ships and the binary's path inside it.
#[test]
fn binstall_metadata_matches_the_release_archives() {
    let manifest = read("Cargo.toml");
    let value = |key: &str| {
        let prefix = format!("{key} = \"");
        manifest
            .lines()
            .find_map(|line| line.strip_prefix(&prefix)?.strip_suffix('"'))
            .unwrap_or_else(|| panic!("Cargo.toml has no {key}"))
            .to_string()
    };
    let repository = value("repository");
    let out = common::tempdir();
    pack_release(out.path(), VERSION);
    for (target, _, _, exe) in TARGETS {
        let ext = if exe.ends_with(".exe") { ".exe" } else { "" };
        let fill = |template: String| {
            template
                .replace("{ repo }", &repository)
                .replace("{ name }", "fleetplan")
                .replace("{ version }", VERSION)
                .replace("{ target }", target)
                .replace("{ bin }", "fleetplan")
                .replace("{ binary-ext }", ext)
        };
        let name = archive(VERSION, target);
        assert_eq!(
            fill(value("pkg-url")),
            format!("{repository}/releases/download/v{VERSION}/{name}")
        );
        assert!(listing(&out.path().join(&name)).contains(&fill(value("bin-dir"))));
    }
    assert_eq!(value("pkg-fmt"), "tgz");
}

/// The release workflow builds, packs and renders with the scripts tested here, for the
/// targets they know.
#[test]
fn the_release_workflow_builds_every_target_with_the_dist_profile_and_the_tested_scripts() {
    let workflow: serde_yaml::Value =
        serde_yaml::from_str(&read(".github/workflows/release.yml")).unwrap();
    let matrix = workflow["jobs"]["build"]["strategy"]["matrix"]["include"]
        .as_sequence()
        .unwrap();
    let built: Vec<&str> = matrix.iter().map(|entry| text(entry, "target")).collect();
    let targets: Vec<&str> = TARGETS.iter().map(|(target, ..)| *target).collect();
    assert_eq!(built, targets);
    let text = read(".github/workflows/release.yml");
    for needle in [
        "--profile dist",
        "bash scripts/package.sh",
        "bash scripts/krew-manifest.sh",
        "SHA256SUMS",
        "gh release create",
        "ghcr.io/",
        "imagetools create",
        "20000000",
        "cargo publish --locked",
    ] {
        assert!(text.contains(needle), "release.yml lacks {needle}");
    }
    assert_eq!(
        workflow["on"]["push"]["tags"][0].as_str(),
        Some("v[0-9]+.[0-9]+.[0-9]+*")
    );
}

#[test]
fn the_action_installs_with_the_tested_script_and_runs_fleetplan_with_its_arguments() {
    let action: serde_yaml::Value = serde_yaml::from_str(&read("action.yml")).unwrap();
    assert_eq!(action["runs"]["using"].as_str(), Some("composite"));
    let inputs: Vec<&str> = action["inputs"]
        .as_mapping()
        .unwrap()
        .keys()
        .filter_map(|key| key.as_str())
        .collect();
    assert_eq!(inputs, ["version", "args"]);
    let steps = action["runs"]["steps"].as_sequence().unwrap();
    let runs: Vec<&str> = steps
        .iter()
        .filter_map(|step| step["run"].as_str())
        .collect();
    assert!(runs
        .iter()
        .any(|run| run.contains("bash \"$GITHUB_ACTION_PATH/scripts/install.sh\"")));
    assert!(steps.iter().any(|step| step["uses"]
        .as_str()
        .is_some_and(|uses| uses.starts_with("actions/cache@"))));
}

/// The action's last step turns `args` into words as a `run:` line would: quoted words stay
/// whole, so a glob for fleetplan reaches it unexpanded.
#[test]
fn the_action_passes_its_arguments_as_shell_words() {
    let action: serde_yaml::Value = serde_yaml::from_str(&read("action.yml")).unwrap();
    let steps = action["runs"]["steps"].as_sequence().unwrap();
    let last = steps.last().unwrap();
    assert_eq!(last["if"].as_str(), Some("inputs.args != ''"));
    let dir = common::tempdir();
    let args_file = dir.path().join("args");
    let fake = dir.path().join("fleetplan");
    common::write(
        &fake,
        &format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" > {}\n",
            args_file.display()
        ),
    );
    succeed(Command::new("chmod").arg("755").arg(&fake));
    succeed(
        Command::new("bash")
            .args(["-c", text(last, "run")])
            .env("FLEETPLAN", &fake)
            .env(
                "FLEETPLAN_ARGS",
                "check -f 'envs/**/*.yaml' --exclude \"vendor dir/\" -o github",
            )
            .current_dir(dir.path()),
    );
    assert_eq!(
        fs::read_to_string(args_file).unwrap(),
        "check\n-f\nenvs/**/*.yaml\n--exclude\nvendor dir/\n-o\ngithub\n"
    );
}

/// The image: a static binary on a base without a shell, a non-root user, `fleetplan` as the
/// entrypoint and `/src` (where README mounts the repository) as the working directory.
#[test]
fn the_image_runs_fleetplan_as_a_non_root_user_from_src() {
    let dockerfile = read("Dockerfile");
    let last_stage = dockerfile.rsplit("\nFROM ").next().unwrap();
    let base = last_stage.lines().next().unwrap();
    assert!(
        base.starts_with("gcr.io/distroless/static") || base == "scratch",
        "{base}"
    );
    let instruction = |name: &str| {
        last_stage
            .lines()
            .rfind(|line| line.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} in the final stage"))
            .to_string()
    };
    let user = instruction("USER ");
    let uid = user["USER ".len()..].split(':').next().unwrap();
    assert!(uid.parse::<u32>().is_ok_and(|uid| uid != 0), "{user}");
    assert_eq!(instruction("WORKDIR "), "WORKDIR /src");
    assert_eq!(instruction("ENTRYPOINT "), "ENTRYPOINT [\"fleetplan\"]");
    assert!(dockerfile.contains("--profile dist --target \"$target\""));
    assert!(dockerfile.contains("-unknown-linux-musl"));
}

/// The shell blocks README marks `<!-- install: fresh home -->`, in order.
fn fresh_home_snippets(readme: &str) -> Vec<String> {
    readme
        .split("<!-- install: fresh home -->\n")
        .skip(1)
        .map(|rest| {
            let body = rest
                .strip_prefix("```sh\n")
                .unwrap_or_else(|| panic!("a fresh-home snippet is not a sh block: {rest:.40}"));
            body.split("```").next().unwrap_or_default().to_string()
        })
        .collect()
}

/// README's install snippets, run as written by bash on an empty home directory: the release
/// archive (from a folder laid out like the release, holding this build's binary), the kubectl
/// plugin link, and the completions and manual pages from the unpacked archive.
#[test]
fn readme_install_snippets_work_on_a_fresh_home() {
    let readme = read("README.md");
    let snippets = fresh_home_snippets(&readme);
    assert_eq!(snippets.len(), 3, "{snippets:?}");
    let version = env!("CARGO_PKG_VERSION");
    let releases = common::tempdir();
    // The archives hold this build's binary through a small launcher (the debug binary is too
    // big to pack five times per test run) that keeps the name it is run as (kubectl-…).
    let launcher = releases.path().join("launcher");
    common::write(
        &launcher,
        &format!(
            "#!/usr/bin/env bash\nexec -a \"$0\" '{}' \"$@\"\n",
            env!("CARGO_BIN_EXE_fleetplan")
        ),
    );
    pack_release_of(
        &releases.path().join(format!("download/v{version}")),
        version,
        Some(&launcher),
    );
    let home = common::tempdir();
    let work = common::tempdir();
    let unpacked = work
        .path()
        .join(format!("fleetplan-v{version}-x86_64-unknown-linux-musl"));
    let bin = home.path().join(".local/bin");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for snippet in &snippets {
        let script = snippet.replace(
            "https://github.com/fleetplan/fleetplan/releases",
            &format!("file://{}", releases.path().display()),
        );
        // The completions are copied from a checkout or an unpacked archive: the latter here.
        let dir = if script.contains("completions/") {
            &unpacked
        } else {
            work.path()
        };
        succeed(
            Command::new("bash")
                .args(["-euo", "pipefail", "-c", &script])
                .env("HOME", home.path())
                .env("PATH", &path)
                .current_dir(dir),
        );
    }
    let version_line = succeed(Command::new(bin.join("fleetplan")).arg("--version"));
    assert!(common::stdout(&version_line).starts_with(&format!("fleetplan {version} (")));
    let plugin = succeed(Command::new(bin.join("kubectl-fleetplan")).arg("--help"));
    assert!(common::stdout(&plugin).contains("Usage: kubectl fleetplan [OPTIONS] <COMMAND>"));
    for installed in [
        ".local/share/bash-completion/completions/fleetplan",
        ".zfunc/_fleetplan",
        ".config/fish/completions/fleetplan.fish",
        ".local/share/man/man1/fleetplan-plan.1",
    ] {
        assert!(home.path().join(installed).is_file(), "{installed}");
    }
}

/// Every version README pins (the archive, the image, the Action, krew, pre-commit, GitLab's
/// variable, `--version`'s output) is the crate's: a version bump updates them all.
#[test]
fn readme_pins_the_crate_version_everywhere() {
    let readme = read("README.md");
    let mut pins = Vec::new();
    for prefix in [
        "version=",
        "fleetplan/fleetplan:",
        "fleetplan/fleetplan@v",
        "releases/download/v",
        "rev: v",
        "FLEETPLAN_VERSION: \"",
        "--version ",
        "# fleetplan ",
        "first release will be `v",
        "first release is `v",
    ] {
        for (at, _) in readme.match_indices(prefix) {
            let rest = &readme[at + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(rest.len());
            if rest[..end].split('.').count() == 3 {
                pins.push((prefix, &rest[..end]));
            }
        }
    }
    assert!(pins.len() >= 10, "{pins:?}");
    let stale: Vec<_> = pins
        .iter()
        .filter(|(_, version)| *version != env!("CARGO_PKG_VERSION"))
        .collect();
    assert!(stale.is_empty(), "README pins other versions: {stale:?}");
}

/// The `key=value` lines a step appended to `$GITHUB_OUTPUT`.
fn step_outputs(file: &Path) -> BTreeMap<String, String> {
    fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.split_once('='))
        .map(|(key, value)| (key.to_string(), value.to_string()))
        .collect()
}

/// Runs the action's step `id` as the runner would: its `run` script under bash with
/// `env`, the runner's variables and the files steps write their outputs and PATH to.
fn run_action_step(id: &str, env: &[(&str, String)], runner: &Path) -> BTreeMap<String, String> {
    let action: serde_yaml::Value = serde_yaml::from_str(&read("action.yml")).unwrap();
    let step = action["runs"]["steps"]
        .as_sequence()
        .unwrap()
        .iter()
        .find(|step| step["id"].as_str() == Some(id))
        .unwrap_or_else(|| panic!("action.yml has no step {id}"));
    let output = runner.join(format!("{id}.out"));
    succeed(
        Command::new("bash")
            .args([
                "--noprofile",
                "--norc",
                "-eo",
                "pipefail",
                "-c",
                text(step, "run"),
            ])
            .envs(env.iter().map(|(key, value)| (*key, value.as_str())))
            .env("GITHUB_ACTION_PATH", root())
            .env("GITHUB_OUTPUT", &output)
            .env("GITHUB_PATH", runner.join("path"))
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", "X64")
            .env("RUNNER_TOOL_CACHE", runner.join("toolcache"))
            .env("CARGO", "/nonexistent/cargo"),
    );
    step_outputs(&output)
}

/// The action's own steps, run in order: `uses: …/fleetplan@v0.2.0` resolves to that release,
/// caches it under its version, installs it from the release and puts it on PATH.
#[test]
fn the_action_at_a_release_tag_installs_that_release_and_puts_it_on_path() {
    let releases = Releases::new(&[VERSION]);
    let runner = common::tempdir();
    let resolved = run_action_step(
        "resolve",
        &[
            ("ACTION_REF", format!("v{VERSION}")),
            ("INPUT_VERSION", String::new()),
        ],
        runner.path(),
    );
    let dir = runner
        .path()
        .join(format!("toolcache/fleetplan/v{VERSION}-X64"));
    assert_eq!(
        resolved,
        BTreeMap::from([
            ("cache".to_string(), "true".to_string()),
            ("dir".to_string(), dir.display().to_string()),
            ("key".to_string(), format!("fleetplan-v{VERSION}-Linux-X64")),
            ("version".to_string(), format!("v{VERSION}")),
        ])
    );
    let installed = run_action_step(
        "install",
        &[
            ("ACTION_REPOSITORY", String::new()),
            ("CACHE_HIT", String::new()),
            ("DIR", resolved["dir"].clone()),
            ("EXPLICIT", String::new()),
            ("SERVER_URL", "https://github.com".to_string()),
            ("VERSION", resolved["version"].clone()),
            (
                "FLEETPLAN_RELEASES",
                format!("file://{}", releases.dir.path().display()),
            ),
        ],
        runner.path(),
    );
    assert_eq!(
        installed["version"],
        "fleetplan for x86_64-unknown-linux-musl"
    );
    assert_eq!(
        fs::read_to_string(runner.path().join("path")).unwrap(),
        format!("{}/bin\n", dir.display())
    );
}

/// A branch moves, so it is never cached; a commit is; odd characters never reach the path.
#[test]
fn the_action_caches_versions_and_commits_but_not_branches() {
    let commit = "0123456789abcdef0123456789abcdef01234567";
    for (reference, explicit, cache, key) in [
        ("main", "", "false", "main"),
        ("feature/x y", "", "false", "feature_x_y"),
        (commit, "", "true", commit),
        ("main", "latest", "false", "latest"),
        ("main", "0.3.0", "true", "0.3.0"),
        ("", "", "false", "source"),
    ] {
        let runner = common::tempdir();
        let resolved = run_action_step(
            "resolve",
            &[
                ("ACTION_REF", reference.to_string()),
                ("INPUT_VERSION", explicit.to_string()),
            ],
            runner.path(),
        );
        assert_eq!(resolved["cache"], cache, "{reference} {explicit}");
        assert_eq!(resolved["key"], format!("fleetplan-{key}-Linux-X64"));
        assert!(resolved["dir"].ends_with(&format!("/fleetplan/{key}-X64")));
    }
}
