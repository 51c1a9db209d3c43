//! The fleet and workload mix behind `genfleet` and the benchmarks: a pure function of its
//! [`Shape`] (a SplitMix64 stream seeded from `seed`), never of the clock.

use std::fs;
use std::path::Path;

use serde_json::{json, Value};

/// How big a fleet to generate.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub clusters: usize,
    pub placements: usize,
    pub replica_workloads: usize,
    /// Karmada Deployments, claimed by PropagationPolicies (one per ten) of every strategy.
    pub karmada_workloads: usize,
    /// Policies, the i-th bound by its PlacementBinding to the i-th Placement (at most one
    /// per Placement). They draw nothing from the random stream, so the rest of the mix is
    /// the same with or without them.
    pub policies: usize,
    pub seed: u64,
    /// How the clusters are written: one `ClusterInventory`, one OCM `ManagedCluster` each
    /// (what `kubectl get managedclusters -o json` exports), or one Karmada `Cluster` each.
    pub clusters_as: ClusterKind,
    /// Which fleet and Placements: the round-2 mix or the heavy selections of issue 32.
    pub mix: Mix,
}

/// The shape of the clusters' labels and of the Placements' selections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mix {
    /// 8 regions; 90% of the Placements pick 1–50 of a few thousand feasible clusters, 10%
    /// pin one zone; half the namespaces see one exclusive cluster set.
    Default,
    /// Selections as real fleets make them (issue 32): 30 regions and 200 teams; 70% of the
    /// Placements pick 1, 3, 5, 10, 50 or 200 clusters out of up to a fifth of the fleet,
    /// 30% take every cluster of one team (about 500); every namespace sees the whole fleet.
    Heavy,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterKind {
    Inventory,
    ManagedCluster,
    Karmada,
}

/// The fleet (one ClusterInventory, the cluster sets and their bindings) and the workloads
/// (Placements, then replica workloads of three kinds).
pub fn generate(shape: &Shape) -> (Vec<Value>, Vec<Value>) {
    let mut rng = Rng(shape.seed);
    let entries = inventory_entries(shape.clusters, shape.mix, &mut rng);
    let mut fleet = match shape.clusters_as {
        ClusterKind::Inventory => vec![json!({
            "apiVersion": "fleetplan.io/v1alpha1",
            "kind": "ClusterInventory",
            "metadata": {"name": "generated"},
            "clusters": entries,
        })],
        ClusterKind::ManagedCluster => entries.iter().map(managed_cluster).collect(),
        ClusterKind::Karmada => entries.iter().map(karmada_cluster).collect(),
    };
    fleet.extend(cluster_sets(shape.mix));
    let mut workloads: Vec<Value> = (0..shape.placements)
        .map(|i| match shape.mix {
            Mix::Default => placement(i, &mut rng),
            Mix::Heavy => heavy_placement(i, &mut rng),
        })
        .collect();
    workloads.extend((0..shape.replica_workloads).map(|i| replica_workload(i, &mut rng)));
    let policies = shape.karmada_workloads.div_ceil(KARMADA_GROUP);
    workloads.extend((0..policies).map(|i| propagation_policy(i, &mut rng)));
    workloads.extend((0..shape.karmada_workloads).map(|i| karmada_deployment(i, &mut rng)));
    workloads.extend((0..shape.policies.min(shape.placements)).flat_map(bound_policy));
    (fleet, workloads)
}

/// `DIR/fleet.FORMAT` and `DIR/workloads.FORMAT`, `format` being `json` or `yaml`.
pub fn write_dir(
    dir: &Path,
    format: &str,
    fleet: &[Value],
    workloads: &[Value],
) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (stem, objects) in [("fleet", fleet), ("workloads", workloads)] {
        let path = dir.join(format!("{stem}.{format}"));
        if format == "json" {
            write_json(&path, objects)?;
        } else {
            write_yaml(&path, objects)?;
        }
    }
    Ok(())
}

/// `objects` as one JSON `List`.
fn write_json(path: &Path, objects: &[Value]) -> Result<(), String> {
    let list = json!({"apiVersion": "v1", "kind": "List", "items": objects});
    let text = serde_json::to_string(&list).map_err(|e| e.to_string())?;
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// `objects` as a multi-document YAML stream.
fn write_yaml(path: &Path, objects: &[Value]) -> Result<(), String> {
    let mut text = String::new();
    for object in objects {
        text.push_str("---\n");
        text.push_str(&serde_yaml::to_string(object).map_err(|e| e.to_string())?);
    }
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

const REGIONS: [&str; 8] = [
    "us-east",
    "us-west",
    "eu-west",
    "eu-central",
    "ap-south",
    "ap-northeast",
    "sa-east",
    "ca-central",
];
const PROVIDERS: [&str; 3] = ["aws", "gcp", "azure"];
const PLATFORMS: [&str; 3] = ["AWS", "GCP", "Azure"];
const ENVS: [&str; 3] = ["prod", "staging", "dev"];
const TIERS: [&str; 3] = ["gold", "silver", "bronze"];
const VERSIONS: [&str; 4] = ["1.28", "1.29", "1.30", "1.31"];
/// The heavy mix's regions: a Placement naming 1–6 of them keeps up to a fifth of the fleet.
const HEAVY_REGIONS: [&str; 30] = [
    "us-east-1",
    "us-east-2",
    "us-west-1",
    "us-west-2",
    "us-central-1",
    "ca-central-1",
    "ca-west-1",
    "sa-east-1",
    "sa-west-1",
    "mx-central-1",
    "eu-west-1",
    "eu-west-2",
    "eu-west-3",
    "eu-central-1",
    "eu-central-2",
    "eu-north-1",
    "eu-south-1",
    "eu-south-2",
    "me-central-1",
    "me-south-1",
    "af-south-1",
    "ap-south-1",
    "ap-south-2",
    "ap-east-1",
    "ap-northeast-1",
    "ap-northeast-2",
    "ap-northeast-3",
    "ap-southeast-1",
    "ap-southeast-2",
    "ap-southeast-3",
];
/// The heavy mix's teams, a `team` label on every cluster (about 500 clusters each at 100k).
const TEAMS: usize = 200;
/// The heavy mix's `numberOfClusters` for bounded Placements.
const HEAVY_COUNTS: [usize; 6] = [1, 3, 5, 10, 50, 200];
const NAMESPACES: usize = 20;
const CLUSTER_SETS: usize = 10;
const CLUSTERSET_LABEL: &str = "cluster.open-cluster-management.io/clusterset";

/// SplitMix64: tiny, fast and good enough to spread labels; seeded, never from the clock.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// The clusters as `ClusterInventory` entries.
fn inventory_entries(clusters: usize, mix: Mix, rng: &mut Rng) -> Vec<Value> {
    let regions: &[&str] = match mix {
        Mix::Default => &REGIONS,
        Mix::Heavy => &HEAVY_REGIONS,
    };
    (0..clusters)
        .map(|i| {
            let provider = rng.below(PROVIDERS.len());
            let region = rng.pick(regions);
            let env = rng.pick(&ENVS);
            let cpu = 8 * (1 + rng.below(16));
            let memory = 32 * (1 + rng.below(16));
            let mut cluster = json!({
                "name": format!("cluster-{i:06}"),
                "labels": {
                    "region": region,
                    "provider": PROVIDERS[provider],
                    "env": env,
                    "tier": rng.pick(&TIERS),
                    "k8s-version": rng.pick(&VERSIONS),
                    "zone": format!("{region}-{}", (b'a' + rng.below(3) as u8) as char),
                },
                "claims": {
                    "platform.open-cluster-management.io": PLATFORMS[provider],
                    "region.open-cluster-management.io": region,
                },
                "sets": [format!("set-{}", i % CLUSTER_SETS)],
                "allocatable": {"cpu": format!("{cpu}"), "memory": format!("{memory}Gi")},
                // The resource prioritizers score only clusters that report both.
                "resourceCapacity": {
                    "cpu": format!("{}", cpu + 8),
                    "memory": format!("{}Gi", memory + 32),
                },
                "capacity": 20 + rng.below(200),
            });
            if rng.chance(3) {
                cluster["taints"] = json!([{
                    "key": "maintenance", "value": "true", "effect": "NoSelect",
                    "timeAdded": "2026-01-01T00:00:00Z",
                }]);
            }
            if rng.chance(2) {
                cluster["online"] = json!(false);
            }
            // Drawn last, so the default mix's stream is what it always was.
            if mix == Mix::Heavy {
                cluster["labels"]["team"] = json!(team(rng.below(TEAMS)));
            }
            cluster
        })
        .collect()
}

/// An inventory entry as the ManagedCluster the hub would hold: labels with the clusterset
/// label, claims in status, availability as a condition. (The replica capacity has no
/// ManagedCluster field and is left out.)
fn managed_cluster(entry: &Value) -> Value {
    let mut labels = entry["labels"].clone();
    labels[CLUSTERSET_LABEL] = entry["sets"][0].clone();
    let claims: Vec<Value> = entry["claims"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, value)| json!({"name": name, "value": value}))
        .collect();
    let available = if entry["online"] == json!(false) {
        "False"
    } else {
        "True"
    };
    let mut cluster = json!({
        "apiVersion": "cluster.open-cluster-management.io/v1",
        "kind": "ManagedCluster",
        "metadata": {"name": entry["name"], "labels": labels},
        "spec": {"hubAcceptsClient": true},
        "status": {
            "clusterClaims": claims,
            "allocatable": entry["allocatable"],
            "capacity": entry["resourceCapacity"],
            "conditions": [{"type": "ManagedClusterConditionAvailable", "status": available}],
        },
    });
    if !entry["taints"].is_null() {
        cluster["spec"]["taints"] = entry["taints"].clone();
    }
    cluster
}

fn cluster_sets(mix: Mix) -> Vec<Value> {
    let mut objects: Vec<Value> = (0..CLUSTER_SETS)
        .map(|s| {
            json!({
                "apiVersion": "cluster.open-cluster-management.io/v1beta2",
                "kind": "ManagedClusterSet",
                "metadata": {"name": format!("set-{s}")},
                "spec": {"clusterSelector": {"selectorType": "ExclusiveClusterSetLabel"}},
            })
        })
        .collect();
    objects.push(json!({
        "apiVersion": "cluster.open-cluster-management.io/v1beta2",
        "kind": "ManagedClusterSet",
        "metadata": {"name": "global"},
        "spec": {"clusterSelector": {"selectorType": "LabelSelector", "labelSelector": {}}},
    }));
    for ns in 0..NAMESPACES {
        let set = if ns % 2 == 0 || mix == Mix::Heavy {
            "global".to_string()
        } else {
            format!("set-{}", ns % CLUSTER_SETS)
        };
        objects.push(json!({
            "apiVersion": "cluster.open-cluster-management.io/v1beta2",
            "kind": "ManagedClusterSetBinding",
            "metadata": {"name": set, "namespace": format!("team-{ns:02}")},
            "spec": {"clusterSet": set},
        }));
    }
    objects
}

fn placement(i: usize, rng: &mut Rng) -> Value {
    // Most placements cap their decisions; the rest pin one zone. Without either, a
    // placement over 100k clusters decides thousands of them, and 10k such placements make a
    // plan of tens of millions of names: a test of the JSON writer, not of the scheduler.
    let bounded = rng.chance(90);
    let mut requirements = if bounded {
        vec![
            json!({"key": "region", "operator": "In", "values": [rng.pick(&REGIONS), rng.pick(&REGIONS), rng.pick(&REGIONS)]}),
        ]
    } else {
        let region = rng.pick(&REGIONS);
        let zone = format!("{region}-{}", (b'a' + rng.below(3) as u8) as char);
        vec![
            json!({"key": "region", "operator": "In", "values": [region]}),
            json!({"key": "zone", "operator": "In", "values": [zone]}),
        ]
    };
    requirements
        .push(json!({"key": "provider", "operator": "NotIn", "values": [rng.pick(&PROVIDERS)]}));
    let mut predicate = json!({"requiredClusterSelector": {
        "labelSelector": {"matchExpressions": requirements},
    }});
    if rng.chance(50) {
        predicate["requiredClusterSelector"]["labelSelector"]["matchLabels"] =
            json!({"env": rng.pick(&ENVS)});
    }
    if rng.chance(30) {
        predicate["requiredClusterSelector"]["claimSelector"] = json!({"matchExpressions": [
            {"key": "platform.open-cluster-management.io", "operator": "In", "values": [rng.pick(&PLATFORMS)]},
        ]});
    }
    let mut spec = json!({"predicates": [predicate]});
    if bounded {
        spec["numberOfClusters"] = json!(1 + rng.below(50));
    }
    if rng.chance(30) {
        spec["prioritizerPolicy"] = json!({"mode": "Additive", "configurations": [
            {"scoreCoordinate": {"builtIn": "ResourceAllocatableMemory"}, "weight": 2},
        ]});
    }
    if rng.chance(20) {
        spec["tolerations"] = json!([{"key": "maintenance", "operator": "Exists"}]);
    }
    if rng.chance(20) {
        spec["decisionStrategy"] = json!({"groupStrategy": {
            "clustersPerDecisionGroup": "25%",
            "decisionGroups": [{"groupName": "canary", "groupClusterSelector": {"labelSelector": {"matchLabels": {"tier": "bronze"}}}}],
        }});
    }
    json!({
        "apiVersion": "cluster.open-cluster-management.io/v1beta1",
        "kind": "Placement",
        "metadata": {"name": format!("placement-{i:05}"), "namespace": format!("team-{:02}", i % NAMESPACES)},
        "spec": spec,
    })
}

fn team(t: usize) -> String {
    format!("team-{t:03}")
}

/// A Placement of the heavy mix: 70% bounded (`numberOfClusters` of [`HEAVY_COUNTS`]) over a
/// region `In` 1–6 of 30, half of them with an `env` label, a third with a provider `NotIn`, a
/// third with a claim selector; 30% unbounded over one team's clusters. 30% carry a resource
/// prioritizer and 10% tolerate the generated taint.
fn heavy_placement(i: usize, rng: &mut Rng) -> Value {
    let bounded = rng.chance(70);
    let mut selector = if bounded {
        let first = rng.below(HEAVY_REGIONS.len());
        let count = 1 + rng.below(6);
        let regions: Vec<&str> = (0..count)
            .map(|k| HEAVY_REGIONS[(first + k * 7) % HEAVY_REGIONS.len()])
            .collect();
        let mut requirements = vec![json!({"key": "region", "operator": "In", "values": regions})];
        if rng.chance(33) {
            requirements.push(
                json!({"key": "provider", "operator": "NotIn", "values": [rng.pick(&PROVIDERS)]}),
            );
        }
        let mut selector = json!({"labelSelector": {"matchExpressions": requirements}});
        if rng.chance(50) {
            selector["labelSelector"]["matchLabels"] = json!({"env": rng.pick(&ENVS)});
        }
        selector
    } else {
        json!({"labelSelector": {"matchLabels": {"team": team(rng.below(TEAMS))}}})
    };
    if bounded && rng.chance(33) {
        selector["claimSelector"] = json!({"matchExpressions": [
            {"key": "platform.open-cluster-management.io", "operator": "NotIn", "values": [rng.pick(&PLATFORMS)]},
        ]});
    }
    let mut spec = json!({"predicates": [{"requiredClusterSelector": selector}]});
    if bounded {
        spec["numberOfClusters"] = json!(HEAVY_COUNTS[rng.below(HEAVY_COUNTS.len())]);
    }
    if rng.chance(30) {
        let resource = if rng.chance(50) {
            "ResourceAllocatableCPU"
        } else {
            "ResourceAllocatableMemory"
        };
        spec["prioritizerPolicy"] = json!({"mode": "Additive", "configurations": [
            {"scoreCoordinate": {"builtIn": resource}, "weight": 2},
        ]});
    }
    if rng.chance(10) {
        spec["tolerations"] = json!([{"key": "maintenance", "operator": "Exists"}]);
    }
    json!({
        "apiVersion": "cluster.open-cluster-management.io/v1beta1",
        "kind": "Placement",
        "metadata": {"name": format!("placement-{i:05}"), "namespace": format!("team-{:02}", i % NAMESPACES)},
        "spec": spec,
    })
}

/// The i-th Policy and the PlacementBinding that binds it to `placement-i`.
fn bound_policy(i: usize) -> [Value; 2] {
    let namespace = format!("team-{:02}", i % NAMESPACES);
    let name = format!("policy-{i:05}");
    [
        json!({
            "apiVersion": "policy.open-cluster-management.io/v1",
            "kind": "Policy",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {"remediationAction": "inform", "disabled": false, "policy-templates": []},
        }),
        json!({
            "apiVersion": "policy.open-cluster-management.io/v1",
            "kind": "PlacementBinding",
            "metadata": {"name": format!("binding-{i:05}"), "namespace": namespace},
            "placementRef": {"apiGroup": "cluster.open-cluster-management.io", "kind": "Placement", "name": format!("placement-{i:05}")},
            "subjects": [{"apiGroup": "policy.open-cluster-management.io", "kind": "Policy", "name": name}],
        }),
    ]
}

fn replica_workload(i: usize, rng: &mut Rng) -> Value {
    let namespace = format!("team-{:02}", i % NAMESPACES);
    let name = format!("app-{i:05}");
    let clusters = json!({
        "*": {"weight": 1},
        "cluster-000001": {"weight": 3, "maxReplicas": 40},
    });
    match i % 3 {
        0 => json!({
            "apiVersion": "scheduling.kubefed.io/v1alpha1",
            "kind": "ReplicaSchedulingPreference",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {"targetKind": "FederatedDeployment", "totalReplicas": 10 + rng.below(500), "rebalance": true, "clusters": clusters},
        }),
        1 => json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": name, "namespace": namespace, "annotations": {
                "federation.kubernetes.io/replica-set-preferences": json!({"rebalance": true, "clusters": clusters}).to_string(),
                "federation.alpha.kubernetes.io/cluster-selector": json!([
                    {"key": "env", "operator": "in", "values": [rng.pick(&ENVS)]},
                    {"key": "region", "operator": "notin", "values": [rng.pick(&REGIONS)]},
                ]).to_string(),
            }},
            "spec": {"replicas": 10 + rng.below(500)},
        }),
        _ => json!({
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": name, "namespace": namespace, "annotations": {
                "federation.alpha.kubernetes.io/cluster-selector": json!([
                    {"key": "provider", "operator": "=", "values": [rng.pick(&PROVIDERS)]},
                ]).to_string(),
            }},
        }),
    }
}

/// Karmada Deployments per PropagationPolicy (the policy selects them by a `group` label).
const KARMADA_GROUP: usize = 10;

/// An inventory entry as the Karmada `Cluster` the control plane would hold: labels,
/// provider/region/zone, the not-ready taint when offline (and a user `NoSchedule` taint
/// where the inventory has one), Deployments enabled, and a resource summary.
fn karmada_cluster(entry: &Value) -> Value {
    let labels = &entry["labels"];
    let mut taints = Vec::new();
    if entry["online"] == json!(false) {
        taints.push(json!({"key": "cluster.karmada.io/not-ready", "effect": "NoSchedule"}));
    }
    if entry.get("taints").is_some() {
        taints.push(json!({"key": "maintenance", "value": "true", "effect": "NoSchedule"}));
    }
    let cpu = entry["allocatable"]["cpu"].clone();
    json!({
        "apiVersion": "cluster.karmada.io/v1alpha1",
        "kind": "Cluster",
        "metadata": {"name": entry["name"], "labels": labels},
        "spec": {
            "syncMode": "Push",
            "provider": labels["provider"],
            "region": labels["region"],
            "zones": [labels["zone"]],
            "taints": taints,
        },
        "status": {
            "conditions": [{"type": "Ready", "status": if entry["online"] == json!(false) { "False" } else { "True" }}],
            "apiEnablements": [{"groupVersion": "apps/v1", "resources": [{"name": "deployments", "kind": "Deployment"}]}],
            "resourceSummary": {
                "allocatable": {"cpu": cpu, "memory": entry["allocatable"]["memory"], "pods": "110"},
                "allocated": {"cpu": "2", "memory": "8Gi", "pods": "20"},
            },
        },
    })
}

/// A PropagationPolicy for one group of Deployments, cycling through the strategies:
/// Duplicated over a label selector, static weights, dynamic weights, Aggregated, and
/// dynamic weights with a cluster spread constraint.
fn propagation_policy(i: usize, rng: &mut Rng) -> Value {
    let namespace = format!("team-{:02}", i % NAMESPACES);
    let affinity = json!({"labelSelector": {"matchExpressions": [
        {"key": "env", "operator": "In", "values": [rng.pick(&ENVS)]},
        {"key": "region", "operator": "NotIn", "values": [rng.pick(&REGIONS)]},
    ]}});
    let mut placement = json!({"clusterAffinity": affinity});
    match i % 5 {
        0 => {}
        1 => {
            placement["replicaScheduling"] = json!({
                "replicaSchedulingType": "Divided",
                "replicaDivisionPreference": "Weighted",
                "weightPreference": {"staticWeightList": [
                    {"targetCluster": {"labelSelector": {"matchLabels": {"provider": "aws"}}}, "weight": 2},
                    {"targetCluster": {"labelSelector": {"matchLabels": {"provider": "gcp"}}}, "weight": 1},
                ]},
            })
        }
        2 => {
            placement["replicaScheduling"] = json!({
                "replicaSchedulingType": "Divided",
                "replicaDivisionPreference": "Weighted",
                "weightPreference": {"dynamicWeight": "AvailableReplicas"},
            })
        }
        3 => {
            placement["replicaScheduling"] = json!({
                "replicaSchedulingType": "Divided",
                "replicaDivisionPreference": "Aggregated",
            })
        }
        _ => {
            placement["replicaScheduling"] = json!({
                "replicaSchedulingType": "Divided",
                "replicaDivisionPreference": "Weighted",
                "weightPreference": {"dynamicWeight": "AvailableReplicas"},
            });
            placement["spreadConstraints"] =
                json!([{"spreadByField": "cluster", "minGroups": 2, "maxGroups": 5}]);
        }
    }
    json!({
        "apiVersion": "policy.karmada.io/v1alpha1",
        "kind": "PropagationPolicy",
        "metadata": {"name": format!("group-{i:05}"), "namespace": namespace},
        "spec": {
            "resourceSelectors": [{"apiVersion": "apps/v1", "kind": "Deployment",
                "labelSelector": {"matchLabels": {"group": format!("group-{i:05}")}}}],
            "placement": placement,
        },
    })
}

/// A Deployment with requests, in its group's namespace.
fn karmada_deployment(i: usize, rng: &mut Rng) -> Value {
    let group = i / KARMADA_GROUP;
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {
            "name": format!("svc-{i:05}"),
            "namespace": format!("team-{:02}", group % NAMESPACES),
            "labels": {"group": format!("group-{group:05}")},
        },
        "spec": {
            "replicas": 1 + rng.below(20),
            "template": {"spec": {"containers": [{
                "name": "app",
                "image": "registry.example.com/app:1",
                "resources": {"requests": {
                    "cpu": format!("{}m", 100 * (1 + rng.below(10))),
                    "memory": format!("{}Mi", 128 * (1 + rng.below(8))),
                }},
            }]}},
        },
    })
}
