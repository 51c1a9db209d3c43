//! The native `ClusterInventory`, and the pieces of a cluster document every API's cluster
//! kind shares: taints and conditions. Each API reads its own cluster kinds in its folder.

use foldhash::HashSet;

use serde::de::{self, Deserializer};
use serde::Deserialize;

use super::content::Content;
use super::decode::{null_as_default, optional_time, FieldError};
use super::interning::{self, interning};
use super::model_builder::Decoded;
use super::names::{invalid_value, label_key_error};
use super::object::Object;
use super::LoadError;
use crate::model::crd_strings::{qualified_key, taint_value};
use crate::model::{
    echo, Cluster, Interner, Labels, Quantity, Taint, TaintEffect, VecMap, CLUSTERSET_LABEL,
};
use crate::parallel;
use crate::selector::{dns1123_subdomain_errors, is_valid_label, Operator, Requirement};

use crate::registry::CLUSTER_AVAILABLE_CONDITION as AVAILABLE;

#[derive(Deserialize)]
pub(crate) struct TaintDoc {
    /// The CRD's pattern and `maxLength`, as a toleration's key (which matches it) is read.
    #[serde(deserialize_with = "qualified_key")]
    key: String,
    #[serde(default, deserialize_with = "taint_value")]
    value: String,
    effect: EffectDoc,
    #[serde(rename = "timeAdded", default, deserialize_with = "optional_time")]
    time_added: Option<i64>,
}

/// The CRD's enum; anything else is rejected by the API server. Read from a string only (as
/// the API server does): a derived enum would also take `{"NoSelect": null}` from JSON.
enum EffectDoc {
    NoSelect,
    PreferNoSelect,
    NoSelectIfNew,
}

const EFFECTS: &[&str] = &["NoSelect", "PreferNoSelect", "NoSelectIfNew"];

impl<'de> Deserialize<'de> for EffectDoc {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<EffectDoc, D::Error> {
        let text = String::deserialize(deserializer)?;
        match text.as_str() {
            "NoSelect" => Ok(EffectDoc::NoSelect),
            "PreferNoSelect" => Ok(EffectDoc::PreferNoSelect),
            "NoSelectIfNew" => Ok(EffectDoc::NoSelectIfNew),
            other => Err(de::Error::unknown_variant(other, EFFECTS)),
        }
    }
}

impl From<TaintDoc> for Taint {
    fn from(taint: TaintDoc) -> Taint {
        Taint {
            key: taint.key,
            value: taint.value,
            effect: match taint.effect {
                EffectDoc::NoSelect => TaintEffect::NoSelect,
                EffectDoc::PreferNoSelect => TaintEffect::PreferNoSelect,
                EffectDoc::NoSelectIfNew => TaintEffect::NoSelectIfNew,
            },
            time_added: taint.time_added,
        }
    }
}

#[derive(Deserialize)]
pub(crate) struct ConditionDoc {
    #[serde(rename = "type")]
    condition_type: String,
    status: String,
}

pub(crate) fn conditions(docs: Vec<ConditionDoc>) -> VecMap<String, String> {
    docs.into_iter()
        .map(|condition| (condition.condition_type, condition.status))
        .collect()
}

/// A cluster read from an object of its own (an API's cluster kind): `cluster` with the
/// object's name, deletion and source, and the object's labels and `claims`, interned when
/// the cluster is added.
pub(crate) fn own_cluster(
    object: Object<'_>,
    cluster: Cluster,
    claims: Vec<(String, String)>,
) -> Decoded {
    let cluster = Cluster {
        name: object.object.name,
        deleting: object.meta.deletion_timestamp.is_some(),
        source: object.source,
        ..cluster
    };
    Decoded::Cluster {
        cluster,
        labels: object.meta.labels,
        claims,
    }
}

// ---- ClusterInventory (fleetplan.io/v1alpha1) ----

#[derive(Deserialize)]
struct InventoryDoc {
    #[serde(default, deserialize_with = "null_as_default")]
    clusters: Vec<InventoryClusterDoc>,
}

/// The native form is strict: a misspelt field is an error, not a silently ignored line.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct InventoryClusterDoc {
    name: String,
    #[serde(default, deserialize_with = "interning::labels")]
    labels: Labels,
    #[serde(default, deserialize_with = "interning::labels")]
    claims: Labels,
    #[serde(default, deserialize_with = "null_as_default")]
    sets: Vec<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    taints: Vec<TaintDoc>,
    #[serde(default, deserialize_with = "null_as_default")]
    allocatable: VecMap<String, Quantity>,
    /// `status.capacity` of an OCM hub's cluster (the resource prioritizers need it).
    #[serde(default, deserialize_with = "null_as_default")]
    resource_capacity: VecMap<String, Quantity>,
    #[serde(default)]
    capacity: Option<i64>,
    #[serde(default)]
    online: Option<bool>,
    #[serde(default, deserialize_with = "null_as_default")]
    conditions: VecMap<String, String>,
}

/// Reads a `ClusterInventory`: every entry becomes a cluster located at the document.
/// Entries are decoded and converted on every core (100k of them are most of a large
/// fleet's loading), each thread interning into its own interner, then kept in order, so
/// errors, warnings and clusters come out as one thread would give them.
pub(super) fn inventory(object: Object<'_>) -> Result<Decoded, LoadError> {
    let entries: Vec<(usize, Content)> = object
        .content
        .list_at("clusters")
        .unwrap_or_default()
        .into_iter()
        .enumerate()
        .collect();
    let chunks = parallel::chunks_in_order(&entries, ENTRIES_PER_THREAD, |chunk| {
        let mut interner = Interner::default();
        let mut valid = ValidLabels::default();
        // The first chunk has room for every entry: its clusters become the model's inventory
        // and the others are appended to them in place (100k clusters collected, concatenated
        // and pushed were copied three times, on one core). The others have room for their
        // own alone: room for every entry after them reserved about cores / 2 inventories.
        let room = match chunk.first() {
            Some(&(0, _)) => entries.len(),
            _ => chunk.len(),
        };
        let mut run = ClusterRun::with_capacity(room);
        for &(index, entry) in chunk {
            let entry = interning(&mut interner, || entry.decode()).ok()?;
            run.push(convert(entry, index, &object, &mut interner, &mut valid));
        }
        Some((interner, run))
    });
    // No list of entries that each decode: the whole document decides, and its error names
    // the entry and field.
    if entries.is_empty() || chunks.iter().any(Option::is_none) {
        let (mut interner, mut valid) = (Interner::default(), ValidLabels::default());
        let doc: InventoryDoc = interning(&mut interner, || object.decode())?;
        let mut run = ClusterRun::with_capacity(doc.clusters.len());
        for (index, entry) in doc.clusters.into_iter().enumerate() {
            run.push(convert(entry, index, &object, &mut interner, &mut valid));
        }
        return Ok(Decoded::Clusters {
            strings: vec![interner],
            runs: vec![run],
        });
    }
    let (strings, runs) = chunks.into_iter().flatten().unzip();
    Ok(Decoded::Clusters { strings, runs })
}

/// Consecutive inventory entries as clusters, in entry order: what they warn of, and the
/// entries refused among them.
pub(crate) struct ClusterRun {
    pub(crate) clusters: Vec<Cluster>,
    pub(crate) warnings: Vec<String>,
    /// Each refused entry's error, with how many of `clusters` came before it.
    pub(crate) refused: Vec<(usize, LoadError)>,
}

impl ClusterRun {
    fn with_capacity(clusters: usize) -> ClusterRun {
        ClusterRun {
            clusters: Vec::with_capacity(clusters),
            warnings: Vec::new(),
            refused: Vec::new(),
        }
    }

    fn push(&mut self, converted: Converted) {
        match converted {
            Ok((cluster, warnings)) => {
                self.warnings.extend(warnings);
                self.clusters.push(cluster);
            }
            Err(error) => self.refused.push((self.clusters.len(), error)),
        }
    }
}

/// Below this many entries per thread, a thread costs more than it saves (and a small
/// fleet's labels stay one copy each).
const ENTRIES_PER_THREAD: usize = 1024;

/// One inventory entry as a cluster located at its document, with its warnings.
type Converted = Result<(Cluster, Vec<String>), LoadError>;

fn convert(
    entry: InventoryClusterDoc,
    index: usize,
    object: &Object<'_>,
    interner: &mut Interner,
    valid: &mut ValidLabels,
) -> Converted {
    let mut cluster =
        inventory_cluster(entry, index, interner).map_err(|error| object.invalid(error))?;
    cluster.source = object.source.clone();
    let warnings =
        invalid_label_warnings(&cluster, index, valid).map_err(|error| object.invalid(error))?;
    Ok((cluster, warnings))
}

/// The labels found valid so far, as the addresses of their key and value in the interner
/// the clusters were built with: 100k clusters carry ~600k labels but a few hundred distinct
/// ones, and validating every one was 6% of loading such an inventory.
#[derive(Default)]
struct ValidLabels(HashSet<(usize, usize)>);

/// A label key the API server would refuse is an error, as `ValidateLabels` reports it
/// (`labels: Invalid value: "KEY": ...`): keys reach every output (tables, selectors, CI
/// annotations). Matching never validates the cluster side, so a label value Kubernetes would
/// reject still works here (docs/formats.md, as the design says); it is worth a warning
/// because the real cluster could not carry it.
fn invalid_label_warnings(
    cluster: &Cluster,
    index: usize,
    valid: &mut ValidLabels,
) -> Result<Vec<String>, FieldError> {
    let mut warnings = Vec::new();
    for (key, value) in &cluster.labels {
        let label = (key.address(), value.address());
        if valid.0.contains(&label) {
            continue;
        }
        if is_valid_label(key, value) {
            valid.0.insert(label);
            continue;
        }
        if let Some(error) = label_key_error(format!("clusters[{index}].labels"), key) {
            return Err(error);
        }
        if let Err(error) = Requirement::new(key, Operator::Equals, vec![value.to_string()]) {
            warnings.push(format!(
                "{}: cluster {}: label {}={:?} would be rejected by Kubernetes: {error}",
                cluster.source,
                echo(&cluster.name),
                echo(key),
                echo(value)
            ));
        }
    }
    Ok(warnings)
}

/// A DNS-1123 subdomain of either case: at most 253 bytes of dot-separated labels, each ASCII
/// letters, digits and `-`, starting and ending with a letter or digit. One pass, no
/// allocation: 100k names are checked on every load.
fn is_inventory_name(name: &str) -> bool {
    name.len() <= 253
        && name.split('.').all(|label| {
            let bytes = label.as_bytes();
            matches!(
                (bytes.first(), bytes.last()),
                (Some(first), Some(last)) if first.is_ascii_alphanumeric() && last.is_ascii_alphanumeric()
            ) && bytes.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'-')
        })
}

fn inventory_cluster(
    entry: InventoryClusterDoc,
    index: usize,
    interner: &mut Interner,
) -> Result<Cluster, FieldError> {
    // Formatted only when an entry is wrong: most of a 100k-cluster inventory is not.
    let path = || format!("clusters[{index}]");
    if entry.name.is_empty() {
        return Err(FieldError::new(
            format!("{}.name", path()),
            "expected a cluster name, found an empty string",
        ));
    }
    // An object's name as the API server validates it (`IsDNS1123Subdomain`), upper-case
    // letters aside: the design's inventories name clusters `A`, `B`, `C`. Either way no
    // control character, space, slash, colon, comma, backtick or pipe reaches the file names,
    // decision objects, terminals and CI annotations that repeat the name.
    if !is_inventory_name(&entry.name) {
        let errors = dns1123_subdomain_errors(&entry.name.to_ascii_lowercase());
        return Err(FieldError::new(
            format!("{}.name", path()),
            invalid_value(&entry.name, &errors),
        ));
    }
    let mut labels = entry.labels;
    match entry.sets.as_slice() {
        [] => {}
        [set] => {
            if let Some(label) = labels
                .get(CLUSTERSET_LABEL)
                .filter(|label| label.as_str() != set)
            {
                return Err(FieldError::new(
                    format!("{}.sets", path()),
                    format!(
                        "expected the set {set:?} to agree with the label {CLUSTERSET_LABEL}={label:?}"
                    ),
                ));
            }
            labels.insert(interner.intern(CLUSTERSET_LABEL), interner.intern(set));
        }
        sets => {
            return Err(FieldError::new(
                format!("{}.sets", path()),
                format!(
                    "expected at most one exclusive cluster set, found {} ({})",
                    sets.len(),
                    sets.join(", ")
                ),
            ))
        }
    }
    if let Some(capacity) = entry.capacity.filter(|capacity| *capacity < 0) {
        return Err(FieldError::new(
            format!("{}.capacity", path()),
            format!("expected a replica count of 0 or more, found {capacity}"),
        ));
    }
    let mut conditions = entry.conditions;
    let available = conditions.get(AVAILABLE).map(|status| status == "True");
    let online = match (entry.online, available) {
        (Some(online), Some(available)) if online != available => {
            return Err(FieldError::new(
                format!("{}.online", path()),
                format!(
                    "expected online to agree with conditions.{AVAILABLE}: {:?}, found {online}",
                    conditions.get(AVAILABLE).map_or("", String::as_str)
                ),
            ))
        }
        (Some(online), _) => online,
        (None, Some(available)) => available,
        (None, None) => true,
    };
    // The compact form implies the availability condition OCM's older placement API's
    // default clusterConditions filter looks for.
    conditions.get_or_insert_with(AVAILABLE.to_string(), || {
        if online { "True" } else { "False" }.to_string()
    });
    Ok(Cluster {
        name: entry.name,
        labels,
        claims: entry.claims,
        taints: entry.taints.into_iter().map(Taint::from).collect(),
        allocatable: entry.allocatable,
        resource_capacity: entry.resource_capacity,
        replica_capacity: entry.capacity,
        online,
        conditions,
        deleting: false,
        source: Default::default(),
    })
}
