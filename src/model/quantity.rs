//! Kubernetes resource quantities (`16`, `500m`, `64Gi`, `1e3`).
//!
//! Parsing follows apimachinery `resource.ParseQuantity` (the fast scanner
//! `parseQuantityString` and the suffix table), and `value` is what
//! `Quantity.AsApproximateFloat64` would return for the parsed amount.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// A quantity as written, with its approximate value (what OCM's resource prioritizers
/// compare: `resource.Quantity.AsApproximateFloat64`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Quantity {
    pub text: String,
    pub value: f64,
}

/// Why a quantity was rejected; the texts are apimachinery's, with the value echoed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QuantityError {
    #[error("{}, found {:?}", QuantityError::FORMAT, super::echo(.0))]
    Format(String),
    #[error("{} {:?}", QuantityError::NUMERIC, super::echo(.0))]
    Numeric(String),
    #[error("{} in {:?}", QuantityError::SUFFIX, super::echo(.0))]
    Suffix(String),
}

impl QuantityError {
    const FORMAT: &'static str = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    const NUMERIC: &'static str = "unable to parse numeric part of quantity";
    const SUFFIX: &'static str = "unable to parse quantity's suffix";

    /// apimachinery's error alone (`ErrFormatWrong`, `ErrNumeric`, `ErrSuffix`), for a
    /// message that quotes the value itself.
    pub(crate) fn upstream_text(&self) -> &'static str {
        match self {
            QuantityError::Format(_) => Self::FORMAT,
            QuantityError::Numeric(_) => Self::NUMERIC,
            QuantityError::Suffix(_) => Self::SUFFIX,
        }
    }
}

/// The pieces `parseQuantityString` splits a quantity into.
struct Parts<'a> {
    positive: bool,
    /// The signed number as written (`-1.5` of `-1.5Gi`), what upstream hands to `inf.Dec`.
    value: &'a str,
    suffix: &'a str,
}

#[derive(Clone, Copy, PartialEq)]
enum Format {
    DecimalSi,
    BinarySi,
    DecimalExponent,
}

impl Quantity {
    /// Parses a quantity the way `resource.ParseQuantity` does (after the `TrimSpace` that
    /// `Quantity.UnmarshalJSON` applies).
    pub fn parse(text: &str) -> Result<Quantity, QuantityError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(QuantityError::Format(text.to_string()));
        }
        let parts = split(trimmed).ok_or_else(|| QuantityError::Format(text.to_string()))?;
        let (base, exponent, format) = interpret_suffix(parts.suffix)
            .ok_or_else(|| QuantityError::Suffix(text.to_string()))?;
        let magnitude = parse_decimal(parts.value.trim_start_matches(['+', '-']))
            .ok_or_else(|| QuantityError::Numeric(text.to_string()))?;
        // Zero is zero at any exponent: `0e400` is 0 upstream, where 0 × an infinite power
        // would make it NaN (which the resource prioritizers take for "not reported").
        let mut amount = if magnitude == 0.0 {
            0.0
        } else {
            magnitude * f64::from(base).powi(exponent)
        };
        // Upstream rounds every non-zero amount up to a whole nano (1n is the smallest
        // representable amount) and caps binary amounts at the int64 maximum.
        if amount > 0.0 && amount < 1e-9 {
            amount = 1e-9;
        }
        if format == Format::BinarySi && amount > i64::MAX as f64 {
            amount = i64::MAX as f64;
        }
        let value = if parts.positive { amount } else { -amount };
        Ok(Quantity {
            text: trimmed.to_string(),
            value,
        })
    }
}

impl Quantity {
    /// The exact amount in nano-units (`1` is `1_000_000_000`), rounded up away from zero to a
    /// whole nano as `ParseQuantity` rounds, saturating far beyond any real capacity. Karmada's
    /// estimator subtracts and divides quantities exactly (`Quantity.Sub`, `Value`,
    /// `MilliValue`), which the approximate `value` cannot do.
    pub fn nanos(&self) -> i128 {
        let Some(parts) = split(&self.text) else {
            return 0;
        };
        let Some((base, exponent, _format)) = interpret_suffix(parts.suffix) else {
            return 0;
        };
        let digits = parts.value.trim_start_matches(['+', '-']);
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        let mut mantissa: i128 = 0;
        for digit in whole.bytes().chain(fraction.bytes()) {
            mantissa = mantissa
                .saturating_mul(10)
                .saturating_add(i128::from(digit - b'0'));
        }
        // amount = mantissa / 10^scale × base^exponent; in nanos, × 10^9.
        let mut numerator = mantissa;
        let mut denominator_exponent = i64::try_from(fraction.len()).unwrap_or(i64::MAX);
        let mut ten_exponent: i64 = 9;
        if base == 10 {
            ten_exponent += i64::from(exponent);
        } else {
            numerator = numerator.saturating_mul(2i128.saturating_pow(exponent.unsigned_abs()));
        }
        if ten_exponent >= denominator_exponent {
            ten_exponent -= denominator_exponent;
            denominator_exponent = 0;
        } else {
            denominator_exponent -= ten_exponent;
            ten_exponent = 0;
        }
        numerator = numerator.saturating_mul(pow10(ten_exponent));
        let denominator = pow10(denominator_exponent);
        let nanos = if denominator > 1 {
            // Round up: a non-zero remainder adds one nano (away from zero).
            numerator / denominator + i128::from(numerator % denominator != 0)
        } else {
            numerator
        };
        if parts.positive {
            nanos
        } else {
            -nanos
        }
    }
}

/// `Quantity.Value()`: whole units, rounded up away from zero.
pub(crate) fn nanos_to_value(nanos: i128) -> i128 {
    scaled_ceil(nanos, 1_000_000_000)
}

/// `Quantity.MilliValue()`: thousandths, rounded up away from zero.
pub(crate) fn nanos_to_milli_value(nanos: i128) -> i128 {
    scaled_ceil(nanos, 1_000_000)
}

fn scaled_ceil(nanos: i128, unit: i128) -> i128 {
    let whole = nanos / unit;
    if nanos % unit == 0 {
        whole
    } else if nanos > 0 {
        whole + 1
    } else {
        whole - 1
    }
}

fn pow10(exponent: i64) -> i128 {
    match u32::try_from(exponent) {
        Ok(exponent) if exponent <= 38 => 10i128.pow(exponent),
        _ => i128::MAX,
    }
}

/// `parseQuantityString`: sign, digits with at most one `.`, then the suffix letters and an
/// optional signed exponent. Returns `None` where upstream returns `ErrFormatWrong`.
fn split(text: &str) -> Option<Parts<'_>> {
    let bytes = text.as_bytes();
    let end = bytes.len();
    let mut pos = 0;
    let mut positive = true;
    match bytes.first() {
        Some(b'-') => {
            positive = false;
            pos += 1;
        }
        Some(b'+') => pos += 1,
        _ => {}
    }
    while pos < end && bytes.get(pos) == Some(&b'0') {
        pos += 1;
    }
    if pos >= end {
        // Upstream quirk: a bare sign or a run of zeros is the number zero.
        return Some(Parts {
            positive,
            value: "0",
            suffix: "",
        });
    }
    pos += count_digits(&bytes[pos..]);
    if bytes.get(pos) == Some(&b'.') {
        pos += 1;
        pos += count_digits(&bytes[pos..]);
    }
    let value = &text[..pos];
    let suffix_start = pos;
    while pos < end && bytes.get(pos).is_some_and(|b| b"eEinumkKMGTP".contains(b)) {
        pos += 1;
    }
    if matches!(bytes.get(pos), Some(b'-' | b'+')) {
        pos += 1;
    }
    pos += count_digits(&bytes[pos.min(end)..]);
    if pos < end {
        return None;
    }
    Some(Parts {
        positive,
        value,
        suffix: &text[suffix_start..],
    })
}

fn count_digits(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|b| b.is_ascii_digit()).count()
}

/// `suffixHandler.interpret`: the decimal and binary tables, then `e<int>` / `E<int>`.
fn interpret_suffix(suffix: &str) -> Option<(u32, i32, Format)> {
    let decimal = match suffix {
        "n" => Some(-9),
        "u" => Some(-6),
        "m" => Some(-3),
        "" => Some(0),
        "k" => Some(3),
        "M" => Some(6),
        "G" => Some(9),
        "T" => Some(12),
        "P" => Some(15),
        "E" => Some(18),
        _ => None,
    };
    if let Some(exponent) = decimal {
        return Some((10, exponent, Format::DecimalSi));
    }
    let binary = match suffix {
        "Ki" => Some(10),
        "Mi" => Some(20),
        "Gi" => Some(30),
        "Ti" => Some(40),
        "Pi" => Some(50),
        "Ei" => Some(60),
        _ => None,
    };
    if let Some(exponent) = binary {
        return Some((2, exponent, Format::BinarySi));
    }
    let digits = suffix
        .strip_prefix('e')
        .or_else(|| suffix.strip_prefix('E'))
        .filter(|rest| !rest.is_empty())?;
    // Upstream parses an int64 and truncates it to int32; an exponent that does not fit is
    // rejected here instead of silently wrapping.
    let exponent = digits.parse::<i32>().ok()?;
    Some((10, exponent, Format::DecimalExponent))
}

/// The unsigned decimal `digits[.digits]` (either side may be empty, but not both; `inf.Dec`
/// refuses a lone `.`).
fn parse_decimal(text: &str) -> Option<f64> {
    if text.is_empty() || text == "." {
        return None;
    }
    let normalised = if text.starts_with('.') {
        format!("0{text}")
    } else if text.ends_with('.') {
        format!("{text}0")
    } else {
        text.to_string()
    };
    normalised.parse::<f64>().ok()
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Quantity {
    /// Accepts a string or a number, as `Quantity.UnmarshalJSON` does.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(QuantityVisitor)
    }
}

struct QuantityVisitor;

impl Visitor<'_> for QuantityVisitor {
    type Value = Quantity;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a quantity such as \"16\", \"500m\" or \"64Gi\"")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Quantity, E> {
        Quantity::parse(text).map_err(E::custom)
    }

    fn visit_i64<E: de::Error>(self, number: i64) -> Result<Quantity, E> {
        self.visit_str(&number.to_string())
    }

    fn visit_u64<E: de::Error>(self, number: u64) -> Result<Quantity, E> {
        self.visit_str(&number.to_string())
    }

    fn visit_f64<E: de::Error>(self, number: f64) -> Result<Quantity, E> {
        self.visit_str(&number.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> f64 {
        match Quantity::parse(text) {
            Ok(quantity) => quantity.value,
            Err(error) => panic!("{text}: {error}"),
        }
    }

    #[test]
    fn zero_is_zero_at_any_exponent() {
        for text in ["0e400", "0E9999", "0.0e400", "-0e400"] {
            assert_eq!(value(text), 0.0, "{text}");
        }
        assert!(value("1e400").is_infinite());
    }

    #[test]
    fn plain_integers_parse() {
        assert_eq!(value("16"), 16.0);
        assert_eq!(value("0"), 0.0);
        assert_eq!(value("007"), 7.0);
    }

    #[test]
    fn decimal_fractions_parse() {
        assert_eq!(value("1.5"), 1.5);
        assert_eq!(value(".5"), 0.5);
        assert_eq!(value("1."), 1.0);
    }

    #[test]
    fn decimal_si_suffixes_scale_by_powers_of_ten() {
        assert_eq!(value("500m"), 0.5);
        assert_eq!(value("2k"), 2000.0);
        assert_eq!(value("3M"), 3e6);
        assert_eq!(value("1G"), 1e9);
        assert_eq!(value("1T"), 1e12);
        assert_eq!(value("1P"), 1e15);
        assert_eq!(value("1E"), 1e18);
        assert!((value("250u") - 250e-6).abs() < 1e-15);
        assert!((value("7n") - 7e-9).abs() < 1e-18);
    }

    #[test]
    fn binary_si_suffixes_scale_by_powers_of_two() {
        assert_eq!(value("1Ki"), 1024.0);
        assert_eq!(value("64Gi"), 64.0 * 1024.0 * 1024.0 * 1024.0);
        assert_eq!(value("1.5Mi"), 1.5 * 1024.0 * 1024.0);
        assert_eq!(value("1Ti"), 2f64.powi(40));
        assert_eq!(value("1Pi"), 2f64.powi(50));
        assert_eq!(value("1Ei"), 2f64.powi(60));
    }

    #[test]
    fn exponents_scale_by_powers_of_ten() {
        assert_eq!(value("1e3"), 1000.0);
        assert_eq!(value("1E3"), 1000.0);
        assert_eq!(value("5e-1"), 0.5);
        assert_eq!(value("2e+2"), 200.0);
    }

    #[test]
    fn signs_are_kept() {
        assert_eq!(value("-1"), -1.0);
        assert_eq!(value("+2Ki"), 2048.0);
    }

    #[test]
    fn bare_sign_is_zero_as_upstream() {
        assert_eq!(value("-"), 0.0);
        assert_eq!(value("+"), 0.0);
    }

    #[test]
    fn tiny_amounts_round_up_to_one_nano() {
        assert_eq!(value("0.1n"), 1e-9);
    }

    #[test]
    fn binary_amounts_are_capped_at_int64_max() {
        assert_eq!(value("100Ei"), i64::MAX as f64);
    }

    #[test]
    fn surrounding_whitespace_is_trimmed() {
        assert_eq!(value(" 4Gi "), 4.0 * 2f64.powi(30));
    }

    #[test]
    fn empty_text_is_a_format_error() {
        assert_eq!(
            Quantity::parse(""),
            Err(QuantityError::Format(String::new()))
        );
    }

    #[test]
    fn trailing_garbage_is_a_format_error() {
        assert_eq!(
            Quantity::parse("12Gix"),
            Err(QuantityError::Format("12Gix".to_string()))
        );
        assert_eq!(
            Quantity::parse("1Gb"),
            Err(QuantityError::Format("1Gb".to_string()))
        );
        assert_eq!(
            Quantity::parse("1 Gi"),
            Err(QuantityError::Format("1 Gi".to_string()))
        );
    }

    #[test]
    fn unknown_suffixes_are_suffix_errors() {
        assert_eq!(
            Quantity::parse("1Gm"),
            Err(QuantityError::Suffix("1Gm".to_string()))
        );
        assert_eq!(
            Quantity::parse("1e"),
            Err(QuantityError::Suffix("1e".to_string()))
        );
        assert_eq!(
            Quantity::parse("1K"),
            Err(QuantityError::Suffix("1K".to_string()))
        );
    }

    #[test]
    fn lone_dot_is_a_numeric_error() {
        assert_eq!(
            Quantity::parse("."),
            Err(QuantityError::Numeric(".".to_string()))
        );
    }

    #[test]
    fn second_dot_is_a_format_error() {
        assert_eq!(
            Quantity::parse("1.2.3"),
            Err(QuantityError::Format("1.2.3".to_string()))
        );
    }

    #[test]
    fn nanos_are_exact() {
        let nanos = |text: &str| Quantity::parse(text).map(|q| q.nanos()).unwrap_or(-1);
        assert_eq!(nanos("1"), 1_000_000_000);
        assert_eq!(nanos("500m"), 500_000_000);
        assert_eq!(nanos("1.5Gi"), 1_610_612_736 * 1_000_000_000);
        assert_eq!(nanos("0.1n"), 1);
        assert_eq!(nanos("1e3"), 1_000_000_000_000);
        assert_eq!(nanos("5e-1"), 500_000_000);
        assert_eq!(nanos("-2k"), -2_000_000_000_000);
        assert_eq!(nanos("250u"), 250_000);
    }

    #[test]
    fn value_and_milli_value_round_up_away_from_zero() {
        assert_eq!(nanos_to_value(1), 1);
        assert_eq!(nanos_to_value(-1), -1);
        assert_eq!(nanos_to_value(2_000_000_000), 2);
        assert_eq!(nanos_to_milli_value(1_500_001), 2);
        assert_eq!(nanos_to_milli_value(500_000_000), 500);
    }

    #[test]
    fn numbers_deserialize_like_strings() {
        let from_number: Quantity = serde_json::from_str("16").unwrap_or_default();
        assert_eq!(from_number.value, 16.0);
        assert_eq!(from_number.text, "16");
        let from_string: Quantity = serde_json::from_str("\"500m\"").unwrap_or_default();
        assert_eq!(from_string.value, 0.5);
    }

    #[test]
    fn invalid_text_fails_to_deserialize() {
        let result: Result<Quantity, _> = serde_json::from_str("\"lots\"");
        assert!(result.is_err());
    }
}
