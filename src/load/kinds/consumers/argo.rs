//! Argo CD (`argoproj.io/v1alpha1`) `ApplicationSet` and its `clusterDecisionResource`
//! generators (argoproj/argo-cd `applicationset/generators/duck_type.go`), with the objects
//! that generator reads: the core `ConfigMap` its `configMapRef` names and the cluster
//! `Secret`s that register clusters with Argo CD. A ConfigMap or Secret is claimed only when
//! it has that shape; any other stays what it was (skipped, or a resource template).

use serde::Deserialize;
use serde_json::Value;

use super::consumer;
use crate::load::content::Content;
use crate::load::decode::{null_as_default, FieldError};
use crate::load::kinds::{claimed, subtree, Api, KnownKind, Reader};
use crate::load::model_builder::{Decoded, Entry};
use crate::load::names::Names;
use crate::load::object::{Object, Scope};
use crate::load::LoadError;
use crate::model::consumer::{ArgoCluster, ConsumerSpec, DuckConfigMap, Generator};
use crate::model::LabelSelectorSpec;

/// The label that makes a Secret an Argo CD cluster (`common.LabelKeySecretType`).
pub const SECRET_TYPE_LABEL: &str = "argocd.argoproj.io/secret-type";

pub const API: Api = Api {
    kinds: &[KnownKind {
        group: "argoproj.io",
        kind: "ApplicationSet",
        versions: &["v1alpha1"],
        scope: Scope::Namespaced,
        names: Names::Subdomain,
        read: application_set,
    }],
    claims: Some(claims),
};

fn text(content: Content<'_>, key: &str) -> Option<String> {
    content.get(key)?.decode::<String>().ok()
}

/// A core ConfigMap whose `data` names a duck type (`matchKey` or `statusListKey`), or a
/// core Secret labelled as an Argo CD cluster.
fn claims(content: Content<'_>) -> Option<Reader> {
    if text(content, "apiVersion")? != "v1" {
        return None;
    }
    match text(content, "kind")?.as_str() {
        "ConfigMap" => {
            let data = content.get("data")?;
            (data.get("matchKey").is_some() || data.get("statusListKey").is_some())
                .then_some(config_map as Reader)
        }
        "Secret" => {
            let label = content
                .get("metadata")?
                .get("labels")?
                .get(SECRET_TYPE_LABEL)?;
            (label.decode::<String>().ok()? == "cluster").then_some(cluster_secret as Reader)
        }
        _ => None,
    }
}

#[derive(Deserialize)]
struct ConfigMapDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    data: ConfigMapData,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ConfigMapData {
    #[serde(default, rename = "apiVersion", deserialize_with = "null_as_default")]
    api_version: String,
    #[serde(default, deserialize_with = "null_as_default")]
    kind: String,
    #[serde(default, deserialize_with = "null_as_default")]
    status_list_key: String,
    #[serde(default, deserialize_with = "null_as_default")]
    match_key: String,
}

fn config_map(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: ConfigMapDoc = object.decode()?;
    let data = doc.data;
    let config_map = DuckConfigMap {
        object: object.object.clone(),
        api_version: data.api_version,
        kind: data.kind,
        status_list_key: data.status_list_key,
        match_key: data.match_key,
    };
    Ok(claimed(&object, Entry::DuckConfigMap(config_map)))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SecretDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    data: SecretName,
    #[serde(default, deserialize_with = "null_as_default")]
    string_data: SecretName,
}

#[derive(Default, Deserialize)]
struct SecretName {
    #[serde(default)]
    name: Option<String>,
}

fn cluster_secret(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: SecretDoc = object.decode()?;
    // The API server merges stringData over data; Argo CD reads `name` from the result.
    let name =
        match (doc.string_data.name, doc.data.name) {
            (Some(name), _) => name,
            (None, Some(encoded)) => base64(&encoded).ok_or_else(|| {
                object.invalid(FieldError::new(
                    "data.name",
                    "expected base64 (the Secret's data is base64-encoded), found another string",
                ))
            })?,
            (None, None) => return Err(object.invalid(FieldError::new(
                "data.name",
                "expected the cluster's name (Argo CD requires it in a cluster Secret), found none",
            ))),
        };
    let cluster = ArgoCluster {
        object: object.object.clone(),
        name,
    };
    Ok(claimed(&object, Entry::ArgoCluster(cluster)))
}

/// Standard base64 (RFC 4648, padded, as the API server encodes `data`) into UTF-8 text.
fn base64(encoded: &str) -> Option<String> {
    let digit = |byte: u8| -> Option<u32> {
        Some(u32::from(match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        }))
    };
    let bytes = encoded.trim().as_bytes();
    if bytes.len() % 4 != 0 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for (at, chunk) in bytes.chunks(4).enumerate() {
        let last = at + 1 == bytes.len() / 4;
        let padding = chunk.iter().rev().take_while(|&&byte| byte == b'=').count();
        if padding > 2 || (padding > 0 && !last) {
            return None;
        }
        let mut bits = 0u32;
        for &byte in &chunk[..4 - padding] {
            bits = (bits << 6) | digit(byte)?;
        }
        bits <<= 6 * padding as u32;
        let decoded = [(bits >> 16) as u8, (bits >> 8) as u8, bits as u8];
        out.extend_from_slice(&decoded[..3 - padding]);
    }
    String::from_utf8(out).ok()
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DecisionResource {
    #[serde(default, deserialize_with = "null_as_default")]
    config_map_ref: String,
    #[serde(default, deserialize_with = "null_as_default")]
    name: String,
    #[serde(default)]
    label_selector: Option<LabelSelectorSpec>,
}

/// The generator types that hold generators of their own.
const NESTING: &[&str] = &["matrix", "merge"];

fn generators(list: &Value, path: &str, out: &mut Vec<Generator>) -> Result<(), FieldError> {
    let Some(list) = list.as_array() else {
        return Ok(());
    };
    for (at, generator) in list.iter().enumerate() {
        let path = format!("{path}[{at}]");
        if let Some(resource) = generator.get("clusterDecisionResource") {
            let path = format!("{path}.clusterDecisionResource");
            let resource: DecisionResource = serde_json::from_value(resource.clone())
                .map_err(|error| FieldError::new(path.as_str(), error.to_string()))?;
            out.push(Generator::ClusterDecisionResource {
                path,
                config_map: resource.config_map_ref,
                name: resource.name,
                label_selector: resource.label_selector,
            });
            continue;
        }
        let nested = NESTING.iter().find_map(|kind| {
            let inner = generator.get(kind)?.get("generators")?;
            Some((kind, inner))
        });
        match nested {
            Some((kind, inner)) => generators(inner, &format!("{path}.{kind}.generators"), out)?,
            None => {
                let kind = generator
                    .as_object()
                    .and_then(|fields| fields.keys().find(|key| key.as_str() != "selector"))
                    .cloned()
                    .unwrap_or_default();
                out.push(Generator::Other { path, kind });
            }
        }
    }
    Ok(())
}

fn application_set(object: Object<'_>) -> Result<Decoded, LoadError> {
    let spec = subtree(&object, "spec")?;
    let mut found = Vec::new();
    generators(
        spec.get("generators").unwrap_or(&Value::Null),
        "spec.generators",
        &mut found,
    )
    .map_err(|e| object.invalid(e))?;
    Ok(consumer(object, ConsumerSpec::ApplicationSet(found)))
}

#[cfg(test)]
mod tests {
    use super::base64;

    #[test]
    fn base64_decodes_padded_text_and_refuses_the_rest() {
        assert_eq!(base64("ZWFzdC0x").as_deref(), Some("east-1"));
        assert_eq!(base64("ZWFzdA==").as_deref(), Some("east"));
        assert_eq!(base64("ZWFzdDE=").as_deref(), Some("east1"));
        assert_eq!(base64("ZWF"), None);
        assert_eq!(base64("ZW=zdA=="), None);
        assert_eq!(base64("ZW*zdA=="), None);
    }
}
