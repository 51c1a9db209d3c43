//! Labels interned as they are decoded.
//!
//! A 100k-cluster inventory carries ~900k label and claim strings but a few hundred distinct
//! ones. Decoded as owned strings in a map of their own and interned after, each entry made
//! and freed two strings a label and a map it did not keep: a third of decoding the
//! inventory. serde hands a type no state of its own, so the interner a thread decodes with
//! is lent to it for the decode ([`interning`]) and [`labels`] interns each key and value
//! from the text it reads.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, Visitor};

use super::decode::null_as_default;
use crate::model::{Interned, Interner, Labels};

thread_local! {
    /// The interner lent to this thread's decode, if any.
    static LENT: RefCell<Option<Interner>> = const { RefCell::new(None) };
}

/// `decode` with `interner` lent to the labels it decodes ([`labels`]), and given back after.
pub(super) fn interning<R>(interner: &mut Interner, decode: impl FnOnce() -> R) -> R {
    LENT.with(|lent| *lent.borrow_mut() = Some(std::mem::take(interner)));
    let result = decode();
    *interner = LENT
        .with(|lent| lent.borrow_mut().take())
        .unwrap_or_default();
    result
}

/// A label mapping (`null` as none), each key and value interned in the interner lent to
/// this thread, or each its own string when none is. Refuses what a map of strings refuses,
/// in its words ("expected a map", "expected a string").
pub(super) fn labels<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Labels, D::Error> {
    null_as_default::<D, InternedLabels>(deserializer).map(|labels| labels.0)
}

/// One label mapping, read by [`LabelMap`].
#[derive(Default)]
struct InternedLabels(Labels);

impl<'de> Deserialize<'de> for InternedLabels {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(LabelMap).map(InternedLabels)
    }
}

struct LabelMap;

impl<'de> Visitor<'de> for LabelMap {
    type Value = Labels;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Labels, A::Error> {
        // Collected, then sorted once: inserted one by one in sorted place, a hostile entry
        // of 100k labels in reverse order was quadratic.
        let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
        while let Some(key) = map.next_key_seed(Text)? {
            let value = map.next_value_seed(Text)?;
            pairs.push((key, value));
        }
        Ok(pairs.into_iter().collect())
    }
}

/// One string, interned.
struct Text;

impl<'de> DeserializeSeed<'de> for Text {
    type Value = Interned;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Interned, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Text {
    type Value = Interned;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Interned, E> {
        Ok(LENT.with(|lent| match lent.borrow_mut().as_mut() {
            Some(interner) => interner.intern(text),
            None => Interned::from(text),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Doc {
        #[serde(default, deserialize_with = "labels")]
        labels: Labels,
    }

    fn decode(text: &str) -> Result<Labels, String> {
        serde_json::from_str::<Doc>(text)
            .map(|doc| doc.labels)
            .map_err(|error| error.to_string())
    }

    #[test]
    fn labels_are_interned_in_the_lent_interner() {
        let mut interner = Interner::default();
        let shared = interner.intern("eu");
        let labels = interning(&mut interner, || {
            decode(r#"{"labels": {"region": "eu", "zone": "eu"}}"#)
        })
        .expect("labels");
        assert!(labels
            .iter()
            .all(|(_, value)| value.address() == shared.address()));
        let zone = interner.intern("zone");
        assert!(labels.keys().any(|key| key.address() == zone.address()));
        // Given back: nothing is lent once the decode is done.
        assert!(LENT.with(|lent| lent.borrow().is_none()));
    }

    #[test]
    fn many_labels_in_reverse_order_decode_in_one_sort() {
        let pairs: Vec<String> = (0..100_000)
            .rev()
            .map(|n| format!(r#""k{n:06}": "v""#))
            .collect();
        let text = format!(r#"{{"labels": {{{}}}}}"#, pairs.join(","));
        let labels = decode(&text).expect("labels");
        assert_eq!(labels.len(), 100_000);
        assert_eq!(labels.keys().next().map(Interned::as_str), Some("k000000"));
    }

    #[test]
    fn labels_decode_as_a_map_of_strings_does() {
        for text in [
            r#"{"labels": {"a": "1", "b": "2"}}"#,
            r#"{"labels": {"a": "\u0031"}}"#,
            r#"{"labels": null}"#,
            r#"{}"#,
            r#"{"labels": {"a": 1}}"#,
            r#"{"labels": ["a"]}"#,
            r#"{"labels": "a"}"#,
            r#"{"labels": {"a": null}}"#,
        ] {
            #[derive(serde::Deserialize)]
            struct Owned {
                #[serde(default, deserialize_with = "crate::load::decode::null_as_default")]
                labels: std::collections::BTreeMap<String, String>,
            }
            let owned = serde_json::from_str::<Owned>(text)
                .map(|doc| {
                    doc.labels
                        .iter()
                        .map(|(key, value)| (key.clone(), value.clone()))
                        .collect::<Vec<_>>()
                })
                .map_err(|error| error.to_string());
            let interned = decode(text).map(|labels| {
                labels
                    .iter()
                    .map(|(key, value)| (key.to_string(), value.to_string()))
                    .collect::<Vec<_>>()
            });
            assert_eq!(interned, owned, "{text}");
        }
    }
}
