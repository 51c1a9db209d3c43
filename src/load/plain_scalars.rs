//! Plain scalars of an input that kubectl reads as another type than fleetplan does: `yes`,
//! `on`, `n` (booleans), `017` (octal 15), `1_000` (1000) and the rest of YAML 1.1's forms
//! (`crate::yaml11`). They are found while the document is parsed, then:
//!
//! - in a Kubernetes object, refused where the API server wants a string and kubectl would
//!   send another type, or would rename a key: any mapping key, and `metadata.name`,
//!   `namespace`, `generateName`, label and annotation values at every `metadata` (pod
//!   templates' included). Elsewhere the document takes kubectl's reading, so a boolean or
//!   integer field gets what the API server gets (`numberOfClusters: 017` is 15), a field
//!   fleetplan reads as a string is refused by its decoding (the message is then explained
//!   by [`explained`]), and `migrate` passes kubectl's value on;
//! - in fleetplan's own kinds (`ClusterInventory`), read as YAML 1.2 strings, with a warning.

use std::collections::BTreeMap;

use serde_yaml::Value;

use super::object::join;
use super::LoadError;
use crate::model::echo;
use crate::yaml11::Reading;

/// One step of a path from a document's root.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Step {
    Key(Value),
    Index(usize),
}

/// A path being walked by the parser, one stack frame per level: nothing is allocated unless
/// a misread scalar is found below it.
pub(crate) struct Segment<'p> {
    pub parent: Option<&'p Segment<'p>>,
    pub step: StepRef<'p>,
}

#[derive(Clone, Copy)]
pub(crate) enum StepRef<'p> {
    Key(&'p Value),
    Index(usize),
    /// A `<<` key that merges its mapping (or list of mappings) into the mapping holding it.
    Merge,
}

/// A plain scalar that YAML 1.2 reads as a string and kubectl as `reading`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Misread {
    /// From the document's root (or, once [`by_item`] handed it to a List's item, from
    /// the item's); for a key, the path of its value.
    pub path: Vec<Step>,
    pub key: bool,
    pub text: String,
    pub reading: Reading,
}

impl Misread {
    /// The misread scalar `text` at `at` (the key itself when `key`).
    pub(crate) fn new(
        at: Option<&Segment<'_>>,
        key: bool,
        text: &str,
        reading: Reading,
    ) -> Misread {
        let mut steps = Vec::new();
        let mut segment = at;
        while let Some(current) = segment {
            steps.push(current.step);
            segment = current.parent;
        }
        steps.reverse();
        let mut path = Vec::with_capacity(steps.len() + 1);
        let mut merged = false;
        for step in steps {
            match step {
                StepRef::Merge => merged = true,
                StepRef::Index(_) if merged => merged = false,
                StepRef::Key(key) => {
                    merged = false;
                    path.push(Step::Key(key.clone()));
                }
                StepRef::Index(index) => path.push(Step::Index(index)),
            }
        }
        if key {
            path.push(Step::Key(Value::String(text.to_string())));
        }
        Misread {
            path,
            key,
            text: text.to_string(),
            reading,
        }
    }

    /// The path as decode errors write it: `spec.items[0].name`.
    pub(crate) fn field(&self) -> String {
        let mut field = String::new();
        for step in &self.path {
            match step {
                Step::Key(key) => {
                    if !field.is_empty() {
                        field.push('.');
                    }
                    match key {
                        Value::String(key) => field.push_str(&echo(key).to_string()),
                        other => field.push_str(&key_text(other)),
                    }
                }
                Step::Index(index) => field.push_str(&format!("[{index}]")),
            }
        }
        field
    }

    /// Whether a Kubernetes object with this scalar is refused before it is read: a key
    /// (kubectl would send another key), or a string field of an ObjectMeta.
    pub(crate) fn refused(&self) -> bool {
        refused_at(self.key, &self.path)
    }

    /// Why the API server would refuse it, and what to write instead.
    pub(crate) fn refusal(&self) -> String {
        let what = if self.key { "key " } else { "" };
        let text = echo(&self.text);
        format!(
            "unquoted {what}{text} is {} to kubectl (YAML 1.1), not a string: quote it (\"{text}\")",
            self.reading
        )
    }
}

/// Settles a parsed document: in each Kubernetes object (the document, or each item of a
/// List), every misread scalar that is not refused takes kubectl's reading. Objects of
/// fleetplan's own kinds keep their strings.
pub(super) fn settle(document: &mut Value, misread: &[Misread]) {
    for found in misread {
        let Some((root, relative)) = object_of(document, &found.path) else {
            continue;
        };
        let own = root
            .get("apiVersion")
            .and_then(Value::as_str)
            .is_some_and(fleetplan_only);
        if own || refused_at(found.key, relative) {
            continue;
        }
        if let Some(node) = node_mut(document, &found.path) {
            if node.as_str() == Some(found.text.as_str()) {
                *node = found.reading.value();
            }
        }
    }
}

/// [`Misread::refused`] for a scalar at `path` within its object.
fn refused_at(key: bool, path: &[Step]) -> bool {
    fn name(step: &Step) -> Option<&str> {
        match step {
            Step::Key(Value::String(key)) => Some(key.as_str()),
            _ => None,
        }
    }
    key || path.iter().enumerate().any(|(at, step)| {
        if name(step) != Some("metadata") {
            return false;
        }
        match path.get(at + 1..).unwrap_or_default() {
            [field] => matches!(name(field), Some("name" | "namespace" | "generateName")),
            [map, Step::Key(_)] => matches!(name(map), Some("labels" | "annotations")),
            _ => false,
        }
    })
}

/// The kinds fleetplan defines (`ClusterInventory`): YAML 1.2 is their reading.
pub(super) fn fleetplan_only(api_version: &str) -> bool {
    api_version.starts_with("fleetplan.io/")
}

/// The object a path is in (a List's item, or the document) and the path within it.
fn object_of<'v, 'p>(document: &'v Value, path: &'p [Step]) -> Option<(&'v Value, &'p [Step])> {
    let is_list = document
        .get("kind")
        .and_then(Value::as_str)
        .is_some_and(|kind| kind.ends_with("List"));
    if is_list {
        if let [Step::Key(Value::String(items)), Step::Index(index), rest @ ..] = path {
            if items == "items" {
                return Some((document.get("items")?.get(*index)?, rest));
            }
        }
    }
    Some((document, path))
}

fn node_mut<'v>(value: &'v mut Value, path: &[Step]) -> Option<&'v mut Value> {
    path.iter().try_fold(value, |node, step| match step {
        Step::Key(key) => node.as_mapping_mut()?.get_mut(key),
        Step::Index(index) => node.as_sequence_mut()?.get_mut(*index),
    })
}

/// The misread scalars of each of a List's `items` items, with paths from the item: one walk
/// over the document's findings (a filter per item was quadratic in a large List).
pub(super) fn by_item(misread: &[Misread], items: usize) -> Vec<Vec<Misread>> {
    let mut by_item = vec![Vec::new(); items];
    for found in misread {
        if let [Step::Key(Value::String(key)), Step::Index(at), rest @ ..] = found.path.as_slice() {
            if let Some(item) = by_item.get_mut(*at).filter(|_| key == "items") {
                item.push(Misread {
                    path: rest.to_vec(),
                    ..found.clone()
                });
            }
        }
    }
    by_item
}

/// A mapping key that is not a string, as a message shows it: its YAML text. This cannot
/// fail for a key read from an input: serde_yaml refuses only a tagged value directly inside
/// another (`serializing nested enums in YAML is not supported yet`), and YAML text gives a
/// node one tag at most. Were one ever refused, the message shows the key's debug form,
/// never nothing.
pub(super) fn key_text(key: &Value) -> String {
    match serde_yaml::to_string(key) {
        Ok(text) => text.trim_end().to_string(),
        Err(_) => format!("{key:?}"),
    }
}

/// A decode error at a field that held a misread scalar says so: kubectl's reading is what
/// failed to decode, and the user wrote something else.
pub(super) fn explained(error: LoadError, prefix: &str, misread: &[Misread]) -> LoadError {
    let LoadError::Invalid {
        at,
        object,
        path,
        message,
    } = error
    else {
        return error;
    };
    let found = misread
        .iter()
        .find(|found| !found.key && join(prefix, &found.field()) == path);
    let message = match found {
        Some(found) if message.contains("expected a string") => found.refusal(),
        Some(found) => format!(
            "{message} (kubectl reads the unquoted {} as {}: YAML 1.1)",
            echo(&found.text),
            found.reading
        ),
        None => message,
    };
    LoadError::Invalid {
        at,
        object,
        path,
        message,
    }
}

/// One warning per distinct misread value of an object of fleetplan's own kinds, at its first
/// field, with how many other fields hold it.
pub(super) fn warnings(misread: &[Misread]) -> Vec<(String, String)> {
    let mut first: BTreeMap<&str, (usize, &Misread, usize)> = BTreeMap::new();
    for (order, found) in misread.iter().enumerate() {
        first
            .entry(found.text.as_str())
            .or_insert((order, found, 0))
            .2 += 1;
    }
    let mut warnings: Vec<(usize, String, String)> = first
        .into_values()
        .map(|(order, found, count)| {
            let text = echo(&found.text);
            let what = if found.key { "key " } else { "" };
            let elsewhere = match count - 1 {
                0 => String::new(),
                1 => " (and at 1 other field)".to_string(),
                more => format!(" (and at {more} other fields)"),
            };
            let message = format!(
                "unquoted {what}{text} is the string \"{text}\" here but {} to YAML 1.1 readers \
                 such as kubectl: quote it (\"{text}\"){elsewhere}",
                found.reading
            );
            (order, found.field(), message)
        })
        .collect();
    warnings.sort_by_key(|(order, _, _)| *order);
    warnings
        .into_iter()
        .map(|(_, field, message)| (field, message))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_serde_yaml_refuses_to_write_is_shown_by_its_debug_form() {
        let tagged = |tag: &str, value: Value| {
            Value::Tagged(Box::new(serde_yaml::value::TaggedValue {
                tag: serde_yaml::value::Tag::new(tag),
                value,
            }))
        };
        assert_eq!(
            key_text(&Value::Sequence(vec![1.into(), 2.into()])),
            "- 1\n- 2"
        );
        assert_eq!(key_text(&tagged("a", "x".into())), "!a x");
        // Not from an input (a node has one tag), but the serializer's one refusal.
        let nested = tagged("a", tagged("b", Value::Null));
        assert!(serde_yaml::to_string(&nested).is_err());
        assert_eq!(
            key_text(&nested),
            "TaggedValue { tag: !a, value: TaggedValue { tag: !b, value: Null } }"
        );
    }

    fn key(key: &str) -> Step {
        Step::Key(Value::String(key.to_string()))
    }

    fn found(path: Vec<Step>, text: &str) -> Misread {
        let reading = crate::yaml11::reading(text).unwrap_or_else(|| panic!("{text}"));
        Misread {
            path,
            key: false,
            text: text.to_string(),
            reading,
        }
    }

    #[test]
    fn a_lists_findings_go_to_their_own_items_with_paths_from_the_item() {
        let item = |index: usize, rest: &[&str]| {
            let mut path = vec![key("items"), Step::Index(index)];
            path.extend(rest.iter().map(|step| key(step)));
            path
        };
        let misread = [
            found(item(2, &["metadata", "name"]), "yes"),
            // The List's own, another list's, and an item beyond the List's.
            found(vec![key("metadata"), key("name")], "no"),
            found(vec![key("other"), Step::Index(1), key("a")], "y"),
            found(item(3, &["a"]), "n"),
            found(item(0, &["spec", "x"]), "on"),
            found(item(2, &["spec", "y"]), "off"),
        ];
        assert_eq!(
            by_item(&misread, 3),
            [
                vec![found(vec![key("spec"), key("x")], "on")],
                vec![],
                vec![
                    found(vec![key("metadata"), key("name")], "yes"),
                    found(vec![key("spec"), key("y")], "off"),
                ],
            ]
        );
    }
}
