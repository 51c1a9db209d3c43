//! Plan-to-plan change sets (`fleetplan diff`) and unified diffs of the rendered plans.
//!
//! This module compares two `Plan` values; it never recomputes a plan.

mod change_set;
mod compare;
mod decisions;
#[cfg(test)]
mod fixtures;
mod merge;
mod paint;
mod text;
mod unified;

pub use change_set::{
    ChangesAtChange, ConditionChange, ConditionState, CountChange, GroupChange, ItemChange,
    PlanDiff,
};
pub use compare::compare;
pub use decisions::decisions_view;
pub use text::render_text;
pub use unified::unified_yaml_diff;
