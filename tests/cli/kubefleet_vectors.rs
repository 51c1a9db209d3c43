//! The vectors of testdata/upstream/kubefleet.yaml (transcribed from kubefleet-dev/kubefleet's
//! own tests at e160c1cdfdd9) that can be stated as manifests, through the real binary: each
//! vector's MemberClusters, a placement, bindings, overrides or a staged update run as one
//! YAML stream, then `fleetplan explain -o json` or `plan -o json`, compared with the
//! vector's verdict, status text, matched overrides or stages. The other kinds test the
//! scheduler's intermediate state (scores, domain counts, sorted lists, the status built from
//! given lists), which no manifest states: they run in the library
//! (src/kubefleet/upstream_vectors.rs). docs/kubefleet.md lists which kinds run where.

use serde_json::{json, Value};

use crate::common::Test;

/// The kinds stated as manifests here.
const THROUGH_THE_CLI: &[&str] = &[
    "filter",
    "eligibility",
    "requiredTerm",
    "pickFixed",
    "overrideRule",
    "overridesForCluster",
    "stages",
];

/// The kinds only the library runs: their inputs are the scheduler's intermediate state.
const LIBRARY_ONLY: &[&str] = &[
    "prefilter",
    "propertyValue",
    "preferredTerm",
    "interpolate",
    "affinityPreScore",
    "affinityScore",
    "samePlacementScore",
    "postBatch",
    "tscCountByDomain",
    "tscWillViolate",
    "tscEvaluate",
    "tscPrepare",
    "scoreLess",
    "scoreEqual",
    "scoredSort",
    "pickTopN",
    "numToSelect",
    "shouldRequeue",
    "shouldDownscale",
    "sortBindingsForDownscale",
    "downscale",
    "decisions",
    "statusFromBindings",
    "pickFixedStatus",
];

/// How many vectors of `THROUGH_THE_CLI`'s kinds the file holds: each one runs.
const MAPPED: usize = 101;

/// Mapped vectors that do not pass, with the reason; the library's `NOT_PASSING` lists the
/// same ones (a listed vector that starts passing fails the test).
const NOT_PASSING: &[(&str, &str)] = &[(
    "TestPickFromResourceMatchedOverridesForTargetCluster/cluster not found",
    "a failed read of the MemberCluster from the API server, which has no offline counterpart",
)];

/// Mapped vectors whose input upstream's admission refuses (its webhook or its CRD schema;
/// upstream's unit test calls the matcher without it): fleetplan refuses each override with
/// admission's message (after `error: <stdin>#N: Kind/[namespace/]name: `), as the hub would.
const REFUSED_BY_THE_WEBHOOK: &[(&str, &str)] = &[
    (
        "TestIsClusterMatched/rule with nil cluster label selector",
        "spec.policy.overrideRules: invalid clusterSelector {LabelSelector:<nil> PropertySelector:<nil> PropertySorter:<nil>}: labelSelector is required",
    ),
    (
        "TestIsClusterMatched/rule with empty cluster selector",
        "spec.policy.overrideRules[0].clusterSelector.clusterSelectorTerms: Required value",
    ),
    (
        "TestPickFromResourceMatchedOverridesForTargetCluster/non-latest override snapshots",
        "spec.policy.overrideRules[0].clusterSelector.clusterSelectorTerms: Required value",
    ),
    (
        "TestPickFromResourceMatchedOverridesForTargetCluster/matched overrides with empty cluster label",
        "spec.policy.overrideRules[0].clusterSelector.clusterSelectorTerms: Required value",
    ),
];

const NOW: &str = "2026-06-01T12:00:00Z";
const PLACEMENT: &str = "vector";

fn vectors() -> Vec<Value> {
    let text =
        std::fs::read_to_string("testdata/upstream/kubefleet.yaml").expect("vectors are readable");
    let file: Value = serde_yaml::from_str(&text).expect("vectors parse");
    file["vectors"].as_array().cloned().unwrap_or_default()
}

/// A member agent that joined, is healthy and reported at `now`.
fn healthy(now: &str) -> Value {
    json!([{
        "type": "MemberAgent",
        "lastReceivedHeartbeat": now,
        "conditions": [
            {"type": "Joined", "status": "True", "lastTransitionTime": now},
            {"type": "Healthy", "status": "True", "lastTransitionTime": now}
        ]
    }])
}

/// The vector's MemberCluster as a manifest, with the `spec.identity` the CRD requires (the
/// upstream tests build the Go struct without the API server); `eligible` gives it a healthy
/// member agent (a vector of one plugin states only what that plugin reads, and the whole
/// profile also runs ClusterEligibility).
fn member(cluster: &Value, now: &str, eligible: bool) -> Value {
    let mut cluster = cluster.clone();
    cluster["apiVersion"] = json!("cluster.kubernetes-fleet.io/v1beta1");
    cluster["kind"] = json!("MemberCluster");
    if !cluster["spec"].is_object() {
        cluster["spec"] = json!({});
    }
    cluster["spec"]["identity"] = json!({"kind": "ServiceAccount", "name": "member-agent"});
    if eligible {
        if !cluster["status"].is_object() {
            cluster["status"] = json!({});
        }
        cluster["status"]["agentStatus"] = healthy(now);
    }
    cluster
}

fn name_of(object: &Value) -> &str {
    object["metadata"]["name"].as_str().unwrap_or_default()
}

/// A ClusterResourcePlacement (or, with a namespace, a ResourcePlacement) named `vector`
/// with `policy`, selecting `selectors`.
fn placement(namespace: Option<&str>, policy: Option<&Value>, selectors: Value) -> Value {
    let mut placement = json!({
        "apiVersion": "placement.kubernetes-fleet.io/v1beta1",
        "kind": if namespace.is_some() { "ResourcePlacement" } else { "ClusterResourcePlacement" },
        "metadata": {"name": PLACEMENT},
        "spec": {"resourceSelectors": selectors}
    });
    if let Some(namespace) = namespace {
        placement["metadata"]["namespace"] = json!(namespace);
    }
    if let Some(policy) = policy.filter(|policy| !policy.is_null()) {
        placement["spec"]["policy"] = policy.clone();
    }
    placement
}

fn namespace_selector(name: &str) -> Value {
    json!({"group": "", "version": "v1", "kind": "Namespace", "name": name})
}

fn pick_fixed(names: &[&str]) -> Value {
    json!({"placementType": "PickFixed", "clusterNames": names})
}

/// A binding of the placement to `cluster` under its latest snapshot (`vector-0`).
fn binding(at: usize, cluster: &str, state: &str, snapshot: &str) -> Value {
    json!({
        "apiVersion": "placement.kubernetes-fleet.io/v1beta1",
        "kind": "ClusterResourceBinding",
        "metadata": {
            "name": format!("{PLACEMENT}-{at}"),
            "labels": {"kubernetes-fleet.io/parent-CRP": PLACEMENT}
        },
        "spec": {
            "state": state,
            "targetCluster": cluster,
            "schedulingPolicySnapshotName": snapshot,
            "clusterDecision": {"clusterName": cluster, "selected": true}
        }
    })
}

/// An override rule as the webhook admits it: a JSON patch rule needs a patch.
fn with_patch(rule: &Value) -> Value {
    let mut rule = if rule.is_object() {
        rule.clone()
    } else {
        json!({})
    };
    if rule["jsonPatchOverrides"].is_null() && rule["overrideType"] != "Delete" {
        rule["jsonPatchOverrides"] =
            json!([{"op": "add", "path": "/metadata/labels/vector", "value": "true"}]);
    }
    rule
}

/// An override of the vector's rules: a ClusterResourceOverride selecting Namespace
/// `resource`, or a ResourceOverride in `namespace` selecting Deployment `resource`.
fn override_(name: &str, namespace: Option<&str>, rules: &[Value], resource: &str) -> Value {
    let rules: Vec<Value> = rules.iter().map(with_patch).collect();
    let mut object = json!({
        "apiVersion": "placement.kubernetes-fleet.io/v1beta1",
        "metadata": {"name": name},
        "spec": {"policy": {"overrideRules": rules}}
    });
    match namespace {
        None => {
            object["kind"] = json!("ClusterResourceOverride");
            object["spec"]["clusterResourceSelectors"] = json!([namespace_selector(resource)]);
        }
        Some(namespace) => {
            object["kind"] = json!("ResourceOverride");
            object["metadata"]["namespace"] = json!(namespace);
            object["spec"]["resourceSelectors"] = json!([{
                "group": "apps", "version": "v1", "kind": "Deployment", "name": resource
            }]);
        }
    }
    object
}

fn stream(objects: &[Value]) -> String {
    objects
        .iter()
        .map(|object| {
            format!(
                "---\n{}",
                serde_yaml::to_string(object).expect("serializable")
            )
        })
        .collect()
}

/// What fleetplan said about a vector, which exited with `status`: its JSON and stderr.
struct Outcome {
    stdout: Value,
    stderr: String,
}

fn run(args: &[&str], now: &str, objects: &[Value], status: i32) -> Outcome {
    let output = Test::new()
        .args(args.iter().copied())
        .args(["--now", now, "-f", "-"])
        .stdin(stream(objects))
        .stderr_contains("")
        .status(status)
        .run();
    Outcome {
        stdout: serde_json::from_slice(&output.stdout).unwrap_or(Value::Null),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// `explain -o json` of the vector's placement: each cluster's (verdict, reason), the notes.
fn explain(
    item: &str,
    now: &str,
    objects: &[Value],
) -> (Vec<(String, String, String)>, Vec<String>) {
    let outcome = run(&["explain", "-o", "json", item], now, objects, 0);
    let clusters = outcome.stdout["clusters"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|row| {
            let text = |field: &str| row[field].as_str().unwrap_or_default().to_string();
            (text("cluster"), text("verdict"), text("reason"))
        })
        .collect();
    let notes = outcome.stdout["notes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect();
    (clusters, notes)
}

/// One cluster's (verdict, reason) in `explain`.
fn verdict_of(rows: &[(String, String, String)], cluster: &str) -> (String, String) {
    rows.iter()
        .find(|(name, _, _)| name == cluster)
        .map(|(_, verdict, reason)| (verdict.clone(), reason.clone()))
        .unwrap_or_default()
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

/// A plugin's verdict on one cluster: `explain`'s row for it.
fn check_filter(id: &str, input: &Value, expected: &Value) {
    let now = input["now"].as_str().unwrap_or(NOW);
    let plugin = input["plugin"].as_str().unwrap_or_default();
    let cluster = member(&input["cluster"], now, plugin != "ClusterEligibility");
    let name = name_of(&cluster).to_string();
    let mut objects = vec![cluster];
    let namespace = input["placement"]["namespace"].as_str();
    let selectors = match namespace {
        Some(_) => json!([{"group": "apps", "version": "v1", "kind": "Deployment", "name": "web"}]),
        None => json!([namespace_selector("web")]),
    };
    objects.push(placement(namespace, input.get("policy"), selectors));
    for (at, bound) in strings_of(&input["scheduledOrBoundBindings"])
        .iter()
        .enumerate()
    {
        let cluster = bound["targetCluster"].as_str().unwrap_or_default();
        let state = bound["state"].as_str().unwrap_or("Scheduled");
        objects.push(binding(at, cluster, state, &format!("{PLACEMENT}-0")));
    }
    let item = match namespace {
        Some(namespace) => format!("rp/{namespace}/{PLACEMENT}"),
        None => format!("crp/{PLACEMENT}"),
    };
    let (rows, _) = explain(&item, now, &objects);
    let (verdict, reason) = verdict_of(&rows, &name);
    match expected["verdict"].as_str().unwrap_or_default() {
        "Success" | "ClusterAlreadySelected" => {
            assert_eq!(verdict, "selected", "{id}: {reason}");
        }
        "ClusterUnschedulable" => {
            assert_eq!(verdict, "filtered", "{id}");
            let status = expected["status"].as_str().unwrap_or_default();
            assert_eq!(reason, format!("{plugin}: {status}"), "{id}");
        }
        other => panic!("{id}: unmapped verdict {other}"),
    }
}

fn strings_of(value: &Value) -> Vec<Value> {
    value.as_array().cloned().unwrap_or_default()
}

/// Eligibility at `now`: selected, or filtered by ClusterEligibility with upstream's reason.
fn check_eligibility(id: &str, input: &Value, expected: &Value) {
    let now = input["now"].as_str().unwrap_or(NOW);
    let cluster = member(&input["cluster"], now, false);
    let name = name_of(&cluster).to_string();
    let objects = [
        cluster,
        placement(None, None, json!([namespace_selector("web")])),
    ];
    let (rows, _) = explain(&format!("crp/{PLACEMENT}"), now, &objects);
    let (verdict, reason) = verdict_of(&rows, &name);
    if expected["eligible"].as_bool() == Some(true) {
        assert_eq!(verdict, "selected", "{id}: {reason}");
    } else {
        let why = expected["reason"].as_str().unwrap_or_default();
        assert_eq!(verdict, "filtered", "{id}");
        assert_eq!(
            reason,
            format!("ClusterEligibility: ClusterUnschedulable, {why}"),
            "{id}"
        );
    }
}

/// One required term on one eligible cluster: selected, filtered by ClusterAffinity, or (an
/// error) the placement not planned.
fn check_required_term(id: &str, input: &Value, expected: &Value) {
    let cluster = member(&input["cluster"], NOW, true);
    let name = name_of(&cluster).to_string();
    let policy = json!({"affinity": {"clusterAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"clusterSelectorTerms": [input["term"]]}
    }}});
    let objects = [
        cluster,
        placement(None, Some(&policy), json!([namespace_selector("web")])),
    ];
    if expected["error"].as_bool() == Some(true) {
        let outcome = run(&["plan", "-o", "json"], NOW, &objects, 1);
        assert!(
            outcome.stderr.contains("ClusterResourcePlacement/vector: "),
            "{id}: {}",
            outcome.stderr
        );
        return;
    }
    let (rows, _) = explain(&format!("crp/{PLACEMENT}"), NOW, &objects);
    let (verdict, reason) = verdict_of(&rows, &name);
    if expected["matches"].as_bool() == Some(true) {
        assert_eq!(verdict, "selected", "{id}: {reason}");
    } else {
        assert_eq!(
            (verdict.as_str(), reason.as_str()),
            (
                "filtered",
                "ClusterAffinity: ClusterUnschedulable, cluster does not match with any of the required cluster affinity terms"
            ),
            "{id}"
        );
    }
}

/// PickFixed over the vector's clusters: the valid ones selected, the invalid filtered with
/// upstream's reason, the missing ones in the placement's failed entries.
fn check_pick_fixed(id: &str, input: &Value, expected: &Value) {
    let now = input["now"].as_str().unwrap_or(NOW);
    let names = strings(&input["clusterNames"]);
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut objects: Vec<Value> = strings_of(&input["clusters"])
        .iter()
        .map(|cluster| member(cluster, now, false))
        .collect();
    if objects.is_empty() {
        // fleetplan refuses to plan without any cluster (nothing would be evaluated): one
        // that is not named stands by.
        objects.push(member(
            &json!({"metadata": {"name": "bystander"}}),
            now,
            true,
        ));
    }
    objects.push(placement(
        None,
        Some(&pick_fixed(&names)),
        json!([namespace_selector("web")]),
    ));
    let (rows, notes) = explain(&format!("crp/{PLACEMENT}"), now, &objects);
    for valid in strings(&expected["valid"]) {
        assert_eq!(verdict_of(&rows, &valid).0, "selected", "{id}: {valid}");
    }
    for invalid in strings_of(&expected["invalid"]) {
        let cluster = invalid["cluster"].as_str().unwrap_or_default();
        let why = invalid["reason"].as_str().unwrap_or_default();
        assert_eq!(
            verdict_of(&rows, cluster),
            (
                "filtered".to_string(),
                format!(
                    "PickFixed: Cluster \"{cluster}\" is not eligible for resource placement yet: {why}"
                )
            ),
            "{id}"
        );
    }
    for missing in strings(&expected["notFound"]) {
        let note = format!(
            "placement status: Scheduled=False (ScheduleFailed): Specified cluster \"{missing}\" is not found"
        );
        assert!(notes.contains(&note), "{id}: {notes:?}");
    }
    let selected = rows
        .iter()
        .filter(|(_, verdict, _)| verdict == "selected")
        .count();
    assert_eq!(selected, strings(&expected["valid"]).len(), "{id}");
}

/// The overrides `plan -o json` records for `cluster`: (ClusterResourceOverrides,
/// ResourceOverrides).
fn overrides_of(id: &str, objects: &[Value], cluster: &str) -> (Vec<String>, Vec<String>) {
    let outcome = run(&["plan", "-o", "json"], NOW, objects, 0);
    let item = &outcome.stdout["items"][0];
    assert_eq!(strings(&item["clusters"]), [cluster], "{id}");
    let found = &item["overrides"][cluster];
    (
        strings(&found["clusterResourceOverrides"]),
        strings(&found["resourceOverrides"]),
    )
}

/// One override rule on one cluster: the override applies to it or not.
fn check_override_rule(id: &str, input: &Value, expected: &Value) {
    let cluster = member(&input["cluster"], NOW, true);
    let name = name_of(&cluster).to_string();
    let objects = [
        cluster,
        placement(
            None,
            Some(&pick_fixed(&[&name])),
            json!([namespace_selector("web")]),
        ),
        override_("rule", None, &[input["rule"].clone()], "web"),
    ];
    if let Some((_, error)) = REFUSED_BY_THE_WEBHOOK.iter().find(|(case, _)| *case == id) {
        Test::new()
            .args(["plan", "-o", "json", "--now", NOW, "-f", "-"])
            .stdin(stream(&objects))
            .stdout("")
            .stderr(format!(
                "error: <stdin>#3: ClusterResourceOverride/rule: {error}\n"
            ))
            .status(1)
            .run();
        return;
    }
    let (matched, _) = overrides_of(id, &objects, &name);
    let expected = expected["matched"].as_bool() == Some(true);
    assert_eq!(matched == ["rule"], expected, "{id}: {matched:?}");
}

/// The overrides that match one cluster: each override selects a resource of its own, and
/// the placement selects all of them (a ResourceOverride's by its namespace).
fn check_overrides_for_cluster(id: &str, input: &Value, expected: &Value) {
    assert!(
        expected["error"].as_bool() != Some(true),
        "{id}: upstream's error is a failed API read"
    );
    let cluster = member(&input["cluster"], NOW, true);
    let name = name_of(&cluster).to_string();
    let mut selectors = Vec::new();
    let mut objects = vec![cluster];
    for (at, cro) in strings_of(&input["clusterResourceOverrides"])
        .iter()
        .enumerate()
    {
        let resource = format!("web-{at}");
        selectors.push(namespace_selector(&resource));
        let rules = strings_of(&cro["policy"]["overrideRules"]);
        objects.push(override_(name_of_entry(cro), None, &rules, &resource));
    }
    for (at, ro) in strings_of(&input["resourceOverrides"]).iter().enumerate() {
        let namespace = ro["namespace"].as_str().unwrap_or_default();
        selectors.push(namespace_selector(namespace));
        let rules = strings_of(&ro["policy"]["overrideRules"]);
        objects.push(override_(
            name_of_entry(ro),
            Some(namespace),
            &rules,
            &format!("web-{at}"),
        ));
    }
    objects.push(placement(
        None,
        Some(&pick_fixed(&[&name])),
        Value::Array(selectors),
    ));
    if let Some((_, error)) = REFUSED_BY_THE_WEBHOOK.iter().find(|(case, _)| *case == id) {
        // Every override is refused at its first rule; the document numbers follow the
        // stream's order (the cluster is #1).
        let refusals: String = objects
            .iter()
            .enumerate()
            .filter(|(_, object)| {
                object["kind"]
                    .as_str()
                    .is_some_and(|kind| kind.ends_with("Override"))
            })
            .map(|(at, object)| {
                let namespace = object["metadata"]["namespace"]
                    .as_str()
                    .map(|namespace| format!("{namespace}/"))
                    .unwrap_or_default();
                format!(
                    "error: <stdin>#{}: {}/{namespace}{}: {error}\n",
                    at + 1,
                    object["kind"].as_str().unwrap_or_default(),
                    name_of(object)
                )
            })
            .collect();
        Test::new()
            .args(["plan", "-o", "json", "--now", NOW, "-f", "-"])
            .stdin(stream(&objects))
            .stdout("")
            .stderr(refusals)
            .status(1)
            .run();
        return;
    }
    let (cluster_scoped, namespaced) = overrides_of(id, &objects, &name);
    assert_eq!(
        cluster_scoped,
        strings(&expected["clusterResourceOverrides"]),
        "{id}"
    );
    assert_eq!(namespaced, strings(&expected["resourceOverrides"]), "{id}");
}

fn name_of_entry(entry: &Value) -> &str {
    entry["name"].as_str().unwrap_or_default()
}

/// A staged update run over a PickFixed placement of the selected clusters, with the
/// vector's Unscheduled bindings: its stages and the deletion stage, or the run's error.
fn check_stages(id: &str, input: &Value, expected: &Value) {
    let selected = strings(&input["selected"]);
    let selected: Vec<&str> = selected.iter().map(String::as_str).collect();
    let mut objects: Vec<Value> = strings_of(&input["clusters"])
        .iter()
        .map(|cluster| member(cluster, NOW, true))
        .collect();
    let mut staged = placement(
        None,
        Some(&pick_fixed(&selected)),
        json!([namespace_selector("web")]),
    );
    // A run needs a placement that leaves its rollout to runs.
    staged["spec"]["strategy"] = json!({"type": "External"});
    objects.push(staged);
    for (at, unscheduled) in strings_of(&input["unscheduledBindings"]).iter().enumerate() {
        let cluster = unscheduled["targetCluster"].as_str().unwrap_or_default();
        let snapshot = match unscheduled["schedulingPolicySnapshot"].as_str() {
            Some("latest") => format!("{PLACEMENT}-0"),
            _ => format!("{PLACEMENT}-old"),
        };
        objects.push(binding(at, cluster, "Unscheduled", &snapshot));
    }
    let strategy = input["strategyName"].as_str().unwrap_or("strategy");
    objects.push(json!({
        "apiVersion": "placement.kubernetes-fleet.io/v1beta1",
        "kind": "ClusterStagedUpdateStrategy",
        "metadata": {"name": strategy},
        "spec": {"stages": input["stages"]}
    }));
    objects.push(json!({
        "apiVersion": "placement.kubernetes-fleet.io/v1beta1",
        "kind": "ClusterStagedUpdateRun",
        "metadata": {"name": "run"},
        "spec": {"placementName": PLACEMENT, "stagedRolloutStrategyName": strategy}
    }));
    let status = if expected["error"].is_string() { 1 } else { 0 };
    let outcome = run(&["plan", "-o", "json"], NOW, &objects, status);
    if let Some(error) = expected["error"].as_str() {
        assert_eq!(
            outcome.stderr,
            format!(
                "error: <stdin>#{}: ClusterResourcePlacement/{PLACEMENT}: {error}\n",
                selected_document(&objects)
            ),
            "{id}"
        );
        return;
    }
    let stages = &outcome.stdout["items"][0]["stages"];
    // The plan lists the deletion stage last, under upstream's name (`UpdateRunDeleteStageName`).
    let mut want: Vec<(String, Vec<String>)> = strings_of(&expected["stages"])
        .iter()
        .map(|stage| {
            (
                name_of_entry(stage).to_string(),
                strings(&stage["clusters"]),
            )
        })
        .collect();
    want.push((
        "kubernetes-fleet.io/deleteStage".to_string(),
        strings(&expected["deletionStage"]),
    ));
    let got: Vec<(String, Vec<String>)> = strings_of(stages)
        .iter()
        .map(|stage| {
            (
                name_of_entry(stage).to_string(),
                strings(&stage["clusters"]),
            )
        })
        .collect();
    assert_eq!(got, want, "{id}");
}

/// The document number of the placement in the stream.
fn selected_document(objects: &[Value]) -> usize {
    objects
        .iter()
        .position(|object| object["kind"] == "ClusterResourcePlacement")
        .map_or(0, |at| at + 1)
}

#[test]
fn every_vector_a_manifest_can_state_passes_through_the_cli() {
    let vectors = vectors();
    assert_eq!(vectors.len(), 261, "the vectors of kubefleet.yaml");
    let mut ran = 0;
    let mut passed = Vec::new();
    let mut failures = Vec::new();
    for vector in &vectors {
        let kind = vector["kind"].as_str().unwrap_or_default();
        let id = vector["id"].as_str().unwrap_or_default();
        assert!(
            THROUGH_THE_CLI.contains(&kind) || LIBRARY_ONLY.contains(&kind),
            "{id}: kind {kind} is neither run here nor listed as library-only"
        );
        if !THROUGH_THE_CLI.contains(&kind) {
            continue;
        }
        ran += 1;
        let (input, expected) = (&vector["input"], &vector["expected"]);
        let check = || match kind {
            "filter" => check_filter(id, input, expected),
            "eligibility" => check_eligibility(id, input, expected),
            "requiredTerm" => check_required_term(id, input, expected),
            "pickFixed" => check_pick_fixed(id, input, expected),
            "overrideRule" => check_override_rule(id, input, expected),
            "overridesForCluster" => check_overrides_for_cluster(id, input, expected),
            "stages" => check_stages(id, input, expected),
            other => panic!("{id}: no check for {other}"),
        };
        let outcome = std::panic::catch_unwind(check);
        let listed = NOT_PASSING.iter().any(|(case, _)| *case == id);
        match (outcome, listed) {
            (Ok(()), true) => failures.push(format!("{id} passes: take it off NOT_PASSING")),
            (Err(panic), false) => {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|text| text.to_string()))
                    .unwrap_or_default();
                failures.push(format!("{id}: {message}"));
            }
            (Ok(()), false) => passed.push(id),
            (Err(_), true) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(ran, MAPPED, "the vectors of the kinds run through the CLI");
    assert_eq!(passed.len() + NOT_PASSING.len(), MAPPED);
}
