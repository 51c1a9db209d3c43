//! What every KubeFleet CRD type is decoded with: serde with the failing field's path
//! ([`read`]), the ObjectMeta fields the types read, and the wire forms of times and
//! quantities.

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};

use crate::model::time::parse_rfc3339;

/// Why an object could not be read: the field and what was wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub(crate) struct ReadError {
    /// serde_path_to_error's path, `.` for the object itself.
    pub(crate) path: String,
    pub(crate) message: String,
}

/// Decodes `value` as `T`, naming the failing field.
pub(crate) fn read<T: DeserializeOwned>(value: &serde_json::Value) -> Result<T, ReadError> {
    serde_path_to_error::deserialize(value).map_err(|error| ReadError {
        path: error.path().to_string(),
        message: error.inner().to_string(),
    })
}

/// The ObjectMeta fields the KubeFleet types read. `labels` and `annotations` written as
/// `null` read as empty, as the API server stores them.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Metadata {
    #[serde(default)]
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) namespace: Option<String>,
    #[serde(default, deserialize_with = "map_or_null")]
    pub(crate) labels: std::collections::BTreeMap<String, String>,
    #[serde(default, deserialize_with = "map_or_null")]
    pub(crate) annotations: std::collections::BTreeMap<String, String>,
    #[serde(default, deserialize_with = "time")]
    pub(crate) deletion_timestamp: Option<i64>,
}

fn map_or_null<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<std::collections::BTreeMap<String, String>, D::Error> {
    Ok(Option::deserialize(deserializer)?.unwrap_or_default())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_labels_and_annotations_read_as_empty_and_a_bad_time_names_its_field() {
        let value = serde_json::json!({"name": "a", "labels": null, "annotations": null});
        let metadata: Metadata = read(&value).unwrap();
        assert_eq!(metadata.name, "a");
        assert!(metadata.labels.is_empty() && metadata.annotations.is_empty());
        let value =
            serde_json::json!({"name": "a", "labels": {"k": "v"}, "deletionTimestamp": "x"});
        let error = read::<Metadata>(&value).err().unwrap();
        assert_eq!(error.path, "deletionTimestamp");
    }
}
