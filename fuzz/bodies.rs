//! The bodies of the fuzz targets, shared by `cargo fuzz` (`fuzz_targets/*.rs`, nightly) and by
//! the stable driver (`tests/cli/fuzz_stable.rs`), which runs each over its corpus and inputs
//! made from it. Each body may return early on input it does not take; a panic is a finding.

use fleetplan::escape;
use fleetplan::{
    build, load as load_inputs, parse_replica_set_preferences, stream_plan, LoadOptions,
    PlanObjects, PlanOptions, PlanOutput, Selector, Trace,
};

/// A target's body: one input, a panic on a finding.
pub type Body = fn(&[u8]);

/// Every target: its name (its folder under `corpus/`) and its body.
pub const TARGETS: [(&str, Body); 5] = [
    ("annotations", annotations),
    ("escape", escape),
    ("load", load),
    ("plan", plan),
    ("selector_parse", selector_parse),
];

/// The federation annotation front ends: the cluster-selector JSON and the
/// replica-set-preferences JSON. Neither may panic on any input.
pub fn annotations(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = Selector::from_annotation(text);
    let _ = parse_replica_set_preferences(text);
}

/// What no escaped terminal text may hold (besides tab and line feed).
fn unsafe_char(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n')
        || matches!(c, '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{FEFF}')
}

/// The output escaping (`render::escape`): whatever the input text, what each context gets
/// cannot act on its reader. A terminal or log line holds no control character but tab and
/// line feed, no bidi override or invisible character, and no line starting a workflow
/// command; a markdown code span stays on one line and closes where it should; a workflow
/// command's message has no line break and its property no delimiter; XML holds no markup;
/// JSON and YAML show no such character either, and read back as the same text.
pub fn escape(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let terminal = escape::terminal(text);
    assert!(
        !terminal.chars().any(unsafe_char),
        "{text:?} → {terminal:?}"
    );
    assert!(
        !terminal
            .lines()
            .any(|line| line.trim_start().starts_with("::")),
        "{text:?} → {terminal:?}"
    );
    assert_eq!(
        terminal.matches('\n').count(),
        text.matches('\n').count(),
        "lines are kept"
    );

    let line = escape::terminal_line(text);
    assert!(
        !line.contains('\n') && !line.chars().any(unsafe_char),
        "{line:?}"
    );
    assert!(!line.trim_start().starts_with("::"), "{line:?}");

    // A code span: one line, fenced by a run of backticks longer than any inside.
    for (span, in_table) in [
        (escape::markdown_code(text), false),
        (escape::markdown_cell(text), true),
    ] {
        assert!(!span.contains('\n') && !span.contains('\r'), "{span:?}");
        let fence = span.chars().take_while(|c| *c == '`').count();
        assert!(fence > 0 && span.ends_with(&"`".repeat(fence)), "{span:?}");
        let inner = &span[fence..span.len() - fence];
        assert!(
            inner.split(|c| c != '`').all(|run| run.len() != fence),
            "{span:?} closes early"
        );
        if in_table {
            assert!(!span.replace("\\|", "").contains('|'), "{span:?}");
        }
    }
    let html = escape::html(text);
    assert!(!html.contains(['<', '>', '\n']), "{html:?}");

    let data = escape::workflow_data(text);
    assert!(
        !data.contains(['\r', '\n']) && !data.chars().any(unsafe_char),
        "{data:?}"
    );
    let property = escape::workflow_property(text);
    assert!(!property.contains(['\r', '\n', ':', ',']), "{property:?}");

    let xml = escape::xml_text(text);
    assert!(!xml.contains(['<', '>']), "{xml:?}");
    assert!(xml.split('&').skip(1).all(|rest| ["amp;", "lt;", "gt;"]
        .iter()
        .any(|entity| rest.starts_with(entity))));
    let attribute = escape::xml_attribute(text);
    assert!(
        !attribute.contains(['"', '\n', '\r', '\t', '<']),
        "{attribute:?}"
    );

    // Data formats: the text as a key and as a value.
    let document = std::collections::BTreeMap::from([(text, [text])]);
    let json = escape::json_pretty(&document).expect("a map of strings is JSON");
    assert!(!json.chars().any(unsafe_char), "{text:?} → {json}");
    let back: std::collections::BTreeMap<String, Vec<String>> =
        serde_json::from_str(&json).expect("fleetplan's JSON parses");
    assert_eq!(
        back.get(text).map(Vec::as_slice),
        Some(&[text.to_string()][..]),
        "{json}"
    );
    let yaml = fleetplan::to_yaml(&document).expect("a map of strings is YAML");
    assert!(!yaml.chars().any(unsafe_char), "{text:?} → {yaml}");
    let back: std::collections::BTreeMap<String, Vec<String>> =
        serde_yaml::from_str(&yaml).expect("fleetplan's YAML parses");
    assert_eq!(
        back.get(text).map(Vec::as_slice),
        Some(&[text.to_string()][..]),
        "{yaml}"
    );
}

/// The loader on one input read from stdin (YAML or JSON, sniffed): never panics, and memory
/// stays within the limits (a 256 MiB input cap, an alias-expansion budget).
pub fn load(data: &[u8]) {
    let mut stdin = data;
    let _ = load_inputs(&["-".to_string()], &mut stdin, &LoadOptions::default());
}

const FLEET: &str = include_str!("../testdata/fleet/inventory.yaml");
const SETS: &str = include_str!("../testdata/fleet/clustersets.yaml");

/// The whole `plan` on a fuzzed document set: the input is a fixed example fleet followed by
/// fuzzed documents, so most runs reach the engines instead of stopping in the loader.
pub fn plan(data: &[u8]) {
    let mut input = Vec::with_capacity(FLEET.len() + SETS.len() + data.len() + 16);
    input.extend_from_slice(FLEET.as_bytes());
    input.extend_from_slice(b"\n---\n");
    input.extend_from_slice(SETS.as_bytes());
    input.extend_from_slice(b"\n---\n");
    input.extend_from_slice(data);
    let mut stdin = input.as_slice();
    let Ok(model) = load_inputs(&["-".to_string()], &mut stdin, &LoadOptions::default()) else {
        return;
    };
    let outcome = build(&model, &PlanOptions::at(1_767_225_600, Trace::Full));
    // Rendering is part of `plan`: every output format must cope with any outcome.
    let _ = fleetplan::plan_yaml(&outcome.plan);
    let _ = stream_plan(
        PlanOutput::Objects(PlanObjects::Bindings),
        &outcome,
        &mut Vec::new(),
    );
    let _ = fleetplan::plan_json(&outcome.plan);
    let _ = stream_plan(PlanOutput::Table(Some(100)), &outcome, &mut Vec::new());
    let _ = stream_plan(
        PlanOutput::Objects(PlanObjects::Decisions),
        &outcome,
        &mut Vec::new(),
    );
}

/// The label selector string syntax (`a=b,c notin (x,y),!d`): never panics, and whatever
/// parses prints as text that parses back to the same selector.
pub fn selector_parse(data: &[u8]) {
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
}
