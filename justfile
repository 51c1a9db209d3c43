# Every recipe is a plain cargo/bash command; `just --list` shows them. Without `just`, run the
# command under a recipe's name as written.

# Run every test (unit, property, upstream vectors, the CLI binary).
test *args:
    cargo test --locked {{args}}

# What CI runs: fmt --check, clippy -D warnings, the tests.
ci:
    bash .ci/run

# Rewrite every golden file from what the code prints: insta snapshots, testdata/**/expected,
# the scenarios, the committed CI plan, the migrate goldens, the bad-input corpus and README
# examples. Review the diff afterwards. --no-fail-fast: a test that still fails (an inline
# expectation) must not keep the next test binary from blessing its golden files.
bless *args:
    FLEETPLAN_BLESS=1 INSTA_UPDATE=always cargo test --locked --no-fail-fast {{args}}

# Regenerate the shell completions and the manual pages from the CLI definition.
gen:
    cargo run -q --locked -- completions --dir completions
    cargo run -q --locked -- man --dir man

# Scale benchmarks (figures go to docs/performance.md), built with the `dist` profile that
# release binaries use; e.g. `just bench --only placement`.
bench *args:
    cargo bench --locked --profile dist --bench scale -- {{args}}

# End-to-end `plan -o json` at 100k × 10k, both generator mixes, and KubeFleet's 10k
# MemberClusters × 10k ClusterResourcePlacements, with the parse-and-write floor: the figures
# README and docs/performance.md quote (benches/end_to_end.sh; DIR keeps the inputs; INPUTS
# picks some, e.g. `INPUTS=kubefleet just scale`).
scale dir="":
    bash benches/end_to_end.sh {{dir}}

# Fuzz one target (load, plan, selector_parse, annotations) for SECONDS; see docs/reliability.md.
fuzz target seconds="180":
    cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run {{target}} -- -max_total_time={{seconds}} -rss_limit_mb=2048 -max_len=65536
