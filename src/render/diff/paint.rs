//! ANSI colour for diff output, applied only when the caller asks (a terminal, no NO_COLOR).

use crate::render::escape::terminal_line;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Colour {
    Added,
    Removed,
    Changed,
    Hunk,
    Header,
}

impl Colour {
    fn code(self) -> &'static str {
        match self {
            Colour::Added => "\x1b[32m",
            Colour::Removed => "\x1b[31m",
            Colour::Changed => "\x1b[33m",
            Colour::Hunk => "\x1b[36m",
            Colour::Header => "\x1b[1m",
        }
    }
}

const RESET: &str = "\x1b[0m";

/// Appends `text` to `out`, wrapped in `colour` when `enabled`.
/// Every line a diff shows a terminal passes here: input text in it is escaped as
/// [`terminal_line`] escapes it, then fleetplan's own colour is added.
pub(super) fn paint(out: &mut String, text: &str, colour: Option<Colour>, enabled: bool) {
    let text = &*terminal_line(text);
    match colour {
        Some(colour) if enabled && !text.is_empty() => {
            out.push_str(colour.code());
            out.push_str(text);
            out.push_str(RESET);
        }
        _ => out.push_str(text),
    }
}
