//! Plans as JSON, YAML and a per-item table.

use std::fmt::Write as _;
use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::Formatter;

use super::escape::{terminal, terminal_line, JsonFormatter};
use super::{table, Unrepresentable};
use crate::parallel;
use crate::plan::{ItemTrace, Plan, PlanItem, PlanOutcome};
use crate::registry::{ObjectCache, ObjectOutput};
use crate::replicas::{PreferenceSource, ReplicaTrace};

/// A plan item its output format cannot represent. No item of today's types fails to
/// serialize, but should one ever, the run names it and fails rather than print a plan that
/// silently lacks it.
#[derive(Debug, thiserror::Error)]
#[error("plan item {item}: cannot be written as {source}")]
pub struct ItemError {
    /// The item's `Kind/namespace/name`.
    pub item: String,
    pub source: Unrepresentable,
}

/// A plan its output format cannot represent, named by the part that failed: an item, or the
/// document's head (its `apiVersion` and `kind`). One policy for every serializer failure of
/// a plan: the run reports it and fails, never printing an empty or partial document.
#[derive(Debug, thiserror::Error)]
pub enum Unwritable {
    #[error(transparent)]
    Item(#[from] ItemError),
    #[error("the plan document's head: cannot be written as {0}")]
    Head(#[from] Unrepresentable),
}

/// Why a streamed plan stopped: its sink failed, or part of the plan could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    #[error(transparent)]
    Write(#[from] io::Error),
    #[error(transparent)]
    Plan(#[from] Unwritable),
}

impl From<ItemError> for StreamError {
    fn from(error: ItemError) -> Self {
        StreamError::Plan(error.into())
    }
}

impl ItemError {
    fn new(item: &PlanItem, source: impl Into<Unrepresentable>) -> Self {
        ItemError {
            item: item.source.to_string(),
            source: source.into(),
        }
    }
}

/// A plan output whose size grows with the fleet, as pieces: a head, one piece per item
/// (rendered on any thread), a separator between pieces and a tail. [`stream`] writes them as
/// the items are rendered on every core, so a large plan is never one string in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output<'c> {
    /// The plan table, fitted to a terminal this wide.
    Table(Option<u16>),
    /// `plan --cluster NAME`: one line per item that lands on the cluster, with how.
    Landing(&'c str),
    Yaml,
    Json,
    /// One API's objects (`-o decisions`, `-o bindings`).
    Objects(ObjectOutput),
    Names,
}

impl Output<'_> {
    /// What comes before the first item of `plan`.
    fn head(self, plan: &Plan) -> Result<String, Unrepresentable> {
        Ok(match self {
            Output::Json => json_head(plan)?,
            Output::Yaml => yaml_head(plan)?,
            Output::Objects(objects) => objects.header().to_string(),
            Output::Table(_) | Output::Names => String::new(),
            Output::Landing(cluster) if plan.items.is_empty() => {
                format!("nothing lands on {cluster}\n")
            }
            Output::Landing(cluster) => format!("lands on {cluster}:\n"),
        })
    }

    /// One item's piece, appended to `text`.
    fn item<'f>(
        self,
        item: &PlanItem,
        trace: &ItemTrace<'f>,
        cache: &ObjectCache<'f>,
        text: &mut Vec<u8>,
    ) -> Result<(), ItemError> {
        let piece = match self {
            Output::Json => return item_json(item, text),
            Output::Table(width) => item_block(item, trace, width),
            Output::Yaml => item_yaml(item)?,
            Output::Objects(objects) => objects
                .objects(item, trace, cache)
                .map_err(|error| ItemError::new(item, error))?,
            Output::Names => format!("{}\n", item.source),
            Output::Landing(cluster) => landing_line(item, trace, cluster),
        };
        text.extend_from_slice(piece.as_bytes());
        Ok(())
    }

    /// Room to reserve for `item`'s piece, so that a run's text is not copied each time it
    /// outgrows its buffer: a JSON item's estimate ([`json_capacity`]); the other formats'
    /// pieces are made as strings of their own first.
    fn room(self, item: &PlanItem) -> usize {
        match self {
            Output::Json => json_capacity(item),
            _ => 0,
        }
    }

    /// What goes between two items' pieces.
    fn separator(self) -> &'static str {
        match self {
            Output::Table(_) => "\n",
            Output::Json => ",",
            _ => "",
        }
    }

    /// What comes after the last item of a plan of `items` items.
    fn tail(self, items: usize) -> &'static str {
        match self {
            Output::Json if items > 0 => JSON_TAIL,
            _ => "",
        }
    }
}

/// Writes `output` of `outcome` to `out` while the items are rendered on every core, each
/// piece as soon as the pieces before it are written. The first failed write stops the
/// rendering and is returned; what was written before it stays written (the caller decides
/// what a half-written sink means: `--out` stages it, a closed pipe ends the run). An item
/// that cannot be rendered stops it the same way.
pub fn stream(
    output: Output<'_>,
    outcome: &PlanOutcome,
    out: &mut dyn Write,
) -> Result<(), StreamError> {
    let items: Vec<(&PlanItem, &ItemTrace)> =
        outcome.plan.items.iter().zip(&outcome.traces).collect();
    let cache = ObjectCache::default();
    write_pieces(
        output,
        &outcome.plan,
        &items,
        |(item, _)| output.room(item),
        |(item, trace), text| output.item(item, trace, &cache, text),
        out,
    )
}

/// The most items whose pieces are rendered into one buffer, separators and all, and handed
/// to the sink in one write. A 100k-cluster plan is 100-150 MB of text: written piece by
/// piece, the writer's thread copied every piece into its buffer while the other cores
/// rendered; a run of this many items of such a plan is larger than that buffer, which passes
/// it on uncopied. A plan of fewer items has shorter runs, so that every core renders it.
const RUN_ITEMS: usize = 128;

/// `output`'s head (of `plan`), the pieces of `items` (each appended by `piece`, in the room
/// `room` says it takes) with their separators, rendered on every core in runs of
/// at most [`RUN_ITEMS`], and its tail, in order, to `out`. An item that cannot be rendered ends its
/// run's text before its separator: the items before it are written, then its error is
/// returned.
fn write_pieces<T: Sync>(
    output: Output<'_>,
    plan: &Plan,
    items: &[T],
    room: impl Fn(&T) -> usize + Sync,
    piece: impl Fn(&T, &mut Vec<u8>) -> Result<(), ItemError> + Sync,
    out: &mut dyn Write,
) -> Result<(), StreamError> {
    let head = output.head(plan).map_err(Unwritable::Head)?;
    out.write_all(head.as_bytes())?;
    let run = parallel::group_size(items.len(), RUN_ITEMS);
    let runs: Vec<(usize, &[T])> = items.chunks(run).enumerate().collect();
    let render_run = |&(at, run): &(usize, &[T])| {
        let mut text = Vec::with_capacity(run.iter().map(&room).sum());
        for (position, item) in run.iter().enumerate() {
            let before = text.len();
            if at > 0 || position > 0 {
                text.extend_from_slice(output.separator().as_bytes());
            }
            if let Err(error) = piece(item, &mut text) {
                text.truncate(before);
                return (text, Some(error));
            }
        }
        (text, None)
    };
    parallel::for_each_in_order(&runs, render_run, |(text, failed)| {
        out.write_all(&text)?;
        failed.map_or(Ok(()), |error| Err(StreamError::from(error)))
    })?;
    Ok(out.write_all(output.tail(items.len()).as_bytes())?)
}

/// The Plan as indented JSON: byte for byte serde_json's rendering of the whole document, but
/// the items (tens of megabytes for 10k placements over 100k clusters) are rendered on every
/// core and joined in order.
pub fn json(plan: &Plan) -> Result<String, Unwritable> {
    plan_text(Output::Json, plan, item_json)
}

/// The Plan as YAML, its items rendered on every core and joined in order.
pub fn yaml(plan: &Plan) -> Result<String, Unwritable> {
    plan_text(Output::Yaml, plan, |item, text| {
        text.extend_from_slice(item_yaml(item)?.as_bytes());
        Ok(())
    })
}

/// A plan's YAML as [`yaml`] joins it: the head, then each item's piece (each ending in a new
/// line, with no separator between them and nothing after the last).
pub(crate) type YamlPieces = (String, Vec<String>);

/// The pieces of [`yaml`], the items rendered on every core: for `diff`, which compares the
/// plans item by item.
pub(crate) fn yaml_pieces(plan: &Plan) -> Result<YamlPieces, Unwritable> {
    let items = parallel::map_in_order(&plan.items, item_yaml)
        .into_iter()
        .collect::<Result<_, _>>()?;
    Ok((Output::Yaml.head(plan)?, items))
}

/// A document format of a plan with no traces at hand (`diff`, the property tests).
fn plan_text(
    output: Output<'_>,
    plan: &Plan,
    piece: fn(&PlanItem, &mut Vec<u8>) -> Result<(), ItemError>,
) -> Result<String, Unwritable> {
    let mut text = Vec::new();
    match write_pieces(
        output,
        plan,
        &plan.items,
        |item| output.room(item),
        piece,
        &mut text,
    ) {
        Err(StreamError::Plan(error)) => Err(error),
        // A `Vec` takes every write, and what was written is whole `String`s (the pieces, each
        // already checked as UTF-8), so neither the write nor the conversion can fail.
        Err(StreamError::Write(_)) | Ok(()) => Ok(String::from_utf8(text).unwrap_or_default()),
    }
}

/// The document without its items, up to where they begin: `"items": []` and the closing
/// brace when there are none, else `"items": [`.
fn json_head(plan: &Plan) -> Result<String, Unrepresentable> {
    let mut text = crate::render::escape::json_pretty(&without_items(plan))?;
    // `items` is the document's last field: `"items": []` then the closing brace.
    if !plan.items.is_empty() && text.ends_with(JSON_NO_ITEMS) {
        text.truncate(text.len() - JSON_NO_ITEMS.len());
        text.push('[');
    } else {
        text.push('\n');
    }
    Ok(text)
}

const JSON_NO_ITEMS: &str = "[]\n}";
const JSON_TAIL: &str = "\n  ]\n}\n";

/// One item as serde_json writes it inside the document, two levels deep (the document's
/// mapping and its `items` list), so every line carries the whole document's indentation,
/// after the new line that begins it; appended to `text`, which is left as it was when the
/// item fails.
fn item_json(item: &PlanItem, text: &mut Vec<u8>) -> Result<(), ItemError> {
    let mut formatter = JsonFormatter::new();
    for _ in 0..2 {
        // Only the depth counts: what a begun list writes goes nowhere.
        let _ = formatter.begin_array(&mut std::io::sink());
    }
    let start = text.len();
    text.extend_from_slice(b"\n    ");
    let written = crate::model::written_as_json(|| {
        item.serialize(&mut serde_json::Serializer::with_formatter(
            &mut *text, formatter,
        ))
    })
    .and_then(|()| {
        // serde_json writes only valid UTF-8: were it not, the item's error, never a text
        // that is not one.
        std::str::from_utf8(text.get(start..).unwrap_or_default())
            .map(drop)
            .map_err(<serde_json::Error as serde::ser::Error>::custom)
    });
    written.map_err(|error| {
        text.truncate(start);
        ItemError::new(item, error)
    })
}

/// Room for an item's JSON, so that its text is written once instead of copied each time a
/// growing buffer doubles (an item of a 100k-cluster fleet lists thousands of names, and
/// those copies were ~3% of a run): a little for the item's other fields, and for each cluster
/// name it lists (its clusters, and again in its API's fields: OCM's decision groups and
/// rollout waves) a line of a name of typical length at the deepest indentation. A longer
/// text still grows.
fn json_capacity(item: &PlanItem) -> usize {
    const ITEM: usize = 512;
    const NAME_LINE: usize = 48;
    let names = item.clusters.len() + item.selection.cluster_names() + item.api.cluster_names();
    ITEM + names * NAME_LINE
}

/// The document without its items: `items: []` when there are none, else `items:` and the
/// list's entries follow at the mapping's own indentation (YAML's block list in a mapping).
fn yaml_head(plan: &Plan) -> Result<String, Unrepresentable> {
    let text = crate::yaml11::to_string(&without_items(plan))?;
    Ok(match text.strip_suffix(YAML_NO_ITEMS) {
        Some(head) if !plan.items.is_empty() => format!("{head}:\n"),
        _ => text,
    })
}

fn without_items(plan: &Plan) -> Plan {
    Plan {
        api_version: plan.api_version.clone(),
        kind: plan.kind.clone(),
        items: Vec::new(),
    }
}

const YAML_NO_ITEMS: &str = ": []\n";

/// One item as a one-entry list, which is how it reads inside the document's `items`.
fn item_yaml(item: &PlanItem) -> Result<String, ItemError> {
    crate::yaml11::to_string(std::slice::from_ref(item))
        .map_err(|error| ItemError::new(item, error))
}

/// `Kind/ns/name (apiVersion): how it lands on `cluster`` (`plan --cluster`): the chains of a
/// consumer that reach it, the replicas a replica workload or Karmada resource puts there,
/// the claiming Karmada policy, the decision group of an OCM Placement.
fn landing_line(item: &PlanItem, trace: &ItemTrace, cluster: &str) -> String {
    let mut how = crate::registry::landing(item, trace, cluster);
    if !item.replicas.is_empty() || matches!(trace, ItemTrace::Replicas { .. }) {
        let replicas = item.replicas.get(cluster).copied().unwrap_or(0);
        how.push(format!("{replicas} replicas"));
    }
    let source = &item.source;
    let line = if how.is_empty() {
        format!("  {source} ({})", source.api_version)
    } else {
        format!("  {source} ({}): {}", source.api_version, how.join("; "))
    };
    format!("{}\n", terminal_line(&line))
}

/// One block per item: a heading with its state, its clusters, then what is unsatisfied;
/// text from inputs escaped for a terminal (`render::escape::terminal`).
fn item_block(item: &PlanItem, trace: &ItemTrace, width: Option<u16>) -> String {
    terminal(&unescaped_block(item, trace, width)).into_owned()
}

fn unescaped_block(item: &PlanItem, trace: &ItemTrace, width: Option<u16>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", heading(item));
    let (header, rows) = crate::registry::rows(item, trace);
    if !rows.is_empty() {
        out.push_str(&indent(&table::render(header, rows, width)));
    }
    crate::registry::lines_below_rows(item, &mut out);
    for error in &item.errors {
        let _ = writeln!(out, "  error: {error}");
    }
    for condition in item.problems() {
        let _ = writeln!(out, "  {}: {}", condition.reason, condition.message);
    }
    out
}

fn indent(text: &str) -> String {
    text.lines().map(|line| format!("  {line}\n")).collect()
}

fn heading(item: &PlanItem) -> String {
    let source = &item.source;
    let name = source;
    let state = if !item.errors.is_empty() {
        "error".to_string()
    } else {
        let clusters = match item.clusters.len() {
            1 => "1 cluster".to_string(),
            n => format!("{n} clusters"),
        };
        if item.problems().next().is_some() {
            format!("{clusters}, unsatisfied")
        } else {
            clusters
        }
    };
    format!("{name} ({}): {state}", source.api_version)
}

/// A table's column headers and rows.
pub(crate) type Rows = (Vec<String>, Vec<Vec<String>>);

pub(crate) fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|name| name.to_string()).collect()
}

/// Each selected cluster.
pub(crate) fn cluster_rows(item: &PlanItem) -> Rows {
    let rows = item.clusters.iter().map(|c| vec![c.to_string()]).collect();
    (header(&["CLUSTER"]), rows)
}

/// Each cluster that took part, with its replicas, overflow and the preference it used.
pub(crate) fn replica_rows(item: &PlanItem, trace: &ReplicaTrace) -> Rows {
    let mut clusters: Vec<_> = trace
        .clusters
        .iter()
        .filter(|cluster| cluster.source != PreferenceSource::None)
        .collect();
    clusters.sort_by(|a, b| a.cluster.cmp(b.cluster));
    let mut rows: Vec<Vec<String>> = clusters
        .into_iter()
        .map(|cluster| {
            let prefs = &cluster.preferences;
            vec![
                cluster.cluster.to_string(),
                item.replicas
                    .get(cluster.cluster)
                    .copied()
                    .unwrap_or(0)
                    .to_string(),
                item.overflow
                    .get(cluster.cluster)
                    .map_or_else(String::new, i64::to_string),
                prefs.min_replicas.to_string(),
                prefs
                    .max_replicas
                    .map_or_else(|| "-".to_string(), |max| max.to_string()),
                prefs.weight.to_string(),
                match cluster.source {
                    PreferenceSource::Own => "own".to_string(),
                    _ if trace.defaulted => "* (default)".to_string(),
                    _ => "*".to_string(),
                },
            ]
        })
        .collect();
    let assigned: i64 = item.replicas.values().sum();
    let unassigned = trace.total.saturating_sub(assigned);
    if unassigned > 0 {
        rows.push(vec!["(unassigned)".to_string(), unassigned.to_string()]);
    }
    let names = [
        "CLUSTER",
        "REPLICAS",
        "OVERFLOW",
        "MIN",
        "MAX",
        "WEIGHT",
        "PREFERENCE",
    ];
    (header(&names), rows)
}

#[cfg(test)]
mod tests {
    use crate::model::ConditionStatus;
    use std::collections::BTreeMap;

    use super::*;
    use crate::plan::{Condition, ObjectRef};
    use crate::registry::DecisionGroup;

    fn item(name: &str, namespace: Option<&str>) -> PlanItem {
        PlanItem {
            source: ObjectRef {
                api_version: "apps/v1".into(),
                kind: "Deployment".into(),
                namespace: namespace.map(str::to_string),
                name: name.into(),
            },
            ..PlanItem::default()
        }
    }

    /// The items rendered apart and joined must be the whole document's rendering, for every
    /// field an item can carry and for no item at all, in JSON and in YAML.
    #[test]
    fn json_and_yaml_are_the_whole_plans_rendering() {
        let mut full = item("web", Some("prod"));
        full.clusters = vec!["a".to_string(), "b \"quoted\" é".to_string()].into();
        full.replicas = BTreeMap::from([("a".into(), 3), ("b".into(), 0)]);
        full.overflow = BTreeMap::from([("a".into(), 1)]);
        full.selection.ocm.groups = vec![DecisionGroup {
            name: "canary".into(),
            index: 0,
            clusters: vec!["a".to_string()].into(),
        }];
        full.conditions = vec![Condition {
            type_: "PlacementSatisfied".into(),
            status: ConditionStatus::True,
            reason: "AllDecisionsScheduled".into(),
            message: "line\nbreak".into(),
        }];
        full.api.ocm.changes_at = Some("2026-06-01T00:00:00Z".into());
        // What YAML 1.1 reads as another type is quoted in the item as in the document.
        full.selection.karmada.policy = Some("yes".into());
        full.selection.karmada.affinity_term = Some("multi\nline\n  indented".into());
        let mut failed = item("broken", None);
        failed.errors = vec!["no clusters".into()];
        let many: Vec<PlanItem> = (0..700)
            .map(|n| item(&format!("app-{n}"), Some("ns")))
            .collect();
        for items in [
            Vec::new(),
            vec![item("only", None)],
            vec![full.clone(), failed.clone(), item("empty", Some("ns"))],
            many,
        ] {
            let plan = Plan {
                items,
                ..Plan::default()
            };
            let expected = serde_json::to_string_pretty(&plan).unwrap() + "\n";
            assert_eq!(json(&plan).unwrap(), expected);
            assert_eq!(
                yaml(&plan).unwrap(),
                crate::yaml11::to_string(&plan).unwrap()
            );
            let (head, items) = yaml_pieces(&plan).unwrap();
            assert!(items.iter().all(|item| item.ends_with('\n')));
            assert_eq!(head + &items.concat(), yaml(&plan).unwrap());
        }
    }

    /// `items` written as `output` by [`write_pieces`], each by `piece` but the one named
    /// `failing`, which fails with `error`: the item error returned, and what was written.
    fn written_up_to_a_failure(
        output: Output<'_>,
        items: &[PlanItem],
        failing: &str,
        error: impl Fn(&PlanItem) -> ItemError + Sync,
        piece: impl Fn(&PlanItem, &mut Vec<u8>) -> Result<(), ItemError> + Sync,
    ) -> (ItemError, String) {
        let mut out = Vec::new();
        let outcome = write_pieces(
            output,
            &Plan::default(),
            items,
            |_| 0,
            |item, text| {
                if item.source.name == failing {
                    return Err(error(item));
                }
                piece(item, text)
            },
            &mut out,
        );
        let Err(StreamError::Plan(Unwritable::Item(error))) = outcome else {
            panic!("{outcome:?}");
        };
        (error, String::from_utf8(out).unwrap())
    }

    /// Today's items always serialize, so the failure is the serializer's own error made up
    /// for the second of three items.
    #[test]
    fn an_item_that_cannot_be_rendered_stops_the_output_and_is_named() {
        use serde::ser::Error as _;
        let items = [
            item("a", Some("ns")),
            item("b", Some("ns")),
            item("c", None),
        ];
        let (error, written) = written_up_to_a_failure(
            Output::Names,
            &items,
            "b",
            |item| {
                ItemError::new(
                    item,
                    serde_yaml::Error::custom("a map key that is not a string"),
                )
            },
            |item, text| {
                Output::Names.item(item, &ItemTrace::Failed, &ObjectCache::default(), text)
            },
        );
        assert_eq!(
            error.to_string(),
            "plan item Deployment/ns/b: cannot be written as YAML: a map key that is not a string"
        );
        // Nothing after the failed item, so the output is never a plan without it.
        assert_eq!(written, "Deployment/ns/a\n");
    }

    /// Past the first run of items rendered together: every item before the failed one is
    /// written with its separator, the failed one's separator is not, nor anything after it.
    #[test]
    fn an_item_that_fails_in_a_later_run_leaves_every_item_before_it_written() {
        use serde::ser::Error as _;
        let items: Vec<PlanItem> = (0..RUN_ITEMS * 3)
            .map(|n| item(&format!("app-{n}"), Some("ns")))
            .collect();
        let failing = format!("app-{}", RUN_ITEMS + 5);
        let (error, written) = written_up_to_a_failure(
            Output::Json,
            &items,
            &failing,
            |item| ItemError::new(item, serde_json::Error::custom("made up")),
            |item, text| {
                text.extend_from_slice(item.source.name.as_bytes());
                Ok(())
            },
        );
        assert_eq!(error.item, format!("Deployment/ns/{failing}"));
        let before: Vec<String> = (0..RUN_ITEMS + 5).map(|n| format!("app-{n}")).collect();
        let head = Output::Json.head(&Plan::default()).unwrap();
        assert_eq!(written, head + &before.join(","));
    }

    #[test]
    fn a_head_that_cannot_be_written_is_an_error_naming_it_not_an_empty_head() {
        use serde::ser::Error as _;
        let error = Unwritable::from(Unrepresentable::from(serde_yaml::Error::custom("bad")));
        assert_eq!(
            error.to_string(),
            "the plan document's head: cannot be written as YAML: bad"
        );
    }
}
