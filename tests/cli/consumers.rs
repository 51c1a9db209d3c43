//! Placement consumers (Policy, PolicySet, Subscription, ManifestWorkReplicaSet,
//! ApplicationSet, ClusterManagementAddOn) as plan items of their own, and the references
//! between them and their placements that `check` must not let pass when they resolve to
//! nothing. Inputs: testdata/consumers (see its README).

use std::path::Path;

use crate::common::{self, Test, CI_NOW};

/// The example fleet, its Placements and the consumers of testdata/consumers.
/// `subcommand` over the fleet the consumers land on: its inventory, cluster sets and
/// Placements.
fn with_fleet(subcommand: &str) -> Test {
    Test::new()
        .args([subcommand, "-f", "testdata/fleet/inventory.yaml"])
        .args(["-f", "testdata/fleet/clustersets.yaml"])
        .args(["-f", "testdata/fleet/workloads/placements.yaml"])
        .args(CI_NOW)
}

fn with_consumers(subcommand: &str) -> Test {
    with_fleet(subcommand)
        .args(["-f", "testdata/consumers/policies.yaml"])
        .args(["-f", "testdata/consumers/apps.yaml"])
}

fn expected(name: &str) -> std::path::PathBuf {
    Path::new("testdata/consumers/expected").join(name)
}

#[test]
fn every_consumer_is_an_item_with_its_clusters_and_chain() {
    let output = with_consumers("plan").args(["-o", "yaml"]).run();
    common::golden(&expected("plan.yaml"), &common::stdout(&output));
}

/// An item of a kind no reader knows that makes a JSON List over a megabyte: such a List's
/// items are checked on every core, each small one's fields found as it is checked.
fn padding() -> String {
    format!(
        r#"{{"apiVersion": "example.com/v1", "kind": "Padding", "metadata": {{"name": "padding"}}, "data": "{}"}}"#,
        "x".repeat(1 << 20)
    )
}

/// The consumers written as the items of one JSON List, each decoded from its fields (those
/// a reader lacks left unread), plan as their YAML documents do: in a small List, and in one
/// over a megabyte.
#[test]
fn consumers_in_a_json_list_plan_as_their_yaml() {
    let mut items = Vec::new();
    for file in ["policies.yaml", "apps.yaml"] {
        let path = Path::new("testdata/consumers").join(file);
        let yaml = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&path))
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        for document in serde_yaml::Deserializer::from_str(&yaml) {
            let value: serde_json::Value = serde::Deserialize::deserialize(document)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            if !value.is_null() {
                items.push(value.to_string());
            }
        }
    }
    let dir = common::tempdir();
    for large in [false, true] {
        let mut items = items.clone();
        if large {
            items.push(padding());
        }
        let list = dir.path().join(format!("consumers-{large}.json"));
        let text = format!(
            r#"{{"apiVersion": "v1", "kind": "List", "items": [{}]}}"#,
            items.join(",\n")
        );
        assert_eq!(text.len() > 1 << 20, large);
        common::write(&list, &text);
        let output = with_fleet("plan")
            .args(["-f", &list.to_string_lossy(), "-o", "yaml"])
            .run();
        common::golden(&expected("plan.yaml"), &common::stdout(&output));
    }
}

/// A key written twice in a small item of a JSON List over a megabyte is refused as in any
/// other input: the whole file is read again as a tree, whose error names the line.
#[test]
fn a_key_twice_in_an_item_of_a_large_json_list_is_refused() {
    let policy = r#"{
      "apiVersion": "policy.open-cluster-management.io/v1",
      "kind": "Policy",
      "metadata": {"name": "policy-twice", "namespace": "policies"},
      "spec": {
        "disabled": false,
        "disabled": true
      }
    }"#;
    let text = format!(
        "{{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"items\": [\n    {},\n    {policy}\n  ]\n}}\n",
        padding()
    );
    let dir = common::tempdir();
    let list = dir.path().join("twice.json");
    common::write(&list, &text);
    let list = list.to_string_lossy();
    Test::new()
        .args(["check", "-f", "testdata/fleet/inventory.yaml", "-f", &list])
        .args(CI_NOW)
        .status(1)
        .stdout(format!(
            "error: {list}#1: line 12 column 18: duplicate entry with key \"disabled\"\n1 error: the inputs could not be read, nothing was checked\n"
        ))
        .run();
}

#[test]
fn the_plan_table_shows_each_chain() {
    let output = with_consumers("plan").run();
    common::golden(&expected("plan.txt"), &common::stdout(&output));
}

#[test]
fn consumers_are_in_json_with_their_chain() {
    let output = with_consumers("plan")
        .args(["-o", "json", "Subscription/shop/storefront-app"])
        .run();
    let plan: serde_json::Value =
        serde_json::from_str(&common::stdout(&output)).unwrap_or_default();
    let item = &plan["items"][0];
    assert_eq!(item["source"]["kind"], "Subscription");
    assert_eq!(
        item["via"],
        serde_json::json!([["Placement/shop/storefront"]]),
        "{plan}"
    );
    assert_eq!(
        item["clusters"],
        serde_json::json!([
            "aws-eu-west-prod-1",
            "aws-us-east-prod-1",
            "azure-eu-west-prod-1",
            "gcp-eu-central-prod-1"
        ])
    );
}

#[test]
fn a_policy_is_selected_by_its_labels() {
    with_consumers("plan")
        .args(["-l", "team=platform", "-o", "name"])
        .stdout("Policy/policies/policy-pod\n")
        .run();
}

#[test]
fn a_policy_item_argument_plans_its_placement_too() {
    // The Placement is not an item of this run, but the Policy lands where it lands.
    with_consumers("plan")
        .args(["Policy/policies/policy-pod", "-o", "name"])
        .stdout("Policy/policies/policy-pod\n")
        .run();
    let output = with_consumers("plan")
        .args(["Policy/policies/policy-pod", "-o", "yaml"])
        .run();
    assert!(
        common::stdout(&output).contains("  - aws-eu-west-prod-2\n"),
        "{}",
        common::stdout(&output)
    );
}

#[test]
fn a_policy_set_member_lands_where_the_set_lands_less_its_exclusions() {
    let output = with_consumers("explain")
        .args([
            "Policy/policies/policy-limits",
            "--cluster",
            "azure-ap-south-prod-1",
        ])
        .run();
    assert_eq!(
        common::stdout(&output),
        "azure-ap-south-prod-1 was not selected: Placement/policies/placement-prod: excluded by PolicySet/policies/baseline spec.exclusions; PlacementRule/policies/placement-dev: spec.clusterSelector: env: got \"prod\", wanted = dev.\n\nCLUSTER                 VERDICT     REASON\nazure-ap-south-prod-1   notPlaced   Placement/policies/placement-prod: excluded by PolicySet/policies/baseline spec.exclusions; PlacementRule/policies/placement-dev: spec.clusterSelector: env: got \"prod\", wanted = dev\n"
    );
}

#[test]
fn explain_gives_the_chain_then_the_placements_verdicts() {
    let output = with_consumers("explain")
        .args(["Policy/policies/policy-pod"])
        .run();
    common::golden(&expected("explain-policy.txt"), &common::stdout(&output));
}

#[test]
fn explain_answers_why_a_policy_is_not_on_a_cluster() {
    with_consumers("explain")
        .args(["Policy/policies/policy-pod", "--cluster", "gcp-eu-west-dev"])
        .stdout("gcp-eu-west-dev was not selected: Placement/policies/placement-prod: no predicate matched: predicates[0]: label env: got \"dev\", wanted = prod.\n\nCLUSTER           VERDICT     REASON\ngcp-eu-west-dev   notPlaced   Placement/policies/placement-prod: no predicate matched: predicates[0]: label env: got \"dev\", wanted = prod\n")
        .run();
}

#[test]
fn a_disabled_policy_lands_nowhere_and_says_why() {
    let output = with_consumers("explain")
        .args(["Policy/policies/policy-retired"])
        .run();
    let text = common::stdout(&output);
    assert!(
        text.contains("spec.disabled is true: the propagator replicates it to no cluster"),
        "{text}"
    );
    assert!(text.contains("lands on 0 of 14 clusters"), "{text}");
}

#[test]
fn a_manifest_work_replica_set_shows_its_rollout_over_the_decision_groups() {
    let output = with_consumers("plan")
        .args(["ManifestWorkReplicaSet/ci/canary-config", "-o", "yaml"])
        .run();
    common::golden(
        &expected("manifestworkreplicaset.yaml"),
        &common::stdout(&output),
    );
    let output = with_consumers("explain")
        .args(["ManifestWorkReplicaSet/ci/canary-config"])
        .run();
    let text = common::stdout(&output);
    assert!(
        text.contains(
            "rollout ProgressivePerGroup over Placement/ci/canary-rollout: 2 waves\n  wave 1 (group 0 canary): aws-us-east-staging, gcp-eu-central-staging\n  wave 2 (group 1): gcp-eu-west-dev\n"
        ),
        "{text}"
    );
}

#[test]
fn a_progressive_rollout_takes_mandatory_groups_first_then_max_concurrency_at_a_time() {
    let output = with_consumers("plan")
        .args(["-f", "testdata/consumers/rollouts.yaml", "-o", "yaml"])
        .args([
            "ManifestWorkReplicaSet/ci/canary-first",
            "ManifestWorkReplicaSet/shop/storefront-config",
        ])
        .run();
    common::golden(&expected("rollouts.yaml"), &common::stdout(&output));
    let output = with_consumers("explain")
        .args(["-f", "testdata/consumers/rollouts.yaml"])
        .args(["ManifestWorkReplicaSet/ci/canary-first"])
        .run();
    let text = common::stdout(&output);
    assert!(
        text.contains(
            "rollout Progressive over Placement/ci/canary-rollout: 2 waves\n  wave 1 (mandatory, group 0 canary): aws-us-east-staging, gcp-eu-central-staging\n  wave 2: gcp-eu-west-dev\n"
        ),
        "{text}"
    );
}

/// The same clusters reached in other waves is a change `diff` reports, never "no changes".
#[test]
fn diff_reports_a_rollout_that_only_changed_its_waves() {
    let dir = common::tempdir();
    let previous = dir.path().join("plan.yaml");
    let output = with_consumers("plan")
        .args(["-f", "testdata/consumers/rollouts.yaml", "-o", "yaml"])
        .run();
    common::write(&previous, &common::stdout(&output));
    let rollouts = std::fs::read_to_string("testdata/consumers/rollouts.yaml").unwrap();
    let changed = dir.path().join("rollouts.yaml");
    common::write(
        &changed,
        &rollouts.replacen("maxConcurrency: 50%", "maxConcurrency: 25%", 1),
    );
    let output = with_consumers("diff")
        .args(["-f", &changed.display().to_string()])
        .args(["--previous", &previous.display().to_string()])
        .status(2)
        .run();
    let text = common::stdout(&output);
    assert!(
        text.starts_with(
            "~ ManifestWorkReplicaSet/shop/storefront-config\n    rollout over \
             Placement/shop/storefront: Progressive [aws-eu-west-prod-1, aws-us-east-prod-1] \
             [azure-eu-west-prod-1, gcp-eu-central-prod-1] → Progressive [aws-eu-west-prod-1] \
             [aws-us-east-prod-1] [azure-eu-west-prod-1] [gcp-eu-central-prod-1]\n\n"
        ),
        "{text}"
    );
    assert!(
        text.ends_with("1 changed, 0 added, 0 removed, 0 errors\n"),
        "{text}"
    );
}

#[test]
fn a_rollout_count_written_as_a_string_fails_as_the_rollout_helper_does() {
    broken(
        "rollout-count-as-string.yaml",
        1,
        "error: testdata/consumers/broken/rollout-count-as-string.yaml#1: line 14: ManifestWorkReplicaSet/shop/storefront-quoted: spec.placementRefs[0].rolloutStrategy.progressive.maxConcurrency: failed to parse the provided maxConcurrency: '2' is an invalid maximum threshold value: string is not a percentage\n16 items checked: 1 error\n",
    )
    .run();
}

#[test]
fn a_rollout_count_outside_the_crd_pattern_is_refused_at_load() {
    let dir = common::tempdir();
    let path = dir.path().join("mwrs.yaml");
    let text = std::fs::read_to_string("testdata/consumers/broken/rollout-count-as-string.yaml")
        .unwrap_or_default()
        .replace("maxConcurrency: \"2\"", "maxConcurrency: half");
    common::write(&path, &text);
    let output = with_consumers("check")
        .args(["-f", &path.to_string_lossy()])
        .status(1)
        .run();
    let text = common::stdout(&output);
    assert!(text.contains("spec.placementRefs[0].rolloutStrategy.progressive.maxConcurrency: Invalid value: \"half\": spec.placementRefs[0].rolloutStrategy.progressive.maxConcurrency in body should match '^((100|[0-9]{1,2})%|[0-9]+)$'"), "{text}");
}

#[test]
fn an_application_set_generates_only_for_clusters_registered_with_argo_cd() {
    let output = with_consumers("explain")
        .args(["-f", "testdata/consumers/argocd-clusters.yaml"])
        .args(["ApplicationSet/shop/storefront-argo"])
        .run();
    common::golden(
        &expected("explain-applicationset.txt"),
        &common::stdout(&output),
    );
}

/// A generator's `selector` keeps the parameter sets it matches (cluster name, server,
/// values); one Argo CD cannot parse fails the ApplicationSet; one on a matrix is noted.
#[test]
fn an_application_set_generator_selector_filters_its_clusters_as_argo_cd_does() {
    let output = with_consumers("plan")
        .args([
            "-f",
            "testdata/consumers/appset-selectors.yaml",
            "-o",
            "yaml",
        ])
        .args(["-f", "testdata/consumers/argocd-clusters.yaml"])
        .args([
            "ApplicationSet/shop/storefront-eu-west",
            "ApplicationSet/shop/storefront-not-aws",
            "ApplicationSet/shop/storefront-bad-selector",
            "ApplicationSet/shop/storefront-matrix-selector",
        ])
        .stderr(
            "error: testdata/consumers/appset-selectors.yaml#3: \
             ApplicationSet/shop/storefront-bad-selector: spec.generators[0].selector: error \
             parsing label selector: \"Gt\" is not a valid pod selector operator\n",
        )
        .status(1)
        .run();
    common::golden(&expected("appset-selectors.yaml"), &common::stdout(&output));
    let explain = |name: &str, secrets: bool| {
        let mut test = with_consumers("explain")
            .args(["-f", "testdata/consumers/appset-selectors.yaml"])
            .arg(format!("ApplicationSet/shop/{name}"));
        if secrets {
            test = test.args(["-f", "testdata/consumers/argocd-clusters.yaml"]);
        }
        common::stdout(&test.run())
    };
    let text = explain("storefront-not-aws", true);
    assert!(
        text.contains("aws-eu-west-prod-1 left out: spec.generators[0].selector does not match its parameter set\n"),
        "{text}"
    );
    let text = explain("storefront-not-aws", false);
    assert!(
        text.contains("spec.generators[0].selector reads server, which only the Argo CD cluster Secrets tell and none is in the inputs: not applied\n"),
        "{text}"
    );
    let text = explain("storefront-matrix-selector", false);
    assert!(
        text.contains("spec.generators[0].selector: a selector on a generator other than clusterDecisionResource filters parameter sets fleetplan does not know: not applied\n"),
        "{text}"
    );
}

/// `explain` of one ApplicationSet of testdata/consumers/appsets.yaml.
fn explain_application_set(name: &str) -> String {
    let output = with_consumers("explain")
        .args(["-f", "testdata/consumers/appsets.yaml"])
        .arg(format!("ApplicationSet/shop/{name}"))
        .run();
    common::stdout(&output)
}

#[test]
fn an_application_set_in_a_matrix_or_merge_lands_as_argo_cd_generates() {
    let output = with_consumers("plan")
        .args(["-f", "testdata/consumers/appsets.yaml", "-o", "json"])
        .args(["-l", "!team"])
        .run();
    let plan: serde_json::Value =
        serde_json::from_str(&common::stdout(&output)).unwrap_or_default();
    let storefront = serde_json::json!([
        "aws-eu-west-prod-1",
        "aws-us-east-prod-1",
        "azure-eu-west-prod-1",
        "gcp-eu-central-prod-1"
    ]);
    let clusters = |name: &str| {
        plan["items"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|item| {
                item["source"]["kind"] == "ApplicationSet" && item["source"]["name"] == name
            })
            .map(|item| item["clusters"].clone())
    };
    // matrix × a list, matrix × git: the decided clusters; merge on a git base and matrix ×
    // an empty list: none.
    assert_eq!(
        clusters("storefront-colours"),
        Some(storefront.clone()),
        "{plan}"
    );
    assert_eq!(clusters("storefront-services"), Some(storefront), "{plan}");
    assert_eq!(
        clusters("storefront-overrides"),
        Some(serde_json::json!([])),
        "{plan}"
    );
    assert_eq!(
        clusters("storefront-none"),
        Some(serde_json::json!([])),
        "{plan}"
    );
}

#[test]
fn explain_says_which_cluster_each_generated_application_targets() {
    let text = explain_application_set("storefront-colours");
    assert!(
        text.contains("spec.template.spec.destination.name is \"{{name}}\": each Application targets the cluster it was generated for\nApplication storefront-aws-eu-west-prod-1-{{colour}} -> aws-eu-west-prod-1\n"),
        "{text}"
    );
    let text = explain_application_set("storefront-services");
    assert!(
        text.contains(
            "Application {{.path.basename}}-gcp-eu-central-prod-1 -> gcp-eu-central-prod-1\n"
        ),
        "{text}"
    );
    let text = explain_application_set("storefront-hub");
    assert!(
        text.contains("spec.template.spec.destination.server is \"https://kubernetes.default.svc\": every generated Application deploys there, whichever cluster was decided"),
        "{text}"
    );
}

#[test]
fn what_a_matrix_or_merge_leaves_undetermined_offline_is_noted() {
    let text = explain_application_set("storefront-services");
    assert!(
        text.contains("spec.generators[0].matrix.generators[1]: its clusters are destinations provided the other generator (git) yields at least one parameter set, which is not known offline"),
        "{text}"
    );
    let text = explain_application_set("storefront-overrides");
    assert!(
        text.contains("spec.generators[0].merge.generators[0]: the base (git generator) decides which Applications exist, which is not known offline: nothing is planned through this merge"),
        "{text}"
    );
    assert!(
        text.contains("spec.generators[0].merge.generators[1]: merged into the base by mergeKeys name: it only overrides the base's parameter sets, it adds no Application"),
        "{text}"
    );
    assert!(text.contains("lands on 0 of 14 clusters"), "{text}");
    let text = explain_application_set("storefront-none");
    assert!(
        text.contains("spec.generators[0].matrix: a child generator yields no parameter set: the matrix generates no Application"),
        "{text}"
    );
}

#[test]
fn a_matrix_of_three_generators_fails_as_argo_cd_refuses_it() {
    let output = with_consumers("check")
        .args(["-f", "testdata/consumers/broken/appset-matrix-three.yaml"])
        .status(1)
        .run();
    let text = common::stdout(&output);
    assert!(
        text.contains("ApplicationSet/shop/storefront-three: spec.generators[0].matrix: found more than two generators, Matrix support only two"),
        "{text}"
    );
}

/// Argo CD reads two levels of generators: a matrix nested twice is dropped (its parent child
/// generates nothing), and a child with two generators is refused; either fails the item.
#[test]
fn a_generator_nested_twice_or_doubled_fails_as_argo_cd_refuses_it() {
    let output = with_consumers("check")
        .args(["-f", "testdata/consumers/broken/appset-nested-twice.yaml"])
        .status(1)
        .run();
    let text = common::stdout(&output);
    assert!(
        text.contains("ApplicationSet/shop/storefront-nested-twice: spec.generators[0].matrix.generators[0].matrix.generators[0]: child generator generated no parameters (inside a nested matrix or merge only list, clusters, git, scmProvider, clusterDecisionResource, pullRequest and plugin generators are read)"),
        "{text}"
    );
    assert!(
        text.contains("ApplicationSet/shop/storefront-two-in-one: spec.generators[0].matrix.generators[0]: found more than one generator in matrix.Generators"),
        "{text}"
    );
    assert!(text.ends_with("17 items checked: 2 errors\n"), "{text}");
}

#[test]
fn an_application_set_without_cluster_secrets_says_so() {
    let output = with_consumers("explain")
        .args(["ApplicationSet/shop/storefront-argo"])
        .run();
    let text = common::stdout(&output);
    assert!(
        text.contains(
            "no Argo CD cluster Secret in the inputs: every decided cluster is taken as registered"
        ),
        "{text}"
    );
    assert!(text.contains("lands on 4 of 14 clusters"), "{text}");
}

#[test]
fn a_subscription_by_selector_and_an_addon_by_placements() {
    with_consumers("plan")
        .args([
            "Subscription/shop/gcp-tools",
            "ClusterManagementAddOn/observability",
        ])
        .args(["-o", "name"])
        .stdout("ClusterManagementAddOn/observability\nSubscription/shop/gcp-tools\n")
        .run();
}

#[test]
fn the_consumers_check_clean() {
    with_consumers("check")
        .stdout("15 items checked, all satisfied\n")
        .run();
}

/// `check` over the consumers and one broken file: exit 1 with exactly `stdout`.
fn broken(file: &str, status: i32, stdout: &str) -> Test {
    with_consumers("check")
        .args(["-f", &format!("testdata/consumers/broken/{file}")])
        .status(status)
        .stdout(stdout)
}

#[test]
fn a_binding_to_a_renamed_placement_fails_check() {
    // The silent pass this exists to prevent: the Policy is bound to nothing.
    broken(
        "binding-renamed-placement.yaml",
        1,
        "error: testdata/consumers/broken/binding-renamed-placement.yaml#2: line 16: PlacementBinding/policies/binding-policy-audit: placementRef: Placement/policies/placement-production is not in the inputs\n16 items checked: 1 error\n",
    )
    .run();
}

#[test]
fn a_binding_whose_api_group_does_not_serve_its_kind_fails_check() {
    broken(
        "binding-wrong-group.yaml",
        1,
        "error: testdata/consumers/broken/binding-wrong-group.yaml#1: line 7: PlacementBinding/policies/binding-wrong-group: placementRef: kind Placement is served by apiGroup cluster.open-cluster-management.io, not apps.open-cluster-management.io (the propagator ignores this binding)\n15 items checked: 1 error\n",
    )
    .run();
}

#[test]
fn a_binding_to_a_placement_of_another_namespace_fails_check() {
    broken(
        "binding-other-namespace.yaml",
        1,
        "error: testdata/consumers/broken/binding-other-namespace.yaml#1: line 7: PlacementBinding/policies/binding-storefront: placementRef: Placement/policies/storefront is not in the inputs (a Placement of that name is in namespace shop)\n15 items checked: 1 error\n",
    )
    .run();
}

#[test]
fn a_misspelled_placement_kind_is_refused_as_the_api_server_does() {
    broken(
        "binding-misspelled-kind.yaml",
        1,
        "error: testdata/consumers/broken/binding-misspelled-kind.yaml#1: line 8: PlacementBinding/policies/binding-typo: placementRef.kind: Unsupported value: \"Placment\": supported values: \"PlacementRule\", \"Placement\"\n15 items checked: 1 error\n",
    )
    .run();
}

/// Bindings are judged on every core, a thousand or more to a thread: their errors and
/// warnings still come in input order, across those blocks.
#[test]
fn many_bindings_are_judged_in_input_order() {
    let binding = |at: usize| {
        // Every 700th binding names a Placement that is not there; each binds a deleted Policy.
        let placement = if at % 700 == 3 {
            "placement-gone"
        } else {
            "placement-prod"
        };
        format!(
            "apiVersion: policy.open-cluster-management.io/v1\nkind: PlacementBinding\nmetadata:\n  name: binding-{at:04}\n  namespace: policies\nplacementRef:\n  apiGroup: cluster.open-cluster-management.io\n  kind: Placement\n  name: {placement}\nsubjects:\n  - apiGroup: policy.open-cluster-management.io\n    kind: Policy\n    name: policy-deleted-{at:04}\n"
        )
    };
    let bindings: Vec<String> = (0..3000).map(binding).collect();
    let output = with_consumers("check")
        .args(["-f", "-"])
        .stdin(bindings.join("---\n"))
        .status(1)
        .stderr_contains("<stdin>: 2900 more warnings not shown")
        .run();
    let named = |text: &[u8], kind: &str| -> Vec<String> {
        String::from_utf8_lossy(text)
            .lines()
            .filter(|line| line.starts_with(kind))
            .filter_map(|line| line.split("PlacementBinding/policies/").nth(1))
            .filter_map(|rest| rest.split(':').next())
            .map(str::to_string)
            .collect()
    };
    // Errors at 3, 703, 1403 (the first thread's block) and 2103, 2803 (the second's).
    let errors: Vec<String> = (0..3000)
        .filter(|at| at % 700 == 3)
        .map(|at| format!("binding-{at:04}"))
        .collect();
    assert_eq!(named(&output.stdout, "error:"), errors);
    // The first hundred warnings are shown, in order.
    let warnings: Vec<String> = (0..100).map(|at| format!("binding-{at:04}")).collect();
    assert_eq!(named(&output.stderr, "warning:"), warnings);
}

#[test]
fn a_binding_whose_subjects_are_all_missing_is_a_warning() {
    broken(
        "binding-missing-subjects.yaml",
        0,
        "15 items checked, all satisfied\n",
    )
    .stderr("warning: testdata/consumers/broken/binding-missing-subjects.yaml#1: PlacementBinding/policies/binding-orphan: binds nothing: none of its subjects is in the inputs (subjects[0] Policy/policies/policy-deleted)\n")
    .run();
}

#[test]
fn a_policy_bound_by_no_binding_is_placed_nowhere() {
    broken("policy-unbound.yaml", 0, "16 items checked, all satisfied\n")
        .stderr("warning: testdata/consumers/broken/policy-unbound.yaml#1: Policy/policies/policy-forgotten: placed nowhere: no PlacementBinding in namespace policies binds it or a PolicySet holding it\n")
        .run();
}

#[test]
fn each_consumer_kind_naming_a_missing_placement_fails_check() {
    let output = with_consumers("check")
        .args(["-f", "testdata/consumers/broken/references.yaml"])
        .status(1)
        .stderr("")
        .run();
    common::golden(&expected("check-references.txt"), &common::stdout(&output));
}

const MISSING_MEMBER: &str = "warning: testdata/consumers/broken/policyset-missing-member.yaml#1: PolicySet/policies/set-typo: spec.policies[1]: Policy/policies/policy-podd is not in the inputs: the set's other policies are still propagated, this one is listed as deleted in its status\n";

#[test]
fn a_policy_set_missing_a_member_still_places_the_others() {
    // As the policy-set controller does: policy-podd is a finding of the set (listed as
    // deleted in its status), policy-pod still lands through the set on the dev clusters.
    broken(
        "policyset-missing-member.yaml",
        0,
        "16 items checked, all satisfied\n",
    )
    .stderr(MISSING_MEMBER)
    .run();
    let output = with_consumers("plan")
        .args([
            "-f",
            "testdata/consumers/broken/policyset-missing-member.yaml",
        ])
        .args(["Policy/policies/policy-pod", "PolicySet/policies/set-typo"])
        .args(["-o", "json"])
        .stderr(MISSING_MEMBER)
        .run();
    let plan: serde_json::Value =
        serde_json::from_str(&common::stdout(&output)).unwrap_or_default();
    let dev = serde_json::json!([
        "aws-ap-south-dev",
        "azure-eu-central-dev",
        "gcp-eu-west-dev"
    ]);
    let (policy, set) = (&plan["items"][0], &plan["items"][1]);
    assert_eq!(set["source"]["kind"], "PolicySet", "{plan}");
    assert_eq!(set["clusters"], dev, "{plan}");
    assert!(set.get("errors").is_none(), "{plan}");
    assert_eq!(
        policy["via"][1],
        serde_json::json!([
            "PolicySet/policies/set-typo",
            "PlacementBinding/policies/binding-set-typo",
            "PlacementRule/policies/placement-dev"
        ]),
        "{plan}"
    );
    assert!(
        policy["clusters"].as_array().is_some_and(|clusters| dev
            .as_array()
            .into_iter()
            .flatten()
            .all(|cluster| clusters.contains(cluster))),
        "{plan}"
    );
}

#[test]
fn a_dangling_binding_fails_plan_too() {
    with_consumers("plan")
        .args(["-f", "testdata/consumers/broken/binding-renamed-placement.yaml"])
        .args(["-o", "name"])
        .status(1)
        .stderr_contains("error: testdata/consumers/broken/binding-renamed-placement.yaml#2: PlacementBinding/policies/binding-policy-audit: placementRef: Placement/policies/placement-production is not in the inputs\n")
        .run();
}

#[test]
fn a_dangling_binding_fails_a_plan_of_any_selected_item() {
    // The binding binds policy-audit, not the placement selected: a reference that resolves
    // to nothing is an error whatever a run selects.
    with_consumers("plan")
        .args(["-f", "testdata/consumers/broken/binding-renamed-placement.yaml"])
        .args(["-o", "name", "placement/policies/placement-prod"])
        .stdout("Placement/policies/placement-prod\n")
        .stderr("error: testdata/consumers/broken/binding-renamed-placement.yaml#2: PlacementBinding/policies/binding-policy-audit: placementRef: Placement/policies/placement-production is not in the inputs\n")
        .status(1)
        .run();
}

/// `diff` of the consumers' plan today against the same inputs changed by `flags` (exit 2).
fn diff_with(flags: &[&str]) -> String {
    let dir = common::tempdir();
    let previous = dir.path().join("previous.yaml");
    let output = with_consumers("plan").args(["-o", "yaml"]).run();
    common::write(&previous, &common::stdout(&output));
    let output = with_consumers("diff")
        .args(["--previous", &previous.to_string_lossy()])
        .args(flags.iter().copied())
        .status(2)
        .run();
    common::stdout(&output)
}

#[test]
fn diff_lists_a_consumer_whose_placement_moved() {
    // gcp-eu-west-dev turns prod: placement-prod takes it, and so does every Policy bound to
    // it. The PolicySet's members also lose it from placement-dev: their union is unchanged.
    let text = diff_with(&["--label", "gcp-eu-west-dev:env=prod", "-o", "markdown"]);
    assert!(
        text.contains("| `Policy/policies/policy-pod` | changed | +1 −0 | 0 | 0 | 0 |"),
        "{text}"
    );
    assert!(
        text.contains("**`Policy/policies/policy-pod`** changed\n\n- `+ cluster gcp-eu-west-dev`"),
        "{text}"
    );
    assert!(!text.contains("policy-limits"), "{text}");
    assert!(!text.contains("PolicySet"), "{text}");
}

#[test]
fn diff_lists_a_consumer_whose_chain_alone_changed() {
    // binding-policy-audit moves from placement-prod to placement-prod-copy, which decides
    // the same clusters: the Policy lands on the same clusters through another Placement.
    let dir = common::tempdir();
    let previous = dir.path().join("previous.yaml");
    let output = with_consumers("plan")
        .args(["-f", "testdata/consumers/rebound/before.yaml", "-o", "yaml"])
        .run();
    common::write(&previous, &common::stdout(&output));
    with_consumers("diff")
        .args(["-f", "testdata/consumers/rebound/after.yaml"])
        .args(["--previous", &previous.to_string_lossy()])
        .status(2)
        .stdout("~ Policy/policies/policy-audit\n    + via PlacementBinding/policies/binding-policy-audit -> Placement/policies/placement-prod-copy\n    - via PlacementBinding/policies/binding-policy-audit -> Placement/policies/placement-prod\n\n--- previous\n+++ current\n@@ -213,7 +213,7 @@\n   - gcp-eu-central-prod-1\n   via:\n   - - PlacementBinding/policies/binding-policy-audit\n-    - Placement/policies/placement-prod\n+    - Placement/policies/placement-prod-copy\n - source:\n     apiVersion: policy.open-cluster-management.io/v1\n     kind: Policy\n\n1 changed, 0 added, 0 removed, 0 errors\n")
        .run();
    let output = with_consumers("diff")
        .args(["-f", "testdata/consumers/rebound/after.yaml"])
        .args(["--previous", &previous.to_string_lossy(), "-o", "json"])
        .status(2)
        .run();
    let diff: serde_json::Value =
        serde_json::from_str(&common::stdout(&output)).unwrap_or_default();
    assert_eq!(
        diff["itemsChanged"][0]["viaRemoved"],
        serde_json::json!([[
            "PlacementBinding/policies/binding-policy-audit",
            "Placement/policies/placement-prod"
        ]]),
        "{diff}"
    );
    assert!(
        diff["itemsChanged"][0].get("clustersAdded").is_none(),
        "{diff}"
    );
}

#[test]
fn plan_for_one_cluster_lists_everything_that_lands_on_it() {
    let output = Test::new()
        .args(["plan", "-f", "testdata/fleet"])
        .args(["-f", "testdata/consumers/policies.yaml"])
        .args(["-f", "testdata/consumers/apps.yaml"])
        .args(CI_NOW)
        .args(["--cluster", "aws-eu-west-prod-1"])
        .run();
    common::golden(&expected("plan-cluster.txt"), &common::stdout(&output));
}

#[test]
fn plan_for_one_cluster_in_yaml_keeps_only_its_items() {
    let output = with_consumers("plan")
        .args(["--cluster", "gcp-eu-west-dev", "-o", "name"])
        .run();
    assert_eq!(
        common::stdout(&output),
        "ClusterManagementAddOn/observability\nPlacementRule/policies/placement-dev\nSubscription/shop/gcp-tools\nPlacement/ci/canary-rollout\nPolicy/policies/policy-limits\nPolicy/policies/policy-namespace\nPolicySet/policies/baseline\nManifestWorkReplicaSet/ci/canary-config\n"
    );
}

#[test]
fn plan_for_an_unknown_cluster_is_an_error() {
    with_consumers("plan")
        .args(["--cluster", "aws-eu-west-prod-3"])
        .status(1)
        .stderr("error: --cluster: no cluster named \"aws-eu-west-prod-3\" in the inventory, did you mean aws-eu-west-prod-1 or aws-eu-west-prod-2?\n")
        .run();
}

#[test]
fn migrate_verify_compares_the_policies_of_a_migrated_rule() {
    let output = Test::new()
        .args(["migrate", "-f", "testdata/fleet/inventory.yaml"])
        .args(["-f", "testdata/consumers/migrate-policy.yaml", "--verify"])
        .stderr_contains(
            "Policy/policies/policy-pod: identical (selection compared on 14 clusters)\n",
        )
        .run();
    assert!(common::stdout(&output).contains("kind: Placement\n"));
}

#[test]
fn a_taint_moves_a_placement_and_the_policies_it_places() {
    let output = with_consumers("plan")
        .args(["--taint", "aws-eu-west-prod-1:maintenance:NoSelect"])
        .args(["Policy/policies/policy-pod", "-o", "yaml"])
        .run();
    let text = common::stdout(&output);
    assert!(!text.contains("aws-eu-west-prod-1"), "{text}");
    assert!(text.contains("  - aws-eu-west-prod-2\n"), "{text}");
}

#[test]
fn diff_with_a_taint_answers_what_moves_if_the_cluster_is_drained() {
    let text = diff_with(&["--taint", "gcp-eu-central-prod-1:drain:NoSelect"]);
    for item in [
        "~ Policy/policies/policy-pod\n    - cluster gcp-eu-central-prod-1\n",
        "~ Subscription/shop/storefront-app\n",
        "~ ApplicationSet/shop/storefront-argo\n",
        "~ Placement/shop/storefront\n",
    ] {
        assert!(text.contains(item), "{item}\n{text}");
    }
}

#[test]
fn explain_says_when_upstream_acts_on_a_taint() {
    let output = with_consumers("explain")
        .args(["--taint", "aws-eu-west-prod-1:maintenance=friday:NoSelect"])
        .args([
            "Policy/policies/policy-pod",
            "--cluster",
            "aws-eu-west-prod-1",
            "-o",
            "json",
        ])
        .run();
    let explanation: serde_json::Value =
        serde_json::from_str(&common::stdout(&output)).unwrap_or_default();
    assert_eq!(
        explanation["notes"].as_array().and_then(|notes| notes.last()),
        Some(&serde_json::json!("--taint aws-eu-west-prod-1:maintenance=friday:NoSelect: the OCM placement controller acts at once: a ManagedCluster change requeues every Placement (PlacementRules, the federation annotations and kubefed read no taints; kubefed acts on an --offline cluster at its next sync)")),
        "{explanation}"
    );
    assert_eq!(
        explanation["clusters"][0]["reason"],
        "Placement/policies/placement-prod: taint maintenance=friday:NoSelect is not tolerated"
    );
}

#[test]
fn a_taint_with_an_unknown_effect_or_on_the_wrong_fleet_is_refused() {
    with_consumers("plan")
        .args(["--taint", "aws-eu-west-prod-1:maintenance:NoSchedul"])
        .status(1)
        .stderr("error: --taint aws-eu-west-prod-1:maintenance:NoSchedul: unknown effect \"NoSchedul\": expected NoSelect, PreferNoSelect or NoSelectIfNew (an OCM ManagedCluster), or NoSchedule, PreferNoSchedule or NoExecute (a Karmada Cluster; NoSchedule for a KubeFleet MemberCluster)\n")
        .run();
    with_consumers("plan")
        .args(["--taint", "aws-eu-west-prod-1:maintenance:NoSchedule"])
        .status(1)
        .stderr("error: --taint aws-eu-west-prod-1:maintenance:NoSchedule: NoSchedule is an effect of Karmada Clusters and KubeFleet MemberClusters: no cluster of that name is there\n")
        .run();
    with_consumers("plan")
        .args(["--taint", "aws-eu-west-prod-1:maintenance:NoExecute"])
        .status(1)
        .stderr("error: --taint aws-eu-west-prod-1:maintenance:NoExecute: NoExecute is a Karmada effect (for Karmada Clusters): no cluster of that name is there\n")
        .run();
    with_consumers("plan")
        .args(["--taint", "aws-eu-west-prod-1:NoSelect"])
        .status(1)
        .stderr("error: --taint: expected CLUSTER:KEY[=VALUE]:EFFECT, found \"aws-eu-west-prod-1:NoSelect\"\n")
        .run();
}

/// Subscriptions that choose their clusters themselves keep their selector when resolved
/// (before the fleet is indexed) and list it over the fleet when they land: each lands where
/// its own selector says, and one through a Placement on that Placement's clusters, however
/// the two kinds are interleaved.
#[test]
fn inline_subscriptions_between_other_consumers_land_on_their_own_clusters() {
    let subscription = |name: &str, placement: &str| {
        format!(
            "apiVersion: apps.open-cluster-management.io/v1\nkind: Subscription\nmetadata: {{name: {name}, namespace: shop}}\nspec:\n  channel: shop/c\n  placement: {placement}\n---\n"
        )
    };
    let stdin = [
        subscription("a-dev", "{clusterSelector: {matchLabels: {env: dev}}}"),
        subscription(
            "b-storefront",
            "{placementRef: {kind: Placement, name: storefront}}",
        ),
        subscription(
            "c-azure",
            "{clusterSelector: {matchLabels: {cloud: azure}}}",
        ),
        subscription(
            "d-staging",
            "{clusterSelector: {matchLabels: {env: staging}}}",
        ),
    ]
    .concat();
    let output = with_fleet("plan")
        .args(["-f", "-", "-o", "json"])
        .stdin(stdin)
        .run();
    let plan: serde_json::Value = serde_json::from_str(&common::stdout(&output)).unwrap();
    let item_clusters = |kind: &str, name: &str| -> Vec<String> {
        let items = plan["items"].as_array().unwrap();
        let item = items
            .iter()
            .find(|item| item["source"]["kind"] == kind && item["source"]["name"] == name)
            .unwrap_or_else(|| panic!("no item for {kind} {name}"));
        item["clusters"]
            .as_array()
            .map(|names| {
                names
                    .iter()
                    .map(|n| n.as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let clusters = |name: &str| item_clusters("Subscription", name);
    assert_eq!(
        clusters("a-dev"),
        [
            "aws-ap-south-dev",
            "azure-eu-central-dev",
            "gcp-eu-west-dev"
        ]
    );
    let storefront = item_clusters("Placement", "storefront");
    assert!(!storefront.is_empty());
    assert_eq!(clusters("b-storefront"), storefront);
    assert_eq!(
        clusters("c-azure"),
        [
            "azure-ap-south-prod-1",
            "azure-eu-central-dev",
            "azure-eu-west-prod-1",
            "azure-us-east-staging"
        ]
    );
    assert_eq!(
        clusters("d-staging"),
        [
            "aws-us-east-staging",
            "azure-us-east-staging",
            "gcp-eu-central-staging"
        ]
    );
}
