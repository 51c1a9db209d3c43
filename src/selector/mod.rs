//! Label selectors: requirements, the string syntax, metav1.LabelSelector, claim selectors,
//! the federation cluster-selector annotation, Kubernetes key/value validation, and a fleet's
//! labels as one index: a label table for matching cluster by cluster and the bitsets built
//! from its ids for matching the whole fleet at once. Semantics: apimachinery `pkg/labels`.

mod annotation;
mod bits;
mod conjunction;
mod error;
mod index;
mod label_selector;
mod label_source;
mod label_table;
mod node_selector;
mod parse;
#[cfg(test)]
mod properties;
mod requirement;
pub(crate) mod upstream_vectors;
mod validation;
pub(crate) use validation::{
    dns1035_label_errors, dns1123_label_errors, dns1123_subdomain_errors, is_lowered_dns1035_label,
    is_qualified_key, label_key_errors, label_value_errors, path_segment_errors,
};

pub use bits::ClusterBits;
pub use conjunction::Selector;
pub(crate) use error::{go_quote, FieldError, SelectorError};
pub use index::LabelIndex;
pub(crate) use label_selector::validate_label_selector;
pub use label_table::LabelTable;
pub(crate) use label_table::TableSelector;
pub(crate) use requirement::{Operator, Requirement};

/// Whether Kubernetes accepts `key: value` as a label. Allocation-free when it does, so an
/// inventory of 100k clusters can be checked label by label.
pub(crate) fn is_valid_label(key: &str, value: &str) -> bool {
    validation::label_key_errors(key).is_empty() && validation::label_value_errors(value).is_empty()
}
