//! Typed decoding of parsed documents, with the field path of every failure.

use serde::de::{DeserializeOwned, Deserializer};
use serde::Deserialize;
use serde_yaml::Value;

use crate::model::{echo, time};

/// A decoding failure: where in the document, and what was expected and found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FieldError {
    /// `spec.taints[0].effect`; empty for the document itself.
    pub path: String,
    pub message: String,
}

impl FieldError {
    pub(crate) fn new(path: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// Decodes `value` as `T`, reporting the path of the field that did not fit.
pub(super) fn decode<T: DeserializeOwned>(value: &Value) -> Result<T, FieldError> {
    // Tracking the path of every field costs a third of decoding a large inventory, and
    // decoding is deterministic: only a failure is decoded again, with the path tracked.
    if let Ok(decoded) = T::deserialize(value) {
        return Ok(decoded);
    }
    serde_path_to_error::deserialize(value).map_err(|error| {
        // A path names the keys it went through, and a key is input of any size.
        let path = error
            .path()
            .to_string()
            .split('.')
            .map(|segment| echo(segment).to_string())
            .collect::<Vec<_>>()
            .join(".");
        FieldError {
            path: if path == "." { String::new() } else { path },
            message: crate::model::plain_decode_message(error.into_inner()),
        }
    })
}

/// `null` (an empty YAML value such as `labels:`) decodes as the type's default, as Go's
/// JSON decoding leaves a nil map or slice.
pub(crate) fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Option::unwrap_or_default)
}

/// An optional `metav1.Time` as Unix seconds; `null` and absent are `None`.
pub(crate) fn optional_time<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<i64>, D::Error> {
    Option::<String>::deserialize(deserializer)?
        .map(|text| time::parse_rfc3339(&text).map_err(serde::de::Error::custom))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Spec {
        replicas: i64,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Object {
        spec: Spec,
    }

    #[test]
    fn wrong_types_name_the_field_path() {
        let value: Value = serde_yaml::from_str("spec: {replicas: three}").unwrap_or_default();
        let error = decode::<Object>(&value).err();
        assert_eq!(
            error,
            Some(FieldError::new(
                "spec.replicas",
                "invalid type: string \"three\", expected i64"
            ))
        );
    }

    #[test]
    fn missing_fields_name_the_enclosing_path() {
        let value: Value = serde_yaml::from_str("spec: {}").unwrap_or_default();
        let error = decode::<Object>(&value).err();
        assert_eq!(
            error,
            Some(FieldError::new("spec", "missing field `replicas`"))
        );
    }
}
