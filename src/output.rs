//! Writing output files so that nothing is ever half-written: the content goes to a temporary
//! file in the destination's directory, is flushed to disk, then renamed over the destination.
//! A run that fails before the rename leaves the previous file byte-identical.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file_name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file path"))?;
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(file_name);
    temp_name.push(format!(".{}.tmp", std::process::id()));
    let temp = dir.join(temp_name);
    let result = (|| {
        let mut file = fs::File::create(&temp)?;
        file.write_all(contents)?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if result.is_err() {
        // Best effort: the error that matters is the write's, not the clean-up's.
        let _ = fs::remove_file(&temp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
