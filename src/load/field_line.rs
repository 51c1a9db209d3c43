//! Where a field is written: the line of a finding's field path (`spec.placementRefs[0]`,
//! `items[3].spec.numberOfClusters`) in its document, so an annotation lands on the field at
//! fault rather than on its object's first line.
//!
//! The document is parsed again by the parser that read it (serde_yaml, or serde_json for
//! JSON), and the path followed through what the parser hands out, so block and flow YAML,
//! JSON, multi-document streams and List items are read alike. Neither parser gives
//! positions; both lend out the input's own text for a scalar written without escapes (every
//! plain or quoted key, in practice), and where that text sits in the input is its position.
//! A field is at its key; a sequence element at its own text (a mapping's first key, a
//! string); an element with no text of its own (a number, an empty mapping) or a key written
//! with escapes is at the nearest enclosing field that has one. A path that is not in the
//! document (a missing field: `metadata.name … found none`) has no line: the finding keeps
//! its object's. A key that a `<<` merge brings in is found where the merged mapping writes
//! it, unless the mapping itself writes it.
//!
//! Every file is parsed once for all of its findings, however many (a 100k-item List with
//! an error in each is one walk).

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::io::Read;
use std::path::Path;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::documents::{text_of, Lines};
use super::ignore_files::{open_regular, Follow};
use super::inputs::{syntax_of, Input};
use super::yaml_scan;
use crate::yaml11::{self, offset_in};

/// The line (from 1) of each `(document, path)` of `file` (documents from 1, paths from the
/// document's root), `None` where it cannot be told: the file is no longer a readable regular
/// file under `max_bytes` (standard input is never read again), or the path is not in it.
pub(crate) fn field_lines(
    file: &str,
    queries: &[(usize, &str)],
    max_bytes: u64,
) -> Vec<Option<usize>> {
    let lines = vec![None; queries.len()];
    let Some(bytes) = read(file, max_bytes) else {
        return lines;
    };
    let input = Input {
        name: file.to_string(),
        bytes,
        syntax: syntax_of(Path::new(file)),
        walked: false,
    };
    let Ok((text, json)) = text_of(&input) else {
        return lines;
    };
    let mut by_document: BTreeMap<usize, Vec<Query<'_>>> = BTreeMap::new();
    for (id, &(document, path)) in queries.iter().enumerate() {
        by_document
            .entry(document)
            .or_default()
            .push(Query { id, rest: path });
    }
    if json {
        let found = walk_json(text, by_document, queries.len());
        return to_lines(text, found, lines);
    }
    let text = yaml_scan::without_later_boms(text);
    // The pass that guards the parser against hostile nesting when the file is loaded: it
    // may have changed since.
    if yaml_scan::disallowed_character(&text).is_some() || yaml_scan::scan(&text).is_err() {
        return lines;
    }
    let found = walk_yaml(&text, by_document, queries.len());
    to_lines(&text, found, lines)
}

/// The file's bytes, when it is still a regular file within the limit: a FIFO or a
/// process substitution named with `-f` was read once and is not opened again.
fn read(file: &str, max_bytes: u64) -> Option<Vec<u8>> {
    if file == super::STDIN_NAME {
        return None;
    }
    let opened = open_regular(Path::new(file), max_bytes, Follow::Links).ok()?;
    let mut bytes = Vec::new();
    let read = opened
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .ok()?;
    (u64::try_from(read).ok()? <= max_bytes).then_some(bytes)
}

fn walk_yaml(
    text: &str,
    mut by_document: BTreeMap<usize, Vec<Query<'_>>>,
    count: usize,
) -> Vec<Option<usize>> {
    let walk = Walk::new(text, count);
    let last = by_document.keys().next_back().copied().unwrap_or_default();
    for (index, deserializer) in serde_yaml::Deserializer::from_str(text).enumerate() {
        let document = index.saturating_add(1);
        if document > last {
            break;
        }
        let walked = match by_document.remove(&document) {
            Some(queries) => walk.root(queries).deserialize(deserializer).map(drop),
            None => serde::Deserialize::deserialize(deserializer).map(|_: IgnoredAny| ()),
        };
        // A document the parser refuses keeps what was found in it before; the documents
        // serde_yaml goes on to hand out after one are not read (it panics on some).
        if walked.is_err() {
            break;
        }
    }
    walk.found.into_inner()
}

fn walk_json(
    text: &str,
    mut by_document: BTreeMap<usize, Vec<Query<'_>>>,
    count: usize,
) -> Vec<Option<usize>> {
    let walk = Walk::new(text, count);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let mut document = 0usize;
    while !by_document.is_empty() {
        document = document.saturating_add(1);
        let walked = match by_document.remove(&document) {
            Some(queries) => walk.root(queries).deserialize(&mut deserializer).map(drop),
            None => serde::Deserialize::deserialize(&mut deserializer).map(|_: IgnoredAny| ()),
        };
        if walked.is_err() {
            break;
        }
    }
    walk.found.into_inner()
}

/// Offsets into `text` → lines, in the order asked.
fn to_lines(
    text: &str,
    found: Vec<Option<usize>>,
    mut lines: Vec<Option<usize>>,
) -> Vec<Option<usize>> {
    let mut offsets: Vec<(usize, usize)> = found
        .into_iter()
        .enumerate()
        .filter_map(|(id, found)| Some((found?, id)))
        .collect();
    offsets.sort_unstable();
    let mut counted = Lines::new(text);
    for (offset, id) in offsets {
        if let Some(slot) = lines.get_mut(id) {
            *slot = counted.at(offset);
        }
    }
    lines
}

/// One path still to follow: what is left of it below the node being walked. Below a
/// mapping it starts with a key (`spec.x`), below a sequence with an index (`[0].y`).
#[derive(Clone, Copy, Debug)]
struct Query<'p> {
    id: usize,
    rest: &'p str,
}

struct Walk<'t> {
    text: &'t str,
    found: RefCell<Vec<Option<usize>>>,
}

impl<'t> Walk<'t> {
    fn new(text: &'t str, count: usize) -> Walk<'t> {
        Walk {
            text,
            found: RefCell::new(vec![None; count]),
        }
    }

    fn root<'w, 'p>(&'w self, queries: Vec<Query<'p>>) -> Node<'w, 't, 'p> {
        Node {
            walk: self,
            queries,
            ancestor: None,
            merged: false,
            merging: false,
        }
    }

    /// Records where query `id` was found; `merged` when through a `<<` merge key.
    fn record(&self, id: usize, offset: Option<usize>, merged: bool) {
        let Some(offset) = offset else {
            return;
        };
        let mut found = self.found.borrow_mut();
        if let Some(slot) = found.get_mut(id) {
            // A mapping's own key wins over a merged one; of merged ones, the first found (a
            // `<<` list's earlier mapping), as go-yaml merges them.
            if !merged || slot.is_none() {
                *slot = Some(offset);
            }
        }
    }

    /// The offset of `part` when the parser lent it out of the text.
    fn offset(&self, part: &str) -> Option<usize> {
        offset_in(self.text, part)
            .filter(|offset| offset.saturating_add(part.len()) <= self.text.len())
    }
}

/// A value being walked with the paths that go through it. Its result is its own position:
/// a string's text, a mapping's first key, a sequence's first element.
struct Node<'w, 't, 'p> {
    walk: &'w Walk<'t>,
    queries: Vec<Query<'p>>,
    /// The position of the nearest enclosing field that has one.
    ancestor: Option<usize>,
    /// Below a `<<` merge key.
    merged: bool,
    /// The value of a `<<` key itself: a mapping (or each mapping of a sequence) stands for
    /// the mapping holding the key.
    merging: bool,
}

impl<'w, 't, 'p> Node<'w, 't, 'p> {
    fn below(&self, queries: Vec<Query<'p>>, ancestor: Option<usize>) -> Node<'w, 't, 'p> {
        Node {
            walk: self.walk,
            queries,
            ancestor,
            merged: self.merged,
            merging: false,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Node<'_, '_, '_> {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<usize>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// What is left of a path below a key or an index: nothing (the field itself), the rest
/// below a mapping (`x` of `.x`) or below a sequence (`[0]…`); `None` for what cannot follow.
fn after(rest: &str) -> Option<&str> {
    if rest.is_empty() || rest.starts_with('[') {
        Some(rest)
    } else {
        rest.strip_prefix('.')
    }
}

/// The part of `path` up to its first `.` or `[`.
fn first_segment(path: &str) -> &str {
    path.find(['.', '['])
        .map_or(path, |end| path.get(..end).unwrap_or(path))
}

impl<'de> Visitor<'de> for Node<'_, '_, '_> {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any value")
    }

    fn visit_borrowed_str<E>(self, value: &'de str) -> Result<Option<usize>, E> {
        Ok(self.walk.offset(value))
    }

    fn visit_str<E>(self, _: &str) -> Result<Option<usize>, E> {
        Ok(None)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Option<usize>, E> {
        Ok(None)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Option<usize>, E> {
        Ok(None)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Option<usize>, E> {
        Ok(None)
    }

    fn visit_i128<E>(self, _: i128) -> Result<Option<usize>, E> {
        Ok(None)
    }

    fn visit_u128<E>(self, _: u128) -> Result<Option<usize>, E> {
        Ok(None)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Option<usize>, E> {
        Ok(None)
    }

    fn visit_unit<E>(self) -> Result<Option<usize>, E> {
        Ok(None)
    }

    fn visit_none<E>(self) -> Result<Option<usize>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<usize>, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<usize>, A::Error> {
        if self.merging {
            // `<<: [*a, *b]`: each mapping merged in turn, the earlier winning.
            let mut own = None;
            let mut first = true;
            while let Some(position) = seq.next_element_seed(Node {
                merging: true,
                merged: true,
                ..self.below(self.queries.clone(), self.ancestor)
            })? {
                if std::mem::take(&mut first) {
                    own = position;
                }
            }
            return Ok(own);
        }
        let mut by_index: HashMap<usize, Vec<Query<'_>>> = HashMap::new();
        for query in &self.queries {
            let Some((index, rest)) = query
                .rest
                .strip_prefix('[')
                .and_then(|rest| rest.split_once(']'))
            else {
                continue;
            };
            let (Ok(index), Some(rest)) = (index.parse::<usize>(), after(rest)) else {
                continue;
            };
            by_index
                .entry(index)
                .or_default()
                .push(Query { id: query.id, rest });
        }
        let mut own = None;
        let mut index = 0usize;
        loop {
            let queries = by_index.remove(&index).unwrap_or_default();
            if index > 0 && queries.is_empty() {
                if seq.next_element::<IgnoredAny>()?.is_none() {
                    break;
                }
            } else {
                let (here, below): (Vec<Query<'_>>, Vec<Query<'_>>) =
                    queries.into_iter().partition(|query| query.rest.is_empty());
                let Some(position) = seq.next_element_seed(self.below(below, self.ancestor))?
                else {
                    break;
                };
                if index == 0 {
                    own = position;
                }
                for query in here {
                    self.walk
                        .record(query.id, position.or(self.ancestor), self.merged);
                }
            }
            index = index.saturating_add(1);
        }
        Ok(own)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<usize>, A::Error> {
        let mut by_first: HashMap<&str, Vec<Query<'_>>> = HashMap::new();
        for query in &self.queries {
            by_first
                .entry(first_segment(query.rest))
                .or_default()
                .push(*query);
        }
        let mut own = None;
        let mut first = true;
        while let Some(key) = map.next_key_seed(Key)? {
            let at = match key {
                KeyText::Borrowed(text) => self.walk.offset(text),
                KeyText::Owned(_) => None,
            };
            if std::mem::take(&mut first) {
                own = at;
            }
            let ancestor = at.or(self.ancestor);
            let key_text = match &key {
                KeyText::Borrowed(text) => text,
                KeyText::Owned(text) => text.as_str(),
            };
            let merge = matches!(key, KeyText::Borrowed(text)
                if text == yaml11::MERGE_KEY && yaml11::written_plain(self.walk.text, text));
            if merge && !self.queries.is_empty() {
                map.next_value_seed(Node {
                    merging: true,
                    merged: true,
                    ..self.below(self.queries.clone(), ancestor)
                })?;
                continue;
            }
            let mut below = Vec::new();
            for query in by_first.get(first_segment(key_text)).into_iter().flatten() {
                let Some(rest) = query.rest.strip_prefix(key_text).and_then(after) else {
                    continue;
                };
                if rest.is_empty() {
                    self.walk.record(query.id, ancestor, self.merged);
                } else {
                    below.push(Query { id: query.id, rest });
                }
            }
            if below.is_empty() {
                map.next_value::<IgnoredAny>()?;
            } else {
                map.next_value_seed(self.below(below, ancestor))?;
            }
        }
        Ok(own)
    }
}

/// A mapping's key: its text, lent out of the input when written without escapes.
enum KeyText<'de> {
    Borrowed(&'de str),
    Owned(String),
}

struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = KeyText<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<KeyText<'de>, D::Error> {
        // serde_yaml lends out any scalar key this way (`1`, `true` included), not only
        // those it would read as strings.
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = KeyText<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a scalar key")
    }

    fn visit_borrowed_str<E>(self, value: &'de str) -> Result<KeyText<'de>, E> {
        Ok(KeyText::Borrowed(value))
    }

    fn visit_str<E>(self, value: &str) -> Result<KeyText<'de>, E> {
        Ok(KeyText::Owned(value.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `field_lines` over `text` written to a file named `name`.
    fn lines_in(name: &str, text: &str, queries: &[(usize, &str)]) -> Vec<Option<usize>> {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
        field_lines(&path.to_string_lossy(), queries, 1 << 20)
    }

    fn line(text: &str, path: &str) -> Option<usize> {
        lines_in("a.yaml", text, &[(1, path)])[0]
    }

    const PLACEMENT: &str = "# a comment
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata:
  name: p
  labels:
    tier: web
    app.kubernetes.io/name: shop
spec:
  numberOfClusters: 2
  tolerations:
    - key: a
      operator: Exists
    - key: b
      effect: NoSchedule
  clusterSets: [prod, 5, {}]
  predicates:
  - requiredClusterSelector:
      labelSelector: {matchLabels: {a: b},
        matchExpressions: [{key: k, operator: In}]}
";

    #[test]
    fn a_field_is_at_its_key_in_block_yaml() {
        assert_eq!(line(PLACEMENT, "spec.numberOfClusters"), Some(10));
        assert_eq!(line(PLACEMENT, "metadata.labels.tier"), Some(7));
        assert_eq!(line(PLACEMENT, "spec.tolerations[1].effect"), Some(15));
        assert_eq!(line(PLACEMENT, "spec.tolerations"), Some(11));
    }

    #[test]
    fn an_element_is_at_its_own_text() {
        assert_eq!(line(PLACEMENT, "spec.tolerations[0]"), Some(12));
        assert_eq!(line(PLACEMENT, "spec.tolerations[1]"), Some(14));
        assert_eq!(line(PLACEMENT, "spec.clusterSets[0]"), Some(16));
    }

    #[test]
    fn an_element_without_text_of_its_own_is_at_its_field() {
        // A number and an empty mapping lend out no text: the line of `clusterSets`.
        assert_eq!(line(PLACEMENT, "spec.clusterSets[1]"), Some(16));
        assert_eq!(line(PLACEMENT, "spec.clusterSets[2]"), Some(16));
    }

    #[test]
    fn flow_collections_are_followed_across_lines() {
        let selector = "spec.predicates[0].requiredClusterSelector.labelSelector";
        assert_eq!(
            line(PLACEMENT, &format!("{selector}.matchLabels.a")),
            Some(19)
        );
        assert_eq!(
            line(
                PLACEMENT,
                &format!("{selector}.matchExpressions[0].operator")
            ),
            Some(20)
        );
    }

    #[test]
    fn a_key_with_dots_is_one_segment() {
        assert_eq!(
            line(PLACEMENT, "metadata.labels.app.kubernetes.io/name"),
            Some(8)
        );
    }

    #[test]
    fn a_path_that_is_not_there_has_no_line() {
        assert_eq!(line(PLACEMENT, "spec.missing"), None);
        assert_eq!(line(PLACEMENT, "spec.tolerations[7].key"), None);
        assert_eq!(line(PLACEMENT, "spec.numberOfClusters.deeper"), None);
        assert_eq!(line(PLACEMENT, "spec[0]"), None);
        assert_eq!(line(PLACEMENT, ""), None);
        assert_eq!(line(PLACEMENT, "spec..x"), None);
        assert_eq!(line(PLACEMENT, "spec.tolerations[x]"), None);
    }

    #[test]
    fn documents_are_counted_as_the_loader_counts_them() {
        let text = "a: 1\n---\n# empty\n---\nkind: P\nspec:\n  n: 1\n---\nspec: {n: 2}\n";
        let queries = [(3, "spec.n"), (4, "spec.n"), (1, "a"), (2, "a"), (9, "a")];
        assert_eq!(
            lines_in("s.yaml", text, &queries),
            [Some(7), Some(9), Some(1), None, None]
        );
    }

    #[test]
    fn a_list_item_is_found_from_the_document_root() {
        let text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: x/v1\n  kind: P\n- kind: P\n  spec:\n    n: 1\n";
        assert_eq!(line(text, "items[1].spec.n"), Some(8));
        assert_eq!(line(text, "items[1]"), Some(6));
        assert_eq!(line(text, "items[1].metadata.name"), None);
    }

    #[test]
    fn json_keys_are_found_in_streams_and_lists() {
        let text = "{\"kind\": \"P\"}\n{\n  \"kind\": \"List\",\n  \"items\": [\n    {\"spec\": {}},\n    {\n      \"spec\": {\"numberOfClusters\": \"x\"}\n    }\n  ]\n}\n";
        let queries = [
            (2, "items[1].spec.numberOfClusters"),
            (1, "kind"),
            (2, "items[0].spec"),
        ];
        assert_eq!(
            lines_in("s.json", text, &queries),
            [Some(7), Some(1), Some(5)]
        );
        // Sniffed as kubectl does: no extension, first character `{`.
        assert_eq!(lines_in("s", text, &queries[..1]), [Some(7)]);
    }

    #[test]
    fn quoted_keys_are_found_and_escaped_ones_fall_back_to_their_parent() {
        let text = "spec:\n  \"quoted\": 1\n  'single': 2\n  \"esc\\u0061ped\": 3\n";
        assert_eq!(line(text, "spec.quoted"), Some(2));
        assert_eq!(line(text, "spec.single"), Some(3));
        // No text of its own: the line of `spec`.
        assert_eq!(line(text, "spec.escaped"), Some(1));
    }

    #[test]
    fn a_merged_key_is_where_the_merged_mapping_writes_it() {
        let text = "base: &base\n  n: 1\n  m: 2\nspec:\n  <<: *base\n  m: 3\nother:\n  <<: [{k: 1}, {k: 2}]\n";
        assert_eq!(line(text, "spec.n"), Some(2));
        // The mapping's own key wins over the merged one.
        assert_eq!(line(text, "spec.m"), Some(6));
        assert_eq!(line(text, "other.k"), Some(8));
        // A quoted `<<` is an ordinary key.
        assert_eq!(line("spec:\n  \"<<\": {n: 1}\n", "spec.n"), None);
    }

    #[test]
    fn a_byte_order_mark_does_not_move_lines() {
        assert_eq!(line("\u{feff}a: 1\nb:\n  c: 2\n", "b.c"), Some(3));
    }

    #[test]
    fn what_cannot_be_read_has_no_lines() {
        assert_eq!(
            field_lines("no/such/file.yaml", &[(1, "a")], 1 << 20),
            [None]
        );
        assert_eq!(
            field_lines(crate::load::STDIN_NAME, &[(1, "a")], 1 << 20),
            [None]
        );
        assert_eq!(lines_in("big.yaml", "a: 1\n", &[(1, "a")]), [Some(1)]);
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("big.yaml");
        std::fs::write(&path, "a: 1\n").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(field_lines(&path.to_string_lossy(), &[(1, "a")], 3), [None]);
        assert_eq!(
            field_lines(&dir.path().to_string_lossy(), &[(1, "a")], 1 << 20),
            [None]
        );
    }

    #[test]
    fn a_document_the_parser_refuses_keeps_what_was_found_before() {
        let text = "a: 1\nb: [unclosed\nc: 2\n";
        assert_eq!(
            lines_in("bad.yaml", text, &[(1, "a"), (1, "b"), (1, "c")]),
            [Some(1), Some(2), None]
        );
        assert_eq!(line("? [complex, key]\n: 1\n", "a"), None);
        // serde_yaml panics on the document it hands out after "unknown anchor".
        assert_eq!(
            lines_in("p.yaml", "[*0]a", &[(1, ""), (2, "")]),
            [None, None]
        );
        assert_eq!(line(&"[".repeat(10_000), "a"), None);
    }

    #[test]
    fn many_findings_in_one_list_are_found_in_one_walk() {
        let mut text = String::from("kind: List\nitems:\n");
        for n in 0..20_000 {
            text.push_str(&format!("- kind: P\n  spec: {{n: {n}}}\n"));
        }
        let paths: Vec<String> = (0..20_000).map(|n| format!("items[{n}].spec.n")).collect();
        let queries: Vec<(usize, &str)> = paths.iter().map(|path| (1, path.as_str())).collect();
        let lines = lines_in("list.yaml", &text, &queries);
        assert_eq!(lines[0], Some(4));
        assert_eq!(lines[19_999], Some(4 + 2 * 19_999));
    }

    proptest::proptest! {
        #[test]
        fn any_text_and_path_give_a_line_of_the_text_or_none(
            text in "[a-z:\\[\\]{}\\-, \n\"'&*<!#|>.0-9]{0,80}",
            path in "[a-z.\\[\\]0-9]{0,12}",
        ) {
            let lines = lines_in("p.yaml", &text, &[(1, &path), (2, &path)]);
            for found in lines.into_iter().flatten() {
                proptest::prop_assert!(found >= 1 && found <= text.lines().count().max(1));
            }
        }
    }
}
