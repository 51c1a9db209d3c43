//! The scheduler's filters, in upstream's order: Predicate, then TaintToleration.

pub mod cel;
mod cel_check;
mod cel_limits;
pub mod predicate;
pub mod taint;
