//! cargo-fuzz target `annotations`: the body is `bodies::annotations` (`fuzz/bodies.rs`), which the stable
//! driver (`tests/cli/fuzz_stable.rs`) runs too.
#![no_main]

// Each target uses one of the bodies.
#[allow(dead_code)]
#[path = "../bodies.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| bodies::annotations(data));
