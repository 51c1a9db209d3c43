//! The one integration test binary: `fleetplan` end to end, through the real executable, with a
//! module per subcommand or concern. One binary links once, and `cargo test --test cli FILTER`
//! runs any part of it (`cargo test --test cli check::` for one module).
//!
//! Shared harness: `common` (`Test`, the fluent runner). Golden files: insta snapshots under
//! `snapshots/`, and the golden files under `testdata/` that the modules compare against.

mod common;

mod adoption;
mod architecture;
mod bad_input;
mod cel_check;
mod check;
mod consumers;
mod delivery;
mod diff;
mod escaping;
mod explain;
mod fuzz_stable;
mod generated_fleet;
mod karmada;
mod karmada_admission;
mod karmada_detector;
mod karmada_vectors;
mod karmada_what_if;
mod kubefleet;
mod kubefleet_admission;
mod kubefleet_vectors;
mod migrate;
mod migrate_hub_versions;
mod migrate_in_place;
mod migrate_karmada;
mod ocm_vectors;
mod output_size;
mod packaging;
mod placement_fields;
mod plan;
mod previous_decisions;
mod properties;
mod schema_extensions;
mod schemas;
mod select;
#[cfg(unix)]
mod signals;
mod stories;
mod unread_kinds;
mod vectors;
mod verdict;
mod walk;
mod yaml11;
