//! `--previous` read as a live hub exports its decisions (PlacementDecisions, PlacementRules
//! with their `status.decisions`): each decision reaches the scheduler as it was exported,
//! its name, its placement and its clusters in their order, exactly as `-f` reads the same
//! objects; nothing is folded into one invented decision per placement on the way.

use crate::common::{self, Test};

const NOW: &str = "2024-06-01T00:00:00Z";

/// Clusters `a`, `b` and `c` (`a` labelled `stage: canary`) in the set `all`, bound to the
/// namespace `apps`.
const INVENTORY: &str = "\
apiVersion: fleetplan.io/v1alpha1
kind: ClusterInventory
metadata: {name: fleet}
clusters:
  - {name: a, labels: {stage: canary}, sets: [all]}
  - {name: b, sets: [all]}
  - {name: c, sets: [all]}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSet
metadata: {name: all}
---
apiVersion: cluster.open-cluster-management.io/v1beta2
kind: ManagedClusterSetBinding
metadata: {name: all, namespace: apps}
spec: {clusterSet: all}
";

/// A PlacementDecision of the placement `placement` in `apps`, as a hub exports it.
fn decision(name: &str, placement: &str, group: (usize, &str), clusters: &[&str]) -> String {
    let decisions: Vec<String> = clusters
        .iter()
        .map(|cluster| format!("{{clusterName: {cluster}, reason: ''}}"))
        .collect();
    format!(
        "apiVersion: cluster.open-cluster-management.io/v1beta1\nkind: PlacementDecision\n\
         metadata:\n  name: {name}\n  namespace: apps\n  labels:\n    \
         cluster.open-cluster-management.io/placement: {placement}\n    \
         cluster.open-cluster-management.io/decision-group-index: \"{}\"\n    \
         cluster.open-cluster-management.io/decision-group-name: \"{}\"\n\
         status:\n  decisions: [{}]\n",
        group.0,
        group.1,
        decisions.join(", ")
    )
}

/// The inventory and `workloads` in a directory, with the hub's `export`: the paths of the
/// inputs and of the export.
fn inputs(workloads: &str, export: &[String]) -> (tempfile::TempDir, String, String) {
    let dir = common::tempdir();
    let inputs = dir.path().join("inputs");
    std::fs::create_dir(&inputs).unwrap();
    common::write(&inputs.join("inventory.yaml"), INVENTORY);
    common::write(&inputs.join("workloads.yaml"), workloads);
    let exported = dir.path().join("export.yaml");
    common::write(&exported, &export.join("---\n"));
    let (inputs, exported) = (inputs.display().to_string(), exported.display().to_string());
    (dir, inputs, exported)
}

/// The verdict table `explain` prints for `item`, with the hub's export read by `--previous`,
/// and the same table with the export read as an input (`-f`): the two must agree.
fn explained(workloads: &str, export: &[String], item: &str) -> Vec<String> {
    let (_dir, inputs, exported) = inputs(workloads, export);
    let table = |args: &[&str]| {
        let output = Test::new()
            .args(["explain", "-f", &inputs, "--now", NOW, item])
            .args(args.iter().copied())
            .run();
        common::stdout(&output)
            .lines()
            .skip_while(|line| !line.starts_with("CLUSTER"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let previous = table(&["--previous", &exported]);
    assert_eq!(
        previous,
        table(&["-f", &exported]),
        "--previous and -f disagree"
    );
    previous
}

/// Placement `p`: every cluster, the canary in a group of its own, then groups of one.
const GROUPED: &str = "\
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {name: p, namespace: apps}
spec:
  decisionStrategy:
    groupStrategy:
      clustersPerDecisionGroup: 1
      decisionGroups:
        - groupName: canary
          groupClusterSelector:
            labelSelector: {matchLabels: {stage: canary}}
";

/// A hub's decisions of `p` in three groups: explain names each cluster's decision object
/// and group as the hub writes them (upstream's `generatePlacementDecisionsAndStatus`:
/// `p-decision-<n>`, n counted across groups), and the exported decisions keep `p` steady.
#[test]
fn explain_names_the_decisions_a_hub_exported_in_groups() {
    let export = [
        decision("p-decision-1", "p", (0, "canary"), &["a"]),
        decision("p-decision-2", "p", (1, ""), &["b"]),
        decision("p-decision-3", "p", (2, ""), &["c"]),
    ];
    assert_eq!(
        explained(GROUPED, &export, "placement/apps/p"),
        [
            "CLUSTER   VERDICT    REASON",
            "a         selected   rank 1 of 3, score 200 = Balance 100×1 + Steady 100×1; group 0 (canary), decision p-decision-1",
            "b         selected   rank 2 of 3, score 200 = Balance 100×1 + Steady 100×1; group 1, decision p-decision-2",
            "c         selected   rank 3 of 3, score 200 = Balance 100×1 + Steady 100×1; group 2, decision p-decision-3",
        ]
    );
}

/// Placement `p`, every cluster; and `q`, whose decisions the hub exported.
const BALANCED: &str = "\
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {name: p, namespace: apps}
spec: {}
---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {name: q, namespace: apps}
spec: {numberOfClusters: 2}
";

/// Balance counts every entry of every other placement's PlacementDecisions (upstream's
/// `plugins/balance`): `a`, in two of `q`'s decisions (as while the hub moves it from one
/// slice to another), counts twice, so `b` scores 0, not -100 as if `q`'s decisions were
/// one list without repeats.
#[test]
fn balance_counts_each_exported_decision_of_another_placement() {
    let export = [
        decision("q-decision-1", "q", (0, ""), &["a"]),
        decision("q-decision-2", "q", (0, ""), &["a", "b"]),
    ];
    assert_eq!(
        explained(BALANCED, &export, "placement/apps/p"),
        [
            "CLUSTER   VERDICT    REASON",
            "a         selected   rank 3 of 3, score -100 = Balance -100×1 + Steady 0×1; group 0, decision p-decision-1",
            "b         selected   rank 2 of 3, score 0 = Balance 0×1 + Steady 0×1; group 0, decision p-decision-1",
            "c         selected   rank 1 of 3, score 100 = Balance 100×1 + Steady 0×1; group 0, decision p-decision-1",
        ]
    );
}

/// PlacementRule `r`: one cluster of all.
const RULE: &str = "\
apiVersion: apps.open-cluster-management.io/v1
kind: PlacementRule
metadata: {name: r, namespace: apps}
spec: {clusterReplicas: 1}
";

/// A PlacementRule keeps its previous decisions first, in their order: exported with
/// `status.decisions` [c, a], it keeps `c`, whether the export is read by `--previous`
/// beside the rule, or as the rule itself (`-f`).
#[test]
fn a_placement_rule_keeps_its_exported_decisions_in_their_order() {
    let export = [format!(
        "{RULE}status:\n  decisions:\n    - {{clusterName: c, clusterNamespace: c}}\n    \
         - {{clusterName: a, clusterNamespace: a}}\n"
    )];
    let (_dir, inputs, exported) = inputs(RULE, &export);
    let inventory = format!("{inputs}/inventory.yaml");
    for args in [
        ["-f", &inputs, "--previous", &exported],
        ["-f", &inventory, "-f", &exported],
    ] {
        let output = Test::new()
            .args(["plan", "--now", NOW, "-o", "json"])
            .args(args)
            .run();
        let plan: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("plan -o json is JSON");
        assert_eq!(
            plan["items"][0]["clusters"],
            serde_json::json!(["c"]),
            "{args:?}"
        );
    }
}

/// A PlacementRule exported without `status.decisions` had chosen no cluster: `diff` compares
/// the rule's cluster now with none (never "no changes" with nothing compared), and the export
/// replaces the rule's older `status.decisions` read by `-f`, so nothing is kept steady.
#[test]
fn a_placement_rule_exported_without_decisions_chose_nothing() {
    let (_dir, rule_inputs, exported) = inputs(RULE, &[RULE.to_string()]);
    let output = Test::new()
        .args([
            "diff",
            "--now",
            NOW,
            "-f",
            &rule_inputs,
            "--previous",
            &exported,
        ])
        .status(2)
        .run();
    let text = common::stdout(&output);
    assert!(
        text.starts_with("~ PlacementRule/apps/r\n    + cluster a\n"),
        "{text}"
    );
    let decided =
        format!("{RULE}status:\n  decisions:\n    - {{clusterName: c, clusterNamespace: c}}\n");
    let (_kept, decided_inputs, exported) = inputs(&decided, &[RULE.to_string()]);
    let output = Test::new()
        .args(["plan", "--now", NOW, "-o", "json", "-f", &decided_inputs])
        .args(["--previous", &exported])
        .run();
    let plan: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("plan -o json is JSON");
    assert_eq!(plan["items"][0]["clusters"], serde_json::json!(["a"]));
}

/// A previous Plan's Placement item stands for the PlacementDecisions the hub wrote for its
/// groups: the canary group (its clusters last by name) and 148 others, 150 in all, every
/// one of them kept steady against two new clusters that sort before the canaries. The run
/// writes them again as upstream names them: `p-decision-1` for the canaries, then the
/// others in slices of 100, `p-decision-2` and `p-decision-3`.
#[test]
fn a_previous_plan_s_groups_keep_every_cluster_they_divide() {
    let others: Vec<String> = (0..148).map(|n| format!("c{n:03}")).collect();
    let mut inventory = String::from(
        "apiVersion: fleetplan.io/v1alpha1\nkind: ClusterInventory\nmetadata: {name: fleet}\n\
         clusters:\n  - {name: z0, labels: {stage: canary}, sets: [all]}\n  \
         - {name: z1, labels: {stage: canary}, sets: [all]}\n  - {name: n0, sets: [all]}\n  \
         - {name: n1, sets: [all]}\n",
    );
    for name in &others {
        inventory.push_str(&format!("  - {{name: {name}, sets: [all]}}\n"));
    }
    inventory.push_str(&INVENTORY[INVENTORY.find("---").unwrap()..]);
    let placement = "\
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata: {name: p, namespace: apps}
spec:
  numberOfClusters: 150
  decisionStrategy:
    groupStrategy:
      decisionGroups:
        - groupName: canary
          groupClusterSelector:
            labelSelector: {matchLabels: {stage: canary}}
";
    let chosen: Vec<&str> = others
        .iter()
        .map(String::as_str)
        .chain(["z0", "z1"])
        .collect();
    let previous = format!(
        "apiVersion: fleetplan.io/v1alpha1\nkind: Plan\nitems:\n  - source: {{apiVersion: \
         cluster.open-cluster-management.io/v1beta1, kind: Placement, namespace: apps, name: p}}\n    \
         clusters: [{}]\n    groups:\n      - {{name: canary, index: 0, clusters: [z0, z1]}}\n      \
         - {{name: '', index: 1, clusters: [{}]}}\n",
        chosen.join(", "),
        others.join(", ")
    );
    let dir = common::tempdir();
    let (inputs, plan) = (dir.path().join("inputs.yaml"), dir.path().join("plan.yaml"));
    common::write(&inputs, &format!("{inventory}---\n{placement}"));
    common::write(&plan, &previous);
    let (inputs, plan) = (inputs.display().to_string(), plan.display().to_string());
    let output = Test::new()
        .args([
            "plan",
            "-f",
            &inputs,
            "--previous",
            &plan,
            "--now",
            NOW,
            "-o",
            "json",
        ])
        .run();
    let planned: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("plan -o json is JSON");
    assert_eq!(planned["items"][0]["clusters"], serde_json::json!(chosen));
    let output = Test::new()
        .args(["explain", "-f", &inputs, "--previous", &plan, "--now", NOW])
        .args(["placement/apps/p"])
        .run();
    let text = common::stdout(&output);
    let verdict = |cluster: &str| {
        text.lines()
            .find(|line| line.starts_with(&format!("{cluster} ")))
            .map(|line| line.split("; ").last().unwrap_or_default().to_string())
    };
    let steady = text
        .lines()
        .filter(|line| line.contains("Steady 100×1"))
        .count();
    assert_eq!(steady, 150, "{text}");
    assert_eq!(
        verdict("z1").as_deref(),
        Some("group 0 (canary), decision p-decision-1")
    );
    assert_eq!(
        verdict("c099").as_deref(),
        Some("group 1, decision p-decision-2")
    );
    assert_eq!(
        verdict("c100").as_deref(),
        Some("group 1, decision p-decision-3")
    );
}
