//! Properties of whole plans, through the public library API: placement invariants on
//! generated fleets and Placements, and the Plan document's YAML/JSON round trip through
//! `--previous`. (Replica planner and selector properties live beside their engines.)

use std::collections::{BTreeMap, BTreeSet};

use fleetplan::{
    build, build_item, load, plan_json, plan_yaml, previous_plan, BindingScore, ClusterNames,
    ClusterOverrides, Condition, ConditionStatus, DecisionGroup, DecisionGroups, ItemFields,
    ItemTrace, KarmadaFields, KubeFleetFields, LoadOptions, Model, ObjectRef, OcmFields,
    PlacementResult, Plan, PlanItem, PlanOptions, Previous, Rollout, SelectionFields, Stage, Trace,
    Verdict, Wave,
};
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;

const NOW: i64 = 1_767_225_600;
const SETS: [&str; 3] = ["blue", "green", "red"];
const CLOUDS: [&str; 3] = ["aws", "gcp", "azure"];

#[derive(Clone, Debug)]
struct ClusterGen {
    env_prod: bool,
    cloud: usize,
    set: usize,
    online: bool,
    tainted: bool,
    /// Allocatable CPU (with a capacity), when reported: few values, so scores tie.
    cpu: Option<u8>,
}

#[derive(Clone, Debug)]
struct PlacementGen {
    sets: Vec<usize>,
    number_of_clusters: Option<i32>,
    prod_only: bool,
    spread: Option<i32>,
    per_group: Option<String>,
    canary_group: bool,
    tolerate: bool,
    prioritize_steady: bool,
}

fn cluster() -> impl Strategy<Value = ClusterGen> {
    (
        any::<bool>(),
        0..3usize,
        0..3usize,
        prop::bool::weighted(0.9),
        prop::bool::weighted(0.2),
        prop::option::weighted(0.8, 1..5u8),
    )
        .prop_map(|(env_prod, cloud, set, online, tainted, cpu)| ClusterGen {
            env_prod,
            cloud,
            set,
            online,
            tainted,
            cpu,
        })
}

fn placement() -> impl Strategy<Value = PlacementGen> {
    let per_group = prop_oneof![
        Just(None),
        (1..12i32).prop_map(|n| Some(n.to_string())),
        (1..100i32).prop_map(|p| Some(format!("'{p}%'"))),
    ];
    (
        proptest::sample::subsequence(vec![0usize, 1, 2], 0..=3),
        prop::option::of(0..300i32),
        any::<bool>(),
        prop::option::of(1..3i32),
        per_group,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(
                sets,
                number_of_clusters,
                prod_only,
                spread,
                per_group,
                canary_group,
                tolerate,
                prioritize_steady,
            )| PlacementGen {
                sets,
                number_of_clusters,
                prod_only,
                spread,
                per_group,
                canary_group,
                tolerate,
                prioritize_steady,
            },
        )
}

/// A fleet (up to 250 clusters, so decisions overflow 100 per object), its cluster sets,
/// bindings of every set into `ns`, and the placements. The inventory lists the clusters in
/// name order, or `reversed`.
fn manifests(clusters: &[ClusterGen], placements: &[PlacementGen], reversed: bool) -> String {
    let mut text =
        String::from("apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\nmetadata: {name: fleet}\nclusters:\n");
    let mut listed: Vec<(usize, &ClusterGen)> = clusters.iter().enumerate().collect();
    if reversed {
        listed.reverse();
    }
    for (index, cluster) in listed {
        let env = if cluster.env_prod { "prod" } else { "dev" };
        text.push_str(&format!(
            "  - {{name: c{index:03}, labels: {{env: {env}, cloud: {}}}, sets: [{}], online: {}",
            CLOUDS[cluster.cloud], SETS[cluster.set], cluster.online
        ));
        if cluster.tainted {
            text.push_str(", taints: [{key: gpu, value: 'true', effect: NoSelect}]");
        }
        if let Some(cpu) = cluster.cpu {
            text.push_str(&format!(
                ", allocatable: {{cpu: '{cpu}'}}, resourceCapacity: {{cpu: '{}'}}",
                cpu + 1
            ));
        }
        text.push_str("}\n");
    }
    for set in SETS {
        text.push_str(&format!(
            "---\napiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSet\nmetadata: {{name: {set}}}\n---\napiVersion: cluster.open-cluster-management.io/v1beta2\nkind: ManagedClusterSetBinding\nmetadata: {{name: {set}, namespace: ns}}\nspec: {{clusterSet: {set}}}\n"
        ));
    }
    for (index, placement) in placements.iter().enumerate() {
        let sets: Vec<&str> = placement.sets.iter().map(|&set| SETS[set]).collect();
        text.push_str(&format!(
            "---\napiVersion: cluster.open-cluster-management.io/v1beta1\nkind: Placement\nmetadata: {{name: p{index}, namespace: ns}}\nspec:\n  clusterSets: [{}]\n",
            sets.join(", ")
        ));
        if let Some(number) = placement.number_of_clusters {
            text.push_str(&format!("  numberOfClusters: {number}\n"));
        }
        if placement.prod_only {
            text.push_str("  predicates:\n    - requiredClusterSelector: {labelSelector: {matchLabels: {env: prod}}}\n");
        }
        if let Some(skew) = placement.spread {
            text.push_str(&format!(
                "  spreadPolicy: {{spreadConstraints: [{{topologyKey: cloud, topologyKeyType: Label, maxSkew: {skew}}}]}}\n"
            ));
        }
        if placement.tolerate {
            text.push_str("  tolerations: [{key: gpu, operator: Exists}]\n");
        }
        if placement.prioritize_steady {
            text.push_str("  prioritizerPolicy: {mode: Exact, configurations: [{scoreCoordinate: {builtIn: Steady}, weight: 3}, {scoreCoordinate: {builtIn: ResourceAllocatableCPU}, weight: -2}]}\n");
        }
        if placement.per_group.is_some() || placement.canary_group {
            text.push_str("  decisionStrategy:\n    groupStrategy:\n");
            if let Some(per_group) = &placement.per_group {
                text.push_str(&format!("      clustersPerDecisionGroup: {per_group}\n"));
            }
            if placement.canary_group {
                text.push_str("      decisionGroups: [{groupName: canary, groupClusterSelector: {labelSelector: {matchLabels: {cloud: aws}}}}]\n");
            }
        }
    }
    text
}

fn load_text(text: &str) -> Model {
    load(
        &["-".to_string()],
        &mut text.as_bytes(),
        &LoadOptions::default(),
    )
    .unwrap_or_else(|errors| panic!("{errors}\n{text}"))
}

/// The union of `parts`, failing when a cluster is in two of them.
fn disjoint_union<'a>(
    parts: impl Iterator<Item = &'a ClusterNames>,
) -> Result<BTreeSet<&'a str>, TestCaseError> {
    let mut union = BTreeSet::new();
    for cluster in parts.flatten() {
        prop_assert!(union.insert(cluster), "{} is in two parts", cluster);
    }
    Ok(union)
}

fn check_placement(
    item: &PlanItem,
    result: &PlacementResult,
    model: &Model,
    spec_clusters: Option<i32>,
) -> Result<(), TestCaseError> {
    let selected: BTreeSet<&str> = result.selected.iter().collect();
    prop_assert_eq!(
        selected.len(),
        result.selected.len(),
        "selected has duplicates"
    );
    prop_assert_eq!(
        &item.clusters,
        &result.selected,
        "the plan item is the scheduler's selection"
    );

    // selected ⊆ candidates
    prop_assert!(result.selected.len() <= result.available);
    let Some(trace) = &result.trace else {
        return Err(TestCaseError::fail("traced run without a trace"));
    };
    for name in &result.selected {
        let cluster = model.inventory.clusters.iter().find(|c| c.name == name);
        let Some(cluster) = cluster else {
            return Err(TestCaseError::fail(format!(
                "{name} is not in the inventory"
            )));
        };
        let set = cluster
            .labels
            .get("cluster.open-cluster-management.io/clusterset");
        prop_assert!(
            set.is_some_and(|set| result
                .eligible_sets
                .iter()
                .any(|eligible| eligible.as_str() == set.as_str())),
            "{} selected outside the eligible sets {:?}",
            name,
            result.eligible_sets
        );
    }

    // |selected| ≤ numberOfClusters
    if let Some(number) = spec_clusters {
        prop_assert!(
            i64::try_from(result.selected.len()).unwrap_or(i64::MAX) <= i64::from(number.max(0)),
            "{} selected, numberOfClusters {}",
            result.selected.len(),
            number
        );
    }

    // decision groups partition the selection
    for group in &result.groups {
        prop_assert_eq!(group.cluster_count, group.clusters.len());
    }
    let grouped = disjoint_union(result.groups.iter().map(|group| &group.clusters))?;
    prop_assert_eq!(&grouped, &selected, "groups do not cover the selection");
    let item_groups: BTreeSet<&str> = item
        .selection
        .ocm
        .groups
        .iter()
        .flat_map(|group| group.clusters.iter())
        .collect();
    prop_assert_eq!(&item_groups, &selected);

    // at most 100 decisions per PlacementDecision object, together the selection
    for decision in &result.decisions {
        prop_assert!(
            decision.clusters.len() <= 100,
            "{} has {} decisions",
            decision.name,
            decision.clusters.len()
        );
    }
    let decided = disjoint_union(result.decisions.iter().map(|decision| &decision.clusters))?;
    prop_assert_eq!(&decided, &selected, "decisions do not cover the selection");

    // explain's verdicts agree with the plan: one per inventory cluster, Selected exactly
    // for the selected clusters
    prop_assert_eq!(trace.verdicts.len(), model.inventory.clusters.len());
    for cluster in &model.inventory.clusters {
        let verdict = trace.verdicts.get(&cluster.name);
        let is_selected = matches!(verdict, Some(Verdict::Selected { .. }));
        prop_assert_eq!(
            is_selected,
            selected.contains(cluster.name.as_str()),
            "{}: {:?}",
            cluster.name,
            verdict
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn placements_respect_their_invariants(
        clusters in vec(cluster(), 0..250),
        placements in vec(placement(), 1..4),
    ) {
        let model = load_text(&manifests(&clusters, &placements, false));
        let full = PlanOptions::at(NOW, Trace::Full);
        let outcome = build(&model, &full);
        prop_assert_eq!(outcome.plan.items.len(), placements.len());
        for (item, trace) in outcome.plan.items.iter().zip(&outcome.traces) {
            let ItemTrace::Placement(result) = trace else {
                return Err(TestCaseError::fail(format!("{:?}: not a placement trace", item.source)));
            };
            let index: usize = item.source.name.trim_start_matches('p').parse().unwrap_or(usize::MAX);
            let spec = placements.get(index).and_then(|p| p.number_of_clusters);
            check_placement(item, result, &model, spec)?;
        }
        // The untraced run filters by bitset algebra instead of cluster by cluster: the plan
        // must not depend on which path ran.
        let untraced = build(&model, &PlanOptions::at(NOW, Trace::Table));
        prop_assert_eq!(&untraced.plan, &outcome.plan);
        // Nor on whether any trace is kept.
        let plan_alone = build(&model, &PlanOptions::at(NOW, Trace::Plan));
        prop_assert_eq!(&plan_alone.plan, &outcome.plan);
        prop_assert!(plan_alone.traces.iter().all(|trace| matches!(trace, ItemTrace::NotKept)));
        // Nor on the inventory's order: clusters are ranked by name, and an inventory in name
        // order lets the untraced run take a placement's first clusters off a bitset.
        let reversed = load_text(&manifests(&clusters, &placements, true));
        let untraced_reversed = build(&reversed, &PlanOptions::at(NOW, Trace::Plan));
        prop_assert_eq!(&untraced_reversed.plan, &outcome.plan);
        // The plan table reads the selected clusters' scores, kept in every run.
        for (traced, plain) in outcome.traces.iter().zip(&untraced.traces) {
            if let (ItemTrace::Placement(traced), ItemTrace::Placement(plain)) = (traced, plain) {
                prop_assert_eq!(&traced.scores, &plain.scores);
            }
        }
        // `explain` plans its item alone: the same item as in the whole run.
        for (index, item) in outcome.plan.items.iter().enumerate() {
            let alone = build_item(&model, &full, index);
            prop_assert_eq!(alone.plan.items.first(), Some(item));
        }
    }
}

// ---- the Plan document round trip ----

/// Strings YAML likes to reinterpret: booleans, nulls, numbers, markers, quotes, unicode.
fn tricky() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(vec![
            "",
            "yes",
            "no",
            "on",
            "off",
            "true",
            "null",
            "~",
            "0x1F",
            "1e3",
            "0o17",
            "-",
            "---",
            "...",
            "#x",
            "a: b",
            "- x",
            "'q'",
            "\"q\"",
            "*alias",
            "&anchor",
            "<<",
            "!tag",
            "%",
            "@",
            "`",
            " lead",
            "trail ",
            "multi\nline",
            "tab\tx",
            "ünï",
            "🚀",
            "12:30",
            "2026-01-01",
        ])
        .prop_map(str::to_string),
        "[a-z][-a-z0-9.]{0,12}",
        any::<String>(),
    ]
}

fn condition() -> impl Strategy<Value = Condition> {
    let status = prop_oneof![
        Just(ConditionStatus::True),
        Just(ConditionStatus::False),
        Just(ConditionStatus::Unknown),
    ];
    (tricky(), status, tricky(), tricky()).prop_map(|(type_, status, reason, message)| Condition {
        type_,
        status,
        reason,
        message,
    })
}

fn item() -> impl Strategy<Value = PlanItem> {
    (
        (tricky(), tricky(), prop::option::of(tricky()), tricky()),
        vec(tricky(), 0..4),
        // Counts a plan can hold: a negative one is refused by --previous.
        btree_map(tricky(), 0..=i64::MAX, 0..4),
        btree_map(tricky(), 0..=i64::MAX, 0..3),
        vec((tricky(), any::<usize>(), vec(tricky(), 0..3)), 0..3),
        vec(condition(), 0..3),
        prop::option::of(tricky()),
        vec(tricky(), 0..2),
    )
        .prop_map(
            |(
                (api_version, kind, namespace, name),
                clusters,
                replicas,
                overflow,
                groups,
                conditions,
                changes_at,
                errors,
            )| {
                PlanItem {
                    source: ObjectRef {
                        api_version,
                        kind,
                        namespace,
                        name,
                    },
                    clusters: clusters.into(),
                    replicas,
                    overflow,
                    selection: SelectionFields {
                        ocm: DecisionGroups {
                            groups: groups
                                .into_iter()
                                .map(|(name, index, clusters)| DecisionGroup {
                                    name,
                                    index,
                                    clusters: clusters.into(),
                                })
                                .collect(),
                        },
                        // Karmada items round-trip their policy and affinity term too.
                        karmada: KarmadaFields {
                            policy: changes_at
                                .as_ref()
                                .map(|_| "PropagationPolicy/ns/pp".to_string()),
                            affinity_term: changes_at.as_ref().map(|_| "primary".to_string()),
                        },
                    },
                    // KubeFleet items round-trip their scores, removed clusters, stages
                    // and overrides.
                    api: ItemFields {
                        kubefleet: changes_at
                            .as_ref()
                            .map(|_| KubeFleetFields {
                                scores: [(
                                    "a".to_string(),
                                    BindingScore {
                                        affinity_score: Some(-3),
                                        priority_score: Some(1),
                                    },
                                )]
                                .into(),
                                removed: vec!["b".to_string()],
                                stages: vec![Stage {
                                    name: "canary".to_string(),
                                    clusters: vec!["a".to_string()],
                                }],
                                overrides: [(
                                    "a".to_string(),
                                    ClusterOverrides {
                                        cluster_resource_overrides: vec!["cro".to_string()],
                                        resource_overrides: vec!["ns/ro".to_string()],
                                    },
                                )]
                                .into(),
                            })
                            .unwrap_or_default(),
                        // OCM items round-trip when a toleration expires, their chains and
                        // their rollout waves.
                        ocm: OcmFields {
                            // Consumer items round-trip their chains.
                            via: changes_at
                                .as_ref()
                                .map(|_| {
                                    vec![vec![
                                        "PlacementBinding/ns/b".to_string(),
                                        "Placement/ns/p".to_string(),
                                    ]]
                                })
                                .unwrap_or_default(),
                            // ManifestWorkReplicaSet items round-trip their rollout waves.
                            rollout: changes_at
                                .as_ref()
                                .map(|_| {
                                    vec![Rollout {
                                        placement: "Placement/ns/p".to_string(),
                                        strategy: "ProgressivePerGroup".to_string(),
                                        waves: vec![Wave {
                                            mandatory: true,
                                            group: Some(0),
                                            clusters: vec!["a".to_string()].into(),
                                        }],
                                    }]
                                })
                                .unwrap_or_default(),
                            changes_at,
                        },
                    },
                    conditions,
                    errors,
                }
            },
        )
}

fn read_back(text: &str) -> Plan {
    match previous_plan("-", &mut text.as_bytes()) {
        Ok(Previous::Plan(plan)) => plan,
        Ok(other) => panic!("read back as {other:?}\n{text}"),
        Err(errors) => panic!("{errors}\n{text}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn a_plan_written_as_yaml_reads_back_as_previous_unchanged(items in vec(item(), 0..4)) {
        let plan = Plan { items, ..Plan::default() };
        let text = plan_yaml(&plan).unwrap();
        prop_assert_eq!(read_back(&text), plan, "{}", text);
    }

    #[test]
    fn a_plan_written_as_json_reads_back_as_previous_unchanged(items in vec(item(), 0..4)) {
        let plan = Plan { items, ..Plan::default() };
        let text = plan_json(&plan).unwrap();
        prop_assert_eq!(read_back(&text), plan, "{}", text);
    }
}

#[test]
fn the_example_fleet_plan_reads_back_as_previous_unchanged() {
    let root = env!("CARGO_MANIFEST_DIR");
    let paths = [format!("{root}/testdata/fleet")];
    let model = load(&paths, &mut std::io::empty(), &LoadOptions::default())
        .unwrap_or_else(|errors| panic!("{errors}"));
    let outcome = build(&model, &PlanOptions::at(NOW, Trace::Plan));
    let replicas: BTreeMap<&str, usize> = outcome
        .plan
        .items
        .iter()
        .map(|item| (item.source.name.as_str(), item.replicas.len()))
        .collect();
    assert!(
        replicas.values().any(|&n| n > 0),
        "the example has replica items"
    );
    assert_eq!(read_back(&plan_yaml(&outcome.plan).unwrap()), outcome.plan);
    assert_eq!(read_back(&plan_json(&outcome.plan).unwrap()), outcome.plan);
}

/// The consumers' example (Policies, a PolicySet, Subscriptions, ApplicationSets whose
/// decision objects are read through their placement's trace) plans the same at every trace
/// level; the plan alone keeps no trace.
#[test]
fn the_consumers_plan_is_the_same_whatever_traces_are_kept() {
    let root = env!("CARGO_MANIFEST_DIR");
    let paths = [
        "testdata/fleet/inventory.yaml",
        "testdata/fleet/clustersets.yaml",
        "testdata/fleet/workloads/placements.yaml",
        "testdata/consumers/policies.yaml",
        "testdata/consumers/apps.yaml",
    ]
    .map(|path| format!("{root}/{path}"));
    let model = load(&paths, &mut std::io::empty(), &LoadOptions::default())
        .unwrap_or_else(|errors| panic!("{errors}"));
    let full = build(&model, &PlanOptions::at(NOW, Trace::Full));
    for trace in [Trace::Plan, Trace::Objects, Trace::Table] {
        let outcome = build(&model, &PlanOptions::at(NOW, trace));
        assert_eq!(outcome.plan, full.plan, "{trace:?}");
        let kept = outcome
            .traces
            .iter()
            .filter(|trace| !matches!(trace, ItemTrace::NotKept))
            .count();
        let expected = if trace == Trace::Plan {
            0
        } else {
            outcome.traces.len()
        };
        assert_eq!(kept, expected, "{trace:?}");
    }
    let landed = full
        .plan
        .items
        .iter()
        .filter(|item| !item.api.ocm.via.is_empty());
    assert!(landed.count() > 5, "the example's consumers land");
}
