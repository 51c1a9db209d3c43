use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// Where a document came from. Every error message starts with it (`file#document`).
/// `document` counts from 1 within the file; `line` is 1-based when known.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Source {
    pub file: String,
    pub document: usize,
    pub line: Option<usize>,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.file, self.document)
    }
}

/// Identity of a Kubernetes object. `namespace` is `None` for cluster-scoped kinds. Also the
/// object a plan item plans for (its `source` in the Plan document) and an object in
/// migrate's report.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ObjectRef {
    pub api_version: String,
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub name: String,
}

impl ObjectRef {
    /// The API group (`apps` of `apps/v1`; "" for the core group `v1`).
    pub fn group(&self) -> &str {
        self.api_version
            .rsplit_once('/')
            .map_or("", |(group, _version)| group)
    }

    /// `Kind/namespace/name` (`Kind/name` without a namespace) as its `Display` writes it,
    /// in a string sized once ([`object_name`]).
    pub(crate) fn qualified_name(&self) -> String {
        object_name(&self.kind, self.namespace.as_deref(), &self.name)
    }

    /// `<namespace>/<name>`, the key the replica planner hashes.
    pub fn key(&self) -> String {
        format!("{}/{}", self.namespace.as_deref().unwrap_or(""), self.name)
    }
}

impl fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.qualified_name())
    }
}

/// `metadata` as fleetplan writes it: migrate's manifests, `-o decisions`, `-o bindings` and
/// migrate's stand-in Clusters. Borrowed where the writer holds the text (the renderers),
/// owned where it builds it; an absent namespace and empty maps are left out.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub(crate) struct Metadata<'a> {
    pub name: Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<Cow<'a, str>>,
    #[serde(skip_serializing_if = "is_empty")]
    pub labels: Cow<'a, BTreeMap<String, String>>,
    #[serde(skip_serializing_if = "is_empty")]
    pub annotations: Cow<'a, BTreeMap<String, String>>,
}

fn is_empty<M: std::ops::Deref<Target = BTreeMap<String, String>>>(map: &M) -> bool {
    map.is_empty()
}

impl<'a> Metadata<'a> {
    /// The name and namespace of `object`.
    pub(crate) fn of(object: &'a ObjectRef) -> Metadata<'a> {
        Metadata::named(&object.name, object.namespace.as_deref())
    }

    pub(crate) fn named(name: &'a str, namespace: Option<&'a str>) -> Metadata<'a> {
        Metadata {
            name: Cow::Borrowed(name),
            namespace: namespace.map(Cow::Borrowed),
            ..Metadata::default()
        }
    }
}

/// `Kind/namespace/name`, or `Kind/name` for a cluster-scoped object: how every message and
/// view names an object. Written into a string sized once: `format!` grows its string a piece
/// at a time (~1,400 instructions a name), and a run names every consumer's binding and
/// placement (10k Policies).
pub(crate) fn object_name(kind: &str, namespace: Option<&str>, name: &str) -> String {
    let length = kind.len() + namespace.map_or(0, |namespace| namespace.len() + 1) + 1 + name.len();
    let mut text = String::with_capacity(length);
    text.push_str(kind);
    if let Some(namespace) = namespace {
        text.push('/');
        text.push_str(namespace);
    }
    text.push('/');
    text.push_str(name);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_leaves_out_an_absent_namespace_and_empty_maps() {
        let written = |metadata: &Metadata| serde_yaml::to_string(metadata).unwrap();
        assert_eq!(written(&Metadata::named("a", None)), "name: a\n");
        let labels = BTreeMap::from([("k".to_string(), "v".to_string())]);
        let metadata = Metadata {
            labels: Cow::Borrowed(&labels),
            ..Metadata::named("a", Some("ns"))
        };
        assert_eq!(
            written(&metadata),
            "name: a\nnamespace: ns\nlabels:\n  k: v\n"
        );
    }
}
