//! The plan steps of the APIs without a folder of their own yet: how their workloads become
//! plan items (`crate::registry::plan` chooses one per workload).

pub(crate) mod replicas;

use crate::selector::SelectorError;

/// A selector a workload's clusters cannot be chosen by, named by the field it was read
/// from: the item fails closed, as the federation controllers placed it nowhere.
#[derive(Debug, thiserror::Error)]
#[error("{field}: {error}")]
pub(crate) struct SelectionError {
    pub(crate) field: &'static str,
    pub(crate) error: SelectorError,
}
