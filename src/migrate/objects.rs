//! The raw objects of the inputs, as written: `migrate` re-emits some of them (without an
//! annotation, with a rewritten reference), so it works on the documents, not only the model.
//! `List`s are flattened the way the loader flattens them.

use serde_yaml::{Mapping, Value};

use crate::load::Document;
use crate::model::{ObjectRef, Source};

/// Where a raw object sits: its document and, inside a `List`, its item index path.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    pub source: Source,
    pub items: Vec<usize>,
}

pub struct RawObject<'a> {
    pub location: Location,
    pub value: &'a Value,
    pub api_version: &'a str,
    pub kind: &'a str,
    pub name: &'a str,
    /// `metadata.namespace` as written (absent or empty is `None`).
    pub namespace: Option<&'a str>,
}

impl RawObject<'_> {
    pub fn group(&self) -> &str {
        self.api_version
            .rsplit_once('/')
            .map_or("", |(group, _version)| group)
    }

    /// Whether this is the object the loader read as `object` (a namespaced object without a
    /// namespace is in `default_namespace` there).
    pub fn is(&self, object: &ObjectRef, default_namespace: &str) -> bool {
        self.group() == object.group()
            && self.kind == object.kind
            && self.name == object.name
            && match &object.namespace {
                None => true,
                Some(namespace) => self.namespace.unwrap_or(default_namespace) == namespace,
            }
    }

    /// `metadata.labels` or `metadata.annotations` as string pairs, in their written order.
    pub fn metadata_strings(&self, field: &str) -> Vec<(String, String)> {
        let Some(Value::Mapping(map)) = self
            .value
            .get("metadata")
            .and_then(|metadata| metadata.get(field))
        else {
            return Vec::new();
        };
        map.iter()
            .filter_map(|(key, value)| {
                Some((key.as_str()?.to_string(), value.as_str()?.to_string()))
            })
            .collect()
    }
}

fn text<'a>(value: &'a Value, field: &str) -> Option<&'a str> {
    value.get(field)?.as_str()
}

/// Every object of the documents, in input order, `List` items in place.
pub fn raw_objects(documents: &[Document]) -> Vec<RawObject<'_>> {
    let mut out = Vec::new();
    for document in documents {
        walk(
            &document.value,
            Location {
                source: document.source.clone(),
                items: Vec::new(),
            },
            &mut out,
        );
    }
    out
}

fn walk<'a>(value: &'a Value, location: Location, out: &mut Vec<RawObject<'a>>) {
    let (Some(api_version), Some(kind)) = (text(value, "apiVersion"), text(value, "kind")) else {
        return;
    };
    if kind.ends_with("List") {
        if let Some(Value::Sequence(items)) = value.get("items") {
            for (index, item) in items.iter().enumerate() {
                let mut inner = location.clone();
                inner.items.push(index);
                walk(item, inner, out);
            }
            return;
        }
    }
    let metadata = value.get("metadata");
    let Some(name) = metadata.and_then(|metadata| text(metadata, "name")) else {
        return;
    };
    out.push(RawObject {
        location,
        value,
        api_version,
        kind,
        name,
        namespace: metadata
            .and_then(|metadata| text(metadata, "namespace"))
            .filter(|namespace| !namespace.is_empty()),
    });
}

/// `value` without the annotations `keys`; an `annotations` map left empty is removed.
pub fn without_annotations(value: &Value, keys: &[&str]) -> Value {
    let mut value = value.clone();
    if let Some(Value::Mapping(metadata)) = value.get_mut("metadata") {
        if let Some(Value::Mapping(annotations)) = metadata.get_mut("annotations") {
            for key in keys {
                annotations.remove(*key);
            }
            if annotations.is_empty() {
                metadata.remove("annotations");
            }
        }
    }
    value
}

/// `documents` with the object at each location replaced (`Some`) or removed (`None`);
/// a document whose object is removed becomes empty, which the loader skips.
pub fn replace(documents: &[Document], changes: &[(Location, Option<Value>)]) -> Vec<Document> {
    let mut documents = documents.to_vec();
    for (location, change) in changes {
        let Some(document) = documents
            .iter_mut()
            .find(|document| document.source == location.source)
        else {
            continue;
        };
        replace_at(&mut document.value, &location.items, change.clone());
    }
    documents
}

fn replace_at(value: &mut Value, items: &[usize], change: Option<Value>) {
    let Some((first, rest)) = items.split_first() else {
        *value = change.unwrap_or(Value::Null);
        return;
    };
    if let Some(Value::Sequence(list)) = value.get_mut("items") {
        if let Some(item) = list.get_mut(*first) {
            if rest.is_empty() && change.is_none() {
                // Kept as an empty item would be an error; an empty mapping is not an object
                // either, so the whole item is replaced by a skipped kind.
                *item = Value::Mapping(skipped());
            } else {
                replace_at(item, rest, change);
            }
        }
    }
}

/// A document the loader skips (an unknown kind), standing in for a removed `List` item so
/// the other items keep their indexes.
fn skipped() -> Mapping {
    let mut mapping = Mapping::new();
    mapping.insert("apiVersion".into(), "fleetplan.io/v1alpha1".into());
    mapping.insert("kind".into(), "Removed".into());
    mapping
}

#[cfg(test)]
mod tests {
    use super::*;

    fn documents(text: &str) -> Vec<Document> {
        serde_yaml::Deserializer::from_str(text)
            .enumerate()
            .map(|(index, document)| Document {
                source: Source {
                    file: "f.yaml".into(),
                    document: index + 1,
                    line: None,
                },
                value: serde_yaml::Value::deserialize(document).unwrap_or_default(),
                misread: Vec::new(),
                item_lines: Vec::new(),
            })
            .collect()
    }

    use serde::Deserialize;

    #[test]
    fn list_items_are_objects_with_their_index() {
        let documents = documents(
            "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: b, namespace: x}}\n",
        );
        let objects = raw_objects(&documents);
        let found: Vec<(&str, Option<&str>, Vec<usize>)> = objects
            .iter()
            .map(|o| (o.name, o.namespace, o.location.items.clone()))
            .collect();
        assert_eq!(found, vec![("a", None, vec![0]), ("b", Some("x"), vec![1])]);
    }

    #[test]
    fn removing_the_last_annotation_removes_the_map() {
        let value: Value = serde_yaml::from_str(
            "metadata: {name: a, annotations: {federation.alpha.kubernetes.io/cluster-selector: '[]'}}",
        )
        .unwrap_or_default();
        let stripped =
            without_annotations(&value, &["federation.alpha.kubernetes.io/cluster-selector"]);
        assert_eq!(
            serde_yaml::to_string(&stripped).unwrap_or_default(),
            "metadata:\n  name: a\n"
        );
    }

    #[test]
    fn replacing_a_list_item_keeps_the_others() {
        let documents = documents(
            "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n",
        );
        let location = Location {
            source: documents[0].source.clone(),
            items: vec![0],
        };
        let replaced = replace(&documents, &[(location, None)]);
        let remaining: Vec<(&str, Vec<usize>)> = raw_objects(&replaced)
            .iter()
            .map(|o| (o.name, o.location.items.clone()))
            .collect();
        assert_eq!(remaining, vec![("b", vec![1])]);
        assert_eq!(
            replaced[0].value["items"][0]["kind"].as_str(),
            Some("Removed")
        );
    }
}
