//! Cluster names as a plan carries them: ranks into one shared table of the fleet's names when
//! planned, owned names when read back from a file (`--previous`).
//!
//! A 100k-cluster fleet's plan lists millions of selected names. As one `String` each they
//! were millions of small allocations (malloc and free ~10% of a run) and page faults; as
//! `Arc<str>` each they would still be 100k scattered allocations, a cache miss per name at
//! first touch. A rank is four bytes, and the names it stands for are read, in order, from one
//! string of a few MB when the plan is written.

use std::cell::Cell;
use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// Every cluster name of a fleet in one string, by rank (a fleet's name order). Shared by every
/// plan item that lists its clusters by rank.
#[derive(Debug, Default)]
pub struct NameTable {
    text: String,
    /// Where the name of each rank ends in `text`.
    ends: Vec<usize>,
    /// Each name as the JSON string a plan writes, made the first time a plan is written as
    /// JSON (see [`written_as_json`]); `None` for a name that needs an escape.
    json: OnceLock<Vec<Option<Box<RawValue>>>>,
}

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

    /// Each name's JSON string by rank, quoted, where nothing in it is escaped: printable
    /// ASCII but for the quote and the backslash, so serde_json and [`JsonFormatter`] would
    /// write it as it is (`None` for any other name). A fleet's names are validated when read,
    /// so this is every name of a real fleet; the text is made once per table, not once per
    /// list that names it.
    ///
    /// [`JsonFormatter`]: crate::render::escape::JsonFormatter
    fn json(&self) -> &[Option<Box<RawValue>>] {
        let verbatim = |name: &str| {
            name.bytes()
                .all(|byte| (b' '..=b'~').contains(&byte) && byte != b'"' && byte != b'\\')
        };
        self.json.get_or_init(|| {
            (0..self.len())
                .map(|rank| {
                    let name = self.name(rank);
                    // Serialized, not parsed: the text is known to be a JSON string. serde_json
                    // writes any `str`, so this never fails; were it to, `None` only sends the
                    // name down the escaping path, which writes the same text.
                    verbatim(name)
                        .then(|| serde_json::value::to_raw_value(name).ok())
                        .flatten()
                })
                .collect()
        })
    }
}

thread_local! {
    /// Whether the serializer at work on this thread is serde_json's (see [`written_as_json`]).
    static WRITING_JSON: Cell<bool> = const { Cell::new(false) };
}

/// Runs `write`, which serializes with serde_json and nothing else, with the cluster lists of
/// name tables written as JSON fragments made once per name: a plan writes millions of names,
/// and escaping each again (serde_json's scan and [`JsonFormatter`]'s) was ~4% of a 100k-cluster
/// run. A `Serialize` impl cannot ask its serializer what format it writes (a raw fragment
/// means something else to YAML), so the writer says so for the thread it runs on.
///
/// [`JsonFormatter`]: crate::render::escape::JsonFormatter
pub(crate) fn written_as_json<T>(write: impl FnOnce() -> T) -> T {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            WRITING_JSON.with(|writing| writing.set(self.0));
        }
    }
    let _restore = Restore(WRITING_JSON.with(|writing| writing.replace(true)));
    write()
}

/// A list of cluster names: behaves (compares, serializes, iterates) as the `Vec<String>` it
/// replaces, whichever way it holds them.
///
/// A ranked list is shared, not copied, when cloned: a placement's clusters are also the
/// clusters of each Policy, Subscription or add-on it places (10k Policies over a 100k-cluster
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
            Held::Ranked { table, ranks } if WRITING_JSON.with(Cell::get) => {
                // Fetched once per list: the lookup is an atomic load.
                let json = table.json();
                serializer.collect_seq(ranks.iter().map(|&rank| {
                    let rank = rank as usize;
                    match json.get(rank) {
                        Some(Some(text)) => Name::Json(text),
                        _ => Name::Text(table.name(rank)),
                    }
                }))
            }
            _ => serializer.collect_seq(self.iter()),
        }
    }
}

/// A name as [`ClusterNames`] serializes it for serde_json: its JSON text when it has one.
enum Name<'a> {
    Text(&'a str),
    Json(&'a RawValue),
}

impl Serialize for Name<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Name::Text(name) => serializer.serialize_str(name),
            Name::Json(json) => json.serialize(serializer),
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
        let json = table.json();
        assert!(json[0].is_some() && json[5].is_some());
        assert!(json[1..5].iter().all(Option::is_none));
        assert!(!WRITING_JSON.with(Cell::get));
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
