//! cargo-fuzz target `selector_parse`: the body is `bodies::selector_parse` (`fuzz/bodies.rs`), which the stable
//! driver (`tests/cli/fuzz_stable.rs`) runs too.
#![no_main]

// Each target uses one of the bodies.
#[allow(dead_code)]
#[path = "../bodies.rs"]
mod bodies;

libfuzzer_sys::fuzz_target!(|data: &[u8]| bodies::selector_parse(data));
