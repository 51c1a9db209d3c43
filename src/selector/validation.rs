//! Kubernetes label key and value rules and object name rules (apimachinery
//! `api/validate/content`: `IsLabelKey`, `IsLabelValue`, `IsDNS1123Subdomain`,
//! `IsDNS1123Label`, `IsDNS1035Label`; `api/validation/path`: `IsValidPathSegmentName`), with
//! Kubernetes' exact messages.

const LABEL_NAME_MAX_BYTES: usize = 63;
const LABEL_VALUE_MAX_BYTES: usize = 63;
const DNS1123_SUBDOMAIN_MAX_BYTES: usize = 253;
const DNS1123_LABEL_MAX_BYTES: usize = 63;
const DNS1035_LABEL_MAX_BYTES: usize = 63;

const LABEL_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_NAME_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_MSG: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

/// `content.MaxLenError`. Kubernetes said "characters" until 2025 and "bytes" since; the
/// limit always counted bytes.
fn max_len_error(max: usize) -> String {
    format!("must be no more than {max} bytes")
}

/// `content.RegexError`, including its double space before each "or".
fn regex_error(message: &str, regex: &str, examples: &[&str]) -> String {
    let mut out = format!("{message} (e.g. ");
    for (i, example) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push('\'');
        out.push_str(example);
        out.push_str("', ");
    }
    out.push_str("regex used for validation is '");
    out.push_str(regex);
    out.push_str("')");
    out
}

fn label_name_regex_error() -> String {
    regex_error(
        LABEL_NAME_MSG,
        LABEL_NAME_FMT,
        &["MyName", "my.name", "123-abc"],
    )
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, anchored.
fn is_label_name(s: &str) -> bool {
    let bytes = s.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, anchored.
fn is_dns1123_label(s: &str) -> bool {
    is_dns1123_label_folded(s, |byte| byte)
}

/// [`is_dns1123_label`] of `s` with each byte through `fold` (`u8::to_ascii_lowercase`: of
/// the lowered copy, without making it).
fn is_dns1123_label_folded(s: &str, fold: fn(u8) -> u8) -> bool {
    let bytes = s.as_bytes();
    let edge = |byte: u8| {
        let byte = fold(byte);
        byte.is_ascii_lowercase() || byte.is_ascii_digit()
    };
    match (bytes.first(), bytes.last()) {
        (Some(&first), Some(&last)) => {
            edge(first) && edge(last) && bytes.iter().all(|&byte| edge(byte) || byte == b'-')
        }
        _ => false,
    }
}

/// `[a-z]([-a-z0-9]*[a-z0-9])?`, anchored, of `value` with each byte through `fold`.
fn is_dns1035_pattern(value: &str, fold: fn(u8) -> u8) -> bool {
    value
        .bytes()
        .next()
        .is_some_and(|byte| fold(byte).is_ascii_lowercase())
        && is_dns1123_label_folded(value, fold)
}

/// Whether `value` in lower case is a DNS-1035 label ([`dns1035_label_errors`] finds nothing
/// in its lowered copy), judged without lowering a copy: a CRD's kind, checked for every
/// object read.
pub(crate) fn is_lowered_dns1035_label(value: &str) -> bool {
    value.len() <= DNS1035_LABEL_MAX_BYTES
        && is_dns1035_pattern(value, |byte| byte.to_ascii_lowercase())
}

/// The shape of a qualified key without the length limits: an optional DNS-1123 subdomain
/// prefix and `/`, then a label name (`([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`). The OCM CRD
/// writes this pattern for keys it bounds by its own `maxLength`.
pub(crate) fn is_qualified_key(key: &str) -> bool {
    let (prefix, name) = match key.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    prefix.is_none_or(|prefix| prefix.split('.').all(is_dns1123_label)) && is_label_name(name)
}

/// `content.IsDNS1123Subdomain`: namespaced and cluster-scoped object names of most kinds.
pub(crate) fn dns1123_subdomain_errors(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_BYTES {
        errors.push(max_len_error(DNS1123_SUBDOMAIN_MAX_BYTES));
    }
    if !value.split('.').all(is_dns1123_label) {
        errors.push(regex_error(
            DNS1123_SUBDOMAIN_MSG,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errors
}

/// `content.IsDNS1123Label`: namespace names (and the names of kinds that become one).
pub(crate) fn dns1123_label_errors(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > DNS1123_LABEL_MAX_BYTES {
        errors.push(max_len_error(DNS1123_LABEL_MAX_BYTES));
    }
    if !is_dns1123_label(value) {
        // A valid subdomain that is not a label can only be one with dots (its length is
        // reported above).
        if dns1123_subdomain_errors(value).is_empty() {
            errors.push("must not contain dots".to_string());
        } else {
            errors.push(regex_error(
                DNS1123_LABEL_MSG,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errors
}

/// `content.IsDNS1035Label`: Service names, and a CRD's kind in lower case.
pub(crate) fn dns1035_label_errors(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > DNS1035_LABEL_MAX_BYTES {
        errors.push(max_len_error(DNS1035_LABEL_MAX_BYTES));
    }
    if !is_dns1035_pattern(value, |byte| byte) {
        errors.push(regex_error(
            DNS1035_LABEL_MSG,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errors
}

/// `path.IsValidPathSegmentName`: RBAC names, which may be almost anything that is one
/// segment of a URL path.
pub(crate) fn path_segment_errors(value: &str) -> Vec<String> {
    if let Some(whole) = [".", ".."].into_iter().find(|whole| value == *whole) {
        return vec![format!("may not be '{whole}'")];
    }
    ["/", "%"]
        .into_iter()
        .filter(|part| value.contains(part))
        .map(|part| format!("may not contain '{part}'"))
        .collect()
}

/// `content.IsLabelKey`: every reason `key` is not a valid label key (empty when valid).
pub(crate) fn label_key_errors(key: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let parts: Vec<&str> = key.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errors.push("prefix part must be non-empty".to_string());
            } else {
                errors.extend(
                    dns1123_subdomain_errors(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            return vec![format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                label_name_regex_error()
            )];
        }
    };
    if name.is_empty() {
        errors.push("name part must be non-empty".to_string());
    } else if name.len() > LABEL_NAME_MAX_BYTES {
        errors.push(format!("name part {}", max_len_error(LABEL_NAME_MAX_BYTES)));
    }
    if !is_label_name(name) {
        errors.push(format!("name part {}", label_name_regex_error()));
    }
    errors
}

/// `content.IsLabelValue`: every reason `value` is not a valid label value.
pub(crate) fn label_value_errors(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > LABEL_VALUE_MAX_BYTES {
        errors.push(max_len_error(LABEL_VALUE_MAX_BYTES));
    }
    if !value.is_empty() && !is_label_name(value) {
        errors.push(regex_error(
            LABEL_VALUE_MSG,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespace_names_are_dns1123_labels_with_kubernetes_messages() {
        assert!(dns1123_label_errors("shop-1").is_empty());
        assert_eq!(
            dns1123_label_errors("a/../../esc"),
            vec!["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')".to_string()]
        );
        assert_eq!(dns1123_label_errors("a.b"), vec!["must not contain dots"]);
        assert_eq!(
            dns1123_label_errors(&"a".repeat(64)),
            vec!["must be no more than 63 bytes"]
        );
    }

    #[test]
    fn dns1035_labels_start_with_a_letter() {
        assert!(dns1035_label_errors("web-1").is_empty());
        assert_eq!(dns1035_label_errors("1web").len(), 1);
        assert!(dns1035_label_errors("1web")[0].starts_with("a DNS-1035 label must consist"));
    }

    #[test]
    fn path_segment_names_refuse_dots_slashes_and_percent() {
        assert!(path_segment_errors("system:controller:x").is_empty());
        assert_eq!(path_segment_errors(".."), vec!["may not be '..'"]);
        assert_eq!(
            path_segment_errors("a/%"),
            vec!["may not contain '/'", "may not contain '%'"]
        );
    }

    #[test]
    fn prefixed_key_with_uppercase_prefix_is_rejected() {
        let errors = label_key_errors("Example.com/abc");
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("prefix part a lowercase RFC 1123 subdomain"));
    }

    #[test]
    fn empty_key_reports_empty_and_format() {
        assert_eq!(
            label_key_errors(""),
            vec![
                "name part must be non-empty".to_string(),
                format!("name part {}", label_name_regex_error()),
            ]
        );
    }

    #[test]
    fn empty_prefix_is_reported() {
        assert_eq!(
            label_key_errors("/simple"),
            vec!["prefix part must be non-empty".to_string()]
        );
    }

    #[test]
    fn name_part_regex_message_matches_kubernetes() {
        assert_eq!(
            label_key_errors("-x"),
            vec!["name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')".to_string()]
        );
    }

    #[test]
    fn too_long_name_part_counts_bytes() {
        assert_eq!(
            label_key_errors(&"a".repeat(64)),
            vec!["name part must be no more than 63 bytes".to_string()]
        );
        assert!(label_key_errors(&"a".repeat(63)).is_empty());
    }

    #[test]
    fn value_may_be_empty_but_not_end_with_dot() {
        assert!(label_value_errors("").is_empty());
        assert_eq!(label_value_errors("a.").len(), 1);
    }

    #[test]
    fn too_long_invalid_value_reports_both() {
        let value = format!("-{}", "a".repeat(63));
        assert_eq!(
            label_value_errors(&value),
            vec![
                "must be no more than 63 bytes".to_string(),
                regex_error(
                    LABEL_VALUE_MSG,
                    LABEL_VALUE_FMT,
                    &["MyValue", "my_value", "12345"]
                ),
            ]
        );
    }

    #[test]
    fn trailing_newline_is_not_allowed() {
        assert_eq!(label_value_errors("abc\n").len(), 1);
    }
}
