//! The fuzz targets' bodies (`fuzz/bodies.rs`) on stable Rust: cargo-fuzz needs a nightly
//! compiler, so each body also runs here over its corpus (`fuzz/corpus/<target>`) and over
//! inputs made from it by a seeded mutator (bytes flipped, inserted, deleted, duplicated, or
//! spliced from another entry; tokens that matter to the parsers and escapes inserted).
//! `cargo test` runs a few hundred inputs per target; `FLEETPLAN_FUZZ_SECONDS=N` runs each
//! target for N seconds instead, and `FLEETPLAN_FUZZ_TARGETS=escape,load` only those targets
//! (docs/reliability.md, *Fuzzing*).

use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant};

#[path = "../../fuzz/bodies.rs"]
mod bodies;

/// Generated inputs per target in a plain `cargo test`.
const INPUTS_PER_TARGET: usize = 300;

/// Tokens the mutator inserts: what the parsers and the escapes treat specially.
const TOKENS: &[&str] = &[
    "\u{1b}]8;;",
    "\u{7}",
    "\u{202e}",
    "\u{2066}",
    "\u{200b}",
    "\u{feff}",
    "\u{85}",
    "\u{ffff}",
    "\\uFFFF",
    "\\",
    "\n",
    "\r",
    "\t",
    "::",
    "::error file=x::",
    "`",
    "```",
    "|",
    "<",
    "&",
    "\"",
    "'",
    "%",
    ":",
    ",",
    "---\n",
    "- ",
    "{",
    "}",
    "[",
    "]",
    "&a ",
    "*a",
    "<<: ",
    "!!str ",
    "on",
    "0x1F",
    "1_0",
    "in (",
    "notin (",
    "!",
    "=",
    "==",
    "!=",
    "apiVersion: ",
    "kind: ",
    "metadata: {name: x, namespace: y}\n",
    "labels: ",
    "celExpressions: ['",
    "')\n",
    "numberOfClusters: ",
    "-1",
    "2147483648",
    "{\"",
    "\": ",
    "[[[[",
    "\u{0}",
];

/// xorshift64*: deterministic, so a failure reproduces from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, bound: usize) -> usize {
        usize::try_from(self.next() % (bound.max(1) as u64)).unwrap_or(0)
    }
}

/// One to eight mutations of a corpus entry.
fn mutate(rng: &mut Rng, corpus: &[Vec<u8>]) -> Vec<u8> {
    let mut input = corpus[rng.below(corpus.len())].clone();
    for _ in 0..=rng.below(8) {
        let at = rng.below(input.len() + 1);
        match rng.below(6) {
            0 if !input.is_empty() => {
                let at = at.min(input.len() - 1);
                input[at] ^= 1 << rng.below(8);
            }
            1 => input.insert(at, u8::try_from(rng.below(256)).unwrap_or(0)),
            2 if !input.is_empty() => {
                let end = (at + rng.below(16)).min(input.len());
                input.drain(at.min(end)..end);
            }
            3 => {
                let end = (at + rng.below(64)).min(input.len());
                let copy = input[at.min(end)..end].to_vec();
                input.splice(at..at, copy);
            }
            4 => {
                let other = &corpus[rng.below(corpus.len())];
                let from = rng.below(other.len() + 1);
                let end = (from + rng.below(256)).min(other.len());
                input.splice(at..at, other[from..end].iter().copied());
            }
            _ => {
                let token = TOKENS[rng.below(TOKENS.len())];
                input.splice(at..at, token.bytes());
            }
        }
    }
    input
}

fn corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new("fuzz/corpus").join(target);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            std::fs::read(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
        })
        .collect()
}

/// Runs `body` on `input`, naming the input when it panics.
fn run(target: &str, body: bodies::Body, input: &[u8], what: &str) {
    if let Err(panic) = panic::catch_unwind(AssertUnwindSafe(|| body(input))) {
        eprintln!(
            "fuzz target {target} failed on {what}: {:?}",
            String::from_utf8_lossy(input)
        );
        panic::resume_unwind(panic);
    }
}

#[test]
fn fuzz_targets_hold_on_their_corpus_and_mutated_inputs() {
    let seconds: Option<u64> = std::env::var("FLEETPLAN_FUZZ_SECONDS")
        .ok()
        .and_then(|value| value.parse().ok());
    let only: Option<Vec<String>> = std::env::var("FLEETPLAN_FUZZ_TARGETS")
        .ok()
        .map(|targets| targets.split(',').map(str::to_string).collect());
    for (target, body) in bodies::TARGETS {
        if only
            .as_ref()
            .is_some_and(|only| !only.iter().any(|name| name == target))
        {
            continue;
        }
        let corpus = corpus(target);
        assert!(!corpus.is_empty(), "fuzz/corpus/{target} is empty");
        for (index, input) in corpus.iter().enumerate() {
            run(target, body, input, &format!("corpus entry {index}"));
        }
        let started = Instant::now();
        let seed = 0x9e37_79b9_7f4a_7c15 ^ target.len() as u64;
        let mut rng = Rng(seed);
        let mut inputs = 0usize;
        loop {
            let done = match seconds {
                Some(seconds) => started.elapsed() >= Duration::from_secs(seconds),
                None => inputs >= INPUTS_PER_TARGET,
            };
            if done {
                break;
            }
            let input = mutate(&mut rng, &corpus);
            run(
                target,
                body,
                &input,
                &format!("generated input {inputs} (seed {seed:#x})"),
            );
            inputs += 1;
        }
        if seconds.is_some() {
            eprintln!(
                "fuzz target {target}: {} corpus entries, {inputs} generated inputs in {:.0?}",
                corpus.len(),
                started.elapsed()
            );
        }
    }
}
