//! A hash of an object's content, the same for the same value however it was written: YAML
//! or JSON, any key order, any formatting. Two objects with one identity and one fingerprint
//! are the same object read twice (a generator's input and its output, a file named twice),
//! which is a warning; two with one identity and different content stay an error.
//!
//! The value is hashed as it is deserialized (from a tree or straight from JSON text), so no
//! second tree is built for the 100k objects of a large fleet.

use std::fmt;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::LazyLock;

use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};

use super::content::Content;

/// An object's fingerprint as it is read: its text when it has one, hashed only if another
/// object claims its identity. Hashing every object as it was read took 5–9k instructions an
/// object (as much as decoding a policy binding) for a comparison that a run without a
/// repeated identity never makes.
#[derive(Clone, Copy, Debug)]
pub(super) enum Print<'t> {
    /// Not an object of its own: no repetition matches it.
    None,
    /// A tree's fingerprint, hashed as it was read (its tree is dropped with its document).
    Hashed(u64),
    /// The text of a JSON value, hashed when asked.
    Text(&'t str),
}

impl<'t> Print<'t> {
    /// What `content`'s fingerprint will be taken from.
    pub(super) fn of(content: Content<'t>) -> Print<'t> {
        match content {
            Content::Tree(_) => of(content).map_or(Print::None, Print::Hashed),
            Content::Json(text) => Print::Text(text),
            Content::Fields(fields) => Print::Text(fields.text()),
        }
    }

    /// The fingerprint itself.
    pub(super) fn hash(self) -> Option<u64> {
        match self {
            Print::None => None,
            Print::Hashed(hash) => Some(hash),
            Print::Text(text) => of(Content::Json(text)),
        }
    }
}

/// The fingerprint of `content`; `None` when it cannot be read (its reader reports why).
fn of(content: Content<'_>) -> Option<u64> {
    match content {
        Content::Tree(value) => Fingerprint.deserialize(value).ok(),
        Content::Json(text) => Fingerprint
            .deserialize(&mut serde_json::Deserializer::from_str(text))
            .ok(),
        Content::Fields(fields) => of(Content::Json(fields.text())),
    }
}

/// One seed per run, drawn at random: fingerprints are only compared within a run, and an
/// input cannot be crafted to collide with a seed it cannot know (with a fixed seed, two
/// differing objects could be made to read as "the same object twice", and the second would
/// be dropped with a warning). Output does not depend on the seed: only whether two contents
/// are equal does.
static SEED: LazyLock<foldhash::quality::RandomState> = LazyLock::new(Default::default);

fn hasher() -> impl Hasher {
    SEED.build_hasher()
}

/// What a value is, hashed before its content so `"1"`, `1` and `[1]` differ.
#[derive(Hash)]
enum Tag {
    Null,
    Bool,
    Integer,
    Float,
    String,
    Bytes,
    List,
    Mapping,
    Tagged,
}

fn leaf(tag: Tag, value: impl Hash) -> u64 {
    let mut hasher = hasher();
    tag.hash(&mut hasher);
    value.hash(&mut hasher);
    hasher.finish()
}

struct Fingerprint;

impl<'de> DeserializeSeed<'de> for Fingerprint {
    type Value = u64;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<u64, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Fingerprint {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_unit<E>(self) -> Result<u64, E> {
        Ok(leaf(Tag::Null, ()))
    }

    fn visit_none<E>(self) -> Result<u64, E> {
        Ok(leaf(Tag::Null, ()))
    }

    fn visit_some<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<u64, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_bool<E>(self, value: bool) -> Result<u64, E> {
        Ok(leaf(Tag::Bool, value))
    }

    // Integers are one type whatever width the parser chose.
    fn visit_i64<E>(self, value: i64) -> Result<u64, E> {
        Ok(leaf(Tag::Integer, i128::from(value)))
    }

    fn visit_u64<E>(self, value: u64) -> Result<u64, E> {
        Ok(leaf(Tag::Integer, i128::from(value)))
    }

    fn visit_f64<E>(self, value: f64) -> Result<u64, E> {
        Ok(leaf(Tag::Float, value.to_bits()))
    }

    fn visit_str<E>(self, value: &str) -> Result<u64, E> {
        Ok(leaf(Tag::String, value))
    }

    fn visit_bytes<E>(self, value: &[u8]) -> Result<u64, E> {
        Ok(leaf(Tag::Bytes, value))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<u64, A::Error> {
        let mut hasher = hasher();
        Tag::List.hash(&mut hasher);
        while let Some(element) = seq.next_element_seed(Fingerprint)? {
            element.hash(&mut hasher);
        }
        Ok(hasher.finish())
    }

    /// Each entry hashed alone and the entries' hashes summed: key order does not count.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<u64, A::Error> {
        let (mut sum, mut entries) = (0u64, 0u64);
        while let Some(key) = map.next_key_seed(Fingerprint)? {
            let value = map.next_value_seed(Fingerprint)?;
            sum = sum.wrapping_add(leaf(Tag::Mapping, (key, value)));
            entries += 1;
        }
        Ok(leaf(Tag::Mapping, (sum, entries)))
    }

    /// A YAML tag (`!foo value`): the tag and its value.
    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<u64, A::Error> {
        let (tag, variant) = data.variant::<String>()?;
        let value = variant.newtype_variant_seed(Fingerprint)?;
        Ok(leaf(Tag::Tagged, (tag, value)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(text: &str) -> Option<u64> {
        let value: serde_yaml::Value = serde_yaml::from_str(text).ok()?;
        of(Content::Tree(&value))
    }

    #[test]
    fn the_same_value_has_one_fingerprint_however_written() {
        let yaml =
            tree("kind: A\nmetadata: {name: a, labels: {x: '1', y: true}}\nlist: [1, 2.5]\n");
        let reordered =
            tree("list: [1, 2.5]\nmetadata:\n  labels: {y: true, x: '1'}\n  name: a\nkind: A\n");
        let json = of(Content::Json(
            r#"{"kind": "A", "metadata": {"name": "a", "labels": {"x": "1", "y": true}}, "list": [1, 2.5]}"#,
        ));
        assert!(yaml.is_some());
        assert_eq!(yaml, reordered);
        assert_eq!(yaml, json);
    }

    #[test]
    fn any_difference_changes_the_fingerprint() {
        let base = tree("a: {b: '1', c: [1, 2]}\n");
        for other in [
            "a: {b: 1, c: [1, 2]}\n",
            "a: {b: '1', c: [2, 1]}\n",
            "a: {b: '1', c: [1, 2], d: null}\n",
            "a: {b: '1'}\n",
            "a: {c: '1', b: [1, 2]}\n",
            "a: !t {b: '1', c: [1, 2]}\n",
        ] {
            assert_ne!(base, tree(other), "{other}");
        }
    }
}
