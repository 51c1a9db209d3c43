//! Label selectors: requirements, the string syntax, metav1.LabelSelector, claim selectors,
//! the federation cluster-selector annotation, Kubernetes key/value validation, and a bitset
//! index for evaluating selectors over a whole fleet. Semantics: apimachinery `pkg/labels`.

mod annotation;
mod conjunction;
mod error;
#[cfg(test)]
mod fixtures;
mod label_selector;
mod parse;
mod requirement;
#[cfg(test)]
mod upstream_vectors;
mod validation;

pub use conjunction::Selector;
pub use error::{ErrorType, FieldError, SelectorError};
pub use label_selector::validate_label_selector;
pub use requirement::{Operator, Requirement};
