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
    walked: Vec<(usize, Fields<'a>)>,
}

impl<'a> Fields<'a> {
    /// The fields of `text` when it is one JSON mapping; `None` for any other value.
    pub(super) fn read(text: &'a str) -> Option<Fields<'a>> {
        let mut cursor = Cursor {
            text,
            at: 0,
            deepest: 0,
        };
        cursor.whitespace();
        let mut fields = Vec::new();
        cursor.delimited(b'{', b'}', |cursor| {
            let key = key_text(cursor.string()?)?;
            cursor.whitespace();
            cursor.expect(b':')?;
            cursor.whitespace();
            let (value, elements) = if cursor.peek()? == b'[' {
                let (value, elements) = cursor.list()?;
                (value, Some(elements))
            } else {
                (cursor.value(0)?, None)
            };
            fields.push(Field {
                key,
                value,
                elements,
                walked: Vec::new(),
            });
            Some(())
        })?;
        cursor.whitespace();
        (cursor.at == text.len()).then_some(Fields {
            text,
            fields,
            depth: 1 + cursor.deepest,
        })
    }

    /// How deeply lists and mappings nest in the text, the mapping itself counted.
    pub(super) fn depth(&self) -> usize {
        self.depth
    }

    /// The fields of element `index` of `key`'s list, when they were read and kept.
    pub(super) fn walked(&self, key: &str, index: usize) -> Option<&Fields<'a>> {
        let field = self.field(key)?;
        field
            .walked
            .iter()
            .find(|(at, _)| *at == index)
            .map(|(_, fields)| fields)
    }

    /// Keeps the fields of the elements of the `position`-th field's list already read
    /// (`(index, fields)`), so that reading them again is a look-up ([`Fields::walked`]).
    pub(super) fn keep(&mut self, position: usize, walked: Vec<(usize, Fields<'a>)>) {
        if let Some(field) = self.fields.get_mut(position) {
            field.walked = walked;
        }
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

/// Where a string's walk stops: its closing quote, or an escape (whose next byte may be one).
const STRING_END: [bool; 256] = byte_set(b"\"\\");
/// Where a bracket walk stops: a string's opening quote, or a bracket.
const STRUCTURAL: [bool; 256] = byte_set(b"\"{}[]");

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
        let bytes = self.text.as_bytes();
        loop {
            let rest = bytes.get(self.at..)?;
            let stop = rest
                .iter()
                .position(|&byte| STRING_END[usize::from(byte)])?;
            self.at += stop + 1;
            if rest.get(stop) == Some(&b'"') {
                return Some(());
            }
            // The escaped byte, which may be a quote.
            self.at += 1;
        }
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
        let bytes = self.text.as_bytes();
        let mut depth = 0_usize;
        loop {
            // Everything between quotes and brackets is skipped in one tight loop: a
            // 100k-cluster inventory is walked here twice (as a List's item, then for its
            // `clusters`), on one core before any of it is decoded.
            let rest = bytes.get(self.at..)?;
            let stop = rest
                .iter()
                .position(|&byte| STRUCTURAL[usize::from(byte)])?;
            self.at += stop + 1;
            match rest[stop] {
                b'"' => self.string_rest()?,
                b'{' | b'[' => {
                    depth += 1;
                    self.deepest = self.deepest.max(outer + depth);
                }
                _ => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(());
                    }
                }
            }
        }
    }

    /// A list's text and its elements' texts, the cursor on its `[`.
    fn list(&mut self) -> Option<(&'a str, Vec<&'a str>)> {
        let start = self.at;
        let mut elements = Vec::new();
        self.deepest = self.deepest.max(1);
        self.delimited(b'[', b']', |cursor| {
            elements.push(cursor.value(1)?);
            Some(())
        })?;
        Some((self.since(start)?, elements))
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

    /// How deeply lists and mappings nest in `value` (a scalar 0).
    fn depth(value: &Value) -> usize {
        match value {
            Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
            Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
            _ => 0,
        }
    }

    fn json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            "[\\PC\"\\\\\\]\\[{}]{0,6}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map("[a-z\"\\\\{]{0,4}", inner, 0..6)
                    .prop_map(|map| Value::Object(map.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// Every field and element found is the value serde_json reads there.
        #[test]
        fn fields_agree_with_serde_json(
            map in prop::collection::btree_map("[a-z\"\\\\]{0,4}", json(), 0..6),
            pretty in any::<bool>(),
        ) {
            let value = Value::Object(map.clone().into_iter().collect());
            let text = if pretty {
                serde_json::to_string_pretty(&value)
            } else {
                serde_json::to_string(&value)
            }
            .unwrap_or_default();
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
