//! TopologySpreadConstraints (`plugins/topologyspreadconstraints/utils.go`): per constraint,
//! the clusters with a current binding are counted by the value of the topology key over
//! every MemberCluster; a cluster is filtered when placing there would break a DoNotSchedule
//! constraint and scored by the skew it would add.

use std::borrow::Borrow;
use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::kubefleet::fleet::Fleet;
use crate::kubefleet::model::member_cluster::MemberCluster;
use crate::kubefleet::model::policy::{
    PlacementPolicy, TopologySpreadConstraint, WhenUnsatisfiable,
};
use crate::kubefleet::status::{Code, Status};
use crate::selector::go_quote;

pub(crate) const NO_POLICY: &str = "policy does not exist";
pub(crate) const NO_CONSTRAINTS: &str = "no topology spread constraint is present";
pub(crate) const NO_DO_NOT_SCHEDULE: &str =
    "no DoNotSchedule topology spread constraint is present";
/// What a violated ScheduleAnyway constraint adds to the score.
const VIOLATION_PENALTY: i32 = -1000;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SpreadError {
    /// Only `willViolate` given counts of other clusters meets it: the engine counts every
    /// domain of the clusters it evaluates.
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

/// Every cluster's domain of one topology key: `of[i]` indexes `names`, the distinct values
/// of the key (each held by some cluster), so counting by domain indexes a vector.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Domains<'c> {
    pub(crate) of: Vec<Option<u32>>,
    pub(crate) names: Vec<&'c str>,
}

impl<'c> Domains<'c> {
    /// Each cluster's value of the label `key`, in `clusters` order.
    fn of<C: Borrow<MemberCluster>>(key: &str, clusters: &'c [C]) -> Domains<'c> {
        let mut index: BTreeMap<&'c str, u32> = BTreeMap::new();
        let mut names = Vec::new();
        let of = clusters
            .iter()
            .map(|cluster| {
                let value = cluster.borrow().labels.get(key)?;
                Some(*index.entry(value.as_str()).or_insert_with(|| {
                    names.push(value.as_str());
                    (names.len() - 1) as u32
                }))
            })
            .collect();
        Domains { of, names }
    }
}

/// [`DomainCounts`] by domain index.
struct Tally {
    counts: Vec<i32>,
    smallest: i32,
    second_smallest: i32,
    largest: i32,
}

impl Tally {
    fn new(domains: &Domains<'_>, has_current_binding: &[bool]) -> Tally {
        let mut counts = vec![0; domains.names.len()];
        for (index, domain) in domains.of.iter().enumerate() {
            if let Some(domain) = domain {
                if has_current_binding.get(index).copied().unwrap_or(false) {
                    counts[*domain as usize] += 1;
                }
            }
        }
        let mut sorted = counts.clone();
        sorted.sort_unstable();
        let (smallest, second_smallest, largest) = match sorted.as_slice() {
            [] => (-1, -1, -1),
            [only] => (*only, *only, *only),
            [first, second] => (*first, *second, *second),
            [first, second, .., last] => (*first, *second, *last),
        };
        Tally {
            counts,
            smallest,
            second_smallest,
            largest,
        }
    }

    /// [`will_violate`] for the domain at `domain` of `domains`.
    fn will_violate(
        &self,
        domains: &Domains<'_>,
        domain: u32,
        max_skew: i32,
    ) -> Result<(bool, i32), SpreadError> {
        let count = self.counts[domain as usize];
        skew_change(
            count,
            (self.smallest, self.second_smallest, self.largest),
            max_skew,
        )
        .ok_or_else(|| SpreadError::OutOfRange {
            domain: domains.names[domain as usize].to_string(),
            count,
            smallest: self.smallest,
            largest: self.largest,
        })
    }
}

/// `countByDomain`: every cluster labelled with `key` makes its domain exist (an unusable
/// cluster makes a domain with count 0); `has_current_binding[i]` says whether `clusters[i]`
/// has a current scheduled or bound binding (obsolete ones do not count).
pub(crate) fn count_by_domain<'c, C: Borrow<MemberCluster>>(
    key: &str,
    clusters: &'c [C],
    has_current_binding: &[bool],
) -> DomainCounts<'c> {
    let domains = Domains::of(key, clusters);
    let tally = Tally::new(&domains, has_current_binding);
    DomainCounts {
        counts: domains.names.iter().copied().zip(tally.counts).collect(),
        smallest: tally.smallest,
        second_smallest: tally.second_smallest,
        largest: tally.largest,
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
    skew_change(count, (smallest, second, largest), max_skew).ok_or_else(|| {
        SpreadError::OutOfRange {
            domain: domain.to_string(),
            count,
            smallest,
            largest,
        }
    })
}

/// `willViolate` past the domain's lookup: `None` when `count` lies outside
/// `[smallest, largest]`.
fn skew_change(
    count: i32,
    (smallest, second, largest): (i32, i32, i32),
    max_skew: i32,
) -> Option<(bool, i32)> {
    if count < smallest || count > largest {
        return None;
    }
    // Go's int32 arithmetic wraps (counts given as a vector file's input can reach it).
    let skew = largest.wrapping_sub(smallest);
    Some(if largest == smallest {
        (skew.wrapping_add(1) > max_skew, 1)
    } else if count == smallest && smallest != second {
        (skew.wrapping_sub(1) > max_skew, -1)
    } else if count == largest {
        (skew.wrapping_add(1) > max_skew, 1)
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
    evaluate_domains(
        clusters.len(),
        |key| Cow::Owned(Domains::of(key, clusters)),
        has_current_binding,
        do_not_schedule,
        schedule_anyway,
    )
}

/// One constraint's domains with their counts, and `willViolate` of each domain once found.
struct Counted<'d, 'c> {
    domains: Cow<'d, Domains<'c>>,
    tally: Tally,
    verdicts: Vec<Option<(bool, i32)>>,
}

impl Counted<'_, '_> {
    /// `willViolate` of the cluster at `cluster`; `None` without the topology key.
    fn will_violate(
        &mut self,
        cluster: usize,
        max_skew: i32,
    ) -> Result<Option<(bool, i32)>, SpreadError> {
        let Some(domain) = self.domains.of[cluster] else {
            return Ok(None);
        };
        if let Some(verdict) = self.verdicts[domain as usize] {
            return Ok(Some(verdict));
        }
        let verdict = self.tally.will_violate(&self.domains, domain, max_skew)?;
        self.verdicts[domain as usize] = Some(verdict);
        Ok(Some(verdict))
    }
}

/// [`evaluate`] over `clusters` clusters' domains: `domains_of(key)` gives every cluster's
/// domain of the topology key `key`.
fn evaluate_domains<'d, 'c: 'd>(
    clusters: usize,
    domains_of: impl Fn(&str) -> Cow<'d, Domains<'c>>,
    has_current_binding: &[bool],
    do_not_schedule: &[&TopologySpreadConstraint],
    schedule_anyway: &[&TopologySpreadConstraint],
) -> Result<Vec<Spread>, SpreadError> {
    let count = |constraint: &&TopologySpreadConstraint| {
        let domains = domains_of(&constraint.topology_key);
        let tally = Tally::new(&domains, has_current_binding);
        Counted {
            verdicts: vec![None; domains.names.len()],
            domains,
            tally,
        }
    };
    let mut strict: Vec<_> = do_not_schedule.iter().map(count).collect();
    let mut lenient: Vec<_> = schedule_anyway.iter().map(count).collect();
    let mut verdicts = Vec::with_capacity(clusters);
    'clusters: for cluster in 0..clusters {
        let mut score = 0i32;
        for (index, (constraint, counted)) in do_not_schedule.iter().zip(&mut strict).enumerate() {
            let Some((violated, change)) = counted.will_violate(cluster, constraint.max_skew)?
            else {
                continue;
            };
            if violated {
                verdicts.push(Spread::Violated(index));
                continue 'clusters;
            }
            score -= change;
        }
        for (constraint, counted) in schedule_anyway.iter().zip(&mut lenient) {
            let Some((violated, change)) = counted.will_violate(cluster, constraint.max_skew)?
            else {
                continue;
            };
            score += if violated { VIOLATION_PENALTY } else { -change };
        }
        verdicts.push(Spread::Score(score));
    }
    Ok(verdicts)
}

/// `violated doNotSchedule topology spread constraint "<key>" (max skew <n>)`, the key
/// quoted with Go's `%q`.
pub(crate) fn violation(constraint: &TopologySpreadConstraint) -> String {
    let key = go_quote(&constraint.topology_key);
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
    prepare_domains(
        policy,
        clusters.len(),
        |key| Cow::Owned(Domains::of(key, clusters)),
        has_current_binding,
    )
}

/// [`prepare`] over a run's fleet, whose labels are ids.
pub(crate) fn prepare_fleet(
    policy: Option<&PlacementPolicy>,
    fleet: &Fleet<'_>,
    has_current_binding: &[bool],
) -> Result<(Option<Status>, Vec<Spread>), SpreadError> {
    prepare_domains(
        policy,
        fleet.clusters().len(),
        |key| Cow::Borrowed(fleet.domains(key)),
        has_current_binding,
    )
}

fn prepare_domains<'d, 'c: 'd>(
    policy: Option<&PlacementPolicy>,
    clusters: usize,
    domains_of: impl Fn(&str) -> Cow<'d, Domains<'c>>,
    has_current_binding: &[bool],
) -> Result<(Option<Status>, Vec<Spread>), SpreadError> {
    let Some(policy) = policy else {
        return Ok((Some(Status::skip(NO_POLICY)), Vec::new()));
    };
    if policy.topology_spread_constraints.is_empty() {
        return Ok((Some(Status::skip(NO_CONSTRAINTS)), Vec::new()));
    }
    let (do_not_schedule, schedule_anyway) = classify(&policy.topology_spread_constraints);
    let verdicts = evaluate_domains(
        clusters,
        domains_of,
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
