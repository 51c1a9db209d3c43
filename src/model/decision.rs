use super::{ObjectRef, Plan, Source};

/// A hub's decision object (or an older OCM placement's `status.decisions`) read as input: what a
/// placement selected before. It feeds Steady, Balance and NoSelectIfNew.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreviousDecision {
    pub object: ObjectRef,
    /// The owning placement's name (label `cluster.open-cluster-management.io/placement`);
    /// empty when the label is missing: such a decision belongs to no placement.
    pub placement: String,
    pub clusters: Vec<String>,
    pub source: Source,
}

/// What `--previous` held, as it was read: a fleetplan Plan, or the decisions a live hub
/// exports, which reach the scheduler as they are (their names, objects and cluster order),
/// never folded into plan items.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Previous {
    Plan(Plan),
    /// A hub's decision objects and older OCM placements' `status.decisions`: they say only which
    /// clusters each placement chose, so `diff` compares nothing else against them.
    Decisions(Vec<PreviousDecision>),
}

impl Previous {
    /// Whether it holds nothing to compare with: no plan item, no decision.
    pub fn is_empty(&self) -> bool {
        match self {
            Previous::Plan(plan) => plan.items.is_empty(),
            Previous::Decisions(decisions) => decisions.is_empty(),
        }
    }
}
