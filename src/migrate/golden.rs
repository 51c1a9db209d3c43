//! Golden tests: each case migrates files of `testdata/migrate` (with the example fleet) and
//! compares the YAML stream, the loss report and the verification with
//! `testdata/migrate/golden/<case>.{yaml,report.txt,verify.txt}`.
//! `FLEETPLAN_BLESS=1 cargo test --lib migrate::golden` rewrites them.

use std::path::{Path, PathBuf};

use super::{run, verify, MigrateOptions, Migration, Target};
use crate::load::{self, LoadOptions};
use crate::plan::{PlanOptions, Trace};

fn testdata(relative: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(relative)
        .to_string_lossy()
        .into_owned()
}

const FLEET: &[&str] = &["fleet/inventory.yaml", "fleet/clustersets.yaml"];

fn migrate(inputs: &[&str], target: Target) -> Migration {
    let paths: Vec<String> = inputs.iter().map(|input| testdata(input)).collect();
    let options = MigrateOptions {
        target,
        verify: Some(PlanOptions::at(0, Trace::Plan)),
        ..MigrateOptions::default()
    };
    match run(
        &paths,
        &mut std::io::empty(),
        &LoadOptions::default(),
        &options,
    ) {
        Ok(migration) => migration,
        Err(error) => panic!("{error}"),
    }
}

fn golden_path(case: &str, extension: &str) -> PathBuf {
    Path::new(&testdata("migrate/golden")).join(format!("{case}.{extension}"))
}

fn compare(case: &str, extension: &str, actual: &str) {
    let path = golden_path(case, extension);
    if std::env::var_os("FLEETPLAN_BLESS").is_some() {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
        }
        std::fs::write(&path, actual).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (FLEETPLAN_BLESS=1 writes it)", path.display()));
    assert_eq!(actual, expected, "{}", path.display());
}

fn check_case(case: &str, inputs: &[&str]) -> Migration {
    check_target_case(case, inputs, Target::Ocm)
}

fn check_target_case(case: &str, inputs: &[&str], target: Target) -> Migration {
    let migration = migrate(inputs, target);
    assert!(!migration.has_errors(), "{}", migration.report);
    compare(
        case,
        "yaml",
        &migration
            .to_yaml()
            .unwrap_or_else(|error| panic!("{error}")),
    );
    compare(case, "report.txt", &migration.report.to_string());
    let verification = migration.verification.clone().unwrap_or_default();
    compare(case, "verify.txt", &verify::render(&verification));
    migration
}

/// Every conversion the report calls exact plans identically.
fn assert_exact_ones_are_identical(migration: &Migration) {
    let verification = migration.verification.clone().unwrap_or_default();
    for conversion in migration.report.conversions.iter().filter(|c| c.exact) {
        if let Some(verified) = verification.iter().find(|v| v.source == conversion.source) {
            assert!(
                verified.identical,
                "{:?} is exact but {verified:?}",
                conversion.source
            );
        }
    }
}

/// The migrated objects load back on their own without errors or warnings.
fn assert_round_trip(migration: &Migration) {
    let yaml = migration
        .to_yaml()
        .unwrap_or_else(|error| panic!("{error}"));
    let model = load::load(
        &["-".to_string()],
        &mut yaml.as_bytes(),
        &LoadOptions::default(),
    )
    .unwrap_or_else(|errors| panic!("{errors}"));
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
}

fn with_fleet(extra: &[&'static str]) -> Vec<&'static str> {
    FLEET.iter().copied().chain(extra.iter().copied()).collect()
}

/// A case with the example fleet: golden files, exact means identical, and a round trip.
fn check_fleet_case(case: &str, input: &'static str) {
    let migration = check_case(case, &with_fleet(&[input]));
    assert_exact_ones_are_identical(&migration);
    assert_round_trip(&migration);
}

#[test]
fn placement_rules_match_their_golden_files() {
    check_fleet_case("placementrules", "migrate/placementrules.yaml");
}

#[test]
fn cluster_selectors_match_their_golden_files() {
    check_fleet_case("cluster-selectors", "migrate/cluster-selectors.yaml");
}

#[test]
fn replica_set_preferences_match_their_golden_files() {
    check_fleet_case(
        "replica-set-preferences",
        "migrate/replica-set-preferences.yaml",
    );
}

#[test]
fn comparisons_on_integer_labels_match_their_golden_files() {
    let migration = check_case(
        "tiers",
        &["migrate/tiers.yaml", "migrate/cluster-selectors.yaml"],
    );
    assert_exact_ones_are_identical(&migration);
}

/// A `--to karmada` case with the example fleet (which has no Karmada Clusters: the
/// verification plans the policies on stand-ins): golden files, exact means identical, and a
/// round trip.
fn check_karmada_case(case: &str, input: &'static str) -> Migration {
    let migration = check_target_case(case, &with_fleet(&[input]), Target::Karmada);
    assert_exact_ones_are_identical(&migration);
    assert_round_trip(&migration);
    migration
}

#[test]
fn kubefed_objects_karmada_carries_exactly_verify_identical() {
    let migration = check_karmada_case("karmada-kubefed", "migrate/karmada/kubefed.yaml");
    let verification = migration.verification.unwrap_or_default();
    assert_eq!(verification.len(), 3);
    assert!(verification.iter().all(|verified| verified.identical));
}

#[test]
fn kubefed_minimums_maximums_and_capacity_are_lost_and_verify_shows_the_cost() {
    let migration = check_karmada_case("karmada-fleet-kubefed", "fleet/workloads/kubefed.yaml");
    assert!(migration.differs());
}

#[test]
fn federation_annotations_migrate_to_karmada_policies() {
    check_karmada_case(
        "karmada-replica-set-preferences",
        "migrate/replica-set-preferences.yaml",
    );
    check_karmada_case(
        "karmada-cluster-selectors",
        "migrate/cluster-selectors.yaml",
    );
}

#[test]
fn comparisons_become_in_over_the_inventory_values_for_karmada() {
    let migration = check_target_case(
        "karmada-tiers",
        &["migrate/tiers.yaml", "migrate/cluster-selectors.yaml"],
        Target::Karmada,
    );
    assert_exact_ones_are_identical(&migration);
    assert!(!migration.differs(), "{:?}", migration.verification);
}
