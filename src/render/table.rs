//! Plain, kubectl-like tables (no borders, no colour): columns separated by spaces, fitted to
//! the terminal's width when there is one, never wrapped when piped.

use std::io::IsTerminal;

use comfy_table::presets::NOTHING;
use comfy_table::{ContentArrangement, Table};

/// The width to fit tables to: the terminal's when stdout is one, otherwise none.
pub fn terminal_width() -> Option<u16> {
    if std::io::stdout().is_terminal() {
        Table::new().width()
    } else {
        None
    }
}

/// Renders `rows` under `header`; each line ends with a newline and has no trailing spaces.
pub fn render(header: Vec<String>, rows: Vec<Vec<String>>, width: Option<u16>) -> String {
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
    for column in table.column_iter_mut() {
        column.set_padding((0, 3));
    }
    let mut text = String::new();
    for line in table.lines() {
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
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
