//! The label selector string syntax (`a=b,c notin (x,y),!d`): never panics, and whatever parses
//! prints as text that parses back to the same selector.
#![no_main]

use fleetplan::selector::Selector;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(selector) = Selector::parse(text) {
        let printed = selector.to_string();
        match Selector::parse(&printed) {
            Ok(again) => assert_eq!(again, selector, "{text:?} printed as {printed:?}"),
            Err(error) => panic!("{text:?} printed as {printed:?}, which fails: {error}"),
        }
    }
});
