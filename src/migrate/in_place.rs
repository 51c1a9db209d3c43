//! `--in-place`: the source files rewritten so that each converted object's document holds
//! what it became, and nothing else changes.
//!
//! A document that changes is replaced by its new objects (`---` between them), keeping the
//! comments and blank lines before and after its content and its `---` line; every other
//! byte of the file is kept, so documents that do not change stay byte-identical. An input
//! object the migration removes (an older OCM placement) is replaced by what it became (its
//! Placement); a rewritten consumer (a policy binding) by its new form. The
//! cluster set binding a Placement needs goes after the first document of each file
//! that makes a Placement in its namespace, so every file applies alone; an added
//! cluster set goes once, after the first such document of all. Inside a `List`, the
//! items are replaced the same way and the List is written anew.
//!
//! The plan is made from the documents as loaded; [`splice`] applies it to a file's text,
//! after finding its document boundaries again and checking them against the loader's (the
//! same number of documents, each changed one starting on the line the loader read it on).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use serde_yaml::Value;

use crate::load::Document;

use super::manifest::Emitted;
use super::objects::{self, Location, RawObject};
use super::Migration;
use crate::registry::OCM_PLACEMENT_KIND;
use crate::render::Unrepresentable;

/// What to write into each file, and the objects to delete from the hub.
#[derive(Clone, Debug, Default)]
pub(crate) struct Rewrite {
    /// By file, in input order: each changed document's new objects.
    pub files: Vec<(String, BTreeMap<usize, Change>)>,
    /// `kubectl delete` lines for the input objects the migration removes, in input order.
    pub deletes: Vec<String>,
}

/// One document's new content.
#[derive(Clone, Debug)]
pub(crate) struct Change {
    /// The line the loader read the document's content on, checked against the text.
    pub line: Option<usize>,
    /// The objects that take its place (a List's new value is one).
    pub values: Vec<Value>,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum InPlaceError {
    #[error("{file}: --in-place rewrites YAML files; this one is JSON (migrate it with --out)")]
    Json { file: String },
    #[error("{file}: --in-place cannot find the loader's {expected} documents in the text (found {found}); not rewritten")]
    Documents {
        file: String,
        expected: usize,
        found: usize,
    },
    #[error("{file}#{document}: --in-place found the document on line {found:?}, the loader on line {expected:?}; not rewritten")]
    Line {
        file: String,
        document: usize,
        expected: Option<usize>,
        found: Option<usize>,
    },
    #[error("{file}#{document}: --in-place does not rewrite an item of a List inside a List")]
    NestedList { file: String, document: usize },
    #[error("{file}: --in-place rewrites a file with a byte order mark only at its start")]
    LaterByteOrderMark { file: String },
    #[error(
        "{file}#{document}: the migrated objects cannot be written as {message}; not rewritten"
    )]
    Unrepresentable {
        file: String,
        document: usize,
        message: String,
    },
}

/// The rewrite of `documents` that `migration` asks for.
pub(super) fn plan(
    documents: &[Document],
    migration: &Migration,
    namespace: &str,
) -> Result<Rewrite, InPlaceError> {
    let changes: HashMap<&Location, &Option<Value>> = migration
        .replaced
        .iter()
        .map(|(location, change)| (location, change))
        .collect();
    let made = made(migration);
    let raws = objects::raw_objects(documents);
    let mut by_document: HashMap<(&str, usize), Vec<&RawObject<'_>>> = HashMap::new();
    for raw in &raws {
        let source = &raw.location.source;
        by_document
            .entry((source.file.as_str(), source.document))
            .or_default()
            .push(raw);
    }
    let mut support = Support::new(&migration.support);
    let mut rewrite = Rewrite::default();
    let mut deleted = HashSet::new();
    for document in documents {
        let source = &document.source;
        let Some(raws) = by_document.get(&(source.file.as_str(), source.document)) else {
            continue;
        };
        if !raws.iter().any(|raw| changes.contains_key(&raw.location)) {
            continue;
        }
        let mut appended = Vec::new();
        let mut items: BTreeMap<usize, Vec<Value>> = BTreeMap::new();
        let mut whole = None;
        for raw in raws {
            let Some(change) = changes.get(&raw.location) else {
                continue;
            };
            if change.is_none() {
                let line = delete_line(raw);
                if deleted.insert(line.clone()) {
                    rewrite.deletes.push(line);
                }
            }
            let mut values: Vec<Value> = change.iter().cloned().collect();
            let new = made.get(&raw.location).copied().unwrap_or_default();
            values.extend(new.iter().cloned());
            for value in new {
                support.follow(&source.file, value, namespace, &mut appended);
            }
            match raw.location.items.as_slice() {
                [] => whole = Some(values),
                [item] => {
                    items.insert(*item, values);
                }
                _ => {
                    return Err(InPlaceError::NestedList {
                        file: source.file.clone(),
                        document: source.document,
                    })
                }
            }
        }
        let mut values = match whole {
            Some(values) => values,
            None => vec![list_with(&document.value, items, &mut appended)],
        };
        values.append(&mut appended);
        rewrite.change(
            &source.file,
            source.document,
            Change {
                line: source.line,
                values,
            },
        );
    }
    Ok(rewrite)
}

impl Rewrite {
    /// Records the new content of `file`'s document `document` (files in input order).
    fn change(&mut self, file: &str, document: usize, change: Change) {
        match self.files.last_mut() {
            Some((last, changes)) if last == file => {
                changes.insert(document, change);
            }
            _ => self
                .files
                .push((file.to_string(), BTreeMap::from([(document, change)]))),
        }
    }
}

/// What each input object became, by its location; a copy of an object (read again through
/// another path) became what its original did.
fn made(migration: &Migration) -> HashMap<&Location, &[Value]> {
    let mut made: HashMap<&Location, &[Value]> = migration
        .made
        .iter()
        .map(|(location, values)| (location, values.as_slice()))
        .collect();
    for (copy, original) in &migration.copies {
        if let Some(values) = made.get(original).copied() {
            made.insert(copy, values);
        }
    }
    made
}

/// Where the support objects go, so every file applies alone: a namespace's own (OCM's
/// cluster set binding) after the first document of each file that makes a Placement in it;
/// the cluster-scoped ones (an added cluster set) once, after the first such document of all.
struct Support<'m, 'f> {
    bindings: Vec<&'m Emitted>,
    others: Vec<&'m Emitted>,
    others_placed: bool,
    /// The namespaces whose binding each file already has.
    bound: HashSet<(&'f str, String)>,
}

impl<'m, 'f> Support<'m, 'f> {
    fn new(support: &'m [Emitted]) -> Self {
        let (bindings, others): (Vec<&Emitted>, Vec<&Emitted>) = support
            .iter()
            .partition(|emitted| emitted.object.namespace.is_some());
        Support {
            others_placed: others.is_empty(),
            bindings,
            others,
            bound: HashSet::new(),
        }
    }

    /// Appends to `appended` the support objects that follow `value`, an object written into
    /// `file`: those a Placement needs that the file (or, for the others, any file) lacks.
    fn follow(&mut self, file: &'f str, value: &Value, namespace: &str, appended: &mut Vec<Value>) {
        let Some(namespace) = placement_namespace(value, namespace) else {
            return;
        };
        if !self.bound.insert((file, namespace.clone())) {
            return;
        }
        let binding = self
            .bindings
            .iter()
            .find(|binding| binding.object.namespace.as_deref() == Some(&namespace));
        if let Some(binding) = binding {
            let mut binding = (*binding).clone();
            if value
                .get("metadata")
                .and_then(|m| m.get("namespace"))
                .is_none()
            {
                binding.drop_namespace();
            }
            appended.push(binding.value);
        }
        if !self.others_placed {
            self.others_placed = true;
            appended.extend(self.others.iter().map(|emitted| emitted.value.clone()));
        }
    }
}

/// The namespace a made Placement is in (as the loader reads it), for its binding.
fn placement_namespace(value: &Value, default_namespace: &str) -> Option<String> {
    if value.get("kind")?.as_str()? != OCM_PLACEMENT_KIND {
        return None;
    }
    let namespace = value
        .get("metadata")
        .and_then(|metadata| metadata.get("namespace"))
        .and_then(Value::as_str)
        .unwrap_or(default_namespace);
    Some(namespace.to_string())
}

/// A List whose changed items are replaced by what they became, in place, and the objects
/// for the document added at its end.
fn list_with(
    list: &Value,
    mut items: BTreeMap<usize, Vec<Value>>,
    appended: &mut Vec<Value>,
) -> Value {
    let mut list = list.clone();
    if let Some(Value::Sequence(old)) = list.get_mut("items") {
        let mut new = Vec::with_capacity(old.len());
        for (index, item) in std::mem::take(old).into_iter().enumerate() {
            match items.remove(&index) {
                Some(values) => new.extend(values),
                None => new.push(item),
            }
        }
        new.append(appended);
        *old = new;
    }
    list
}

/// `kubectl delete KIND.GROUP/NAME [-n NS]`: `-n` only when the input named its namespace,
/// so the line deletes from where `kubectl apply` of the input (with the same `-n`, or none)
/// put it.
fn delete_line(raw: &RawObject<'_>) -> String {
    let kind = raw.kind.to_ascii_lowercase();
    let resource = match raw.group() {
        "" => kind,
        group => format!("{kind}.{group}"),
    };
    let mut line = format!("kubectl delete {resource}/{}", raw.name);
    if let Some(namespace) = raw.namespace {
        line.push_str(&format!(" -n {namespace}"));
    }
    line
}

/// One document's place in a file's text.
#[derive(Debug, PartialEq, Eq)]
struct Range {
    start: usize,
    end: usize,
    /// The line its content starts on (from 1), if it has content.
    line: Option<usize>,
}

/// Whether a line is a document marker: `---` or `...` at column 0, alone or before a space.
fn marker(line: &str, marker: &str) -> bool {
    line.strip_prefix(marker)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t', '\r', '\n']))
}

/// A line that holds nothing of the document: blank, or a comment.
fn is_blank(line: &str) -> bool {
    let trimmed = line.trim_start_matches([' ', '\t']);
    trimmed.trim_end().is_empty() || trimmed.starts_with('#')
}

/// The byte ranges of a YAML stream's documents as libyaml counts them: `---` starts one,
/// `...` ends one, and text with content before any `---` is a bare document. (A `---` or
/// `...` at column 0 cannot be inside a scalar: YAML forbids it there.)
fn ranges(text: &str) -> Vec<Range> {
    let mut out = Vec::new();
    // The open document: its start, whether a `---` opened it, and its first content line.
    let mut open: Option<(usize, Option<usize>)> = None;
    let mut start = 0;
    let mut offset = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let number = index + 1;
        let end = offset + line.len();
        if marker(line, "---") {
            if let Some((begin, first)) = open.take() {
                out.push(Range {
                    start: begin,
                    end: offset,
                    line: first,
                });
            }
            let inline = !is_blank(line.get(3..).unwrap_or_default());
            open = Some((offset, inline.then_some(number)));
        } else if marker(line, "...") {
            if let Some((begin, first)) = open.take() {
                out.push(Range {
                    start: begin,
                    end,
                    line: first,
                });
            }
            start = end;
        } else if !is_blank(line) {
            match &mut open {
                Some((_, first)) => {
                    first.get_or_insert(number);
                }
                None => open = Some((start, Some(number))),
            }
        }
        offset = end;
    }
    if let Some((begin, first)) = open {
        out.push(Range {
            start: begin,
            end: text.len(),
            line: first,
        });
    }
    out
}

/// How many documents libyaml reads in `text`.
fn document_count(text: &str) -> usize {
    serde_yaml::Deserializer::from_str(text)
        .map(|document| {
            let _ = <serde::de::IgnoredAny as serde::Deserialize>::deserialize(document);
        })
        .count()
}

/// `text` (the file `file`) with each changed document replaced.
pub(crate) fn splice(
    file: &str,
    text: &str,
    changes: &BTreeMap<usize, Change>,
) -> Result<String, InPlaceError> {
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(body) => ("\u{feff}", body),
        None => ("", text),
    };
    if body.contains('\u{feff}') {
        return Err(InPlaceError::LaterByteOrderMark {
            file: file.to_string(),
        });
    }
    if body.trim_start().starts_with('{') {
        return Err(InPlaceError::Json {
            file: file.to_string(),
        });
    }
    let ranges = ranges(body);
    let expected = document_count(body);
    if ranges.len() != expected {
        return Err(InPlaceError::Documents {
            file: file.to_string(),
            expected,
            found: ranges.len(),
        });
    }
    let mut out = String::with_capacity(text.len());
    out.push_str(bom);
    let mut kept = 0;
    for (document, change) in changes {
        let range = document
            .checked_sub(1)
            .and_then(|index| ranges.get(index))
            .ok_or_else(|| InPlaceError::Documents {
                file: file.to_string(),
                expected: *document,
                found: ranges.len(),
            })?;
        if change.line.is_some() && change.line != range.line {
            return Err(InPlaceError::Line {
                file: file.to_string(),
                document: *document,
                expected: change.line,
                found: range.line,
            });
        }
        out.push_str(&body[kept..range.start]);
        let values = change
            .values
            .iter()
            .map(super::yaml)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error: Unrepresentable| InPlaceError::Unrepresentable {
                file: file.to_string(),
                document: *document,
                message: error.to_string(),
            })?;
        out.push_str(&replaced(&body[range.start..range.end], &values));
        kept = range.end;
    }
    out.push_str(&body[kept..]);
    Ok(out)
}

/// One document's text with its content replaced by `values`: its `---` line (unless content
/// follows it on the line) and the comments and blank lines before and after its content are
/// kept.
fn replaced(document: &str, objects: &[String]) -> String {
    let lines: Vec<&str> = document.split_inclusive('\n').collect();
    let mut head = String::new();
    let mut rest = lines.as_slice();
    if let Some((first, tail)) = rest.split_first() {
        if marker(first, "---") {
            if is_blank(first.get(3..).unwrap_or_default()) {
                head.push_str(first);
                if !first.ends_with('\n') {
                    head.push('\n');
                }
            } else {
                head.push_str("---\n");
            }
            rest = tail;
        }
    }
    let leading = rest.iter().take_while(|line| is_blank(line)).count();
    head.extend(rest[..leading].iter().copied());
    let rest = &rest[leading..];
    let trailing = rest
        .iter()
        .rev()
        .take_while(|line| is_blank(line) || marker(line, "..."))
        .count();
    let tail: String = rest[rest.len() - trailing..].concat();
    let mut out = head;
    out.push_str(&objects.join("---\n"));
    out.push_str(&tail);
    out
}

impl fmt::Display for Rewrite {
    /// The `kubectl delete` lines, one per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.deletes
            .iter()
            .try_for_each(|line| writeln!(f, "{line}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(line: usize, yaml: &str) -> BTreeMap<usize, Change> {
        let value: Value = serde_yaml::from_str(yaml).unwrap_or(Value::Null);
        BTreeMap::from([(
            2,
            Change {
                line: Some(line),
                values: vec![value],
            },
        )])
    }

    #[test]
    fn documents_are_found_as_libyaml_counts_them() {
        let text = "# head\na: 1\n---\n# about b\nb: 2\n...\n---\nc: |\n  ---x\n";
        let found: Vec<Option<usize>> = ranges(text).iter().map(|range| range.line).collect();
        assert_eq!(found, [Some(2), Some(5), Some(8)]);
        assert_eq!(document_count(text), 3);
    }

    #[test]
    fn only_the_changed_document_is_rewritten_and_its_comments_kept() {
        let text = "# first\na: 1 # kept\n---\n# about b\nb: 2\n# after b\n---\nc: 3\n";
        let out = splice("f.yaml", text, &change(5, "x: 9")).unwrap_or_default();
        assert_eq!(
            out,
            "# first\na: 1 # kept\n---\n# about b\nx: 9\n# after b\n---\nc: 3\n"
        );
    }

    #[test]
    fn a_document_on_another_line_than_the_loader_read_is_refused() {
        let text = "a: 1\n---\nb: 2\n";
        assert_eq!(
            splice("f.yaml", text, &change(2, "x: 9")),
            Err(InPlaceError::Line {
                file: "f.yaml".to_string(),
                document: 2,
                expected: Some(2),
                found: Some(3),
            })
        );
    }
}
