//! Plain, kubectl-like tables (no borders, no colour): columns separated by spaces, fitted to
//! the terminal's width when there is one, never wrapped when piped.

use std::fmt::Write as _;

use comfy_table::presets::NOTHING;
use comfy_table::{ColumnConstraint, ContentArrangement, Table, Width};

/// Space comfy-table puts after each column (`set_padding((0, 3))`).
const COLUMN_PADDING: u16 = 3;

/// Renders `rows` under `header`; each line ends with a newline and has no trailing spaces.
pub(crate) fn render(header: Vec<String>, rows: Vec<Vec<String>>, width: Option<u16>) -> String {
    if width.is_none() {
        if let Some(text) = aligned(&header, &rows) {
            return text;
        }
    }
    // Fitted to a terminal, cells wrap at spaces only: a column is at least as wide as its
    // longest word, so a cluster or item name is never broken (kubectl never wraps them
    // either); a table that cannot fit is wider than the terminal instead.
    let columns = rows
        .iter()
        .map(Vec::len)
        .chain([header.len()])
        .max()
        .unwrap_or(0);
    let longest_words: Vec<u16> = (0..columns)
        .map(|column| {
            std::iter::once(&header)
                .chain(&rows)
                .filter_map(|row| row.get(column))
                .flat_map(|cell| cell.split_whitespace())
                .map(|word| u16::try_from(word.chars().count()).unwrap_or(u16::MAX))
                .max()
                .unwrap_or_default()
        })
        .collect();
    let mut table = Table::new();
    table.load_preset(NOTHING).force_no_tty();
    match width {
        Some(width) => {
            table
                .set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(width);
        }
        None => {
            table.set_content_arrangement(ContentArrangement::Disabled);
        }
    }
    table.set_header(header);
    table.add_rows(rows);
    for (index, column) in table.column_iter_mut().enumerate() {
        column.set_padding((0, COLUMN_PADDING));
        if let (Some(_), Some(longest)) = (width, longest_words.get(index)) {
            let lower = longest.saturating_add(COLUMN_PADDING);
            column.set_constraint(ColumnConstraint::LowerBoundary(Width::Fixed(lower)));
        }
    }
    let mut text = String::new();
    for line in table.lines() {
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// The table comfy-table lays out when nothing is fitted (each column as wide as its widest
/// cell, then three spaces), written directly when every cell is plain: printable ASCII, one
/// column per byte, on one line, without spaces at either end (which comfy-table would keep
/// or split). A plan table of 10k placements is a million rows, and comfy-table's general
/// layout (Unicode widths, line splitting, styling per cell) was most of its rendering time.
fn aligned(header: &[String], rows: &[Vec<String>]) -> Option<String> {
    let lines = || std::iter::once(header).chain(rows.iter().map(Vec::as_slice));
    let mut widths: Vec<usize> = Vec::new();
    for line in lines() {
        for (column, cell) in line.iter().enumerate() {
            if !plain(cell) {
                return None;
            }
            match widths.get_mut(column) {
                Some(width) => *width = (*width).max(cell.len()),
                // comfy-table gives a column of empty cells one space of content.
                None => widths.push(cell.len().max(1)),
            }
        }
    }
    let mut text = String::new();
    for line in lines() {
        let start = text.len();
        for (cell, width) in line.iter().zip(&widths) {
            let _ = write!(text, "{cell:width$}", width = width + COLUMN_GAP);
        }
        text.truncate(start + text[start..].trim_end().len());
        text.push('\n');
    }
    Some(text)
}

/// The spaces after each column.
const COLUMN_GAP: usize = 3;

fn plain(cell: &str) -> bool {
    cell.len() <= usize::from(u16::MAX)
        && !cell.starts_with(' ')
        && !cell.ends_with(' ')
        && cell
            .bytes()
            .all(|byte| byte == b' ' || byte.is_ascii_graphic())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn columns_are_aligned_without_borders_or_trailing_spaces() {
        let text = render(
            strings(&["NAME", "ONLINE"]),
            vec![strings(&["a", "true"]), strings(&["long-name", "false"])],
            None,
        );
        assert_eq!(
            text,
            "NAME        ONLINE\na           true\nlong-name   false\n"
        );
    }

    /// The direct layout is comfy-table's, cell for cell, and cells it does not take (spaces
    /// at an end, line breaks, wide characters) are left to comfy-table.
    #[test]
    fn plain_cells_are_laid_out_as_comfy_table_lays_them_out() {
        let header = strings(&["CLUSTER", "SCORE", "GROUP", "EMPTY"]);
        let rows = vec![
            strings(&["a", "100", "0 (canary)", ""]),
            strings(&["longer-cluster-name", "", "1"]),
            strings(&["b"]),
            strings(&["c", "7", "x", "", "extra"]),
            strings(&[" lead", "trail ", "two\nlines", "ü"]),
        ];
        let comfy = |rows: &[Vec<String>]| comfy_layout(&header, rows);
        let plain = &rows[..4];
        assert_eq!(
            aligned(&header, plain).as_deref(),
            Some(comfy(plain).as_str())
        );
        assert_eq!(render(header.clone(), plain.to_vec(), None), comfy(plain));
        for row in &rows[4..] {
            for cell in row {
                let rows = vec![vec![cell.clone()]];
                assert_eq!(aligned(&header, &rows), None, "{cell:?}");
            }
        }
        assert_eq!(render(header.clone(), rows.clone(), None), comfy(&rows));
        assert_eq!(aligned(&header, &[]).as_deref(), Some(comfy(&[]).as_str()));
    }

    /// comfy-table's own layout of an unfitted table, which the direct one must match.
    fn comfy_layout(header: &[String], rows: &[Vec<String>]) -> String {
        let mut table = Table::new();
        table
            .load_preset(NOTHING)
            .force_no_tty()
            .set_content_arrangement(ContentArrangement::Disabled)
            .set_header(header.to_vec())
            .add_rows(rows.to_vec());
        for column in table.column_iter_mut() {
            column.set_padding((0, 3));
        }
        table
            .lines()
            .map(|line| format!("{}\n", line.trim_end()))
            .collect()
    }

    proptest::proptest! {
        /// The direct layout is a second code path beside comfy-table's: for any cells it
        /// takes (ragged rows, empty cells and columns, inner spaces) it must agree byte for
        /// byte, or the piped table would drift from the terminal's.
        #[test]
        fn the_direct_layout_is_comfy_tables_for_any_cells_it_takes(
            header in proptest::collection::vec("[A-Z]{0,8}", 1..4),
            rows in proptest::collection::vec(
                proptest::collection::vec("[ -~]{0,6}|", 0..6),
                0..6,
            ),
        ) {
            if let Some(text) = aligned(&header, &rows) {
                proptest::prop_assert_eq!(text, comfy_layout(&header, &rows));
            }
        }
    }

    /// At 40 columns a table of long cluster names wraps its text at spaces, never inside a
    /// name, even when that makes it wider than the terminal.
    #[test]
    fn identifiers_are_never_broken_to_fit() {
        let names = [
            "aws-eu-west-prod-cluster-1",
            "gcp-us-east-staging-cluster-22",
        ];
        let rows: Vec<Vec<String>> = names
            .iter()
            .map(|name| strings(&[name, "not selected: the label env=prod does not match"]))
            .collect();
        let text = render(strings(&["CLUSTER", "REASON"]), rows, Some(40));
        for name in names {
            assert!(text.contains(name), "{name} broken:\n{text}");
        }
        for word in ["selected:", "env=prod", "match"] {
            assert!(text.contains(word), "{word} broken:\n{text}");
        }
    }

    #[test]
    fn narrow_widths_wrap_cells_instead_of_overflowing() {
        let text = render(
            strings(&["NAME", "VALUE"]),
            vec![strings(&["a", "one two three four five six"])],
            Some(20),
        );
        assert!(
            text.lines().all(|line| line.chars().count() <= 20),
            "{text}"
        );
    }
}
