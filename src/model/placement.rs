//! OCM `Placement` and `PlacementRule` specs, with the CRD defaults applied on load.
// Owned by the placement engine work (issue 4).

/// `spec` of a Placement, v1alpha1 and v1beta1 normalised to the v1beta1 shape.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlacementSpec {}

/// `spec` of a PlacementRule.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlacementRuleSpec {}
