//! `-o decisions`: apply-ready PlacementDecision objects, as the OCM scheduler would write them.

use std::borrow::Cow;

use serde::Serialize;

use crate::model::Metadata;
use crate::ocm::PlacementResult;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PlacementDecision<'a> {
    api_version: &'static str,
    kind: &'static str,
    metadata: Metadata<'a>,
    status: Status<'a>,
}

#[derive(Serialize)]
struct Status<'a> {
    decisions: Vec<ClusterDecision<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ClusterDecision<'a> {
    cluster_name: &'a str,
    reason: &'static str,
}

/// The head of every `-o decisions` stream. A PlacementDecision's decisions are in `status`, a
/// subresource: `kubectl apply` creates the objects but drops it, so the commands that do write
/// it are given where the output is read (docs/formats.md repeats them, and a test holds the two
/// together). `kubectl replace --subresource=status` is not one of them: a custom resource is
/// only replaced at its current `metadata.resourceVersion`, which a plan cannot know.
pub(crate) const HEADER: &str = "\
# PlacementDecisions as the OCM scheduler would write them. Their decisions are in status, a
# subresource that a plain `kubectl apply` drops. Create the objects, then write their status:
#   kubectl apply --server-side -f decisions.yaml
#   kubectl apply --server-side --subresource=status -f decisions.yaml    # kubectl >= 1.32
# With kubectl 1.24 to 1.31, write each object's status with
#   kubectl patch placementdecision NAME -n NAMESPACE --subresource=status --type=merge -p '{\"status\":{...}}'
# The hub's scheduler owns these objects and rewrites them on its next sync of the Placement.
";

/// A Placement's PlacementDecision objects in decision name order, each a YAML document
/// after `---` (the `-o decisions` stream is [`HEADER`] then every Placement item's, in plan
/// item order).
pub(crate) fn objects(result: &PlacementResult) -> Result<String, serde_yaml::Error> {
    let mut out = String::new();
    for decision in &result.decisions {
        let object = PlacementDecision {
            api_version: "cluster.open-cluster-management.io/v1beta1",
            kind: "PlacementDecision",
            metadata: Metadata {
                labels: Cow::Borrowed(&decision.labels),
                ..Metadata::named(&decision.name, Some(&decision.namespace))
            },
            status: Status {
                decisions: decision
                    .clusters
                    .iter()
                    .map(|cluster| ClusterDecision {
                        cluster_name: cluster,
                        reason: "",
                    })
                    .collect(),
            },
        };
        out.push_str("---\n");
        out.push_str(&crate::yaml11::to_string(&object)?);
    }
    Ok(out)
}
