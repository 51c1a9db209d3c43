//! The scheduler's filters, in upstream's order: Predicate, then TaintToleration.

pub mod cel;
pub mod predicate;
pub mod taint;
