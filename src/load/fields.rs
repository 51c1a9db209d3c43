//! A JSON mapping's top-level fields, found in one pass over its text.
//!
//! Reading an object asks its text several things: `apiVersion` and `kind`, `metadata`, a
//! List's `items`, an inventory's `clusters`. Each used to be a walk over the whole text (a
//! 100k-cluster inventory is one 38 MB object, so loading it walked 38 MB nine times).
//! [`Fields::read`] finds every top-level field's text, and the elements of a field that is
//! a list, in one walk; each question is then a look-up, and each decode reads only its field.
//!
//! The text is JSON that already parsed without a duplicate key (`content::json_documents`),
//! so the walk only needs to find where values end: strings (with their escapes) and
//! brackets. Anything it does not expect makes it give up (`None`), and the caller reads the
//! text as before.

use std::borrow::Cow;

/// The top-level fields of one JSON mapping, in the order written.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Fields<'a> {
    text: &'a str,
    fields: Vec<Field<'a>>,
    /// How deeply lists and mappings nest in the text, the mapping itself counted (`{}` is 1).
    depth: usize,
}

#[derive(Debug, PartialEq, Eq)]
struct Field<'a> {
    key: Cow<'a, str>,
    /// The value's text, without the whitespace around it.
    value: &'a str,
    /// The texts of the elements when the value is a list.
    elements: Option<Vec<&'a str>>,
    /// Elements (by index) whose own fields were already read, kept for whoever reads them
    /// next ([`Fields::keep`]).
    walked: Walked<'a>,
}

/// The fields of some elements of a list, by index.
pub(super) type Walked<'a> = Vec<(usize, Fields<'a>)>;

impl<'a> Fields<'a> {
    /// The fields of `text` when it is one JSON mapping; `None` for any other value.
    ///
    /// A list's element that is a mapping of at least [`LARGE`] bytes (a List's
    /// 100k-cluster inventory) has its own fields read in the same walk and kept
    /// ([`Fields::take_walked`]): walking it again for them was most of a large fleet's serial
    /// loading. One level only: its own lists' elements are not read.
    pub(super) fn read(text: &'a str) -> Option<Fields<'a>> {
        Fields::walk(text, |cursor| cursor.field(true))
    }

    /// The fields [`Fields::read`] finds in `text`, when this walk shows `text` to be one
    /// valid JSON mapping with no key twice at any depth, which is what serde_json's check
    /// (`content::checked`) would find: a List's small item is then walked once, where it
    /// was checked by serde_json and walked again for its fields. `None` when it is not, or
    /// when it holds what this walk leaves to serde_json ([`Cursor::checked_value`]): the
    /// caller checks it there.
    pub(super) fn read_checked(text: &'a str) -> Option<Fields<'a>> {
        let mut keys = Keys::default();
        Fields::walk(text, |cursor| {
            let key = Cow::Borrowed(cursor.checked_key(&mut keys)?);
            cursor.colon()?;
            let start = cursor.at;
            let elements = if cursor.peek()? == b'[' {
                Some(cursor.checked_list(0)?)
            } else {
                cursor.checked_value(0)?;
                None
            };
            Some(Field {
                key,
                value: cursor.since(start)?,
                elements,
                walked: Vec::new(),
            })
        })
    }

    /// The walk over one mapping both reads share: `field` reads each field, the cursor on
    /// its key.
    fn walk(
        text: &'a str,
        field: impl FnMut(&mut Cursor<'a>) -> Option<Field<'a>>,
    ) -> Option<Fields<'a>> {
        let mut cursor = Cursor {
            text,
            at: 0,
            deepest: 0,
        };
        cursor.whitespace();
        let mut fields = cursor.mapping(field)?;
        cursor.whitespace();
        fields.text = text;
        (cursor.at == text.len()).then_some(fields)
    }

    /// How deeply lists and mappings nest in the text, the mapping itself counted.
    pub(super) fn depth(&self) -> usize {
        self.depth
    }

    /// The fields of element `index` of `key`'s list, when they were read and kept.
    pub(super) fn walked(&self, key: &str, index: usize) -> Option<&Fields<'a>> {
        let walked = &self.field(key)?.walked;
        // Usually every element was kept, the `index`-th at `index`: a List's 30k items were
        // each searched for twice, each search missing the cache at every step.
        let at = match walked.get(index) {
            Some((at, _)) if *at == index => index,
            _ => walked.binary_search_by_key(&index, |(at, _)| *at).ok()?,
        };
        walked.get(at).map(|(_, fields)| fields)
    }

    /// Keeps the fields of the elements of the `position`-th field's list already read
    /// (`(index, fields)`, by index), so that reading them again is a look-up
    /// ([`Fields::walked`]; a List's every item is one).
    pub(super) fn keep(&mut self, position: usize, walked: Walked<'a>) {
        if let Some(field) = self.fields.get_mut(position) {
            field.walked = walked;
        }
    }

    /// The fields of the `position`-th field's list elements read with it (by index), taken
    /// out for whoever reads those elements next; none the second time.
    pub(super) fn take_walked(&mut self, position: usize) -> Walked<'a> {
        self.fields
            .get_mut(position)
            .map(|field| std::mem::take(&mut field.walked))
            .unwrap_or_default()
    }

    /// Each field's key, value text, and its elements' texts when the value is a list.
    pub(super) fn parts(&self) -> impl Iterator<Item = (&str, &'a str, Option<&[&'a str]>)> {
        self.fields
            .iter()
            .map(|field| (field.key.as_ref(), field.value, field.elements.as_deref()))
    }

    /// The whole mapping's text.
    pub(super) fn text(&self) -> &'a str {
        self.text
    }

    /// The text of the value of `key`.
    pub(super) fn get(&self, key: &str) -> Option<&'a str> {
        self.field(key).map(|field| field.value)
    }

    /// The texts of the elements of `key`'s value, when it is a list.
    pub(super) fn elements(&self, key: &str) -> Option<&[&'a str]> {
        self.field(key)?.elements.as_deref()
    }

    /// Each field's key and value text, in the order written.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&str, &'a str)> {
        self.fields
            .iter()
            .map(|field| (field.key.as_ref(), field.value))
    }

    fn field(&self, key: &str) -> Option<&Field<'a>> {
        self.fields.iter().find(|field| field.key == key)
    }
}

/// Whether `text` is one JSON value serde_json reads without an error and with no key twice
/// at any depth, walked as [`Fields::read_checked`] walks a mapping's values: `Some` when it
/// is; `None` when it is not, or when it holds what the walk leaves to serde_json
/// ([`Cursor::checked_value`]). A 100k-cluster inventory's entries are each checked so: the
/// walk costs what serde_json's walk that checks nothing does, its check 1.7 times that.
pub(super) fn checked(text: &str) -> Option<()> {
    let mut cursor = Cursor {
        text,
        at: 0,
        deepest: 0,
    };
    cursor.whitespace();
    cursor.checked_value(0)?;
    cursor.whitespace();
    (cursor.at == text.len()).then_some(())
}

/// A key's text without its quotes; escapes are decoded (rare in keys, so borrowed otherwise).
fn key_text(quoted: &str) -> Option<Cow<'_, str>> {
    if quoted.contains('\\') {
        return serde_json::from_str(quoted).ok().map(Cow::Owned);
    }
    quoted
        .strip_prefix('"')?
        .strip_suffix('"')
        .map(Cow::Borrowed)
}

/// A list element of this many bytes is large: [`Fields::read`] reads its fields in the walk
/// that finds it, and `content::checked_in_parts` checks it in parts.
pub(super) const LARGE: usize = 1 << 20;

/// Byte classes as lookup tables: one load per byte in the walks' inner loops.
const fn byte_set(members: &[u8]) -> [bool; 256] {
    let mut set = [false; 256];
    let mut at = 0;
    while at < members.len() {
        set[members[at] as usize] = true;
        at += 1;
    }
    set
}

/// Where a bracket walk stops: a string's opening quote, or a bracket.
const STRUCTURAL: [bool; 256] = byte_set(b"\"{}[]");

/// Nesting below which [`Fields::read_checked`] walks (serde_json's recursion limit is 128): a
/// deeper value is left to serde_json.
const CHECKED_DEPTH: usize = 64;

/// Keys compared linearly up to this many in a mapping; the rest in a hash set, so a hostile
/// mapping of 100k keys stays linear (here and in serde_json's check, `content::Checked`).
pub(super) const LINEAR_KEYS: usize = 16;

/// The keys of one mapping seen so far, for "no key twice". Keys are compared as written:
/// a key with an escape is left to serde_json ([`Cursor::checked_key`]).
#[derive(Default)]
struct Keys<'a> {
    few: [&'a str; LINEAR_KEYS],
    count: usize,
    many: std::collections::HashSet<&'a str>,
}

impl<'a> Keys<'a> {
    /// `None` when `key` was seen before.
    fn insert(&mut self, key: &'a str) -> Option<()> {
        if self.count < LINEAR_KEYS {
            let (seen, rest) = self.few.split_at_mut(self.count);
            if seen.contains(&key) {
                return None;
            }
            if let Some(slot) = rest.first_mut() {
                *slot = key;
            }
            self.count += 1;
        } else {
            if self.many.is_empty() {
                self.many.extend(self.few);
            }
            if !self.many.insert(key) {
                return None;
            }
        }
        Some(())
    }
}

/// The bytes of `word` (eight bytes of text, the first lowest) that end a run of plain string
/// text: quotes and backslashes, and with `controls` the control characters (below 0x20),
/// each flagged by its high bit. The lowest flag is the first such byte: the borrows that
/// may flag bytes after it never flag one before.
fn string_stops(word: u64, controls: bool) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    const QUOTES: u64 = u64::from_ne_bytes([b'"'; 8]);
    const ESCAPES: u64 = u64::from_ne_bytes([b'\\'; 8]);
    const SPACES: u64 = u64::from_ne_bytes([0x20; 8]);
    let below = |word: u64, bound: u64| word.wrapping_sub(bound) & !word & HIGHS;
    let stops = below(word ^ QUOTES, ONES) | below(word ^ ESCAPES, ONES);
    if controls {
        stops | below(word, SPACES)
    } else {
        stops
    }
}

/// Where a run of plain string text from `at` ends: the first quote or backslash (and with
/// `controls`, control character) at or after `at`, eight bytes at a time; the text's end
/// when there is none.
fn plain_run_end(bytes: &[u8], mut at: usize, controls: bool) -> usize {
    while let Some(chunk) = bytes
        .get(at..at + 8)
        .and_then(|chunk| <[u8; 8]>::try_from(chunk).ok())
    {
        let stops = string_stops(u64::from_le_bytes(chunk), controls);
        if stops != 0 {
            return at + stops.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    let rest = bytes.get(at..).unwrap_or_default();
    at + rest
        .iter()
        .position(|&byte| byte == b'"' || byte == b'\\' || (controls && byte < 0x20))
        .unwrap_or(rest.len())
}

/// Where the string whose opening quote is before `at` ends: past its closing quote.
fn past_string(bytes: &[u8], mut at: usize) -> Option<usize> {
    loop {
        at = plain_run_end(bytes, at, false);
        match *bytes.get(at)? {
            b'"' => return Some(at + 1),
            // The escaped byte, which may be a quote.
            _ => at += 2,
        }
    }
}

/// A position in valid JSON text.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
    /// The deepest nesting seen below the mapping walked (a field's list counts 1, a mapping in
    /// it 2, and so on).
    deepest: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.next()? == byte).then_some(())
    }

    fn whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// Past the colon after a key, and the whitespace around it.
    fn colon(&mut self) -> Option<()> {
        self.whitespace();
        self.expect(b':')?;
        self.whitespace();
        Some(())
    }

    /// The text from `start` to here.
    fn since(&self, start: usize) -> Option<&'a str> {
        self.text.get(start..self.at)
    }

    /// A string with its quotes, the cursor on its opening quote.
    fn string(&mut self) -> Option<&'a str> {
        let start = self.at;
        self.expect(b'"')?;
        self.string_rest()?;
        self.since(start)
    }

    /// Past the closing quote of a string whose opening quote is behind the cursor.
    fn string_rest(&mut self) -> Option<()> {
        self.at = past_string(self.text.as_bytes(), self.at)?;
        Some(())
    }

    /// One value of any kind, inside `outer` open lists of the walked mapping.
    fn value(&mut self, outer: usize) -> Option<&'a str> {
        let start = self.at;
        match self.peek()? {
            b'"' => return self.string(),
            b'{' | b'[' => self.nested(outer)?,
            _ => {
                while !matches!(
                    self.peek(),
                    None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                ) {
                    self.at += 1;
                }
            }
        }
        self.since(start)
    }

    /// Past a mapping or list, the cursor on its opening bracket.
    /// `outer` lists of the walked mapping are open around it (for [`Cursor::deepest`]).
    fn nested(&mut self, outer: usize) -> Option<()> {
        // One loop over the bytes, each looked up once: a 100k-cluster inventory's clusters
        // and a List's items are walked here, on one core before any of them is decoded, and
        // their strings are short, so a call per string or bracket cost as much as the bytes.
        let bytes = self.text.as_bytes();
        let mut at = self.at;
        let mut depth = 0_usize;
        loop {
            let byte = *bytes.get(at)?;
            at += 1;
            if !STRUCTURAL[usize::from(byte)] {
                continue;
            }
            match byte {
                b'"' => at = past_string(bytes, at)?,
                b'{' | b'[' => {
                    depth += 1;
                    self.deepest = self.deepest.max(outer + depth);
                }
                _ => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        self.at = at;
                        return Some(());
                    }
                }
            }
        }
    }

    /// A key of a mapping whose keys so far are `keys`, without its quotes, the cursor on its
    /// opening quote; `None` for a key seen before, or one with an escape (its value is
    /// serde_json's to decode).
    fn checked_key(&mut self, keys: &mut Keys<'a>) -> Option<&'a str> {
        let start = self.at + 1;
        if self.checked_string()? {
            return None;
        }
        let key = self.text.get(start..self.at - 1)?;
        keys.insert(key)?;
        Some(key)
    }

    /// Past a string serde_json reads the same, the cursor on its opening quote: no control
    /// character, and only the escapes of one character (`\u` is left to serde_json, which
    /// pairs surrogates). Whether it has an escape.
    fn checked_string(&mut self) -> Option<bool> {
        self.expect(b'"')?;
        let bytes = self.text.as_bytes();
        let mut escaped = false;
        loop {
            let at = plain_run_end(bytes, self.at, true);
            self.at = at + 1;
            match *bytes.get(at)? {
                b'"' => return Some(escaped),
                b'\\' => match self.next()? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => escaped = true,
                    _ => return None,
                },
                _ => return None,
            }
        }
    }

    /// Past one value serde_json reads without an error, `level` lists and mappings of the
    /// walked mapping open around it. What serde_json alone decides is left to it (`None`):
    /// a number with an exponent or of more than 18 digits (whether it is finite), a `\u`
    /// escape, nesting past [`CHECKED_DEPTH`].
    fn checked_value(&mut self, level: usize) -> Option<()> {
        match self.peek()? {
            b'"' => self.checked_string().map(drop),
            b'{' => {
                self.opened(level)?;
                let mut keys = Keys::default();
                self.delimited(b'{', b'}', |cursor| {
                    cursor.checked_key(&mut keys)?;
                    cursor.colon()?;
                    cursor.checked_value(level + 1)
                })
            }
            b'[' => {
                self.opened(level)?;
                self.delimited(b'[', b']', |cursor| cursor.checked_value(level + 1))
            }
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => self.checked_number(),
        }
    }

    /// A list or mapping opens below `level`: `None` past [`CHECKED_DEPTH`].
    fn opened(&mut self, level: usize) -> Option<()> {
        let depth = level + 1;
        self.deepest = self.deepest.max(depth);
        (depth < CHECKED_DEPTH).then_some(())
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.at + word.len();
        (self.text.as_bytes().get(self.at..end)? == word).then(|| self.at = end)
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)?`, at most 18 digits before the point (any such
    /// number is finite); anything else, an exponent included, is serde_json's to judge.
    fn checked_number(&mut self) -> Option<()> {
        if self.peek()? == b'-' {
            self.at += 1;
        }
        let integer = self.digits();
        let leading_zero = self.text.as_bytes().get(self.at - integer) == Some(&b'0');
        if integer == 0 || integer > 18 || (integer > 1 && leading_zero) {
            return None;
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return None;
            }
        }
        match self.peek() {
            Some(b'e' | b'E') => None,
            Some(byte) if byte.is_ascii_digit() => None,
            _ => Some(()),
        }
    }

    /// Past a run of digits; how many.
    fn digits(&mut self) -> usize {
        let start = self.at;
        while self.peek().is_some_and(|byte| byte.is_ascii_digit()) {
            self.at += 1;
        }
        self.at - start
    }

    /// [`Cursor::list`], each element checked ([`Cursor::checked_value`]).
    fn checked_list(&mut self, level: usize) -> Option<Vec<&'a str>> {
        self.opened(level)?;
        let mut elements = Vec::new();
        self.delimited(b'[', b']', |cursor| {
            let start = cursor.at;
            cursor.checked_value(level + 1)?;
            elements.push(cursor.since(start)?);
            Some(())
        })?;
        Some(elements)
    }

    /// One field of a mapping [`Fields::read`] walks, the cursor on its key; with `nested`, a
    /// list's large mapping elements have their fields read too ([`Cursor::list`]).
    fn field(&mut self, nested: bool) -> Option<Field<'a>> {
        let key = key_text(self.string()?)?;
        self.colon()?;
        if self.peek()? == b'[' {
            let (value, elements, walked) = self.list(nested)?;
            return Some(Field {
                key,
                value,
                elements: Some(elements),
                walked,
            });
        }
        Some(Field {
            key,
            value: self.value(0)?,
            elements: None,
            walked: Vec::new(),
        })
    }

    /// The mapping at the cursor, each field read by `field` (the cursor on its key), its
    /// depth counted from itself; the depth seen around it is left as it was.
    fn mapping(
        &mut self,
        mut field: impl FnMut(&mut Self) -> Option<Field<'a>>,
    ) -> Option<Fields<'a>> {
        let start = self.at;
        let around = std::mem::take(&mut self.deepest);
        let mut fields = Vec::new();
        let read = self.delimited(b'{', b'}', |cursor| {
            fields.push(field(cursor)?);
            Some(())
        });
        let deepest = std::mem::replace(&mut self.deepest, around);
        read?;
        Some(Fields {
            text: self.since(start)?,
            fields,
            depth: 1 + deepest,
        })
    }

    /// A list's text and its elements' texts, the cursor on its `[`. With `nested`, an element
    /// that is a mapping of at least [`LARGE`] bytes has its fields read in the same walk, kept
    /// by index; one that walk cannot read is walked over as before. Only while the elements
    /// so read are large: reading the fields of a List's 30k small objects cost three times
    /// the walk over them, on its one core, so after the first small one the rest are walked
    /// over (a large item after small ones is walked again when it is checked, as any was).
    fn list(&mut self, nested: bool) -> Option<(&'a str, Vec<&'a str>, Walked<'a>)> {
        let start = self.at;
        let mut elements = Vec::new();
        let mut walked = Vec::new();
        let mut nested = nested;
        self.deepest = self.deepest.max(1);
        self.delimited(b'[', b']', |cursor| {
            let at = cursor.at;
            if nested && cursor.peek()? == b'{' {
                if let Some(fields) = cursor.mapping(|cursor| cursor.field(false)) {
                    cursor.deepest = cursor.deepest.max(1 + fields.depth);
                    elements.push(fields.text);
                    if fields.text.len() >= LARGE {
                        walked.push((elements.len() - 1, fields));
                    } else {
                        nested = false;
                    }
                    return Some(());
                }
                cursor.at = at;
            }
            elements.push(cursor.value(1)?);
            Some(())
        })?;
        Some((self.since(start)?, elements, walked))
    }

    /// Past a mapping or list whose entries `entry` reads (each with the cursor on it), the
    /// cursor on its `open` bracket: the one walk of commas and brackets both share.
    fn delimited(
        &mut self,
        open: u8,
        close: u8,
        mut entry: impl FnMut(&mut Self) -> Option<()>,
    ) -> Option<()> {
        self.expect(open)?;
        self.whitespace();
        if self.peek()? == close {
            self.at += 1;
            return Some(());
        }
        loop {
            self.whitespace();
            entry(self)?;
            self.whitespace();
            match self.next()? {
                b',' => {}
                byte if byte == close => return Some(()),
                _ => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    #[test]
    fn fields_and_list_elements_are_found_in_one_pass() {
        let text = r#" {"a": 1, "b" : [ {"x": "]"}, [2], "s\"" ,null], "c":{"d":[]}, "e":"}"} "#;
        let fields = Fields::read(text).expect("a mapping");
        assert_eq!(
            fields.iter().collect::<Vec<_>>(),
            [
                ("a", "1"),
                ("b", r#"[ {"x": "]"}, [2], "s\"" ,null]"#),
                ("c", r#"{"d":[]}"#),
                ("e", r#""}""#),
            ]
        );
        assert_eq!(
            fields.elements("b"),
            Some(&[r#"{"x": "]"}"#, "[2]", r#""s\"""#, "null"][..])
        );
        assert_eq!(fields.elements("c"), None);
        assert_eq!(fields.get("missing"), None);
        assert_eq!(fields.text(), text);
        assert_eq!(fields.depth(), 3);
        let elements: Vec<_> = fields
            .parts()
            .map(|(key, _, elements)| (key, elements.map(<[&str]>::len)))
            .collect();
        assert_eq!(
            elements,
            [("a", None), ("b", Some(4)), ("c", None), ("e", None)]
        );
    }

    #[test]
    fn a_large_mapping_element_is_read_in_the_walk_that_finds_it() {
        let clusters: Vec<String> = (0..LARGE / 16)
            .map(|n| format!(r#"{{"name":"c{n}"}}"#))
            .collect();
        let large = format!(
            r#"{{"kind":"Inventory","clusters":[{}],"x":{{"y":[[1]]}}}}"#,
            clusters.join(",")
        );
        let small = r#"{"kind":"Small","spec":[{}]}"#;
        let text = format!(r#"{{"items":[{large}, {large}, {small}, 7, {large}]}}"#);
        let mut fields = Fields::read(&text).expect("a mapping");
        assert_eq!(
            fields.elements("items").map(<[&str]>::len),
            Some(5),
            "the elements are found as before"
        );
        // Counted as before: the document, `items`, the inventory, `x`, `y` and its list.
        assert_eq!(fields.depth(), 6);
        let walked = fields.take_walked(0);
        // The large elements before the first small one; the one after it is walked over.
        assert_eq!(
            walked.iter().map(|(index, _)| *index).collect::<Vec<_>>(),
            [0, 1]
        );
        for (_, inventory) in walked {
            assert_eq!(Some(inventory), Fields::read(&large));
        }
        assert!(fields.take_walked(0).is_empty(), "taken once");
    }

    #[test]
    fn a_large_element_the_walk_cannot_read_is_walked_over() {
        // A key that is not a string, or one whose escape does not decode: the element's
        // fields cannot be read, so it is walked over as any value (and serde_json's check,
        // which follows, refuses it).
        let filler = "0,".repeat(LARGE / 2);
        for element in [
            format!(r#"{{"a":[{filler}1], 2:3}}"#),
            format!(r#"{{"k\u00zz":[{filler}1]}}"#),
        ] {
            let text = format!(r#"{{"items":[{element}],"kind":"List"}}"#);
            let mut fields = Fields::read(&text).expect("the element is walked over");
            assert_eq!(fields.elements("items"), Some(&[element.as_str()][..]));
            assert_eq!(fields.get("kind"), Some(r#""List""#));
            assert!(fields.take_walked(0).is_empty());
        }
    }

    #[test]
    fn a_string_ends_at_its_first_unescaped_quote_wherever_the_words_fall() {
        for before in 0..20 {
            for inner in ["", "é", "\\\"", "\\\\", "a\\\"b\\\\", "\u{80}\u{ff}"] {
                for after in 0..10 {
                    let body = format!("{}{inner}{}", "x".repeat(before), "y".repeat(after));
                    let text = format!("\"{body}\" ,\"tail\"");
                    let end = past_string(text.as_bytes(), 1);
                    assert_eq!(end, Some(body.len() + 2), "{text}");
                    let decoded: Result<String, _> = serde_json::from_str(&text[..body.len() + 2]);
                    assert!(decoded.is_ok(), "{text}");
                }
            }
        }
        // No closing quote, or one escaped at the very end.
        assert_eq!(past_string(b"\"abcdefghijkl", 1), None);
        assert_eq!(past_string(b"\"abcdefghij\\\"", 1), None);
    }

    /// A checked value's strings end, and are refused, where serde_json's do, wherever the
    /// eight-byte words fall: a control character anywhere refuses the value, a key with an
    /// escape or a key twice leaves it to serde_json.
    #[test]
    fn checked_strings_stop_where_serde_json_does_wherever_the_words_fall() {
        for before in 0..20 {
            for inner in [
                "", "é", "\\\"", "\\\\", "\\n", "\u{1}", "\u{1f}", "\t", "\u{7f}",
            ] {
                for after in 0..10 {
                    let body = format!("{}{inner}{}", "x".repeat(before), "y".repeat(after));
                    for text in [
                        format!("[\"{body}\", 1]"),
                        format!("{{\"{body}\": 1, \"k\": {{\"a\": \"{body}\"}}}}"),
                    ] {
                        let serde = crate::load::content::checked_by_serde(&text);
                        match checked(&text) {
                            Some(()) => assert!(serde, "{text:?}"),
                            None => assert!(!serde || inner.starts_with('\\'), "{text:?}"),
                        }
                    }
                }
            }
        }
        for refused in [
            r#"{"a": 1, "a": 2}"#,
            r#"[{"b": {"a": 1, "a": 2}}]"#,
            "\"abc",
            "[1] 2",
        ] {
            assert_eq!(checked(refused), None, "{refused}");
        }
        for plain in [
            "1",
            "\"a\"",
            "[]",
            "  {\"a\": [true, null, -1.5]}\n",
            "\"\\\"\"",
        ] {
            assert_eq!(checked(plain), Some(()), "{plain}");
        }
    }

    #[test]
    fn escaped_keys_are_decoded() {
        let fields = Fields::read(r#"{"it\u0065ms": [], "k\\": 1}"#).expect("a mapping");
        assert_eq!(fields.elements("items"), Some(&[][..]));
        assert_eq!(fields.get("k\\"), Some("1"));
    }

    #[test]
    fn anything_but_one_mapping_is_not_read() {
        for text in [
            "[1]",
            "\"a\"",
            "1",
            "{\"a\": 1} {}",
            "{\"a\" 1}",
            "{\"a\": [1 2]}",
            "",
        ] {
            assert_eq!(Fields::read(text), None, "{text}");
        }
        assert_eq!(
            Fields::read(" {} ").map(|fields| fields.fields.len()),
            Some(0)
        );
    }

    /// `value` as JSON text, indented or not.
    fn written(value: &Value, pretty: bool) -> String {
        if pretty {
            serde_json::to_string_pretty(value)
        } else {
            serde_json::to_string(value)
        }
        .unwrap_or_default()
    }

    /// How deeply lists and mappings nest in `value` (a scalar 0).
    fn depth(value: &Value) -> usize {
        match value {
            Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
            Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
            _ => 0,
        }
    }

    /// Lists and mappings (keys of the pattern `keys`) of `leaf`s, a few levels deep.
    fn nested(
        leaf: impl Strategy<Value = Value> + 'static,
        keys: &'static str,
    ) -> impl Strategy<Value = Value> {
        leaf.prop_recursive(4, 32, 6, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map(keys, inner, 0..6)
                    .prop_map(|map| Value::Object(map.into_iter().collect())),
            ]
        })
    }

    fn json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            "[\\PC\"\\\\\\]\\[{}]{0,6}".prop_map(Value::String),
        ];
        nested(leaf, "[a-z\"\\\\{]{0,4}")
    }

    #[test]
    fn a_checked_read_finds_what_the_read_finds_in_what_serde_json_accepts() {
        let text = r#" {"a": [1, -0.5, {"b": "x\"\\\/\n"}], "c": {"d": [true, false, null]}} "#;
        assert_eq!(Fields::read_checked(text), Fields::read(text));
        assert!(Fields::read_checked(text).is_some());
        let twice_deep = r#"{"a": [{"b": 1, "c": 2, "b": 3}]}"#;
        let many_keys: Vec<String> = (0..40)
            .map(|key| format!("\"k{}\": {key}", key % 39))
            .collect();
        let many_keys = format!("{{\"m\": {{{}}}}}", many_keys.join(", "));
        let deep = format!("{{\"a\": {}{}}}", "[".repeat(64), "]".repeat(64));
        // What serde_json refuses, and what it alone decides.
        for text in [
            r#"{"a": 1, "a": 2}"#,
            twice_deep,
            &many_keys,
            r#"{"a": 01}"#,
            r#"{"a": 1.}"#,
            r#"{"a": -}"#,
            r#"{"a": 1e5}"#,
            r#"{"a": 1234567890123456789}"#,
            "{\"a\": \"\u{1}\"}",
            r#"{"a": "\u0041"}"#,
            r#"{"\u0061": 1}"#,
            r#"{"a": "\x"}"#,
            r#"{"a": [1,]}"#,
            r#"{"a": tru}"#,
            r#"{"a": 1} x"#,
            "[1]",
            &deep,
        ] {
            assert_eq!(Fields::read_checked(text), None, "{text}");
        }
    }

    /// JSON with none of what [`Fields::read_checked`] leaves to serde_json: plain keys, no
    /// `\u` escape, numbers of at most 18 digits without an exponent.
    fn plain_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i32>().prop_map(Value::from),
            (-1_000_000_i32..1_000_000).prop_map(|n| Value::from(f64::from(n) / 64.0)),
            "[a-z \"\\\\/\n\t\\]\\[{}é]{0,6}".prop_map(Value::String),
        ];
        nested(leaf, "[a-z{}]{0,4}")
    }

    /// Fragments a mutation inserts: syntax, numbers and strings serde_json refuses or that
    /// [`Fields::read_checked`] leaves to it, and a key that may come twice.
    const FRAGMENTS: &[&str] = &[
        "\"",
        "\\",
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        " ",
        "0",
        "01",
        "1e5",
        "-",
        ".",
        "\u{1}",
        "\\u0041",
        "\"a\": 1, ",
        "\"a\":2,",
        "99999999999999999999",
        "tru",
        "null",
        "é",
    ];

    proptest! {
        /// What the checked read accepts, serde_json accepts, with the fields the read finds.
        #[test]
        fn a_checked_read_accepts_only_what_serde_json_accepts(
            value in prop::collection::btree_map("[ab\"]{0,1}", json(), 0..5),
            pretty in any::<bool>(),
            mutations in prop::collection::vec((any::<prop::sample::Index>(), 0..FRAGMENTS.len() + 1), 0..4),
        ) {
            let value = Value::Object(value.into_iter().collect());
            let mut text = written(&value, pretty);
            for (at, fragment) in mutations {
                let mut at = at.index(text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                match FRAGMENTS.get(fragment) {
                    // A key, after the opening brace of a mapping, where it may be there twice.
                    Some(key) if key.starts_with("\"a\"") => {
                        let at = text[..at].rfind('{').map_or(at, |brace| brace + 1);
                        text.insert_str(at, key);
                    }
                    // A value's start, after a colon, where a number or a word is read.
                    Some(value) if value.starts_with(['0', '1', '9', '-', 't', 'n']) => {
                        let at = text[..at].rfind(':').map_or(at, |colon| colon + 1);
                        text.insert_str(at, value);
                    }
                    Some(fragment) => text.insert_str(at, fragment),
                    // Past the fragments: a character taken out.
                    None if at < text.len() => {
                        text.remove(at);
                    }
                    None => {}
                }
            }
            if let Some(fields) = Fields::read_checked(&text) {
                prop_assert!(crate::load::content::checked_by_serde(&text), "{}", text);
                prop_assert_eq!(Some(fields), Fields::read(&text));
            }
            if checked(&text).is_some() {
                prop_assert!(crate::load::content::checked_by_serde(&text), "{}", text);
            }
        }

        /// Without what it leaves to serde_json, the checked read reads any mapping.
        #[test]
        fn a_checked_read_reads_plain_json(
            value in prop::collection::btree_map("[a-z]{0,4}", plain_json(), 0..6),
            pretty in any::<bool>(),
        ) {
            let value = Value::Object(value.into_iter().collect());
            let text = written(&value, pretty);
            let fields = Fields::read_checked(&text);
            prop_assert!(fields.is_some(), "{}", text);
            prop_assert_eq!(fields, Fields::read(&text));
            prop_assert!(checked(&text).is_some(), "{}", text);
        }

        /// Every field and element found is the value serde_json reads there.
        #[test]
        fn fields_agree_with_serde_json(
            map in prop::collection::btree_map("[a-z\"\\\\]{0,4}", json(), 0..6),
            pretty in any::<bool>(),
        ) {
            let value = Value::Object(map.clone().into_iter().collect());
            let text = written(&value, pretty);
            let fields = Fields::read(&text).expect("a mapping");
            let read: Vec<(String, Value)> = fields
                .iter()
                .map(|(key, value)| (key.to_string(), serde_json::from_str(value).expect("a value")))
                .collect();
            let expected: Vec<(String, Value)> = map.clone().into_iter().collect();
            prop_assert_eq!(read, expected);
            prop_assert_eq!(fields.depth(), depth(&value));
            for (key, value) in &map {
                let elements = fields.elements(key).map(|elements| {
                    elements
                        .iter()
                        .map(|element| serde_json::from_str(element).expect("an element"))
                        .collect::<Vec<Value>>()
                });
                prop_assert_eq!(elements.as_ref(), value.as_array());
            }
        }
    }
}
