use super::{ObjectRef, Source};

/// A PlacementDecision (or a PlacementRule's `status.decisions`) read as input: what a
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
