use std::fmt;

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

/// Identity of a Kubernetes object. `namespace` is `None` for cluster-scoped kinds.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObjectRef {
    pub api_version: String,
    pub kind: String,
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

    /// `<namespace>/<name>`, the key the replica planner hashes.
    pub fn key(&self) -> String {
        format!("{}/{}", self.namespace.as_deref().unwrap_or(""), self.name)
    }
}

impl fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_object_name(f, &self.kind, self.namespace.as_deref(), &self.name)
    }
}

/// `Kind/namespace/name`, or `Kind/name` for a cluster-scoped object: how every message and
/// view names an object.
pub(crate) fn write_object_name(
    f: &mut fmt::Formatter<'_>,
    kind: &str,
    namespace: Option<&str>,
    name: &str,
) -> fmt::Result {
    match namespace {
        Some(namespace) => write!(f, "{kind}/{namespace}/{name}"),
        None => write!(f, "{kind}/{name}"),
    }
}
