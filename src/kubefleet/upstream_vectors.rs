//! The KubeFleet suite of `fleetplan vectors`: every vector of a file in the format of
//! testdata/upstream/kubefleet.yaml (transcribed from upstream's own tests at e160c1cd) run
//! through the engine's functions as upstream's unit tests call them, every expected field
//! compared. The library test runs the bundled copy: all 261 pass.

use std::collections::{BTreeMap, HashSet};

use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::decisions::{self, Filtered, Invalid};
use super::downscale::{self, downscale, num_to_select, should_downscale, should_requeue};
use super::model::binding::Binding;
use super::model::member_cluster::MemberCluster;
use super::model::policy::{
    ClusterSelectorTerm, PlacementPolicy, PreferredClusterSelector, TopologySpreadConstraint,
};
use super::model::wire::read;
use super::overrides::{self, Override, OverrideRule};
use super::pick_fixed;
use super::plugins::cluster_affinity::{
    self, Extremes, Observed, PreferredTerm, RequiredTerm, Scorer,
};
use super::plugins::topology_spread_constraints::{self as spread, DomainCounts, Spread};
use super::plugins::{
    cluster_eligibility, namespace_affinity, same_placement_affinity, taint_toleration,
};
use super::property::property_value;
use super::score::{best_first, pick_top_n, ClusterScore, ScoredCluster};
use super::stages::{self, StageConfig};
use super::status::Status;
use crate::model::time::parse_rfc3339;
use crate::model::Quantity;
use crate::vectors::{self, FileError, Mismatch, Report};

/// The cluster `TestPickFromResourceMatchedOverridesForTargetCluster` picks for
/// (`clusterName := "cluster-1"`, overrider_test.go line 2020 at e160c1cd).
const OVERRIDE_TARGET: &str = "cluster-1";

#[derive(Deserialize)]
struct Vectors {
    vectors: Vec<Vector>,
}

#[derive(Deserialize)]
struct Vector {
    id: String,
    kind: String,
    input: Value,
    expected: Value,
}

/// Runs every vector of `text` (the format of testdata/upstream/kubefleet.yaml).
pub(crate) fn run_file(text: &str) -> Result<Report, FileError> {
    let file: Vectors = vectors::parse(text)?;
    vectors::report(
        "vectors",
        file.vectors.iter().enumerate().map(|(index, vector)| {
            (
                format!("vectors[{index}]"),
                vector.id.as_str(),
                vector.kind.as_str(),
                run(vector),
            )
        }),
    )
}

/// Runs one vector: `Err` says what differs.
fn run(vector: &Vector) -> Result<(), Mismatch> {
    let input = &vector.input;
    let got = match vector.kind.as_str() {
        "filter" => filter(input)?,
        "prefilter" => prefilter(input)?,
        "eligibility" => eligibility(input)?,
        "requiredTerm" => {
            let term: ClusterSelectorTerm = decode(&input["term"])?;
            outcome(
                RequiredTerm::new(&term).matches(&cluster(&input["cluster"])?),
                "matches",
            )
        }
        "propertyValue" => {
            match property_value(&cluster(&input["cluster"])?, text(&input["property"])?) {
                Ok(value) => json!({"value": value.map(|value| value.text)}),
                Err(_) => json!({"error": true}),
            }
        }
        "preferredTerm" => {
            let term: PreferredClusterSelector = decode(&input["term"])?;
            let score = PreferredTerm::new(&term)
                .score(&observed(&input["observed"])?, &cluster(&input["cluster"])?);
            outcome(score, "score")
        }
        "interpolate" => {
            let weight = cluster_affinity::interpolate(
                &cluster(&input["cluster"])?,
                text(&input["property"])?,
                text(&input["sortOrder"])?,
                decode(&input["weight"])?,
                &observed(&input["observed"])?,
            );
            outcome(weight, "weight")
        }
        "affinityPreScore" => affinity_pre_score(input)?,
        "affinityScore" => {
            let policy: PlacementPolicy = decode(&input["policy"])?;
            let scorer = Scorer::new(&policy, observed(&input["observed"])?);
            match scorer.score(&cluster(&input["cluster"])?) {
                Ok(score) => json!({"affinityScore": score}),
                Err(error) => {
                    json!({"verdict": "InternalError", "status": format!("InternalError, {error}")})
                }
            }
        }
        "samePlacementScore" => {
            let cluster = cluster(&input["cluster"])?;
            let obsolete = targets(&input["obsoleteBindings"])?;
            json!({"obsoletePlacementAffinityScore": same_placement_affinity::score(obsolete.contains(&cluster.name))})
        }
        "postBatch" => match spread::batch_limit(policy(&input["policy"])?.as_ref()) {
            Ok(limit) => json!({"verdict": "Success", "batchLimit": limit}),
            Err(status) => {
                json!({"verdict": status.code.as_str(), "status": status.to_string(), "batchLimit": 0})
            }
        },
        "tscCountByDomain" => {
            let clusters = clusters(&input["clusters"])?;
            let current = has_current(&clusters, &input["scheduledOrBoundBindings"])?;
            let counts = spread::count_by_domain(text(&input["topologyKey"])?, &clusters, &current);
            json!({
                "counts": counts.counts,
                "smallest": counts.smallest,
                "secondSmallest": counts.second_smallest,
                "largest": counts.largest,
            })
        }
        "tscWillViolate" => will_violate(input)?,
        "tscEvaluate" => {
            let clusters = clusters(&input["clusters"])?;
            let current = has_current(&clusters, &input["scheduledOrBoundBindings"])?;
            let do_not_schedule: Vec<TopologySpreadConstraint> = decode(&input["doNotSchedule"])?;
            let schedule_anyway: Vec<TopologySpreadConstraint> = decode(&input["scheduleAnyway"])?;
            let do_not_schedule: Vec<_> = do_not_schedule.iter().collect();
            let verdicts = spread::evaluate(
                &clusters,
                &current,
                &do_not_schedule,
                &schedule_anyway.iter().collect::<Vec<_>>(),
            )
            .map_err(engine)?;
            spread_state(&clusters, &do_not_schedule, &verdicts)
        }
        "tscPrepare" => tsc_prepare(input, &vector.expected)?,
        "scoreLess" => json!({"result": score(&input["a"])? < score(&input["b"])?}),
        "scoreEqual" => {
            let optional = |value: &Value| (!value.is_null()).then(|| score(value)).transpose();
            json!({"result": optional(&input["a"])? == optional(&input["b"])?})
        }
        "scoredSort" => {
            let names = scored_names(&input["scored"])?;
            let mut scored = scored(&names)?;
            scored.sort_by(best_first);
            json!({"order": scored_list(&scored)})
        }
        "pickTopN" => {
            let names = scored_names(&input["scored"])?;
            let (picked, rest) = pick_top_n(scored(&names)?, decode(&input["n"])?);
            json!({"picked": scored_list(&picked), "notPicked": scored_list(&rest)})
        }
        "numToSelect" => json!({"result": num_to_select(
            decode(&input["desired"])?,
            decode(&input["batchLimit"])?,
            decode(&input["scored"])?,
        )}),
        "shouldRequeue" => json!({"result": should_requeue(
            decode(&input["desiredBatchSize"])?,
            decode(&input["batchLimit"])?,
            decode(&input["bindingCount"])?,
        )}),
        "shouldDownscale" => {
            let policy: PlacementPolicy = decode(&input["policy"])?;
            let count = should_downscale(
                policy.placement_type,
                decode(&input["desired"])?,
                decode(&input["present"])?,
                decode(&input["obsolete"])?,
            );
            json!({"act": count.is_some(), "count": count.unwrap_or(0)})
        }
        "sortBindingsForDownscale" => {
            let mut bindings = bindings(&input["bindings"])?;
            bindings.sort_by(downscale::trim_order);
            json!({"order": bindings.iter().map(|binding| binding.target_cluster.as_str()).collect::<Vec<_>>()})
        }
        "downscale" => return downscale_vector(input, &vector.expected),
        "decisions" | "statusFromBindings" => status_from_bindings(input)?,
        "pickFixed" => {
            let clusters = clusters(&input["clusters"])?;
            let names: Vec<String> = decode(&input["clusterNames"])?;
            let now = now(&input["now"])?;
            let eligibility = |name: &str| {
                let cluster = clusters.iter().find(|cluster| cluster.name == name)?;
                Some(cluster_eligibility::check(cluster, now))
            };
            let targets = pick_fixed::cross_reference(&names, eligibility);
            json!({
                "valid": targets.valid,
                "invalid": targets.invalid.iter().map(|entry| json!({"cluster": entry.cluster, "reason": entry.reason})).collect::<Vec<_>>(),
                "notFound": targets.not_found,
            })
        }
        "pickFixedStatus" => {
            let valid: Vec<String> = decode(&input["valid"])?;
            let not_found: Vec<String> = decode(&input["notFound"])?;
            let invalid: Vec<Named> = decode(&input["invalid"])?;
            let valid: Vec<&str> = valid.iter().map(String::as_str).collect();
            let not_found: Vec<&str> = not_found.iter().map(String::as_str).collect();
            let invalid: Vec<Invalid<'_>> = invalid
                .iter()
                .map(|entry| Invalid {
                    cluster: &entry.cluster,
                    reason: entry.reason.clone(),
                })
                .collect();
            json!({
                "condition": decisions::pick_fixed_condition(valid.len(), invalid.len(), not_found.len()),
                "decisions": decisions::pick_fixed(&valid, &invalid, &not_found),
            })
        }
        "overrideRule" => {
            let rule: OverrideRule = decode(&input["rule"])?;
            outcome(
                overrides::rule_matches(&rule, &cluster(&input["cluster"])?),
                "matched",
            )
        }
        "overridesForCluster" => {
            let read_overrides = |value: &Value| -> Result<Vec<Override>, Mismatch> {
                let wire: Vec<OverrideIn> = decode(value)?;
                Ok(wire
                    .into_iter()
                    .map(|wire| Override {
                        namespace: wire.namespace,
                        name: wire.name,
                        rules: wire.policy.override_rules,
                    })
                    .collect())
            };
            // The vector's cluster is the fleet (the test's fake client holds it); the test
            // picks for `cluster-1` in every case (each vector's note says so).
            let fleet = cluster(&input["cluster"])?;
            let found = overrides::for_cluster(
                |name| (fleet.name == name).then_some(&fleet),
                OVERRIDE_TARGET,
                &read_overrides(&input["clusterResourceOverrides"])?,
                &read_overrides(&input["resourceOverrides"])?,
            );
            match found {
                Ok((cluster_scoped, namespaced)) => {
                    json!({"clusterResourceOverrides": cluster_scoped, "resourceOverrides": namespaced})
                }
                Err(_) => json!({"error": true}),
            }
        }
        "stages" => stage_vector(input)?,
        other => return Err(Mismatch::Kind(format!("kind {other:?}"))),
    };
    compare(&got, &vector.expected)
}

fn compare(got: &Value, expected: &Value) -> Result<(), Mismatch> {
    if got == expected {
        Ok(())
    } else {
        Err(Mismatch::Differs {
            got: got.clone(),
            expected: expected.clone(),
        })
    }
}

/// An engine error where the vector expects a result.
fn engine(error: impl std::fmt::Display) -> Mismatch {
    Mismatch::Engine(error.to_string())
}

fn decode<T: serde::de::DeserializeOwned>(value: &Value) -> Result<T, Mismatch> {
    read(value).map_err(|error| Mismatch::Input {
        path: error.path,
        message: error.message,
    })
}

fn text(value: &Value) -> Result<&str, Mismatch> {
    value.as_str().ok_or_else(|| Mismatch::Input {
        path: String::new(),
        message: format!("expected text, found {value}"),
    })
}

fn now(value: &Value) -> Result<i64, Mismatch> {
    parse_rfc3339(text(value)?).map_err(|error| Mismatch::Input {
        path: String::new(),
        message: error.to_string(),
    })
}

fn cluster(value: &Value) -> Result<MemberCluster, Mismatch> {
    decode(value)
}

fn clusters(value: &Value) -> Result<Vec<MemberCluster>, Mismatch> {
    decode(value)
}

fn policy(value: &Value) -> Result<Option<PlacementPolicy>, Mismatch> {
    decode(value)
}

/// `{"verdict": …}` as the vectors write a plugin's outcome.
fn verdict(status: Option<Status>) -> Value {
    match status {
        None => json!({"verdict": "Success"}),
        Some(status) => json!({"verdict": status.code.as_str(), "status": status.to_string()}),
    }
}

fn outcome<T: serde::Serialize, E>(result: Result<T, E>, field: &str) -> Value {
    match result {
        Ok(value) => json!({ field: value }),
        Err(_) => json!({"error": true}),
    }
}

/// A vector's binding: the spec's fields at the top level, with the binding's `name`.
fn binding(value: &Value) -> Result<Binding, Mismatch> {
    let mut spec = value.as_object().cloned().unwrap_or_default();
    let name = spec.remove("name").unwrap_or_else(|| Value::from(""));
    decode(&json!({"metadata": {"name": name}, "spec": spec}))
}

fn bindings(value: &Value) -> Result<Vec<Binding>, Mismatch> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .map(binding)
        .collect()
}

fn targets(value: &Value) -> Result<HashSet<String>, Mismatch> {
    Ok(bindings(value)?
        .into_iter()
        .map(|binding| binding.target_cluster)
        .collect())
}

fn has_current(clusters: &[MemberCluster], value: &Value) -> Result<Vec<bool>, Mismatch> {
    let targets = targets(value)?;
    Ok(clusters
        .iter()
        .map(|cluster| targets.contains(&cluster.name))
        .collect())
}

fn observed(value: &Value) -> Result<Observed, Mismatch> {
    let wire: Option<BTreeMap<String, BTreeMap<String, String>>> = decode(value)?;
    let quantity = |text: Option<&String>| {
        text.map(|text| {
            Quantity::parse(text).map_err(|error| Mismatch::Input {
                path: String::new(),
                message: error.to_string(),
            })
        })
        .transpose()
    };
    wire.unwrap_or_default()
        .into_iter()
        .map(|(name, extremes)| {
            Ok((
                name,
                Extremes {
                    min: quantity(extremes.get("min"))?,
                    max: quantity(extremes.get("max"))?,
                },
            ))
        })
        .collect()
}

/// A ClusterScore with the Go field names the vectors use.
fn score(value: &Value) -> Result<ClusterScore, Mismatch> {
    #[derive(Deserialize)]
    #[serde(rename_all = "PascalCase")]
    struct Wire {
        topology_spread_score: i32,
        affinity_score: i32,
        obsolete_placement_affinity_score: i32,
    }
    let wire: Wire = decode(value)?;
    Ok(ClusterScore {
        topology_spread: wire.topology_spread_score,
        affinity: wire.affinity_score,
        obsolete_placement_affinity: wire.obsolete_placement_affinity_score,
    })
}

fn scored_names(value: &Value) -> Result<Vec<(String, ClusterScore)>, Mismatch> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .map(|entry| {
            Ok((
                text(&entry["cluster"])?.to_string(),
                score(&entry["score"])?,
            ))
        })
        .collect()
}

fn scored(names: &[(String, ClusterScore)]) -> Result<Vec<ScoredCluster<'_>>, Mismatch> {
    Ok(names
        .iter()
        .map(|(name, score)| ScoredCluster {
            name,
            score: *score,
        })
        .collect())
}

fn scored_list(list: &[ScoredCluster<'_>]) -> Value {
    list.iter().map(|scored| Value::from(scored.name)).collect()
}

#[derive(Deserialize)]
struct Named {
    cluster: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    status: String,
}

#[derive(Deserialize)]
struct OverrideIn {
    name: String,
    #[serde(default)]
    namespace: Option<String>,
    #[serde(default)]
    policy: OverridePolicyIn,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct OverridePolicyIn {
    #[serde(default)]
    override_rules: Vec<OverrideRule>,
}

fn filter(input: &Value) -> Result<Value, Mismatch> {
    let cluster = cluster(&input["cluster"])?;
    let status = match text(&input["plugin"])? {
        "ClusterAffinity" => {
            let policy = policy(&input["policy"])?;
            match cluster_affinity::Filter::new(policy.as_ref()) {
                Err(_skip) => None,
                Ok(filter) => filter.filter(&cluster).map_err(engine)?,
            }
        }
        "ClusterEligibility" => cluster_eligibility::filter(&cluster, now(&input["now"])?),
        "NamespaceAffinity" => {
            namespace_affinity::filter(text(&input["placement"]["namespace"])?, &cluster)
        }
        "SamePlacementAffinity" => {
            let current = targets(&input["scheduledOrBoundBindings"])?;
            same_placement_affinity::filter(current.contains(&cluster.name))
        }
        "TaintToleration" => {
            let policy = policy(&input["policy"])?.unwrap_or_default();
            taint_toleration::filter(&cluster, &policy.tolerations)
        }
        other => return Err(Mismatch::Kind(format!("the filter of plugin {other:?}"))),
    };
    Ok(verdict(status))
}

fn prefilter(input: &Value) -> Result<Value, Mismatch> {
    let status = match text(&input["plugin"])? {
        "ClusterAffinity" => {
            let policy = policy(&input["policy"])?;
            cluster_affinity::Filter::new(policy.as_ref()).err()
        }
        "NamespaceAffinity" => {
            namespace_affinity::pre_filter(input["placement"]["namespace"].as_str()).err()
        }
        other => return Err(Mismatch::Kind(format!("the prefilter of plugin {other:?}"))),
    };
    Ok(verdict(status))
}

fn eligibility(input: &Value) -> Result<Value, Mismatch> {
    let cluster = cluster(&input["cluster"])?;
    Ok(
        match cluster_eligibility::check(&cluster, now(&input["now"])?) {
            Ok(()) => json!({"eligible": true}),
            Err(reason) => {
                json!({"eligible": false, "reasonPrefix": reason.prefix(), "reason": reason.to_string()})
            }
        },
    )
}

fn affinity_pre_score(input: &Value) -> Result<Value, Mismatch> {
    let policy = policy(&input["policy"])?;
    let clusters = clusters(&input["clusters"])?;
    Ok(
        match cluster_affinity::observe(policy.as_ref(), &clusters) {
            Err(status) => verdict(Some(status)),
            Ok(Err(error)) => {
                json!({"verdict": "InternalError", "status": format!("InternalError, {error}")})
            }
            Ok(Ok(observed)) => {
                let observed: Map<String, Value> = observed
                    .into_iter()
                    .map(|(name, extremes)| {
                        let mut fields = Map::new();
                        if let Some(max) = extremes.max {
                            fields.insert("max".to_string(), Value::from(max.text));
                        }
                        if let Some(min) = extremes.min {
                            fields.insert("min".to_string(), Value::from(min.text));
                        }
                        (name, Value::Object(fields))
                    })
                    .collect();
                json!({"verdict": "Success", "observed": observed})
            }
        },
    )
}

fn will_violate(input: &Value) -> Result<Value, Mismatch> {
    let counts: BTreeMap<String, i32> = decode(&input["counts"])?;
    let counts = DomainCounts {
        counts: counts
            .iter()
            .map(|(domain, count)| (domain.as_str(), *count))
            .collect(),
        smallest: decode(&input["smallest"])?,
        second_smallest: decode(&input["secondSmallest"])?,
        largest: decode(&input["largest"])?,
    };
    Ok(
        match spread::will_violate(&counts, text(&input["domain"])?, decode(&input["maxSkew"])?) {
            Ok((violated, change)) => json!({"violated": violated, "skewChange": change}),
            Err(_) => json!({"error": true}),
        },
    )
}

/// The spread plugin's state as the vectors write it: violations and scores by cluster.
fn spread_state(
    clusters: &[MemberCluster],
    do_not_schedule: &[&TopologySpreadConstraint],
    verdicts: &[Spread],
) -> Value {
    let mut violations = Map::new();
    let mut scores = Map::new();
    for (cluster, verdict) in clusters.iter().zip(verdicts) {
        match verdict {
            Spread::Violated(index) => {
                let reason = do_not_schedule
                    .get(*index)
                    .map(|constraint| spread::violation(constraint));
                violations.insert(cluster.name.clone(), json!([reason]));
            }
            Spread::Score(score) => {
                scores.insert(cluster.name.clone(), json!(score));
            }
        }
    }
    json!({"violations": violations, "scores": scores})
}

fn tsc_prepare(input: &Value, expected: &Value) -> Result<Value, Mismatch> {
    let policy = policy(&input["policy"])?;
    let clusters = clusters(&input["clusters"])?;
    let current = has_current(&clusters, &input["scheduledOrBoundBindings"])?;
    let (status, verdicts) =
        spread::prepare(policy.as_ref(), &clusters, &current).map_err(engine)?;
    let constraints = policy
        .as_ref()
        .map(|policy| policy.topology_spread_constraints.as_slice());
    let (do_not_schedule, _) = spread::classify(constraints.unwrap_or_default());
    let mut got = spread_state(&clusters, &do_not_schedule, &verdicts);
    // The plugin-state test checks the state only; the PreFilter test its status too.
    if expected.get("verdict").is_some() {
        if let (Value::Object(got), Value::Object(status)) = (&mut got, verdict(status)) {
            got.extend(status);
        }
    }
    Ok(got)
}

fn downscale_vector(input: &Value, expected: &Value) -> Result<(), Mismatch> {
    let trimmed = downscale(
        bindings(&input["scheduled"])?,
        bindings(&input["bound"])?,
        decode(&input["count"])?,
    );
    let got = match trimmed {
        Err(_) => return compare(&json!({"error": true}), expected),
        Ok(trimmed) => trimmed,
    };
    // A binding is named by its cluster, or by its own name when it has none. Upstream's
    // test compares the three lists ignoring order (the trimmed scheduled bindings come in
    // trim order, which its want lists do not follow), so both sides are sorted here.
    let names = |list: &[Binding]| {
        let mut names: Vec<&str> = list
            .iter()
            .map(|binding| {
                if binding.target_cluster.is_empty() {
                    binding.name.as_str()
                } else {
                    binding.target_cluster.as_str()
                }
            })
            .collect();
        names.sort_unstable();
        json!(names)
    };
    let sorted = |value: &Value| {
        let mut names: Vec<&str> = value
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        names.sort_unstable();
        json!(names)
    };
    compare(
        &json!({
            "keptScheduled": names(&got.kept_scheduled),
            "keptBound": names(&got.kept_bound),
            "unscheduled": names(&got.unscheduled),
        }),
        &lists_sorted(
            expected,
            &["keptScheduled", "keptBound", "unscheduled"],
            sorted,
        ),
    )
}

/// `expected` with the lists at `fields` sorted (every other field as it is, so a field the
/// runner does not produce still fails the comparison).
fn lists_sorted(expected: &Value, fields: &[&str], sorted: impl Fn(&Value) -> Value) -> Value {
    let mut expected = expected.clone();
    if let Value::Object(object) = &mut expected {
        for field in fields {
            if let Some(list) = object.get_mut(*field) {
                *list = sorted(list);
            }
        }
    }
    expected
}

fn status_from_bindings(input: &Value) -> Result<Value, Mismatch> {
    let existing: Vec<Vec<Binding>> = input["existing"]
        .as_array()
        .into_iter()
        .flatten()
        .map(bindings)
        .collect::<Result<_, _>>()?;
    let existing: Vec<&[Binding]> = existing.iter().map(Vec::as_slice).collect();
    let names = scored_names(&input["notPicked"])?;
    let not_picked = scored(&names)?;
    let filtered: Vec<Named> = decode(&input["filtered"])?;
    let filtered: Vec<Filtered<'_>> = filtered
        .iter()
        .map(|entry| Filtered {
            cluster: &entry.cluster,
            reason: entry.status.clone(),
        })
        .collect();
    let found = decisions::from_bindings(
        decode(&input["maxUnselected"])?,
        &not_picked,
        &filtered,
        &existing,
    );
    let mut got = json!({"decisions": found});
    if let Some(desired) = input.get("numOfClusters") {
        let count = existing.iter().map(|bindings| bindings.len()).sum();
        got["condition"] = json!(decisions::scheduled_condition(decode(desired)?, count));
    }
    Ok(got)
}

fn stage_vector(input: &Value) -> Result<Value, Mismatch> {
    let clusters = clusters(&input["clusters"])?;
    let stages: Vec<StageConfig> = decode(&input["stages"])?;
    let selected: Vec<String> = decode(&input["selected"])?;
    let selected: Vec<&str> = selected.iter().map(String::as_str).collect();
    let unscheduled = bindings(&input["unscheduledBindings"])?;
    let unscheduled: Vec<&str> = unscheduled
        .iter()
        .map(|binding| binding.target_cluster.as_str())
        .collect();
    let strategy = format!("/{}", text(&input["strategyName"])?);
    Ok(
        match stages::assign(&strategy, &stages, &clusters, &selected, &unscheduled) {
            Ok(assigned) => json!({
                "stages": assigned.stages.iter().map(|stage| json!({"name": stage.name, "clusters": stage.clusters})).collect::<Vec<_>>(),
                "deletionStage": assigned.deletion,
            }),
            Err(error) => json!({"error": error.to_string()}),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_vector_passes() {
        let report = run_file(include_str!("../../testdata/upstream/kubefleet.yaml"));
        assert_eq!(
            report,
            Ok(Report {
                vectors: 261,
                failures: Vec::new(),
            })
        );
    }
}
