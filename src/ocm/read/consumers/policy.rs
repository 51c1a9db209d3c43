//! The governance policy API (`policy.open-cluster-management.io`): `Policy`, `PolicySet`
//! and the `PlacementBinding` that binds them to a Placement or PlacementRule
//! (open-cluster-management-io/governance-policy-propagator `api/v1`, `api/v1beta1`).

use serde::Deserialize;

use super::{consumer, not_empty, one_of, WithSpec};
use crate::load::decode::{null_as_default, FieldError};
use crate::load::kinds::{claimed, Api, KnownKind};
use crate::load::model_builder::{Decoded, Entry};
use crate::load::names::Names;
use crate::load::object::{Object, Scope};
use crate::load::LoadError;
use crate::ocm::model::consumer::{ConsumerSpec, PlacementBinding};
use crate::registry::ApiObject;

pub(crate) const GROUP: &str = "policy.open-cluster-management.io";

pub(crate) const API: Api = Api {
    kinds: &[
        KnownKind {
            group: GROUP,
            kind: "Policy",
            versions: &["v1"],
            scope: Scope::Namespaced,
            names: Names::Subdomain,
            read: policy,
        },
        KnownKind {
            group: GROUP,
            kind: "PolicySet",
            versions: &["v1beta1"],
            scope: Scope::Namespaced,
            names: Names::Subdomain,
            read: policy_set,
        },
        KnownKind {
            group: GROUP,
            kind: "PlacementBinding",
            versions: &["v1"],
            scope: Scope::Namespaced,
            names: Names::Subdomain,
            read: placement_binding,
        },
    ],
    claims: None,
};

#[derive(Default, Deserialize)]
struct PolicySpec {
    #[serde(default, deserialize_with = "null_as_default")]
    disabled: bool,
}

fn policy(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: WithSpec<PolicySpec> = object.decode()?;
    let spec = ConsumerSpec::Policy {
        disabled: doc.spec.disabled,
    };
    Ok(consumer(object, spec))
}

#[derive(Default, Deserialize)]
struct PolicySetSpec {
    #[serde(default, deserialize_with = "null_as_default")]
    policies: Vec<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    exclusions: Vec<Exclusion>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Exclusion {
    policy_name: String,
    #[serde(default, deserialize_with = "null_as_default")]
    cluster_names: Vec<String>,
}

fn policy_set(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: WithSpec<PolicySetSpec> = object.decode()?;
    for (at, policy) in doc.spec.policies.iter().enumerate() {
        not_empty(&format!("spec.policies[{at}]"), policy).map_err(|e| object.invalid(e))?;
    }
    let spec = ConsumerSpec::PolicySet {
        policies: doc.spec.policies,
        exclusions: doc
            .spec
            .exclusions
            .into_iter()
            .map(|exclusion| (exclusion.policy_name, exclusion.cluster_names))
            .collect(),
    };
    Ok(consumer(object, spec))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BindingDoc {
    #[serde(default)]
    placement_ref: Option<Reference>,
    #[serde(default)]
    subjects: Option<Vec<Reference>>,
    #[serde(default)]
    sub_filter: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    binding_overrides: Overrides,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Reference {
    #[serde(default)]
    api_group: Option<String>,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Overrides {
    #[serde(default)]
    remediation_action: Option<String>,
}

/// A reference's `apiGroup`, `kind` and `name`, each required and not empty, the first two
/// one of `groups` and `kinds`. The field paths are written only for an error: a hub's
/// thousands of bindings are read on every run.
fn reference(
    path: impl Fn() -> String,
    reference: Option<Reference>,
    groups: &[&str],
    kinds: &[&str],
) -> Result<(String, String, String), FieldError> {
    let reference = reference.ok_or_else(|| FieldError::new(path(), "Required value"))?;
    let field = |name: &str, value: Option<String>, allowed: &[&str]| {
        let at = || format!("{}.{name}", path());
        let value = value.ok_or_else(|| FieldError::new(at(), "Required value"))?;
        if value.is_empty() {
            not_empty(&at(), &value)?;
        }
        if !allowed.is_empty() && !allowed.contains(&value.as_str()) {
            one_of(&at(), &value, allowed)?;
        }
        Ok::<String, FieldError>(value)
    };
    let group = field("apiGroup", reference.api_group, groups)?;
    let kind = field("kind", reference.kind, kinds)?;
    let name = field("name", reference.name, &[])?;
    Ok((group, kind, name))
}

fn placement_binding(object: Object<'_>) -> Result<Decoded, LoadError> {
    let doc: BindingDoc = object.decode()?;
    let (api_group, kind, name) = reference(
        || "placementRef".to_string(),
        doc.placement_ref,
        &[
            "apps.open-cluster-management.io",
            "cluster.open-cluster-management.io",
        ],
        &["PlacementRule", "Placement"],
    )
    .map_err(|e| object.invalid(e))?;
    let subjects = doc
        .subjects
        .ok_or_else(|| FieldError::new("subjects", "Required value"))
        .map_err(|e| object.invalid(e))?;
    if subjects.is_empty() {
        return Err(object.invalid(FieldError::new(
            "subjects",
            "Invalid value: 0: subjects in body should have at least 1 items",
        )));
    }
    let subjects = subjects
        .into_iter()
        .enumerate()
        .map(|(at, subject)| {
            reference(
                || format!("subjects[{at}]"),
                Some(subject),
                &[GROUP],
                &["Policy", "PolicySet"],
            )
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| object.invalid(e))?;
    if let Some(filter) = &doc.sub_filter {
        one_of("subFilter", filter, &["restricted"]).map_err(|e| object.invalid(e))?;
    }
    let remediation_override = doc.binding_overrides.remediation_action;
    if let Some(action) = &remediation_override {
        one_of(
            "bindingOverrides.remediationAction",
            action,
            &["Enforce", "enforce"],
        )
        .map_err(|e| object.invalid(e))?;
    }
    let binding = PlacementBinding {
        object: object.object.clone(),
        source: object.source.clone(),
        api_group,
        kind,
        name,
        subjects,
        restricted: doc.sub_filter.is_some(),
        remediation_override,
    };
    Ok(claimed(
        object,
        Entry::Api(ApiObject::PlacementBinding(binding)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refer(group: Option<&str>, kind: Option<&str>, name: Option<&str>) -> Option<Reference> {
        Some(Reference {
            api_group: group.map(str::to_string),
            kind: kind.map(str::to_string),
            name: name.map(str::to_string),
        })
    }

    /// Each refusal names the field it is at, as the CRD's schema would, in field order.
    #[test]
    fn a_reference_is_refused_at_its_first_bad_field() {
        let path = || "subjects[1]".to_string();
        let check = |reference| {
            super::reference(path, reference, &[GROUP], &["Policy", "PolicySet"])
                .map_err(|error| format!("{}: {}", error.path, error.message))
        };
        let cases = [
            (None, "subjects[1]: Required value"),
            (refer(None, Some("Policy"), Some("p")), "subjects[1].apiGroup: Required value"),
            (
                refer(Some(""), Some("Policy"), Some("p")),
                "subjects[1].apiGroup: Invalid value: \"\": subjects[1].apiGroup in body should be at least 1 chars long",
            ),
            (
                refer(Some("x.io"), Some("Nope"), Some("p")),
                "subjects[1].apiGroup: Unsupported value: \"x.io\": supported values: \"policy.open-cluster-management.io\"",
            ),
            (
                refer(Some(GROUP), Some("Nope"), Some("p")),
                "subjects[1].kind: Unsupported value: \"Nope\": supported values: \"Policy\", \"PolicySet\"",
            ),
            (refer(Some(GROUP), Some("Policy"), None), "subjects[1].name: Required value"),
            (
                refer(Some(GROUP), Some("Policy"), Some("")),
                "subjects[1].name: Invalid value: \"\": subjects[1].name in body should be at least 1 chars long",
            ),
        ];
        for (reference, expected) in cases {
            assert_eq!(check(reference), Err(expected.to_string()));
        }
        assert_eq!(
            check(refer(Some(GROUP), Some("PolicySet"), Some("s"))),
            Ok((GROUP.to_string(), "PolicySet".to_string(), "s".to_string()))
        );
    }
}
