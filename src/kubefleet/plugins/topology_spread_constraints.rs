//! TopologySpreadConstraints (`plugins/topologyspreadconstraints/utils.go`): per constraint,
//! the clusters with a current binding are counted by the value of the topology key over
//! every MemberCluster; a cluster is filtered when placing there would break a DoNotSchedule
//! constraint and scored by the skew it would add.

use std::borrow::Borrow;
use std::collections::BTreeMap;

use crate::kubefleet::member_cluster::MemberCluster;
use crate::kubefleet::policy::{PlacementPolicy, TopologySpreadConstraint, WhenUnsatisfiable};
use crate::kubefleet::status::{Code, Status};

pub(crate) const NO_POLICY: &str = "policy does not exist";
pub(crate) const NO_CONSTRAINTS: &str = "no topology spread constraint is present";
pub(crate) const NO_DO_NOT_SCHEDULE: &str =
    "no DoNotSchedule topology spread constraint is present";
/// What a violated ScheduleAnyway constraint adds to the score.
const VIOLATION_PENALTY: i32 = -1000;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SpreadError {
    #[error("domain {0} is not registered in the counter")]
    Unregistered(String),
    #[error("the count {count} in domain {domain} is out of the range [{smallest}, {largest}]")]
    OutOfRange {
        domain: String,
        count: i32,
        smallest: i32,
        largest: i32,
    },
}

/// `bindingCounterByDomain`: clusters with a current binding per domain, and the three counts
/// `willViolate` reads (-1 each without domains).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DomainCounts<'c> {
    pub(crate) counts: BTreeMap<&'c str, i32>,
    pub(crate) smallest: i32,
    pub(crate) second_smallest: i32,
    pub(crate) largest: i32,
}

/// `countByDomain`: every cluster labelled with `key` makes its domain exist (an unusable
/// cluster makes a domain with count 0); `has_current_binding[i]` says whether `clusters[i]`
/// has a current scheduled or bound binding (obsolete ones do not count).
pub(crate) fn count_by_domain<'c, C: Borrow<MemberCluster>>(
    key: &str,
    clusters: &'c [C],
    has_current_binding: &[bool],
) -> DomainCounts<'c> {
    let mut counts = BTreeMap::new();
    for (index, cluster) in clusters.iter().enumerate() {
        if let Some(domain) = cluster.borrow().labels.get(key) {
            let count = counts.entry(domain.as_str()).or_insert(0);
            if has_current_binding.get(index).copied().unwrap_or(false) {
                *count += 1;
            }
        }
    }
    let mut sorted: Vec<i32> = counts.values().copied().collect();
    sorted.sort_unstable();
    let (smallest, second_smallest, largest) = match sorted.as_slice() {
        [] => (-1, -1, -1),
        [only] => (*only, *only, *only),
        [first, second] => (*first, *second, *second),
        [first, second, .., last] => (*first, *second, *last),
    };
    DomainCounts {
        counts,
        smallest,
        second_smallest,
        largest,
    }
}

/// `willViolate`: whether one more binding in `domain` breaks `max_skew`, and how the skew
/// would change (+1, 0 or -1).
pub(crate) fn will_violate(
    counts: &DomainCounts<'_>,
    domain: &str,
    max_skew: i32,
) -> Result<(bool, i32), SpreadError> {
    let count = *counts
        .counts
        .get(domain)
        .ok_or_else(|| SpreadError::Unregistered(domain.to_string()))?;
    let (smallest, second, largest) = (counts.smallest, counts.second_smallest, counts.largest);
    if count < smallest || count > largest {
        return Err(SpreadError::OutOfRange {
            domain: domain.to_string(),
            count,
            smallest,
            largest,
        });
    }
    let skew = largest - smallest;
    Ok(if largest == smallest {
        (skew + 1 > max_skew, 1)
    } else if count == smallest && smallest != second {
        (skew - 1 > max_skew, -1)
    } else if count == largest {
        (skew + 1 > max_skew, 1)
    } else {
        (skew > max_skew, 0)
    })
}

/// What the constraints say about one cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Spread {
    /// The DoNotSchedule constraint at this index (of those `evaluate` was given) would be
    /// violated: the cluster is filtered, with `violation(constraint)` as the reason.
    Violated(usize),
    /// The TopologySpreadScore.
    Score(i32),
}

/// `evaluateAllConstraints`, cluster by cluster in `clusters` order. A cluster without the
/// topology key passes a constraint and adds 0 (unlike kube-scheduler).
pub(crate) fn evaluate<C: Borrow<MemberCluster>>(
    clusters: &[C],
    has_current_binding: &[bool],
    do_not_schedule: &[&TopologySpreadConstraint],
    schedule_anyway: &[&TopologySpreadConstraint],
) -> Result<Vec<Spread>, SpreadError> {
    let count = |constraint: &&TopologySpreadConstraint| {
        count_by_domain(&constraint.topology_key, clusters, has_current_binding)
    };
    let strict: Vec<_> = do_not_schedule.iter().map(count).collect();
    let lenient: Vec<_> = schedule_anyway.iter().map(count).collect();
    let mut verdicts = Vec::with_capacity(clusters.len());
    'clusters: for cluster in clusters {
        let cluster = cluster.borrow();
        let mut score = 0i32;
        for (index, (constraint, counts)) in do_not_schedule.iter().zip(&strict).enumerate() {
            let Some(domain) = cluster.labels.get(&constraint.topology_key) else {
                continue;
            };
            let (violated, change) = will_violate(counts, domain, constraint.max_skew)?;
            if violated {
                verdicts.push(Spread::Violated(index));
                continue 'clusters;
            }
            score -= change;
        }
        for (constraint, counts) in schedule_anyway.iter().zip(&lenient) {
            let Some(domain) = cluster.labels.get(&constraint.topology_key) else {
                continue;
            };
            let (violated, change) = will_violate(counts, domain, constraint.max_skew)?;
            score += if violated { VIOLATION_PENALTY } else { -change };
        }
        verdicts.push(Spread::Score(score));
    }
    Ok(verdicts)
}

/// `violated doNotSchedule topology spread constraint "<key>" (max skew <n>)`. The key is
/// quoted as JSON quotes it, which is Go's `%q` for every character a label key may hold.
pub(crate) fn violation(constraint: &TopologySpreadConstraint) -> String {
    let key = serde_json::Value::from(constraint.topology_key.as_str());
    format!(
        "violated doNotSchedule topology spread constraint {key} (max skew {})",
        constraint.max_skew
    )
}

/// The constraints split by what they do when unsatisfied, order kept (`classifyConstraints`).
pub(crate) fn classify(
    constraints: &[TopologySpreadConstraint],
) -> (
    Vec<&TopologySpreadConstraint>,
    Vec<&TopologySpreadConstraint>,
) {
    constraints
        .iter()
        .partition(|constraint| constraint.when_unsatisfiable == WhenUnsatisfiable::DoNotSchedule)
}

/// `PreFilter` (which prepares the state `Filter` and `Score` read): the skip status, if the
/// plugin skips, and the verdicts (computed even when only ScheduleAnyway constraints exist).
pub(crate) fn prepare<C: Borrow<MemberCluster>>(
    policy: Option<&PlacementPolicy>,
    clusters: &[C],
    has_current_binding: &[bool],
) -> Result<(Option<Status>, Vec<Spread>), SpreadError> {
    let Some(policy) = policy else {
        return Ok((Some(Status::skip(NO_POLICY)), Vec::new()));
    };
    if policy.topology_spread_constraints.is_empty() {
        return Ok((Some(Status::skip(NO_CONSTRAINTS)), Vec::new()));
    }
    let (do_not_schedule, schedule_anyway) = classify(&policy.topology_spread_constraints);
    let verdicts = evaluate(
        clusters,
        has_current_binding,
        &do_not_schedule,
        &schedule_anyway,
    )?;
    let status = do_not_schedule
        .is_empty()
        .then(|| Status::skip(NO_DO_NOT_SCHEDULE));
    Ok((status, verdicts))
}

/// `PostBatch`: with spread constraints the hub binds one cluster per cycle (and requeues).
pub(crate) fn batch_limit(policy: Option<&PlacementPolicy>) -> Result<usize, Status> {
    match policy {
        None => Err(Status {
            code: Code::InternalError,
            reasons: vec![NO_POLICY.to_string(), "failed to get policy".to_string()],
        }),
        Some(policy) if policy.topology_spread_constraints.is_empty() => {
            Err(Status::skip(NO_CONSTRAINTS))
        }
        Some(_) => Ok(1),
    }
}
