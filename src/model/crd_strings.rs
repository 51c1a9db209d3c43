//! The string fields the cluster and placement CRDs bound (a cluster taint's key and value,
//! a toleration's, a spread constraint's topology key), read as their API servers take them:
//! shared by the inventory's clusters and the placements that tolerate their taints.

use serde::de::{self, Deserialize, Deserializer};

/// The CRDs' `maxLength` of a spread constraint's `topologyKey`, a toleration's `key` and an
/// OCM cluster taint's `key`.
const MAX_QUALIFIED_KEY_BYTES: usize = 316;

/// A spread constraint's `topologyKey`, a toleration's `key` or an OCM cluster taint's
/// `key`: at most 316 bytes matching the CRDs' pattern (a label key without the per-part
/// length limits).
pub(crate) fn qualified_key<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<String, D::Error> {
    let key = String::deserialize(deserializer)?;
    at_most_characters::<D>(&key, MAX_QUALIFIED_KEY_BYTES)?;
    if !crate::selector::is_qualified_key(&key) {
        return Err(de::Error::custom(format!(
            "expected an optional DNS subdomain prefix and '/', then alphanumeric characters, '-', '_' or '.' starting and ending with an alphanumeric character, found {:?}",
            crate::model::echo(&key)
        )));
    }
    Ok(key)
}

/// A string's `maxLength` in the CRD, which counts characters as JSON Schema does.
pub(crate) fn at_most_characters<'de, D: Deserializer<'de>>(
    text: &str,
    max: usize,
) -> Result<(), D::Error> {
    let length = text.chars().count();
    if length > max {
        return Err(de::Error::custom(format!(
            "expected at most {max} characters, found {length}"
        )));
    }
    Ok(())
}

/// The CRDs' `maxLength` of a toleration's `value` (Placement) and an OCM cluster taint's.
pub(crate) const MAX_TAINT_VALUE: usize = 1024;

/// A cluster taint's `value`: OCM's cluster CRD's `maxLength`; null reads as empty, as an
/// absent value does.
pub(crate) fn taint_value<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let value = Option::<String>::deserialize(deserializer)?.unwrap_or_default();
    at_most_characters::<D>(&value, MAX_TAINT_VALUE)?;
    Ok(value)
}
