//! Plain scalars that YAML 1.1 reads as another type than YAML 1.2 does.
//!
//! kubectl decodes manifests with sigs.k8s.io/yaml, which runs go-yaml v2: YAML 1.1
//! resolution, where an unquoted `yes`, `on`, `y` or `off` is a boolean, `017` the octal
//! integer 15 and `1_000` the integer 1000. fleetplan parses with serde_yaml (YAML 1.2), which
//! reads all of those as strings. [`reading`] is go-yaml v2's resolution (`resolve.go` at
//! 7649d4548cb5, the v2 branch's last commit) of a plain scalar that YAML 1.2 reads as a
//! string; `load` refuses or warns where the two differ, and [`to_string`] quotes every such
//! string in the YAML fleetplan writes, so a YAML 1.1 reader gets the string back.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Serialize;
use serde_yaml::Value;

use crate::render::escape;

/// What go-yaml v2 reads a plain scalar as, when that is not a string.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Reading {
    Bool(bool),
    Int(i64),
    /// An integer above `i64::MAX` (go-yaml's `ParseUint` fallback).
    Uint(u64),
    Float(f64),
}

impl fmt::Display for Reading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reading::Bool(value) => write!(f, "the boolean {value}"),
            Reading::Int(value) => write!(f, "the integer {value}"),
            Reading::Uint(value) => write!(f, "the integer {value}"),
            Reading::Float(value) => write!(f, "the number {value}"),
        }
    }
}

impl Reading {
    /// The value kubectl sends for it (after sigs.k8s.io/yaml's conversion to JSON).
    pub(crate) fn value(self) -> serde_yaml::Value {
        match self {
            Reading::Bool(value) => serde_yaml::Value::Bool(value),
            Reading::Int(value) => serde_yaml::Value::Number(value.into()),
            Reading::Uint(value) => serde_yaml::Value::Number(value.into()),
            Reading::Float(value) => serde_yaml::Value::Number(value.into()),
        }
    }
}

/// go-yaml v2's reading of the plain scalar `text`, when it is not a string. Only scalars that
/// YAML 1.2 reads as strings are asked about, so YAML 1.2's own null, boolean and number
/// forms (which go-yaml v2 reads alike) never get here; timestamps stay strings because
/// go-yaml v2 hands them to an `interface{}` (kubectl's target) as strings.
pub(crate) fn reading(text: &str) -> Option<Reading> {
    // resolve.go's hint table: only these first bytes are ever resolved.
    match text.as_bytes().first()? {
        b'y' | b'Y' | b'n' | b'N' | b'o' | b'O' => word(text),
        b'.' => dot_float(text),
        b'0'..=b'9' | b'+' | b'-' => number(text),
        _ => None,
    }
}

/// go-yaml v2's reading of `scalar`, a string serde_yaml lent out of `text`, when it was
/// written plain and is not a string to go-yaml v2. Every string of an input is asked, so the
/// cheap question comes first: [`reading`] looks at the first byte and most strings stop there;
/// only a candidate is looked up in the text.
#[inline]
pub(crate) fn plain_reading(text: &str, scalar: &str) -> Option<Reading> {
    let reading = reading(scalar)?;
    written_plain(text, scalar).then_some(reading)
}

/// resolve.go's map of YAML 1.1 booleans (its `true`/`false` forms are YAML 1.2's too).
fn word(text: &str) -> Option<Reading> {
    if text.len() > 3 {
        return None;
    }
    match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Some(Reading::Bool(true)),
        "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => Some(Reading::Bool(false)),
        _ => None,
    }
}

/// A scalar starting with `.`: resolve.go's `.inf`/`.nan` map entries (YAML 1.2's too), then
/// Go's `ParseFloat`, which takes `.5` and `.5e3` but no underscore without a base prefix.
fn dot_float(text: &str) -> Option<Reading> {
    let digits = text.get(1..)?;
    let (mantissa, exponent) = match digits.find(['e', 'E']) {
        Some(at) => (digits.get(..at)?, Some(digits.get(at + 1..)?)),
        None => (digits, None),
    };
    let valid = all_digits(mantissa)
        && exponent.is_none_or(|exponent| {
            all_digits(exponent.strip_prefix(['+', '-']).unwrap_or(exponent))
        });
    valid.then(|| finite(text)).flatten()
}

fn all_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit())
}

/// Go's `ParseFloat` fails with a range error on an overflow, and go-yaml then keeps the
/// string; Rust's parse gives an infinity instead.
fn finite(text: &str) -> Option<Reading> {
    text.parse::<f64>()
        .ok()
        .filter(|value| value.is_finite())
        .map(Reading::Float)
}

/// resolve.go's digit-or-sign branch: underscores dropped, then Go's `ParseInt(_, 0, 64)`
/// (`0x`, `0o`, `0b` in either case, and a leading `0` for octal), `ParseUint`, the YAML
/// float pattern, and the `0b` fallback (which, through `ParseInt(_, 2, 64)`, takes a sign
/// after the prefix: `0b-1` is -1).
fn number(text: &str) -> Option<Reading> {
    let plain: Cow<'_, str> = if text.contains('_') {
        Cow::Owned(text.replace('_', ""))
    } else {
        Cow::Borrowed(text)
    };
    if let Some(reading) = go_int(&plain) {
        return Some(reading);
    }
    if yaml_float(&plain) {
        if let Some(reading) = finite(&plain) {
            return Some(reading);
        }
    }
    let binary = plain.strip_prefix("0b")?;
    let (negative, digits) = match binary.as_bytes().first()? {
        b'-' => (true, binary.get(1..)?),
        b'+' => (false, binary.get(1..)?),
        _ => (false, binary),
    };
    signed(negative, digits, 2)
}

/// Go's `ParseInt(text, 0, 64)`, then `ParseUint(text, 0, 64)` for what is above int64.
fn go_int(text: &str) -> Option<Reading> {
    let (negative, unsigned) = match text.as_bytes().first()? {
        b'-' => (true, text.get(1..)?),
        b'+' => (false, text.get(1..)?),
        _ => (false, text),
    };
    // Matched on bytes so that no number-like string allocates.
    let (radix, digits) = match unsigned.as_bytes() {
        [b'0', b'x' | b'X', ..] => (16, unsigned.get(2..)?),
        [b'0', b'o' | b'O', ..] => (8, unsigned.get(2..)?),
        [b'0', b'b' | b'B', ..] => (2, unsigned.get(2..)?),
        _ if unsigned.len() > 1 && unsigned.starts_with('0') => (8, unsigned.get(1..)?),
        _ => (10, unsigned),
    };
    let has_sign = text.starts_with(['+', '-']);
    match signed(negative, digits, radix) {
        Some(reading) => Some(reading),
        // ParseUint takes no sign.
        None if !has_sign => u64::from_str_radix(digits, radix)
            .ok()
            .filter(|_| valid_digits(digits, radix))
            .map(Reading::Uint),
        None => None,
    }
}

/// `digits` in `radix` as an int64, negated when `negative`; digits only (no sign of their own).
fn signed(negative: bool, digits: &str, radix: u32) -> Option<Reading> {
    if !valid_digits(digits, radix) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    let value = if negative {
        0i64.checked_sub_unsigned(magnitude)?
    } else {
        i64::try_from(magnitude).ok()?
    };
    Some(Reading::Int(value))
}

fn valid_digits(digits: &str, radix: u32) -> bool {
    !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix))
}

/// resolve.go's `yamlStyleFloat`: `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
fn yaml_float(text: &str) -> bool {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (
            unsigned.get(..at).unwrap_or_default(),
            unsigned.get(at + 1..),
        ),
        None => (unsigned, None),
    };
    let mantissa_valid = match mantissa.split_once('.') {
        Some(("", fraction)) => all_digits(fraction),
        Some((whole, fraction)) => {
            all_digits(whole) && fraction.bytes().all(|byte| byte.is_ascii_digit())
        }
        None => all_digits(mantissa),
    };
    mantissa_valid
        && exponent.is_none_or(|exponent| {
            all_digits(exponent.strip_prefix(['+', '-']).unwrap_or(exponent))
        })
}

/// Where `part`, a slice of `text` (a string a parser lent out of it), starts in it; `None`
/// for a string that is not one.
pub(crate) fn offset_in(text: &str, part: &str) -> Option<usize> {
    let offset = (part.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    (offset <= text.len()).then_some(offset)
}

/// Whether `scalar`, a string serde_yaml lent out of `text`, was written plain: not quoted and
/// without a tag (a `!!str` scalar is a string to every reader). serde_yaml lends a plain
/// scalar's whole text and a quoted one's text between its quotes, so the byte before tells
/// them apart (a plain scalar never follows a quote).
pub(crate) fn written_plain(text: &str, scalar: &str) -> bool {
    let Some(offset) =
        offset_in(text, scalar).filter(|offset| offset.saturating_add(scalar.len()) <= text.len())
    else {
        return false;
    };
    let before = text.get(..offset).unwrap_or_default();
    !before.ends_with(['\'', '"']) && !tagged(before)
}

/// Whether the node properties just before a scalar, on its line, include a tag.
fn tagged(before: &str) -> bool {
    let line = before.rsplit('\n').next().unwrap_or(before);
    let mut rest = line.trim_end_matches([' ', '\t']);
    loop {
        let token_start = rest
            .rfind([' ', '\t', '[', '{', ','])
            .map_or(0, |at| at + 1);
        let token = rest.get(token_start..).unwrap_or_default();
        if token.starts_with('!') {
            return true;
        }
        if !token.starts_with('&') {
            return false;
        }
        rest = rest
            .get(..token_start)
            .unwrap_or_default()
            .trim_end_matches([' ', '\t']);
    }
}

/// `value` as YAML, with every string that go-yaml v2 would read as another type quoted.
/// serde_yaml quotes what YAML 1.2 would misread (and `017`), but writes `yes`, `on`, `y`,
/// `1_000` or `0B1` plain; those are found by reading the text back and quoted in place.
///
/// Text from inputs is escaped as a terminal would see it escaped (`render::escape`): libyaml
/// prints U+202E and the other invisible characters as they are, so a string holding one is
/// written again double-quoted, with `\u` escapes.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_yaml::Error> {
    let mut text = serde_yaml::to_string(value)?;
    if escape::yaml_needs_escapes(&text) {
        let mut tree = serde_yaml::to_value(value)?;
        mark_strings(&mut tree);
        text = escape::yaml_unmark(&serde_yaml::to_string(&tree)?);
    }
    if !may_hold_misread(&text) {
        return Ok(text);
    }
    let found = RefCell::new(Vec::new());
    for document in serde_yaml::Deserializer::from_str(&text) {
        PlainStrings {
            text: &text,
            found: &found,
        }
        .deserialize(document)?;
    }
    let mut spans = found.into_inner();
    spans.sort_unstable();
    spans.dedup();
    let mut quoted = String::with_capacity(text.len() + 2 * spans.len());
    let mut copied = 0;
    for (start, end) in spans {
        quoted.push_str(text.get(copied..start).unwrap_or_default());
        quoted.push('\'');
        quoted.push_str(text.get(start..end).unwrap_or_default());
        quoted.push('\'');
        copied = end;
    }
    quoted.push_str(text.get(copied..).unwrap_or_default());
    Ok(quoted)
}

/// Every string of `value`, keys included, marked for escaping (`escape::yaml_marked`).
fn mark_strings(value: &mut Value) {
    match value {
        Value::String(text) => {
            if let Some(marked) = escape::yaml_marked(text) {
                *text = marked;
            }
        }
        Value::Sequence(items) => items.iter_mut().for_each(mark_strings),
        Value::Mapping(mapping) => {
            *mapping = std::mem::take(mapping)
                .into_iter()
                .map(|(mut key, mut item)| {
                    mark_strings(&mut key);
                    mark_strings(&mut item);
                    (key, item)
                })
                .collect();
        }
        Value::Tagged(tagged) => mark_strings(&mut tagged.value),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// A cheap look over emitted text: whether any word could be a plain string that go-yaml v2
/// misreads. Plain decimal numbers (the common case: replicas, scores, weights) are not.
fn may_hold_misread(text: &str) -> bool {
    text.split([' ', '\n', ',', '[', ']', '{', '}'])
        .map(|word| word.strip_suffix(':').unwrap_or(word))
        .any(|word| word == MERGE_KEY || (reading(word).is_some() && !plain_decimal(word)))
}

/// go-yaml (Kubernetes' YAML reader) reads a plain `<<` key as a merge key, and a quoted one
/// as the string: fleetplan quotes a string `<<` it writes, and merges only a plain one.
pub(crate) const MERGE_KEY: &str = "<<";

/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?`: read alike by YAML 1.1 and 1.2.
fn plain_decimal(word: &str) -> bool {
    let unsigned = word.strip_prefix('-').unwrap_or(word);
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, "0"));
    all_digits(whole) && (whole == "0" || !whole.starts_with('0')) && all_digits(fraction)
}

/// Collects the spans of plain strings that go-yaml v2 reads as another type.
#[derive(Clone, Copy)]
struct PlainStrings<'a> {
    text: &'a str,
    found: &'a RefCell<Vec<(usize, usize)>>,
}

impl<'de> DeserializeSeed<'de> for PlainStrings<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for PlainStrings<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_borrowed_str<E: de::Error>(self, value: &'de str) -> Result<(), E> {
        let start = offset_in(self.text, value);
        let misread = plain_reading(self.text, value).is_some()
            || (value == MERGE_KEY && written_plain(self.text, value));
        if let (true, Some(start)) = (misread, start) {
            self.found.borrow_mut().push((start, start + value.len()));
        }
        Ok(())
    }

    fn visit_str<E: de::Error>(self, _value: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_bool<E: de::Error>(self, _value: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, _value: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, _value: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_i128<E: de::Error>(self, _value: i128) -> Result<(), E> {
        Ok(())
    }

    fn visit_u128<E: de::Error>(self, _value: u128) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, _value: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_key_seed(self)?.is_some() {
            map.next_value_seed(self)?;
        }
        Ok(())
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        let (IgnoredAny, variant) = data.variant::<IgnoredAny>()?;
        de::VariantAccess::newtype_variant_seed(variant, self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_1_1_booleans_in_every_case_form() {
        for word in ["y", "Y", "yes", "Yes", "YES", "on", "On", "ON"] {
            assert_eq!(reading(word), Some(Reading::Bool(true)), "{word}");
        }
        for word in ["n", "N", "no", "No", "NO", "off", "Off", "OFF"] {
            assert_eq!(reading(word), Some(Reading::Bool(false)), "{word}");
        }
        for word in ["yEs", "oN", "nO", "yes!", "only", "none", "Nope", "o"] {
            assert_eq!(reading(word), None, "{word}");
        }
    }

    #[test]
    fn integers_as_go_parse_int_with_base_zero() {
        let int = |text: &str| reading(text);
        assert_eq!(int("017"), Some(Reading::Int(15)));
        assert_eq!(int("-017"), Some(Reading::Int(-15)));
        assert_eq!(int("+017"), Some(Reading::Int(15)));
        assert_eq!(int("00"), Some(Reading::Int(0)));
        assert_eq!(int("1_000"), Some(Reading::Int(1000)));
        assert_eq!(int("0_17"), Some(Reading::Int(15)));
        assert_eq!(int("0B101"), Some(Reading::Int(5)));
        assert_eq!(int("0X1f"), Some(Reading::Int(31)));
        assert_eq!(int("0O17"), Some(Reading::Int(15)));
        assert_eq!(int("0x_1F"), Some(Reading::Int(31)));
        assert_eq!(int("0b-1"), Some(Reading::Int(-1)));
        assert_eq!(int("18446744073709551615"), Some(Reading::Uint(u64::MAX)));
        assert_eq!(int("-9223372036854775808"), Some(Reading::Int(i64::MIN)));
    }

    #[test]
    fn floats_as_the_yaml_float_pattern() {
        assert_eq!(reading("09"), Some(Reading::Float(9.0)));
        assert_eq!(reading("1_000.5"), Some(Reading::Float(1000.5)));
        assert_eq!(reading(".5e1"), Some(Reading::Float(5.0)));
        assert_eq!(reading("1e999"), None);
        assert_eq!(reading("99999999999999999999"), Some(Reading::Float(1e20)));
    }

    #[test]
    fn strings_stay_strings() {
        for text in [
            "",
            "x",
            "2026-01-01",
            "1:20",
            "0x",
            "0b",
            "0o",
            "08x",
            "1.2.3",
            "--1",
            "+-1",
            "._5",
            "0x1p3",
            ".",
            "-",
            "+",
            "1e",
            "v1",
            "64Gi",
            "_1",
            "0b-",
            "nan",
            "inf",
            "-inf",
        ] {
            assert_eq!(reading(text), None, "{text}");
        }
    }

    #[test]
    fn plain_scalars_are_told_from_quoted_and_tagged_ones() {
        let text = "a: yes\nb: 'yes'\nc: \"yes\"\nd: !!str yes\ne: &x yes\nf: [yes]\n";
        let offset = |needle: &str| {
            let at = text.find(needle).unwrap_or_default() + needle.len() - 3;
            text.get(at..at + 3)
                .and_then(|scalar| plain_reading(text, scalar))
        };
        assert!(offset("a: yes").is_some());
        assert!(offset("b: 'yes").is_none());
        assert!(offset("c: \"yes").is_none());
        assert!(offset("d: !!str yes").is_none());
        assert!(offset("e: &x yes").is_some());
        assert!(offset("f: [yes").is_some());
        assert_eq!(plain_reading(text, "yes"), None);
        assert!(plain_reading("yes: 1", "yes: 1".get(..3).unwrap_or_default()).is_some());
    }

    #[test]
    fn written_yaml_quotes_what_yaml_1_1_misreads() {
        let value: serde_yaml::Value = serde_yaml::from_str(
            "{a: 'on', b: 'y', 'no': 'x', c: '1_000', d: '0B1', e: 3, f: '017', g: true, h: web, '<<': '<<'}",
        )
        .unwrap_or_default();
        let text = to_string(&value).unwrap_or_default();
        assert_eq!(
            text,
            "a: 'on'\nb: 'y'\n'no': x\nc: '1_000'\nd: '0B1'\ne: 3\nf: '017'\ng: true\nh: web\n'<<': '<<'\n"
        );
    }

    /// The plain scalars of `text` that go-yaml v2 reads as another type than a string.
    fn misread_in(text: &str) -> Vec<String> {
        let found = RefCell::new(Vec::new());
        for document in serde_yaml::Deserializer::from_str(text) {
            let seed = PlainStrings {
                text,
                found: &found,
            };
            seed.deserialize(document).unwrap_or_default();
        }
        let spans = found.into_inner();
        spans
            .into_iter()
            .filter_map(|(start, end)| text.get(start..end).map(str::to_string))
            .collect()
    }

    proptest::proptest! {
        /// Any string written by fleetplan reads back as the same string in YAML 1.2, and no
        /// plain scalar of the text is something else to a YAML 1.1 reader.
        #[test]
        fn written_strings_read_back_as_the_same_strings_in_yaml_1_1(
            value in proptest::prop_oneof![
                "[-+]?[0-9_]{1,8}",
                "[-+]?0[xXoObB][-+0-9a-fA-F_]{0,6}",
                "[-+]?[0-9_]{0,4}\\.[0-9_]{0,4}([eE][-+]?[0-9]{1,3})?",
                "(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|true|null|~)",
                "\\PC{0,12}",
                // Invisible characters, backslashes and the text of an escape mark.
                "[a\\\\\u{202E}\u{85}\u{200B}\u{FFFF}\u{1B}\n\tuF: ]{0,12}",
                "(\\\\uFFFF|\\\\|\u{202E}|\u{FFFF}|0041|x| ){0,6}",
            ],
        ) {
            let map = std::collections::BTreeMap::from([(value.clone(), vec![value.clone()])]);
            let text = to_string(&map).unwrap_or_default();
            let back: std::collections::BTreeMap<String, Vec<String>> =
                serde_yaml::from_str(&text).unwrap_or_default();
            proptest::prop_assert_eq!(&back, &map, "{}", text);
            proptest::prop_assert_eq!(misread_in(&text), Vec::<String>::new(), "{}", text);
            proptest::prop_assert!(
                !text.contains(['\u{202E}', '\u{85}', '\u{200B}', '\u{1B}']),
                "{}",
                text
            );
        }
    }
}
