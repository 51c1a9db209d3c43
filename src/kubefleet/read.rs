//! Reading KubeFleet objects from a decoded YAML/JSON value: one error type naming the field
//! path (`spec.policy.tolerations[0].operator`), and the wire helpers the types share.

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};

use crate::model::time::parse_rfc3339;

/// Why an object could not be read: the field and what was wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct ReadError {
    /// serde_path_to_error's path, `.` for the object itself.
    pub path: String,
    pub message: String,
}

/// Decodes `value` as `T`, naming the failing field.
pub fn read<T: DeserializeOwned>(value: &serde_json::Value) -> Result<T, ReadError> {
    serde_path_to_error::deserialize(value).map_err(|error| ReadError {
        path: error.path().to_string(),
        message: error.inner().to_string(),
    })
}

/// An optional RFC 3339 time as Unix seconds (`metav1.Time`; absent is Go's zero time).
pub(crate) fn time<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    let text: Option<String> = Option::deserialize(deserializer)?;
    text.map(|text| parse_rfc3339(&text).map_err(D::Error::custom))
        .transpose()
}

/// A quantity as written: Kubernetes accepts a JSON number as well as a string.
pub(crate) fn quantity_text<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Text {
        String(String),
        Integer(i64),
        Float(f64),
    }
    Ok(match Text::deserialize(deserializer)? {
        Text::String(text) => text,
        Text::Integer(number) => number.to_string(),
        Text::Float(number) => number.to_string(),
    })
}

/// A `ResourceList`: resource name → quantity text.
pub(crate) fn resource_list<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<std::collections::BTreeMap<String, String>, D::Error> {
    #[derive(Deserialize)]
    struct Text(#[serde(deserialize_with = "quantity_text")] String);
    let list: Option<std::collections::BTreeMap<String, Text>> = Option::deserialize(deserializer)?;
    Ok(list
        .unwrap_or_default()
        .into_iter()
        .map(|(name, Text(text))| (name, text))
        .collect())
}
