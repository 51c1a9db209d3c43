//! The vectors of testdata/upstream/kubefleet.yaml (transcribed from kubefleet-dev/kubefleet's
//! own tests at e160c1cdfdd9) stated as manifests, through the real binary: each vector's
//! MemberClusters, a placement, bindings, overrides or a staged update run as one YAML
//! stream, then `fleetplan explain -o json` or `plan -o json`, compared with the vector's
//! verdict, status text, score, matched overrides, stages, kept and removed bindings or
//! cycle count. The vectors of the scheduler's inner functions are in `scheduling`. A vector
//! whose input no manifest states (its input is the scheduler's intermediate state, or
//! something no fleet or admission lets through) runs only through `fleetplan vectors`
//! (src/kubefleet/upstream_vectors.rs, tests/cli/vectors.rs) and is listed here with its
//! reason, by kind or one by one; docs/kubefleet.md counts both.

use serde_json::{json, Value};

use crate::common::Test;

mod scheduling;

/// The kinds stated as manifests here (a vector of one of them that no manifest can state is
/// in `LIBRARY_ONLY_VECTORS`).
const THROUGH_THE_CLI: &[&str] = &[
    "filter",
    "eligibility",
    "requiredTerm",
    "pickFixed",
    "overrideRule",
    "overridesForCluster",
    "stages",
    "prefilter",
    "propertyValue",
    "preferredTerm",
    "interpolate",
    "affinityScore",
    "samePlacementScore",
    "postBatch",
    "tscWillViolate",
    "shouldRequeue",
    "numToSelect",
    "shouldDownscale",
    "sortBindingsForDownscale",
    "downscale",
    "decisions",
    "statusFromBindings",
    "pickFixedStatus",
    "scoredSort",
    "pickTopN",
    "scoreLess",
    "scoreEqual",
];

/// The kinds only `fleetplan vectors` runs (src/kubefleet/upstream_vectors.rs), with the reason.
const LIBRARY_ONLY_KINDS: &[(&str, &str)] = &[
    (
        "affinityPreScore",
        "its result is the plugin's state (each sorted property's min and max over the fleet), which no output shows; the interpolate, preferredTerm and affinityScore vectors state those extremes as clusters and assert the scores through the CLI",
    ),
    (
        "tscCountByDomain",
        "its result is the plugin's state (each domain's count of current bindings, the three extremes), which no output shows; the tscWillViolate vectors state counts as bound clusters through the CLI",
    ),
    (
        "tscEvaluate",
        "every vector expects a verdict for a cluster holding a current binding, which SamePlacementAffinity drops (ClusterAlreadySelected) before TopologySpreadConstraints runs, so no output shows it",
    ),
    (
        "tscPrepare",
        "five vectors expect verdicts for clusters holding a current binding, which SamePlacementAffinity drops before this plugin runs; two expect the Skip status of a policy without constraints (or without a policy), which only the framework sees",
    ),
];

/// Given lists the status builders take that no scheduling cycle produces.
const GIVEN_LISTS: &str = "the lists are given: filter reasons (`reason1, reason2`, `filtered`) no plugin writes, not-picked scores beside as many current bindings as numberOfClusters (a cycle with N bound scores nothing), or a cap on unselected decisions other than the scheduler's 20";
const WEIGHT_ZERO: &str = "weight 0 with an empty or invalid sortOrder: the CRD's enum refuses the sort order and a term of weight 0 is never interpolated (upstream's test calls the function directly, some with extremes no fleet has)";
const VIOLATED: &str = "violated: the skew change of a violation is never used (a violated DoNotSchedule constraint filters the cluster, a ScheduleAnyway one scores -1000), so no output shows it";

/// Vectors of `THROUGH_THE_CLI`'s kinds whose input no manifest states, with the reason.
const LIBRARY_ONLY_VECTORS: &[(&str, &str)] = &[
    ("TestInterpolateWeightFor/invalid resource property name", WEIGHT_ZERO),
    ("TestInterpolateWeightFor/invalid non-resource property value", WEIGHT_ZERO),
    ("TestInterpolateWeightFor/property not found", WEIGHT_ZERO),
    ("TestInterpolateWeightFor/extremums not registered in state", WEIGHT_ZERO),
    ("TestInterpolateWeightFor/no minimum value", WEIGHT_ZERO),
    ("TestInterpolateWeightFor/no maximum value", WEIGHT_ZERO),
    ("TestInterpolateWeightFor/min value = inf", WEIGHT_ZERO),
    ("TestInterpolateWeightFor/max value = inf", WEIGHT_ZERO),
    ("TestInterpolateWeightFor/min value > max value", WEIGHT_ZERO),
    ("TestInterpolateWeightFor/min value == max value", WEIGHT_ZERO),
    ("TestInterpolateWeightFor/observation out of range, < min", WEIGHT_ZERO),
    ("TestInterpolateWeightFor/observation out of range, > max", WEIGHT_ZERO),
    ("TestInterpolateWeightFor/invalid sort order", WEIGHT_ZERO),
    (
        "TestPostBatch/no policy specified",
        "a PickN always has a policy, and PostBatch runs for PickN only",
    ),
    (
        "TestWillViolate/domain not registered",
        "counts no fleet has: the domain asked about has no count, and every cluster's label value is a domain",
    ),
    (
        "TestWillViolate/invalid count (smaller than smallest)",
        "counts no fleet has: a count below the smallest",
    ),
    (
        "TestWillViolate/invalid count (larger than largest)",
        "counts no fleet has: a count above the largest",
    ),
    (
        "TestWillViolate/one count only, violated",
        "maxSkew 0, which the CRD's minimum of 1 refuses",
    ),
    ("TestWillViolate/one smallest count, pick smallest count, violated", VIOLATED),
    ("TestWillViolate/multiple smallest counts, pick smallest count, violated", VIOLATED),
    ("TestWillViolate/separate special counts, pick second smallest, violated", VIOLATED),
    (
        "TestWillViolate/separate special counts, pick a count larger than second smallest, less than largest, violated",
        VIOLATED,
    ),
    ("TestWillViolate/separate special counts, pick largest, violated", VIOLATED),
    (
        "TestCalcNumOfClustersToSelect/limit imposed, enough bindings to pick",
        "a batch limit of 2: the default profile's one limit is TopologySpreadConstraints' 1",
    ),
    (
        "TestCalcNumOfClustersToSelect/limit imposed, not enough bindings to pick",
        "a batch limit of 2: the default profile's one limit is TopologySpreadConstraints' 1",
    ),
    (
        "TestDownscale/invalid downscale count",
        "a count beyond the bindings: the framework trims present - numberOfClusters, never more than present",
    ),
    (
        "TestNewSchedulingDecisionsFromBindings/with not picked clusters, small number of existing bindings",
        GIVEN_LISTS,
    ),
    (
        "TestNewSchedulingDecisionsFromBindings/with both not picked and filtered clusters, small number of existing bindings",
        GIVEN_LISTS,
    ),
    (
        "TestNewSchedulingDecisionsFromBindings/with filtered clusters, small number of existing bindings",
        GIVEN_LISTS,
    ),
    (
        "TestNewSchedulingDecisionsFromBindings/with filtered clusters (count exceeding limit), small number of existing bindings",
        GIVEN_LISTS,
    ),
    (
        "TestNewSchedulingDecisionsFromBindings/with not picked clusters (count exceeding limit), small number of existing bindings",
        GIVEN_LISTS,
    ),
    ("TestNewSchedulingDecisionsFromBindings/duplicate entries", GIVEN_LISTS),
    (
        "TestUpdatePolicySnapshotStatusFromBindings/with filtered clusters and existing bindings",
        GIVEN_LISTS,
    ),
    (
        "TestUpdatePolicySnapshotStatusFromBindings/with not picked clusters and existing bindings",
        GIVEN_LISTS,
    ),
    (
        "TestUpdatePolicySnapshotStatusFromBindings/with both filtered/not picked clusters and existing bindings",
        GIVEN_LISTS,
    ),
    ("TestUpdatePolicySnapshotStatusFromBindings/too many filtered", GIVEN_LISTS),
    ("TestUpdatePolicySnapshotStatusFromBindings/too many not picked", GIVEN_LISTS),
    (
        "TestUpdatePolicySnapshotStatusForPickFixedPlacementType/with invalid clusters",
        "an invalid cluster's reason is given (`cluster is not a valid target`); a manifest's is ClusterEligibility's own text",
    ),
    (
        "TestUpdatePolicySnapshotStatusForPickFixedPlacementType/mixed",
        "an invalid cluster's reason is given (`cluster is not a valid target`); a manifest's is ClusterEligibility's own text",
    ),
    (
        "TestUpdatePolicySnapshotStatusForPickFixedPlacementType/none",
        "an empty clusterNames: upstream skips the cycle and writes no status (design section 5)",
    ),
    (
        "TestPickTopNScoredClusters/zero to pick",
        "nothing to pick: a PickN with as many current bindings as it asks for scores nothing",
    ),
    (
        "TestPickTopNScoredClusters/not enough to pick",
        "two picks from topology spread scores: the constraints that yield them limit each cycle to one pick, and the second cycle rescores, so the picked list's order is not the vector's",
    ),
    (
        "TestClusterScoreEqual/s1 is nil",
        "a nil score: every scored cluster has one",
    ),
    (
        "TestClusterScoreEqual/s2 is nil",
        "a nil score: every scored cluster has one",
    ),
    (
        "TestClusterScoreEqual/both s1 and s2 are nil",
        "a nil score: every scored cluster has one",
    ),
];

/// How many vectors run through the CLI: each one runs.
const MAPPED: usize = 188;

/// Mapped vectors that do not pass, with the reason; the library's `NOT_PASSING` lists the
/// same ones (a listed vector that starts passing fails the test).
const NOT_PASSING: &[(&str, &str)] = &[];

/// Mapped vectors whose input upstream's admission refuses (the placement webhook, the
/// override webhook or a CRD schema; upstream's unit test calls the function without it):
/// fleetplan refuses the object with admission's message (after `error: <stdin>#N:
/// Kind/[namespace/]name: `), as the hub would.
const REFUSED_BY_ADMISSION: &[(&str, &str)] = &[
    (
        "TestRetrieveResourceUsageFrom/invalid property name (multiple segments)",
        "the placement policy field is invalid: invalid property name resources.kubernetes-fleet.io/resources.kubernetes-fleet.io/allocatable-cpu: invalid capacity type in resource property name resources.kubernetes-fleet.io/resources.kubernetes-fleet.io/allocatable-cpu, supported values are [allocatable available total]",
    ),
    (
        "TestRetrieveResourceUsageFrom/invalid property name (no capacity type)",
        "the placement policy field is invalid: invalid property name resources.kubernetes-fleet.io/-cpu: invalid capacity type in resource property name resources.kubernetes-fleet.io/-cpu, supported values are [allocatable available total]",
    ),
    (
        "TestRetrieveResourceUsageFrom/invalid property name (no resource name)",
        "the placement policy field is invalid: invalid property name resources.kubernetes-fleet.io/allocatable-: property name resources.kubernetes-fleet.io/allocatable- is not valid: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ),
    (
        "TestRetrieveResourceUsageFrom/invalid property name (not a known capacity type)",
        "the placement policy field is invalid: invalid property name resources.kubernetes-fleet.io/additional-: invalid capacity type in resource property name resources.kubernetes-fleet.io/additional-, supported values are [allocatable available total]",
    ),
    (
        "TestRetrievePropertyValueFrom/invalid resource property (name format error)",
        "the placement policy field is invalid: invalid property name resources.kubernetes-fleet.io/allocatable: invalid resource property name resources.kubernetes-fleet.io/allocatable, expected format is [PREFIX]/[CAPACITY_TYPE]-[RESOURCE_NAME]",
    ),
    (
        "TestClusterPreferenceScores/invalid label selector",
        "the placement policy field is invalid: the labelSelector in preferred cluster selector is invalid: \"invalid\" is not a valid label selector operator",
    ),
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
fn explain(item: &str, now: &str, objects: &[Value]) -> (Vec<Row>, Vec<String>) {
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

/// `explain`'s row of a cluster: (cluster, verdict, reason).
type Row = (String, String, String);

/// The admission refusal a vector's input meets, if any.
fn refusal(id: &str) -> Option<&'static str> {
    REFUSED_BY_ADMISSION
        .iter()
        .find(|(case, _)| *case == id)
        .map(|(_, error)| *error)
}

/// One cluster's (verdict, reason) in `explain`.
fn verdict_of(rows: &[Row], cluster: &str) -> (String, String) {
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
    if let Some(error) = refusal(id) {
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
    let cluster = member(&input["cluster"], NOW, true);
    if expected["error"].as_bool() == Some(true) {
        check_override_target_not_found(id, input, cluster);
        return;
    }
    let name = name_of(&cluster).to_string();
    let mut selectors = Vec::new();
    let mut objects = vec![cluster];
    add_cluster_resource_overrides(input, &mut selectors, &mut objects);
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
    if let Some(error) = refusal(id) {
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

/// The vector's ClusterResourceOverrides, each selecting a Namespace of its own (added to
/// `selectors`).
fn add_cluster_resource_overrides(
    input: &Value,
    selectors: &mut Vec<Value>,
    objects: &mut Vec<Value>,
) {
    for (at, cro) in strings_of(&input["clusterResourceOverrides"])
        .iter()
        .enumerate()
    {
        let resource = format!("web-{at}");
        selectors.push(namespace_selector(&resource));
        let rules = strings_of(&cro["policy"]["overrideRules"]);
        objects.push(override_(name_of_entry(cro), None, &rules, &resource));
    }
}

/// The cluster upstream's override test picks for (`clusterName`, overrider_test.go).
const OVERRIDE_TARGET: &str = "cluster-1";

/// Upstream's pick fails when no MemberCluster has the target's name, expecting the
/// scheduler to unschedule the binding (`ErrExpectedBehavior`): with the vector's cluster as
/// the fleet, a Bound binding to the target is unscheduled and no override is picked for it.
fn check_override_target_not_found(id: &str, input: &Value, cluster: Value) {
    assert_ne!(
        name_of(&cluster),
        OVERRIDE_TARGET,
        "{id}: the target is in the fleet"
    );
    let mut objects = vec![cluster];
    let mut selectors = Vec::new();
    add_cluster_resource_overrides(input, &mut selectors, &mut objects);
    assert!(
        !selectors.is_empty(),
        "{id}: nothing to pick needs no cluster"
    );
    objects.push(placement(
        None,
        Some(&pick_fixed(&[OVERRIDE_TARGET])),
        Value::Array(selectors),
    ));
    objects.push(binding(0, OVERRIDE_TARGET, "Bound", "vector-0"));
    let item = &run(&["plan", "-o", "json"], NOW, &objects, 0).stdout["items"][0];
    assert_eq!(strings(&item["clusters"]), Vec::<String>::new(), "{id}");
    assert_eq!(strings(&item["removed"]), [OVERRIDE_TARGET], "{id}");
    assert_eq!(item["overrides"], Value::Null, "{id}");
    assert_eq!(item["errors"], Value::Null, "{id}");
}

#[test]
fn a_binding_of_a_cluster_that_left_the_fleet_is_unscheduled_before_any_override_pick() {
    // Also under a PickFixed without clusterNames, whose cycle upstream skips only after the
    // dangling bindings are marked (was: the binding stayed, and no override was picked).
    Test::new()
        .args([
            "plan",
            "--now",
            NOW,
            "-f",
            "testdata/kubefleet/cases/left-the-fleet.yaml",
        ])
        .stdout(
            "ClusterResourcePlacement/pinned (placement.kubernetes-fleet.io/v1beta1): 0 clusters
  CLUSTER                 AFFINITY   SPREAD   STAGE   OVERRIDES
  member-gone (removed)
",
        )
        .stderr("")
        .run();
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
    let kind_of = |id: &str| {
        vectors
            .iter()
            .find(|vector| vector["id"] == id)
            .and_then(|vector| vector["kind"].as_str())
    };
    for (id, _) in LIBRARY_ONLY_VECTORS.iter().chain(REFUSED_BY_ADMISSION) {
        let kind = kind_of(id);
        assert!(
            kind.is_some_and(|kind| THROUGH_THE_CLI.contains(&kind)),
            "{id}: listed, but not a vector of a kind run here ({kind:?})"
        );
    }
    let mut ran = 0;
    let mut passed = Vec::new();
    let mut failures = Vec::new();
    for vector in &vectors {
        let kind = vector["kind"].as_str().unwrap_or_default();
        let id = vector["id"].as_str().unwrap_or_default();
        let library_only = LIBRARY_ONLY_KINDS.iter().any(|(listed, _)| *listed == kind);
        assert!(
            THROUGH_THE_CLI.contains(&kind) != library_only,
            "{id}: kind {kind} must be either run here or listed as library-only"
        );
        if library_only || LIBRARY_ONLY_VECTORS.iter().any(|(case, _)| *case == id) {
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
            "prefilter" => scheduling::check_prefilter(id, input, expected),
            "propertyValue" => scheduling::check_property_value(id, input, expected),
            "preferredTerm" => scheduling::check_preferred_term(id, input, expected),
            "interpolate" => scheduling::check_interpolate(id, input, expected),
            "affinityScore" => scheduling::check_affinity_score(id, input, expected),
            "samePlacementScore" => scheduling::check_same_placement_score(id, input, expected),
            "postBatch" => scheduling::check_post_batch(id, input, expected),
            "tscWillViolate" => scheduling::check_will_violate(id, input, expected),
            "shouldRequeue" => scheduling::check_should_requeue(id, input, expected),
            "numToSelect" => scheduling::check_num_to_select(id, input, expected),
            "shouldDownscale" => scheduling::check_should_downscale(id, input, expected),
            "sortBindingsForDownscale" => scheduling::check_sort_for_downscale(id, input, expected),
            "downscale" => scheduling::check_downscale(id, input, expected),
            "decisions" | "statusFromBindings" => {
                scheduling::check_status_from_bindings(id, input, expected)
            }
            "pickFixedStatus" => scheduling::check_pick_fixed_status(id, input, expected),
            "scoredSort" => scheduling::check_scored_sort(id, input, expected),
            "pickTopN" => scheduling::check_pick_top_n(id, input, expected),
            "scoreLess" => scheduling::check_score_less(id, input, expected),
            "scoreEqual" => scheduling::check_score_equal(id, input, expected),
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
    assert_eq!(ran, MAPPED, "the vectors run through the CLI");
    assert_eq!(passed.len() + NOT_PASSING.len(), MAPPED);
    assert_eq!(
        MAPPED
            + LIBRARY_ONLY_VECTORS.len()
            + vectors
                .iter()
                .filter(|vector| LIBRARY_ONLY_KINDS
                    .iter()
                    .any(|(kind, _)| vector["kind"] == *kind))
                .count(),
        261,
        "every vector runs through the CLI or is listed library-only with its reason"
    );
}
