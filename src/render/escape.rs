//! Text from inputs, made safe for each place fleetplan writes it: the one place output is
//! escaped. Cluster names, label keys and object names are validated as the API server does
//! when they are read, but much else is free text (a CEL expression, an annotation, a name in
//! a previous plan or a hub export, a value echoed in an error), so every output escapes what
//! its readers would act on:
//!
//! - a terminal or a CI log ([`terminal`], [`terminal_line`]): control characters (ESC starts
//!   the sequences that recolour, retitle or hyperlink; CR overwrites a line), DEL, the C1
//!   controls, and the invisible characters that reorder or hide text (bidi overrides such as
//!   U+202E, zero-width characters, line and paragraph separators) become `\u{…}`; and a line
//!   that would start with `::`, which GitHub Actions reads as a workflow command in any log
//!   line, starts with `\u{3a}:` instead;
//! - markdown ([`markdown_code`], [`markdown_cell`], [`html`]): a code span that nothing closes
//!   early, on one line, with table pipes escaped;
//! - GitHub workflow commands ([`workflow_data`], [`workflow_property`]): actions/toolkit's
//!   `command.ts` escaping, after [`terminal_line`]'s;
//! - XML ([`xml_text`], [`xml_attribute`]): as for a terminal, then markup escaped, and what
//!   XML 1.0 cannot hold replaced;
//! - JSON and SARIF ([`JsonFormatter`], [`json_pretty`]) and YAML ([`yaml_marked`], used by
//!   `yaml11::to_string`): the same characters as for a terminal as the format's own escapes
//!   (`\u202e` in JSON, a double-quoted `"\u202E"` in YAML), so the data reads back the same.
//!   The one exception in where, not what: a fleet's cluster names that hold nothing either
//!   JSON writer escapes (printable ASCII but `"` and `\`) are written from JSON text made
//!   once per name (`model::cluster_names`, the plan's hot path); any other name comes here.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io;

use serde::Serialize;
use serde_json::ser::Formatter;

use crate::model::{listed, HandedOverList};

/// Whether `c` is escaped for a terminal: a control character (tab and, in [`terminal`], line
/// feed aside) or an invisible character that changes how text around it reads.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            // Arabic letter mark; zero-width space, joiners and direction marks.
            '\u{061C}' | '\u{200B}'..='\u{200F}'
            // Line and paragraph separators, bidi embeddings and overrides (U+202A-U+202E).
            | '\u{2028}'..='\u{202E}'
            // Word joiner, invisible operators, bidi isolates, deprecated format characters.
            | '\u{2060}'..='\u{206F}'
            // Byte order mark (zero-width no-break space), interlinear annotations.
            | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}'
        )
}

/// `text` for a terminal or a log, lines kept: see the module documentation.
pub fn terminal(text: &str) -> Cow<'_, str> {
    escape_for_terminal(text, true)
}

/// One line for a terminal or a log: as [`terminal`], and line feeds escaped too, so text
/// from an input can never start a line of its own.
pub fn terminal_line(text: &str) -> Cow<'_, str> {
    escape_for_terminal(text, false)
}

fn escape_for_terminal(text: &str, keep_lines: bool) -> Cow<'_, str> {
    let kept = |c: char| c == '\t' || (keep_lines && c == '\n');
    let clean = !text.chars().any(|c| is_unsafe(c) && !kept(c))
        && !text
            .split('\n')
            .any(|line| line.trim_start().starts_with("::"));
    if clean {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    // Only whitespace so far on this line: a `::` here would be read as a workflow command.
    let mut line_start = true;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if line_start && c == ':' && chars.peek() == Some(&':') {
            out.push_str("\\u{3a}");
            line_start = false;
        } else if is_unsafe(c) && !kept(c) {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            line_start = false;
        } else {
            out.push(c);
            if c == '\n' {
                line_start = true;
            } else if !c.is_whitespace() {
                line_start = false;
            }
        }
    }
    Cow::Owned(out)
}

/// A markdown code span holding `text` on one line, whatever it contains (CommonMark: a
/// fence longer than any run of backticks inside, padded with spaces when the text touches a
/// backtick); what a terminal would not show is escaped as [`terminal_line`] escapes it, so a
/// line feed cannot end the span and start a heading.
pub fn markdown_code(text: &str) -> String {
    if text.is_empty() {
        // "``" is no code span at all; a lone space is one, showing nothing.
        return "` `".to_string();
    }
    let text = terminal_line(text);
    let longest = text
        .split(|c| c != '`')
        .map(str::len)
        .max()
        .unwrap_or_default();
    let fence = "`".repeat(longest + 1);
    if longest > 0 {
        format!("{fence} {text} {fence}")
    } else {
        format!("{fence}{text}{fence}")
    }
}

/// A code span in a table cell: as [`markdown_code`], with `|` escaped, which GitHub's
/// tables split cells at even inside a code span.
pub fn markdown_cell(text: &str) -> String {
    markdown_code(text).replace('|', "\\|")
}

/// Text inside HTML in markdown (a `<summary>`), where markdown is not read.
pub fn html(text: &str) -> String {
    terminal_line(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A workflow command's message: actions/toolkit's `command.ts` `escapeData` (`%`, CR, LF),
/// after the other controls and invisible characters are escaped as for a terminal.
pub fn workflow_data(text: &str) -> String {
    escape_for_terminal_keeping_breaks(text)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value (`file=`): `escapeProperty`, which also escapes the
/// `:` and `,` that delimit properties.
pub fn workflow_property(text: &str) -> String {
    workflow_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// [`terminal_line`] without escaping CR and LF, which workflow commands encode themselves.
fn escape_for_terminal_keeping_breaks(text: &str) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| is_unsafe(c) && !matches!(c, '\t' | '\n' | '\r'))
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_unsafe(c) && !matches!(c, '\t' | '\n' | '\r') {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// XML character data: controls and invisible characters escaped as for a terminal (a JUnit
/// report is shown in a browser or a log), markup escaped, and anything else XML 1.0 cannot
/// hold replaced by U+FFFD.
pub fn xml_text(value: &str) -> String {
    let value = escape_for_terminal_keeping_breaks(value);
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if is_xml_char(c) => out.push(c),
            _ => out.push(char::REPLACEMENT_CHARACTER),
        }
    }
    out
}

/// An XML attribute value: as text, plus quotes, and whitespace as character references so
/// that attribute normalisation keeps newlines and tabs.
pub fn xml_attribute(value: &str) -> String {
    xml_text(value)
        .replace('"', "&quot;")
        .replace('\n', "&#10;")
        .replace('\r', "&#13;")
        .replace('\t', "&#9;")
}

/// XML 1.0's `Char` production (tab, newline and carriage return handled by the callers).
fn is_xml_char(c: char) -> bool {
    matches!(c, '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Whether `c` is written as an escape in YAML and JSON output: what [`terminal`] escapes,
/// tab and line feed aside (both formats escape those themselves where they must).
fn is_escaped_in_data(c: char) -> bool {
    is_unsafe(c) && !matches!(c, '\t' | '\n')
}

/// serde_json's pretty printer, writing every character [`terminal`] would escape as a JSON
/// `\uXXXX` escape: serde_json escapes the C0 controls, but writes DEL, the C1 controls and
/// the invisible characters that reorder text (U+202E) as they are, which a reviewer's
/// terminal or browser then acts on. The text parses to the same strings.
///
/// The layout is `serde_json::ser::PrettyFormatter`'s (two spaces a level), byte for byte;
/// the new line before a value and its indentation are one write instead of one per level: a
/// plan lists millions of cluster names, one line each.
#[derive(Default)]
pub struct JsonFormatter {
    depth: usize,
    /// Whether the innermost list or mapping has a value (so its closing bracket goes on a
    /// line of its own).
    has_value: bool,
}

impl JsonFormatter {
    pub fn new() -> JsonFormatter {
        JsonFormatter::default()
    }

    /// A comma (unless `first`), a new line, and the current indentation.
    fn new_line<W: ?Sized + io::Write>(&self, writer: &mut W, first: bool) -> io::Result<()> {
        let from = usize::from(first);
        let levels = self.depth.min(INDENTED_LEVELS);
        writer.write_all(&NEW_LINE[from..2 + 2 * levels])?;
        for _ in levels..self.depth {
            writer.write_all(b"  ")?;
        }
        Ok(())
    }

    /// A list of cluster names handed over whole ([`HandedOverList`]), as serde_json would
    /// write it through this formatter: `[`, each name on a line of its own one level deeper,
    /// and `]` on a line at this level (`[]` when empty).
    fn list<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        list: &HandedOverList,
    ) -> io::Result<()> {
        if list.is_empty() {
            return writer.write_all(b"[]");
        }
        writer.write_all(b"[")?;
        self.depth += 1;
        if !list.write_lines(self.depth, |lines| writer.write_all(lines))? {
            let mut first = true;
            for name in list.names() {
                self.new_line(writer, std::mem::take(&mut first))?;
                writer.write_all(name)?;
            }
        }
        self.depth -= 1;
        self.new_line(writer, true)?;
        writer.write_all(b"]")
    }

    fn close<W: ?Sized + io::Write>(&mut self, writer: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.new_line(writer, true)?;
        }
        writer.write_all(bracket)
    }
}

/// Levels of indentation [`JsonFormatter`] writes in one piece (deeper ones add two spaces a
/// level).
const INDENTED_LEVELS: usize = 24;
/// `,\n` and [`INDENTED_LEVELS`] levels of two spaces.
const NEW_LINE: [u8; 2 + 2 * INDENTED_LEVELS] = {
    let mut line = [b' '; 2 + 2 * INDENTED_LEVELS];
    line[0] = b',';
    line[1] = b'\n';
    line
};

/// Whether every byte is below DEL (0x7f), eight at a time: adding one to each byte sets the
/// top bit of exactly those from 0x7f up (a carry into a byte only comes out of 0xff, whose own
/// top bit is set).
fn below_del(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const TOPS: u64 = 0x8080_8080_8080_8080;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        if (word | word.wrapping_add(ONES)) & TOPS != 0 {
            return false;
        }
    }
    words.remainder().iter().all(|&byte| byte < 0x7f)
}

impl Formatter for JsonFormatter {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // Below DEL every character is safe (serde_json escapes the C0 controls before a
        // fragment is cut): one pass over the bytes for nearly every string.
        if below_del(fragment.as_bytes()) {
            return writer.write_all(fragment.as_bytes());
        }
        let mut copied = 0;
        for (at, c) in fragment.char_indices() {
            if is_escaped_in_data(c) {
                writer.write_all(&fragment.as_bytes()[copied..at])?;
                write!(writer, "\\u{:04x}", u32::from(c))?;
                copied = at + c.len_utf8();
            }
        }
        writer.write_all(&fragment.as_bytes()[copied..])
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        writer.write_all(b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.new_line(writer, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.new_line(writer, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn write_raw_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        match listed(fragment) {
            Some(list) => self.list(writer, &list),
            None => writer.write_all(fragment.as_bytes()),
        }
    }
}

/// `value` as pretty JSON (serde_json's layout) with [`JsonFormatter`]'s escapes.
pub fn json_pretty<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut bytes = Vec::with_capacity(128);
    value.serialize(&mut serde_json::Serializer::with_formatter(
        &mut bytes,
        JsonFormatter::new(),
    ))?;
    // serde_json writes only valid UTF-8, and the escapes are ASCII: were it not, the
    // serializer's error, never an empty text.
    String::from_utf8(bytes).map_err(serde::ser::Error::custom)
}

/// The character YAML output marks a string with: libyaml never prints it, it writes the
/// escape `\uFFFF` in a double-quoted scalar, so a marked string is always double-quoted.
const YAML_MARK: char = '\u{FFFF}';
const YAML_MARK_ESCAPE: &str = "\\uFFFF";

/// Whether YAML emitted by serde_yaml shows a character [`terminal`] would escape (libyaml
/// escapes the controls itself, but prints U+202E and the other invisible characters as they
/// are, even in plain scalars), or holds the text of a mark (see [`yaml_marked`]).
pub fn yaml_needs_escapes(text: &str) -> bool {
    text.contains(YAML_MARK_ESCAPE) || (!text.is_ascii() && text.chars().any(is_escaped_in_data))
}

/// `text` as a string that libyaml writes double-quoted, with each character to escape (and
/// each backslash, and the mark itself) replaced by the mark and its four hex digits, or
/// `None` when nothing in it needs that. libyaml writes the mark as `\uFFFF`, so the escape
/// of the character is the emitted text with the `FFFF` dropped ([`yaml_unmark`]). A string
/// holding the text `\uFFFF` is marked too: written double-quoted, its backslash is an escape,
/// never text [`yaml_unmark`] could misread.
pub fn yaml_marked(text: &str) -> Option<String> {
    let marked = |c: char| is_escaped_in_data(c) || c == YAML_MARK;
    if !text.chars().any(marked) && !text.contains(YAML_MARK_ESCAPE) {
        return None;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if marked(c) || c == '\\' {
            let _ = write!(out, "{YAML_MARK}{:04X}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// YAML emitted from [`yaml_marked`] strings with each mark and its digits turned into the
/// `\uXXXX` escape of the character it stands for. Every `\uFFFF` in such text is a mark:
/// only marked strings could hold the character or the text.
pub fn yaml_unmark(text: &str) -> String {
    text.replace(YAML_MARK_ESCAPE, "\\u")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn terminals_see_controls_and_bidi_overrides_escaped() {
        assert_eq!(
            terminal("a\u{1b}]8;;http://x\u{7}b\u{202e}c\rd\n\te"),
            "a\\u{1b}]8;;http://x\\u{7}b\\u{202e}c\\u{d}d\n\te"
        );
        assert_eq!(terminal("plain\ntext"), Cow::Borrowed("plain\ntext"));
        assert_eq!(terminal_line("a\nb"), "a\\u{a}b");
    }

    #[test]
    fn no_line_starts_a_workflow_command() {
        assert_eq!(
            terminal("error: x\n  ::error file=a::b\n::warning::c"),
            "error: x\n  \\u{3a}:error file=a::b\n\\u{3a}:warning::c"
        );
        assert_eq!(terminal(":: a"), "\\u{3a}: a");
        assert_eq!(terminal("a :: b"), Cow::Borrowed("a :: b"));
        assert_eq!(terminal(":a"), Cow::Borrowed(":a"));
    }

    #[test]
    fn a_code_span_outgrows_its_backticks_and_stays_on_one_line() {
        assert_eq!(markdown_code("a"), "`a`");
        assert_eq!(markdown_code(""), "` `");
        assert_eq!(markdown_code("a `b` c"), "`` a `b` c ``");
        assert_eq!(markdown_code("a\n# heading"), "`a\\u{a}# heading`");
        assert_eq!(markdown_cell("a|b"), "`a\\|b`");
        assert_eq!(html("<x>\n&"), "&lt;x&gt;\\u{a}&amp;");
    }

    #[test]
    fn workflow_commands_escape_as_actions_toolkit_does() {
        assert_eq!(workflow_data("50%\r\n::error::x"), "50%25%0D%0A::error::x");
        assert_eq!(workflow_property("a:b,c\n"), "a%3Ab%2Cc%0A");
        assert_eq!(workflow_data("\u{1b}[31m"), "\\u{1b}[31m");
    }

    #[test]
    fn xml_escapes_markup_quotes_and_what_it_cannot_hold() {
        assert_eq!(
            xml_text("a<b>&c\u{1}d\te\u{202e}\u{FFFE}"),
            "a&lt;b&gt;&amp;c\\u{1}d\te\\u{202e}\u{FFFD}"
        );
        assert_eq!(
            xml_attribute("say \"x\"\nnext"),
            "say &quot;x&quot;&#10;next"
        );
    }

    fn json() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i64>().prop_map(serde_json::Value::from),
            "[a-z\"\\\\\u{7f}\u{80}\u{202e}]{0,9}".prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(6, 48, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
                prop::collection::btree_map("[a-z]{0,3}", inner, 0..4)
                    .prop_map(|map| serde_json::Value::Object(map.into_iter().collect())),
            ]
        })
    }

    /// Nested `depth` times in one-element lists, past the levels written in one piece.
    fn deep(depth: usize) -> serde_json::Value {
        (0..depth).fold(serde_json::json!({"a": [1, {}], "b": []}), |inner, _| {
            serde_json::json!([inner])
        })
    }

    proptest! {
        /// serde_json's pretty layout byte for byte, with DEL, the C1 controls and invisible
        /// characters escaped.
        #[test]
        fn json_pretty_is_serde_jsons_layout_with_escapes(value in json()) {
            let expected = serde_json::to_string_pretty(&value).unwrap_or_default();
            let escaped: String = expected
                .chars()
                .map(|c| if is_escaped_in_data(c) { format!("\\u{:04x}", u32::from(c)) } else { c.to_string() })
                .collect();
            prop_assert_eq!(json_pretty(&value).unwrap_or_default(), escaped);
        }

        #[test]
        fn below_del_agrees_with_a_byte_at_a_time(bytes in prop::collection::vec(any::<u8>(), 0..40)) {
            prop_assert_eq!(below_del(&bytes), bytes.iter().all(|&byte| byte < 0x7f));
        }
    }

    #[test]
    fn deep_json_keeps_serde_jsons_indentation() {
        for depth in [
            0,
            1,
            INDENTED_LEVELS - 1,
            INDENTED_LEVELS,
            INDENTED_LEVELS + 3,
        ] {
            let value = deep(depth);
            assert_eq!(
                json_pretty(&value).unwrap_or_default(),
                serde_json::to_string_pretty(&value).unwrap_or_default(),
                "depth {depth}"
            );
        }
    }
}
