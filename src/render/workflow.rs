//! GitHub Actions workflow commands (`::error file=F,line=L,col=C::message`), the annotations
//! `check -o github` and `diff -o github` print.

use super::escape::{workflow_data, workflow_property};
use crate::load::STDIN_NAME;

/// Where an annotation points; each part only when known.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct At<'a> {
    pub file: Option<&'a str>,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

impl<'a> At<'a> {
    /// A place in an input. Standard input is no file of the repository, so an annotation
    /// on it names none (its message still says `<stdin>#N`), as SARIF gives it no location.
    pub(crate) fn input(file: &'a str, line: Option<usize>, column: Option<usize>) -> At<'a> {
        if file == STDIN_NAME {
            return At::default();
        }
        At {
            file: Some(file),
            line,
            column,
        }
    }
}

/// One command line, `command` being `error`, `warning` or `notice`. A column is given only
/// with a line, as GitHub reads it.
pub(crate) fn command(command: &str, at: At<'_>, message: &str) -> String {
    let mut properties = Vec::new();
    if let Some(file) = at.file {
        properties.push(format!("file={}", workflow_property(file)));
        if let Some(line) = at.line {
            properties.push(format!("line={line}"));
            if let Some(column) = at.column {
                properties.push(format!("col={column}"));
            }
        }
    }
    let separator = if properties.is_empty() { "" } else { " " };
    format!(
        "::{command}{separator}{}::{}\n",
        properties.join(","),
        workflow_data(message)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_file_there_are_no_properties() {
        assert_eq!(
            command("notice", At::default(), "a\nb"),
            "::notice::a%0Ab\n"
        );
    }

    #[test]
    fn standard_input_is_not_annotated_as_a_file() {
        let at = At::input(STDIN_NAME, Some(3), Some(1));
        assert_eq!(command("error", at, "m"), "::error::m\n");
    }

    #[test]
    fn a_column_needs_a_line() {
        let at = At {
            file: Some("a.yaml"),
            line: None,
            column: Some(3),
        };
        assert_eq!(command("error", at, "m"), "::error file=a.yaml::m\n");
    }
}
