//! The KubeFleet mix of the `kubefleet` benchmark: MemberClusters as `kubectl get
//! memberclusters -o json` exports them, and ClusterResourcePlacements of every placement
//! type. A pure function of its sizes (a multiplicative hash of each index), never of the
//! clock: the heartbeats are set against the benchmark's `--now`.

use serde_json::{json, Value};

const REGIONS: [&str; 8] = [
    "us-east",
    "us-west",
    "eu-west",
    "eu-central",
    "ap-south",
    "ap-east",
    "sa-east",
    "af-south",
];
const ENVS: [&str; 3] = ["prod", "staging", "dev"];

/// The member agents' heartbeats of the generated MemberClusters, for a plan at `--now
/// 2026-01-02T00:00:00Z` (the `kubefleet` benchmark's `NOW`, `just scale`'s `kubefleet`
/// input): 30 seconds old, and (2% of them) past the hub's 5-minute timeout.
pub const HEARTBEAT: &str = "2026-01-01T23:59:30Z";
pub const STALE: &str = "2026-01-01T23:50:00Z";

/// A well-mixed number from `index` and `salt` (SplitMix64's finalizer), below `n`.
fn draw(index: usize, salt: u64, n: usize) -> usize {
    let mut z = (index as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(salt.wrapping_mul(0xBF58_476D_1CE4_E5B9));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z % n.max(1) as u64) as usize
}

fn member_name(i: usize) -> String {
    format!("member-{i:06}")
}

/// The i-th MemberCluster: region, zone and env labels, a node-count property and available
/// CPU, a healthy member agent whose heartbeat is 30 seconds old; 3% tainted for maintenance,
/// 2% with a heartbeat past the hub's 5-minute timeout.
fn member_cluster(i: usize, heartbeat: &str, stale: &str) -> Value {
    let region = REGIONS[draw(i, 1, REGIONS.len())];
    let mut cluster = json!({
        "apiVersion": "cluster.kubernetes-fleet.io/v1beta1",
        "kind": "MemberCluster",
        "metadata": {
            "name": member_name(i),
            "labels": {
                "region": region,
                "zone": format!("{region}-{}", ["a", "b", "c"][draw(i, 2, 3)]),
                "env": ENVS[draw(i, 3, ENVS.len())],
            },
        },
        "spec": {"identity": {"kind": "ServiceAccount", "name": "fleet-member-agent-sa", "namespace": "fleet-system"}},
        "status": {
            "properties": {
                "kubernetes-fleet.io/node-count": {"value": format!("{}", 3 + draw(i, 4, 60))},
            },
            "resourceUsage": {"available": {"cpu": format!("{}", 4 + draw(i, 5, 200))}},
            "agentStatus": [{
                "type": "MemberAgent",
                "lastReceivedHeartbeat": if draw(i, 6, 100) < 2 { stale } else { heartbeat },
                "conditions": [
                    {"type": "Joined", "status": "True", "reason": "Joined", "lastTransitionTime": "2025-12-01T00:00:00Z"},
                    {"type": "Healthy", "status": "True", "reason": "Healthy", "lastTransitionTime": "2025-12-01T00:00:00Z"},
                ],
            }],
        },
    });
    if draw(i, 7, 100) < 3 {
        cluster["spec"]["taints"] =
            json!([{"key": "maintenance", "value": "true", "effect": "NoSchedule"}]);
    }
    cluster
}

/// The i-th ClusterResourcePlacement: 40% PickN of 1–10 in three regions, preferring more
/// nodes; 10% PickN of 2–5 spread over zones (one pick per cycle); 30% PickAll of one
/// region's env in one zone; 20% PickFixed of three members.
fn placement(i: usize, clusters: usize) -> Value {
    let kind = draw(i, 10, 10);
    let region = |salt| REGIONS[draw(i, salt, REGIONS.len())];
    let in_regions = json!({"clusterSelectorTerms": [{"labelSelector": {"matchExpressions": [
        {"key": "region", "operator": "In", "values": [region(11), region(12), region(13)]},
    ]}}]});
    let policy = match kind {
        0..=3 => json!({
            "placementType": "PickN",
            "numberOfClusters": 1 + draw(i, 14, 10),
            "affinity": {"clusterAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": in_regions,
                "preferredDuringSchedulingIgnoredDuringExecution": [{
                    "weight": 40,
                    "preference": {"propertySorter": {"name": "kubernetes-fleet.io/node-count", "sortOrder": "Descending"}},
                }],
            }},
        }),
        4 => json!({
            "placementType": "PickN",
            "numberOfClusters": 2 + draw(i, 15, 4),
            "affinity": {"clusterAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": in_regions}},
            "topologySpreadConstraints": [{"topologyKey": "zone"}],
        }),
        5..=7 => {
            let region = region(16);
            json!({
                "placementType": "PickAll",
                "affinity": {"clusterAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                    "clusterSelectorTerms": [{"labelSelector": {"matchLabels": {
                        "region": region,
                        "zone": format!("{region}-{}", ["a", "b", "c"][draw(i, 17, 3)]),
                        "env": ENVS[draw(i, 18, ENVS.len())],
                    }}}],
                }}},
                "tolerations": [{"key": "maintenance", "operator": "Exists"}],
            })
        }
        _ => {
            // Three members, each named once (upstream refuses a repeated name).
            let names: std::collections::BTreeSet<String> = [19, 20, 21]
                .into_iter()
                .map(|salt| member_name(draw(i, salt, clusters)))
                .collect();
            json!({"placementType": "PickFixed", "clusterNames": names})
        }
    };
    json!({
        "apiVersion": "placement.kubernetes-fleet.io/v1beta1",
        "kind": "ClusterResourcePlacement",
        "metadata": {"name": format!("crp-{i:05}")},
        "spec": {
            "resourceSelectors": [{"group": "", "version": "v1", "kind": "Namespace", "name": format!("app-{i:05}")}],
            "policy": policy,
        },
    })
}

/// `clusters` MemberClusters and `placements` ClusterResourcePlacements; `heartbeat` is a
/// fresh heartbeat time and `stale` one past the timeout (both RFC 3339).
pub fn generate(
    clusters: usize,
    placements: usize,
    heartbeat: &str,
    stale: &str,
) -> (Vec<Value>, Vec<Value>) {
    let fleet = (0..clusters)
        .map(|i| member_cluster(i, heartbeat, stale))
        .collect();
    let workloads = (0..placements).map(|i| placement(i, clusters)).collect();
    (fleet, workloads)
}
