//! The ocm suite of `fleetplan vectors`: every case of a file in the format of
//! testdata/upstream/ocm.yaml (transcribed from OCM's scheduler tests) through the placement
//! engine, every expected field checked (one the case's kind does not compare fails it). The
//! library test runs the bundled copy: all 56 pass.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use serde_yaml::Value;

use super::conditions::{self, Counts, Status};
use super::feasible::Feasible;
use super::filters::taint::ZERO_TIME;
use super::fleet::FleetIndex;
use super::prioritizers::{self, Context};
use super::{clustersets, groups, schedule, PlacementInput, PlacementResult, Scheduler};
use crate::model::{
    labels_from, Binding, Cluster, ClusterIndex, ClusterSet, ClusterSetSelector, Inventory,
    LabelSelectorSpec, ObjectRef, PreviousDecision, Quantity, Taint, VecMap,
};
use crate::ocm::model::decision::DECISION_KIND;
use crate::ocm::model::placement::{
    decode_placement_spec, parse_taint_effect, PlacementSpec, PLACEMENT_LABEL,
};
use crate::ocm::model::scores::AddOnPlacementScore;
use crate::registry::InventoryExtras;
use crate::vectors::{self, FileError, Mismatch, Report};

const API_VERSION: &str = "cluster.open-cluster-management.io/v1beta1";

#[derive(Deserialize)]
struct Case {
    id: String,
    kind: String,
    #[serde(default)]
    plugin: Option<String>,
    input: Input,
    expected: Value,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct Input {
    cluster_sets: Vec<SetIn>,
    bindings: Vec<BindingIn>,
    placement: Option<PlacementIn>,
    clusters: Vec<ClusterIn>,
    existing_decisions: Vec<DecisionIn>,
    add_on_placement_scores: Vec<ScoreIn>,
    now: Option<String>,
    scheduled_clusters: Vec<ClusterIn>,
    eligible_cluster_set_names: Vec<String>,
    placement_cluster_sets: Vec<String>,
    bound_cluster_sets: Vec<String>,
    cluster_sets_in_spec: Vec<String>,
    eligible_cluster_sets: Vec<String>,
    num_of_bindings: usize,
    num_of_available_clusters: usize,
    num_of_feasible_clusters: usize,
    num_of_unscheduled_decisions: i64,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SetIn {
    name: String,
    #[serde(default)]
    selector_type: Option<String>,
    #[serde(default)]
    label_selector: Option<LabelSelectorSpec>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BindingIn {
    namespace: String,
    cluster_set: String,
}

#[derive(Deserialize)]
struct PlacementIn {
    namespace: String,
    name: String,
    spec: serde_json::Value,
}

#[derive(Deserialize)]
struct NameValue {
    name: String,
    value: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TaintIn {
    key: String,
    #[serde(default)]
    value: String,
    effect: String,
    time_added: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClusterIn {
    name: String,
    #[serde(default)]
    labels: BTreeMap<String, String>,
    #[serde(default)]
    cluster_claims: Vec<NameValue>,
    #[serde(default)]
    taints: Vec<TaintIn>,
    #[serde(default)]
    allocatable: BTreeMap<String, String>,
    #[serde(default)]
    capacity: BTreeMap<String, String>,
    #[serde(default)]
    deletion_timestamp: Option<String>,
}

#[derive(Deserialize)]
struct DecisionIn {
    namespace: String,
    name: String,
    clusters: Vec<String>,
    #[serde(default)]
    labels: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ScoreIn {
    cluster: String,
    name: String,
    scores: BTreeMap<String, i64>,
    #[serde(default)]
    valid_until: Option<String>,
}

/// A value of the case's input that does not read.
fn bad(what: &str, text: &str) -> Mismatch {
    Mismatch::Input {
        path: String::new(),
        message: format!("{what} {text:?}"),
    }
}

/// RFC 3339 `YYYY-MM-DDTHH:MM:SSZ` as Unix seconds (the vectors only use UTC).
fn unix(text: &str) -> Result<i64, Mismatch> {
    let number = |range: std::ops::Range<usize>| -> Result<i64, Mismatch> {
        text.get(range)
            .and_then(|digits| digits.parse::<u16>().ok())
            .map(i64::from)
            .ok_or_else(|| bad("not a YYYY-MM-DDTHH:MM:SSZ time:", text))
    };
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let (hour, minute, second) = (number(11..13)?, number(14..16)?, number(17..19)?);
    // Days from civil (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Ok(days * 86_400 + hour * 3_600 + minute * 60 + second)
}

fn quantities(values: &BTreeMap<String, String>) -> Result<VecMap<String, Quantity>, Mismatch> {
    values
        .iter()
        .map(|(name, text)| {
            let value = text.parse().map_err(|_| bad("not a quantity:", text))?;
            Ok((
                name.clone(),
                Quantity {
                    text: text.clone(),
                    value,
                },
            ))
        })
        .collect()
}

fn cluster(input: &ClusterIn) -> Result<Cluster, Mismatch> {
    Ok(Cluster {
        name: input.name.clone(),
        labels: labels_from(input.labels.clone()),
        claims: labels_from(
            input
                .cluster_claims
                .iter()
                .map(|claim| (claim.name.as_str(), claim.value.as_str())),
        ),
        taints: input
            .taints
            .iter()
            .map(|taint| {
                Ok(Taint {
                    key: taint.key.clone(),
                    value: taint.value.clone(),
                    effect: parse_taint_effect(&taint.effect)
                        .map_err(|_| bad("not a taint effect:", &taint.effect))?,
                    time_added: taint.time_added.as_deref().map(unix).transpose()?,
                })
            })
            .collect::<Result<_, Mismatch>>()?,
        allocatable: quantities(&input.allocatable)?,
        resource_capacity: quantities(&input.capacity)?,
        online: true,
        deleting: input.deletion_timestamp.is_some(),
        ..Cluster::default()
    })
}

fn inventory(input: &Input) -> Result<Inventory, Mismatch> {
    Ok(Inventory {
        clusters: input
            .clusters
            .iter()
            .map(cluster)
            .collect::<Result<_, _>>()?,
        cluster_sets: input
            .cluster_sets
            .iter()
            .map(|set| ClusterSet {
                name: set.name.clone(),
                selector: match set.selector_type.as_deref() {
                    None | Some("ExclusiveClusterSetLabel") => {
                        ClusterSetSelector::ExclusiveClusterSetLabel
                    }
                    Some("LabelSelector") => {
                        ClusterSetSelector::LabelSelector(set.label_selector.clone())
                    }
                    Some(other) => ClusterSetSelector::Unknown(other.to_string()),
                },
                source: Default::default(),
            })
            .collect(),
        bindings: input
            .bindings
            .iter()
            .map(|binding| Binding {
                namespace: binding.namespace.clone(),
                name: binding.cluster_set.clone(),
                cluster_set: binding.cluster_set.clone(),
                source: Default::default(),
            })
            .collect(),
        apis: InventoryExtras {
            addon_scores: input
                .add_on_placement_scores
                .iter()
                .map(|score| {
                    Ok(AddOnPlacementScore {
                        namespace: score.cluster.clone(),
                        name: score.name.clone(),
                        scores: score.scores.clone(),
                        valid_until: score.valid_until.as_deref().map(unix).transpose()?,
                        source: Default::default(),
                    })
                })
                .collect::<Result<_, Mismatch>>()?,
        },
    })
}

fn previous(input: &Input) -> Vec<PreviousDecision> {
    input
        .existing_decisions
        .iter()
        .map(|decision| PreviousDecision {
            object: ObjectRef {
                api_version: API_VERSION.to_string(),
                kind: DECISION_KIND.to_string(),
                namespace: Some(decision.namespace.clone()),
                name: decision.name.clone(),
            },
            placement: decision
                .labels
                .get(PLACEMENT_LABEL)
                .cloned()
                .unwrap_or_default(),
            clusters: decision.clusters.clone(),
            source: Default::default(),
        })
        .collect()
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_sequence()
        .map(|items| {
            items
                .iter()
                .map(|item| item.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn score_map(value: &Value) -> BTreeMap<String, i64> {
    value
        .as_mapping()
        .map(|map| {
            map.iter()
                .map(|(name, score)| {
                    (
                        name.as_str().unwrap_or_default().to_string(),
                        score.as_i64().unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

struct Checker<'c> {
    case: &'c Case,
    failures: Vec<String>,
    /// The expected fields compared so far.
    compared: RefCell<BTreeSet<String>>,
}

impl<'c> Checker<'c> {
    fn expected(&self, field: &str) -> Option<&'c Value> {
        self.compared.borrow_mut().insert(field.to_string());
        self.case.expected.get(field)
    }

    /// An expected list of `{name, ...}` items as (name, what `read` takes from each).
    fn expected_by_name<T>(&self, field: &str, read: impl Fn(&Value) -> T) -> Vec<(String, T)> {
        self.expected(field)
            .and_then(Value::as_sequence)
            .map(|items| {
                items
                    .iter()
                    .map(|item| {
                        (
                            item["name"].as_str().unwrap_or_default().to_string(),
                            read(item),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    fn check<T: PartialEq + std::fmt::Debug>(&mut self, what: &str, got: T, want: T) {
        if got != want {
            self.failures
                .push(format!("{what}: got {got:?}, want {want:?}"));
        }
    }

    fn placement(&self) -> Result<&'c PlacementIn, Mismatch> {
        self.case.input.placement.as_ref().ok_or(Mismatch::Input {
            path: "placement".to_string(),
            message: "missing: this kind of case runs a placement".to_string(),
        })
    }

    fn now(&self) -> Result<i64, Mismatch> {
        self.case.input.now.as_deref().map_or(Ok(ZERO_TIME), unix)
    }

    /// The placement's spec, decoded as the hub's API server would take it.
    fn spec(&self) -> Result<PlacementSpec, Mismatch> {
        decode_placement_spec(API_VERSION, self.placement()?.spec.clone()).map_err(|error| {
            Mismatch::Input {
                path: "placement.spec".to_string(),
                message: error.to_string(),
            }
        })
    }

    /// Runs the whole scheduler; filter cases get one clusterset of every cluster bound
    /// to the placement's namespace, as upstream's plugin tests hand the filter every cluster.
    fn run(
        &self,
        inventory: &Inventory,
        previous: &[PreviousDecision],
    ) -> Result<PlacementResult, Mismatch> {
        let placement = self.placement()?;
        let spec = self.spec()?;
        let clusters = ClusterIndex::new(&inventory.clusters);
        let scheduler = Scheduler::new(&clusters, inventory, previous);
        Ok(schedule(&PlacementInput {
            scheduler: &scheduler,
            namespace: &placement.namespace,
            name: &placement.name,
            spec: &spec,
            now: self.now()?,
            trace: true,
            // Upstream's scheduler does not enforce spreadPolicy.
            enforce_spread: false,
        }))
    }

    fn check_status(&mut self, result: &PlacementResult) {
        match self.expected("status").cloned() {
            Some(Value::String(code)) => {
                self.check("status", format!("{:?}", result.status), code);
            }
            Some(status) => {
                let want = Status::Misconfigured {
                    plugin: status["plugin"].as_str().unwrap_or_default().to_string(),
                    message: status["message"].as_str().unwrap_or_default().to_string(),
                };
                self.check("status", &result.status, &want);
                self.check(
                    "misconfigured condition",
                    result.misconfigured.status.as_str(),
                    "True",
                );
            }
            None => {
                let ok = matches!(result.status, Status::Success | Status::Warning { .. });
                self.check("status is not misconfigured", ok, true);
            }
        }
    }

    fn schedule_case(&mut self) -> Result<(), Mismatch> {
        let input = &self.case.input;
        let inventory = inventory(input)?;
        let previous = previous(input);
        let result = self.run(&inventory, &previous)?;
        let trace = result.trace.clone().ok_or_else(no_trace)?;
        let filters: Vec<(String, Vec<String>)> = trace
            .debug
            .filtered_pipeline_results
            .iter()
            .map(|filter| (filter.name.clone(), filter.filtered_clusters.clone()))
            .collect();
        let want_filters =
            self.expected_by_name("filterResults", |item| strings(&item["clusters"]));
        self.check("filterResults", filters, want_filters);

        let prioritizers: BTreeMap<String, (i64, BTreeMap<String, i64>)> = trace
            .debug
            .prioritize_results
            .iter()
            .map(|p| (p.name.clone(), (i64::from(p.weight), p.scores.clone())))
            .collect();
        let want_prioritizers: BTreeMap<String, (i64, BTreeMap<String, i64>)> = self
            .expected_by_name("prioritizerResults", |item| {
                (
                    item["weight"].as_i64().unwrap_or_default(),
                    score_map(&item["scores"]),
                )
            })
            .into_iter()
            .collect();
        self.check("prioritizerResults", prioritizers, want_prioritizers);
        if let Some(totals) = self.expected("totalScores_derived") {
            let totals = score_map(totals);
            self.check(
                "aggregatedScores",
                trace.debug.aggregated_scores.clone(),
                totals,
            );
        }

        // Upstream's Decisions() are in score order: the last filter record, cut.
        let selected: BTreeSet<&str> = result.selected.iter().collect();
        let in_order: Vec<String> = trace
            .debug
            .filtered_pipeline_results
            .last()
            .map(|last| {
                last.filtered_clusters
                    .iter()
                    .filter(|name| selected.contains(name.as_str()))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        let want_decisions = self.expected("decisions").map(strings).unwrap_or_default();
        self.check("decisions", in_order, want_decisions);
        let want_unscheduled = self.expected("unscheduled").and_then(Value::as_i64);
        self.check("unscheduled", Some(result.unscheduled), want_unscheduled);
        self.check_status(&result);
        Ok(())
    }

    fn filter_case(&mut self, plugin: &str) -> Result<(), Mismatch> {
        let input = &self.case.input;
        let mut inventory = inventory(input)?;
        let namespace = self.placement()?.namespace.clone();
        inventory.cluster_sets.push(ClusterSet {
            name: "every-cluster".into(),
            selector: ClusterSetSelector::LabelSelector(Some(LabelSelectorSpec::default())),
            source: Default::default(),
        });
        inventory.bindings.push(Binding {
            namespace,
            name: "every-cluster".into(),
            cluster_set: "every-cluster".into(),
            source: Default::default(),
        });
        let previous = previous(input);
        let result = self.run(&inventory, &previous)?;
        let trace = result.trace.clone().ok_or_else(no_trace)?;
        let record = match plugin {
            "Predicate" => "Predicate",
            _ => "Predicate,TaintToleration",
        };
        let mut filtered: Vec<String> = trace
            .debug
            .filtered_pipeline_results
            .iter()
            .find(|filter| filter.name == record)
            .map(|filter| filter.filtered_clusters.clone())
            .unwrap_or_default();
        filtered.sort();
        let want = self.expected("filtered").map(strings).unwrap_or_default();
        self.check("filtered", filtered, want);
        if let Some(requeue) = self.expected("requeueAt") {
            let want = requeue.as_str().map(unix).transpose()?;
            self.check("requeueAt", result.requeue_at, want);
        }
        self.check_status(&result);
        Ok(())
    }

    fn prioritizer_case(&mut self, plugin: &str) -> Result<(), Mismatch> {
        let input = &self.case.input;
        let inventory = inventory(input)?;
        let previous = previous(input);
        let clusters = ClusterIndex::new(&inventory.clusters);
        let scheduler = Scheduler::new(&clusters, &inventory, &previous);
        let placement = self.placement()?;
        let clusters: Vec<&Cluster> = inventory.clusters.iter().collect();
        let every = Feasible::from((0..clusters.len()).collect::<Vec<_>>());
        let own = scheduler.previous.own_clusters(
            &scheduler.fleet,
            &placement.namespace,
            &placement.name,
        );
        let context = Context {
            scheduler: &scheduler,
            namespace: &placement.namespace,
            name: &placement.name,
            now: self.now()?,
            own: own.as_ref(),
        };
        let prioritizer = prioritizers::by_name(plugin)
            .ok_or_else(|| Mismatch::Kind(format!("the prioritizer {plugin:?}")))?;
        let scores = prioritizer
            .score(&context, &every)
            .scores
            .to_vec(every.len());
        let got: BTreeMap<String, i64> = clusters
            .iter()
            .zip(scores)
            .filter_map(|(cluster, score)| score.map(|score| (cluster.name.clone(), score)))
            .collect();
        let want = self.expected("scores").map(score_map).unwrap_or_default();
        self.check("scores", got, want);
        Ok(())
    }

    fn decision_groups_case(&mut self) -> Result<(), Mismatch> {
        let placement = self.placement()?;
        let spec = self.spec()?;
        let scheduled = Inventory {
            clusters: self
                .case
                .input
                .scheduled_clusters
                .iter()
                .map(cluster)
                .collect::<Result<_, _>>()?,
            ..Inventory::default()
        };
        let clusters = ClusterIndex::new(&scheduled.clusters);
        let fleet = FleetIndex::new(&clusters, &scheduled);
        let mut selected: Vec<(usize, usize)> = (0..scheduled.clusters.len())
            .map(|index| (index, fleet.name_rank(index)))
            .collect();
        selected.sort_unstable_by_key(|&(_, rank)| rank);
        let grouped =
            groups::decision_groups(&spec.decision_strategy.group_strategy, &fleet, &selected)
                .map_err(|error| Mismatch::Engine(error.to_string()))?;
        let (statuses, objects) = groups::decision_objects(
            &placement.namespace,
            &placement.name,
            fleet.names(),
            grouped,
        );
        let want = self
            .expected("decisionGroups")
            .and_then(Value::as_sequence)
            .cloned()
            .unwrap_or_default();
        self.check("number of groups", statuses.len(), want.len());
        for (status, want) in statuses.iter().zip(&want) {
            let index = status.decision_group_index;
            self.check(
                &format!("group {index} index"),
                Some(index as i64),
                want["decisionGroupIndex"].as_i64(),
            );
            self.check(
                &format!("group {index} name"),
                Some(status.decision_group_name.as_str()),
                want["decisionGroupName"].as_str(),
            );
            self.check(
                &format!("group {index} decisions"),
                status.decisions.clone(),
                strings(&want["decisions"]),
            );
            self.check(
                &format!("group {index} clusterCount"),
                Some(status.cluster_count as i64),
                want["clusterCount"].as_i64(),
            );
            if let Some(clusters) = want.get("clusters_derived") {
                self.check(
                    &format!("group {index} clusters"),
                    status.clusters.to_vec(),
                    strings(clusters),
                );
            }
        }
        for object in &objects {
            self.check(
                &format!("{} placement label", object.name),
                object.labels.get(PLACEMENT_LABEL).map(String::as_str),
                Some(placement.name.as_str()),
            );
        }
        Ok(())
    }

    fn available_clusters_case(&mut self) -> Result<(), Mismatch> {
        let input = &self.case.input;
        let inventory = inventory(input)?;
        let clusters = ClusterIndex::new(&inventory.clusters);
        let fleet = FleetIndex::new(&clusters, &inventory);
        let (clusters, error) = match fleet.candidates(&input.eligible_cluster_set_names) {
            Ok(indices) => (
                indices
                    .iter()
                    .map(|&index| fleet.cluster(index).name.clone())
                    .collect(),
                false,
            ),
            Err(_) => (Vec::new(), true),
        };
        let want = self.expected("clusters").map(strings).unwrap_or_default();
        self.check("clusters", clusters, want);
        let want_error = self.expected("error").and_then(Value::as_bool);
        self.check("error", Some(error), want_error);
        Ok(())
    }

    fn eligible_sets_case(&mut self) {
        let input = &self.case.input;
        let got =
            clustersets::eligible_sets(&input.bound_cluster_sets, &input.placement_cluster_sets);
        let want = self
            .expected("clusterSets")
            .map(strings)
            .unwrap_or_default();
        self.check("clusterSets", got, want);
    }

    fn satisfied_case(&mut self) {
        let input = &self.case.input;
        let condition = conditions::satisfied(
            &Counts {
                cluster_sets_in_spec: &input.cluster_sets_in_spec,
                eligible_sets: &input.eligible_cluster_sets,
                bindings: input.num_of_bindings,
                available: input.num_of_available_clusters,
                feasible: input.num_of_feasible_clusters,
                unscheduled: input.num_of_unscheduled_decisions,
            },
            &Status::Success,
        );
        for (field, got) in [
            ("type", condition.type_.as_str()),
            ("status", condition.status.as_str()),
            ("reason", condition.reason.as_str()),
        ] {
            let want = self.expected(field).and_then(Value::as_str);
            self.check(field, Some(got), want);
        }
    }
}

/// The case's trace, which every run asks for.
fn no_trace() -> Mismatch {
    Mismatch::Engine("the scheduler kept no trace".to_string())
}

/// Runs every case of `text` (the format of testdata/upstream/ocm.yaml).
pub(crate) fn run_file(text: &str) -> Result<Report, FileError> {
    let cases: Vec<Case> = vectors::parse(text)?;
    vectors::report(
        "",
        cases.iter().enumerate().map(|(index, case)| {
            (
                format!("[{index}]"),
                case.id.as_str(),
                case.kind.as_str(),
                check(case),
            )
        }),
    )
}

/// One case: every expected field compared.
fn check(case: &Case) -> Result<(), Mismatch> {
    let mut checker = Checker {
        case,
        failures: Vec::new(),
        compared: RefCell::new(BTreeSet::new()),
    };
    let plugin = case.plugin.clone().unwrap_or_default();
    match case.kind.as_str() {
        "schedule" => checker.schedule_case()?,
        "filter" => checker.filter_case(&plugin)?,
        "prioritizer" => checker.prioritizer_case(&plugin)?,
        "decision_groups" => checker.decision_groups_case()?,
        "available_clusters" => checker.available_clusters_case()?,
        "eligible_clustersets" => checker.eligible_sets_case(),
        "satisfied_condition" => checker.satisfied_case(),
        other => return Err(Mismatch::Kind(format!("kind {other:?}"))),
    }
    let compared = checker.compared.borrow();
    let expected = case.expected.as_mapping().cloned().unwrap_or_default();
    vectors::checked(
        checker.failures,
        expected
            .keys()
            .map(|key| key.as_str().unwrap_or("<a key that is no text>")),
        |name| compared.contains(name),
        // Remarks beside the expectation: a note, and that the case needs CEL (fleetplan
        // evaluates it, so the case runs like any other).
        &["note", "requiresCEL"],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_ocm_case_passes() {
        assert_eq!(
            run_file(include_str!("../../testdata/upstream/ocm.yaml")),
            Ok(Report {
                vectors: 56,
                failures: Vec::new(),
            })
        );
    }
}
