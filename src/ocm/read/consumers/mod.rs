//! The kinds that consume an OCM placement, one file per API (see `model::consumer`): read
//! as written, with the checks their CRD schema makes at admission; which placement a
//! reference names is decided at plan time.

pub(crate) mod addon;
pub(crate) mod argo;
pub(crate) mod policy;
pub(crate) mod subscription;
pub(crate) mod work;

use serde::Deserialize;

use crate::load::decode::{null_as_default, FieldError};
use crate::load::kinds::workload;
use crate::load::model_builder::Decoded;
use crate::load::object::Object;
use crate::model::WorkloadKind;
use crate::ocm::model::consumer::ConsumerSpec;

/// An object read for its `spec` alone (`null` or absent: the spec's default).
#[derive(Default, Deserialize)]
#[serde(bound = "T: Default + Deserialize<'de>")]
struct WithSpec<T> {
    #[serde(default, deserialize_with = "null_as_default")]
    spec: T,
}

/// The object as a consumer workload (a plan item of its own).
fn consumer(object: Object<'_>, spec: ConsumerSpec) -> Decoded {
    workload(object, WorkloadKind::Consumer(Box::new(spec)), None)
}

/// The API server's refusal of a value outside a CRD enum.
fn one_of(path: &str, value: &str, allowed: &[&str]) -> Result<(), FieldError> {
    if allowed.contains(&value) {
        return Ok(());
    }
    let supported: Vec<String> = allowed.iter().map(|value| format!("{value:?}")).collect();
    Err(FieldError::new(
        path,
        format!(
            "Unsupported value: {:?}: supported values: {}",
            crate::model::echo(value),
            supported.join(", ")
        ),
    ))
}

/// The API server's refusal of an empty string where the CRD asks for `minLength: 1`.
fn not_empty(path: &str, value: &str) -> Result<(), FieldError> {
    if value.is_empty() {
        return Err(FieldError::new(
            path,
            format!("Invalid value: \"\": {path} in body should be at least 1 chars long"),
        ));
    }
    Ok(())
}
