//! The raw objects of the inputs, as written: `migrate` re-emits some of them (without an
//! annotation, with a rewritten reference), so it works on the documents, not only the model.
//! `List`s are flattened the way the loader flattens them.

use std::collections::HashMap;

use serde_yaml::{Mapping, Value};

use crate::load::Document;
use crate::model::{ObjectRef, Source};

/// Where a raw object sits: its document and, inside a `List`, its item index path.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Location {
    pub source: Source,
    pub items: Vec<usize>,
}

pub(crate) struct RawObject<'a> {
    pub location: Location,
    pub value: &'a Value,
    pub api_version: &'a str,
    pub kind: &'a str,
    pub name: &'a str,
    /// `metadata.namespace` as written (absent or empty is `None`).
    pub namespace: Option<&'a str>,
}

impl RawObject<'_> {
    pub(crate) fn group(&self) -> &str {
        self.api_version
            .rsplit_once('/')
            .map_or("", |(group, _version)| group)
    }

    /// Whether this is the object the loader read as `object` (a namespaced object without a
    /// namespace is in `default_namespace` there).
    pub(crate) fn is(&self, object: &ObjectRef, default_namespace: &str) -> bool {
        self.group() == object.group()
            && self.kind == object.kind
            && self.name == object.name
            && match &object.namespace {
                None => true,
                Some(namespace) => self.namespace.unwrap_or(default_namespace) == namespace,
            }
    }

    /// `metadata.labels` or `metadata.annotations` as string pairs, in their written order.
    pub(crate) fn metadata_strings(&self, field: &str) -> Vec<(String, String)> {
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

/// The raw objects by the document they were read from (file and number: a List item's
/// source has its own line), kind and name: finding the one the loader read as a workload is
/// one lookup. (A walk over every raw object per workload made `migrate` quadratic in the
/// number of rules.)
pub(crate) struct RawIndex<'r, 'a> {
    raws: &'r [RawObject<'a>],
    by_identity: HashMap<(&'r str, usize, &'a str, &'a str), Vec<usize>>,
}

impl<'r, 'a> RawIndex<'r, 'a> {
    pub(crate) fn new(raws: &'r [RawObject<'a>]) -> RawIndex<'r, 'a> {
        let mut by_identity: HashMap<_, Vec<usize>> = HashMap::with_capacity(raws.len());
        for (index, raw) in raws.iter().enumerate() {
            by_identity
                .entry((
                    raw.location.source.file.as_str(),
                    raw.location.source.document,
                    raw.kind,
                    raw.name,
                ))
                .or_default()
                .push(index);
        }
        RawIndex { raws, by_identity }
    }

    /// The first raw object of the document `source` names that is `object` (see
    /// [`RawObject::is`]).
    pub(crate) fn find(
        &self,
        source: &Source,
        object: &ObjectRef,
        default_namespace: &str,
    ) -> Option<&'r RawObject<'a>> {
        let candidates = self.by_identity.get(&(
            source.file.as_str(),
            source.document,
            object.kind.as_str(),
            object.name.as_str(),
        ))?;
        candidates
            .iter()
            .map(|index| &self.raws[*index])
            .find(|raw| {
                #[cfg(test)]
                probes::count();
                raw.is(object, default_namespace)
            })
    }
}

/// How many raw objects [`RawIndex::find`] compared on this thread: the work a migration's
/// lookups do, which tests hold to one comparison per lookup.
#[cfg(test)]
pub(super) mod probes {
    use std::cell::Cell;

    thread_local! {
        static PROBES: Cell<usize> = const { Cell::new(0) };
    }

    pub(crate) fn count() {
        PROBES.with(|probes| probes.set(probes.get() + 1));
    }

    /// The comparisons so far, reset to 0.
    pub(crate) fn take() -> usize {
        PROBES.with(|probes| probes.replace(0))
    }
}

fn text<'a>(value: &'a Value, field: &str) -> Option<&'a str> {
    value.get(field)?.as_str()
}

/// Every object of the documents, in input order, `List` items in place.
pub(crate) fn raw_objects(documents: &[Document]) -> Vec<RawObject<'_>> {
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
pub(crate) fn without_annotations(value: &Value, keys: &[&str]) -> Value {
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

/// The other copies of replaced objects (identical duplicates, which the loader read once),
/// each with the location of the copy that was replaced: each is replaced by what its first
/// copy became, so no copy of an old object survives.
pub(super) fn copies(
    raws: &[RawObject<'_>],
    replaced: &[(Location, Option<Value>)],
    default_namespace: &str,
) -> Vec<(Location, Location)> {
    let identity = |raw: &RawObject<'_>| -> (String, String, String, String) {
        (
            raw.group().to_string(),
            raw.kind.to_string(),
            raw.namespace.unwrap_or(default_namespace).to_string(),
            raw.name.to_string(),
        )
    };
    let changed: std::collections::HashSet<&Location> =
        replaced.iter().map(|(location, _)| location).collect();
    let mut by_identity: HashMap<_, &Location> = HashMap::new();
    for raw in raws {
        if changed.contains(&raw.location) {
            by_identity.entry(identity(raw)).or_insert(&raw.location);
        }
    }
    raws.iter()
        .filter(|raw| !changed.contains(&raw.location))
        .filter_map(|raw| {
            let original = by_identity.get(&identity(raw))?;
            Some((raw.location.clone(), (*original).clone()))
        })
        .collect()
}

/// `documents` with the object at each location replaced (`Some`) or removed (`None`);
/// a document whose object is removed becomes empty, which the loader skips.
pub(super) fn replace(
    documents: &[Document],
    changes: &[(Location, Option<Value>)],
) -> Vec<Document> {
    let mut documents = documents.to_vec();
    // The first document read from each source, as a search from the start would find it.
    let mut by_source: HashMap<Source, usize> = HashMap::with_capacity(documents.len());
    for (index, document) in documents.iter().enumerate() {
        by_source.entry(document.source.clone()).or_insert(index);
    }
    for (location, change) in changes {
        let Some(index) = by_source.get(&location.source) else {
            continue;
        };
        replace_at(
            &mut documents[*index].value,
            &location.items,
            change.clone(),
        );
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

    /// `migrate` finds each rule's raw object with one comparison (it searched every object
    /// per rule: 20,000 rules took 5.8 s). The rules are items of one List, the case where
    /// every object shares a document. Work is counted, not timed.
    #[test]
    fn migrating_20k_rules_compares_each_raw_object_once_per_lookup() {
        const RULES: usize = 20_000;
        let mut text = String::from("apiVersion: v1\nkind: List\nitems:\n");
        for index in 0..RULES {
            text.push_str(&format!(
                "- {{apiVersion: apps.open-cluster-management.io/v1, kind: PlacementRule, \
                 metadata: {{name: rule-{index}, namespace: ns-{}}}, \
                 spec: {{clusterSelector: {{matchLabels: {{env: prod}}}}}}}}\n",
                index % 50
            ));
        }
        let inputs = ["-".to_string()];
        probes::take();
        let migration = super::super::run(
            &inputs,
            &mut text.as_bytes(),
            &crate::load::LoadOptions::default(),
            &super::super::MigrateOptions::default(),
        )
        .unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(migration.report.errors.first(), None);
        assert_eq!(migration.report.conversions.len(), RULES);
        // A rule's raw object is looked up twice (to convert it, then for its namespace).
        assert_eq!(probes::take(), 2 * RULES);
    }

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
