//! What SIGINT, SIGTERM and SIGHUP leave behind: nothing. `--out` stages its output next to
//! the target (`output.rs`); a signal that ends the run before the rename used to leave the
//! staged file or directory there. Every staged output is registered here when it is created,
//! and the first of these signals removes them all, then ends the process as the signal
//! would have (`signal_hook::low_level::emulate_default_handler`: the parent sees the same
//! signal). Only SIGKILL, which nothing can catch, and power loss can leave one; the next
//! write to the same target removes those (`output::remove_stale`).
//!
//! The signals are handled on a thread of their own (signal-hook's self-pipe), where taking a
//! lock and removing files are safe. The lock orders the two threads: staging creates its
//! file or directory under it, and publishing (the renames) runs under it, so a signal never
//! removes what is being created and never interrupts a rename half-way through a directory;
//! once the handler holds the lock it keeps it until the process is gone.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once, PoisonError};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// The staged outputs of this process that still exist.
static STAGED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static HANDLER: Once = Once::new();

fn staged() -> MutexGuard<'static, Vec<PathBuf>> {
    STAGED.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A staged output (a file, or a directory and what is in it): removed when dropped, and by a
/// terminating signal before that.
#[must_use]
pub(crate) struct Staged {
    path: PathBuf,
}

/// Creates the staged output at `path` with `create`, registered before any signal can see it.
pub(crate) fn stage<T>(
    path: &Path,
    create: impl FnOnce(&Path) -> io::Result<T>,
) -> io::Result<(Staged, T)> {
    HANDLER.call_once(install);
    let mut staged = staged();
    let made = create(path)?;
    staged.push(path.to_path_buf());
    Ok((
        Staged {
            path: path.to_path_buf(),
        },
        made,
    ))
}

impl Staged {
    /// Runs `step` with signals held off: creating a file inside a staged directory (so the
    /// handler's removal of the directory cannot race with it), or publishing the output
    /// (the renames), which a signal then waits for, so the output is all or nothing.
    pub(crate) fn hold<T>(&self, step: impl FnOnce() -> T) -> T {
        let _held = staged();
        step()
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        let mut staged = staged();
        // Gone after a rename published it; otherwise what a failed write staged.
        remove(&self.path);
        staged.retain(|path| *path != self.path);
    }
}

fn remove(path: &Path) {
    let _ = match fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_dir() => fs::remove_dir_all(path),
        Ok(_) => fs::remove_file(path),
        Err(error) => Err(error),
    };
}

/// Listens for the signals on a thread of its own. Without it (the signals cannot be
/// registered, or the thread cannot start) a signal ends the process as before, and the next
/// run removes what it staged.
fn install() {
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("signals".to_string())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // Held until the process is gone: nothing is staged or published after this.
                let staged = staged();
                staged.iter().for_each(|path| remove(path));
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        });
}
