//! Argo CD (`argoproj.io/v1alpha1`) `ApplicationSet` and its `clusterDecisionResource`
//! generators (argoproj/argo-cd `applicationset/generators/duck_type.go`), with the objects
//! that generator reads: the core `ConfigMap` its `configMapRef` names and the cluster
//! `Secret`s that register clusters with Argo CD. A ConfigMap or Secret is claimed only when
//! it has that shape; any other stays what it was (skipped, or a resource template).

use std::collections::BTreeMap;

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
use crate::model::LabelSelectorSpec;
use crate::ocm::model::consumer::{
    ApplicationSetSpec, ArgoCluster, ConsumerSpec, DuckConfigMap, Generator,
};
use crate::registry::ApiObject;

/// The label that makes a Secret an Argo CD cluster (`common.LabelKeySecretType`).
pub(crate) const SECRET_TYPE_LABEL: &str = "argocd.argoproj.io/secret-type";

pub(crate) const API: Api = Api {
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
    Ok(claimed(
        object,
        Entry::Api(ApiObject::DuckConfigMap(config_map)),
    ))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SecretDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    data: SecretFields,
    #[serde(default, deserialize_with = "null_as_default")]
    string_data: SecretFields,
}

#[derive(Default, Deserialize)]
struct SecretFields {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    server: Option<String>,
}

fn cluster_secret(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: SecretDoc = object.decode()?;
    // The API server merges stringData over data; Argo CD reads the result.
    let field =
        |written: Option<String>, encoded: Option<String>, key: &str| match (written, encoded) {
            (Some(text), _) => Ok(Some(text)),
            (None, Some(encoded)) => base64(&encoded).map(Some).ok_or_else(|| {
                object.invalid(FieldError::new(
                    format!("data.{key}"),
                    "expected base64 (the Secret's data is base64-encoded), found another string",
                ))
            }),
            (None, None) => Ok(None),
        };
    let Some(name) = field(doc.string_data.name, doc.data.name, "name")? else {
        return Err(object.invalid(FieldError::new(
            "data.name",
            "expected the cluster's name (Argo CD requires it in a cluster Secret), found none",
        )));
    };
    let server = field(doc.string_data.server, doc.data.server, "server")?.unwrap_or_default();
    let cluster = ArgoCluster {
        object: object.object.clone(),
        name,
        server,
    };
    Ok(claimed(object, Entry::Api(ApiObject::ArgoCluster(cluster))))
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
    #[serde(default, deserialize_with = "null_as_default")]
    values: BTreeMap<String, String>,
}

/// The generators of `list`; the paths of selectors fleetplan cannot apply go to `unapplied`.
fn generators(
    list: &Value,
    path: &str,
    depth: usize,
    unapplied: &mut Vec<String>,
) -> Result<Vec<Generator>, FieldError> {
    let Some(list) = list.as_array() else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(list.len());
    for (at, generator) in list.iter().enumerate() {
        let path = format!("{path}[{at}]");
        out.push(one_generator(generator, path, depth, unapplied)?);
    }
    Ok(out)
}

/// The generator fields of an `ApplicationSetGenerator` (argo-cd `pkg/apis/application/
/// v1alpha1/applicationset_types.go`), in its field order.
const GENERATOR_KINDS: [&str; 9] = [
    "list",
    "clusters",
    "git",
    "scmProvider",
    "clusterDecisionResource",
    "pullRequest",
    "matrix",
    "merge",
    "plugin",
];

/// Why a child of a matrix or merge generates nothing (argo-cd `matrix.go`, `merge.go`
/// `getParams`), when it does: no generator, or more than one. A child's own children are
/// terminal generators (`ApplicationSetTerminalGenerator` has no matrix or merge), so a
/// matrix or merge nested twice is dropped and counts as no generator.
fn child_error(generator: &Value, depth: usize) -> Option<&'static str> {
    let nested_twice = |kind: &&str| depth >= 2 && matches!(*kind, "matrix" | "merge");
    let kinds = GENERATOR_KINDS
        .iter()
        .filter(|kind| generator.get(**kind).is_some_and(|value| !value.is_null()))
        .filter(|kind| !nested_twice(kind))
        .count();
    match kinds {
        0 => Some("child generator generated no parameters (inside a nested matrix or merge only list, clusters, git, scmProvider, clusterDecisionResource, pullRequest and plugin generators are read)"),
        1 => None,
        _ => Some("found more than one generator in matrix.Generators"),
    }
}

/// One generator: a clusterDecisionResource, a `matrix` or `merge` of generators (argo-cd
/// `matrix.go`, `merge.go`), a literal `list`, or another kind, noted. Any of them may
/// carry a `selector` over the parameter sets it generates (`generator_spec_processor.go
/// Transform`).
fn one_generator(
    generator: &Value,
    path: String,
    depth: usize,
    unapplied: &mut Vec<String>,
) -> Result<Generator, FieldError> {
    if let Some(message) = (depth > 0).then(|| child_error(generator, depth)).flatten() {
        return Ok(Generator::Refused { path, message });
    }
    let selector_path = format!("{path}.selector");
    let selector = match generator.get("selector") {
        None | Some(Value::Null) => None,
        Some(selector) => Some(
            serde_json::from_value::<LabelSelectorSpec>(selector.clone())
                .map_err(|error| FieldError::new(selector_path.as_str(), error.to_string()))?,
        ),
    };
    if let Some(resource) = generator.get("clusterDecisionResource") {
        let path = format!("{path}.clusterDecisionResource");
        let resource: DecisionResource = serde_json::from_value(resource.clone())
            .map_err(|error| FieldError::new(path.as_str(), error.to_string()))?;
        return Ok(Generator::ClusterDecisionResource {
            path,
            config_map: resource.config_map_ref,
            name: resource.name,
            label_selector: resource.label_selector,
            values: resource.values,
            selector: selector.map(|selector| (selector_path, selector)),
        });
    }
    if selector.is_some() {
        unapplied.push(selector_path);
    }
    let mut nested = |kind: &str, inner: &Value| {
        let path = format!("{path}.{kind}");
        let children = generators(
            inner.get("generators").unwrap_or(&Value::Null),
            &format!("{path}.generators"),
            depth + 1,
            unapplied,
        )?;
        Ok::<_, FieldError>((path, children))
    };
    // A terminal generator (nested twice) has no matrix or merge: Argo CD drops them.
    let terminal = depth >= 2;
    if let Some(matrix) = generator.get("matrix").filter(|_| !terminal) {
        let (path, children) = nested("matrix", matrix)?;
        return Ok(Generator::Matrix { path, children });
    }
    if let Some(merge) = generator.get("merge").filter(|_| !terminal) {
        let (path, children) = nested("merge", merge)?;
        let merge_keys = match merge.get("mergeKeys") {
            None | Some(Value::Null) => Vec::new(),
            Some(keys) => serde_json::from_value(keys.clone())
                .map_err(|error| FieldError::new(format!("{path}.mergeKeys"), error.to_string()))?,
        };
        return Ok(Generator::Merge {
            path,
            merge_keys,
            children,
        });
    }
    let list = generator.get("list");
    let elements = list
        .and_then(|list| list.get("elements"))
        .and_then(Value::as_array);
    let templated = list.is_some_and(|list| list.get("elementsYaml").is_some());
    if let (Some(elements), false) = (elements, templated) {
        return Ok(Generator::List {
            path: format!("{path}.list"),
            elements: elements.len(),
        });
    }
    let kind = generator
        .as_object()
        .and_then(|fields| fields.keys().find(|key| key.as_str() != "selector"))
        .cloned()
        .unwrap_or_default();
    Ok(Generator::Other { path, kind })
}

fn application_set(object: Object<'_>) -> Result<Decoded, LoadError> {
    let spec = subtree(&object, "spec")?;
    let mut unapplied_selectors = Vec::new();
    let found = generators(
        spec.get("generators").unwrap_or(&Value::Null),
        "spec.generators",
        0,
        &mut unapplied_selectors,
    )
    .map_err(|e| object.invalid(e))?;
    let text = |value: Option<&Value>| {
        value
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let template = spec.get("template");
    let destination = template
        .and_then(|template| template.get("spec"))
        .and_then(|spec| spec.get("destination"));
    let destination = ["name", "server"].into_iter().find_map(|field| {
        let value = text(destination.and_then(|destination| destination.get(field)));
        (!value.is_empty()).then(|| (field.to_string(), value))
    });
    let spec = ApplicationSetSpec {
        generators: found,
        go_template: spec
            .get("goTemplate")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        name: text(
            template
                .and_then(|template| template.get("metadata"))
                .and_then(|metadata| metadata.get("name")),
        ),
        destination,
        unapplied_selectors,
    };
    Ok(consumer(object, ConsumerSpec::ApplicationSet(spec)))
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
