//! `-o decisions`: apply-ready PlacementDecision objects, as the OCM scheduler would write them.

use serde::Serialize;
use std::collections::BTreeMap;

use crate::plan::{ItemTrace, PlanOutcome};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PlacementDecision<'a> {
    api_version: &'static str,
    kind: &'static str,
    metadata: Metadata<'a>,
    status: Status<'a>,
}

#[derive(Serialize)]
struct Metadata<'a> {
    name: &'a str,
    namespace: &'a str,
    labels: &'a BTreeMap<String, String>,
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

/// One YAML stream, `---` separated, in plan item order then decision name order.
pub fn yaml(outcome: &PlanOutcome) -> String {
    let mut out = String::new();
    for trace in &outcome.traces {
        let ItemTrace::Placement(result) = trace else {
            continue;
        };
        for decision in &result.decisions {
            let object = PlacementDecision {
                api_version: "cluster.open-cluster-management.io/v1beta1",
                kind: "PlacementDecision",
                metadata: Metadata {
                    name: &decision.name,
                    namespace: &decision.namespace,
                    labels: &decision.labels,
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
            // Plain strings and maps always serialize.
            out.push_str(&serde_yaml::to_string(&object).unwrap_or_default());
        }
    }
    out
}
