//! Finding what the command line names: an item by `[KIND/][NAMESPACE/]NAME` (`explain`'s
//! item, `plan` and `check`'s item arguments), a cluster by name. Unknown names get close
//! matches, ambiguous ones the full list.

use std::collections::BTreeSet;

use super::{close_matches, ObjectRef};

/// kubectl's short names for the core kinds fleetplan reads (the placement APIs' own are
/// the registry's `SHORT_NAMES`).
const SHORT_NAMES: &[(&str, &str)] = &[
    ("cm", "configmap"),
    ("deploy", "deployment"),
    ("ds", "daemonset"),
    ("ing", "ingress"),
    ("ns", "namespace"),
    ("rs", "replicaset"),
    ("sa", "serviceaccount"),
    ("sts", "statefulset"),
    ("svc", "service"),
];

/// Whether `query` names `kind`: case-insensitive, singular, plural or short.
fn kind_matches(query: &str, kind: &str) -> bool {
    let query = query.to_ascii_lowercase();
    let kind = kind.to_ascii_lowercase();
    if query == kind || query == plural(&kind) {
        return true;
    }
    SHORT_NAMES
        .iter()
        .chain(crate::registry::SHORT_NAMES)
        .any(|(short, long)| query == *short && kind == *long)
}

/// The lower-case plural kubectl accepts (`ingresses`, `policies`, `deployments`).
fn plural(kind: &str) -> String {
    if kind.ends_with('s') || kind.ends_with('x') {
        format!("{kind}es")
    } else if let Some(stem) = kind.strip_suffix('y') {
        format!("{stem}ies")
    } else {
        format!("{kind}s")
    }
}

/// An item or cluster the command line names that the inputs do not hold. Each
/// `suggestion` is ", did you mean …?" or empty.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum LookupError {
    #[error(
        "expected [KIND/][NAMESPACE/]NAME, found {:?}",
        crate::model::echo(query)
    )]
    Malformed { query: String },
    #[error("no item {:?} in the inputs{suggestion}", crate::model::echo(query))]
    NoItem { query: String, suggestion: String },
    /// `items` are the items the query names, in input order.
    #[error("{:?} is ambiguous: it names {}; add the kind or namespace", crate::model::echo(query), items.join(", "))]
    Ambiguous { query: String, items: Vec<String> },
    #[error(
        "--cluster: no cluster named {:?} {searched}{suggestion}",
        crate::model::echo(name)
    )]
    NoCluster {
        name: String,
        searched: &'static str,
        suggestion: String,
    },
}

/// The index of the one item `query` names.
pub(crate) fn find_item(sources: &[ObjectRef], query: &str) -> Result<usize, LookupError> {
    let parts: Vec<&str> = query.split('/').collect();
    let matches = |source: &ObjectRef| -> bool {
        let namespace = source.namespace.as_deref().unwrap_or("");
        match parts.as_slice() {
            [name] => source.name == *name,
            [first, name] => {
                source.name == *name && (namespace == *first || kind_matches(first, &source.kind))
            }
            [kind, ns, name] => {
                source.name == *name && namespace == *ns && kind_matches(kind, &source.kind)
            }
            _ => false,
        }
    };
    let found: Vec<usize> = sources
        .iter()
        .enumerate()
        .filter(|(_, source)| matches(source))
        .map(|(index, _)| index)
        .collect();
    match found.as_slice() {
        [index] => Ok(*index),
        [] if parts.len() > 3 || parts.iter().any(|part| part.is_empty()) => {
            Err(LookupError::Malformed {
                query: query.to_string(),
            })
        }
        [] => {
            // Suggest in the query's own shape, lower-case like the query is compared
            // (kinds are case-insensitive; names and namespaces are lower-case).
            let mut known = BTreeSet::new();
            for source in sources {
                let kind = source.kind.to_ascii_lowercase();
                let namespace = source.namespace.as_deref().unwrap_or("");
                let name = &source.name;
                match parts.len() {
                    1 => {
                        known.insert(name.clone());
                    }
                    2 => {
                        known.insert(format!("{kind}/{name}"));
                        known.insert(format!("{namespace}/{name}"));
                    }
                    _ => {
                        known.insert(format!("{kind}/{namespace}/{name}"));
                    }
                }
            }
            let known: Vec<&str> = known.iter().map(String::as_str).collect();
            Err(LookupError::NoItem {
                query: query.to_string(),
                suggestion: close_matches(&query.to_ascii_lowercase(), &known),
            })
        }
        several => {
            let items = several
                .iter()
                .filter_map(|&index| sources.get(index))
                .map(ToString::to_string)
                .collect();
            Err(LookupError::Ambiguous {
                query: query.to_string(),
                items,
            })
        }
    }
}

/// Checks that `known`, the clusters `searched` names ("in the inventory"), has `name`.
pub(crate) fn find_cluster(
    known: &[&str],
    searched: &'static str,
    name: &str,
) -> Result<(), LookupError> {
    if known.contains(&name) {
        return Ok(());
    }
    Err(LookupError::NoCluster {
        name: name.to_string(),
        searched,
        suggestion: close_matches(name, known),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources(items: &[(&str, Option<&str>, &str)]) -> Vec<ObjectRef> {
        items
            .iter()
            .map(|(kind, namespace, name)| ObjectRef {
                api_version: "v1".to_string(),
                kind: kind.to_string(),
                namespace: namespace.map(str::to_string),
                name: name.to_string(),
            })
            .collect()
    }

    fn fleet() -> Vec<ObjectRef> {
        sources(&[
            ("Deployment", Some("shop"), "catalog"),
            ("FederatedDeployment", Some("shop"), "catalog"),
            ("Placement", Some("shop"), "storefront"),
            ("ReplicaSchedulingPreference", Some("shop"), "catalog"),
            ("Placement", Some("ci"), "canary"),
        ])
    }

    #[test]
    fn a_unique_name_needs_no_kind_or_namespace() {
        assert_eq!(find_item(&fleet(), "storefront"), Ok(2));
    }

    #[test]
    fn kinds_match_case_insensitively_in_plural_and_short_form() {
        for query in [
            "deployment/shop/catalog",
            "Deployment/catalog",
            "deployments/catalog",
            "deploy/shop/catalog",
        ] {
            assert_eq!(find_item(&fleet(), query), Ok(0), "{query}");
        }
        assert_eq!(find_item(&fleet(), "rsp/catalog"), Ok(3));
    }

    #[test]
    fn two_parts_may_be_a_namespace() {
        assert_eq!(find_item(&fleet(), "ci/canary"), Ok(4));
    }

    #[test]
    fn ambiguous_names_list_every_match() {
        assert_eq!(
            find_item(&fleet(), "shop/catalog").map_err(|error| error.to_string()),
            Err(
                "\"shop/catalog\" is ambiguous: it names Deployment/shop/catalog, \
                 FederatedDeployment/shop/catalog, ReplicaSchedulingPreference/shop/catalog; \
                 add the kind or namespace"
                    .to_string()
            )
        );
    }

    #[test]
    fn unknown_names_suggest_close_matches() {
        assert_eq!(
            find_item(&fleet(), "storefrnt").map_err(|error| error.to_string()),
            Err("no item \"storefrnt\" in the inputs, did you mean storefront?".to_string())
        );
        assert_eq!(
            find_item(&fleet(), "Placement/shop/storefrnt").map_err(|error| error.to_string()),
            Err(
                "no item \"Placement/shop/storefrnt\" in the inputs, did you mean placement/shop/storefront?"
                    .to_string()
            )
        );
    }

    #[test]
    fn unknown_clusters_suggest_close_matches() {
        let clusters = ["aws-eu-west-prod-1"];
        assert_eq!(
            find_cluster(&clusters, "in the inventory", "aws-eu-west-prod-1"),
            Ok(())
        );
        assert_eq!(
            find_cluster(&clusters, "in the inventory", "aws-eu-west-prod1").map_err(|error| error.to_string()),
            Err("--cluster: no cluster named \"aws-eu-west-prod1\" in the inventory, did you mean aws-eu-west-prod-1?".to_string())
        );
    }
}
