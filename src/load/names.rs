//! Object names and namespaces checked as the API server (or the placement API's own
//! webhook) checks them, with their messages. A name that passes is one DNS label, DNS
//! subdomain or URL path segment: never `..`, never with a `/`, so a name can safely become
//! part of a file name (`migrate --out`).

use std::collections::BTreeMap;

use super::decode::FieldError;
use crate::model::echo;
use crate::selector::{
    dns1035_label_errors, dns1123_label_errors, dns1123_subdomain_errors, is_lowered_dns1035_label,
    label_key_errors, label_value_errors, path_segment_errors,
};

/// How a kind's `metadata.name` is validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Names {
    /// `NameIsDNSSubdomain`: most built-in kinds and every custom resource.
    Subdomain,
    /// `NameIsDNSLabel`: Namespaces, and OCM's cluster object (its webhook validates the name
    /// as a namespace name: the hub makes a namespace of it).
    Label,
    /// `NameIsDNS1035Label`: Services.
    Dns1035,
    /// `ValidateRBACName` (`IsValidPathSegmentName`): Roles, ClusterRoles and their bindings.
    PathSegment,
    /// Karmada's `ValidateClusterName`: at most 48 characters (the execution namespace adds a
    /// 15-character prefix), then a DNS label.
    KarmadaCluster,
}

/// The most characters Karmada allows in a Cluster's name.
const KARMADA_CLUSTER_NAME_MAX: usize = 48;

/// Built-in kinds whose names are not DNS subdomains; the kinds fleetplan reads say theirs in
/// `load/kinds`.
const BUILT_IN: &[(&str, &str, Names)] = &[
    ("", "Namespace", Names::Label),
    ("", "Service", Names::Dns1035),
    ("rbac.authorization.k8s.io", "Role", Names::PathSegment),
    (
        "rbac.authorization.k8s.io",
        "ClusterRole",
        Names::PathSegment,
    ),
    (
        "rbac.authorization.k8s.io",
        "RoleBinding",
        Names::PathSegment,
    ),
    (
        "rbac.authorization.k8s.io",
        "ClusterRoleBinding",
        Names::PathSegment,
    ),
];

/// The rule for names of `kind` in `group`.
pub(super) fn names_of(group: &str, kind: &str) -> Names {
    BUILT_IN
        .iter()
        .find(|(g, k, _)| *g == group && *k == kind)
        .map(|(_, _, names)| *names)
        .or_else(|| super::kinds::names(group, kind))
        .unwrap_or(Names::Subdomain)
}

impl Names {
    /// Every reason `name` is refused (empty when it is valid).
    pub(crate) fn errors(self, name: &str) -> Vec<String> {
        match self {
            Names::Subdomain => dns1123_subdomain_errors(name),
            Names::Label => dns1123_label_errors(name),
            Names::Dns1035 => dns1035_label_errors(name),
            Names::PathSegment => path_segment_errors(name),
            Names::KarmadaCluster if name.len() > KARMADA_CLUSTER_NAME_MAX => {
                vec![format!(
                    "must be no more than {KARMADA_CLUSTER_NAME_MAX} characters"
                )]
            }
            Names::KarmadaCluster => dns1123_label_errors(name),
        }
    }
}

/// `ValidateNamespaceName`: every reason `namespace` is refused.
pub(super) fn namespace_errors(namespace: &str) -> Vec<String> {
    dns1123_label_errors(namespace)
}

/// The API server's `field.Invalid` text: `Invalid value: "VALUE": REASON, REASON`.
pub(crate) fn invalid_value(value: &str, errors: &[String]) -> String {
    format!("Invalid value: {:?}: {}", echo(value), errors.join(", "))
}

/// Why `kind` names no kind the API server could serve: a CustomResourceDefinition's kind must
/// be a DNS-1035 label in lower case, and every built-in kind is one.
pub(super) fn kind_errors(kind: &str) -> Vec<String> {
    // Every object's kind is checked, and nearly every kind is a valid label once lowered:
    // said without lowering a copy first.
    if is_lowered_dns1035_label(kind) {
        return Vec::new();
    }
    let errors = dns1035_label_errors(&kind.to_ascii_lowercase());
    if errors.is_empty() {
        return errors;
    }
    vec![format!(
        "expected a kind that is a DNS-1035 label in lower case, as a CustomResourceDefinition requires: {}",
        errors.join(", ")
    )]
}

/// What the API server would refuse in an object's identity as written: the field and why.
/// Load checks every object it reads with this; `migrate` checks what it writes again
/// before a name becomes part of a file name.
pub(crate) fn refused_identity(
    group: &str,
    kind: &str,
    namespace: Option<&str>,
    name: &str,
) -> Option<(&'static str, String)> {
    let kind_errors = kind_errors(kind);
    if !kind_errors.is_empty() {
        return Some(("kind", invalid_value(kind, &kind_errors)));
    }
    let name_errors = names_of(group, kind).errors(name);
    if !name_errors.is_empty() {
        return Some(("metadata.name", invalid_value(name, &name_errors)));
    }
    let namespace_errors = namespace.map(namespace_errors).unwrap_or_default();
    if !namespace_errors.is_empty() {
        return Some((
            "metadata.namespace",
            invalid_value(namespace.unwrap_or_default(), &namespace_errors),
        ));
    }
    None
}

/// A name given on the command line that the API server would refuse: its validation
/// messages, as the API server lists them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.join(", "))]
pub(crate) struct InvalidName(pub Vec<String>);

/// `-n/--namespace`, checked as the API server checks `metadata.namespace` (clap names the
/// flag and the value).
pub(crate) fn parse_namespace(namespace: &str) -> Result<String, InvalidName> {
    match namespace_errors(namespace) {
        errors if errors.is_empty() => Ok(namespace.to_string()),
        errors => Err(InvalidName(errors)),
    }
}

/// apimachinery's `ValidateLabelName`: a label key that is no qualified name, reported at
/// `path` (`metadata.labels`, or an inventory entry's `labels`) with the key.
pub(super) fn label_key_error(path: impl Into<String>, key: &str) -> Option<FieldError> {
    let errors = label_key_errors(key);
    (!errors.is_empty()).then(|| FieldError::new(path, invalid_value(key, &errors)))
}

/// apimachinery's `ValidateLabels` (`metav1validation`), which `ValidateObjectMeta` runs on
/// every object: each key a qualified name, each value a label value, both reported at
/// `metadata.labels` with the offending key or value. The first refusal, in key order (Go's
/// map order is random; sorted keys make the report deterministic).
pub(crate) fn metadata_label_error(labels: &BTreeMap<String, String>) -> Option<FieldError> {
    const PATH: &str = "metadata.labels";
    labels.iter().find_map(|(key, value)| {
        label_key_error(PATH, key).or_else(|| {
            let errors = label_value_errors(value);
            (!errors.is_empty()).then(|| FieldError::new(PATH, invalid_value(value, &errors)))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_have_their_upstream_rules() {
        assert_eq!(names_of("", "ConfigMap"), Names::Subdomain);
        assert_eq!(names_of("", "Service"), Names::Dns1035);
        assert_eq!(
            names_of("rbac.authorization.k8s.io", "ClusterRole"),
            Names::PathSegment
        );
        assert_eq!(
            names_of("cluster.open-cluster-management.io", "ManagedCluster"),
            Names::Label
        );
        assert_eq!(
            names_of("cluster.karmada.io", "Cluster"),
            Names::KarmadaCluster
        );
    }

    #[test]
    fn karmada_cluster_names_are_short_labels() {
        assert!(Names::KarmadaCluster.errors(&"a".repeat(48)).is_empty());
        assert_eq!(
            Names::KarmadaCluster.errors(&"a".repeat(49)),
            vec!["must be no more than 48 characters"]
        );
        assert_eq!(
            Names::KarmadaCluster.errors("a.b"),
            vec!["must not contain dots"]
        );
    }

    /// Checked without lowering a copy, a kind is refused exactly when its lowered copy is not
    /// a DNS-1035 label, with that check's reasons.
    #[test]
    fn a_kind_is_refused_when_its_lowered_form_is_not_a_dns_1035_label() {
        let long = "K".repeat(63);
        let too_long = "K".repeat(64);
        for kind in [
            "Policy", "A", "x", "Kind-2", "ABC-123", "", "-Kind", "Kind-", "1Kind", "Kind_1",
            "Kïnd", "K.ind", "K ind", &long, &too_long,
        ] {
            let lowered = dns1035_label_errors(&kind.to_ascii_lowercase());
            let errors = kind_errors(kind);
            assert_eq!(errors.is_empty(), lowered.is_empty(), "{kind:?}");
            if !lowered.is_empty() {
                assert_eq!(errors, vec![format!(
                    "expected a kind that is a DNS-1035 label in lower case, as a CustomResourceDefinition requires: {}",
                    lowered.join(", ")
                )]);
            }
        }
    }

    #[test]
    fn invalid_values_are_echoed_short() {
        let long = "A".repeat(10_000);
        let message = invalid_value(&long, &["bad".to_string()]);
        assert!(message.len() < 200, "{message}");
        assert!(message.starts_with("Invalid value: \"AAAA"));
        assert!(message.ends_with("(10000 bytes): bad"));
    }

    #[test]
    fn namespace_flag_values_are_labels() {
        assert_eq!(parse_namespace("shop").as_deref(), Ok("shop"));
        assert!(parse_namespace("a/../../esc")
            .unwrap_err()
            .to_string()
            .starts_with("a lowercase RFC 1123 label"));
    }
}
