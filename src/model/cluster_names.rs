//! Cluster names as a plan carries them: ranks into one shared table of the fleet's names when
//! planned, owned names when read back from a file (`--previous`).
//!
//! A 100k-cluster fleet's plan lists millions of selected names. As one `String` each they
//! were millions of small allocations (malloc and free ~10% of a run) and page faults; as
//! `Arc<str>` each they would still be 100k scattered allocations, a cache miss per name at
//! first touch. A rank is four bytes, and the names it stands for are read, in order, from one
//! string of a few MB when the plan is written.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::ops::Range;
use std::sync::{Arc, LazyLock, OnceLock};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// Every cluster name of a fleet in one string, by rank (a fleet's name order). Shared by every
/// plan item that lists its clusters by rank.
#[derive(Debug, Default)]
pub struct NameTable {
    text: String,
    /// Where the name of each rank ends in `text`.
    ends: Vec<usize>,
    /// Every name's line as a JSON plan lists it, by depth (see [`lines`]).
    ///
    /// [`lines`]: NameTable::lines
    lines: [OnceLock<Option<String>>; LINE_DEPTHS],
    /// Whether every name is written as it is in JSON (see [`lines`]), found once for every
    /// depth.
    ///
    /// [`lines`]: NameTable::lines
    verbatim: OnceLock<bool>,
}

/// The depths (levels of indentation) a name table keeps its names' lines for: a plan's
/// cluster lists are at depth 4 (an item's), 6 (a decision group's) and 7 (a rollout wave's).
const LINE_DEPTHS: usize = 10;

impl PartialEq for NameTable {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text && self.ends == other.ends
    }
}

impl Eq for NameTable {}

impl NameTable {
    /// The names, rank 0 first.
    pub fn new<'n>(names: impl IntoIterator<Item = &'n str>) -> NameTable {
        let mut table = NameTable::default();
        for name in names {
            table.text.push_str(name);
            table.ends.push(table.text.len());
        }
        table
    }

    /// The name of `rank`.
    pub fn name(&self, rank: usize) -> &str {
        let start = rank.checked_sub(1).map_or(0, |before| self.ends[before]);
        &self.text[start..self.ends[rank]]
    }

    /// The first rank named `name`, found by bisection: the names are in ascending order
    /// (a fleet's name order).
    pub fn rank_of(&self, name: &str) -> Option<usize> {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let middle = low + (high - low) / 2;
            if self.name(middle) < name {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        (low < self.len() && self.name(low) == name).then_some(low)
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Every name's line as a JSON plan lists it at `depth`, one after the other: `,`, a new
    /// line, two spaces a level, and the name's JSON string; when nothing in any name is
    /// escaped (printable ASCII but for the quote and the backslash, so serde_json and
    /// [`JsonFormatter`] would write each as it is). A fleet's names are validated when read,
    /// so this is every real fleet's table; `None` for a table with a name to escape, whose
    /// lists are written name by name, and for a depth past [`LINE_DEPTHS`]. Made once per
    /// table and depth, the first time a list of that depth is written.
    ///
    /// [`JsonFormatter`]: crate::render::escape::JsonFormatter
    fn lines(&self, depth: usize) -> Option<&str> {
        self.lines
            .get(depth)?
            .get_or_init(|| {
                self.verbatim().then(|| {
                    let mut lines = String::with_capacity(
                        self.text.len() + self.len() * Self::line_extra(depth),
                    );
                    // Everything a line has before its name, made once.
                    let head = format!(",\n{}\"", "  ".repeat(depth));
                    for rank in 0..self.len() {
                        lines.push_str(&head);
                        lines.push_str(self.name(rank));
                        lines.push('"');
                    }
                    lines
                })
            })
            .as_deref()
    }

    /// Whether no name has a byte JSON would escape, or that is not printable ASCII.
    fn verbatim(&self) -> bool {
        *self.verbatim.get_or_init(|| {
            // A block's bytes judged without stopping at the first bad one, so the loop is
            // vectorized: stopping at each byte kept render's threads waiting ~3 ms on 1.4 MB.
            self.text.as_bytes().chunks(256).all(|block| {
                block.iter().fold(true, |verbatim, &byte| {
                    verbatim & (b' '..=b'~').contains(&byte) & (byte != b'"') & (byte != b'\\')
                })
            })
        })
    }

    /// The bytes a line at `depth` adds to its name: `,`, the new line, the indentation and
    /// the two quotes.
    fn line_extra(depth: usize) -> usize {
        4 + 2 * depth
    }

    /// Where the line of `rank` is in [`lines`] at `depth`.
    ///
    /// [`lines`]: NameTable::lines
    fn line(&self, depth: usize, rank: usize) -> Range<usize> {
        let start = rank.checked_sub(1).map_or(0, |before| self.ends[before]);
        let extra = Self::line_extra(depth);
        start + rank * extra..self.ends[rank] + (rank + 1) * extra
    }
}

thread_local! {
    /// Whether the serializer at work on this thread is serde_json's (see [`written_as_json`]).
    static WRITING_JSON: Cell<bool> = const { Cell::new(false) };
}

thread_local! {
    /// The ranked list [`ClusterNames`] handed to the JSON formatter (see [`listed`]).
    static LISTED: RefCell<Option<HandedOverList>> = const { RefCell::new(None) };
}

/// The raw fragment a ranked list is written as when it is handed over: [`listed`] knows it
/// by its address, and the formatter writes the list in its place.
static HANDED_OVER: LazyLock<Box<RawValue>> =
    LazyLock::new(|| RawValue::from_string("[]".to_string()).unwrap_or_default());

/// A ranked list of a table whose names need no escape, handed from [`ClusterNames`]'s
/// `Serialize` to [`JsonFormatter`], which writes it in one piece: serde_json's steps for each
/// element (the sequence, the raw value, the formatter's calls) cost ~140 instructions a name,
/// where copying its line from the table's [`lines`] costs one copy (and a run of consecutive
/// ranks one copy in all). A plan lists millions.
///
/// [`JsonFormatter`]: crate::render::escape::JsonFormatter
/// [`lines`]: NameTable::lines
pub(crate) struct HandedOverList {
    table: Arc<NameTable>,
    ranks: Arc<[u32]>,
}

impl HandedOverList {
    pub(crate) fn is_empty(&self) -> bool {
        self.ranks.is_empty()
    }

    /// Writes the list's names as lines at `depth` (`\n`, the indentation and the name's JSON
    /// string, after a `,` but for the first), consecutive ranks' lines in one piece; false,
    /// writing nothing, past the depths a table keeps lines for.
    pub(crate) fn write_lines<E>(
        &self,
        depth: usize,
        mut write: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<bool, E> {
        let Some(lines) = self.table.lines(depth) else {
            return Ok(false);
        };
        let mut run: Option<Range<usize>> = None;
        let mut first = true;
        let mut flush = |run: Range<usize>| {
            // The first line's comma is the list's opening bracket's business.
            let start = run.start + usize::from(std::mem::take(&mut first));
            write(lines.as_bytes().get(start..run.end).unwrap_or_default())
        };
        for &rank in self.ranks.iter() {
            let line = self.table.line(depth, rank as usize);
            match &mut run {
                Some(run) if run.end == line.start => run.end = line.end,
                _ => {
                    if let Some(done) = run.replace(line) {
                        flush(done)?;
                    }
                }
            }
        }
        run.map_or(Ok(()), flush)?;
        Ok(true)
    }

    /// Each name's JSON string, in the list's order.
    pub(crate) fn names(&self) -> impl Iterator<Item = &[u8]> + '_ {
        let lines = self.table.lines(0).unwrap_or_default().as_bytes();
        self.ranks.iter().map(move |&rank| {
            let line = self.table.line(0, rank as usize);
            // A line at depth 0 is `,`, the new line and the JSON string.
            lines.get(line.start + 2..line.end).unwrap_or_default()
        })
    }
}

/// The list handed over, when `fragment` is the fragment written in its place.
pub(crate) fn listed(fragment: &str) -> Option<HandedOverList> {
    std::ptr::eq(fragment.as_ptr(), HANDED_OVER.get().as_ptr())
        .then(|| LISTED.with(|listed| listed.borrow_mut().take()))
        .flatten()
}

/// Runs `write`, which serializes with serde_json and [`JsonFormatter`] and nothing else, with
/// the ranked cluster lists handed to the formatter whole ([`HandedOverList`]). A `Serialize` impl
/// cannot ask its serializer what format it writes (a raw fragment means something else to
/// YAML), so the writer says so for the thread it runs on.
///
/// [`JsonFormatter`]: crate::render::escape::JsonFormatter
///
/// A list handed over that never reached the formatter (a serializer that buffers what it is
/// given reads the fragment as an empty list) is an error, never an empty list written.
pub(crate) fn written_as_json<T>(
    write: impl FnOnce() -> serde_json::Result<T>,
) -> serde_json::Result<T> {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            WRITING_JSON.with(|writing| writing.set(self.0));
            // A list handed over that a failed write never reached is not the next one's.
            LISTED.with(|listed| listed.borrow_mut().take());
        }
    }
    let _restore = Restore(WRITING_JSON.with(|writing| writing.replace(true)));
    let written = write()?;
    if LISTED.with(|listed| listed.borrow_mut().take()).is_some() {
        return Err(serde::ser::Error::custom(NOT_WRITTEN));
    }
    Ok(written)
}

/// Why a write whose handed-over cluster list never reached the formatter fails.
const NOT_WRITTEN: &str = "a cluster list handed to the JSON formatter was not written by it";

/// A list of cluster names: behaves (compares, serializes, iterates) as the `Vec<String>` it
/// replaces, whichever way it holds them.
///
/// A ranked list is shared, not copied, when cloned: a placement's clusters are also the
/// clusters of each Policy, application or add-on it places (10k Policies over a 100k-cluster
/// fleet's placements copied ~4M ranks, and held them twice, in the item and its trace).
#[derive(Clone, Default)]
pub struct ClusterNames(Held);

#[derive(Clone)]
enum Held {
    Owned(Vec<String>),
    Ranked {
        table: Arc<NameTable>,
        ranks: Arc<[u32]>,
    },
}

impl Default for Held {
    fn default() -> Self {
        Held::Owned(Vec::new())
    }
}

impl ClusterNames {
    /// The names of `ranks` in `table`, in the order given.
    pub fn ranked(table: &Arc<NameTable>, ranks: impl IntoIterator<Item = usize>) -> ClusterNames {
        let ranks = ranks
            .into_iter()
            .map(|rank| {
                debug_assert!(rank < table.len(), "rank {rank} outside the name table");
                // A fleet of 2^32 clusters would not fit in memory: each takes far more
                // than a byte.
                u32::try_from(rank).expect("fewer than 2^32 clusters")
            })
            .collect();
        ClusterNames(Held::Ranked {
            table: Arc::clone(table),
            ranks,
        })
    }

    pub fn len(&self) -> usize {
        match &self.0 {
            Held::Owned(names) => names.len(),
            Held::Ranked { ranks, .. } => ranks.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, position: usize) -> Option<&str> {
        match &self.0 {
            Held::Owned(names) => names.get(position).map(String::as_str),
            Held::Ranked { table, ranks } => {
                let &rank = ranks.get(position)?;
                Some(table.name(rank as usize))
            }
        }
    }

    pub fn iter(&self) -> Iter<'_> {
        Iter(match &self.0 {
            Held::Owned(names) => Listed::Owned(names.iter()),
            Held::Ranked { table, ranks } => Listed::Ranked(table, ranks.iter()),
        })
    }

    /// Where `name` is, in a list sorted by name (as plans list clusters).
    pub fn binary_search(&self, name: &str) -> Result<usize, usize> {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let middle = low + (high - low) / 2;
            match self.get(middle).unwrap_or_default().cmp(name) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Ok(middle),
            }
        }
        Err(low)
    }

    /// The names joined by `separator`, as `[String]::join` would.
    pub fn join(&self, separator: &str) -> String {
        let mut joined = String::new();
        for (position, name) in self.iter().enumerate() {
            if position > 0 {
                joined.push_str(separator);
            }
            joined.push_str(name);
        }
        joined
    }

    pub fn to_vec(&self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }
}

/// The names of a [`ClusterNames`], in its order.
#[derive(Clone)]
pub struct Iter<'a>(Listed<'a>);

#[derive(Clone)]
enum Listed<'a> {
    Owned(std::slice::Iter<'a, String>),
    Ranked(&'a NameTable, std::slice::Iter<'a, u32>),
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        match &mut self.0 {
            Listed::Owned(names) => names.next().map(String::as_str),
            Listed::Ranked(table, ranks) => ranks.next().map(|&rank| table.name(rank as usize)),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.0 {
            Listed::Owned(names) => names.size_hint(),
            Listed::Ranked(_, ranks) => ranks.size_hint(),
        }
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            Listed::Owned(names) => names.next_back().map(String::as_str),
            Listed::Ranked(table, ranks) => {
                ranks.next_back().map(|&rank| table.name(rank as usize))
            }
        }
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a ClusterNames {
    type Item = &'a str;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl From<Vec<String>> for ClusterNames {
    fn from(names: Vec<String>) -> Self {
        ClusterNames(Held::Owned(names))
    }
}

impl FromIterator<String> for ClusterNames {
    fn from_iter<I: IntoIterator<Item = String>>(names: I) -> Self {
        ClusterNames(Held::Owned(names.into_iter().collect()))
    }
}

impl PartialEq for ClusterNames {
    fn eq(&self, other: &Self) -> bool {
        if let (
            Held::Ranked { table, ranks },
            Held::Ranked {
                table: other_table,
                ranks: other_ranks,
            },
        ) = (&self.0, &other.0)
        {
            if Arc::ptr_eq(table, other_table) {
                return Arc::ptr_eq(ranks, other_ranks) || ranks == other_ranks;
            }
        }
        self.iter().eq(other.iter())
    }
}

impl Eq for ClusterNames {}

impl<S: AsRef<str>> PartialEq<[S]> for ClusterNames {
    fn eq(&self, other: &[S]) -> bool {
        self.iter().eq(other.iter().map(AsRef::as_ref))
    }
}

impl<S: AsRef<str>, const N: usize> PartialEq<[S; N]> for ClusterNames {
    fn eq(&self, other: &[S; N]) -> bool {
        *self == other[..]
    }
}

impl<S: AsRef<str>> PartialEq<Vec<S>> for ClusterNames {
    fn eq(&self, other: &Vec<S>) -> bool {
        *self == other[..]
    }
}

impl fmt::Debug for ClusterNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for ClusterNames {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Held::Ranked { table, ranks }
                if WRITING_JSON.with(Cell::get) && table.lines(0).is_some() =>
            {
                let list = HandedOverList {
                    table: Arc::clone(table),
                    ranks: Arc::clone(ranks),
                };
                // The list handed over before this one was never written.
                if LISTED
                    .with(|listed| listed.borrow_mut().replace(list))
                    .is_some()
                {
                    return Err(serde::ser::Error::custom(NOT_WRITTEN));
                }
                HANDED_OVER.serialize(serializer)
            }
            _ => serializer.collect_seq(self.iter()),
        }
    }
}

impl<'de> Deserialize<'de> for ClusterNames {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<String>::deserialize(deserializer).map(ClusterNames::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Arc<NameTable> {
        Arc::new(NameTable::new(["", "a", "bravo", "charlie-2"]))
    }

    #[test]
    fn each_rank_names_its_cluster() {
        let table = table();
        let names: Vec<&str> = (0..table.len()).map(|rank| table.name(rank)).collect();
        assert_eq!(names, ["", "a", "bravo", "charlie-2"]);
    }

    #[test]
    fn ranked_and_owned_lists_of_the_same_names_are_equal() {
        let ranked = ClusterNames::ranked(&table(), [1, 3]);
        let owned = ClusterNames::from(vec!["a".to_string(), "charlie-2".to_string()]);
        assert_eq!(ranked, owned);
        assert_eq!(ranked, ["a", "charlie-2"]);
        assert_ne!(ranked, ClusterNames::ranked(&table(), [1, 2]));
        assert_eq!(ranked.to_vec(), owned.to_vec());
    }

    /// Lists of one table compare by rank, of two tables (a plan against one planned over
    /// another fleet) by name: equal names are equal, and a changed list never reads as equal.
    #[test]
    fn ranked_lists_are_equal_exactly_when_their_names_are() {
        let one = table();
        let other = Arc::new(NameTable::new(["a", "bravo", "charlie-2", "delta"]));
        let list = ClusterNames::ranked(&one, [1, 3]);
        let cases = [
            (ClusterNames::ranked(&one, [1, 3]), true),
            (ClusterNames::ranked(&one, [1, 2]), false),
            (ClusterNames::ranked(&one, [1]), false),
            (ClusterNames::ranked(&other, [0, 2]), true),
            // The same ranks in another table are other names.
            (ClusterNames::ranked(&other, [1, 3]), false),
        ];
        for (against, equal) in cases {
            assert_eq!(list == against, equal, "{list:?} against {against:?}");
            assert_eq!(against == list, equal, "{against:?} against {list:?}");
        }
    }

    #[test]
    fn a_ranked_list_serializes_and_reads_back_as_the_names() {
        let ranked = ClusterNames::ranked(&table(), [1, 2, 3]);
        let json = serde_json::to_string(&ranked).unwrap();
        assert_eq!(json, r#"["a","bravo","charlie-2"]"#);
        let read: ClusterNames = serde_json::from_str(&json).unwrap();
        assert_eq!(read, ranked);
        assert_eq!(format!("{read:?}"), format!("{ranked:?}"));
    }

    /// Written as JSON fragments, a list is the same text serde_json writes for its names,
    /// escapes included for the names that need them.
    #[test]
    fn a_ranked_list_written_as_json_fragments_is_serde_json_s_text() {
        let table = Arc::new(NameTable::new([
            "a",
            "b\"c",
            "d\\e",
            "f\u{202e}g",
            "h\u{7f}",
            "i-2.x",
        ]));
        let ranked = ClusterNames::ranked(&table, 0..table.len());
        let expected = crate::render::escape::json_pretty(&ranked.to_vec()).unwrap();
        for _ in 0..2 {
            let written = written_as_json(|| crate::render::escape::json_pretty(&ranked)).unwrap();
            assert_eq!(written, expected);
        }
        // A name to escape: the table's lists go name by name.
        assert_eq!(table.lines(0), None);
        assert!(!WRITING_JSON.with(Cell::get));
    }

    /// A list handed to the formatter whole is written as serde_json writes its names, at any
    /// depth, empty or of one name, beside lists of names and other values.
    #[test]
    fn a_list_handed_over_whole_is_serde_json_s_text_at_any_depth() {
        let table = Arc::new(NameTable::new(["", "a", "bravo", "charlie-2", "d.e_f"]));
        assert_eq!(
            table.lines(1),
            Some(",\n  \"\",\n  \"a\",\n  \"bravo\",\n  \"charlie-2\",\n  \"d.e_f\"")
        );
        let list = |ranks: &[usize]| ClusterNames::ranked(&table, ranks.iter().copied());
        /// A list inside `.0` lists of one element: past the depths a table keeps lines for.
        struct Nested<T>(usize, T);
        struct Deep<'a, T>(usize, &'a T);
        impl<T: Serialize> Serialize for Nested<T> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                Deep(self.0, &self.1).serialize(serializer)
            }
        }
        impl<T: Serialize> Serialize for Deep<'_, T> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self.0.checked_sub(1) {
                    Some(inner) => [Deep(inner, self.1)].serialize(serializer),
                    None => self.1.serialize(serializer),
                }
            }
        }
        #[derive(Serialize)]
        struct Item<T> {
            clusters: T,
            groups: Vec<std::collections::BTreeMap<&'static str, T>>,
            waves: Vec<Vec<T>>,
            deep: Nested<T>,
            owned: ClusterNames,
            after: u8,
        }
        let item = Item {
            clusters: list(&[1, 2, 3]),
            groups: vec![
                [("clusters", list(&[0])), ("empty", list(&[]))].into(),
                [].into(),
            ],
            waves: vec![vec![list(&[4, 1]), list(&[])], vec![]],
            deep: Nested(LINE_DEPTHS, list(&[1, 2, 4])),
            owned: ClusterNames::from(vec!["x".to_string()]),
            after: 1,
        };
        let plain = Item {
            clusters: item.clusters.to_vec(),
            groups: item
                .groups
                .iter()
                .map(|group| {
                    group
                        .iter()
                        .map(|(key, names)| (*key, names.to_vec()))
                        .collect()
                })
                .collect(),
            waves: vec![
                vec![vec!["d.e_f".to_string(), "a".to_string()], vec![]],
                vec![],
            ],
            deep: Nested(LINE_DEPTHS, item.deep.1.to_vec()),
            owned: item.owned.clone(),
            after: 1,
        };
        let expected = crate::render::escape::json_pretty(&plain).unwrap();
        let written = written_as_json(|| crate::render::escape::json_pretty(&item)).unwrap();
        assert_eq!(written, expected);
        // Outside `written_as_json` the same lists go through serde_json name by name.
        assert_eq!(crate::render::escape::json_pretty(&item).unwrap(), expected);
        assert!(LISTED.with(|listed| listed.borrow().is_none()));
    }

    /// A name with a byte JSON escapes, or that is not printable ASCII, anywhere in the table
    /// (on either side of the blocks it is judged in): no lines, the lists written name by
    /// name; printable ASCII alone has them.
    #[test]
    fn a_table_with_a_name_to_escape_has_no_lines() {
        for bad in ['"', '\\', '\n', '\u{7f}', '\u{1f}', 'é'] {
            for at in [0, 254, 255, 256, 399] {
                let mut name = "x".repeat(400);
                name.replace_range(at..=at, &bad.to_string());
                let table = NameTable::new(["a", name.as_str()]);
                assert_eq!(table.lines(2), None, "{bad:?} at {at}");
                assert_eq!(table.lines(4), None, "{bad:?} at {at}");
            }
        }
        let printable: String = (b' '..=b'~')
            .filter(|byte| !matches!(byte, b'"' | b'\\'))
            .map(char::from)
            .collect();
        let table = NameTable::new(["a", printable.repeat(5).as_str()]);
        assert!(table.lines(2).is_some());
    }

    /// A serializer that buffers what it is given (here serde_json's `Value`, as a flattened
    /// enum's content would be) never sees the formatter: the list it would read as `[]` is
    /// an error, the first of two lists as well as the last.
    #[test]
    fn a_handed_over_list_that_never_reaches_the_formatter_is_an_error() {
        let ranked = ClusterNames::ranked(&table(), [1, 2]);
        for lists in [vec![ranked.clone()], vec![ranked.clone(), ranked.clone()]] {
            let error = written_as_json(|| {
                let buffered = serde_json::to_value(&lists)?;
                crate::render::escape::json_pretty(&buffered)
            })
            .unwrap_err();
            assert_eq!(error.to_string(), NOT_WRITTEN);
            assert!(LISTED.with(|listed| listed.borrow().is_none()));
        }
    }

    #[test]
    fn iterates_both_ways_and_searches_by_name() {
        let ranked = ClusterNames::ranked(&table(), [1, 2, 3]);
        assert_eq!(
            ranked.iter().rev().collect::<Vec<_>>(),
            ["charlie-2", "bravo", "a"]
        );
        assert_eq!(ranked.iter().len(), 3);
        assert_eq!(ranked.binary_search("bravo"), Ok(1));
        assert_eq!(ranked.binary_search("b"), Err(1));
        assert_eq!(ranked.get(3), None);
        assert_eq!(ranked.join(", "), "a, bravo, charlie-2");
    }
}
