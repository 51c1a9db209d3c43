//! The loader on one input read from stdin (YAML or JSON, sniffed): never panics, and memory
//! stays within the limits (a 256 MiB input cap, an alias-expansion budget).
#![no_main]

use fleetplan::load::{load, LoadOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut stdin = data;
    let _ = load(&["-".to_string()], &mut stdin, &LoadOptions::default());
});
