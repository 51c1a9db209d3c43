//! `spec.stages[]` of a (Cluster)StagedUpdateStrategy as the API stores it.

use serde::{Deserialize, Deserializer};

use crate::model::LabelSelectorSpec;

/// `spec.stages[]` of a (Cluster)StagedUpdateStrategy.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StageConfig {
    pub(crate) name: String,
    /// Absent selects no cluster, `{}` every cluster.
    #[serde(default)]
    pub(crate) label_selector: Option<LabelSelectorSpec>,
    #[serde(default)]
    pub(crate) sorting_label_key: Option<String>,
    #[serde(default)]
    pub(crate) before_stage_tasks: Vec<StageTask>,
    #[serde(default)]
    pub(crate) after_stage_tasks: Vec<StageTask>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct StageTask {
    #[serde(rename = "type")]
    pub(crate) task_type: String,
    /// `waitTime` in nanoseconds (`metav1.Duration`, Go's duration syntax).
    #[serde(default, deserialize_with = "duration")]
    pub(crate) wait_time: Option<i128>,
}

/// Go's `time.ParseDuration`: `[-+]` then one or more `<number><unit>`, or `0`.
fn duration<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i128>, D::Error> {
    let text: Option<String> = Option::deserialize(deserializer)?;
    text.map(|text| {
        parse_duration(&text).ok_or_else(|| {
            // Go's `time.ParseDuration` quotes the text as `%q` does.
            let quoted = crate::model::shorten_quoted(&crate::selector::go_quote(&text));
            serde::de::Error::custom(format!("time: invalid duration {quoted}"))
        })
    })
    .transpose()
}

fn parse_duration(text: &str) -> Option<i128> {
    let (negative, mut rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: f64 = 0.0;
    while !rest.is_empty() {
        let number_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number: f64 = rest[..number_end].parse().ok()?;
        rest = &rest[number_end..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..unit_end] {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return None,
        };
        rest = &rest[unit_end..];
        total += number * scale;
    }
    let nanos = total.round() as i128;
    Some(if negative { -nanos } else { nanos })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An unparsable `waitTime` is refused with Go's quoting (`\x01`, not Rust's `\u{1}`).
    #[test]
    fn an_invalid_duration_is_quoted_as_go_quotes_it() {
        let task = r#"{"type": "TimedWait", "waitTime": "1\u0001d"}"#;
        let error = serde_json::from_str::<StageTask>(task)
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default();
        assert!(
            error.starts_with(r#"time: invalid duration "1\x01d""#),
            "{error}"
        );
    }

    #[test]
    fn go_durations_parse() {
        assert_eq!(parse_duration("4s"), Some(4_000_000_000));
        assert_eq!(parse_duration("1m30s"), Some(90_000_000_000));
        assert_eq!(parse_duration("0"), Some(0));
        assert_eq!(parse_duration("-1.5h"), Some(-5_400_000_000_000));
        assert_eq!(parse_duration("4"), None);
        assert_eq!(parse_duration(""), None);
    }
}
