//! A small fluent harness for running the real `fleetplan` binary, in the style of just's
//! integration tests:
//!
//! ```ignore
//! Test::new().args(["select", "-f", "-"]).stdin("...").stdout("a\n").status(0).run();
//! ```
//!
//! The working directory is the crate root, so `testdata/...` paths work as written.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

pub struct Test {
    args: Vec<String>,
    current_dir: PathBuf,
    stdin: Option<String>,
    stdout: Option<String>,
    stderr: Option<String>,
    stderr_contains: Vec<String>,
    status: i32,
    within: Option<Duration>,
}

impl Default for Test {
    fn default() -> Self {
        Test::new()
    }
}

impl Test {
    /// Expects success and, unless told otherwise, an empty stderr.
    pub fn new() -> Test {
        Test {
            args: Vec::new(),
            current_dir: PathBuf::from(env!("CARGO_MANIFEST_DIR")),
            stdin: None,
            stdout: None,
            stderr: Some(String::new()),
            stderr_contains: Vec::new(),
            status: 0,
            within: None,
        }
    }

    pub fn arg(mut self, arg: impl Into<String>) -> Test {
        self.args.push(arg.into());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Test
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Test {
        self.current_dir = dir.as_ref().to_path_buf();
        self
    }

    pub fn stdin(mut self, stdin: impl Into<String>) -> Test {
        self.stdin = Some(stdin.into());
        self
    }

    /// The exact stdout expected.
    pub fn stdout(mut self, stdout: impl Into<String>) -> Test {
        self.stdout = Some(stdout.into());
        self
    }

    /// The exact stderr expected.
    pub fn stderr(mut self, stderr: impl Into<String>) -> Test {
        self.stderr = Some(stderr.into());
        self
    }

    /// A fragment stderr must contain (instead of an exact stderr).
    pub fn stderr_contains(mut self, fragment: impl Into<String>) -> Test {
        self.stderr = None;
        self.stderr_contains.push(fragment.into());
        self
    }

    pub fn status(mut self, status: i32) -> Test {
        self.status = status;
        self
    }

    /// For inputs that crashed or hung the tool: the run must end by itself within `seconds`
    /// (a bound on hanging, not a speed test: it is far above the normal time). Past it the
    /// process is killed and the test fails.
    pub fn within(mut self, seconds: u64) -> Test {
        self.within = Some(Duration::from_secs(seconds));
        self
    }

    /// Runs the binary and checks every expectation; returns the output for further checks.
    pub fn run(self) -> Output {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fleetplan"))
            .args(&self.args)
            .current_dir(&self.current_dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("fleetplan should start");
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let input = self.stdin.clone().unwrap_or_default();
        // Written and read on their own threads, so a child that stops reading or floods
        // its output cannot stall the harness before the time bound applies.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let stdout = drain(child.stdout.take().expect("stdout is piped"));
        let stderr = drain(child.stderr.take().expect("stderr is piped"));
        let status = wait(&mut child, self.within, &self.args);
        let _ = writer.join();
        let output = Output {
            status,
            stdout: stdout.join().expect("stdout reader"),
            stderr: stderr.join().expect("stderr reader"),
        };
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let context = format!(
            "args: {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
            self.args
        );
        assert_eq!(
            output.status.code(),
            Some(self.status),
            "exit status\n{context}"
        );
        if let Some(expected) = &self.stdout {
            assert_eq!(&stdout, expected, "stdout\n{context}");
        }
        if let Some(expected) = &self.stderr {
            assert_eq!(&stderr, expected, "stderr\n{context}");
        }
        for fragment in &self.stderr_contains {
            assert!(
                stderr.contains(fragment.as_str()),
                "stderr lacks {fragment:?}\n{context}"
            );
        }
        output
    }
}

fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
}

/// The child's exit status; with a bound, kills it and fails once the bound has passed.
fn wait(child: &mut Child, within: Option<Duration>, args: &[String]) -> ExitStatus {
    let Some(within) = within else {
        return child.wait().expect("fleetplan should finish");
    };
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("fleetplan's status") {
            return status;
        }
        if start.elapsed() > within {
            let _ = child.kill();
            let _ = child.wait();
            panic!("fleetplan did not exit by itself within {within:?}: args {args:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The `--now` of the testdata/ci stories and their committed plan: the example fleet plans
/// the same at any time, but runs pin it.
pub const CI_NOW: [&str; 2] = ["--now", "2026-03-01T00:00:00Z"];

/// A run's stdout as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// One cluster, `east`, in the cluster set `default`, which is bound to the namespace `ns`:
/// a Placement in `ns` is evaluated against it.
pub const ONE_BOUND_CLUSTER: &str = "apiVersion: fleetplan.io/v1alpha1
kind: ClusterInventory
metadata: {name: fleet}
clusters:
  - {name: east, labels: {cluster.open-cluster-management.io/clusterset: default}}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSet
metadata: {name: default}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSetBinding
metadata: {name: default, namespace: ns}
spec: {clusterSet: default}
";

/// A temporary directory, removed when dropped.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|error| panic!("temporary directory: {error}"))
}

/// Writes a fixture file, failing the test with its path when it cannot.
pub fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
}

/// Every file below `dir`, as a path relative to it with `/` between folders, sorted.
pub fn files_under(dir: &Path) -> Vec<String> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        for name in entries(dir) {
            let path = dir.join(&name);
            let relative = format!("{prefix}{name}");
            if path.is_dir() {
                walk(&path, &format!("{relative}/"), out);
            } else {
                out.push(relative);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, "", &mut out);
    out.sort();
    out
}

/// The names in `dir`, sorted: what a run left behind.
pub fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| {
            let entry = entry.unwrap_or_else(|error| panic!("{error}"));
            entry.file_name().to_string_lossy().into_owned()
        })
        .collect();
    names.sort();
    names
}

/// Whether this run rewrites golden files instead of comparing with them: `FLEETPLAN_BLESS=1`,
/// the one switch for every golden file (`just bless` also sets insta's `INSTA_UPDATE`).
pub fn blessing() -> bool {
    std::env::var_os("FLEETPLAN_BLESS").is_some()
}

/// Compares `actual` with the golden file at `path`, or rewrites it when [`blessing`].
pub fn golden(path: &Path, actual: &str) {
    if blessing() {
        std::fs::write(path, actual).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|error| {
        panic!("{}: {error} (FLEETPLAN_BLESS=1 writes it)", path.display())
    });
    assert_eq!(
        actual,
        expected,
        "{} (FLEETPLAN_BLESS=1 rewrites it; review the diff)",
        path.display()
    );
}
