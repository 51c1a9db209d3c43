//! Turning `-f` arguments into the bytes of each input: a file, a directory (recursively,
//! `*.yaml|*.yml|*.json`, sorted), a glob matched while walking (so `envs/**/*.yaml` works
//! without the shell's globstar), or `-` for stdin.
//!
//! Directories and globs are walked with ripgrep's walker (the `ignore` crate), by its rules:
//! hidden files and directories are left out unless asked for, `.gitignore` (and `.ignore`,
//! `.git/info/exclude`) files are honoured, and `--exclude` globs prune paths. The ignore files
//! are read by [`super::ignore_files`], under the limits manifests have, never by the walker.
//! What walking finds that is not a regular file (a FIFO, a socket, a device) is skipped
//! without being opened: opening a FIFO blocks until something writes to it. A symbolic link
//! found by walking is followed only when its target is inside the walked tree (a committed
//! `root -> /` would walk the machine); one that leaves it is named in a warning. A file or
//! link named explicitly is read whatever it is (`-f <(kubectl get …)` is a pipe).

use std::collections::HashSet;
use std::fs;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use globset::GlobBuilder;
use ignore::overrides::{Override, OverrideBuilder};
use ignore::{DirEntry, Match, WalkBuilder};

use super::ignore_files::{open_regular, what_it_is, Follow, IgnoreFiles, Refused, MAX_PATTERNS};
use super::LoadError;

/// The name errors use for standard input.
pub(crate) const STDIN_NAME: &str = "<stdin>";

/// How to parse an input's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Syntax {
    Yaml,
    Json,
    /// Standard input and files without a known extension: JSON when the first
    /// non-blank character opens an object, as kubectl's YAMLOrJSONDecoder decides.
    Sniff,
}

/// One file's (or stdin's) content, named as the user will see it in errors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
    pub syntax: Syntax,
    /// Found by walking a directory or a glob rather than named: its documents without
    /// `apiVersion` and `kind` are skipped as not Kubernetes objects (a CI file, a template).
    pub walked: bool,
}

/// How directories and globs are walked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WalkOptions {
    /// Also walk hidden files and directories (`--hidden`).
    pub hidden: bool,
    /// gitignore-style globs of paths to leave out (`--exclude`), relative to each walked
    /// directory (a glob's fixed leading directories).
    pub exclude: Vec<String>,
}

/// Everything `-f` arguments named.
#[derive(Debug, Default)]
pub(super) struct ReadInputs {
    pub inputs: Vec<Input>,
    pub errors: Vec<LoadError>,
    /// What walking found that is not a regular file: (path, what it is). Never opened.
    pub skipped: Vec<(String, String)>,
    /// Ignore files not read and symbolic links not followed, each once.
    pub warnings: Vec<String>,
}

/// Reads every input named by `paths`, in argument order; directories and globs expand to
/// their files in sorted path order. Problems are collected, not fatal, so one run reports
/// every unreadable path.
pub(super) fn read_inputs(
    paths: &[String],
    stdin: &mut dyn Read,
    max_bytes: u64,
    walk: &WalkOptions,
) -> ReadInputs {
    let mut reader = Reader {
        max_bytes,
        ignore_budget: MAX_PATTERNS,
        walk: walk.clone(),
        read: ReadInputs::default(),
        stdin_read: false,
    };
    // A bad --exclude would otherwise be reported once per walked directory.
    if let Err(error) = reader.excludes(Path::new(".")) {
        reader.read.errors.push(error);
        return reader.read;
    }
    for path in paths {
        reader.argument(path, stdin);
    }
    reader.read
}

struct Reader {
    max_bytes: u64,
    /// Patterns the ignore files of later walks may still add (shared by every walk).
    ignore_budget: usize,
    walk: WalkOptions,
    read: ReadInputs,
    stdin_read: bool,
}

impl Reader {
    fn argument(&mut self, argument: &str, stdin: &mut dyn Read) {
        if argument == "-" {
            self.stdin(stdin);
            return;
        }
        let path = Path::new(argument);
        match fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => {
                let errors_before = self.read.errors.len();
                let files = self.walk(path, &has_manifest_extension);
                if files.is_empty() && self.read.errors.len() == errors_before {
                    self.read.errors.push(LoadError::input(
                        argument,
                        "directory has no .yaml, .yml or .json files",
                    ));
                }
                self.read_files(files);
            }
            Ok(_) => self.read_file(path, false),
            Err(error) if error.kind() == io::ErrorKind::NotFound && is_glob(argument) => {
                self.glob(argument);
            }
            Err(error) => self
                .read
                .errors
                .push(LoadError::input(argument, describe(&error))),
        }
    }

    fn stdin(&mut self, stdin: &mut dyn Read) {
        if self.stdin_read {
            self.read.errors.push(LoadError::input(
                STDIN_NAME,
                "standard input (-) given more than once",
            ));
            return;
        }
        self.stdin_read = true;
        if let Some(bytes) = self.read_limited(STDIN_NAME, stdin, 0) {
            self.read.inputs.push(Input {
                name: STDIN_NAME.to_string(),
                bytes,
                syntax: Syntax::Sniff,
                walked: false,
            });
        }
    }

    fn glob(&mut self, pattern: &str) {
        let matcher = match GlobBuilder::new(pattern).literal_separator(true).build() {
            Ok(glob) => glob.compile_matcher(),
            Err(error) => {
                let message = format!("invalid glob: {}", error.kind());
                self.read.errors.push(LoadError::input(pattern, message));
                return;
            }
        };
        let base = glob_base(pattern);
        if !base.is_dir() {
            self.read
                .errors
                .push(LoadError::input(pattern, "no files match"));
            return;
        }
        let errors_before = self.read.errors.len();
        let files = self.walk(&base, &|file| matcher.is_match(file));
        if files.is_empty() && self.read.errors.len() == errors_before {
            self.read
                .errors
                .push(LoadError::input(pattern, "no files match"));
        }
        self.read_files(files);
    }

    /// Every regular file under `root` that `wanted` accepts and the walk's rules keep,
    /// sorted by path. Symbolic links inside the tree are followed; a link back to a directory
    /// being walked is reported as a loop, and a file reached twice is read once.
    fn walk(&mut self, root: &Path, wanted: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
        let excludes = match self.excludes(root) {
            Ok(excludes) => excludes,
            Err(error) => {
                self.read.errors.push(error);
                return Vec::new();
            }
        };
        let rules = Arc::new(Mutex::new(WalkRules::new(
            root,
            self.max_bytes,
            self.ignore_budget,
            self.walk.hidden,
        )));
        let filter = Arc::clone(&rules);
        let walker = WalkBuilder::new(root)
            .follow_links(true)
            // Warnings come in path order, whatever order the directory lists its entries in.
            .sort_by_file_name(Ord::cmp)
            // Ignore files and hidden paths are WalkRules' to judge: the walker would open
            // a `.gitignore` whatever it is, even in a directory it then skips.
            .hidden(false)
            .parents(false)
            .ignore(false)
            .git_ignore(false)
            .git_exclude(false)
            // The same files are read on a laptop and in CI: no user-wide ignore file.
            .git_global(false)
            .overrides(excludes)
            .filter_entry(move |entry| {
                filter
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .keep(entry)
            })
            .build();
        let mut files = Vec::new();
        for entry in walker {
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) => {
                    self.walk_error(&error, wanted);
                    continue;
                }
            };
            let path = strip_current_dir(entry.path());
            match entry.file_type() {
                Some(kind) if kind.is_dir() => {}
                _ if !wanted(&path) => {}
                Some(kind) if kind.is_file() => files.push(path),
                kind => self.read.skipped.push((display(&path), not_regular(kind))),
            }
        }
        let mut rules = rules.lock().unwrap_or_else(PoisonError::into_inner);
        let WalkRules {
            ignore_files,
            outside,
            ..
        } = &mut *rules;
        self.read.errors.append(&mut ignore_files.errors);
        self.ignore_budget = ignore_files.budget;
        let warnings = ignore_files.warnings.drain(..).chain(outside.drain(..));
        for warning in warnings {
            if !self.read.warnings.contains(&warning) {
                self.read.warnings.push(warning);
            }
        }
        files.sort();
        let mut seen = HashSet::new();
        files.retain(|file| seen.insert(fs::canonicalize(file).unwrap_or_else(|_| file.clone())));
        files
    }

    /// The `--exclude` globs, as ignore rules of the directory `root`; `.git` (a checkout's
    /// own database, walked with `--hidden`) is always left out.
    fn excludes(&self, root: &Path) -> Result<Override, LoadError> {
        let mut builder = OverrideBuilder::new(root);
        for glob in [".git/"]
            .into_iter()
            .chain(self.walk.exclude.iter().map(String::as_str))
        {
            builder.add(&format!("!{glob}")).map_err(|error| {
                let message = match error {
                    ignore::Error::Glob { err, .. } => format!("invalid glob: {err}"),
                    other => other.to_string(),
                };
                LoadError::input(&format!("--exclude {glob}"), message)
            })?;
        }
        builder
            .build()
            .map_err(|error| LoadError::input("--exclude", error.to_string()))
    }

    fn walk_error(&mut self, error: &ignore::Error, wanted: &dyn Fn(&Path) -> bool) {
        // The walker wraps the cause in where (path) and how deep it happened.
        let (mut path, mut cause) = (None, error);
        loop {
            match cause {
                ignore::Error::WithPath { path: at, err } => {
                    path = Some(strip_current_dir(at));
                    cause = err;
                }
                ignore::Error::WithDepth { err, .. }
                | ignore::Error::WithLineNumber { err, .. } => {
                    cause = err;
                }
                _ => break,
            }
        }
        let (path, message) = match (cause, path) {
            (ignore::Error::Loop { ancestor, child }, _) => {
                let ancestor = fs::canonicalize(ancestor).unwrap_or_else(|_| ancestor.clone());
                let message = format!("symbolic link loop: leads back to {}", ancestor.display());
                (strip_current_dir(child), message)
            }
            // A dangling link only matters when it looks like an input.
            (ignore::Error::Io(io), Some(path))
                if io.kind() == io::ErrorKind::NotFound && !wanted(&path) =>
            {
                return;
            }
            (ignore::Error::Io(io), Some(path)) => (path, describe(io)),
            (other, path) => (path.unwrap_or_default(), other.to_string()),
        };
        self.read
            .errors
            .push(LoadError::input(&display(&path), message));
    }

    fn read_files(&mut self, files: Vec<PathBuf>) {
        for file in files {
            self.read_file(&file, true);
        }
    }

    fn read_file(&mut self, path: &Path, walked: bool) {
        let name = display(path);
        let opened = if walked {
            // Found by walking: only a regular file is opened (it may have been swapped for a
            // FIFO since the walk saw it).
            open_regular(path, self.max_bytes, Follow::Links)
        } else {
            fs::File::open(path).map_err(Refused::Io)
        };
        let mut file = match opened {
            Ok(file) => file,
            Err(Refused::NotRegular(what)) => {
                let what = Refused::NotRegular(what).to_string();
                return self.read.skipped.push((name, what));
            }
            Err(Refused::TooLarge(_)) => return self.read.errors.push(self.too_large(&name)),
            Err(refused) => {
                return self
                    .read
                    .errors
                    .push(LoadError::input(&name, refused.to_string()))
            }
        };
        // A regular file's size is known up front: refuse it before reading a byte, else read
        // it into a buffer of that size (one that grows as it reads copied a 40 MB inventory
        // about twice over, on one core before anything else).
        let mut size = 0;
        if let Ok(metadata) = file.metadata() {
            if metadata.is_file() && metadata.len() > self.max_bytes {
                return self.read.errors.push(self.too_large(&name));
            }
            if metadata.is_file() {
                size = usize::try_from(metadata.len()).unwrap_or_default();
            }
        }
        if let Some(bytes) = self.read_limited(&name, &mut file, size) {
            self.read.inputs.push(Input {
                syntax: syntax_of(path),
                name,
                bytes,
                walked,
            });
        }
    }

    /// At most the limit's bytes of `source` (one more says it is over), into a buffer with
    /// room for `expected` and the byte that says the end was reached.
    fn read_limited(
        &mut self,
        name: &str,
        source: &mut dyn Read,
        expected: usize,
    ) -> Option<Vec<u8>> {
        let mut bytes = Vec::with_capacity(expected.saturating_add(1));
        match source
            .take(self.max_bytes.saturating_add(1))
            .read_to_end(&mut bytes)
        {
            Ok(read) if u64::try_from(read).map_or(true, |read| read > self.max_bytes) => {
                self.read.errors.push(self.too_large(name));
                None
            }
            Ok(_) => Some(bytes),
            Err(error) => {
                self.read
                    .errors
                    .push(LoadError::input(name, describe(&error)));
                None
            }
        }
    }

    fn too_large(&self, name: &str) -> LoadError {
        let message = format!(
            "larger than the limit of {} bytes (raise it with --max-input-bytes)",
            self.max_bytes
        );
        LoadError::input(name, message)
    }
}

fn has_manifest_extension(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|extension| extension.to_str()),
        Some("yaml" | "yml" | "json")
    )
}

/// What a walked path that is neither a file nor a directory is, for `--verbose`.
fn not_regular(kind: Option<fs::FileType>) -> String {
    match kind {
        Some(kind) => Refused::NotRegular(what_it_is(kind)).to_string(),
        None => "not a regular file: not opened".to_string(),
    }
}

/// What one walk keeps: its ignore files' rules, hidden paths only when asked for, and
/// symbolic links only when they stay inside the walked tree.
struct WalkRules {
    ignore_files: IgnoreFiles,
    hidden: bool,
    /// The walked root with its links resolved, which a followed link must stay under.
    tree: Option<PathBuf>,
    /// A warning for each link not followed.
    outside: Vec<String>,
}

impl WalkRules {
    fn new(root: &Path, max_bytes: u64, budget: usize, hidden: bool) -> WalkRules {
        WalkRules {
            ignore_files: IgnoreFiles::new(root, max_bytes, budget),
            hidden,
            tree: fs::canonicalize(root).ok(),
            outside: Vec::new(),
        }
    }

    fn keep(&mut self, entry: &DirEntry) -> bool {
        let path = entry.path();
        let is_dir = entry.file_type().is_some_and(|kind| kind.is_dir());
        let kept = match self.ignore_files.ignored(path, is_dir) {
            Match::Ignore(()) => false,
            Match::Whitelist(()) => true,
            Match::None => self.hidden || !is_hidden(path),
        };
        if !kept || !entry.path_is_symlink() {
            return kept;
        }
        // A dangling link resolves to nothing: the walk reports it when it matters.
        let (Some(tree), Ok(target)) = (&self.tree, fs::canonicalize(path)) else {
            return true;
        };
        if target.starts_with(tree) {
            return true;
        }
        self.outside.push(format!(
            "{}: a symbolic link out of the walked tree (to {}): not followed (name it with -f \
             to read it)",
            display(&strip_current_dir(path)),
            target.display()
        ));
        false
    }
}

/// Hidden as ripgrep hides it: a name starting with a dot.
fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|name| name.to_string_lossy().starts_with('.'))
}

pub(super) fn syntax_of(path: &Path) -> Syntax {
    match path.extension().and_then(|extension| extension.to_str()) {
        Some("yaml" | "yml") => Syntax::Yaml,
        Some("json") => Syntax::Json,
        _ => Syntax::Sniff,
    }
}

fn is_glob(argument: &str) -> bool {
    argument.contains(['*', '?', '[', '{'])
}

/// The directory to walk for a glob: its leading components without glob characters.
fn glob_base(pattern: &str) -> PathBuf {
    let mut base = PathBuf::new();
    let components: Vec<Component<'_>> = Path::new(pattern).components().collect();
    // The last component names files, even when it has no glob characters of its own.
    let directories = components.len().saturating_sub(1);
    for component in components.into_iter().take(directories) {
        if is_glob(&component.as_os_str().to_string_lossy()) {
            break;
        }
        base.push(component);
    }
    if base.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        base
    }
}

/// `./a.yaml` → `a.yaml`, so a glob like `*.yaml` matches what walking `.` finds.
fn strip_current_dir(path: &Path) -> PathBuf {
    path.strip_prefix(".")
        .map_or_else(|_| path.to_path_buf(), Path::to_path_buf)
}

fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// io::Error texts, lower-case and without the OS error number.
pub(super) fn describe(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "no such file or directory".to_string(),
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        io::ErrorKind::IsADirectory => "is a directory".to_string(),
        io::ErrorKind::InvalidData => "stream did not contain valid data".to_string(),
        _ => {
            let text = error.to_string();
            let text = text.split(" (os error").next().unwrap_or(&text);
            let mut chars = text.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_lowercase().chain(chars).collect()
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, relative: &str, text: &str) {
        let path = root.join(relative);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).unwrap_or_else(|error| panic!("{error}"));
        }
        fs::write(path, text).unwrap_or_else(|error| panic!("{error}"));
    }

    fn names(inputs: &[Input], root: &Path) -> Vec<String> {
        let prefix = format!("{}/", root.display());
        inputs
            .iter()
            .map(|input| input.name.trim_start_matches(&prefix).to_string())
            .collect()
    }

    fn read(paths: &[String]) -> (Vec<Input>, Vec<LoadError>) {
        read_walking(paths, &WalkOptions::default())
    }

    fn read_walking(paths: &[String], walk: &WalkOptions) -> (Vec<Input>, Vec<LoadError>) {
        let read = read_inputs(paths, &mut io::empty(), 1 << 20, walk);
        (read.inputs, read.errors)
    }

    fn tempdir() -> tempfile::TempDir {
        tempfile::tempdir().unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn directories_are_read_recursively_in_sorted_path_order() {
        let dir = tempdir();
        write(dir.path(), "b.yaml", "");
        write(dir.path(), "a/z.yml", "");
        write(dir.path(), "a.json", "");
        write(dir.path(), "a/b/c.yaml", "");
        write(dir.path(), "notes.txt", "");
        let (inputs, errors) = read(&[display(dir.path())]);
        assert_eq!(errors, []);
        assert_eq!(
            names(&inputs, dir.path()),
            ["a/b/c.yaml", "a/z.yml", "a.json", "b.yaml"]
        );
    }

    #[test]
    fn file_extension_decides_the_syntax() {
        let dir = tempdir();
        write(dir.path(), "a.json", "");
        write(dir.path(), "b.yml", "");
        let (inputs, _) = read(&[display(dir.path())]);
        let syntaxes: Vec<Syntax> = inputs.iter().map(|input| input.syntax).collect();
        assert_eq!(syntaxes, [Syntax::Json, Syntax::Yaml]);
    }

    #[test]
    fn globs_match_across_directories_with_double_star() {
        let dir = tempdir();
        write(dir.path(), "envs/prod/a.yaml", "");
        write(dir.path(), "envs/prod/deep/b.yaml", "");
        write(dir.path(), "envs/dev/c.json", "");
        write(dir.path(), "envs/top.yaml", "");
        let pattern = format!("{}/envs/**/*.yaml", dir.path().display());
        let (inputs, errors) = read(&[pattern]);
        assert_eq!(errors, []);
        assert_eq!(
            names(&inputs, dir.path()),
            ["envs/prod/a.yaml", "envs/prod/deep/b.yaml", "envs/top.yaml"]
        );
    }

    #[test]
    fn single_star_does_not_cross_directories() {
        let dir = tempdir();
        write(dir.path(), "envs/a.yaml", "");
        write(dir.path(), "envs/sub/b.yaml", "");
        let pattern = format!("{}/envs/*.yaml", dir.path().display());
        let (inputs, _) = read(&[pattern]);
        assert_eq!(names(&inputs, dir.path()), ["envs/a.yaml"]);
    }

    #[test]
    fn glob_without_matches_is_an_error() {
        let dir = tempdir();
        let pattern = format!("{}/*.yaml", dir.path().display());
        let (inputs, errors) = read(std::slice::from_ref(&pattern));
        assert_eq!(inputs, []);
        assert_eq!(errors, [LoadError::input(&pattern, "no files match")]);
    }

    #[test]
    fn missing_file_is_an_error() {
        let (_, errors) = read(&["/nonexistent/fleet.yaml".to_string()]);
        assert_eq!(
            errors,
            [LoadError::input(
                "/nonexistent/fleet.yaml",
                "no such file or directory"
            )]
        );
    }

    #[test]
    fn stdin_is_read_for_a_dash() {
        let mut stdin: &[u8] = b"kind: List\n";
        let read = read_inputs(
            &["-".to_string()],
            &mut stdin,
            1 << 20,
            &WalkOptions::default(),
        );
        let (inputs, errors) = (read.inputs, read.errors);
        assert_eq!(errors, []);
        assert_eq!(
            inputs,
            [Input {
                name: STDIN_NAME.to_string(),
                bytes: b"kind: List\n".to_vec(),
                syntax: Syntax::Sniff,
                walked: false,
            }]
        );
    }

    #[test]
    fn stdin_twice_is_an_error() {
        let (_, errors) = read(&["-".to_string(), "-".to_string()]);
        assert_eq!(
            errors,
            [LoadError::input(
                STDIN_NAME,
                "standard input (-) given more than once"
            )]
        );
    }

    #[test]
    fn inputs_over_the_size_limit_are_errors() {
        let mut stdin: &[u8] = b"0123456789";
        let read = read_inputs(&["-".to_string()], &mut stdin, 4, &WalkOptions::default());
        let (inputs, errors) = (read.inputs, read.errors);
        assert_eq!(inputs, []);
        assert_eq!(
            errors,
            [LoadError::input(
                STDIN_NAME,
                "larger than the limit of 4 bytes (raise it with --max-input-bytes)"
            )]
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loops_are_errors_not_hangs() {
        let dir = tempdir();
        write(dir.path(), "fleet/a.yaml", "");
        let link = dir.path().join("fleet/again");
        std::os::unix::fs::symlink(dir.path().join("fleet"), &link)
            .unwrap_or_else(|error| panic!("{error}"));
        let (inputs, errors) = read(&[display(&dir.path().join("fleet"))]);
        assert_eq!(names(&inputs, dir.path()), ["fleet/a.yaml"]);
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0]
                .to_string()
                .contains("fleet/again: symbolic link loop: leads back to"),
            "{}",
            errors[0]
        );
    }

    #[test]
    fn empty_directory_is_an_error() {
        let dir = tempdir();
        let name = display(dir.path());
        let (_, errors) = read(std::slice::from_ref(&name));
        assert_eq!(
            errors,
            [LoadError::input(
                &name,
                "directory has no .yaml, .yml or .json files"
            )]
        );
    }
}
