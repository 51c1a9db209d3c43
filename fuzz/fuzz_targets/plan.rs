//! The whole `plan` on a fuzzed document set: the input is a fixed example fleet followed by
//! fuzzed documents, so most runs reach the engines instead of stopping in the loader.
#![no_main]

use fleetplan::load::{load, LoadOptions};
use fleetplan::plan::{build, PlanOptions, Trace};
use fleetplan::render::plan::{stream, Output};
use libfuzzer_sys::fuzz_target;

const FLEET: &str = include_str!("../../testdata/fleet/inventory.yaml");
const SETS: &str = include_str!("../../testdata/fleet/clustersets.yaml");

fuzz_target!(|data: &[u8]| {
    let mut input = Vec::with_capacity(FLEET.len() + SETS.len() + data.len() + 16);
    input.extend_from_slice(FLEET.as_bytes());
    input.extend_from_slice(b"\n---\n");
    input.extend_from_slice(SETS.as_bytes());
    input.extend_from_slice(b"\n---\n");
    input.extend_from_slice(data);
    let mut stdin = input.as_slice();
    let Ok(model) = load(&["-".to_string()], &mut stdin, &LoadOptions::default()) else {
        return;
    };
    let outcome = build(&model, &PlanOptions::at(1_767_225_600, Trace::Full));
    // Rendering is part of `plan`: every output format must cope with any outcome.
    let _ = fleetplan::render::plan::yaml(&outcome.plan);
    let _ = stream(Output::Bindings, &outcome, &mut Vec::new());
    let _ = fleetplan::render::plan::json(&outcome.plan);
    let _ = stream(Output::Table(Some(100)), &outcome, &mut Vec::new());
    let _ = stream(Output::Decisions, &outcome, &mut Vec::new());
});
