//! A small fluent harness for running the real `fleetplan` binary, in the style of just's
//! integration tests:
//!
//! ```ignore
//! Test::new().args(["select", "-f", "-"]).stdin("...").stdout("a\n").status(0).run();
//! ```
//!
//! The working directory is the crate root, so `testdata/...` paths work as written.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub struct Test {
    args: Vec<String>,
    current_dir: PathBuf,
    stdin: Option<String>,
    stdout: Option<String>,
    stderr: Option<String>,
    stderr_contains: Vec<String>,
    status: i32,
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
        stdin
            .write_all(self.stdin.as_deref().unwrap_or("").as_bytes())
            .expect("stdin should accept input");
        drop(stdin);
        let output = child.wait_with_output().expect("fleetplan should finish");
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
