//! A unified diff of two rendered plans, for reading what `diff` found line by line.

use similar::{Algorithm, TextDiff};

use super::paint::{paint, Colour};

const CONTEXT_LINES: usize = 3;

/// `--- previous` / `+++ current` followed by hunks with three lines of context; empty when
/// the two texts are equal.
pub fn unified_yaml_diff(previous_yaml: &str, current_yaml: &str, color: bool) -> String {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .diff_lines(previous_yaml, current_yaml);
    let mut unified = diff.unified_diff();
    unified.context_radius(CONTEXT_LINES);
    let mut out = String::new();
    for hunk in unified.iter_hunks() {
        if out.is_empty() {
            paint(&mut out, "--- previous", Some(Colour::Header), color);
            out.push('\n');
            paint(&mut out, "+++ current", Some(Colour::Header), color);
            out.push('\n');
        }
        // Colouring similar's own rendering of a hunk keeps its exact format (ranges, the
        // "\ No newline at end of file" marker); inside a hunk the first character of a line
        // says what the line is.
        for (position, line) in hunk.to_string().split_inclusive('\n').enumerate() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_give_an_empty_diff() {
        assert_eq!(unified_yaml_diff("a: 1\n", "a: 1\n", false), "");
    }

    #[test]
    fn a_changed_line_is_shown_with_headers_and_three_lines_of_context() {
        let previous = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let current = "a\nb\nc\nd\nE\nf\ng\nh\n";
        assert_eq!(
            unified_yaml_diff(previous, current, false),
            "--- previous\n+++ current\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n"
        );
    }

    #[test]
    fn colour_marks_headers_hunks_removals_and_additions() {
        assert_eq!(
            unified_yaml_diff("a\n", "b\n", true),
            "\x1b[1m--- previous\x1b[0m\n\x1b[1m+++ current\x1b[0m\n\
             \x1b[36m@@ -1 +1 @@\x1b[0m\n\x1b[31m-a\x1b[0m\n\x1b[32m+b\x1b[0m\n"
        );
    }

    #[test]
    fn without_colour_there_are_no_escape_sequences() {
        assert!(!unified_yaml_diff("a\n", "b\n", false).contains('\x1b'));
    }

    #[test]
    fn a_missing_final_newline_is_marked() {
        assert_eq!(
            unified_yaml_diff("a\n", "a\nb", false),
            "--- previous\n+++ current\n@@ -1 +1,2 @@\n a\n+b\n\\ No newline at end of file\n"
        );
    }
}
