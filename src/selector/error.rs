//! Selector errors shaped like apimachinery's `field.Error` and `utilerrors.Aggregate`, so the
//! texts users see match what `kubectl` and the controllers print for the same input.
use std::fmt::{self, Write};

/// apimachinery `field.ErrorType`: the machine-readable kind of a field error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorType {
    Invalid,
    NotSupported,
    Required,
    Forbidden,
}

impl ErrorType {
    /// The `field.ErrorType` constant (`FieldValueInvalid`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Forbidden => "FieldValueForbidden",
        }
    }

    /// The human text Kubernetes puts in front of the bad value (`ErrorType.String()`).
    fn title(self) -> &'static str {
        match self {
            ErrorType::Invalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Required => "Required value",
            ErrorType::Forbidden => "Forbidden",
        }
    }
}

/// One field error: where (`values[0][env]`), what kind, the offending value as Kubernetes
/// renders it, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    field: String,
    error_type: ErrorType,
    /// Already rendered the way `field.Error.ErrorBody` renders it; `None` for Required and
    /// Forbidden, which never show the value.
    bad_value: Option<String>,
    detail: String,
}

impl FieldError {
    /// `field.Invalid` for a string value.
    pub(crate) fn invalid(field: String, value: &str, detail: impl Into<String>) -> FieldError {
        FieldError {
            field,
            error_type: ErrorType::Invalid,
            bad_value: Some(crate::model::shorten_quoted(&go_quote(value))),
            detail: detail.into(),
        }
    }

    /// `field.Invalid` for a list of values (rendered as JSON, as Kubernetes does).
    pub(crate) fn invalid_list(field: String, values: &[String], detail: &str) -> FieldError {
        FieldError {
            field,
            error_type: ErrorType::Invalid,
            bad_value: Some(crate::model::shorten_quoted(&go_json_list(values))),
            detail: detail.to_string(),
        }
    }

    /// `field.NotSupported` for a string-typed enum value such as an operator.
    pub(crate) fn not_supported(field: String, value: &str, supported: &[&str]) -> FieldError {
        let quoted: Vec<String> = supported.iter().map(|v| go_quote(v)).collect();
        FieldError {
            field,
            error_type: ErrorType::NotSupported,
            bad_value: Some(crate::model::shorten_quoted(&go_json_string(value))),
            detail: format!("supported values: {}", quoted.join(", ")),
        }
    }

    pub(crate) fn required(field: String, detail: &str) -> FieldError {
        FieldError {
            field,
            error_type: ErrorType::Required,
            bad_value: None,
            detail: detail.to_string(),
        }
    }

    pub(crate) fn forbidden(field: String, detail: &str) -> FieldError {
        FieldError {
            field,
            error_type: ErrorType::Forbidden,
            bad_value: None,
            detail: detail.to_string(),
        }
    }

    /// The field path, e.g. `key`, `values`, `values[0][env]`, `operator`.
    pub fn field(&self) -> &str {
        &self.field
    }

    pub fn error_type(&self) -> ErrorType {
        self.error_type
    }

    /// Why the value is wrong, without field or value.
    pub fn detail(&self) -> &str {
        &self.detail
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.error_type.title())?;
        if let Some(value) = &self.bad_value {
            write!(f, ": {value}")?;
        }
        if !self.detail.is_empty() {
            write!(f, ": {}", self.detail)?;
        }
        Ok(())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Detail {
    Fields(Vec<FieldError>),
    Message(String),
}

/// Why a selector could not be built: every field error of the failing requirement (like
/// Kubernetes' aggregate), or a syntax / decoding message. `Display` gives Kubernetes' text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{}", .context.unwrap_or(""), .detail)]
pub struct SelectorError {
    context: Option<&'static str>,
    detail: Detail,
}

impl SelectorError {
    pub(crate) fn fields(errors: Vec<FieldError>) -> SelectorError {
        SelectorError {
            context: None,
            detail: Detail::Fields(errors),
        }
    }

    pub(crate) fn message(message: impl Into<String>) -> SelectorError {
        SelectorError {
            context: None,
            detail: Detail::Message(message.into()),
        }
    }

    /// Puts `prefix` (e.g. `unable to parse requirement: `) in front of the text.
    pub(crate) fn with_context(mut self, prefix: &'static str) -> SelectorError {
        self.context = Some(prefix);
        self
    }

    /// The field errors, in the order Kubernetes reports them; empty for syntax and
    /// decoding errors, which have no field.
    pub fn field_errors(&self) -> &[FieldError] {
        match &self.detail {
            Detail::Fields(errors) => errors,
            Detail::Message(_) => &[],
        }
    }
}

impl fmt::Display for Detail {
    /// `utilerrors.Aggregate.Error()`: one error as is, several deduplicated in `[a, b]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Detail::Message(message) => f.write_str(message),
            Detail::Fields(errors) => {
                let mut seen: Vec<String> = Vec::with_capacity(errors.len());
                for error in errors {
                    let text = error.to_string();
                    if !seen.contains(&text) {
                        seen.push(text);
                    }
                }
                match seen.as_slice() {
                    [one] => f.write_str(one),
                    many => write!(f, "[{}]", many.join(", ")),
                }
            }
        }
    }
}

/// `field.Path.Child`: `name` under `path` (`spec.selector` + `key` → `spec.selector.key`).
pub(crate) fn child(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

/// Which Go encoder a string is escaped for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum GoQuoting {
    /// `strconv.Quote` (`%q`), for string values in field errors.
    Strconv,
    /// `encoding/json`, for values Kubernetes renders as JSON (lists, operators), including
    /// its HTML-safe escapes of `<`, `>`, `&`.
    Json,
}

fn go_escape(s: &str, quoting: GoQuoting) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        let code = u32::from(c);
        match (c, quoting) {
            ('"', _) => out.push_str("\\\""),
            ('\\', _) => out.push_str("\\\\"),
            ('\n', _) => out.push_str("\\n"),
            ('\r', _) => out.push_str("\\r"),
            ('\t', _) => out.push_str("\\t"),
            ('\u{8}', _) => out.push_str("\\b"),
            ('\u{c}', _) => out.push_str("\\f"),
            ('\u{7}', GoQuoting::Strconv) => out.push_str("\\a"),
            ('\u{b}', GoQuoting::Strconv) => out.push_str("\\v"),
            (_, GoQuoting::Strconv) if code < 0x20 || code == 0x7f => {
                let _ = write!(out, "\\x{code:02x}");
            }
            // Strconv approximates Go's printability by `char::is_control`.
            (_, GoQuoting::Strconv) if c.is_control() => {
                let _ = write!(out, "\\u{code:04x}");
            }
            (_, GoQuoting::Json)
                if code < 0x20 || matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}') =>
            {
                let _ = write!(out, "\\u{code:04x}");
            }
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Go's `strconv.Quote` (`%q`), which Kubernetes uses for string values in field errors.
pub(crate) fn go_quote(s: &str) -> String {
    go_escape(s, GoQuoting::Strconv)
}

fn go_json_string(s: &str) -> String {
    go_escape(s, GoQuoting::Json)
}

fn go_json_list(values: &[String]) -> String {
    let items: Vec<String> = values.iter().map(|v| go_json_string(v)).collect();
    format!("[{}]", items.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_field_error_renders_like_kubernetes() {
        let err = SelectorError::fields(vec![FieldError::invalid(
            "values[0][k]".to_string(),
            "a b",
            "bad",
        )]);
        assert_eq!(
            err.to_string(),
            r#"values[0][k]: Invalid value: "a b": bad"#
        );
    }

    #[test]
    fn several_field_errors_render_as_bracketed_list_without_duplicates() {
        let one = FieldError::invalid("key".to_string(), "x", "bad");
        let two = FieldError::required("values".to_string(), "must be specified");
        let err = SelectorError::fields(vec![one.clone(), two, one]);
        assert_eq!(
            err.to_string(),
            r#"[key: Invalid value: "x": bad, values: Required value: must be specified]"#
        );
    }

    #[test]
    fn list_values_render_as_go_json() {
        let err = FieldError::invalid_list(
            "values".to_string(),
            &["a<b".to_string(), "c\"d".to_string()],
            "bad",
        );
        assert_eq!(
            err.to_string(),
            r#"values: Invalid value: ["a\u003cb","c\"d"]: bad"#
        );
    }

    #[test]
    fn not_supported_lists_quoted_choices() {
        let err = FieldError::not_supported("operator".to_string(), "IN", &["in", "notin"]);
        assert_eq!(
            err.to_string(),
            r#"operator: Unsupported value: "IN": supported values: "in", "notin""#
        );
    }

    #[test]
    fn go_quote_escapes_like_strconv_quote() {
        assert_eq!(go_quote("a\"b\\c\n\u{1}"), r#""a\"b\\c\n\x01""#);
        assert_eq!(go_quote("māori"), "\"māori\"");
    }

    #[test]
    fn context_prefixes_the_text() {
        let err = SelectorError::message("found ','").with_context("unable to parse requirement: ");
        assert_eq!(err.to_string(), "unable to parse requirement: found ','");
        assert!(err.field_errors().is_empty());
    }
}
