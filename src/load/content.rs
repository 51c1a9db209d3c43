//! What a reader decodes from: a parsed tree, or the text of one JSON value.
//!
//! Building a `serde_yaml::Value` tree for a 100k-cluster JSON inventory, decoding the tree
//! and freeing it took most of a plan's loading time. JSON that parsed cleanly (valid, no
//! duplicate keys) is therefore kept as text and decoded straight into each reader's types.
//! Only a value that fails to decode is turned into a tree and decoded again, so the errors
//! (and anything a direct decode would reject) are exactly those of the tree.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_yaml::Value;

use super::decode::{decode, FieldError};
use super::fields::{self, Fields, Walked, LARGE, LINEAR_KEYS};
use super::strict;

/// One value to read, borrowed from a parsed document.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Content<'a> {
    Tree(&'a Value),
    /// The text of one JSON value, one of those [`json_documents`] accepted.
    Json(&'a str),
    /// A JSON mapping of that text whose top-level fields were found in one pass
    /// ([`Content::fields`]), so asking for a field does not walk the text again.
    Fields(&'a Fields<'a>),
}

/// The kind of a value, for "expected …, found …" messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Null,
    Bool,
    Number,
    String,
    List,
    Mapping,
    Tagged,
}

impl Shape {
    pub(super) fn describe(self) -> &'static str {
        match self {
            Shape::Null => "nothing",
            Shape::Bool => "a boolean",
            Shape::Number => "a number",
            Shape::String => "a string",
            Shape::List => "a list",
            Shape::Mapping => "a mapping",
            Shape::Tagged => "a tagged value",
        }
    }
}

impl<'a> Content<'a> {
    pub(crate) fn shape(self) -> Shape {
        match self {
            Content::Tree(value) => match value {
                Value::Null => Shape::Null,
                Value::Bool(_) => Shape::Bool,
                Value::Number(_) => Shape::Number,
                Value::String(_) => Shape::String,
                Value::Sequence(_) => Shape::List,
                Value::Mapping(_) => Shape::Mapping,
                Value::Tagged(_) => Shape::Tagged,
            },
            Content::Json(text) => match text.trim_start().as_bytes().first() {
                Some(b'{') => Shape::Mapping,
                Some(b'[') => Shape::List,
                Some(b'"') => Shape::String,
                Some(b't' | b'f') => Shape::Bool,
                Some(b'n') | None => Shape::Null,
                Some(_) => Shape::Number,
            },
            Content::Fields(_) => Shape::Mapping,
        }
    }

    /// The top-level fields of a JSON mapping, read in one pass; `None` for a tree or any
    /// other value. The caller keeps them and reads through `Content::Fields`.
    pub(super) fn fields(self) -> Option<Fields<'a>> {
        match self {
            Content::Json(text) if self.shape() == Shape::Mapping => Fields::read(text),
            _ => None,
        }
    }

    /// The fields of element `index` of the list at `key`, when checking the document found
    /// them ([`Fields::keep`]).
    pub(super) fn walked(self, key: &str, index: usize) -> Option<&'a Fields<'a>> {
        match self {
            Content::Fields(fields) => fields.walked(key, index),
            Content::Tree(_) | Content::Json(_) => None,
        }
    }

    /// Decodes `T` from the top-level fields named `keys` only: `T` is a struct of those
    /// fields that ignores the others (`TypeMeta`, `metadata`), so the rest of a large object
    /// is not read. A failure is decoded again from the whole value, whose error is the one
    /// reported.
    pub(super) fn decode_fields<T: DeserializeOwned>(self, keys: &[&str]) -> Result<T, FieldError> {
        match self {
            Content::Fields(fields) => from_fields(fields, Some(keys)),
            _ => self.decode(),
        }
    }

    /// Decodes the value as `T`, reporting the path of the field that did not fit.
    pub(crate) fn decode<T: DeserializeOwned>(self) -> Result<T, FieldError> {
        match self {
            Content::Tree(value) => decode(value),
            Content::Json(text) => {
                match strict::deserialize(&mut serde_json::Deserializer::from_str(text)) {
                    Ok(decoded) => Ok(decoded),
                    // The tree decides: it gives the error its path, and it is the reference for
                    // anything the two decoders might disagree on.
                    Err(_) => decode(&tree(text)?),
                }
            }
            Content::Fields(fields) => from_fields(fields, None),
        }
    }

    /// The value of `key` when this is a JSON mapping whose fields were found and the value is
    /// a string written without an escape: its text is what it decodes to, read here without
    /// a decoder (every object's `apiVersion` and `kind`). `None` otherwise, for a decoder to
    /// take (and to refuse as the tree would).
    pub(super) fn plain_string(self, key: &str) -> Option<&'a str> {
        match self {
            Content::Fields(fields) => {
                let quoted = fields.get(key)?;
                let text = quoted.strip_prefix('"')?.strip_suffix('"')?;
                (!text.contains('\\')).then_some(text)
            }
            Content::Tree(_) | Content::Json(_) => None,
        }
    }

    /// The value of `key` when this is a mapping that has it.
    pub(crate) fn get(self, key: &str) -> Option<Content<'a>> {
        match self {
            Content::Tree(value) => value.get(key).map(Content::Tree),
            Content::Json(text) => {
                if self.shape() != Shape::Mapping {
                    return None;
                }
                let fields: HashMap<String, &RawValue> = serde_json::from_str(text).ok()?;
                fields.get(key).map(|raw| Content::Json(raw.get()))
            }
            Content::Fields(fields) => fields.get(key).map(Content::Json),
        }
    }

    /// The JSON text this is, a slice of its input; `None` for a tree.
    pub(super) fn text(self) -> Option<&'a str> {
        match self {
            Content::Tree(_) => None,
            Content::Json(text) => Some(text),
            Content::Fields(fields) => Some(fields.text()),
        }
    }

    /// The elements when this is a list.
    pub(super) fn elements(self) -> Option<Vec<Content<'a>>> {
        match self {
            Content::Tree(Value::Sequence(items)) => {
                Some(items.iter().map(Content::Tree).collect())
            }
            Content::Tree(_) | Content::Fields(_) => None,
            Content::Json(text) => serde_json::from_str::<Vec<&RawValue>>(text)
                .ok()
                .map(|items| {
                    items
                        .into_iter()
                        .map(|raw| Content::Json(raw.get()))
                        .collect()
                }),
        }
    }

    /// The elements of the list at `key`, when this is a mapping whose `key` is a list. JSON
    /// text is read once (a 100k-cluster inventory's `clusters` is most of its document).
    pub(super) fn list_at(self, key: &str) -> Option<Vec<Content<'a>>> {
        match self {
            Content::Tree(_) => self.get(key)?.elements(),
            Content::Json(text) => {
                let mut json = serde_json::Deserializer::from_str(text);
                let items = de::Deserializer::deserialize_map(&mut json, ListAt(key)).ok()??;
                Some(
                    items
                        .into_iter()
                        .map(|raw| Content::Json(raw.get()))
                        .collect(),
                )
            }
            Content::Fields(fields) => Some(
                fields
                    .elements(key)?
                    .iter()
                    .copied()
                    .map(Content::Json)
                    .collect(),
            ),
        }
    }

    /// The value as JSON (what the placement model decodes).
    pub(crate) fn to_json(self) -> Result<serde_json::Value, serde_json::Error> {
        match self {
            Content::Tree(value) => serde_json::to_value(value),
            Content::Json(text) => serde_json::from_str(text),
            Content::Fields(fields) => serde_json::from_str(fields.text()),
        }
    }
}

/// `T` decoded from the fields named `keys` (`None`: every field), each from its own text, and
/// one the type does not have not read again (a List item's metadata, its status, the
/// templates a consumer carries). A failure is decoded again from the whole text, whose error
/// is the one reported.
fn from_fields<T: DeserializeOwned>(
    fields: &Fields<'_>,
    keys: Option<&[&str]>,
) -> Result<T, FieldError> {
    let selected = Selected {
        fields: fields.iter(),
        keys,
        value: None,
    };
    T::deserialize(de::value::MapAccessDeserializer::new(selected))
        .or_else(|_| Content::Json(fields.text()).decode())
}

/// The fields [`from_fields`] reads (`keys`; `None`: every field), each value decoded from its
/// own text.
struct Selected<'f, 'a, I> {
    fields: I,
    keys: Option<&'f [&'f str]>,
    /// The text of the value whose key was just given.
    value: Option<&'a str>,
}

// Values are decoded from the text they borrow from, so `'de` is the text's lifetime.
impl<'f, 'a, I: Iterator<Item = (&'f str, &'a str)>> MapAccess<'a> for Selected<'f, 'a, I> {
    type Error = serde_json::Error;

    fn next_key_seed<K: DeserializeSeed<'a>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        let keys = self.keys;
        let Some((key, value)) = self
            .fields
            .by_ref()
            .find(|(key, _)| keys.is_none_or(|keys| keys.contains(key)))
        else {
            return Ok(None);
        };
        self.value = Some(value);
        seed.deserialize(de::value::StrDeserializer::<Self::Error>::new(key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        let text = self
            .value
            .take()
            .ok_or_else(|| de::Error::custom("a value asked for before its key"))?;
        strict::deserialize_checked_seed(seed, text)
    }
}

/// The raw elements of one field's list, the other fields skipped; `None` when the field is
/// missing or null (an error when it is not a list).
struct ListAt<'k>(&'k str);

impl<'de> Visitor<'de> for ListAt<'_> {
    type Value = Option<Vec<&'de RawValue>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a mapping")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if key == self.0 {
                found = map.next_value()?;
            } else {
                map.next_value::<de::IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

/// The tree of checked JSON text, as the YAML/JSON parser would have built it.
fn tree(text: &str) -> Result<Value, FieldError> {
    serde_json::from_str(text).map_err(|error| FieldError::new("", error.to_string()))
}

/// What JSON skips between values.
pub(super) const JSON_WHITESPACE: [char; 4] = [' ', '\t', '\n', '\r'];

/// The texts of the values of a JSON stream, each with the byte offset it starts at, when each
/// is as the tree parser would take it: valid, and no mapping with a key twice (values that
/// pass can be decoded without building a tree). `None` when any is not; the stream is read
/// once.
pub(super) fn json_documents(text: &str) -> Option<Vec<JsonDocument<'_>>> {
    if text.len() >= CHECKED_IN_PARTS {
        let document = text.trim_matches(JSON_WHITESPACE);
        if let Some((valid, fields)) = checked_in_parts(document, 0) {
            let start = text.len() - text.trim_start_matches(JSON_WHITESPACE).len();
            return valid.then(|| {
                vec![JsonDocument {
                    start,
                    text: document,
                    fields: Some(fields),
                }]
            });
        }
    }
    json_documents_whole(text).map(|documents| {
        documents
            .into_iter()
            .map(|(start, text)| JsonDocument {
                start,
                text,
                fields: None,
            })
            .collect()
    })
}

/// One document of a JSON stream: where it starts, its text, and its fields when checking it
/// found them (the loader reads them instead of walking the text again).
pub(super) struct JsonDocument<'a> {
    pub(super) start: usize,
    pub(super) text: &'a str,
    pub(super) fields: Option<Fields<'a>>,
}

/// [`json_documents`] walking the text whole, on one core.
fn json_documents_whole(text: &str) -> Option<Vec<(usize, &str)>> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Checked>();
    let mut documents = Vec::new();
    let mut start = 0;
    while let Some(checked) = stream.next() {
        checked.ok()?;
        let end = stream.byte_offset();
        let document = text.get(start..end)?.trim_start_matches(JSON_WHITESPACE);
        documents.push((end - document.len(), document));
        start = end;
    }
    Some(documents)
}

/// A mapping from this size on (a 100k-cluster inventory, a List of 10k objects) is checked in
/// parts on every core ([`checked_in_parts`]); a smaller one is walked whole on one.
const CHECKED_IN_PARTS: usize = LARGE;

/// Nesting at which [`checked_in_parts`] leaves the decision to the walk of the whole text,
/// well inside serde_json's recursion limit (128), which a part alone would not reach.
const PARTS_MAX_DEPTH: usize = 64;

/// Whether `text`, one JSON mapping `outer` levels inside the document, is valid with no key
/// twice, as [`Checked`] would find walking it whole, but on every core: its top-level fields
/// are found by one walk ([`Fields::read`], which checks the commas, colons and brackets
/// between them), their keys compared here, and each value checked apart, a large list element
/// by element (a large mapping element again in parts). The whole is valid exactly when the
/// walk and every part are. The fields are returned with those of the large elements kept
/// ([`Fields::keep`]): the loader reads them rather than walking the text again. `None` when
/// the walk cannot say (not one mapping, a key it does not read, nesting near the recursion
/// limit): the caller walks the whole text, and that decides.
fn checked_in_parts(text: &str, outer: usize) -> Option<(bool, Fields<'_>)> {
    fields_checked_in_parts(Fields::read(text)?, outer)
}

/// [`checked_in_parts`] of a mapping whose fields were read (with the fields of its lists'
/// large mapping elements, which are checked from them rather than walked again).
fn fields_checked_in_parts(mut fields: Fields<'_>, outer: usize) -> Option<(bool, Fields<'_>)> {
    if outer + fields.depth() > PARTS_MAX_DEPTH {
        return None;
    }
    let mut keys = HashSet::new();
    // A key with an escape was decoded by serde_json; one without must hold no control
    // character, which JSON strings cannot.
    let keys_valid = fields
        .parts()
        .all(|(key, _, _)| !key.bytes().any(|byte| byte < 0x20) && keys.insert(key));
    if !keys_valid {
        return Some((false, fields));
    }
    let mut read: Vec<_> = (0..fields.parts().count())
        .map(|position| fields.take_walked(position))
        .collect();
    let mut kept = Vec::new();
    let mut valid = true;
    for (position, (key, value, elements)) in fields.parts().enumerate() {
        valid = match elements {
            Some(elements) if value.len() >= CHECKED_IN_PARTS => {
                // A List's items are each read for their fields next: those found while
                // checking them are kept. Other lists' elements (an inventory's clusters) are
                // decoded whole, and their fields would be built for nothing.
                let items = outer == 0 && key == "items";
                let read = read.get_mut(position).map(std::mem::take);
                let (valid, walked) =
                    elements_checked(elements, read.unwrap_or_default(), outer, items);
                kept.push((position, walked));
                valid
            }
            _ if value.len() >= CHECKED_IN_PARTS => match checked_in_parts(value, outer + 1) {
                Some((valid, _)) => valid,
                None => checked(value),
            },
            _ => checked(value),
        };
        if !valid {
            break;
        }
    }
    for (position, walked) in kept {
        fields.keep(position, walked);
    }
    Some((valid, fields))
}

/// Elements of a list one level inside a mapping `outer` levels deep: a large mapping in
/// parts (its fields kept, by index), the others on every core. With `items`, a small
/// mapping's fields are found as it is checked ([`Fields::read_checked`]) and kept too; one
/// that walk leaves to serde_json is checked there.
fn elements_checked<'a>(
    elements: &[&'a str],
    read: Walked<'a>,
    outer: usize,
    items: bool,
) -> (bool, Walked<'a>) {
    let mut walked = Vec::new();
    let mut small = Vec::with_capacity(elements.len());
    let mut read = read.into_iter().peekable();
    for (index, &element) in elements.iter().enumerate() {
        if element.len() < CHECKED_IN_PARTS {
            small.push((index, element));
            continue;
        }
        let parts = match read.next_if(|(at, _)| *at == index) {
            Some((_, fields)) => fields_checked_in_parts(fields, outer + 2),
            None => checked_in_parts(element, outer + 2),
        };
        match parts {
            Some((true, fields)) => walked.push((index, fields)),
            Some((false, _)) => return (false, walked),
            None if checked(element) => {}
            None => return (false, walked),
        }
    }
    let chunks = crate::parallel::chunks_in_order(&small, 1024, |chunk| {
        let mut found = Vec::new();
        for &(index, element) in chunk {
            match items.then(|| Fields::read_checked(element)).flatten() {
                Some(fields) => found.push((index, fields)),
                None if checked(element) => {}
                None => return None,
            }
        }
        Some(found)
    });
    let mut valid = true;
    for chunk in chunks {
        match chunk {
            Some(found) => walked.extend(found),
            None => valid = false,
        }
    }
    // By index, as [`Fields::walked`] looks them up.
    walked.sort_unstable_by_key(|(index, _)| *index);
    (valid, walked)
}

/// Whether `text` is one JSON value, valid with no key twice: walked ([`fields::checked`]),
/// and by serde_json when the walk does not say it is.
pub(super) fn checked(text: &str) -> bool {
    fields::checked(text).is_some() || checked_by_serde(text)
}

/// [`checked`] as serde_json alone finds it: the reference the walks are held to.
pub(super) fn checked_by_serde(text: &str) -> bool {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    Checked.deserialize(&mut deserializer).is_ok() && deserializer.end().is_ok()
}

/// Walks a value, failing on a duplicate key (the tree parser's "duplicate key" error).
#[derive(Clone, Copy)]
struct Checked;

impl<'de> serde::Deserialize<'de> for Checked {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Checked, D::Error> {
        deserializer.deserialize_any(Checked).map(|()| Checked)
    }
}

impl<'de> DeserializeSeed<'de> for Checked {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Checked {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        // On the stack: a 100k-cluster inventory has ~800k mappings, and a vector each was
        // an allocation and a free apiece.
        let mut few: [Cow<'de, str>; LINEAR_KEYS] = Default::default();
        let mut count = 0;
        let mut many = HashSet::new();
        while let Some(key) = map.next_key_seed(Key)? {
            let seen = if count < LINEAR_KEYS {
                few.get(..count).is_some_and(|few| few.contains(&key))
            } else {
                if many.is_empty() {
                    many.extend(few.iter_mut().map(std::mem::take));
                }
                many.contains(&key)
            };
            if seen {
                return Err(de::Error::custom("duplicate key"));
            }
            match few.get_mut(count) {
                Some(slot) => *slot = key,
                None => {
                    many.insert(key);
                }
            }
            count += 1;
            map.next_value_seed(self)?;
        }
        Ok(())
    }
}

/// A mapping key, borrowed from the text unless it has escapes.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(key))
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(key.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A List over [`CHECKED_IN_PARTS`]: an inventory of `clusters` entries (each `entry` of
    /// its index), between small items, in whitespace.
    fn large_list(clusters: usize, entry: impl Fn(usize) -> String) -> String {
        let entries: Vec<String> = (0..clusters).map(entry).collect();
        format!(
            " \n{{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [{{\"kind\": \"A\"}}, \
             {{\"kind\": \"ClusterInventory\", \"clusters\": [{}]}}, [1, 2]]}}\n",
            entries.join(",\n")
        )
    }

    /// What [`json_documents`] found: each document's start and text.
    fn starts_and_texts(text: &str) -> Option<Vec<(usize, &str)>> {
        json_documents(text).map(|documents| {
            documents
                .into_iter()
                .map(|document| (document.start, document.text))
                .collect()
        })
    }

    fn cluster(i: usize) -> String {
        format!(
            r#"{{"name": "cluster-{i:06}", "labels": {{"region": "r{}", "env": "prod"}}, "n": [1.5, true, null]}}"#,
            i % 7
        )
    }

    #[test]
    fn a_large_mapping_checked_in_parts_is_read_as_walked_whole() {
        let text = large_list(20_000, cluster);
        assert!(text.len() >= CHECKED_IN_PARTS);
        assert_eq!(starts_and_texts(&text), json_documents_whole(&text));
        let documents = json_documents(&text).unwrap_or_default();
        let fields = documents
            .first()
            .and_then(|document| document.fields.as_ref());
        // The inventory's fields are kept for the loader, with its clusters.
        let inventory = fields.and_then(|fields| fields.walked("items", 1));
        assert_eq!(
            inventory
                .and_then(|inventory| inventory.elements("clusters"))
                .map(<[&str]>::len),
            Some(20_000)
        );
        // So are a small item's, found as it was checked; an item that is no mapping has none.
        let first = fields.and_then(|fields| fields.walked("items", 0));
        assert_eq!(first.and_then(|first| first.get("kind")), Some("\"A\""));
        assert!(fields.is_some_and(|fields| fields.walked("items", 2).is_none()));
        // A cluster's are not: the inventory is decoded whole.
        assert!(inventory.is_some_and(|inventory| inventory.walked("clusters", 0).is_none()));
        assert_eq!(
            checked_in_parts(text.trim(), 0).map(|(valid, _)| valid),
            Some(true)
        );
    }

    #[test]
    fn what_the_whole_walk_refuses_the_parts_refuse() {
        let deep = format!("{}{}", "[".repeat(130), "]".repeat(130));
        let broken = [
            (
                "a key twice in an entry",
                777,
                r#"{"name": "a", "name": "b"}"#,
            ),
            (
                "a key twice in a nested mapping",
                9,
                r#"{"labels": {"a": "1", "\u0061": "2"}}"#,
            ),
            ("a bad number", 15_000, r#"{"n": 01}"#),
            ("a control character in a string", 3, "{\"n\": \"a\tb\"}"),
            ("an empty element", 5, ""),
            ("nesting past the recursion limit", 5, &deep),
        ];
        for (what, at, replacement) in broken {
            let text = large_list(20_000, |i| {
                if i == at {
                    replacement.to_string()
                } else {
                    cluster(i)
                }
            });
            assert_eq!(json_documents_whole(&text), None, "{what}");
            assert_eq!(starts_and_texts(&text), None, "{what}");
        }
        let twice = large_list(20_000, cluster).replacen(
            "\"kind\": \"ClusterInventory\"",
            "\"kind\": \"ClusterInventory\", \"kind\": \"x\"",
            1,
        );
        assert_eq!(starts_and_texts(&twice), None);
        let top_twice = large_list(20_000, cluster).replacen(
            "{\"apiVersion\"",
            "{\"kind\": 1, \"apiVersion\"",
            1,
        );
        assert_eq!(starts_and_texts(&top_twice), None);
        // A small item of the List, whose fields are found as it is checked.
        let item_twice = large_list(20_000, cluster).replacen(
            "{\"kind\": \"A\"}",
            "{\"kind\": \"A\", \"spec\": {\"a\": [1], \"a\": 2}}",
            1,
        );
        assert_eq!(json_documents_whole(&item_twice), None);
        assert_eq!(starts_and_texts(&item_twice), None);
        let control_key =
            large_list(20_000, cluster).replacen("\"apiVersion\"", "\"api\u{1}Version\"", 1);
        assert_eq!(json_documents_whole(&control_key), None);
        assert_eq!(starts_and_texts(&control_key), None);
    }

    #[test]
    fn what_the_parts_cannot_read_is_walked_whole() {
        // Two documents, and a mapping with an escaped key: the walk of the whole decides.
        let two = format!("{} {{}}", large_list(20_000, cluster));
        assert_eq!(starts_and_texts(&two), json_documents_whole(&two));
        assert_eq!(
            starts_and_texts(&two).map(|documents| documents.len()),
            Some(2)
        );
        let escaped = large_list(20_000, cluster).replacen("\"kind\"", "\"k\\u0069nd\"", 1);
        assert_eq!(
            checked_in_parts(escaped.trim(), 0).map(|(valid, _)| valid),
            Some(true)
        );
        assert!(json_documents(&escaped).is_some());
        // A small item holding what the checked read leaves to serde_json is checked there,
        // and its fields are found when it is read.
        for value in ["1e5", "\"\\u0041\"", "12345678901234567890"] {
            let deferred = large_list(20_000, cluster).replacen(
                "{\"kind\": \"A\"}",
                &format!("{{\"kind\": {value}}}"),
                1,
            );
            let documents = json_documents(&deferred).unwrap_or_default();
            let fields = documents
                .first()
                .and_then(|document| document.fields.as_ref());
            assert!(fields.is_some_and(|fields| fields.walked("items", 0).is_none()));
            assert!(fields.is_some_and(|fields| fields.walked("items", 1).is_some()));
        }
    }

    #[test]
    fn a_plain_string_is_read_only_where_its_text_is_what_it_decodes_to() {
        let text = r#"{"a": "x/v1", "b": "x\/v1", "c": 1, "d": null, "e": ["x"], "f": ""}"#;
        let fields = Fields::read(text).unwrap_or_else(|| panic!("a mapping"));
        let content = Content::Fields(&fields);
        assert_eq!(content.plain_string("a"), Some("x/v1"));
        assert_eq!(content.plain_string("f"), Some(""));
        // An escape, any other kind of value, or no such field: the decoder's to take.
        for key in ["b", "c", "d", "e", "missing"] {
            assert_eq!(content.plain_string(key), None, "{key}");
        }
        let (value, text) = both(text);
        assert_eq!(Content::Tree(&value).plain_string("a"), None);
        assert_eq!(Content::Json(text).plain_string("a"), None);
    }

    fn both(text: &str) -> (Value, &str) {
        (serde_json::from_str(text).unwrap_or_default(), text)
    }

    #[test]
    fn json_and_tree_agree_on_shape_and_fields() {
        let (value, text) = both(r#"{"a": {"b": [1, "x", null]}, "c": true}"#);
        for content in [Content::Tree(&value), Content::Json(text)] {
            assert_eq!(content.shape(), Shape::Mapping);
            let list = content.get("a").and_then(|a| a.get("b"));
            let shapes: Vec<Shape> = list
                .and_then(Content::elements)
                .unwrap_or_default()
                .into_iter()
                .map(Content::shape)
                .collect();
            assert_eq!(shapes, vec![Shape::Number, Shape::String, Shape::Null]);
            assert_eq!(content.get("c").map(Content::shape), Some(Shape::Bool));
            assert!(content.get("missing").is_none());
            assert!(content.get("c").and_then(|c| c.get("x")).is_none());
        }
    }

    #[test]
    fn a_json_decode_error_is_the_tree_error_with_its_path() {
        #[derive(Debug, serde::Deserialize)]
        struct Doc {
            #[allow(dead_code)]
            spec: Spec,
        }
        #[derive(Debug, serde::Deserialize)]
        struct Spec {
            #[allow(dead_code)]
            replicas: i64,
        }
        let (value, text) = both(r#"{"spec": {"replicas": "three"}}"#);
        let from_tree = Content::Tree(&value).decode::<Doc>().err();
        let from_json = Content::Json(text).decode::<Doc>().err();
        assert_eq!(from_json, from_tree);
        assert_eq!(
            from_json.map(|error| error.path),
            Some("spec.replicas".into())
        );
    }

    /// A mapping decoded from its fields, each from its own text and the ones the type lacks
    /// left unread, decodes as its whole text and its tree do: values, unknown fields refused
    /// where the type refuses them, others collected by a flattened map, errors with paths.
    #[test]
    fn fields_decode_as_the_whole_text_and_the_tree() {
        use std::collections::BTreeMap;
        #[derive(Debug, PartialEq, serde::Deserialize)]
        struct Doc {
            spec: Option<Spec>,
            #[serde(default)]
            list: Vec<Option<String>>,
        }
        #[derive(Debug, PartialEq, serde::Deserialize)]
        struct Spec {
            replicas: i64,
        }
        #[derive(Debug, PartialEq, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Strict {
            #[allow(dead_code)]
            spec: Spec,
        }
        #[derive(Debug, PartialEq, serde::Deserialize)]
        struct Rest {
            spec: Spec,
            #[serde(flatten)]
            rest: BTreeMap<String, serde_json::Value>,
        }
        fn agree<T: DeserializeOwned + PartialEq + fmt::Debug>(
            text: &str,
        ) -> Result<T, FieldError> {
            let (value, text) = both(text);
            let fields = Fields::read(text);
            let from_fields = fields
                .as_ref()
                .map(|fields| Content::Fields(fields).decode::<T>());
            let from_json = Content::Json(text).decode::<T>();
            assert_eq!(from_fields.as_ref(), Some(&from_json), "{text}");
            assert_eq!(Content::Tree(&value).decode::<T>(), from_json, "{text}");
            from_json
        }
        let text = r#"{"kind": "K", "metadata": {"name": "a", "labels": {"x": "y"}}, "spec": {"replicas": 2}, "list": ["a", null], "status": [[{}], 1.5e3]}"#;
        let doc = agree::<Doc>(text);
        assert_eq!(
            doc.map(|doc| (doc.spec, doc.list)),
            Ok((Some(Spec { replicas: 2 }), vec![Some("a".into()), None]))
        );
        let refused = agree::<Strict>(r#"{"spec": {"replicas": 1}, "extra": {"a": [1]}}"#);
        assert!(refused.is_err_and(|error| error.message.contains("unknown field `extra`")));
        let rest = agree::<Rest>(r#"{"spec": {"replicas": 1}, "extra": {"a": [1]}}"#);
        assert_eq!(
            rest.map(|rest| rest.rest.into_keys().collect::<Vec<_>>()),
            Ok(vec!["extra".to_string()])
        );
        let wrong = agree::<Doc>(r#"{"metadata": {}, "spec": {"replicas": "two"}}"#);
        assert_eq!(
            wrong.map_err(|error| error.path),
            Err("spec.replicas".into())
        );
    }

    fn check_json(text: &str) -> bool {
        json_documents(text).is_some()
    }

    #[test]
    fn a_stream_splits_into_its_documents() {
        assert_eq!(
            starts_and_texts("{\"a\": 1}\n {\"b\": [2]}  null\n"),
            Some(vec![(0, "{\"a\": 1}"), (10, "{\"b\": [2]}"), (22, "null")])
        );
        assert_eq!(starts_and_texts(" \n"), Some(vec![]));
    }

    #[test]
    fn duplicate_keys_fail_the_check_at_any_depth() {
        assert!(check_json(r#"{"a": 1, "b": {"c": 1}}"#));
        assert!(!check_json(r#"{"a": 1, "a": 2}"#));
        assert!(!check_json(r#"{"a": [{"c": 1, "c": 1}]}"#));
        assert!(!check_json(r#"{"a\u0062": 1, "ab": 2}"#));
        assert!(!check_json(r#"{"a": 1} {"b": 1, "b": 2}"#));
    }

    #[test]
    fn duplicates_in_a_large_mapping_are_found() {
        let keys: Vec<String> = (0..100).map(|n| format!("\"k{n}\": {n}")).collect();
        let unique = format!("{{{}}}", keys.join(","));
        assert!(check_json(&unique));
        let twice = format!("{{{}, \"k7\": 0}}", keys.join(","));
        assert!(!check_json(&twice));
    }

    #[test]
    fn invalid_json_fails_the_check() {
        assert!(!check_json(r#"{"a": }"#));
        assert!(!check_json(r#"{"a": 1} x"#));
    }
}
