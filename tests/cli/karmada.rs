//! Karmada through the real binary: the bundled example (testdata/karmada) planned, explained,
//! diffed, checked and written as ResourceBindings, and the behaviours around it (previous
//! bindings, failover, quirks said as warnings, refused policies). Golden files live in
//! testdata/karmada/expected; `FLEETPLAN_BLESS=1 cargo test --test cli karmada::` rewrites them.

use std::fs;
use std::path::Path;

use crate::common::{self, Test};

const EXAMPLE: &str = "testdata/karmada/example";
const EXPECTED: &str = "testdata/karmada/expected";
const CASES: &str = "testdata/karmada/cases";

const WARNINGS: &str = "warning: testdata/karmada/example/workloads.yaml#4: Deployment/shop/batch: 0 replicas with resource requests or a node claim: upstream schedules it to no cluster and still reports Scheduled=True
warning: testdata/karmada/example/workloads.yaml#3: Deployment/shop/worker: PropagationPolicy/shop/worker: spread constraints are ignored with static weights (only their provider/region/zone property filter applies)
";

/// `plan -o json` of the example's clusters and the case file `case`, which must print
/// `stderr` exactly.
fn plan_case_json(case: &str, stderr: &str) -> serde_json::Value {
    let output = Test::new()
        .args([
            "plan",
            "-o",
            "json",
            "-f",
            &format!("{EXAMPLE}/clusters.yaml"),
            "-f",
            &format!("{CASES}/{case}"),
        ])
        .stderr(stderr)
        .run();
    serde_json::from_slice(&output.stdout).expect("JSON")
}

/// Compares `output` with the golden file (or rewrites it under FLEETPLAN_BLESS).
fn golden(name: &str, output: &[u8]) {
    common::golden(
        &Path::new(EXPECTED).join(name),
        &String::from_utf8_lossy(output),
    );
}

#[test]
fn the_example_plans_as_its_golden_table() {
    let output = Test::new()
        .args(["plan", "-f", EXAMPLE])
        .stderr(WARNINGS)
        .run();
    golden("plan.txt", &output.stdout);
}

#[test]
fn the_example_plans_as_its_golden_json() {
    let output = Test::new()
        .args(["plan", "-o", "json", "-f", EXAMPLE])
        .stderr(WARNINGS)
        .run();
    golden("plan.json", &output.stdout);
}

#[test]
fn bindings_output_is_what_the_scheduler_writes() {
    let output = Test::new()
        .args(["plan", "-o", "bindings", "-f", EXAMPLE])
        .stderr(WARNINGS)
        .run();
    golden("bindings.yaml", &output.stdout);
}

/// `plan -o bindings` of `inputs` against the golden file `expected`, whatever it warns.
fn bindings_golden(inputs: &[&str], expected: &str) {
    let mut args = vec!["plan", "-o", "bindings"];
    for input in inputs {
        args.extend(["-f", input]);
    }
    let output = Test::new().args(args).stderr_contains("").run();
    golden(expected, &output.stdout);
}

#[test]
fn bindings_quote_cluster_names_a_yaml_reader_misreads() {
    bindings_golden(
        &[&format!("{CASES}/names-yaml-misreads.yaml")],
        "bindings-names-yaml-misreads.yaml",
    );
}

#[test]
fn bindings_keep_a_previous_result_naming_a_cluster_gone_from_the_fleet() {
    bindings_golden(
        &[
            &format!("{EXAMPLE}/clusters.yaml"),
            &format!("{CASES}/kept-cluster-gone.yaml"),
        ],
        "bindings-kept-cluster-gone.yaml",
    );
}

#[test]
fn explain_says_which_affinity_term_failed_and_why() {
    let output = Test::new()
        .args(["explain", "-f", EXAMPLE, "deploy/shop/api"])
        .stderr_contains("")
        .run();
    let text = common::stdout(&output);
    assert!(text.contains("affinity term primary: failed (Unschedulable): failed to assign replicas: failed to scale up: Clusters available replicas 6 are not enough to schedule."), "{text}");
    assert!(
        text.contains("affinity term backup: scheduled to member-us-1:12"),
        "{text}"
    );
    golden("explain-api.txt", &output.stdout);
}

#[test]
fn explain_says_which_policy_claimed_and_why_the_others_did_not() {
    let output = Test::new()
        .args(["explain", "-f", EXAMPLE, "cm/shop/shop-settings"])
        .run();
    let text = common::stdout(&output);
    assert!(
        text.contains("claimed by ClusterPropagationPolicy/config: no PropagationPolicy matches"),
        "{text}"
    );
    assert!(
        text.contains("PropagationPolicy/shop/web: no resource selector matches"),
        "{text}"
    );
}

#[test]
fn explain_one_karmada_cluster_answers_in_a_sentence() {
    Test::new()
        .args(["explain", "-f", EXAMPLE, "deploy/shop/web", "--cluster", "member-us-2"])
        .stdout("member-us-2 was not selected: TaintToleration: cluster(s) had untolerated taint {cluster.karmada.io/not-ready:NoSchedule}.\n\nCLUSTER       VERDICT    REASON\nmember-us-2   filtered   TaintToleration: cluster(s) had untolerated taint {cluster.karmada.io/not-ready:NoSchedule}\n")
        .run();
}

#[test]
fn diff_against_the_same_plan_is_no_change_and_against_another_is_exit_2() {
    let dir = tempdir("diff");
    let previous = dir.join("previous.json");
    let output = Test::new()
        .args(["plan", "-o", "json", "-f", EXAMPLE])
        .stderr(WARNINGS)
        .run();
    fs::write(&previous, &output.stdout).expect("writable");
    Test::new()
        .args(["diff", "-f", EXAMPLE, "--previous"])
        .arg(previous.display().to_string())
        .stderr_contains("")
        .run();
    // The web Deployment scaled from 9 to 12: the dynamic division adds 3 replicas on top.
    let scaled = fs::read_to_string(Path::new(EXAMPLE).join("workloads.yaml"))
        .expect("readable")
        .replacen("replicas: 9", "replicas: 12", 1);
    let inputs = dir.join("inputs");
    fs::create_dir_all(&inputs).expect("writable");
    for file in ["clusters.yaml", "policies.yaml"] {
        fs::copy(Path::new(EXAMPLE).join(file), inputs.join(file)).expect("copied");
    }
    fs::write(inputs.join("workloads.yaml"), scaled).expect("writable");
    let output = Test::new()
        .args(["diff", "-f"])
        .arg(inputs.display().to_string())
        .arg("--previous")
        .arg(previous.display().to_string())
        .stderr_contains("")
        .status(2)
        .run();
    let text = common::stdout(&output);
    assert!(text.contains("Deployment/shop/web"), "{text}");
}

#[test]
fn check_passes_the_example_and_fails_an_unschedulable_binding() {
    Test::new()
        .args(["check", "-f", EXAMPLE])
        .stderr_contains("")
        .run();
    let output = Test::new()
        .args([
            "check",
            "-f",
            &format!("{EXAMPLE}/clusters.yaml"),
            "-f",
            &format!("{CASES}/no-cluster-fits.yaml"),
        ])
        .stderr_contains("")
        .status(3)
        .run();
    let text = common::stdout(&output);
    assert!(
        text.contains("0/4 clusters are available: 1 cluster(s) had untolerated taint {cluster.karmada.io/not-ready:NoSchedule}, 3 cluster(s) did not match the placement cluster affinity constraint."),
        "{text}"
    );
}

#[test]
fn a_cluster_already_in_the_binding_keeps_replicas_despite_its_taint_and_says_so() {
    let plan = plan_case_json("tainted-member-kept.yaml", "warning: testdata/karmada/cases/tainted-member-kept.yaml#2: Deployment/shop/legacy: cluster member-us-2 keeps the workload although it had untolerated taint {cluster.karmada.io/not-ready:NoSchedule}: clusters already in the binding skip the TaintToleration filter\nwarning: testdata/karmada/cases/tainted-member-kept.yaml#2: Deployment/shop/legacy: cluster member-us-2 is not Ready (Ready=False) yet is chosen: Karmada has no readiness filter, only the not-ready/unreachable taints keep workloads off\n");
    assert_eq!(
        plan["items"][0]["replicas"],
        serde_json::json!({"member-us-2": 4})
    );
}

/// A failed run that is no FitError leaves `spec.clusters` as it was, even a cluster the fleet
/// no longer has.
#[test]
fn a_failed_scale_up_keeps_the_previous_clusters_even_one_gone_from_the_fleet() {
    let plan = plan_case_json("kept-cluster-gone.yaml", "warning: testdata/karmada/cases/kept-cluster-gone.yaml#2: Deployment/shop/orphan: scheduling failed: the binding keeps its previous clusters\n");
    let item = &plan["items"][0];
    assert_eq!(item["clusters"], serde_json::json!(["member-gone"]));
    assert_eq!(item["replicas"], serde_json::json!({"member-gone": 3}));
    assert_eq!(item["conditions"][0]["reason"], "Unschedulable");
}

#[test]
fn a_policy_the_webhook_would_refuse_is_an_error_with_its_field() {
    Test::new()
        .args(["plan", "-f", &format!("{EXAMPLE}/clusters.yaml"), "-f", &format!("{CASES}/refused-policy.yaml")])
        .stderr("error: testdata/karmada/cases/refused-policy.yaml#1: PropagationPolicy/shop/both: spec.placement: clusterAffinities cannot co-exist with clusterAffinity\n")
        .status(1)
        .run();
}

#[test]
fn jobs_and_pods_get_replicas_from_the_native_interpreter() {
    let plan = plan_case_json("jobs-and-pods.yaml", "");
    let replicas: Vec<(String, serde_json::Value)> = plan["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|item| {
            (
                item["source"]["name"].as_str().unwrap_or("").to_string(),
                item["replicas"].clone(),
            )
        })
        .collect();
    assert_eq!(
        replicas,
        vec![
            // Pod: 1; Job: min(parallelism 5, completions 3) = 3. Both Duplicated.
            ("probe".to_string(), serde_json::json!({"member-eu-1": 1})),
            ("report".to_string(), serde_json::json!({"member-eu-1": 3})),
        ]
    );
}

#[test]
fn a_cluster_scoped_resource_gets_a_cluster_resource_binding() {
    let output = Test::new()
        .args([
            "plan",
            "-o",
            "bindings",
            "-f",
            &format!("{EXAMPLE}/clusters.yaml"),
            "-f",
            &format!("{CASES}/cluster-scoped.yaml"),
        ])
        .run();
    let text = common::stdout(&output);
    assert!(
        text.contains("kind: ClusterResourceBinding\nmetadata:\n  name: shop-namespace\n"),
        "{text}"
    );
}

fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fleetplan-karmada-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// 2,147,483,647 replicas are divided at once (one seat at a time took half a minute), as
/// upstream's seat-by-seat Webster would divide them: its int32 `2*Seats+1` wraps at 2^30
/// seats, so the heavier cluster stops there and the other takes the rest.
#[test]
fn the_int32_maximum_of_replicas_is_divided_as_upstream_divides_it() {
    let cluster = |name: &str| {
        format!(
            "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {{name: {name}}}\n\
             spec: {{syncMode: Push}}\nstatus:\n  apiEnablements:\n  \
             - {{groupVersion: apps/v1, resources: [{{kind: Deployment, name: deployments}}]}}\n"
        )
    };
    let deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n\
                      spec: {replicas: 2147483647, template: {spec: {containers: [{name: web, image: nginx}]}}}\n";
    let policy = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\n\
                  metadata: {name: web, namespace: shop}\nspec:\n  \
                  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]\n  \
                  placement:\n    replicaScheduling:\n      replicaSchedulingType: Divided\n      \
                  replicaDivisionPreference: Weighted\n      weightPreference:\n        \
                  staticWeightList:\n        - {targetCluster: {clusterNames: [member-a]}, weight: 3}\n        \
                  - {targetCluster: {clusterNames: [member-b]}, weight: 1}\n";
    let output = Test::new()
        .args(["plan", "-o", "json", "-f", "-"])
        .stdin(
            [
                cluster("member-a"),
                cluster("member-b"),
                deployment.to_string(),
                policy.to_string(),
            ]
            .join("---\n"),
        )
        .run();
    let plan: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(
        plan["items"][0]["replicas"],
        serde_json::json!({"member-a": 1_073_741_824, "member-b": 1_073_741_823})
    );
}

/// An object of a kind no API reads is a skipped document unless a policy selects it: the
/// selected ConfigMap becomes an item and leaves the skipped list, the Secret nothing selects
/// stays on it.
#[test]
fn a_selected_template_leaves_the_skipped_documents_and_an_unselected_one_stays() {
    let output = Test::new()
        .args(["plan", "-v", "-f", "testdata/karmada/example", "-f", "-"])
        .stdin(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: flags, namespace: shop}\n---\n\
             apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: shop}\n",
        )
        .stderr_contains("skipped <stdin>#2: v1/Secret\nwarning: ")
        .run();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("<stdin>#1"), "{stderr}");
    assert!(common::stdout(&output).contains("ConfigMap/shop/flags"));
}
