//! Kubernetes resource quantities (`16`, `500m`, `64Gi`, `1e3`).
// Owned by the loader work (issue 2).

/// A quantity as written, with its approximate value (what OCM's resource prioritizers
/// compare: `resource.Quantity.AsApproximateFloat64`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Quantity {
    pub text: String,
    pub value: f64,
}
