//! `--color auto|always|never`, resolved once per run into the bool renderers take.

use std::ffi::OsStr;

use clap::ValueEnum;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(super) enum ColorChoice {
    /// Colour when stdout is a terminal and NO_COLOR is unset or empty.
    #[default]
    Auto,
    /// Always colour, even piped or with NO_COLOR set.
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Whether output gets ANSI colour. NO_COLOR (no-color.org) counts only when set to a
    /// non-empty value, and an explicit `--color always` overrides it, as no-color.org allows
    /// for explicit user configuration.
    pub(super) fn enabled(self, terminal: bool, no_color: Option<&OsStr>) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => terminal && no_color.is_none_or(OsStr::is_empty),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set() -> Option<&'static OsStr> {
        Some(OsStr::new("1"))
    }

    #[test]
    fn auto_colours_a_terminal() {
        assert!(ColorChoice::Auto.enabled(true, None));
    }

    #[test]
    fn auto_never_colours_a_pipe() {
        assert!(!ColorChoice::Auto.enabled(false, None));
    }

    #[test]
    fn auto_honours_no_color() {
        assert!(!ColorChoice::Auto.enabled(true, set()));
    }

    #[test]
    fn an_empty_no_color_is_unset() {
        assert!(ColorChoice::Auto.enabled(true, Some(OsStr::new(""))));
    }

    #[test]
    fn always_overrides_a_pipe_and_no_color() {
        assert!(ColorChoice::Always.enabled(false, set()));
    }

    #[test]
    fn never_stays_plain_on_a_terminal() {
        assert!(!ColorChoice::Never.enabled(true, None));
    }
}
