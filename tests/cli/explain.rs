//! `fleetplan explain`: per-cluster verdicts of one item, from the same run as the plan.

use crate::common::{self, Test};

const NOW: &str = "2024-06-01T00:30:00Z";

/// `explain` over the example fleet at a fixed time.
fn fleet(args: &[&str]) -> Test {
    Test::new()
        .args(["explain", "-f", "testdata/fleet", "--now", NOW])
        .args(args.iter().copied())
}

/// `explain` over the small fixtures, with web's running replicas from previous.yaml.
fn fixtures(args: &[&str]) -> Test {
    Test::new()
        .args([
            "explain",
            "-f",
            "testdata/explain/inventory.yaml",
            "-f",
            "testdata/explain/workloads.yaml",
            "--previous",
            "testdata/explain/previous.yaml",
        ])
        .args(args.iter().copied())
}

/// Runs `test` and returns the first line of its stdout: the `--cluster` answer.
fn answer(test: Test) -> String {
    let output = test.run();
    common::stdout(&output)
        .lines()
        .next()
        .unwrap_or("")
        .to_string()
}

#[test]
fn an_annotation_item_names_each_clusters_failing_requirement() {
    fixtures(&["--now", NOW, "deploy/apps/web", "--cluster", "us-1"])
        .stdout(
            r#"us-1 was not selected: cluster-selector annotation: location: got "us", wanted in (europe).

CLUSTER   VERDICT            REASON
us-1      selectorMismatch   cluster-selector annotation: location: got "us", wanted in (europe)
"#,
        )
        .run();
}

#[test]
fn a_selector_item_lists_every_cluster() {
    let output = fleet(&["ConfigMap/shop/shop-settings"]).run();
    let text = common::stdout(&output);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("ConfigMap/shop/shop-settings (v1): cluster selection")
    );
    assert_eq!(
        lines.next(),
        Some("6 of 14 clusters selected by the cluster-selector annotation env in (prod),region notin (ap-south)")
    );
    assert!(
        text.contains(
            "azure-ap-south-prod-1    selectorMismatch   cluster-selector annotation: region: got \"ap-south\", wanted notin (ap-south)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("aws-ap-south-dev         offline            offline\n"),
        "{text}"
    );
    let selected = text
        .lines()
        .filter(|line| line.split_whitespace().nth(1) == Some("selected"))
        .count();
    assert_eq!(selected, 6, "{text}");
}

#[test]
fn a_kubefed_item_without_a_selector_selects_nothing() {
    fixtures(&["--now", NOW, "FederatedConfigMap/nowhere"])
        .stdout(
            "FederatedConfigMap/apps/nowhere (types.kubefed.io/v1beta1): cluster selection
0 of 4 clusters selected by spec.placement without clusters or clusterSelector (no cluster)

CLUSTER   VERDICT      REASON
eu-1      noSelector   spec.placement has no clusterSelector, which selects no cluster
eu-2      noSelector   spec.placement has no clusterSelector, which selects no cluster
off-1     offline      offline
us-1      noSelector   spec.placement has no clusterSelector, which selects no cluster
",
        )
        .run();
}

#[test]
fn a_replica_item_shows_preferences_hash_order_kept_replicas_and_rounds() {
    fixtures(&["--now", NOW, "web"])
        .stdout(
            "Deployment/apps/web (apps/v1): cluster selection, then the replica planner
10 of 10 replicas over 2 clusters (rebalance: false)
available: 2 of 4 clusters selected by the cluster-selector annotation location in (europe)
order: weight descending, then FNV-1 32 of cluster name + namespace/name ascending

CLUSTER   REPLICAS   OVERFLOW   PREFERENCE   MIN   MAX   WEIGHT   CAPACITY   ORDER   HASH         MINIMUM   KEPT   FULL
eu-1      3                     *            0     -     1        3          1       0x6ea2c96e   0         3      capacity in round 1
eu-2      7                     *            0     -     1        -          2       0xab3dc951   0         0

ROUND   REMAINING   WEIGHTS   SHARES
1       7           2         eu-1 +0 (3 absorbed, capacity), eu-2 +4
2       3           1         eu-2 +3

CLUSTER   VERDICT            REASON
off-1     offline            offline
us-1      selectorMismatch   cluster-selector annotation: location: got \"us\", wanted in (europe)
",
        )
        .run();
}

#[test]
fn a_replica_cluster_answers_with_its_replicas_and_rounds() {
    assert_eq!(
        answer(fixtures(&["--now", NOW, "web", "--cluster", "eu-2"])),
        "eu-2 was selected: 7 replicas: * preference (min 0, max -, weight 1), 2 of 2 in order (hash 0xab3dc951); minimum 0, round 1 +4, round 2 +3."
    );
}

#[test]
fn clusters_without_a_preference_entry_take_no_part() {
    assert_eq!(
        answer(fixtures(&["--now", NOW, "rs/pinned", "--cluster", "us-1"])),
        "us-1 was not selected: available, but the preferences have neither an entry for it nor \"*\"."
    );
}

#[test]
fn a_placement_cluster_answers_with_rank_score_group_and_decision() {
    let output = fleet(&[
        "placement/shop/storefront",
        "--cluster",
        "aws-us-east-prod-1",
    ])
    .run();
    assert_eq!(
        common::stdout(&output).lines().next(),
        Some("aws-us-east-prod-1 was selected: rank 1 of 5, score 400 = Balance 100×1 + Steady 100×1 + ResourceAllocatableMemory 100×2; group 0, decision storefront-decision-1.")
    );
}

#[test]
fn a_placement_names_each_clusters_failing_label_or_claim_requirement() {
    // gpu-batch wants the label gpu=true and the claim platform In (GCP): one cluster has
    // no gpu label, one another value, one the label but an AWS claim.
    let output = fleet(&[
        "placement/shop/gpu-batch",
        "--label",
        "aws-eu-west-prod-1:gpu=false",
        "--label",
        "aws-us-east-prod-1:gpu=true",
    ])
    .run();
    let text = common::stdout(&output);
    let reason = |cluster: &str| {
        text.lines()
            .find(|line| line.starts_with(&format!("{cluster} ")))
            .map(|line| {
                line.split_whitespace()
                    .skip(2)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
    };
    assert_eq!(
        reason("aws-ap-south-dev").as_deref(),
        Some("no predicate matched: predicates[0]: label gpu: key missing")
    );
    assert_eq!(
        reason("aws-eu-west-prod-1").as_deref(),
        Some(r#"no predicate matched: predicates[0]: label gpu: got "false", wanted = true"#)
    );
    assert_eq!(
        reason("aws-us-east-prod-1").as_deref(),
        Some(
            r#"no predicate matched: predicates[0]: claim platform.open-cluster-management.io: got "AWS", wanted in (GCP)"#
        )
    );
}

#[test]
fn a_placement_names_spread_as_a_fleetplan_extension() {
    // Relabelled, the top candidates share the `aws` domain: enforced, the walk reaches
    // numberOfClusters 4 with azure-eu-west-prod-1 still refused (3 in aws against 1 in gcp
    // and azure would exceed maxSkew 1).
    let relabelled = [
        "--label",
        "azure-eu-west-prod-1:cloud=aws",
        "--label",
        "aws-eu-west-prod-2:cloud=azure",
        "--cluster",
        "azure-eu-west-prod-1",
    ];
    let spread = |extra: &[&str]| {
        Test::new()
            .args(["explain", "-f", "testdata/fleet", "-f", "testdata/spread"])
            .args(["storefront-spread", "--now", "2026-06-01T00:00:00Z"])
            .args(relabelled)
            .args(extra.iter().copied())
    };
    assert_eq!(
        answer(spread(&["--enforce-spread-policy"])),
        "azure-eu-west-prod-1 was not selected: kept out by spread constraint cloud (Label, maxSkew 1, ScheduleAnyway; fleetplan extension): domain \"aws\" is already taken by aws-us-east-prod-1, aws-eu-west-prod-1; rank 4 of 5, score -200 = Balance -100×1 + Steady 0×1 + ResourceAllocatableMemory -50×2."
    );
    // By default the hub's selection: spreadPolicy is not enforced upstream.
    assert_eq!(
        answer(
            spread(&[])
                .stderr_contains("Placement/shop/storefront-spread: spreadPolicy is accepted by the API but not enforced by the OCM scheduler")
        ),
        "azure-eu-west-prod-1 was selected: rank 4 of 5, score -200 = Balance -100×1 + Steady 0×1 + ResourceAllocatableMemory -50×2; group 0, decision storefront-spread-decision-1."
    );
}

/// sortBy, scoreRateLimit and (not enforced) spreadPolicy are named as fields that do not
/// change the selection; the plan selects what the same Placement without them selects.
#[test]
fn fields_the_scheduler_does_not_read_are_named_and_change_nothing() {
    let output = Test::new()
        .args(["explain", "-f", "testdata/fleet", "-f", "testdata/spread"])
        .args(["storefront-spread", "--now", "2026-06-01T00:00:00Z"])
        .stderr_contains("spreadPolicy is accepted by the API but not enforced by the OCM scheduler: the hub selects as if it were absent")
        .run();
    let text = common::stdout(&output);
    assert!(
        text.contains("fields that do not change the selection: spec.sortBy, spec.scoreRateLimit, spec.spreadPolicy (spreadPolicy is accepted by the API but not enforced by the OCM scheduler)\n"),
        "{text}"
    );
    // The same Placement without the three fields (they are its last lines) selects alike.
    let written = std::fs::read_to_string("testdata/spread/storefront.yaml").expect("readable");
    let without = written
        .split("  spreadPolicy:\n")
        .next()
        .unwrap_or_default()
        .to_string();
    let clusters = |placement: String| {
        let output = Test::new()
            .args(["plan", "-o", "json", "-f", "testdata/fleet", "-f", "-"])
            .stdin(placement)
            .stderr_contains("")
            .run();
        let plan: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("plan -o json is JSON");
        plan["items"]
            .as_array()
            .and_then(|items| {
                items
                    .iter()
                    .find(|item| item["source"]["name"] == "storefront-spread")
            })
            .map(|item| item["clusters"].clone())
            .unwrap_or_default()
    };
    let hub = clusters(without);
    assert_eq!(hub.as_array().map(Vec::len), Some(4), "{hub}");
    assert_eq!(clusters(written), hub);
}

#[test]
fn a_placement_gives_one_verdict_per_candidate() {
    let output = fixtures(&["--now", "2024-06-01T02:00:00Z", "pick-one"]).run();
    let text = common::stdout(&output);
    let table: Vec<&str> = text
        .lines()
        .skip_while(|line| !line.starts_with("CLUSTER"))
        .collect();
    assert_eq!(
        table,
        [
            "CLUSTER   VERDICT                 REASON",
            "eu-1      selected                rank 1 of 2, score 100 = Balance 100×1 + Steady 0×1; group 0, decision pick-one-decision-1",
            "eu-2      tolerationExpired       the toleration of taint maintenance:NoSelect expired at 2024-06-01T01:00:00Z",
            "off-1     taintNotTolerated       taint cluster.open-cluster-management.io/unavailable:NoSelect is not tolerated",
            "us-1      cutByNumberOfClusters   cut by numberOfClusters 1: rank 2 of 2, score 100 = Balance 100×1 + Steady 0×1",
        ]
    );
}

#[test]
fn now_decides_whether_a_toleration_still_holds() {
    assert_eq!(
        answer(fixtures(&["--now", NOW, "pick-one", "--cluster", "eu-2"])),
        "eu-2 was not selected: cut by numberOfClusters 1: rank 2 of 3, score 100 = Balance 100×1 + Steady 0×1."
    );
}

#[test]
fn a_placement_rule_gives_the_pick_order() {
    assert_eq!(
        answer(fleet(&["legacy-reports", "--cluster", "gcp-us-east-prod-1"])),
        "gcp-us-east-prod-1 was not selected: position 3 in the pick order, beyond clusterReplicas 2."
    );
}

#[test]
fn a_placement_rule_names_each_clusters_failing_requirement() {
    assert_eq!(
        answer(fleet(&[
            "legacy-reports",
            "--cluster",
            "azure-eu-west-prod-1"
        ])),
        r#"azure-eu-west-prod-1 was not selected: spec.clusterSelector: cloud: got "azure", wanted notin (azure)."#
    );
    assert_eq!(
        answer(fleet(&["legacy-reports", "--cluster", "gcp-eu-west-dev"])),
        r#"gcp-eu-west-dev was not selected: spec.clusterSelector: env: got "dev", wanted = prod."#
    );
}

#[test]
fn a_misconfigured_placement_is_explained_and_exits_1() {
    let output = fixtures(&["--now", NOW, "misconfigured", "--cluster", "eu-1"])
        .status(1)
        .stderr(
            "error: testdata/explain/workloads.yaml#5: Placement/apps/misconfigured: PlacementMisconfigured: :incorrect builtin prioritizer: Spread\n",
        )
        .run();
    assert_eq!(
        common::stdout(&output).lines().next(),
        Some("eu-1 was not selected: placement misconfigured: :incorrect builtin prioritizer: Spread.")
    );
}

#[test]
fn a_failed_item_prints_its_errors_and_exits_1() {
    let error = "annotation federation.alpha.kubernetes.io/cluster-selector: [0].operator: Unsupported value: \"Equals\": supported values: \"in\", \"notin\", \"=\", \"==\", \"!=\", \"gt\", \"lt\", \"exists\", \"!\"";
    fixtures(&["--now", NOW, "cm/broken"])
        .status(1)
        .stdout(format!(
            "ConfigMap/apps/broken (v1): failed
the item failed before any engine ran: no cluster is selected
error: {error}
"
        ))
        .stderr(format!(
            "error: testdata/explain/workloads.yaml#2: ConfigMap/apps/broken: {error}\n"
        ))
        .run();
}

#[test]
fn unknown_items_get_close_matches_and_exit_1() {
    fleet(&["storefrnt"])
        .status(1)
        .stdout("")
        .stderr("error: no item \"storefrnt\" in the inputs, did you mean storefront?\n")
        .run();
}

#[test]
fn ambiguous_items_list_every_match_and_exit_1() {
    fleet(&["shop/catalog"])
        .status(1)
        .stdout("")
        .stderr("error: \"shop/catalog\" is ambiguous: it names ReplicaSchedulingPreference/shop/catalog, FederatedDeployment/shop/catalog; add the kind or namespace\n")
        .run();
}

#[test]
fn unknown_clusters_get_close_matches_and_exit_1() {
    fleet(&["storefront", "--cluster", "aws-us-east-prod"])
        .status(1)
        .stdout("")
        .stderr("error: --cluster: no cluster named \"aws-us-east-prod\" in the inventory, did you mean aws-us-east-prod-1?\n")
        .run();
}

#[test]
fn json_carries_verdicts_and_upstreams_debug_shape() {
    let output = fleet(&["storefront", "-o", "json"]).run();
    let value: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("stdout should be JSON");
    assert_eq!(value["engine"], "placement");
    assert_eq!(value["source"]["kind"], "Placement");
    let clusters = value["clusters"].as_array().expect("clusters is a list");
    assert_eq!(clusters.len(), 14);
    let selected: Vec<&str> = clusters
        .iter()
        .filter(|c| c["selected"] == true)
        .filter_map(|c| c["cluster"].as_str())
        .collect();
    assert_eq!(
        selected,
        [
            "aws-eu-west-prod-1",
            "aws-us-east-prod-1",
            "azure-eu-west-prod-1",
            "gcp-eu-central-prod-1"
        ]
    );
    let debug = &value["debug"];
    assert_eq!(
        debug["filteredPipelineResults"][1]["name"],
        "Predicate,TaintToleration"
    );
    assert_eq!(
        debug["filteredPiplieResults"],
        debug["filteredPipelineResults"]
    );
    assert_eq!(
        debug["prioritizeResults"][2]["name"],
        "ResourceAllocatableMemory"
    );
    assert_eq!(debug["aggregatedScores"]["aws-us-east-prod-1"], 400);
}

#[test]
fn json_with_a_cluster_carries_the_answer_and_that_cluster_only() {
    let output = fixtures(&["--now", NOW, "web", "-o", "json", "--cluster", "eu-1"]).run();
    let value: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("stdout should be JSON");
    assert_eq!(
        value["answer"],
        "eu-1 was selected: 3 replicas: * preference (min 0, max -, weight 1), 1 of 2 in order (hash 0x6ea2c96e); minimum 0, kept 3 already running, round 1 +0 (3 absorbed, capacity); full at capacity in round 1."
    );
    assert_eq!(value["clusters"].as_array().map(Vec::len), Some(1));
    assert_eq!(value["clusters"][0]["planner"]["kept"], 3);
    assert_eq!(value["replicas"]["rounds"][0]["shares"][0]["absorbed"], 3);
    assert_eq!(value["replicas"]["total"], 10);
}
