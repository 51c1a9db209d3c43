//! `federation.alpha.kubernetes.io/cluster-selector` → a Placement named
//! `<kind>-<name>` (lower-case kind: a ConfigMap and a Deployment may share a name) in the
//! object's namespace; the object is re-emitted without the annotation.
//!
//! Decisions:
//! - `In`/`in`, `NotIn`/`notin`, `Exists`/`exists`, `DoesNotExist`/`!` keep their operator;
//!   `=`/`==` become `In` and `!=` becomes `NotIn` with the one value (same truth table, the
//!   absent key included); `Gt`/`gt`/`>` and `Lt`/`lt`/`<` become CEL, since a labelSelector
//!   cannot compare.
//! - Federation placed objects on every *online* cluster it selected and knew nothing of OCM
//!   taints: the Placement tolerates every taint and asks, in CEL, for the Available condition
//!   to be True. OCM's default taint behaviour would also drop clusters with user `NoSelect`
//!   taints.
//! - What "identical" means for `--verify`: the set of clusters federation chose for the
//!   object (selector ∩ online) equals the Placement's decisions.

use crate::model::{LabelSelectorSpec, ObjectRef};
use crate::selector::Selector;

use super::cel;
use super::scope::{self, ClusterScope};
use crate::migrate::match_expression::{describe, match_expression};
use crate::migrate::object_error::ObjectError;
use crate::migrate::report::FieldReport;
use crate::migrate::{Converted, CLUSTER_SELECTOR_ANNOTATION};
use crate::model::Metadata;
use crate::ocm::model::placement::{
    ClusterPredicate, ClusterSelector, PlacementSpec, Toleration, PLACEMENT_API_VERSION,
};

/// The Placement's identity for an annotated object.
pub(crate) fn placement_ref(object: &ObjectRef) -> ObjectRef {
    ObjectRef {
        api_version: PLACEMENT_API_VERSION.to_string(),
        kind: "Placement".to_string(),
        namespace: object.namespace.clone(),
        name: format!("{}-{}", object.kind.to_ascii_lowercase(), object.name),
    }
}

pub(crate) fn convert(
    object: &ObjectRef,
    annotation: &str,
    scope: &ClusterScope,
) -> Result<Converted, ObjectError> {
    let selector = Selector::from_annotation(annotation)
        .map_err(|error| ObjectError::ClusterSelector { error })?;
    let mut fields = vec![scope::candidates_field(scope, "every cluster")];
    let mut expressions = Vec::new();
    let mut match_expressions = Vec::new();
    for requirement in selector.requirements() {
        let field = format!("metadata.annotations[{CLUSTER_SELECTOR_ANNOTATION}] {requirement}");
        let Some(expression) = match_expression(requirement) else {
            // Validation made the bound an integer; `values()[0]` is its text.
            let bound = requirement
                .values()
                .first()
                .and_then(|value| value.parse::<i64>().ok());
            let expression = bound
                .and_then(|bound| {
                    cel::label_compare(requirement.key(), requirement.operator(), bound)
                })
                .ok_or_else(|| ObjectError::IntegerBound {
                    field: field.clone(),
                })?;
            fields.push(
                FieldReport::exact(field, format!("celSelector {expression}")).because(
                    "a labelSelector cannot compare; CEL reads the label as a base-10 integer as the selector did",
                ),
            );
            expressions.push(expression);
            continue;
        };
        let index = match_expressions.len();
        fields.push(FieldReport::exact(
            field,
            format!(
                "labelSelector.matchExpressions[{index}] {}",
                describe(&expression)
            ),
        ));
        match_expressions.push(expression);
    }
    expressions.push(cel::available());
    fields.push(
        FieldReport::exact(
            "(online clusters only; taints unknown)",
            format!(
                "spec.tolerations [{{operator: Exists}}] and celSelector {}",
                cel::available()
            ),
        )
        .because("federation used every online cluster that matched and never read OCM taints"),
    );
    fields.push(FieldReport::exact(
        format!("metadata.annotations[{CLUSTER_SELECTOR_ANNOTATION}]"),
        "removed from the object",
    ));
    let placement = PlacementSpec {
        cluster_sets: vec![scope.set.clone()],
        predicates: vec![ClusterPredicate {
            required_cluster_selector: ClusterSelector {
                label_selector: (!match_expressions.is_empty()).then_some(LabelSelectorSpec {
                    match_labels: None,
                    match_expressions: Some(match_expressions),
                }),
                cel_selector: expressions,
                ..ClusterSelector::default()
            },
            ..ClusterPredicate::default()
        }],
        tolerations: vec![Toleration::everything()],
        ..PlacementSpec::default()
    };
    Ok(Converted {
        outputs: vec![super::placement(
            Metadata::of(&placement_ref(object)),
            placement,
        )?],
        fields,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object() -> ObjectRef {
        ObjectRef {
            api_version: "v1".into(),
            kind: "ConfigMap".into(),
            namespace: Some("shop".into()),
            name: "settings".into(),
        }
    }

    fn scope() -> ClusterScope {
        ClusterScope {
            set: "global".into(),
            every_cluster: true,
            defined: false,
        }
    }

    fn spec_text(annotation: &str) -> String {
        match convert(&object(), annotation, &scope()) {
            Ok(converted) => {
                serde_yaml::to_string(&converted.outputs[0].value["spec"]).unwrap_or_default()
            }
            Err(error) => panic!("{error}"),
        }
    }

    #[test]
    fn placement_is_named_after_kind_and_name() {
        assert_eq!(placement_ref(&object()).name, "configmap-settings");
    }

    #[test]
    fn equality_operators_become_in_and_notin() {
        let text = spec_text(
            r#"[{"key":"a","operator":"=","values":["x"]},{"key":"b","operator":"==","values":["y"]},{"key":"c","operator":"!=","values":["z"]}]"#,
        );
        assert!(
            text.contains("- key: a\n        operator: In\n        values:\n        - x\n"),
            "{text}"
        );
        assert!(text.contains("- key: b\n        operator: In\n"), "{text}");
        assert!(
            text.contains("- key: c\n        operator: NotIn\n"),
            "{text}"
        );
    }

    #[test]
    fn gt_becomes_cel_over_the_label() {
        let text = spec_text(r#"[{"key":"tier","operator":">","values":["2"]}]"#);
        assert!(!text.contains("labelSelector"), "{text}");
        assert!(
            text.contains(r#"int(managedCluster.metadata.labels["tier"]) > 2"#),
            "{text}"
        );
    }

    #[test]
    fn malformed_annotation_is_an_error() {
        let error = convert(
            &object(),
            "[{\"key\":\"a\",\"operator\":\"like\"}]",
            &scope(),
        )
        .err()
        .map(|error| error.to_string())
        .unwrap_or_default();
        assert!(
            error.starts_with("annotation federation.alpha.kubernetes.io/cluster-selector: "),
            "{error}"
        );
    }
}
