//! The scheduler's filter plugins (upstream `pkg/placement/plugins/predicate` and
//! `tainttoleration`) and [`FILTERS`], the registry that runs them in upstream's order
//! (`controllers/scheduling/schedule.go`, `NewPluginScheduler`): Predicate, then
//! TaintToleration.
//!
//! A filter is called once per placement over the clusters still in the running (one
//! [`Feasible`] bitset or list, never once per cluster), and passes on what it keeps. What it
//! leaves for the steps after the filters (the compiled predicates, toleration expiries, why
//! each removed cluster was removed) goes into [`Filtered`].

pub(crate) mod cel;
mod cel_check;
mod cel_limits;
pub(crate) mod predicate;
pub(crate) mod taint;

use std::collections::HashMap;

use super::conditions::Status;
use super::feasible::Feasible;
use super::fleet::FleetIndex;
use super::previous::OwnClusters;
use super::trace::Verdict;
use super::PlacementInput;

/// What a filter reads of one placement's run.
pub(crate) struct FilterContext<'r> {
    pub input: &'r PlacementInput<'r>,
    /// The eligible clusterSets whose members are the placement's candidates.
    pub candidate_sets: &'r [String],
    /// Seed v1alpha1: the predicates that name clusterSets of their own.
    pub scopes: &'r [predicate::Scope],
    /// The placement's own previous decisions.
    pub own: Option<&'r OwnClusters>,
}

impl<'r> FilterContext<'r> {
    pub(crate) fn fleet(&self) -> &'r FleetIndex<'r> {
        &self.input.scheduler.fleet
    }
}

/// What the filters leave for the steps after them, besides the clusters they keep.
#[derive(Default)]
pub(crate) struct Filtered<'f> {
    /// Why each cluster a filter removed was removed (recorded only when traced).
    pub rejected: HashMap<usize, Verdict>,
    /// The compiled predicates: the seed's per-predicate selection asks them again.
    pub predicates: Option<predicate::Predicates<'f>>,
    /// Inventory index → when the toleration that keeps a tainted cluster expires.
    pub until: HashMap<usize, i64>,
}

impl Filtered<'_> {
    /// Where a filter records the verdicts of the clusters it removes: nowhere unless traced.
    pub(crate) fn rejected(
        &mut self,
        context: &FilterContext,
    ) -> Option<&mut HashMap<usize, Verdict>> {
        context.input.trace.then_some(&mut self.rejected)
    }
}

/// One filter plugin (upstream `plugins.Filter`).
pub(crate) trait Filter {
    /// Upstream's plugin name: the trace's pipeline names and the Misconfigured reason.
    fn name(&self) -> &'static str;

    /// The clusters of `clusters` it keeps, or the status that stops scheduling (upstream
    /// returns an error status: a misconfigured placement, a failed evaluation).
    fn filter<'f>(
        &self,
        context: &FilterContext<'f>,
        clusters: Feasible,
        filtered: &mut Filtered<'f>,
    ) -> Result<Feasible, Status>;

    /// Upstream `RequeueAfter`: when its verdict on the placement's own previous clusters
    /// changes (Unix seconds), if it ever does.
    fn requeue_at(&self, _context: &FilterContext) -> Option<i64> {
        None
    }
}

/// The registry: every filter, in the order upstream runs them.
pub(crate) const FILTERS: [&dyn Filter; 2] = [&predicate::Predicate, &taint::TaintToleration];

/// The names of the first `len` filters, comma-joined: upstream's key for the clusters left
/// after them (`Predicate`, `Predicate,TaintToleration`).
pub(crate) fn pipeline(len: usize) -> String {
    let names: Vec<&str> = FILTERS
        .iter()
        .take(len)
        .map(|filter| filter.name())
        .collect();
    names.join(",")
}
