//! One linear pass over a YAML input before the parser sees it, for what the parser gets
//! wrong on hostile input:
//!
//! - nesting: libyaml (under serde_yaml) keeps a simple-key entry per open flow collection and
//!   walks them all on every token, so `[[[[...` takes time quadratic in the depth (100,000
//!   levels: 30 s) before serde_yaml's recursion limit applies. Flow nesting deeper than that
//!   limit is refused here, at the bracket that goes past it, with serde_yaml's message;
//! - characters YAML does not allow (NUL and other controls): libyaml reports them against
//!   the first document at line 1 column 1; here they name their document, line and column;
//! - a byte order mark at the start of a later document, which YAML allows and libyaml does
//!   not: it is dropped, as the one at the start of the input is.
//!
//! The pass knows enough YAML to not be fooled by brackets in quoted scalars, comments, block
//! scalars and block-context plain scalars (`a: x[1]` is a string), and counts documents as
//! serde_yaml does. Since it counts lines and documents anyway, it also records the line each
//! document's content starts on, which serde_yaml does not give: every finding about an
//! object can then point at its line without a second pass over the input.

use std::borrow::Cow;

/// serde_yaml's (and serde_json's) recursion limit: the nesting the parser refuses past.
pub(super) const MAX_DEPTH: usize = 128;

const BOM: char = '\u{feff}';

/// What the pass refused, and where: document number, line and column from 1.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Refusal {
    pub document: usize,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// The text without byte order marks at the start of a line (a later document's start).
pub(super) fn without_later_boms(text: &str) -> Cow<'_, str> {
    if !text.contains(BOM) {
        return Cow::Borrowed(text);
    }
    let mut kept = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        kept.push_str(line.strip_prefix(BOM).unwrap_or(line));
    }
    Cow::Owned(kept)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Normal,
    DoubleQuoted,
    SingleQuoted,
    /// The lines of a block scalar: those more indented than its parent's line, and blank ones.
    BlockScalar {
        parent_indent: usize,
    },
}

/// Refuses flow nesting deeper than [`MAX_DEPTH`] and characters YAML does not allow; else
/// the line (from 1) each document's content starts on, after its `---` and comments, by
/// document number from 1 (`None` for a document without content; documents after the last
/// one with content are left out).
pub(super) fn scan(text: &str) -> Result<Vec<Option<usize>>, Refusal> {
    let mut scanner = Scanner {
        text,
        bytes: text.as_bytes(),
        documents: Documents::default(),
        mode: Mode::Normal,
        depth: 0,
        node_start: true,
        line: 1,
        line_start: 0,
        line_indent: 0,
        at: 0,
    };
    while let Some(&byte) = scanner.bytes.get(scanner.at) {
        if scanner.at == scanner.line_start && scanner.skipped_at_line_start() {
            continue;
        }
        scanner.at += 1;
        scanner.byte(byte)?;
    }
    Ok(scanner.documents.lines)
}

/// The pass's state, at byte `at` of line `line` (from 1), which starts at byte `line_start`.
struct Scanner<'t> {
    text: &'t str,
    bytes: &'t [u8],
    documents: Documents,
    mode: Mode,
    /// Open flow collections.
    depth: usize,
    /// Whether the next character may begin a node (a scalar, a collection, an indicator).
    node_start: bool,
    line: usize,
    line_start: usize,
    /// The indentation of the block-context line the pass is on.
    line_indent: usize,
    at: usize,
}

impl Scanner<'_> {
    /// At a line's start (YAML 1.2 §8.1, §9.1–9.2): a block scalar's content line is skipped
    /// whole; outside flow collections a document marker is counted and a directive skipped.
    /// Whether it moved on from the line's first byte.
    fn skipped_at_line_start(&mut self) -> bool {
        let bytes = self.bytes;
        let at = self.at;
        let indent = bytes
            .get(at..)
            .unwrap_or_default()
            .iter()
            .take_while(|byte| **byte == b' ')
            .count();
        if let Mode::BlockScalar { parent_indent } = self.mode {
            let rest = bytes.get(at + indent..).unwrap_or_default();
            let blank = rest
                .first()
                .is_none_or(|byte| matches!(byte, b'\n' | b'\r'));
            if blank || indent > parent_indent {
                self.at = next_line(bytes, at);
                self.line += 1;
                self.line_start = self.at;
                return true;
            }
            self.mode = Mode::Normal;
        }
        if self.mode == Mode::Normal && self.depth == 0 {
            self.line_indent = indent;
            self.node_start = true;
            let rest = bytes.get(at..).unwrap_or_default();
            if let Some(marker) = document_marker(rest) {
                self.documents.marker(marker);
                self.at += 3;
                return true;
            }
            // A directive (`%YAML 1.2`) before a document's `---` is not its content.
            if rest.first() == Some(&b'%') && !self.documents.started {
                self.at = end_of_line(bytes, at);
                return true;
            }
        }
        false
    }

    /// The byte just passed (`at` is after it): line ends, quoted scalars' ends and escapes
    /// (§7.3), comments (§6.6), and outside scalars what may begin or end a node.
    fn byte(&mut self, byte: u8) -> Result<(), Refusal> {
        match (self.mode, byte) {
            (_, b'\n') => {
                self.line += 1;
                self.line_start = self.at;
            }
            (Mode::BlockScalar { .. }, _) => {}
            (Mode::DoubleQuoted, b'\\') => self.at += 1,
            (Mode::DoubleQuoted, b'"') | (Mode::SingleQuoted, b'\'') => {
                if self.mode == Mode::SingleQuoted && self.bytes.get(self.at) == Some(&b'\'') {
                    self.at += 1;
                } else {
                    self.mode = Mode::Normal;
                    self.node_start = false;
                }
            }
            (Mode::DoubleQuoted | Mode::SingleQuoted, _) => {}
            (Mode::Normal, b' ' | b'\t' | b'\r') => {}
            (Mode::Normal, b'#') if self.node_start || follows_space(self.bytes, self.at - 1) => {
                self.at = end_of_line(self.bytes, self.at);
            }
            (Mode::Normal, _) => {
                self.documents.content(self.line);
                if (self.depth > 0 || self.node_start) && self.flow_indicator(byte)? {
                    return Ok(());
                }
                if self.node_start {
                    self.node_indicator(byte);
                } else if byte == b':' && (separated(self.bytes, self.at) || self.depth > 0) {
                    self.node_start = true;
                }
            }
        }
        Ok(())
    }

    /// Flow collections' indicators (§7.4): `[` and `{` open one, refused past
    /// [`MAX_DEPTH`]; `]`, `}` and `,` inside one. Whether `byte` was one.
    fn flow_indicator(&mut self, byte: u8) -> Result<bool, Refusal> {
        match byte {
            b'[' | b'{' => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err(Refusal {
                        document: self.documents.number,
                        line: self.line,
                        column: column(self.text, self.line_start, self.at - 1),
                        message: "recursion limit exceeded".to_string(),
                    });
                }
                self.node_start = true;
            }
            b']' | b'}' if self.depth > 0 => {
                self.depth -= 1;
                self.node_start = false;
            }
            b',' if self.depth > 0 => self.node_start = true,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// What begins a node: a quoted scalar (§7.3), a block scalar's header (§8.1, whose
    /// content lines [`Self::skipped_at_line_start`] skips), a block indicator followed by
    /// a space (`-`, `?`, `:`), an anchor or a tag (§6.9); anything else begins a plain
    /// scalar, in which no bracket nests.
    fn node_indicator(&mut self, byte: u8) {
        match byte {
            b'"' => self.mode = Mode::DoubleQuoted,
            b'\'' => self.mode = Mode::SingleQuoted,
            b'|' | b'>' if self.depth == 0 => {
                self.mode = Mode::BlockScalar {
                    parent_indent: self.line_indent,
                };
                self.at = end_of_line(self.bytes, self.at);
            }
            b'-' | b'?' | b':' if separated(self.bytes, self.at) => {}
            b'&' | b'!' => self.at = end_of_token(self.bytes, self.at),
            _ => self.node_start = false,
        }
    }
}

/// The first character YAML does not allow (libyaml's printable set), with where it is.
pub(super) fn disallowed_character(text: &str) -> Option<Refusal> {
    let (offset, character) = text.char_indices().find(|(_, c)| !printable(*c))?;
    let before = text.get(..offset).unwrap_or_default();
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    let mut documents = Documents::default();
    for (number, line) in before.split_inclusive('\n').enumerate() {
        match document_marker(line.as_bytes()) {
            Some(marker) => documents.marker(marker),
            None if !line.trim().is_empty() && !line.starts_with('#') => {
                documents.content(number + 1);
            }
            None => {}
        }
    }
    Some(Refusal {
        document: documents.number,
        line: before.matches('\n').count() + 1,
        column: column(text, line_start, offset),
        message: format!(
            "control characters are not allowed: U+{:04X}",
            u32::from(character)
        ),
    })
}

/// libyaml's `IS_PRINTABLE`, with tab, line feed and carriage return.
fn printable(c: char) -> bool {
    matches!(c,
        '\t' | '\n' | '\r' | '\u{20}'..='\u{7e}' | '\u{85}' | '\u{a0}'..='\u{d7ff}'
        | '\u{e000}'..='\u{fffd}' | '\u{10000}'..='\u{10ffff}')
}

#[derive(Clone, Copy)]
enum Marker {
    Start,
    End,
}

/// Document numbers as serde_yaml gives them: `---` starts a document unless it is the
/// first thing in the input; content after `...` starts one too.
struct Documents {
    number: usize,
    started: bool,
    ended: bool,
    /// The line of each document's first content, by number from 1.
    lines: Vec<Option<usize>>,
}

impl Default for Documents {
    fn default() -> Documents {
        Documents {
            number: 1,
            started: false,
            ended: false,
            lines: Vec::new(),
        }
    }
}

impl Documents {
    fn marker(&mut self, marker: Marker) {
        match marker {
            Marker::Start => {
                if self.started || self.ended {
                    self.number += 1;
                }
                self.started = true;
                self.ended = false;
            }
            Marker::End => {
                self.started = false;
                self.ended = true;
            }
        }
    }

    /// Content on `line`; the first of its document gives the document's line.
    fn content(&mut self, line: usize) {
        if self.ended {
            self.number += 1;
            self.ended = false;
        }
        self.started = true;
        if self.lines.len() < self.number {
            self.lines.resize(self.number - 1, None);
            self.lines.push(Some(line));
        }
    }
}

/// `---` or `...` at the start of a line, followed by a space or the line's end.
fn document_marker(line: &[u8]) -> Option<Marker> {
    let marker = match line.get(..3)? {
        b"---" => Marker::Start,
        b"..." => Marker::End,
        _ => return None,
    };
    line.get(3)
        .is_none_or(|byte| matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
        .then_some(marker)
}

/// Whether the byte before `at` is followed by a space, a line end, or the input's end.
fn separated(bytes: &[u8], at: usize) -> bool {
    bytes
        .get(at)
        .is_none_or(|byte| matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
}

fn follows_space(bytes: &[u8], at: usize) -> bool {
    at == 0
        || bytes
            .get(at - 1)
            .is_some_and(|byte| matches!(byte, b' ' | b'\t' | b'\n'))
}

fn end_of_line(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(|byte| *byte != b'\n') {
        at += 1;
    }
    at
}

fn next_line(bytes: &[u8], at: usize) -> usize {
    (end_of_line(bytes, at) + 1).min(bytes.len())
}

fn end_of_token(bytes: &[u8], mut at: usize) -> usize {
    while bytes
        .get(at)
        .is_some_and(|byte| !matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
    {
        at += 1;
    }
    at
}

/// The column (from 1, in characters) of byte `at` on the line starting at `line_start`.
fn column(text: &str, line_start: usize, at: usize) -> usize {
    text.get(line_start..at)
        .map_or(1, |line| line.chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(text: &str) -> Option<(usize, usize, usize)> {
        scan(text)
            .err()
            .map(|refusal| (refusal.document, refusal.line, refusal.column))
    }

    #[test]
    fn flow_nesting_past_the_limit_is_refused_at_its_bracket() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert_eq!(refusal(&deep), Some((1, 1, 129)));
        let at_limit = format!("{}{}", "[".repeat(128), "]".repeat(128));
        assert_eq!(refusal(&at_limit), None);
        let maps = format!("a: {}1{}", "{a: ".repeat(200), "}".repeat(200));
        assert_eq!(refusal(&maps), Some((1, 1, 4 + 128 * 4)));
    }

    #[test]
    fn closed_collections_do_not_add_up() {
        let siblings = "[[]]\n".repeat(1000);
        assert_eq!(refusal(&format!("a: [{siblings}]")), None);
    }

    #[test]
    fn brackets_in_scalars_and_comments_are_not_nesting() {
        let brackets = "[".repeat(200);
        for text in [
            format!("a: \"{brackets}\"\n"),
            format!("a: '{brackets}'\n"),
            format!("a: x{brackets}\n"),
            format!("a: 1 # {brackets}\n"),
            format!("a: |\n  {brackets}\n\n  {brackets}\nb: 1\n"),
            format!("- >-\n    {brackets}\n"),
            format!("a: 'it''s {brackets}'\n"),
            format!("a: \"\\\" {brackets}\"\n"),
        ] {
            assert_eq!(refusal(&text), None, "{text}");
        }
    }

    #[test]
    fn flow_after_indicators_anchors_and_tags_is_nesting() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        for text in [
            format!("- {deep}\n"),
            format!("? {deep}\n"),
            format!("a: &x !!seq {deep}\n"),
            format!("a: |\n  text\nb: {deep}\n"),
        ] {
            assert!(refusal(&text).is_some(), "{text}");
        }
    }

    #[test]
    fn documents_are_numbered_as_serde_yaml_does() {
        let deep = "[".repeat(200);
        assert_eq!(refusal(&format!("---\n{deep}")).map(|r| r.0), Some(1));
        assert_eq!(refusal(&format!("a: 1\n---\n{deep}")).map(|r| r.0), Some(2));
        assert_eq!(refusal(&format!("---\n---\n{deep}")).map(|r| r.0), Some(2));
        assert_eq!(refusal(&format!("a: 1\n...\n{deep}")).map(|r| r.0), Some(2));
        assert_eq!(
            refusal(&format!("a: 1\n...\n---\n{deep}")).map(|r| r.0),
            Some(2)
        );
        assert_eq!(
            refusal(&format!("a: 1\n---\nb: |\n  ---\n  x\n---\n{deep}")).map(|r| r.0),
            Some(3)
        );
    }

    #[test]
    fn each_document_starts_on_the_line_of_its_first_content() {
        let text = "# header\n\napiVersion: v1\nkind: A\n---\n# about b\n\n  kind: B\n...\n%YAML 1.2\n--- |\n  ---\n---\n---\n- c\n";
        assert_eq!(
            scan(text),
            Ok(vec![Some(3), Some(8), Some(11), None, Some(15)])
        );
        assert_eq!(scan("a: 1\n---\n---\n"), Ok(vec![Some(1)]));
        assert_eq!(scan(""), Ok(vec![]));
    }

    #[test]
    fn a_directive_is_not_a_document_of_its_own() {
        let deep = "[".repeat(200);
        assert_eq!(
            refusal(&format!("%YAML 1.2\n---\n{deep}")).map(|r| r.0),
            Some(1)
        );
    }

    #[test]
    fn control_characters_name_their_document_line_and_column() {
        let found = disallowed_character("a: 1\n---\nb: 2\nc: x\u{0}y\n");
        assert_eq!(
            found,
            Some(Refusal {
                document: 2,
                line: 4,
                column: 5,
                message: "control characters are not allowed: U+0000".to_string()
            })
        );
        assert_eq!(disallowed_character("a: \"tab\tand ü and 😀\"\r\n"), None);
    }

    #[test]
    fn boms_at_line_starts_are_dropped() {
        assert_eq!(
            without_later_boms("a: 1\n---\n\u{feff}b: 2\n"),
            "a: 1\n---\nb: 2\n"
        );
        assert!(matches!(without_later_boms("a: 1\n"), Cow::Borrowed(_)));
    }
}
