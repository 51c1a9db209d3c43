//! A unified diff of two rendered plans, for reading what `diff` found line by line.
//!
//! The plans are diffed piece by piece (the head, then each item), not as two whole texts:
//! a plan's lines are rarely unique (every item lists the same clusters, fleets name their
//! apps alike in every namespace), so a whole-text patience diff found few anchors and fell
//! back to Myers over most of the plan, O(N×D) in the plan's lines and the changed ones (1.4
//! s for 200 new items over 200 clusters; thousands were a hang). Items are keyed, so the
//! pieces are matched by key instead: an item in both plans is diffed with itself (skipped
//! when its text is equal), an item in one plan only is all removed or all added. Line
//! numbers count from each whole text, so the hunks are the whole documents' unified diff.

use std::collections::BTreeMap;
use std::ops::Range;

use similar::udiff::UnifiedHunkHeader;
use similar::{capture_diff, group_diff_ops, Algorithm, DiffOp, DiffableStr};

use super::paint::{paint, Colour};

const CONTEXT_LINES: usize = 3;

/// `--- previous` / `+++ current` followed by hunks with three lines of context; empty when
/// the two texts are equal. Each text is given as its pieces in order, each with its key:
/// pieces with the same key in both texts are diffed with each other. Every piece but a
/// text's last ends in a new line, so no line spans two pieces.
pub(super) fn unified_diff<K: Ord>(
    previous: &[(K, &str)],
    current: &[(K, &str)],
    color: bool,
) -> String {
    let previous = Lines::new(previous);
    let current = Lines::new(current);
    let ops = line_ops(&previous, &current);
    let mut out = String::new();
    for hunk in group_diff_ops(ops, CONTEXT_LINES) {
        if out.is_empty() {
            paint(&mut out, "--- previous", Some(Colour::Header), color);
            out.push('\n');
            paint(&mut out, "+++ current", Some(Colour::Header), color);
            out.push('\n');
        }
        // A line's first character says what it is; the hunk's header is its first line.
        for (position, line) in hunk_text(&hunk, &previous.lines, &current.lines)
            .split_inclusive('\n')
            .enumerate()
        {
            let (text, newline) = match line.strip_suffix('\n') {
                Some(text) => (text, "\n"),
                None => (line, ""),
            };
            let colour = match text.chars().next() {
                _ if position == 0 => Some(Colour::Hunk),
                Some('+') => Some(Colour::Added),
                Some('-') => Some(Colour::Removed),
                _ => None,
            };
            paint(&mut out, text, colour, color);
            out.push_str(newline);
        }
    }
    out
}

/// A text's lines as `similar` splits them, and which of them each piece holds.
struct Lines<'t, K> {
    lines: Vec<&'t str>,
    pieces: Vec<(&'t K, Range<usize>)>,
}

impl<'t, K> Lines<'t, K> {
    fn new(pieces: &'t [(K, &'t str)]) -> Self {
        let mut lines = Vec::new();
        let pieces = pieces
            .iter()
            .map(|(key, text)| {
                let start = lines.len();
                lines.extend(text.tokenize_lines());
                (key, start..lines.len())
            })
            .collect();
        Lines { lines, pieces }
    }

    /// Whether `lines` begins and ends where pieces do: the lines of whole pieces.
    fn whole_pieces(&self, lines: &Range<usize>) -> bool {
        let starts = |line: usize| {
            line == self.lines.len()
                || self
                    .pieces
                    .binary_search_by_key(&line, |(_, piece)| piece.start)
                    .is_ok()
        };
        starts(lines.start) && starts(lines.end)
    }

    /// The lines of pieces `pieces`.
    fn of(&self, pieces: Range<usize>) -> Range<usize> {
        let start = self
            .pieces
            .get(pieces.start)
            .map_or(self.lines.len(), |(_, lines)| lines.start);
        let end = pieces
            .end
            .checked_sub(1)
            .and_then(|last| self.pieces.get(last))
            .map_or(start, |(_, lines)| lines.end);
        start..end
    }
}

/// The whole texts' diff as `similar`'s ops, each run of changed lines as its removed lines
/// then its added ones (as `similar` writes a replaced run).
fn line_ops<K: Ord>(previous: &Lines<'_, K>, current: &Lines<'_, K>) -> Vec<DiffOp> {
    let mut ops = Ops::default();
    let (mut previous_piece, mut current_piece) = (0, 0);
    let matched = matched_pieces(previous, current);
    let ends = std::iter::once((previous.pieces.len(), current.pieces.len()));
    for (before, after) in matched.into_iter().chain(ends) {
        let removed = previous.of(previous_piece..before);
        let added = current.of(current_piece..after);
        ops.change(removed.start, removed.len(), added.start, added.len());
        if let (Some((_, old)), Some((_, new))) =
            (previous.pieces.get(before), current.pieces.get(after))
        {
            if previous.lines[old.clone()] == current.lines[new.clone()] {
                ops.equal(old.start, new.start, old.len());
            } else {
                let piece_ops = capture_diff(
                    Algorithm::Patience,
                    &previous.lines[..],
                    old.clone(),
                    &current.lines[..],
                    new.clone(),
                );
                piece_ops.iter().for_each(|op| ops.push(op));
            }
        }
        (previous_piece, current_piece) = (before + 1, after + 1);
    }
    slid_down(ops.finish(), previous, current)
}

/// `ops` with each run of whole pieces only removed or only added moved down past the lines
/// that follow it as long as they equal its first ones, as the whole texts' diff placed it
/// (similar strips the lines two texts share at the start of a stretch between anchors, so a
/// removed item is shown from its second line on, up to the next item's heading: `- source:`
/// and the lines both items begin with). Only whole pieces move: what an item's own diff
/// gives is `similar`'s already.
fn slid_down<K>(ops: Vec<DiffOp>, previous: &Lines<'_, K>, current: &Lines<'_, K>) -> Vec<DiffOp> {
    let mut slid = Ops::default();
    let mut ops = ops.into_iter().peekable();
    while let Some(op) = ops.next() {
        let (old, new) = (op.old_range(), op.new_range());
        // The run's lines, in the text that has them.
        let (lines, run) = match op {
            DiffOp::Equal { .. } => {
                slid.equal(old.start, new.start, old.len());
                continue;
            }
            DiffOp::Delete { .. } if previous.whole_pieces(&old) => (&previous.lines, &old),
            DiffOp::Insert { .. } if current.whole_pieces(&new) => (&current.lines, &new),
            _ => {
                slid.change(old.start, old.len(), new.start, new.len());
                continue;
            }
        };
        let following = match ops.peek() {
            Some(&DiffOp::Equal { len, .. }) => len,
            _ => 0,
        };
        let shift = (0..following)
            .take_while(|k| lines[run.start + k] == lines[run.end + k])
            .count();
        slid.equal(old.start, new.start, shift);
        slid.change(old.start + shift, old.len(), new.start + shift, new.len());
        if shift > 0 {
            slid.equal(old.end + shift, new.end + shift, following - shift);
            ops.next();
        }
    }
    slid.finish()
}

/// Pieces with the same key in both texts, as (previous, current) positions in increasing
/// order of both: the most of them that can be kept in both texts' order (every one when the
/// texts list their keys in the same order, as plans do). A key found more than once in a
/// text (a hand-edited previous plan) pairs its first occurrence with the other text's first,
/// its second with the second, and so on.
fn matched_pieces<K: Ord>(previous: &Lines<'_, K>, current: &Lines<'_, K>) -> Vec<(usize, usize)> {
    let in_current: BTreeMap<_, usize> = numbered(&current.pieces)
        .enumerate()
        .map(|(position, key)| (key, position))
        .collect();
    let pairs: Vec<(usize, usize)> = numbered(&previous.pieces)
        .enumerate()
        .filter_map(|(position, key)| Some((position, *in_current.get(&key)?)))
        .collect();
    longest_increasing(&pairs)
}

/// Each piece's key with how many times it came before.
fn numbered<'p, K: Ord>(
    pieces: &'p [(&K, Range<usize>)],
) -> impl Iterator<Item = (&'p K, usize)> + 'p {
    let mut seen: BTreeMap<&K, usize> = BTreeMap::new();
    pieces.iter().map(move |(key, _)| {
        let count = seen.entry(*key).or_default();
        *count += 1;
        (*key, *count)
    })
}

/// The longest run of `pairs` (in increasing order of their first position) whose second
/// positions increase too; the earliest such run when there are several. Patience sorting,
/// O(n log n).
fn longest_increasing(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // `tails[k]`: the pair ending the best run of length k + 1 found so far (the one with the
    // smallest second position); `before[i]`: the pair before pair i in its run.
    let mut tails: Vec<usize> = Vec::new();
    let mut before: Vec<Option<usize>> = Vec::with_capacity(pairs.len());
    for (index, (_, position)) in pairs.iter().enumerate() {
        let length = tails.partition_point(|&tail| pairs[tail].1 < *position);
        before.push(length.checked_sub(1).map(|previous| tails[previous]));
        if length == tails.len() {
            tails.push(index);
        } else {
            tails[length] = index;
        }
    }
    let mut run = Vec::with_capacity(tails.len());
    let mut next = tails.last().copied();
    while let Some(index) = next {
        run.push(pairs[index]);
        next = before[index];
    }
    run.reverse();
    run
}

/// Ops gathered piece by piece, joined as one diff of the whole texts: adjacent equal runs
/// are one (a hunk's context is counted over both), adjacent changes one replaced run.
#[derive(Default)]
struct Ops {
    done: Vec<DiffOp>,
    /// The changed run being gathered: its first removed and added lines and their counts.
    change: Option<(usize, usize, usize, usize)>,
}

impl Ops {
    fn push(&mut self, op: &DiffOp) {
        let (old, new) = (op.old_range(), op.new_range());
        match op {
            DiffOp::Equal { .. } => self.equal(old.start, new.start, old.len()),
            _ => self.change(old.start, old.len(), new.start, new.len()),
        }
    }

    fn equal(&mut self, old_index: usize, new_index: usize, len: usize) {
        if len == 0 {
            return;
        }
        self.flush_change();
        if let Some(DiffOp::Equal { len: last, .. }) = self.done.last_mut() {
            *last += len;
        } else {
            self.done.push(DiffOp::Equal {
                old_index,
                new_index,
                len,
            });
        }
    }

    fn change(&mut self, old_index: usize, old_len: usize, new_index: usize, new_len: usize) {
        if old_len == 0 && new_len == 0 {
            return;
        }
        let run = self.change.get_or_insert((old_index, 0, new_index, 0));
        run.1 += old_len;
        run.3 += new_len;
    }

    fn flush_change(&mut self) {
        let Some((old_index, old_len, new_index, new_len)) = self.change.take() else {
            return;
        };
        self.done.push(match (old_len, new_len) {
            (_, 0) => DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            },
            (0, _) => DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            },
            _ => DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            },
        });
    }

    fn finish(mut self) -> Vec<DiffOp> {
        self.flush_change();
        self.done
    }
}

/// One hunk as `similar` writes it: its header, then each line after its tag, a line without
/// a final new line followed by the `\ No newline at end of file` marker.
fn hunk_text(ops: &[DiffOp], previous: &[&str], current: &[&str]) -> String {
    let mut text = format!("{}\n", UnifiedHunkHeader::new(ops));
    for op in ops {
        for change in op.iter_changes(previous, current) {
            text.push_str(&change.tag().to_string());
            text.push_str(change.value());
            if change.missing_newline() {
                text.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use similar::TextDiff;

    use super::*;

    /// Two texts as one piece each.
    fn whole(previous: &str, current: &str, color: bool) -> String {
        unified_diff(&[((), previous)], &[((), current)], color)
    }

    #[test]
    fn equal_texts_give_an_empty_diff() {
        assert_eq!(whole("a: 1\n", "a: 1\n", false), "");
    }

    #[test]
    fn a_changed_line_is_shown_with_headers_and_three_lines_of_context() {
        let previous = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let current = "a\nb\nc\nd\nE\nf\ng\nh\n";
        assert_eq!(
            whole(previous, current, false),
            "--- previous\n+++ current\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n"
        );
    }

    #[test]
    fn colour_marks_headers_hunks_removals_and_additions() {
        assert_eq!(
            whole("a\n", "b\n", true),
            "\x1b[1m--- previous\x1b[0m\n\x1b[1m+++ current\x1b[0m\n\
             \x1b[36m@@ -1 +1 @@\x1b[0m\n\x1b[31m-a\x1b[0m\n\x1b[32m+b\x1b[0m\n"
        );
    }

    #[test]
    fn without_colour_there_are_no_escape_sequences() {
        assert!(!whole("a\n", "b\n", false).contains('\x1b'));
    }

    #[test]
    fn a_missing_final_newline_is_marked() {
        assert_eq!(
            whole("a\n", "a\nb", false),
            "--- previous\n+++ current\n@@ -1 +1,2 @@\n a\n+b\n\\ No newline at end of file\n"
        );
    }

    /// `similar`'s own unified diff of the two whole texts.
    fn similar_whole(previous: &str, current: &str) -> String {
        let diff = TextDiff::configure()
            .algorithm(Algorithm::Patience)
            .diff_lines(previous, current);
        let mut unified = diff.unified_diff();
        unified.context_radius(CONTEXT_LINES);
        unified.header("previous", "current").to_string()
    }

    /// What one piece alone gives is what `similar` gives for the whole texts.
    #[test]
    fn one_piece_is_similars_unified_diff() {
        let previous = "k: 1\na\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n";
        let current = "k: 2\na\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk\nL\nm\nn\nextra";
        for (previous, current) in [(previous, current), (current, previous), ("", current)] {
            assert_eq!(
                whole(previous, current, false),
                similar_whole(previous, current)
            );
        }
    }

    /// Pieces keyed by name, changed apart: context runs across pieces and line numbers count
    /// from each whole text, exactly as the whole texts' diff.
    #[test]
    fn keyed_pieces_give_the_whole_texts_diff() {
        let previous = [
            ("head", "kind: Plan\nitems:\n"),
            ("a", "- a\n  1\n  2\n"),
            ("b", "- b\n  1\n  2\n  3\n  4\n  5\n  6\n  7\n"),
            ("c", "- c\n  1\n"),
        ];
        let current = [
            ("head", "kind: Plan\nitems:\n"),
            ("a", "- a\n  1\n  2\n"),
            ("b", "- b\n  1\n  2\n  3\n  4\n  5\n  6\n  8\n"),
            ("c", "- c\n  2\n"),
            ("d", "- d\n"),
        ];
        let joined = |pieces: &[(&str, &str)]| pieces.iter().map(|(_, text)| *text).collect();
        let (previous_text, current_text): (String, String) = (joined(&previous), joined(&current));
        assert_eq!(
            unified_diff(&previous, &current, false),
            similar_whole(&previous_text, &current_text)
        );
    }

    #[test]
    fn the_longest_run_in_both_orders_is_kept() {
        assert_eq!(
            longest_increasing(&[(0, 2), (1, 0), (2, 1), (3, 3)]),
            vec![(1, 0), (2, 1), (3, 3)]
        );
        assert_eq!(longest_increasing(&[]), vec![]);
    }
}
