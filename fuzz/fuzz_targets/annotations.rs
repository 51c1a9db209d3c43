//! The federation annotation front ends: the cluster-selector JSON and the
//! replica-set-preferences JSON. Neither may panic on any input.
#![no_main]

use fleetplan::replicas::parse_replica_set_preferences;
use fleetplan::selector::Selector;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = Selector::from_annotation(text);
    let _ = parse_replica_set_preferences(text);
});
