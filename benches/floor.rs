//! The parse-and-write floor a `plan -o json` run is compared with: read the same inputs,
//! validate each file as JSON with serde (one thread, nothing kept), and write as many bytes
//! as the plan to standard output. Nothing fleetplan does can cost less than this.
//!
//! `cargo run --profile dist --example floor -- --bytes N FILE_OR_DIR...`
//! (`--bytes-of PLAN` takes the size of a plan file instead; a directory means its files, as
//! `fleetplan plan -f DIR` reads them, without descending).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::de::IgnoredAny;

struct Args {
    bytes: u64,
    inputs: Vec<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        bytes: 0,
        inputs: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--bytes" => {
                let text = value()?;
                args.bytes = text
                    .parse()
                    .map_err(|_| format!("--bytes: expected a whole number, found {text:?}"))?;
            }
            "--bytes-of" => {
                let path = value()?;
                args.bytes = fs::metadata(&path)
                    .map_err(|e| format!("{path}: {e}"))?
                    .len();
            }
            _ => args.inputs.push(PathBuf::from(arg)),
        }
    }
    if args.inputs.is_empty() {
        return Err("name the inputs: FILE or DIR...".to_string());
    }
    Ok(args)
}

/// The files `path` names: itself, or a directory's files in name order.
fn files(path: &Path) -> Result<Vec<PathBuf>, String> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    for entry in fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))? {
        let entry = entry.map_err(|e| format!("{}: {e}", path.display()))?;
        if entry.path().is_file() {
            files.push(entry.path());
        }
    }
    files.sort();
    Ok(files)
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    for input in &args.inputs {
        for file in files(input)? {
            let text = fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            serde_json::from_slice::<IgnoredAny>(&text)
                .map_err(|e| format!("{}: {e}", file.display()))?;
        }
    }
    // Plan-like text in 64 KiB writes, as a buffered writer would hand them to the kernel.
    let line = b"        \"cluster-000000\",\n";
    let chunk: Vec<u8> = line.iter().copied().cycle().take(64 * 1024).collect();
    let mut out = io::stdout().lock();
    let mut left = args.bytes;
    while left > 0 {
        let n = left.min(chunk.len() as u64) as usize;
        out.write_all(&chunk[..n])
            .map_err(|e| format!("standard output: {e}"))?;
        left -= n as u64;
    }
    out.flush().map_err(|e| format!("standard output: {e}"))
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("floor: {message}");
            ExitCode::FAILURE
        }
    }
}
