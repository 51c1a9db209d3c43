//! The ignore files a walk honours, read by fleetplan rather than by the walker: `.ignore`,
//! `.gitignore` and `.git/info/exclude` of each walked directory and of every directory above
//! the walked root, matched with ripgrep's precedence (`ignore` crate 0.4, `dir.rs`,
//! `Ignore::matched_ignore`: the nearest directory's `.ignore` first, then the nearest
//! `.gitignore`, then `.git/info/exclude`).
//!
//! A committed ignore file is input like a manifest, so it is read under the same rules
//! ([`open_regular`]): a symbolic link, a FIFO, a device or a socket is never opened (git reads
//! ignore files with `O_NOFOLLOW` since 2.32, `dir.c` `add_patterns(..., PATTERN_NOFOLLOW)`),
//! and an ignore file over the manifests' size limit (`--max-input-bytes`) or that would take
//! the run past [`MAX_PATTERNS`] patterns is not read. Each such file is
//! named in a warning and the walk goes on without it, as git warns ("ignoring excessively large
//! pattern file") and goes on.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;

use super::inputs::describe;
use super::LoadError;

/// The most distinct patterns one run reads from all its ignore files together; an ignore
/// file that would take it past this is not read. Every pattern becomes a compiled glob:
/// 150,000 took over a gigabyte, 10,000 take about 130 MB.
pub(super) const MAX_PATTERNS: usize = 10_000;

/// The names of a directory's ignore files, in the order their rules take precedence.
const IN_DIRECTORY: [&str; 2] = [".ignore", ".gitignore"];

/// One directory's rules: `.ignore`, `.gitignore`, `.git/info/exclude`.
struct Rules([Gitignore; 3]);

impl Rules {
    fn empty() -> Rules {
        Rules([Gitignore::empty(), Gitignore::empty(), Gitignore::empty()])
    }
}

/// The ignore rules of one walk: read once per directory, as the walk reaches it.
pub(super) struct IgnoreFiles {
    max_bytes: u64,
    /// How many more patterns this run may read ([`MAX_PATTERNS`] at its start).
    pub budget: usize,
    /// The root as walked (paths the walker yields start with it).
    root: PathBuf,
    /// The root's absolute path, which rules of the directories above it match against.
    absolute_root: PathBuf,
    /// The directories above the root, nearest first, each with its rules.
    above: Vec<Rules>,
    /// Each walked directory's rules, by its path as walked.
    walked: HashMap<PathBuf, Rules>,
    pub warnings: Vec<String>,
    pub errors: Vec<LoadError>,
    /// Ignore files already warned about (the directories above are shared by every walk).
    warned: HashSet<PathBuf>,
}

impl IgnoreFiles {
    pub(super) fn new(root: &Path, max_bytes: u64, budget: usize) -> IgnoreFiles {
        let absolute_root = fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
        let mut files = IgnoreFiles {
            max_bytes,
            budget,
            root: root.to_path_buf(),
            absolute_root: absolute_root.clone(),
            above: Vec::new(),
            walked: HashMap::new(),
            warnings: Vec::new(),
            errors: Vec::new(),
            warned: HashSet::new(),
        };
        let mut dir = absolute_root.parent();
        while let Some(parent) = dir {
            let rules = files.read(parent);
            files.above.push(rules);
            dir = parent.parent();
        }
        files
    }

    /// Whether the rules ignore `path` (as walked, under the root): the first of `.ignore`,
    /// `.gitignore` and `.git/info/exclude` that has a matching rule, each looked up from
    /// the nearest directory outwards, decides.
    pub(super) fn ignored(&mut self, path: &Path, is_dir: bool) -> Match<()> {
        let mut walked = Vec::new();
        let mut dir = path.parent();
        while let Some(parent) = dir {
            walked.push(parent.to_path_buf());
            if parent == self.root || !parent.starts_with(&self.root) {
                break;
            }
            dir = parent.parent();
        }
        for dir in &walked {
            if !self.walked.contains_key(dir) {
                let rules = self.read(dir);
                self.walked.insert(dir.clone(), rules);
            }
        }
        let relative = path.strip_prefix(&self.root).unwrap_or(path);
        let absolute = self.absolute_root.join(relative);
        let in_tree = walked.iter().filter_map(|dir| self.walked.get(dir));
        let lookups: Vec<(&Rules, &Path)> = in_tree
            .map(|rules| (rules, path))
            .chain(self.above.iter().map(|rules| (rules, absolute.as_path())))
            .collect();
        for kind in 0..3 {
            for (rules, path) in &lookups {
                match rules.0[kind].matched(path, is_dir) {
                    Match::None => {}
                    Match::Ignore(_) => return Match::Ignore(()),
                    Match::Whitelist(_) => return Match::Whitelist(()),
                }
            }
        }
        Match::None
    }

    /// The rules of `dir`'s ignore files; the files it cannot read are warned about.
    fn read(&mut self, dir: &Path) -> Rules {
        let mut rules = Rules::empty();
        for (slot, name) in IN_DIRECTORY.iter().enumerate() {
            rules.0[slot] = self.rules(dir, &dir.join(name));
        }
        if let Some(exclude) = self.exclude_file(dir) {
            rules.0[2] = self.rules(dir, &exclude);
        }
        rules
    }

    /// `.git/info/exclude` of the repository whose work tree is `dir`: in `.git` itself, or
    /// for a linked work tree (`.git` a file saying `gitdir: X`) in X's `commondir`.
    fn exclude_file(&mut self, dir: &Path) -> Option<PathBuf> {
        let git = dir.join(".git");
        let kind = fs::symlink_metadata(&git).ok()?.file_type();
        if kind.is_dir() {
            return Some(git.join("info/exclude"));
        }
        let pointer = self.contents(&git)?;
        let real = PathBuf::from(pointer.lines().next()?.strip_prefix("gitdir: ")?);
        let common = self.contents(&real.join("commondir"))?;
        let common = common.lines().next()?;
        let common = if common.starts_with('.') {
            real.join(common)
        } else {
            PathBuf::from(common)
        };
        Some(common.join("info/exclude"))
    }

    /// The rules in the ignore file `file` of `dir`; none when it is missing or unread.
    fn rules(&mut self, dir: &Path, file: &Path) -> Gitignore {
        let Some(text) = self.contents(file) else {
            return Gitignore::empty();
        };
        // A pattern repeated is shadowed by its last copy (the last match decides): only that
        // one is kept.
        let lines: Vec<&str> = text.lines().collect();
        let mut seen = HashSet::new();
        let mut keep = vec![false; lines.len()];
        for (index, line) in lines.iter().enumerate().rev() {
            let pattern = line.trim_start_matches('\u{feff}');
            keep[index] = !is_blank_or_comment(pattern) && seen.insert(pattern);
            if seen.len() > self.budget {
                let message = format!(
                    "over the limit of {MAX_PATTERNS} patterns in all ignore files together"
                );
                self.warn(file, &message);
                return Gitignore::empty();
            }
        }
        self.budget -= seen.len();
        let mut builder = GitignoreBuilder::new(dir);
        for (index, line) in lines.iter().enumerate() {
            if !keep[index] {
                continue;
            }
            let line = if index == 0 {
                line.trim_start_matches('\u{feff}')
            } else {
                line
            };
            if let Err(error) = builder.add_line(Some(file.to_path_buf()), line) {
                let message = format!("line {}: {}", index + 1, glob_error(&error));
                self.errors.push(LoadError::input(&display(file), message));
            }
        }
        builder.build().unwrap_or_else(|error| {
            self.errors
                .push(LoadError::input(&display(file), glob_error(&error)));
            Gitignore::empty()
        })
    }

    /// An ignore file's text, read as [`open_regular`] allows; `None` when it is missing or
    /// refused (then with a warning).
    fn contents(&mut self, file: &Path) -> Option<String> {
        let opened = match open_regular(file, self.max_bytes, Follow::Never) {
            Ok(opened) => opened,
            Err(Refused::Missing) => return None,
            Err(refused) => {
                self.warn(file, &refused.to_string());
                return None;
            }
        };
        let mut bytes = Vec::new();
        if let Err(error) = opened.take(self.max_bytes).read_to_end(&mut bytes) {
            self.warn(file, &describe(&error));
            return None;
        }
        Some(String::from_utf8_lossy(&bytes).into_owned())
    }

    fn warn(&mut self, file: &Path, what: &str) {
        if self.warned.insert(file.to_path_buf()) {
            self.warnings
                .push(format!("{}: ignore file not read: {what}", display(file)));
        }
    }
}

fn is_blank_or_comment(line: &str) -> bool {
    line.trim().is_empty() || line.starts_with('#')
}

fn glob_error(error: &ignore::Error) -> String {
    match error {
        ignore::Error::Glob { err, .. } => format!("invalid glob: {err}"),
        other => other.to_string(),
    }
}

/// A path as errors name it: `./a/.gitignore` as `a/.gitignore`.
fn display(path: &Path) -> String {
    path.strip_prefix(".")
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// Whether [`open_regular`] opens a symbolic link's target.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Follow {
    /// Manifests found by walking: a link inside the walked tree is read as its target.
    Links,
    /// Ignore files: a link is refused, as git refuses it.
    Never,
}

/// Why a file found by walking was not opened.
#[derive(Debug)]
pub(super) enum Refused {
    Missing,
    /// Not a regular file: what it is.
    NotRegular(&'static str),
    TooLarge(u64),
    Io(io::Error),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Missing => f.write_str("no such file or directory"),
            Refused::NotRegular(what) => write!(f, "{what}, not a regular file: not opened"),
            Refused::TooLarge(limit) => write!(
                f,
                "larger than the limit of {limit} bytes (raise it with --max-input-bytes)"
            ),
            Refused::Io(error) => f.write_str(&describe(error)),
        }
    }
}

/// Opens `path` for reading only when it is a regular file of at most `max_bytes`: a FIFO
/// (whose opening blocks until a writer comes), a device (`/dev/zero` never ends), a socket
/// or, with [`Follow::Never`], a symbolic link is refused unopened. The type is checked before
/// opening and again on what was opened (without blocking), so a file swapped in between is
/// refused too.
pub(super) fn open_regular(
    path: &Path,
    max_bytes: u64,
    follow: Follow,
) -> Result<fs::File, Refused> {
    let metadata = match follow {
        Follow::Links => fs::metadata(path),
        Follow::Never => fs::symlink_metadata(path),
    };
    let metadata = metadata.map_err(|error| match error.kind() {
        io::ErrorKind::NotFound => Refused::Missing,
        _ => Refused::Io(error),
    })?;
    check_regular(&metadata, max_bytes)?;
    let file = open_without_blocking(path, follow).map_err(Refused::Io)?;
    check_regular(&file.metadata().map_err(Refused::Io)?, max_bytes)?;
    Ok(file)
}

fn check_regular(metadata: &fs::Metadata, max_bytes: u64) -> Result<(), Refused> {
    let kind = metadata.file_type();
    if !kind.is_file() {
        return Err(Refused::NotRegular(what_it_is(kind)));
    }
    if metadata.len() > max_bytes {
        return Err(Refused::TooLarge(max_bytes));
    }
    Ok(())
}

#[cfg(unix)]
fn open_without_blocking(path: &Path, follow: Follow) -> io::Result<fs::File> {
    use rustix::fs::{Mode, OFlags};
    let mut flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    if follow == Follow::Never {
        flags |= OFlags::NOFOLLOW;
    }
    let fd = rustix::fs::open(path, flags, Mode::empty())?;
    Ok(fs::File::from(fd))
}

#[cfg(not(unix))]
fn open_without_blocking(path: &Path, _follow: Follow) -> io::Result<fs::File> {
    fs::File::open(path)
}

/// What a path that is not a regular file is.
pub(super) fn what_it_is(kind: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}
