//! What an OCM hub's release (`--ocm-version`, the framework's table in
//! migrate/hub_version.rs) serves of the migration's output.

use serde_yaml::Value;

use crate::migrate::hub_version::OcmVersion;
use crate::migrate::report::{Fidelity, FieldReport};
use crate::migrate::Converted;
use crate::ocm::model::decision::PLACEMENT_KIND;

/// `converted` as `version`'s hub serves it: without a celSelector where it has none, each
/// field that became one reported lost.
pub(super) fn restrict(version: &OcmVersion, converted: &mut Converted) {
    if version.cel_selector {
        return;
    }
    for emitted in &mut converted.outputs {
        if emitted.object.kind == PLACEMENT_KIND {
            without_cel_selectors(&mut emitted.value);
        }
    }
    for field in &mut converted.fields {
        if field.became.contains("celSelector") {
            *field = FieldReport {
                field: field.field.clone(),
                became: "not carried".to_string(),
                fidelity: Fidelity::Lost,
                reason: Some(format!(
                    "{version} serves no celSelector (open-cluster-management-io/api 2458a27a, first in v1.0): it would be {}",
                    field.became
                )),
            };
        }
    }
}

/// A Placement without `celSelector`s, and without a predicate left empty by that.
fn without_cel_selectors(placement: &mut Value) {
    let Some(Value::Sequence(predicates)) = placement
        .get_mut("spec")
        .and_then(|spec| spec.get_mut("predicates"))
    else {
        return;
    };
    predicates.retain_mut(|predicate| {
        let Some(Value::Mapping(selector)) = predicate.get_mut("requiredClusterSelector") else {
            return true;
        };
        selector.remove("celSelector");
        !selector.is_empty()
    });
}
