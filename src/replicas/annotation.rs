//! The `federation.kubernetes.io/replica-set-preferences` annotation, read the way the
//! federation v1 controller read it: Go's `encoding/json` into its replica-set preferences struct.
//!
//! Go matched object keys to struct fields case-insensitively (`Weight`, `weight` and
//! `WEIGHT` all set the weight), ignored unknown keys, let a later duplicate key win, treated
//! `null` as "leave as is" for numbers and booleans and as "absent" for pointers and maps, and
//! decoded a repeated `clusters` object into the same map. All of that is kept here.

use std::fmt;

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;

use crate::model::preferences::{check_non_negative, ClusterPreferences, ReplicaPreferences};

pub(crate) const REPLICA_SET_PREFERENCES_ANNOTATION: &str =
    "federation.kubernetes.io/replica-set-preferences";

/// The annotation is not the JSON the controller could read.
#[derive(Debug, thiserror::Error)]
#[error("annotation {REPLICA_SET_PREFERENCES_ANNOTATION}: {}{json}", at_path(.path))]
pub struct PreferencesError {
    /// Where in the JSON document (`clusters.A.weight`); `.` for the document itself.
    pub path: String,
    pub json: serde_json::Error,
}

impl PreferencesError {
    /// 1-based line of the problem in the annotation value.
    pub fn line(&self) -> usize {
        self.json.line()
    }

    /// 1-based column of the problem in the annotation value.
    pub fn column(&self) -> usize {
        self.json.column()
    }
}

fn at_path(path: &str) -> String {
    if path == "." {
        String::new()
    } else {
        format!("at `{path}`: ")
    }
}

/// Parses the annotation value. An absent or empty `clusters` map stays empty: the planner
/// reads it as `{"*": {weight: 1}}`.
pub fn parse_replica_set_preferences(value: &str) -> Result<ReplicaPreferences, PreferencesError> {
    if let Some((line, column, bracket)) = nesting_past_go_limit(value) {
        return Err(PreferencesError {
            path: ".".to_string(),
            json: serde::de::Error::custom(format!(
                "invalid character '{bracket}' exceeded max depth (Go's encoding/json nests at \
                 most {GO_MAX_NESTING_DEPTH}) at line {line} column {column}"
            )),
        });
    }
    let mut de = serde_json::Deserializer::from_str(value);
    let parsed: Option<Annotation> =
        serde_path_to_error::deserialize(&mut de).map_err(|err| PreferencesError {
            path: err.path().to_string(),
            json: err.into_inner(),
        })?;
    de.end().map_err(|json| PreferencesError {
        path: ".".to_string(),
        json,
    })?;
    Ok(parsed.map(|annotation| annotation.0).unwrap_or_default())
}

/// Go's encoding/json refuses JSON nested deeper than this (`maxNestingDepth`,
/// `encoding/json/scanner.go`), even in a field it would ignore; serde_json skips an ignored
/// value without a limit.
const GO_MAX_NESTING_DEPTH: usize = 10_000;

/// Where the first bracket past [`GO_MAX_NESTING_DEPTH`] is (line, column, bracket), found in
/// one pass that skips strings.
fn nesting_past_go_limit(value: &str) -> Option<(usize, usize, char)> {
    let (mut depth, mut line, mut column) = (0usize, 1usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for c in value.chars() {
        column += 1;
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '[' | '{' => {
                depth += 1;
                if depth > GO_MAX_NESTING_DEPTH {
                    return Some((line, column, c));
                }
            }
            ']' | '}' => depth = depth.saturating_sub(1),
            '\n' => (line, column) = (line + 1, 0),
            _ => {}
        }
    }
    None
}

/// True when `key` names `field` under Go's `bytes.EqualFold`. `field` is lower-case ASCII;
/// the only non-ASCII runes that fold onto ASCII letters are the Kelvin sign (k) and the long
/// s (s), and Go honours both.
fn folds_to(key: &str, field: &str) -> bool {
    let mut expected = field.bytes();
    for c in key.chars() {
        let folded = match c {
            '\u{212A}' => b'k',
            '\u{017F}' => b's',
            c if c.is_ascii() => c.to_ascii_lowercase() as u8,
            _ => return false,
        };
        if expected.next() != Some(folded) {
            return false;
        }
    }
    expected.next().is_none()
}

struct Annotation(ReplicaPreferences);

impl<'de> Deserialize<'de> for Annotation {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(AnnotationVisitor)
    }
}

struct AnnotationVisitor;

impl<'de> Visitor<'de> for AnnotationVisitor {
    type Value = Annotation;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object {rebalance, clusters}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Annotation, A::Error> {
        let mut prefs = ReplicaPreferences::default();
        while let Some(key) = map.next_key::<String>()? {
            if folds_to(&key, "rebalance") {
                if let Some(rebalance) = map.next_value::<Option<bool>>()? {
                    prefs.rebalance = rebalance;
                }
            } else if folds_to(&key, "clusters") {
                match map.next_value::<Option<Clusters>>()? {
                    Some(Clusters(clusters)) => prefs.clusters.extend(clusters),
                    None => prefs.clusters.clear(),
                }
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Annotation(prefs))
    }
}

struct Clusters(Vec<(String, ClusterPreferences)>);

impl<'de> Deserialize<'de> for Clusters {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ClustersVisitor)
    }
}

struct ClustersVisitor;

impl<'de> Visitor<'de> for ClustersVisitor {
    type Value = Clusters;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object of cluster name to preferences")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Clusters, A::Error> {
        let mut clusters = Vec::new();
        while let Some(name) = map.next_key::<String>()? {
            // Go decodes each map element into a fresh zero value, `null` included.
            let prefs = map
                .next_value::<Option<Cluster>>()?
                .map(|cluster| cluster.0)
                .unwrap_or_default();
            clusters.push((name, prefs));
        }
        Ok(Clusters(clusters))
    }
}

struct Cluster(ClusterPreferences);

impl<'de> Deserialize<'de> for Cluster {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(ClusterVisitor)
    }
}

struct ClusterVisitor;

impl<'de> Visitor<'de> for ClusterVisitor {
    type Value = Cluster;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object {minReplicas, maxReplicas, weight}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Cluster, A::Error> {
        let mut prefs = ClusterPreferences::default();
        while let Some(key) = map.next_key::<String>()? {
            if folds_to(&key, "minreplicas") {
                if let Some(min) = next_count(&mut map)? {
                    prefs.min_replicas = min;
                }
            } else if folds_to(&key, "maxreplicas") {
                prefs.max_replicas = next_count(&mut map)?;
            } else if folds_to(&key, "weight") {
                if let Some(weight) = next_count(&mut map)? {
                    prefs.weight = weight;
                }
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Cluster(prefs))
    }
}

fn next_count<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Option<i64>, A::Error> {
    Ok(map.next_value::<Option<Count>>()?.map(|count| count.0))
}

/// Checked while the value is read, so the error carries the value's path.
struct Count(i64);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        check_non_negative(i64::deserialize(deserializer)?).map(Count)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    #[test]
    fn nesting_stops_where_go_stops() {
        let nested = |depth: usize| {
            format!(
                "{{\"ignored\": {}1{}, \"clusters\": {{\"a\": {{\"weight\": 1}}}}}}",
                "[".repeat(depth),
                "]".repeat(depth)
            )
        };
        // The outer object is one level: 9,999 more are allowed, 10,000 more are not.
        assert!(parse_replica_set_preferences(&nested(9_999)).is_ok());
        let error = parse_replica_set_preferences(&nested(10_000)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "annotation federation.kubernetes.io/replica-set-preferences: invalid character '[' \
             exceeded max depth (Go's encoding/json nests at most 10000) at line 1 column 10012"
        );
        let in_a_string = format!("{{\"x\": \"{}\"}}", "[".repeat(20_000));
        assert!(parse_replica_set_preferences(&in_a_string).is_ok());
    }

    fn parse(value: &str) -> ReplicaPreferences {
        match parse_replica_set_preferences(value) {
            Ok(parsed) => parsed,
            Err(err) => panic!("{value}: {err}"),
        }
    }

    #[test]
    fn reads_the_documented_form() {
        let parsed = parse(
            r#"{"rebalance": true, "clusters": {"A": {"minReplicas": 4, "maxReplicas": 6, "weight": 1}, "*": {"weight": 2}}}"#,
        );
        assert!(parsed.rebalance);
        assert_eq!(
            parsed.clusters,
            BTreeMap::from([
                ("*".to_string(), ClusterPreferences::new(0, None, 2)),
                ("A".to_string(), ClusterPreferences::new(4, Some(6), 1)),
            ])
        );
    }

    #[test]
    fn field_names_match_case_insensitively_like_go() {
        let parsed = parse(
            r#"{"Rebalance": true, "CLUSTERS": {"A": {"MinReplicas": 1, "maxreplicas": 3, "Weight": 2}}}"#,
        );
        assert!(parsed.rebalance);
        assert_eq!(parsed.clusters["A"], ClusterPreferences::new(1, Some(3), 2));
    }

    #[test]
    fn kelvin_sign_and_long_s_fold_like_go() {
        let parsed = parse("{\"clu\u{017F}ters\": {\"A\": {\"weight\": 2}}}");
        assert_eq!(parsed.clusters["A"], ClusterPreferences::new(0, None, 2));
        assert!(folds_to("\u{212A}", "k"));
    }

    #[test]
    fn cluster_names_stay_case_sensitive() {
        let parsed = parse(r#"{"clusters": {"a": {"weight": 1}, "A": {"weight": 2}}}"#);
        assert_eq!(parsed.clusters.len(), 2);
    }

    #[test]
    fn unknown_fields_are_ignored() {
        let parsed =
            parse(r#"{"extra": [1, {"x": null}], "clusters": {"A": {"weight": 2, "note": "hi"}}}"#);
        assert_eq!(parsed.clusters["A"], ClusterPreferences::new(0, None, 2));
    }

    #[test]
    fn later_duplicate_field_wins() {
        let parsed = parse(r#"{"clusters": {"A": {"weight": 2, "Weight": 5}}}"#);
        assert_eq!(parsed.clusters["A"].weight, 5);
    }

    #[test]
    fn null_number_keeps_the_earlier_value() {
        let parsed = parse(r#"{"clusters": {"A": {"weight": 2, "weight": null}}}"#);
        assert_eq!(parsed.clusters["A"].weight, 2);
    }

    #[test]
    fn null_max_replicas_means_unbounded() {
        let parsed = parse(r#"{"clusters": {"A": {"maxReplicas": 2, "maxReplicas": null}}}"#);
        assert_eq!(parsed.clusters["A"].max_replicas, None);
    }

    #[test]
    fn null_cluster_entry_is_all_zero() {
        let parsed = parse(r#"{"clusters": {"A": null}}"#);
        assert_eq!(parsed.clusters["A"], ClusterPreferences::new(0, None, 0));
    }

    #[test]
    fn repeated_clusters_objects_merge() {
        let parsed =
            parse(r#"{"clusters": {"A": {"weight": 1}}, "Clusters": {"B": {"weight": 2}}}"#);
        assert_eq!(parsed.clusters.len(), 2);
    }

    #[test]
    fn null_clusters_clears_the_map() {
        let parsed = parse(r#"{"clusters": {"A": {"weight": 1}}, "clusters": null}"#);
        assert!(parsed.clusters.is_empty());
    }

    #[test]
    fn absent_clusters_is_left_empty_for_the_planner_default() {
        let parsed = parse(r#"{"rebalance": true}"#);
        assert!(parsed.clusters.is_empty());
    }

    #[test]
    fn null_document_is_the_default() {
        assert_eq!(parse("null"), ReplicaPreferences::default());
    }

    #[test]
    fn malformed_json_names_line_and_column() {
        let err = parse_replica_set_preferences("{\"clusters\":\n {\"A\": {\"weight\": 1,}}}")
            .unwrap_err();
        assert_eq!((err.line(), err.column()), (2, 21));
        assert!(err
            .to_string()
            .starts_with("annotation federation.kubernetes.io/replica-set-preferences: "));
    }

    #[test]
    fn trailing_characters_are_an_error() {
        let err = parse_replica_set_preferences(r#"{"clusters": {}} x"#).unwrap_err();
        assert_eq!(err.column(), 18);
    }

    #[test]
    fn negative_weight_is_an_error_with_its_path() {
        let err =
            parse_replica_set_preferences(r#"{"clusters": {"A": {"Weight": -1}}}"#).unwrap_err();
        assert_eq!(err.path, "clusters.A.Weight");
        assert!(
            err.to_string()
                .contains("at `clusters.A.Weight`: expected a non-negative integer, found -1"),
            "{err}"
        );
    }

    #[test]
    fn fractional_weight_is_an_error() {
        let err =
            parse_replica_set_preferences(r#"{"clusters": {"A": {"weight": 1.5}}}"#).unwrap_err();
        assert_eq!(err.path, "clusters.A.weight");
    }

    #[test]
    fn overflowing_minimum_is_an_error() {
        let err = parse_replica_set_preferences(
            r#"{"clusters": {"A": {"minReplicas": 9223372036854775808}}}"#,
        )
        .unwrap_err();
        assert_eq!(err.path, "clusters.A.minReplicas");
    }

    #[test]
    fn string_rebalance_is_an_error() {
        let err = parse_replica_set_preferences(r#"{"rebalance": "true"}"#).unwrap_err();
        assert_eq!(err.path, "rebalance");
    }

    #[test]
    fn non_object_document_is_an_error() {
        let err = parse_replica_set_preferences("[]").unwrap_err();
        assert_eq!(err.path, ".");
    }

    #[test]
    fn empty_value_is_an_error() {
        assert!(parse_replica_set_preferences("").is_err());
    }
}
