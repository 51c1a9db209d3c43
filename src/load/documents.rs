//! Splitting an input into documents: multi-document YAML streams (`---`) and JSON streams
//! (concatenated values), parsed into one value type. YAML aliases are expanded under a
//! budget so an alias bomb is an error, not an out-of-memory kill.

use std::cell::{Cell, RefCell};
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_yaml::{Mapping, Value};

use super::content::{json_documents, Content, JSON_WHITESPACE};
use super::fields::Fields;
use super::inputs::{Input, Syntax};
use super::plain_scalars::{self, Misread, Segment, StepRef};
use super::yaml_scan::{self, Refusal};
use super::{LoadError, LoadOptions};
use crate::model::Source;
use crate::yaml11;
use crate::yaml11::offset_in;

/// One document of an input, parsed but not yet interpreted.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Document {
    pub source: Source,
    pub value: Value,
    /// Plain scalars kubectl reads as another type (`yes`, `017`); in Kubernetes objects the
    /// value already holds kubectl's reading of those not refused ([`plain_scalars::settle`]).
    pub misread: Vec<Misread>,
    /// The line each element of the document's top-level `items` list (a List's) starts on,
    /// by index, where it could be found: findings about an item point at the item.
    pub item_lines: Vec<Option<usize>>,
}

/// Expanded values allowed per input byte, on top of `LoadOptions::max_alias_expansion`.
/// Without aliases a value takes at least one byte, so only alias expansion can exhaust this.
const BUDGET_PER_BYTE: usize = 2;

/// A document as the readers take it: the tree, or the text of a JSON document (see
/// [`Content`]).
pub(super) enum Parsed<'t> {
    Tree(Document),
    Json {
        source: Source,
        text: &'t str,
        /// The document's fields when checking it found them (a large mapping).
        fields: Option<Fields<'t>>,
    },
}

impl Parsed<'_> {
    pub(super) fn source(&self) -> &Source {
        match self {
            Parsed::Tree(document) => &document.source,
            Parsed::Json { source, .. } => source,
        }
    }

    pub(super) fn content(&self) -> Content<'_> {
        match self {
            Parsed::Tree(document) => Content::Tree(&document.value),
            Parsed::Json {
                fields: Some(fields),
                ..
            } => Content::Fields(fields),
            Parsed::Json { text, .. } => Content::Json(text),
        }
    }

    /// JSON has one reading: nothing is misread.
    pub(super) fn misread(&self) -> &[Misread] {
        match self {
            Parsed::Tree(document) => &document.misread,
            Parsed::Json { .. } => &[],
        }
    }

    /// A JSON List's items are found in its text when it is read ([`crate::load`]'s
    /// `dispatch`), so only a tree carries them.
    pub(super) fn item_lines(&self) -> &[Option<usize>] {
        match self {
            Parsed::Tree(document) => &document.item_lines,
            Parsed::Json { .. } => &[],
        }
    }
}

/// The documents of `input` for reading. A JSON input whose every document parses and has no
/// duplicate key stays text; any other input is parsed into trees by [`parse_documents`],
/// whose errors are the ones reported.
pub(super) fn read_documents<'t>(
    input: &'t Input,
    options: &LoadOptions,
) -> Result<Vec<Parsed<'t>>, LoadError> {
    let (text, json) = text_of(input)?;
    let documents = json.then(|| json_documents(text)).flatten();
    if let Some(documents) = documents.filter(|documents| !documents.is_empty()) {
        let mut lines = Lines::new(text);
        return Ok(documents
            .into_iter()
            .enumerate()
            .map(|(index, document)| Parsed::Json {
                source: source(
                    &input.name,
                    index.saturating_add(1),
                    lines.at(document.start),
                ),
                text: document.text,
                fields: document.fields,
            })
            .collect());
    }
    let documents = parse_documents(input, options)?;
    Ok(documents.into_iter().map(Parsed::Tree).collect())
}

/// Parses every document of `input`. Empty documents are returned as `Value::Null` (the
/// caller skips them) so document numbers match what the user counts.
pub(super) fn parse_documents(
    input: &Input,
    options: &LoadOptions,
) -> Result<Vec<Document>, LoadError> {
    let (text, json) = text_of(input)?;
    if json {
        parse_json(&input.name, text)
    } else {
        parse_yaml(&input.name, text, options.max_alias_expansion)
    }
}

/// The input as text (without a byte order mark), and whether it is JSON.
pub(super) fn text_of(input: &Input) -> Result<(&str, bool), LoadError> {
    let text = std::str::from_utf8(&input.bytes).map_err(|error| {
        let valid = input.bytes.get(..error.valid_up_to()).unwrap_or_default();
        let line = 1 + valid.iter().filter(|byte| **byte == b'\n').count();
        LoadError::input(
            &input.name,
            format!(
                "not valid UTF-8: invalid byte at offset {} (line {line})",
                error.valid_up_to()
            ),
        )
    })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let json = match input.syntax {
        Syntax::Json => true,
        Syntax::Yaml => false,
        Syntax::Sniff => text.trim_start().starts_with('{'),
    };
    Ok((text, json))
}

fn source(file: &str, document: usize, line: Option<usize>) -> Source {
    Source {
        file: file.to_string(),
        document,
        line,
    }
}

/// Line numbers of byte offsets into one text, for offsets given in increasing order: each
/// call counts only the newlines since the last one, so a stream is counted once in all (and
/// a one-document JSON file, a large inventory, only up to its first value).
pub(super) struct Lines<'t> {
    text: &'t str,
    offset: usize,
    line: usize,
}

impl<'t> Lines<'t> {
    pub(super) fn new(text: &'t str) -> Lines<'t> {
        Lines {
            text,
            offset: 0,
            line: 1,
        }
    }

    /// The line `part`, a slice of the text, starts on; `None` for a string that is not one,
    /// or one before the last asked.
    pub(super) fn of(&mut self, part: &str) -> Option<usize> {
        self.at(offset_in(self.text, part)?)
    }

    /// The line of `offset`; `None` past the text or before the last offset asked.
    pub(super) fn at(&mut self, offset: usize) -> Option<usize> {
        let skipped = self.text.get(self.offset..offset)?;
        self.line += newlines(skipped.as_bytes());
        self.offset = offset;
        Some(self.line)
    }
}

/// The new lines in `bytes`, counted into one-byte lanes per block of 255 so the compiler
/// compares 16 or 32 bytes an instruction: a 100k-item JSON List is walked whole to find its
/// items' lines.
fn newlines(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|block| {
            let count = block
                .iter()
                .fold(0u8, |count, byte| count + u8::from(*byte == b'\n'));
            usize::from(count)
        })
        .sum()
}

fn parse_yaml(name: &str, text: &str, allowance: usize) -> Result<Vec<Document>, LoadError> {
    let text = yaml_scan::without_later_boms(text);
    let refused = |refusal: Refusal| LoadError::Syntax {
        at: source(name, refusal.document, None),
        line: Some(refusal.line),
        column: Some(refusal.column),
        message: refusal.message,
    };
    if let Some(refusal) = yaml_scan::disallowed_character(&text) {
        return Err(refused(refusal));
    }
    let lines = yaml_scan::scan(&text).map_err(refused)?;
    let budget = Cell::new(
        text.len()
            .saturating_mul(BUDGET_PER_BYTE)
            .saturating_add(allowance),
    );
    let parse = Parse {
        budget,
        duplicate: RefCell::new(None),
        text: &text,
        misread: RefCell::new(Vec::new()),
        item_starts: RefCell::new(Vec::new()),
        merge_key: Cell::new(false),
    };
    let mut item_lines = Lines::new(&text);
    let seed = BudgetedValue {
        parse: &parse,
        path: None,
        key: false,
    };
    let mut documents = Vec::new();
    for (index, deserializer) in serde_yaml::Deserializer::from_str(&text).enumerate() {
        let line = lines.get(index).copied().flatten();
        let at = source(name, index.saturating_add(1), line);
        let mut value = seed.deserialize(deserializer).map_err(|error| {
            let mut error = yaml_syntax_error(&at, &error);
            if let Some(key) = parse.duplicate.take() {
                at_duplicate(&mut error, &text, &key);
            }
            error
        })?;
        let misread = parse.misread.take();
        plain_scalars::settle(&mut value, &misread);
        let mut lines = Vec::new();
        for (index, offset) in parse.item_starts.take() {
            lines.resize(index, None);
            lines.push(offset.and_then(|offset| item_lines.at(offset)));
        }
        documents.push(Document {
            source: at,
            value,
            misread,
            item_lines: lines,
        });
    }
    Ok(documents)
}

/// serde_yaml places a duplicate key's error at its mapping's start; this moves it to the
/// line of the key's second occurrence in a block mapping (at the mapping's column, after
/// nothing but indentation and `- ` indicators), when that can be found.
fn at_duplicate(error: &mut LoadError, text: &str, key: &str) {
    let LoadError::Syntax {
        line: Some(line),
        column: Some(column),
        ..
    } = error
    else {
        return;
    };
    let indent = column.saturating_sub(1);
    let keys = [
        format!("{key}:"),
        format!("\"{key}\":"),
        format!("'{key}':"),
    ];
    let mut seen = 0;
    for (number, text_line) in text.lines().enumerate().skip(line.saturating_sub(1)) {
        let Some((before, rest)) = text_line.split_at_checked(indent) else {
            continue;
        };
        let is_key = before.bytes().all(|byte| byte == b' ' || byte == b'-')
            && keys.iter().any(|key| rest.starts_with(key.as_str()));
        if is_key {
            seen += 1;
            if seen == 2 {
                *line = number + 1;
                return;
            }
        }
    }
}

fn yaml_syntax_error(at: &Source, error: &serde_yaml::Error) -> LoadError {
    let location = error.location();
    let line = location.as_ref().map(serde_yaml::Location::line);
    let column = location.as_ref().map(serde_yaml::Location::column);
    let mut message = error.to_string();
    if let (Some(line), Some(column)) = (line, column) {
        message = message.replacen(&format!(" at line {line} column {column}"), "", 1);
    }
    // libyaml also names where the construct it was parsing began.
    let message = message.replace(" at line ", " started at line ");
    LoadError::Syntax {
        at: at.clone(),
        line,
        column,
        message,
    }
}

fn parse_json(name: &str, text: &str) -> Result<Vec<Document>, LoadError> {
    let mut documents = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let mut lines = Lines::new(text);
    let mut end = 0;
    while let Some(value) = stream.next() {
        let document = documents.len().saturating_add(1);
        let value = value.map_err(|error| LoadError::Syntax {
            at: source(name, document, None),
            line: Some(error.line()),
            column: Some(error.column()),
            message: without_location(error.to_string()),
        })?;
        let start = text.get(end..).map_or(end, |rest| {
            end + rest.len() - rest.trim_start_matches(JSON_WHITESPACE).len()
        });
        end = stream.byte_offset();
        documents.push(Document {
            source: source(name, document, lines.at(start)),
            value,
            misread: Vec::new(),
            item_lines: Vec::new(),
        });
    }
    Ok(documents)
}

/// serde_json appends ` at line L column C`; the error prints its own.
fn without_location(message: String) -> String {
    match message.rfind(" at line ") {
        Some(at) => message.get(..at).unwrap_or(&message).to_string(),
        None => message,
    }
}

/// What every value of one input's parse shares.
struct Parse<'t> {
    /// Values left to build, aliases' expansions included.
    budget: Cell<usize>,
    /// The key of a duplicate-key error, for [`at_duplicate`].
    duplicate: RefCell<Option<String>>,
    /// The input, which plain scalars are borrowed from.
    text: &'t str,
    misread: RefCell<Vec<Misread>>,
    /// The offset of the first key of each element of the document's top-level `items`, by
    /// index, when serde_yaml lent it out of the input: where the element starts (serde_yaml
    /// gives no positions).
    item_starts: RefCell<Vec<(usize, Option<usize>)>>,
    /// Whether the key just built was a plain `<<`, see [`merge`].
    merge_key: Cell<bool>,
}

/// Builds a `serde_yaml::Value`, counting every value it visits (alias expansions
/// included) against a shared budget, and noting the plain scalars kubectl reads as another
/// type, with their paths.
#[derive(Clone, Copy)]
struct BudgetedValue<'a> {
    parse: &'a Parse<'a>,
    /// Where the value being built is.
    path: Option<&'a Segment<'a>>,
    /// Whether it is a mapping's key.
    key: bool,
}

impl<'a> BudgetedValue<'a> {
    fn at<'b>(self, segment: &'b Segment<'b>) -> BudgetedValue<'b>
    where
        'a: 'b,
    {
        BudgetedValue {
            parse: self.parse,
            path: Some(segment),
            key: false,
        }
    }

    fn key(self) -> BudgetedValue<'a> {
        BudgetedValue { key: true, ..self }
    }

    fn spend<E: de::Error>(self) -> Result<(), E> {
        match self.parse.budget.get().checked_sub(1) {
            Some(left) => {
                self.parse.budget.set(left);
                Ok(())
            }
            None => Err(E::custom(
                "document expands to too many values (too many aliases?)",
            )),
        }
    }
}

impl<'de> DeserializeSeed<'de> for BudgetedValue<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for BudgetedValue<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Bool(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Number(value.into()))
    }

    // go-yaml resolves an integer beyond 64 bits to a float, so the field it lands in reports
    // the wrong type (with its object and path) instead of the parser failing.
    #[allow(clippy::cast_precision_loss)]
    fn visit_i128<E: de::Error>(self, value: i128) -> Result<Value, E> {
        self.visit_f64(value as f64)
    }

    #[allow(clippy::cast_precision_loss)]
    fn visit_u128<E: de::Error>(self, value: u128) -> Result<Value, E> {
        self.visit_f64(value as f64)
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Number(value.into()))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::String(value.to_string()))
    }

    // serde_yaml lends out the input's own text for a plain scalar on one line, the only kind
    // YAML 1.1 resolves to another type.
    fn visit_borrowed_str<E: de::Error>(self, value: &'de str) -> Result<Value, E> {
        if self.key && value == yaml11::MERGE_KEY && yaml11::written_plain(self.parse.text, value) {
            self.parse.merge_key.set(true);
        }
        if let Some(index) = self.key.then(|| root_item(self.path)).flatten() {
            let mut starts = self.parse.item_starts.borrow_mut();
            if starts.last().is_none_or(|(last, _)| *last < index) {
                starts.push((index, offset_in(self.parse.text, value)));
            }
        }
        if let Some(reading) = yaml11::plain_reading(self.parse.text, value) {
            let found = Misread::new(self.path, self.key, value, reading);
            self.parse.misread.borrow_mut().push(found);
        }
        self.visit_str(value)
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::String(value))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.spend()?;
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.spend()?;
        let mut items = Vec::new();
        loop {
            let segment = Segment {
                parent: self.path,
                step: StepRef::Index(items.len()),
            };
            let Some(item) = seq.next_element_seed(self.at(&segment))? else {
                break;
            };
            items.push(item);
        }
        Ok(Value::Sequence(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.spend()?;
        let mut mapping = Mapping::new();
        // Each `<<` value, with how many keys were written before it.
        let mut merges: Vec<(usize, Value)> = Vec::new();
        let mut item = root_item(self.path);
        while let Some(key) = map.next_key_seed(self.key())? {
            if let Some(index) = item.take() {
                // A first key serde_yaml did not lend out (one with an escape, not the
                // input's text) leaves the item without a line, rather than at a later key's.
                let mut starts = self.parse.item_starts.borrow_mut();
                if starts.last().is_none_or(|(last, _)| *last < index) {
                    starts.push((index, None));
                }
            }
            let merge_key = self.parse.merge_key.replace(false);
            if !merge_key && mapping.contains_key(&key) {
                let shown = plain_scalars::key_text(&key);
                let error = de::Error::custom(format_args!("duplicate key {shown}"));
                *self.parse.duplicate.borrow_mut() = Some(shown);
                return Err(error);
            }
            let segment = Segment {
                parent: self.path,
                step: if merge_key {
                    StepRef::Merge
                } else {
                    StepRef::Key(&key)
                },
            };
            let value = map.next_value_seed(self.at(&segment))?;
            if merge_key {
                merges.push((mapping.len(), value));
            } else {
                mapping.insert(key, value);
            }
        }
        if merges.is_empty() {
            return Ok(Value::Mapping(mapping));
        }
        // go-yaml v2 merges where each `<<` stands (a mapping may have several): its entries
        // replace the keys written before it, earlier merges' entries included, and the keys
        // written after it replace its entries. Replaying the keys and merges in their order
        // gives that; an existing key keeps its place.
        let mut built = Mapping::new();
        let mut merges = merges.into_iter().peekable();
        for (at, (key, value)) in mapping.into_iter().enumerate() {
            while let Some((_, merged)) = merges.next_if(|(before, _)| *before == at) {
                merge(&mut built, merged).map_err(de::Error::custom)?;
            }
            built.insert(key, value);
        }
        for (_, merged) in merges {
            merge(&mut built, merged).map_err(de::Error::custom)?;
        }
        Ok(Value::Mapping(built))
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        let (tag, _) = data.variant::<String>()?;
        Err(de::Error::custom(format_args!(
            "unsupported YAML tag !{tag}"
        )))
    }
}

/// The index of the element of the document's top-level `items` list that `path` is, if it
/// is one.
fn root_item(path: Option<&Segment<'_>>) -> Option<usize> {
    let item = path?;
    let StepRef::Index(index) = item.step else {
        return None;
    };
    let items = item.parent?;
    match items.step {
        StepRef::Key(Value::String(key)) if key == "items" && items.parent.is_none() => Some(index),
        _ => None,
    }
}

/// Sets the entries of a `<<` key's value (a mapping, or a list of mappings of which the
/// earlier wins) in `mapping`, replacing what it has; serde_yaml's messages for anything else.
/// The merged mappings were built by the same visitor, so their own merges are already applied.
fn merge(mapping: &mut Mapping, merged: Value) -> Result<(), &'static str> {
    let mut set = |from: Mapping| {
        for (key, value) in from {
            mapping.insert(key, value);
        }
    };
    match merged {
        Value::Mapping(from) => set(from),
        Value::Sequence(list) => {
            let mut from = Mapping::new();
            for item in list {
                match item {
                    Value::Mapping(item) => {
                        for (key, value) in item {
                            from.entry(key).or_insert(value);
                        }
                    }
                    Value::Sequence(_) => {
                        return Err("expected a mapping for merging, but found sequence")
                    }
                    Value::Tagged(_) => return Err("unexpected tagged value in merge"),
                    _ => return Err("expected a mapping for merging, but found scalar"),
                }
            }
            set(from);
        }
        Value::Tagged(_) => return Err("unexpected tagged value in merge"),
        _ => return Err("expected a mapping or list of mappings for merging, but found scalar"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_input(name: &str, bytes: &[u8], syntax: Syntax) -> Result<Vec<Document>, LoadError> {
        let input = Input {
            name: name.to_string(),
            bytes: bytes.to_vec(),
            syntax,
            walked: false,
        };
        parse_documents(&input, &LoadOptions::default())
    }

    fn yaml(text: &str) -> Result<Vec<Document>, LoadError> {
        parse_input("f.yaml", text.as_bytes(), Syntax::Yaml)
    }

    fn values(result: Result<Vec<Document>, LoadError>) -> Vec<Value> {
        match result {
            Ok(documents) => documents.into_iter().map(|d| d.value).collect(),
            Err(error) => panic!("{error}"),
        }
    }

    fn parse(text: &str) -> Value {
        serde_yaml::from_str(text).unwrap_or_else(|error| panic!("{error}"))
    }

    #[test]
    fn multi_document_streams_split_on_markers() {
        let documents = values(yaml("a: 1\n---\nb: 2\n"));
        assert_eq!(documents, [parse("a: 1"), parse("b: 2")]);
    }

    #[test]
    fn empty_documents_are_kept_as_null_for_numbering() {
        let documents = values(yaml("---\n---\na: 1\n"));
        assert_eq!(documents, [Value::Null, parse("a: 1")]);
    }

    #[test]
    fn documents_are_numbered_from_one() {
        let documents = yaml("a: 1\n---\nb: 2\n").unwrap_or_default();
        let numbers: Vec<usize> = documents.iter().map(|d| d.source.document).collect();
        assert_eq!(numbers, [1, 2]);
    }

    fn lines(result: Result<Vec<Document>, LoadError>) -> Vec<Option<usize>> {
        match result {
            Ok(documents) => documents.iter().map(|d| d.source.line).collect(),
            Err(error) => panic!("{error}"),
        }
    }

    #[test]
    fn yaml_documents_carry_the_line_of_their_first_content() {
        let text = "# fleet\napiVersion: v1\n---\n\n# the second\nkind: B\n---\n---\nc: 3\n";
        assert_eq!(lines(yaml(text)), [Some(2), Some(6), None, Some(9)]);
    }

    #[test]
    fn new_lines_are_counted_across_blocks() {
        let text = "\n".repeat(600) + &"a\nb".repeat(300);
        assert_eq!(newlines(text.as_bytes()), 900);
        let mut lines = Lines::new(&text);
        assert_eq!(
            (lines.at(255), lines.at(601), lines.at(600)),
            (Some(256), Some(601), None)
        );
    }

    #[test]
    fn a_lists_items_carry_the_line_of_their_first_plain_key() {
        let text = "a: 1\n---\nkind: List\nitems:\n- x: 1\n\n  y: 2\n- {x: 3}\n- \"\\x78\": 4\n  y: 5\n- [6]\n- z: {items: [{a: 1}]}\n";
        let lines: Vec<Vec<Option<usize>>> = yaml(text)
            .unwrap_or_default()
            .into_iter()
            .map(|document| document.item_lines)
            .collect();
        assert_eq!(
            lines,
            [vec![], vec![Some(5), Some(8), None, None, Some(12)]]
        );
    }

    #[test]
    fn json_documents_carry_the_line_of_their_first_value() {
        let text = b"\n\n{\"a\": 1,\n \"b\": 2}\n{\"c\": 3} {\"d\":\n4}\n\n[5]";
        assert_eq!(
            lines(parse_input("f.json", text, Syntax::Json)),
            [Some(3), Some(5), Some(5), Some(8)]
        );
        let input = Input {
            name: "f.json".to_string(),
            bytes: text.to_vec(),
            syntax: Syntax::Json,
            walked: false,
        };
        let read = read_documents(&input, &LoadOptions::default()).unwrap_or_default();
        let read: Vec<Option<usize>> = read.iter().map(|d| d.source().line).collect();
        assert_eq!(read, [Some(3), Some(5), Some(5), Some(8)]);
    }

    #[test]
    fn syntax_errors_carry_document_and_line() {
        let error = yaml("a: 1\n---\nb: 2\nc: [\n").err();
        let Some(LoadError::Syntax { at, line, .. }) = error else {
            panic!("expected a syntax error, got {error:?}");
        };
        assert_eq!((at.document, line), (2, Some(5)));
    }

    #[test]
    fn syntax_errors_say_where_the_broken_construct_began() {
        let error = yaml("---\na: 1\nb:\n  c: 1\n d: 2\n")
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("f.yaml#1: line 5 column 2: did not find expected key, while parsing a block mapping started at line 2 column 1")
        );
    }

    #[test]
    fn duplicate_keys_are_errors_at_their_second_occurrence() {
        let error = yaml("x: 0\ny:\n  a: 1\n  a: 2\n")
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("f.yaml#1: line 4 column 3: y: duplicate key a")
        );
        let error = yaml("- a: 1\n  b: 2\n  \"a\": 3\n")
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("f.yaml#1: line 3 column 3: .[0]: duplicate key a")
        );
    }

    #[test]
    fn merge_keys_are_applied() {
        let documents = values(yaml("base: &b {x: 1}\nderived:\n  <<: *b\n  y: 2\n"));
        assert_eq!(documents, [parse("base: {x: 1}\nderived: {x: 1, y: 2}")]);
    }

    #[test]
    fn only_a_plain_merge_key_merges() {
        let documents = values(yaml("base: &b {x: 1}\nquoted:\n  '<<': *b\n  y: 2\n"));
        assert_eq!(
            documents,
            [parse("base: {x: 1}\nquoted: {'<<': {x: 1}, y: 2}")]
        );
    }

    #[test]
    fn merges_apply_within_merged_mappings_and_the_keys_written_after_them_win() {
        let text = "a: &a {x: 1, y: 1}\nb: &b {<<: *a, y: 2}\nc: {<<: [*b, {z: 3, x: 9}], x: 4}\n";
        assert_eq!(
            values(yaml(text)),
            [parse(
                "a: {x: 1, y: 1}\nb: {y: 2, x: 1}\nc: {x: 4, y: 2, z: 3}"
            )]
        );
    }

    #[test]
    fn a_merge_replaces_the_keys_before_it_as_go_yaml_v2_does() {
        let text = "m: {a: 1, b: 1, <<: [{a: 2, c: 2, d: 2}, {a: 3, e: 3}], c: 4}\n";
        assert_eq!(
            values(yaml(text)),
            [parse("m: {a: 2, b: 1, c: 4, d: 2, e: 3}")]
        );
    }

    #[test]
    fn every_merge_of_a_mapping_applies_where_it_stands() {
        let text =
            "m: {a: 1, <<: {a: 2, b: 2, c: 2}, b: 3, <<: [{c: 4, d: 4}, {d: 5, e: 5}], e: 6}\n";
        assert_eq!(
            values(yaml(text)),
            [parse("m: {a: 2, b: 3, c: 4, d: 4, e: 6}")]
        );
    }

    #[test]
    fn a_merge_of_a_scalar_is_refused() {
        let error = yaml("a: {<<: 1}\n").err().map(|e| e.to_string());
        assert!(
            error.as_deref().is_some_and(|e| e
                .contains("expected a mapping or list of mappings for merging, but found scalar")),
            "{error:?}"
        );
    }

    #[test]
    fn alias_bombs_exhaust_the_budget() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for level in 1..12 {
            let previous = level - 1;
            text.push_str(&format!(
                "a{level}: &a{level} [*a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}]\n"
            ));
        }
        let error = yaml(&text).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            error.contains("too many") || error.contains("repetition limit"),
            "{error}"
        );
    }

    #[test]
    fn many_aliases_of_a_large_node_exhaust_the_budget() {
        // Within serde_yaml's own repetition limit, but 10^8 values once expanded.
        let mut text = format!("big: &big [{}]\nrefs:\n", "1,".repeat(10_000));
        text.push_str(&"- *big\n".repeat(10_000));
        let error = yaml(&text).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            error.contains("document expands to too many values"),
            "{error}"
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let text = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert!(yaml(&text).is_err());
    }

    #[test]
    fn non_utf8_input_is_an_error_naming_the_line() {
        let error = parse_input("f.yaml", b"a: 1\nb: \xff\n", Syntax::Yaml)
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("f.yaml: not valid UTF-8: invalid byte at offset 8 (line 2)")
        );
    }

    #[test]
    fn json_streams_are_split_into_documents() {
        let documents = values(parse_input("f.json", br#"{"a": 1} {"b": 2}"#, Syntax::Json));
        assert_eq!(documents, [parse("a: 1"), parse("b: 2")]);
    }

    #[test]
    fn json_syntax_errors_carry_the_line() {
        let error = parse_input("f.json", b"{\"a\": 1}\n{\"b\":\n}", Syntax::Json)
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("f.json#2: line 3 column 1: expected value")
        );
    }

    #[test]
    fn sniffing_treats_a_leading_brace_as_json() {
        let documents = values(parse_input(
            "<stdin>",
            b"  {\"a\": 1}\n{\"b\": 2}",
            Syntax::Sniff,
        ));
        assert_eq!(documents.len(), 2);
    }

    #[test]
    fn byte_order_mark_is_ignored() {
        let documents = values(yaml("\u{feff}a: 1\n"));
        assert_eq!(documents, [parse("a: 1")]);
    }
}
