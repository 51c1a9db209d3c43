//! The vectors of the scheduler's inner functions (property reads, preferred terms and their
//! interpolation, the topology spread arithmetic, PickN's bookkeeping, downscale, the status
//! builders) stated as manifests: a fleet, a placement and its bindings whose `plan -o json`
//! or `explain -o json` shows the function's result. Each check says how the vector's
//! expected value appears in the output; a vector whose input no manifest can state is in
//! `LIBRARY_ONLY` (the parent module) with its reason.

use serde_json::{json, Value};

use super::{
    binding, explain, member, name_of, placement, refusal, run, strings, strings_of, verdict_of,
    Row, NOW, PLACEMENT,
};

const ITEM: &str = "crp/vector";

fn web() -> Value {
    json!([{"group": "", "version": "v1", "kind": "Namespace", "name": "web"}])
}

/// A MemberCluster named `name` with `labels`, healthy at `NOW` when `eligible`.
fn cluster(name: &str, labels: Value, eligible: bool) -> Value {
    member(
        &json!({"metadata": {"name": name, "labels": labels}}),
        NOW,
        eligible,
    )
}

/// The vector's cluster, named `cluster` when the vector leaves it unnamed (the upstream
/// function reads no name; a manifest needs one).
fn vector_cluster(value: &Value) -> Value {
    let mut value = value.clone();
    if name_of(&value).is_empty() {
        value["metadata"]["name"] = json!("cluster");
    }
    member(&value, NOW, true)
}

fn crp(policy: &Value) -> Value {
    placement(None, Some(policy), web())
}

fn pick_n(count: u64, mut policy: Value) -> Value {
    if !policy.is_object() {
        policy = json!({});
    }
    policy["placementType"] = json!("PickN");
    policy["numberOfClusters"] = json!(count);
    policy
}

/// A binding as the vectors write one (the spec's fields, its `name`), under `snapshot`; a
/// binding without a target cluster targets the cluster named after it (the hub marks a
/// binding without a cluster Unscheduled as dangling).
fn stored_binding(at: usize, value: &Value, state: &str, snapshot: &str) -> (String, Value) {
    let target = value["targetCluster"]
        .as_str()
        .or_else(|| value["name"].as_str())
        .unwrap_or_default()
        .to_string();
    let mut object = binding(at, &target, state, snapshot);
    if value["clusterDecision"].is_object() {
        object["spec"]["clusterDecision"] = value["clusterDecision"].clone();
    }
    (target, object)
}

/// `plan -o json`'s one item.
fn plan_item(objects: &[Value], status: i32) -> Value {
    run(&["plan", "-o", "json"], NOW, objects, status).stdout["items"][0].clone()
}

/// How many scheduling cycles `explain` reports (the note is written only past one).
fn cycles(notes: &[String]) -> usize {
    notes
        .iter()
        .find_map(|note| note.strip_suffix(" scheduling cycles (the hub requeues while a batch-limited PickN fills its batch; the verdicts are the last cycle's)"))
        .map_or(1, |count| count.parse().unwrap_or_default())
}

fn selected(rows: &[Row]) -> Vec<String> {
    rows.iter()
        .filter(|(_, verdict, _)| verdict == "selected")
        .map(|(name, _, _)| name.clone())
        .collect()
}

fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort();
    names
}

/// A vector refused by admission (its expected value an error): the placement's item error
/// is the refusal, exactly.
fn assert_refused(id: &str, objects: &[Value], expected: &Value) -> bool {
    let Some(error) = refusal(id) else {
        return false;
    };
    assert_eq!(
        expected["error"], true,
        "{id}: refused, so upstream must fail"
    );
    let at = objects
        .iter()
        .position(|object| object["kind"] == "ClusterResourcePlacement")
        .map_or(0, |at| at + 1);
    let outcome = run(&["plan", "-o", "json"], NOW, objects, 1);
    assert_eq!(
        outcome.stderr,
        format!("error: <stdin>#{at}: ClusterResourcePlacement/{PLACEMENT}: {error}\n"),
        "{id}"
    );
    true
}

fn required(expression: Value) -> Value {
    json!({"affinity": {"clusterAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "clusterSelectorTerms": [{"propertySelector": {"matchExpressions": [expression]}}]
    }}}})
}

const AFFINITY_MISS: &str =
    "ClusterAffinity: ClusterUnschedulable, cluster does not match with any of the required cluster affinity terms";

/// A property's value, read by a required term on the cluster: `Eq value` matches (Eq is
/// numeric); absent, neither `Ge 0` nor `Lt 0` matches; a read error fails the cycle.
pub(super) fn check_property_value(id: &str, input: &Value, expected: &Value) {
    let cluster = vector_cluster(&input["cluster"]);
    let name = name_of(&cluster).to_string();
    let property = input["property"].as_str().unwrap_or_default();
    let term = |operator: &str, value: &str| {
        crp(&required(
            json!({"name": property, "operator": operator, "values": [value]}),
        ))
    };
    if assert_refused(id, &[cluster.clone(), term("Eq", "0")], expected) {
        return;
    }
    if expected["error"] == true {
        let item = plan_item(&[cluster, term("Eq", "0")], 1);
        let error = strings(&item["errors"]).join("\n");
        assert!(
            error.starts_with("failed to match the cluster against a required affinity term: "),
            "{id}: {error}"
        );
        assert_eq!(item["conditions"][0]["reason"], "SchedulePending", "{id}");
        return;
    }
    match expected["value"].as_str() {
        Some(value) => {
            let (rows, _) = explain(ITEM, NOW, &[cluster, term("Eq", value)]);
            let (verdict, reason) = verdict_of(&rows, &name);
            assert_eq!(verdict, "selected", "{id}: {reason}");
        }
        None => {
            for operator in ["Ge", "Lt"] {
                let (rows, _) = explain(ITEM, NOW, &[cluster.clone(), term(operator, "0")]);
                assert_eq!(
                    verdict_of(&rows, &name),
                    ("filtered".to_string(), AFFINITY_MISS.to_string()),
                    "{id}: {operator} 0"
                );
            }
        }
    }
}

/// A PreFilter's verdict, by what its filter does to a cluster it would reject: Skip, the
/// cluster is selected; Success, the plugin filters it (the Skip status text is the
/// framework's, which no output carries).
pub(super) fn check_prefilter(id: &str, input: &Value, expected: &Value) {
    let (probe, placement, item, rejection) = match input["plugin"].as_str() {
        Some("ClusterAffinity") => (
            cluster("probe", json!({}), true),
            crp(&input["policy"]),
            ITEM.to_string(),
            AFFINITY_MISS.to_string(),
        ),
        Some("NamespaceAffinity") => {
            // A cluster that collects namespaces and reports none.
            let mut probe = cluster("probe", json!({}), true);
            probe["status"]["conditions"] = json!([{
                "type": "NamespaceCollectionSucceeded", "status": "True",
                "reason": "Collected", "message": "", "lastTransitionTime": NOW
            }]);
            let namespace = input["placement"]["namespace"].as_str();
            let selectors = match namespace {
                Some(_) => {
                    json!([{"group": "apps", "version": "v1", "kind": "Deployment", "name": "web"}])
                }
                None => web(),
            };
            let item = match namespace {
                Some(namespace) => format!("rp/{namespace}/{PLACEMENT}"),
                None => ITEM.to_string(),
            };
            (
                probe,
                placement(namespace, None, selectors),
                item,
                "NamespaceAffinity: ClusterUnschedulable, cluster has no namespace information available"
                    .to_string(),
            )
        }
        other => panic!("{id}: no prefilter plugin {other:?}"),
    };
    let (rows, _) = explain(&item, NOW, &[probe, placement]);
    let got = verdict_of(&rows, "probe");
    match expected["verdict"].as_str() {
        Some("Skip") => assert_eq!(got.0, "selected", "{id}: {}", got.1),
        Some("Success") => assert_eq!(got, ("filtered".to_string(), rejection), "{id}"),
        other => panic!("{id}: unmapped verdict {other:?}"),
    }
}

/// Ineligible clusters holding the vector's observed extremes of each sorted property, so
/// the fleet's min and max (taken over every MemberCluster) are the vector's.
fn observers(observed: &Value) -> Vec<Value> {
    let mut clusters = Vec::new();
    for (property, extremes) in observed.as_object().into_iter().flatten() {
        for end in ["min", "max"] {
            let Some(value) = extremes[end].as_str() else {
                continue;
            };
            let mut holder = cluster(
                &format!("observed-{end}-{}", clusters.len()),
                json!({}),
                false,
            );
            match property
                .strip_prefix("resources.kubernetes-fleet.io/")
                .and_then(|rest| rest.split_once('-'))
            {
                Some((kind, resource)) => {
                    let field = if kind == "total" { "capacity" } else { kind };
                    holder["status"]["resourceUsage"] = json!({ field: { resource: value } });
                }
                None => holder["status"]["properties"] = json!({ property: {"value": value} }),
            }
            clusters.push(holder);
        }
    }
    clusters
}

/// The affinity score `plan` records for the vector's cluster, picked by a PickN of one with
/// `policy` over it and the observers.
fn affinity_score(id: &str, input: &Value, expected: &Value, policy: Value) -> Option<Value> {
    let cluster = vector_cluster(&input["cluster"]);
    let name = name_of(&cluster).to_string();
    let mut objects = vec![cluster];
    objects.extend(observers(&input["observed"]));
    objects.push(crp(&pick_n(1, policy)));
    if assert_refused(id, &objects, expected) {
        return None;
    }
    let item = plan_item(&objects, 0);
    assert_eq!(strings(&item["clusters"]), [name.as_str()], "{id}");
    Some(item["scores"][&name]["affinityScore"].clone())
}

fn preferred(terms: Value) -> Value {
    json!({"affinity": {"clusterAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": terms}}})
}

/// One preferred term's score on the cluster: the recorded affinity score.
pub(super) fn check_preferred_term(id: &str, input: &Value, expected: &Value) {
    if let Some(score) = affinity_score(id, input, expected, preferred(json!([input["term"]]))) {
        assert_eq!(score, expected["score"], "{id}");
    }
}

/// The ClusterAffinity plugin's score: the recorded affinity score.
pub(super) fn check_affinity_score(id: &str, input: &Value, expected: &Value) {
    let policy = input["policy"].clone();
    if let Some(score) = affinity_score(id, input, expected, policy) {
        assert_eq!(score, expected["affinityScore"], "{id}");
    }
}

/// A property sorter's interpolated weight: the recorded affinity score of a PickN whose one
/// preferred term is the sorter with the vector's weight.
pub(super) fn check_interpolate(id: &str, input: &Value, expected: &Value) {
    let term = json!([{"weight": input["weight"], "preference": {"propertySorter": {
        "name": input["property"], "sortOrder": input["sortOrder"]
    }}}]);
    if let Some(score) = affinity_score(id, input, expected, preferred(term)) {
        assert_eq!(score, expected["weight"], "{id}");
    }
}

/// SamePlacementAffinity's score: the cluster (with the vector's obsolete bindings) loses to
/// a cluster one preferred-term point ahead, and `explain` shows its obsolete placement
/// affinity score.
pub(super) fn check_same_placement_score(id: &str, input: &Value, expected: &Value) {
    let subject = member(&input["cluster"], NOW, true);
    let name = name_of(&subject).to_string();
    let policy = pick_n(
        1,
        preferred(
            json!([{"weight": 1, "preference": {"labelSelector": {"matchLabels": {"winner": "true"}}}}]),
        ),
    );
    let mut objects = vec![
        subject,
        cluster("winner", json!({"winner": "true"}), true),
        crp(&policy),
    ];
    for (at, obsolete) in strings_of(&input["obsoleteBindings"]).iter().enumerate() {
        let state = obsolete["state"].as_str().unwrap_or("Scheduled");
        objects.push(stored_binding(at, obsolete, state, &format!("{PLACEMENT}-old")).1);
    }
    let (rows, _) = explain(ITEM, NOW, &objects);
    let score = &expected["obsoletePlacementAffinityScore"];
    assert_eq!(
        verdict_of(&rows, &name),
        (
            "cutByNumberOfClusters".to_string(),
            format!("does not score high enough: topology spread score 0, affinity score 0, obsolete placement affinity score {score}; rank 1 of the 1 scored clusters not picked")
        ),
        "{id}"
    );
}

/// Three eligible clusters without topology labels (which pass every constraint).
fn three_clusters() -> Vec<Value> {
    ["cluster-a", "cluster-b", "cluster-c"]
        .iter()
        .map(|name| cluster(name, json!({}), true))
        .collect()
}

/// PostBatch's batch limit: with a limit of 1 the PickN picks one cluster per cycle and
/// requeues while it fills its batch (three clusters: four cycles); skipped, it picks every
/// cluster in one.
pub(super) fn check_post_batch(id: &str, input: &Value, expected: &Value) {
    let mut objects = three_clusters();
    objects.push(crp(&input["policy"]));
    let (rows, notes) = explain(ITEM, NOW, &objects);
    assert_eq!(selected(&rows).len(), 3, "{id}");
    let want = match (
        expected["verdict"].as_str(),
        expected["batchLimit"].as_u64(),
    ) {
        (Some("Success"), Some(1)) => 4,
        (Some("Skip"), Some(0)) => 1,
        other => panic!("{id}: unmapped outcome {other:?}"),
    };
    assert_eq!(cycles(&notes), want, "{id}: {notes:?}");
}

/// The extremes `countByDomain` derives from sorted counts (design §3.6).
fn extremes(counts: &Value) -> (i64, i64, i64) {
    let mut sorted: Vec<i64> = counts
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(_, count)| count.as_i64())
        .collect();
    sorted.sort_unstable();
    match sorted.as_slice() {
        [] => (-1, -1, -1),
        [only] => (*only, *only, *only),
        [first, second] => (*first, *second, *second),
        [first, second, .., last] => (*first, *second, *last),
    }
}

/// `willViolate` for a domain: each domain of `counts` gets as many clusters with a current
/// binding, and one unbound cluster of the vector's domain is the only one a PickN of one
/// more scores, under a DoNotSchedule constraint with the vector's max skew. Not violated,
/// it is picked with topology spread score `-skewChange`.
pub(super) fn check_will_violate(id: &str, input: &Value, expected: &Value) {
    const KEY: &str = "topology-key";
    let given = (
        input["smallest"].as_i64().unwrap_or_default(),
        input["secondSmallest"].as_i64().unwrap_or_default(),
        input["largest"].as_i64().unwrap_or_default(),
    );
    assert_eq!(
        extremes(&input["counts"]),
        given,
        "{id}: the counts' extremes"
    );
    assert_eq!(
        expected["violated"], false,
        "{id}: a violation's skew change is never shown"
    );
    let mut objects = Vec::new();
    let mut bound = 0;
    for (domain, count) in input["counts"].as_object().into_iter().flatten() {
        for at in 0..count.as_u64().unwrap_or_default() {
            let name = format!("{domain}-{at}");
            objects.push(cluster(&name, json!({ KEY: domain }), true));
            objects.push(binding(bound, &name, "Bound", &format!("{PLACEMENT}-0")));
            bound += 1;
        }
    }
    let domain = input["domain"].as_str().unwrap_or_default();
    objects.push(cluster("probe", json!({ KEY: domain }), true));
    let policy = json!({"topologySpreadConstraints": [{
        "topologyKey": KEY, "maxSkew": input["maxSkew"], "whenUnsatisfiable": "DoNotSchedule"
    }]});
    objects.push(crp(&pick_n(bound as u64 + 1, policy)));
    let (rows, _) = explain(ITEM, NOW, &objects);
    let change = expected["skewChange"].as_i64().unwrap_or_default();
    assert_eq!(
        verdict_of(&rows, "probe"),
        (
            "selected".to_string(),
            format!("Successfully scheduled resources for placement in \"probe\" (affinity score: 0, topology spread score: {}): picked by scheduling policy", -change)
        ),
        "{id}"
    );
}

/// A topology spread constraint no cluster is labelled for: every cluster passes it, and it
/// limits a PickN's batch to one cluster per cycle.
fn limiting() -> Value {
    json!({"topologySpreadConstraints": [{"topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}]})
}

/// `bindingCount` eligible clusters, or one ineligible bystander when there are none
/// (fleetplan plans nothing without a cluster).
fn eligible(count: u64) -> Vec<Value> {
    if count == 0 {
        return vec![cluster("bystander", json!({}), false)];
    }
    (0..count)
        .map(|at| cluster(&format!("cluster-{at}"), json!({}), true))
        .collect()
}

/// `shouldRequeue`: a PickN of `desiredBatchSize` over `bindingCount` eligible clusters,
/// batch-limited by a constraint when the limit is 1. A requeue shows as a second cycle
/// (which finds no cluster left); none, as one cycle.
pub(super) fn check_should_requeue(id: &str, input: &Value, expected: &Value) {
    let desired = input["desiredBatchSize"].as_u64().unwrap_or_default();
    let limit = input["batchLimit"].as_u64().unwrap_or_default();
    let count = input["bindingCount"].as_u64().unwrap_or_default();
    let policy = match limit {
        1 => limiting(),
        _ if limit == desired => json!({}),
        _ => panic!("{id}: no plugin limits a batch to {limit}"),
    };
    let mut objects = eligible(count);
    objects.push(crp(&pick_n(desired, policy)));
    let (rows, notes) = explain(ITEM, NOW, &objects);
    assert_eq!(selected(&rows).len() as u64, count, "{id}");
    let want = if expected["result"] == true { 2 } else { 1 };
    assert_eq!(cycles(&notes), want, "{id}: {notes:?}");
}

/// `calcNumOfClustersToSelect` without a limit: a PickN of `desired` over `scored` eligible
/// clusters picks the result in its one cycle.
pub(super) fn check_num_to_select(id: &str, input: &Value, expected: &Value) {
    let desired = input["desired"].as_u64().unwrap_or_default();
    assert_eq!(
        input["batchLimit"].as_u64(),
        Some(desired),
        "{id}: no limit"
    );
    let mut objects = eligible(input["scored"].as_u64().unwrap_or_default());
    objects.push(crp(&pick_n(desired, json!({}))));
    let (rows, notes) = explain(ITEM, NOW, &objects);
    assert_eq!(cycles(&notes), 1, "{id}");
    assert_eq!(
        Value::from(selected(&rows).len()),
        expected["result"],
        "{id}"
    );
}

/// `shouldDownscale`: `present` current bindings and `obsolete` obsolete ones on clusters of
/// their own, a placement asking for `desired`. Acting marks every obsolete binding and
/// `count` current ones Unscheduled (`removed`); not acting removes none.
pub(super) fn check_should_downscale(id: &str, input: &Value, expected: &Value) {
    let count = |field: &str| input[field].as_u64().unwrap_or_default();
    let mut objects = Vec::new();
    for (at, name) in (0..count("present"))
        .map(|at| format!("present-{at}"))
        .chain((0..count("obsolete")).map(|at| format!("obsolete-{at}")))
        .enumerate()
    {
        let snapshot = if name.starts_with("present") {
            "0"
        } else {
            "old"
        };
        objects.push(cluster(&name, json!({}), true));
        objects.push(binding(
            at,
            &name,
            "Bound",
            &format!("{PLACEMENT}-{snapshot}"),
        ));
    }
    if objects.is_empty() {
        objects.push(cluster("bystander", json!({}), false));
    }
    let policy = match input["policy"]["placementType"].as_str() {
        Some("PickN") => pick_n(count("desired"), json!({})),
        _ => input["policy"].clone(),
    };
    objects.push(crp(&policy));
    let item = plan_item(&objects, 0);
    let removed = strings(&item["removed"]);
    if expected["act"] == true {
        // Acting always marks something: an obsolete binding or a trimmed current one.
        assert!(!removed.is_empty(), "{id}: acted on nothing");
        let trimmed = expected["count"].as_u64().unwrap_or_default();
        assert_eq!(
            removed.len() as u64,
            count("obsolete") + trimmed,
            "{id}: {removed:?}"
        );
        assert!(
            (0..count("obsolete")).all(|at| removed.contains(&format!("obsolete-{at}"))),
            "{id}: {removed:?}"
        );
    } else {
        assert!(removed.is_empty(), "{id}: {removed:?}");
    }
}

/// Scheduled and bound bindings with their recorded decisions, on clusters of their own
/// (latest snapshot), and a PickN of `keep`: what it keeps and marks Unscheduled.
fn trim(bindings: &[(String, Value)], keep: usize) -> (Vec<String>, Vec<String>) {
    let mut objects: Vec<Value> = bindings
        .iter()
        .map(|(target, _)| cluster(target, json!({}), true))
        .collect();
    objects.extend(bindings.iter().map(|(_, object)| object.clone()));
    objects.push(crp(&pick_n(keep as u64, json!({}))));
    let item = plan_item(&objects, 0);
    (
        sorted(strings(&item["clusters"])),
        sorted(strings(&item["removed"])),
    )
}

fn stored(values: &[Value], state: &str, from: usize) -> Vec<(String, Value)> {
    values
        .iter()
        .enumerate()
        .map(|(at, value)| stored_binding(from + at, value, state, &format!("{PLACEMENT}-0")))
        .collect()
}

/// `sortByClusterScoreAndName`: trimming the first k of n scheduled bindings (a PickN of
/// n − k) marks exactly the first k of the order Unscheduled, for every k.
pub(super) fn check_sort_for_downscale(id: &str, input: &Value, expected: &Value) {
    let bindings = stored(&strings_of(&input["bindings"]), "Scheduled", 0);
    let order = strings(&expected["order"]);
    for k in 1..bindings.len() {
        let (_, removed) = trim(&bindings, bindings.len() - k);
        assert_eq!(removed, sorted(order[..k].to_vec()), "{id}: trimming {k}");
    }
}

/// `downscale`: a PickN of (scheduled + bound − count) keeps the vector's kept bindings and
/// marks its unscheduled ones (compared as sets, as upstream's test compares them).
pub(super) fn check_downscale(id: &str, input: &Value, expected: &Value) {
    let mut bindings = stored(&strings_of(&input["scheduled"]), "Scheduled", 0);
    bindings.extend(stored(
        &strings_of(&input["bound"]),
        "Bound",
        bindings.len(),
    ));
    let count = input["count"].as_u64().unwrap_or_default() as usize;
    let (kept, removed) = trim(&bindings, bindings.len() - count);
    let mut want_kept = strings(&expected["keptScheduled"]);
    want_kept.extend(strings(&expected["keptBound"]));
    assert_eq!(kept, sorted(want_kept), "{id}");
    assert_eq!(removed, sorted(strings(&expected["unscheduled"])), "{id}");
}

/// The status built from current bindings alone (nothing scored or filtered): a PickN of
/// `numOfClusters` (else as many as the bindings) over the bindings' clusters. Each selected
/// decision is `explain`'s row (its recorded reason) and `plan`'s score; the condition is
/// the placement's Scheduled condition.
pub(super) fn check_status_from_bindings(id: &str, input: &Value, expected: &Value) {
    let existing: Vec<Value> = strings_of(&input["existing"])
        .iter()
        .flat_map(strings_of)
        .map(|mut value| {
            value["targetCluster"] = value["clusterDecision"]["clusterName"].clone();
            value
        })
        .collect();
    assert!(
        strings_of(&input["notPicked"]).is_empty() && strings_of(&input["filtered"]).is_empty(),
        "{id}: only current bindings"
    );
    let bindings = stored(&existing, "Scheduled", 0);
    let mut objects: Vec<Value> = bindings
        .iter()
        .map(|(target, _)| cluster(target, json!({}), true))
        .collect();
    if objects.is_empty() {
        objects.push(cluster("bystander", json!({}), false));
    }
    objects.extend(bindings.iter().map(|(_, object)| object.clone()));
    let desired = input["numOfClusters"]
        .as_u64()
        .unwrap_or(bindings.len() as u64);
    objects.push(crp(&pick_n(desired, json!({}))));
    let item = plan_item(&objects, 0);
    let (rows, _) = explain(ITEM, NOW, &objects);
    let decisions = strings_of(&expected["decisions"]);
    assert_eq!(
        selected(&rows),
        decisions
            .iter()
            .map(|decision| decision["clusterName"]
                .as_str()
                .unwrap_or_default()
                .to_string())
            .collect::<Vec<_>>(),
        "{id}"
    );
    for decision in &decisions {
        let name = decision["clusterName"].as_str().unwrap_or_default();
        assert_eq!(
            verdict_of(&rows, name).1,
            decision["reason"].as_str().unwrap_or_default(),
            "{id}"
        );
        assert_eq!(item["scores"][name], decision["clusterScore"], "{id}");
    }
    if expected["condition"].is_object() {
        assert_condition(id, &item, &expected["condition"]);
    }
}

fn assert_condition(id: &str, item: &Value, want: &Value) {
    let mut want = want.clone();
    want["type"] = json!("ClusterResourcePlacementScheduled");
    assert_eq!(item["conditions"][0], want, "{id}");
}

/// The PickFixed status: the valid clusters (eligible) and the missing ones named. The
/// condition is the placement's; a valid decision is `explain`'s selected row; a missing
/// cluster's is the placement status's ScheduleFailed entry in `explain`'s notes.
pub(super) fn check_pick_fixed_status(id: &str, input: &Value, expected: &Value) {
    assert!(
        strings_of(&input["invalid"]).is_empty(),
        "{id}: an invalid cluster's reason is eligibility's"
    );
    let valid = strings(&input["valid"]);
    let missing = strings(&input["notFound"]);
    let mut objects: Vec<Value> = valid
        .iter()
        .map(|name| cluster(name, json!({}), true))
        .collect();
    if objects.is_empty() {
        objects.push(cluster("bystander", json!({}), false));
    }
    let names: Vec<&String> = valid.iter().chain(&missing).collect();
    objects.push(crp(
        &json!({"placementType": "PickFixed", "clusterNames": names}),
    ));
    let item = plan_item(&objects, 0);
    assert_condition(id, &item, &expected["condition"]);
    let (rows, notes) = explain(ITEM, NOW, &objects);
    assert_eq!(selected(&rows), valid, "{id}");
    for decision in strings_of(&expected["decisions"]) {
        let name = decision["clusterName"].as_str().unwrap_or_default();
        let reason = decision["reason"].as_str().unwrap_or_default();
        if decision["selected"] == true {
            assert_eq!(
                verdict_of(&rows, name),
                ("selected".to_string(), reason.to_string()),
                "{id}"
            );
        } else {
            let note = format!("placement status: Scheduled=False (ScheduleFailed): {reason}");
            assert!(notes.contains(&note), "{id}: {notes:?}");
        }
    }
}

/// A score tuple in the vectors' Go names.
fn score_of(score: &Value, field: &str) -> i64 {
    score[field].as_i64().unwrap_or_default()
}

/// A fleet whose unbound clusters score the given tuples in a PickN of one more than its
/// current bindings (one cycle, one pick), and that PickN.
/// - The topology spread score T is T ScheduleAnyway constraints the cluster is in the
///   empty domain of: one bound helper cluster is in domain `high` of every key, and a
///   cluster labelled `low` for a key sits in the smallest domain, below the second smallest
///   (skew change −1, so +1); a cluster without the key adds 0.
/// - The affinity score is a preferred term of that weight on a label of the cluster's own.
/// - The obsolete placement affinity score 1 is a binding under an older snapshot.
fn scored_fleet(scored: &[(String, Value)]) -> Vec<Value> {
    let spread = scored
        .iter()
        .map(|(_, score)| score_of(score, "TopologySpreadScore"))
        .max()
        .unwrap_or_default();
    let keys: Vec<String> = (0..spread).map(|at| format!("spread-{at}")).collect();
    let mut objects = Vec::new();
    let mut terms = Vec::new();
    let mut bound = 0;
    if spread > 0 {
        let high: serde_json::Map<String, Value> = keys
            .iter()
            .map(|key| (key.clone(), json!("high")))
            .collect();
        objects.push(cluster("spread-helper", Value::Object(high), true));
        objects.push(binding(
            0,
            "spread-helper",
            "Bound",
            &format!("{PLACEMENT}-0"),
        ));
        bound = 1;
    }
    for (at, (name, score)) in scored.iter().enumerate() {
        let topology = usize::try_from(score_of(score, "TopologySpreadScore"))
            .unwrap_or_else(|_| panic!("{name}: a negative topology spread score"));
        let mut labels: serde_json::Map<String, Value> = keys[..topology]
            .iter()
            .map(|key| (key.clone(), json!("low")))
            .collect();
        let affinity = score_of(score, "AffinityScore");
        if affinity != 0 {
            labels.insert("scored".to_string(), json!(name));
            terms.push(json!({"weight": affinity, "preference": {"labelSelector": {"matchLabels": {"scored": name}}}}));
        }
        objects.push(cluster(name, Value::Object(labels), true));
        if score_of(score, "ObsoletePlacementAffinityScore") == 1 {
            objects.push(binding(at + 1, name, "Bound", &format!("{PLACEMENT}-old")));
        }
    }
    let mut policy = json!({});
    if !terms.is_empty() {
        policy = preferred(json!(terms));
    }
    if !keys.is_empty() {
        policy["topologySpreadConstraints"] = keys
            .iter()
            .map(|key| json!({"topologyKey": key, "whenUnsatisfiable": "ScheduleAnyway"}))
            .collect();
    }
    objects.push(crp(&pick_n(bound + 1, policy)));
    objects
}

/// The clusters of `explain`, best first: the one picked, then the rest by rank.
fn best_first(rows: &[Row]) -> Vec<String> {
    let mut order = selected(rows);
    order.retain(|name| name != "spread-helper");
    let mut ranked: Vec<(u64, String)> = rows
        .iter()
        .filter(|(_, verdict, _)| verdict == "cutByNumberOfClusters")
        .map(|(name, _, reason)| (rank(reason), name.clone()))
        .collect();
    ranked.sort();
    order.extend(ranked.into_iter().map(|(_, name)| name));
    order
}

fn scored_entries(value: &Value) -> Vec<(String, Value)> {
    strings_of(value)
        .iter()
        .map(|entry| {
            (
                entry["cluster"].as_str().unwrap_or_default().to_string(),
                entry["score"].clone(),
            )
        })
        .collect()
}

/// `ScoredClusters` sorted best first: the clusters scoring the vector's tuples, a PickN of
/// one, `explain`'s pick and ranks (each not-picked cluster's tuple is checked too).
pub(super) fn check_scored_sort(id: &str, input: &Value, expected: &Value) {
    let scored = scored_entries(&input["scored"]);
    let (rows, _) = explain(ITEM, NOW, &scored_fleet(&scored));
    for (name, score) in &scored {
        let (verdict, reason) = verdict_of(&rows, name);
        if verdict == "cutByNumberOfClusters" {
            let tuple = format!(
                "does not score high enough: topology spread score {}, affinity score {}, obsolete placement affinity score {};",
                score_of(score, "TopologySpreadScore"),
                score_of(score, "AffinityScore"),
                score_of(score, "ObsoletePlacementAffinityScore")
            );
            assert!(reason.starts_with(&tuple), "{id}: {name}: {reason}");
        }
    }
    assert_eq!(best_first(&rows), strings(&expected["order"]), "{id}");
}

/// `pickTopNScoredClusters`: the clusters scoring the vector's tuples and a PickN that picks
/// `n` in one cycle (nothing scored: a fleet whose one cluster is filtered); what is picked,
/// and the rest by rank.
pub(super) fn check_pick_top_n(id: &str, input: &Value, expected: &Value) {
    let scored = scored_entries(&input["scored"]);
    let n = input["n"].as_u64().unwrap_or_default();
    let objects = if scored.is_empty() {
        let mut objects = eligible(0);
        objects.push(crp(&pick_n(n, json!({}))));
        objects
    } else {
        assert_eq!(n, 1, "{id}: one pick per cycle");
        scored_fleet(&scored)
    };
    let (rows, _) = explain(ITEM, NOW, &objects);
    let order = best_first(&rows);
    let picked = order.len().min(n as usize);
    assert_eq!(order[..picked], strings(&expected["picked"]), "{id}");
    assert_eq!(order[picked..], strings(&expected["notPicked"]), "{id}");
}

/// Which score (`"a"` or `"b"`) wins a PickN of one between a cluster scoring `a` and one
/// scoring `b`: a tie goes to the larger name, which `b`'s cluster holds, or `a`'s when
/// `swap`.
fn winner(a: &Value, b: &Value, swap: bool) -> String {
    let (first, second) = if swap { ("b", "a") } else { ("a", "b") };
    let (rows, _) = explain(
        ITEM,
        NOW,
        &scored_fleet(&[
            (first.to_string(), a.clone()),
            (second.to_string(), b.clone()),
        ]),
    );
    let picked = best_first(&rows);
    // A PickN of one over two schedulable clusters picks one: a fleet that picked none would
    // read as "b did not win" or "no tie" and pass every vector expecting false.
    let name = picked.first().cloned().unwrap_or_default();
    match (swap, name.as_str()) {
        (true, "a") => "b".to_string(),
        (true, "b") => "a".to_string(),
        (false, "a" | "b") => name,
        _ => panic!("the PickN of one picked {picked:?}, not a or b"),
    }
}

/// `ClusterScore.Less(a, b)`: with the tie going to `a`'s cluster (the larger name), `b`'s
/// is picked exactly when `a` scores less.
pub(super) fn check_score_less(id: &str, input: &Value, expected: &Value) {
    let b_wins = winner(&input["a"], &input["b"], true) == "b";
    assert_eq!(Value::from(b_wins), expected["result"], "{id}");
}

/// `ClusterScore.Equal(a, b)`: equal scores tie, so the larger name wins whichever cluster
/// holds it; unequal, the same score wins both ways.
pub(super) fn check_score_equal(id: &str, input: &Value, expected: &Value) {
    assert!(
        input["a"].is_object() && input["b"].is_object(),
        "{id}: a nil score"
    );
    let tied = winner(&input["a"], &input["b"], false) != winner(&input["a"], &input["b"], true);
    assert_eq!(Value::from(tied), expected["result"], "{id}");
}

/// The rank in a not-picked cluster's reason (`…; rank N of the M scored clusters not picked`).
fn rank(reason: &str) -> u64 {
    reason
        .split_once("; rank ")
        .and_then(|(_, rest)| rest.split_once(' '))
        .and_then(|(rank, _)| rank.parse().ok())
        .unwrap_or_default()
}
