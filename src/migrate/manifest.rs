//! The objects `migrate` writes, as typed shapes whose field order is the order they are
//! written in (apiVersion, kind, metadata, spec, then each spec's fields as the API documents
//! them), so the output is stable and reads like a hand-written manifest. Each target's own
//! objects are built in its folder (`ocm/migrate/manifest.rs`, `karmada/migrate/policy.rs`).

use serde::Serialize;
use serde_yaml::Value;

use super::MigrateError;
use crate::model::{Metadata, ObjectRef};
use crate::render::Unrepresentable;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Manifest<'a, S> {
    api_version: &'a str,
    kind: &'a str,
    metadata: Metadata<'a>,
    spec: S,
}

/// A manifest as a YAML value, with its identity (its namespace resolved, as the loader
/// resolves an input's, even where the manifest leaves it out).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Emitted {
    pub object: ObjectRef,
    pub value: Value,
}

impl Emitted {
    /// Leaves `metadata.namespace` out of the manifest: it goes where its input goes.
    pub(crate) fn drop_namespace(&mut self) {
        if let Some(Value::Mapping(metadata)) = self.value.get_mut("metadata") {
            metadata.remove("namespace");
        }
    }

    /// `metadata.namespace` as written.
    pub(crate) fn written_namespace(&self) -> Option<&str> {
        self.value.get("metadata")?.get("namespace")?.as_str()
    }
}

/// A manifest `migrate` made but serde_yaml could not turn into a value: the object it is,
/// and the serializer's error. Never written as an empty document.
#[derive(Debug, thiserror::Error)]
#[error("{object}: cannot be written as {source}")]
pub(crate) struct Unwritten {
    pub object: String,
    pub source: Unrepresentable,
}

impl From<Unwritten> for MigrateError {
    fn from(Unwritten { object, source }: Unwritten) -> Self {
        MigrateError::Unrepresentable { object, source }
    }
}

/// The manifest of `spec`, as the YAML value the output is written from.
pub(crate) fn emit<S: Serialize>(
    api_version: &str,
    kind: &str,
    metadata: Metadata<'_>,
    spec: S,
) -> Result<Emitted, Unwritten> {
    let object = ObjectRef {
        api_version: api_version.to_string(),
        kind: kind.to_string(),
        namespace: metadata.namespace.as_deref().map(str::to_string),
        name: metadata.name.to_string(),
    };
    let manifest = Manifest {
        api_version,
        kind,
        metadata,
        spec,
    };
    match serde_yaml::to_value(&manifest) {
        Ok(value) => Ok(Emitted { object, value }),
        Err(error) => Err(Unwritten {
            object: object.to_string(),
            source: error.into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::migrate::object_error::ObjectError;

    /// A spec serde refuses (as a `Serialize` impl may): the object is named, not emptied.
    struct Refused;

    impl Serialize for Refused {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("refused"))
        }
    }

    #[test]
    fn a_manifest_serde_cannot_write_is_an_error_naming_it() {
        let error = emit(
            "v1",
            "ConfigMap",
            Metadata::named("web", Some("shop")),
            Refused,
        )
        .err()
        .map(|error| error.to_string());
        assert_eq!(
            error.as_deref(),
            Some("ConfigMap/shop/web: cannot be written as YAML: refused")
        );
        let error = ObjectError::from(
            emit("v1", "ConfigMap", Metadata::named("web", None), Refused)
                .err()
                .unwrap_or_else(|| panic!("emitted")),
        );
        assert_eq!(
            error.to_string(),
            "its migrated ConfigMap/web: cannot be written as YAML: refused"
        );
    }
}
