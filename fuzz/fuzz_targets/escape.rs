//! The output escaping (`render::escape`): whatever the input text, what each context gets
//! cannot act on its reader. A terminal or log line holds no control character but tab and
//! line feed, no bidi override or invisible character, and no line starting a workflow
//! command; a markdown code span stays on one line and closes where it should; a workflow
//! command's message has no line break and its property no delimiter; XML holds no markup.
#![no_main]

use fleetplan::render::escape;
use libfuzzer_sys::fuzz_target;

/// What no escaped terminal text may hold (besides tab and line feed).
fn unsafe_char(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n')
        || matches!(c, '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{FEFF}')
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let terminal = escape::terminal(text);
    assert!(!terminal.chars().any(unsafe_char), "{text:?} → {terminal:?}");
    assert!(
        !terminal.lines().any(|line| line.trim_start().starts_with("::")),
        "{text:?} → {terminal:?}"
    );
    assert_eq!(
        terminal.matches('\n').count(),
        text.matches('\n').count(),
        "lines are kept"
    );

    let line = escape::terminal_line(text);
    assert!(!line.contains('\n') && !line.chars().any(unsafe_char), "{line:?}");
    assert!(!line.trim_start().starts_with("::"), "{line:?}");

    // A code span: one line, fenced by a run of backticks longer than any inside.
    for (span, in_table) in [(escape::markdown_code(text), false), (escape::markdown_cell(text), true)] {
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
    assert!(!data.contains(['\r', '\n']) && !data.chars().any(unsafe_char), "{data:?}");
    let property = escape::workflow_property(text);
    assert!(!property.contains(['\r', '\n', ':', ',']), "{property:?}");

    let xml = escape::xml_text(text);
    assert!(!xml.contains(['<', '>']), "{xml:?}");
    assert!(xml.split('&').skip(1).all(|rest| ["amp;", "lt;", "gt;"]
        .iter()
        .any(|entity| rest.starts_with(entity))));
    let attribute = escape::xml_attribute(text);
    assert!(!attribute.contains(['"', '\n', '\r', '\t', '<']), "{attribute:?}");
});
