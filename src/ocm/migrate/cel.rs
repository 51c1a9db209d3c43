//! CEL expressions for what a `labelSelector` cannot say. OCM evaluates `celSelector` over
//! the whole ManagedCluster object (`ConvertObjectToUnstructured`), and an expression that
//! fails to evaluate does not match — which the expressions below rely on.

use crate::ocm::filters::taint::AVAILABLE_CONDITION as AVAILABLE;
use crate::selector::Operator;

/// A CEL string literal. JSON string escapes are valid CEL escapes.
fn literal(text: &str) -> String {
    serde_json::Value::String(text.to_string()).to_string()
}

/// The cluster's name is one of `names`. A Placement has no name field, and the `name` label
/// is only a convention of some hubs, so the name is matched on `metadata.name`.
pub(crate) fn name_in(names: &[String]) -> String {
    let list: Vec<String> = names.iter().map(|name| literal(name)).collect();
    format!("managedCluster.metadata.name in [{}]", list.join(", "))
}

/// The label `key` read as a base-10 integer compared with `bound`, as apimachinery's
/// `gt`/`lt` did (`strconv.ParseInt`, which CEL's `int(string)` also uses; a missing key or
/// a non-integer value does not match).
pub(crate) fn label_compare(key: &str, operator: Operator, bound: i64) -> Option<String> {
    let symbol = match operator {
        Operator::GreaterThan => ">",
        Operator::LessThan => "<",
        _ => return None,
    };
    let key = literal(key);
    Some(format!(
        "{key} in managedCluster.metadata.labels && int(managedCluster.metadata.labels[{key}]) {symbol} {bound}"
    ))
}

/// The PlacementRule `clusterConditions` filter: a cluster is dropped when it has a condition
/// of `kind` with another status; a cluster without that condition (or without any) stays.
pub(crate) fn condition_filter(kind: &str, status: &str) -> String {
    format!(
        "!has(managedCluster.status.conditions) || !managedCluster.status.conditions.exists(c, c.type == {} && c.status != {})",
        literal(kind),
        literal(status)
    )
}

/// The cluster is online: federation placed objects only on ready clusters.
pub(crate) fn available() -> String {
    format!(
        "managedCluster.status.conditions.exists(c, c.type == {} && c.status == \"True\")",
        literal(AVAILABLE)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Cluster;
    use crate::ocm::filters::cel::{CelEnv, CelSelector};
    use crate::testing::cluster;

    fn matches(expression: &str, cluster: &Cluster) -> bool {
        match CelSelector::compile(&[expression.to_string()]) {
            Ok(selector) => selector.matches(&CelEnv::new(&[]), cluster),
            Err(error) => panic!("{expression}: {error}"),
        }
    }

    #[test]
    fn name_in_matches_listed_names_only() {
        let expression = name_in(&["a".into(), "b".into()]);
        assert_eq!(expression, r#"managedCluster.metadata.name in ["a", "b"]"#);
        assert!(matches(&expression, &cluster("b").build()));
        assert!(!matches(&expression, &cluster("c").build()));
    }

    #[test]
    fn label_compare_parses_the_value_like_the_label_selector() {
        let expression = label_compare("v", Operator::GreaterThan, 6).unwrap_or_default();
        assert!(matches(
            &expression,
            &cluster("a").labels(&[("v", "+007")]).build()
        ));
        assert!(!matches(
            &expression,
            &cluster("a").labels(&[("v", "6")]).build()
        ));
        assert!(!matches(
            &expression,
            &cluster("a").labels(&[("v", "x")]).build()
        ));
        assert!(!matches(&expression, &cluster("a").build()));
    }

    #[test]
    fn condition_filter_keeps_clusters_without_the_condition() {
        let expression = condition_filter("Ready", "True");
        assert!(matches(&expression, &cluster("a").build()));
        assert!(matches(
            &expression,
            &cluster("a").conditions(&[("Ready", "True")]).build()
        ));
        assert!(!matches(
            &expression,
            &cluster("a").conditions(&[("Ready", "Unknown")]).build()
        ));
    }

    #[test]
    fn available_needs_the_available_condition_true() {
        assert!(matches(
            &available(),
            &cluster("a").conditions(&[(AVAILABLE, "True")]).build()
        ));
        assert!(!matches(
            &available(),
            &cluster("a").conditions(&[(AVAILABLE, "False")]).build()
        ));
        assert!(!matches(&available(), &cluster("a").build()));
    }
}
