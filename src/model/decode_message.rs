//! User-facing text for serde decoding errors.

use std::fmt::Display;

/// serde names the Rust type a mapping decodes into (`expected struct ClusterSelectorDoc`);
/// the field path already says where, so the message says what a user writes instead.
pub(crate) fn plain_decode_message(error: impl Display) -> String {
    let message = error.to_string();
    let mut out = String::with_capacity(message.len());
    let mut rest = message.as_str();
    while let Some(at) = rest.find("expected struct ") {
        out.push_str(&rest[..at]);
        out.push_str("expected a mapping");
        let after = &rest[at + "expected struct ".len()..];
        let name_end = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        rest = &after[name_end..];
    }
    out.push_str(rest);
    // serde quotes the value or field name it found, whatever its size.
    let out = super::shorten_quoted(&out);
    // A unit-variant enum (a taint effect, a topology key type) is a string in a manifest.
    out.replace("expected a Value::Tagged enum", "expected a string")
        .replace("expected string or map", "expected a string")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn struct_names_become_a_mapping() {
        assert_eq!(
            plain_decode_message("invalid type: integer `5`, expected struct ClusterSelectorDoc"),
            "invalid type: integer `5`, expected a mapping"
        );
        assert_eq!(
            plain_decode_message("invalid type: string \"x\", expected i32"),
            "invalid type: string \"x\", expected i32"
        );
    }

    #[test]
    fn enums_are_strings() {
        assert_eq!(
            plain_decode_message("invalid type: sequence, expected a Value::Tagged enum"),
            "invalid type: sequence, expected a string"
        );
        assert_eq!(
            plain_decode_message("invalid type: sequence, expected string or map"),
            "invalid type: sequence, expected a string"
        );
    }
}
