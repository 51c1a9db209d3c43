//! `-o bindings`: the ResourceBindings (ClusterResourceBindings for cluster-scoped resources)
//! as karmada-scheduler would leave them: `spec.clusters`, the `Scheduled` condition and the
//! observed affinity term.

use std::fmt::Write as _;
use std::sync::OnceLock;

use serde::ser::Error as _;
use serde::Serialize;

use crate::karmada::model::KarmadaCluster;
use crate::karmada::plan::KarmadaTrace;
use crate::karmada::scheduler::Entry;
use crate::model::Metadata;
use crate::plan::PlanItem;

/// The head of every `-o bindings` stream.
pub(crate) const HEADER: &str = "\
# ResourceBindings as karmada-scheduler would write them (spec.clusters sorted by name).
# The resource detector and the scheduler own these objects: compare them with
#   kubectl get resourcebindings -A -o yaml
# rather than applying them.
";

/// A binding up to `spec.clusters`, which is the last field of `spec`: the entries are
/// written after it from lines rendered once per cluster ([`NameLines`]), then [`Tail`].
/// Each part is a block mapping at the document's root, so the parts written one after the
/// other are the whole object's YAML.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Head<'a> {
    api_version: &'static str,
    kind: &'static str,
    metadata: Metadata<'a>,
    spec: Spec<'a>,
}

/// The binding after `spec`.
#[derive(Serialize)]
struct Tail<'a> {
    status: Status<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Spec<'a> {
    resource: Resource<'a>,
    #[serde(skip_serializing_if = "is_zero")]
    replicas: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Resource<'a> {
    api_version: &'a str,
    kind: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    namespace: Option<&'a str>,
    name: &'a str,
}

/// A `spec.clusters` entry's name, alone in `spec.clusters` as in a binding: what
/// [`NameLines`] renders, so the name is quoted (or not) as it would be in the whole object.
#[derive(Serialize)]
struct NameProbe<'a> {
    spec: ClustersProbe<'a>,
}

#[derive(Serialize)]
struct ClustersProbe<'a> {
    clusters: [Name<'a>; 1],
}

#[derive(Serialize)]
struct Name<'a> {
    name: &'a str,
}

/// What [`NameProbe`] renders before the entry.
const PROBE_HEAD: &str = "spec:\n  clusters:\n";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Status<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    scheduler_observing_affinity_name: Option<&'a str>,
    conditions: Vec<&'a crate::model::Condition>,
}

fn is_zero(value: &i64) -> bool {
    *value == 0
}

/// Each fleet cluster's `spec.clusters` name line, rendered by serde once per run and shared
/// by every binding's entries: one serde call per entry was most of `-o bindings`' time
/// (5.6M entries at 10k clusters × 10k workloads, 2,000 Duplicated ones on ~2,800 clusters).
#[derive(Debug, Default)]
pub(crate) struct NameLines<'f> {
    /// The fleet and a line per cluster, set by the first binding rendered. A plan's Karmada
    /// items all schedule over one fleet; another one's entries are rendered each time. The
    /// fleet is borrowed, so no other one can take its place at the same address.
    fleet: OnceLock<(&'f [KarmadaCluster], Vec<OnceLock<String>>)>,
}

impl<'f> NameLines<'f> {
    /// Appends `entry`'s lines to `out`, the line of its name as cached for `fleet`.
    fn write(
        &self,
        fleet: &'f [KarmadaCluster],
        entry: &Entry,
        out: &mut String,
    ) -> Result<(), serde_yaml::Error> {
        let (cached, lines) = self
            .fleet
            .get_or_init(|| (fleet, fleet.iter().map(|_| OnceLock::new()).collect()));
        let slot = entry
            .index
            .filter(|_| std::ptr::eq(*cached, fleet))
            .and_then(|index| lines.get(index));
        match slot {
            Some(slot) => {
                let line = match slot.get() {
                    Some(line) => line,
                    // Rendered outside the cell: two threads may both render a name, one
                    // line is kept.
                    None => {
                        let line = name_line(entry.name)?;
                        slot.get_or_init(|| line)
                    }
                };
                out.push_str(line);
            }
            None => out.push_str(&name_line(entry.name)?),
        }
        // `omitempty` upstream: a cluster at 0 replicas shows only its name. An integer is
        // written as its decimal digits, which no YAML reader misreads.
        if entry.replicas != 0 {
            // Writing to a String cannot fail.
            let _ = writeln!(out, "    replicas: {}", entry.replicas);
        }
        Ok(())
    }
}

/// The line(s) of `name` as a `spec.clusters` entry: `  - name: <name>` quoted as the YAML
/// writer and the YAML 1.1 pass quote it in place.
fn name_line(name: &str) -> Result<String, serde_yaml::Error> {
    let probe = NameProbe {
        spec: ClustersProbe {
            clusters: [Name { name }],
        },
    };
    let text = crate::yaml11::to_string(&probe)?;
    text.strip_prefix(PROBE_HEAD)
        .map(str::to_string)
        .ok_or_else(|| {
            serde_yaml::Error::custom(format!("cluster name {name:?}: unexpected YAML {text:?}"))
        })
}

/// The item's binding as a YAML document after `---` (the `-o bindings` stream is
/// [`HEADER`] then every Karmada item's, in plan item order); nothing for a resource no
/// policy claims, which has no binding. `lines` caches the fleet's entry lines across the
/// items of a run.
pub(crate) fn object<'f>(
    item: &PlanItem,
    trace: &KarmadaTrace<'f>,
    lines: &NameLines<'f>,
) -> Result<String, serde_yaml::Error> {
    let (Some(binding), Some(result)) = (&trace.binding, &trace.outcome) else {
        return Ok(String::new());
    };
    let source = &item.source;
    let head = Head {
        api_version: "work.karmada.io/v1alpha2",
        kind: if source.namespace.is_some() {
            "ResourceBinding"
        } else {
            "ClusterResourceBinding"
        },
        metadata: Metadata::named(&binding.name, source.namespace.as_deref()),
        spec: Spec {
            resource: Resource {
                api_version: &source.api_version,
                kind: &source.kind,
                namespace: source.namespace.as_deref(),
                name: &source.name,
            },
            replicas: binding.replicas,
        },
    };
    let tail = Tail {
        status: Status {
            scheduler_observing_affinity_name: result.observed_affinity.as_deref(),
            conditions: item.conditions.iter().collect(),
        },
    };
    let mut text = format!("---\n{}", crate::yaml11::to_string(&head)?);
    let entries = result.clusters.entries(trace.clusters);
    if !entries.is_empty() {
        text.push_str("  clusters:\n");
        for entry in &entries {
            lines.write(trace.clusters, entry, &mut text)?;
        }
    }
    text.push_str(&crate::yaml11::to_string(&tail)?);
    Ok(text)
}
