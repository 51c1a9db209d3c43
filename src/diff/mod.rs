//! Plan-to-plan change sets (`fleetplan diff`) and unified diffs of the rendered plans.
//!
//! This module compares two `Plan` values; it never recomputes a plan. Rendering a change
//! set is `render::diff`.

mod change_set;
mod compare;
mod decisions;
mod merge;

pub use change_set::{
    ConditionChange, ConditionState, CountChange, ErrorState, GroupChange, ItemChange, PlanDiff,
    RolloutChange, ValueChange,
};
pub use compare::compare;
pub use decisions::decisions_view;
