//! Plan-to-plan change sets (`fleetplan diff`) and unified diffs of the rendered plans.
//!
//! This module compares two `Plan` values; it never recomputes a plan. Rendering a change
//! set is `render::diff`.

mod change_set;
mod compare;
mod decisions;

pub(crate) use change_set::{
    ConditionChange, ConditionState, CountChange, ErrorState, ItemChange, PlanDiff,
};
pub use compare::compare;
pub(crate) use decisions::decisions_view;
