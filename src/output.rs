//! Writing output files so that nothing is ever half-written: the content is staged next to
//! the destination (same directory, so same filesystem), flushed to disk, then renamed into
//! place. A run that fails before the rename leaves the previous output byte-identical.
//!
//! Staged paths are named `.fleetplan-tmp-<pid>-<target>`. SIGINT, SIGTERM and SIGHUP remove
//! them before the process ends (`interrupt.rs`); a run killed otherwise (SIGKILL, power loss)
//! leaves something recognisable, and the next write to the same target removes those whose
//! process no longer runs.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::interrupt::{self, Staged};

const TEMP_PREFIX: &str = ".fleetplan-tmp-";

/// What a streamed output gathers before each write: few system calls for a plan of hundreds
/// of megabytes, little memory.
pub(crate) const BUFFER_BYTES: usize = 256 * 1024;

#[cfg(test)]
/// Replaces the file at `path` with `contents`, or leaves it as it was.
pub(crate) fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_atomic_with(path, |file| file.write_all(contents))
}

/// Replaces the file at `path` with what `write` writes (through a buffer), or leaves it as it
/// was: a `write` that fails midway (on the disk, or with an error of its own such as an item
/// it cannot render), or a full disk, leaves neither a half-written `path` nor the staged file.
pub(crate) fn write_atomic_with<E: From<io::Error>>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), E> {
    let resolved = regular_target(path)?;
    let path = resolved.as_path();
    let (dir, target) = split(path)?;
    remove_stale(&dir, &target);
    let temp = dir.join(temp_name(&target));
    // Created, never opened: a link planted under the staged name (or left by a killed run
    // whose process id this one reuses) is removed rather than followed, and one that comes
    // back before the creation makes it fail instead of truncating whatever it points at.
    let _ = fs::remove_file(&temp);
    // Removed when dropped (after a failed write) and by SIGINT, SIGTERM or SIGHUP.
    let (staged, created) = interrupt::stage(&temp, |temp| {
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(temp)
    })?;
    // A file replaced keeps its permissions, as one written over with `>` does: a plan
    // kept private (0600) does not become readable by everyone.
    if let Ok(replaced) = fs::metadata(path) {
        created.set_permissions(replaced.permissions())?;
    }
    let mut file = BufWriter::with_capacity(BUFFER_BYTES, created);
    write(&mut file)?;
    let file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
    file.sync_all()?;
    // Published while a signal is held off: all or nothing.
    Ok(staged.hold(|| fs::rename(&temp, path))?)
}

/// The file a write to `path` replaces. A rename replaces the directory entry itself, so
/// symbolic links are followed first: the link stays and its target gets the content, as a
/// plain write (`>`, `cp`) would do, which also creates a dangling link's missing target.
/// Anything that is not a regular file is refused: renaming over `/dev/full` or a FIFO would
/// put a file where a device or a pipe was.
fn regular_target(path: &Path) -> io::Result<PathBuf> {
    let resolved = link_target(path)?;
    let Ok(metadata) = fs::metadata(&resolved) else {
        // Missing: created, as long as its directory exists (a plain path whose directory is
        // missing fails at the staged file's creation, with the system's message).
        return match resolved.parent() {
            Some(dir) if resolved != path && !dir.as_os_str().is_empty() && !dir.is_dir() => {
                Err(io::Error::new(
                    io::ErrorKind::NotFound,
                    format!(
                        "a symbolic link to {}, whose directory does not exist",
                        resolved.display()
                    ),
                ))
            }
            _ => Ok(resolved),
        };
    };
    let file_type = metadata.file_type();
    if file_type.is_file() {
        return Ok(resolved);
    }
    let what = if file_type.is_dir() {
        "a directory"
    } else {
        "not a regular file (a device, FIFO or socket)"
    };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{what}: --out replaces a regular file (without --out the output goes to standard output)"),
    ))
}

/// As many symbolic links as Linux follows in one path (`MAXSYMLINKS`) before `ELOOP`.
const MAX_LINKS: usize = 40;

/// Where a write to `path` lands: `path`, or the end of its chain of symbolic links, which
/// need not exist. A link's relative target is relative to the link's directory.
fn link_target(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(entry) if entry.file_type().is_symlink() => {
                let target = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("more than {MAX_LINKS} symbolic links in a chain (a loop?)"),
    ))
}

/// Writes every `(file name, contents)` into `dir` (created when missing), or none of them:
/// all are staged in a directory next to `dir` first. A missing `dir` is the staged directory
/// renamed; into an existing one the files are moved one by one, and a move that fails puts
/// back every file already moved or replaced.
pub(crate) fn write_dir_atomic(dir: &Path, files: &[(String, String)]) -> io::Result<()> {
    let (parent, target) = split(dir)?;
    if fs::metadata(&parent).is_ok_and(|metadata| !metadata.is_dir()) {
        // create_dir_all would say only "File exists".
        return Err(io::Error::new(
            io::ErrorKind::NotADirectory,
            format!("{}: exists and is not a directory", parent.display()),
        ));
    }
    fs::create_dir_all(&parent)?;
    remove_stale(&parent, &target);
    let staging = parent.join(temp_name(&target));
    let mut seen = std::collections::HashSet::new();
    if let Some((name, _)) = files.iter().find(|(name, _)| !seen.insert(name)) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("two outputs are named {name}"),
        ));
    }
    // Removed when dropped: gone after a successful rename, else what was staged (and any
    // backups, already restored). SIGINT, SIGTERM and SIGHUP remove it too.
    let (staged, ()) = interrupt::stage(&staging, |staging| fs::create_dir(staging))?;
    stage(&staged, &staging, files)?;
    // The renames publish the output; a signal waits for them: all or nothing.
    staged.hold(|| match fs::symlink_metadata(dir) {
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            fs::rename(&staging, dir)?;
            sync_dir(&parent)
        }
        _ => move_into(&staging, dir, files),
    })
}

/// Replaces every existing regular file `path` with its `contents`, or none of them
/// (`migrate --in-place`): each is staged next to its file (keeping its permissions) and
/// flushed, then all are renamed into place while a signal is held off. Each file replaced
/// keeps a second name (a hard link) until all are, so a rename that fails puts back every
/// file already replaced.
pub(crate) fn replace_files_atomic(files: &[(PathBuf, String)]) -> io::Result<()> {
    let mut staged = Vec::with_capacity(files.len());
    for (path, contents) in files {
        let metadata = fs::symlink_metadata(path)?;
        if !metadata.file_type().is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{}: not a regular file", path.display()),
            ));
        }
        let (dir, target) = split(path)?;
        remove_stale(&dir, &target);
        let temp = dir.join(temp_name(&target));
        let _ = fs::remove_file(&temp);
        let (guard, mut file) = interrupt::stage(&temp, |temp| {
            fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(temp)
        })?;
        file.set_permissions(metadata.permissions())?;
        file.write_all(contents.as_bytes())?;
        file.sync_all()?;
        let mut aside = temp.clone().into_os_string();
        aside.push(".replaced");
        staged.push((guard, temp, PathBuf::from(aside), path, dir));
    }
    let Some((first, ..)) = staged.first() else {
        return Ok(());
    };
    first.hold(|| {
        let mut done: Vec<(&PathBuf, &Path)> = Vec::new();
        let result = staged.iter().try_for_each(|(_, temp, aside, path, _)| {
            // A second name for the old content, so the file is never missing.
            let _ = fs::remove_file(aside);
            fs::hard_link(path, aside)?;
            if let Err(error) = fs::rename(temp, path) {
                let _ = fs::remove_file(aside);
                return Err(error);
            }
            done.push((aside, path));
            Ok(())
        });
        if result.is_err() {
            for (aside, path) in done.into_iter().rev() {
                let _ = fs::rename(aside, path);
            }
            return result;
        }
        for (aside, _) in &done {
            let _ = fs::remove_file(aside);
        }
        staged.iter().try_for_each(|(.., dir)| sync_dir(dir))
    })
}

fn stage(staged: &Staged, staging: &Path, files: &[(String, String)]) -> io::Result<()> {
    let mut folders = std::collections::BTreeSet::new();
    for (name, contents) in files {
        let path = staging.join(checked_relative(name)?);
        // Created while a signal is held off, so its removal of the directory cannot miss
        // what is being added.
        let mut file = staged.hold(|| {
            if let Some(parent) = path.parent().filter(|parent| *parent != staging) {
                fs::create_dir_all(parent)?;
                folders.insert(parent.to_path_buf());
            }
            fs::File::create(&path)
        })?;
        file.write_all(contents.as_bytes())?;
        file.sync_all()?;
    }
    folders.iter().try_for_each(|folder| sync_dir(folder))?;
    sync_dir(staging)
}

/// Moves the staged files into the existing `dir`, keeping each file it replaces in
/// `staging/.replaced` until every move succeeded.
fn move_into(staging: &Path, dir: &Path, files: &[(String, String)]) -> io::Result<()> {
    let replaced = staging.join(".replaced");
    fs::create_dir(&replaced)?;
    let mut done: Vec<(&str, bool)> = Vec::new();
    // Folders of DIR this run made, removed again if a move fails.
    let mut made: Vec<PathBuf> = Vec::new();
    let result = files.iter().try_for_each(|(name, _)| {
        let destination = dir.join(name);
        if let Some(parent) = Path::new(name)
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
        {
            for folder in parent
                .ancestors()
                .filter(|a| !a.as_os_str().is_empty())
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
            {
                let folder = dir.join(folder);
                match fs::symlink_metadata(&folder) {
                    Ok(metadata) if metadata.is_dir() => {}
                    Ok(_) => {
                        return Err(io::Error::new(
                            io::ErrorKind::AlreadyExists,
                            format!("{}: exists and is not a directory", folder.display()),
                        ))
                    }
                    Err(_) => {
                        fs::create_dir(&folder)?;
                        made.push(folder);
                    }
                }
            }
            fs::create_dir_all(replaced.join(parent))?;
        }
        let existed = match fs::symlink_metadata(&destination) {
            Ok(metadata) if metadata.is_file() => true,
            Ok(_) => {
                return Err(io::Error::new(
                    io::ErrorKind::AlreadyExists,
                    format!(
                        "{}: exists and is not a regular file",
                        destination.display()
                    ),
                ))
            }
            Err(_) => false,
        };
        if existed {
            fs::rename(&destination, replaced.join(name))?;
        }
        if let Err(error) = fs::rename(staging.join(name), &destination) {
            if existed {
                let _ = fs::rename(replaced.join(name), &destination);
            }
            return Err(error);
        }
        done.push((name, existed));
        Ok(())
    });
    if result.is_err() {
        for (name, existed) in done.into_iter().rev() {
            let destination = dir.join(name);
            let _ = fs::remove_file(&destination);
            if existed {
                let _ = fs::rename(replaced.join(name), &destination);
            }
        }
        for folder in made.iter().rev() {
            let _ = fs::remove_dir(folder);
        }
        return result;
    }
    sync_dir(dir)
}

/// A name that stays inside its directory: `/`-separated components, each a plain name,
/// not hidden (so never one of our staged names, `.` or `..`).
fn checked_relative(name: &str) -> io::Result<&str> {
    let plain = |part: &str| {
        Path::new(part).file_name() == Some(OsStr::new(part)) && !part.starts_with('.')
    };
    if name.split('/').all(plain) {
        Ok(name)
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{:?} is not a plain file name", crate::model::echo(name)),
        ))
    }
}

/// A renamed directory entry survives a crash only once its directory is flushed.
fn sync_dir(dir: &Path) -> io::Result<()> {
    fs::File::open(dir)?.sync_all()
}

/// The directory an output goes in and its name there. `--out .` and the like have no name of
/// their own, so they are resolved first.
fn split(path: &Path) -> io::Result<(PathBuf, OsString)> {
    let resolved;
    let path = if path.file_name().is_none() {
        resolved = fs::canonicalize(path)?;
        resolved.as_path()
    } else {
        path
    };
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file path"))?;
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok((dir, name.to_os_string()))
}

fn temp_name(target: &OsStr) -> OsString {
    let mut name = OsString::from(format!("{TEMP_PREFIX}{}-", std::process::id()));
    name.push(target);
    name
}

/// Removes what earlier runs of this tool staged for `target` in `dir` and left behind
/// because they were killed: entries named for `target` whose process no longer runs. Best
/// effort: what cannot be removed is left for the next run.
fn remove_stale(dir: &Path, target: &OsStr) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = staged_by(&name, target) else {
            continue;
        };
        if pid == std::process::id() || is_running(pid) {
            continue;
        }
        let path = entry.path();
        let _ = match fs::symlink_metadata(&path) {
            Ok(metadata) if metadata.is_dir() => fs::remove_dir_all(&path),
            Ok(_) => fs::remove_file(&path),
            Err(error) => Err(error),
        };
    }
}

/// The process that staged `name` for `target`, when `name` is one of our staged names.
fn staged_by(name: &OsStr, target: &OsStr) -> Option<u32> {
    let rest = name.to_str()?.strip_prefix(TEMP_PREFIX)?;
    let (pid, staged_for) = rest.split_once('-')?;
    (OsStr::new(staged_for) == target)
        .then(|| pid.parse().ok())
        .flatten()
}

/// Whether a process with this id exists (signal 0 checks without sending anything; a
/// process we may not signal still exists).
fn is_running(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    match rustix::process::test_kill_process(pid) {
        Ok(()) => true,
        Err(error) => error != rustix::io::Errno::SRCH,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The staged name is created, not opened: a symbolic link planted under it is never
    /// followed, so the file it points at keeps its content.
    #[cfg(unix)]
    #[test]
    fn a_link_planted_under_the_staged_name_is_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "keep").unwrap();
        let target = dir.path().join("plan.yaml");
        let staged = dir.path().join(temp_name(OsStr::new("plan.yaml")));
        std::os::unix::fs::symlink(&victim, &staged).unwrap();
        write_atomic(&target, b"plan").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
        assert_eq!(fs::read_to_string(&target).unwrap(), "plan");
        assert_eq!(names(dir.path()), ["plan.yaml", "victim"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("plan.yaml");
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic(&target, b"plan").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "plan");
        let mode = fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// A process id that cannot be running: above Linux's largest (2^22).
    const DEAD_PID: u32 = 99_999_999;

    #[test]
    fn replaces_the_destination_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.yaml");
        fs::write(&path, "old").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_failed_write_keeps_the_previous_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing-dir").join("plan.yaml");
        assert!(write_atomic(&path, b"new").is_err());
        let existing = dir.path().join("plan.yaml");
        fs::write(&existing, "old").unwrap();
        // A directory where the file should go makes the rename fail after the temp is written.
        let blocked = dir.path().join("blocked");
        fs::create_dir(&blocked).unwrap();
        fs::write(blocked.join("x"), "keep").unwrap();
        assert!(write_atomic(&blocked, b"new").is_err());
        assert_eq!(fs::read_to_string(&existing).unwrap(), "old");
        assert_eq!(fs::read_to_string(blocked.join("x")).unwrap(), "keep");
        assert_eq!(names(dir.path()), ["blocked", "plan.yaml"]);
    }

    #[test]
    fn a_write_that_fails_midway_leaves_the_previous_file_and_no_staged_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.json");
        fs::write(&path, "old").unwrap();
        let outcome = write_atomic_with(&path, |file| {
            // More than the buffer holds, so part of it reached the staged file.
            file.write_all(&vec![b'x'; 3 * BUFFER_BYTES])?;
            Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
        });
        assert_eq!(outcome.unwrap_err().kind(), io::ErrorKind::StorageFull);
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(names(dir.path()), ["plan.json"]);
    }

    #[test]
    fn stale_staging_of_the_same_target_is_removed_and_others_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let stale = format!("{TEMP_PREFIX}{DEAD_PID}-plan.yaml");
        let other_target = format!("{TEMP_PREFIX}{DEAD_PID}-other.yaml");
        let running = format!("{TEMP_PREFIX}1-plan.yaml");
        for name in [&stale, &other_target, &running] {
            fs::write(dir.path().join(name), "partial").unwrap();
        }
        write_atomic(&dir.path().join("plan.yaml"), b"new").unwrap();
        assert_eq!(
            names(dir.path()),
            [running.as_str(), other_target.as_str(), "plan.yaml"]
        );
    }

    #[test]
    fn a_directory_is_written_whole_when_missing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let files = [
            ("a.yaml".to_string(), "a".to_string()),
            ("b.yaml".to_string(), "b".to_string()),
        ];
        write_dir_atomic(&out, &files).unwrap();
        assert_eq!(names(&out), ["a.yaml", "b.yaml"]);
        assert_eq!(names(dir.path()), ["out"]);
    }

    #[test]
    fn a_failed_move_into_an_existing_directory_puts_everything_back() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("a.yaml"), "old a").unwrap();
        // A directory where the last file goes: it is never replaced.
        fs::create_dir(out.join("c.yaml")).unwrap();
        fs::write(out.join("c.yaml").join("x"), "keep").unwrap();
        let files = [
            ("a.yaml".to_string(), "new a".to_string()),
            ("b.yaml".to_string(), "new b".to_string()),
            ("c.yaml".to_string(), "new c".to_string()),
        ];
        assert!(write_dir_atomic(&out, &files).is_err());
        assert_eq!(names(&out), ["a.yaml", "c.yaml"]);
        assert_eq!(fs::read_to_string(out.join("a.yaml")).unwrap(), "old a");
        assert_eq!(fs::read_to_string(out.join("c.yaml/x")).unwrap(), "keep");
        assert_eq!(names(dir.path()), ["out"]);
    }

    #[test]
    fn two_files_of_one_name_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let files = [
            ("a.yaml".to_string(), "1".to_string()),
            ("a.yaml".to_string(), "2".to_string()),
        ];
        assert!(write_dir_atomic(&dir.path().join("out"), &files).is_err());
        assert_eq!(names(dir.path()), Vec::<String>::new());
    }

    /// Names with folders (`migrate --out`'s layout) are written below the directory, into an
    /// existing one too, and a failure takes the folders it made back out.
    #[test]
    fn names_with_folders_are_written_into_folders() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let files = [
            ("a/x.yaml".to_string(), "1".to_string()),
            ("b/c/y.yaml".to_string(), "2".to_string()),
        ];
        assert!(write_dir_atomic(&out, &files).is_ok());
        assert_eq!(fs::read_to_string(out.join("b/c/y.yaml")).unwrap(), "2");
        let files = [
            ("a/x.yaml".to_string(), "3".to_string()),
            ("d/z.yaml".to_string(), "4".to_string()),
        ];
        assert!(write_dir_atomic(&out, &files).is_ok());
        assert_eq!(fs::read_to_string(out.join("a/x.yaml")).unwrap(), "3");
        assert_eq!(names(&out), ["a", "b", "d"]);
        // e/ is made, then the move into f (a file where a folder should be) fails.
        fs::write(out.join("f"), "file").unwrap();
        let files = [
            ("e/z.yaml".to_string(), "5".to_string()),
            ("f/z.yaml".to_string(), "6".to_string()),
        ];
        assert!(write_dir_atomic(&out, &files).is_err());
        assert_eq!(names(&out), ["a", "b", "d", "f"]);
    }

    #[test]
    fn file_names_that_leave_the_directory_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        for name in [
            "../escape.yaml",
            "a/../b.yaml",
            "/abs.yaml",
            "a//b.yaml",
            "a/.hidden/b.yaml",
            "..",
            ".hidden",
            "",
        ] {
            let files = [(name.to_string(), "x".to_string())];
            assert!(write_dir_atomic(&out, &files).is_err(), "{name}");
        }
        assert_eq!(names(dir.path()), Vec::<String>::new());
    }
}
