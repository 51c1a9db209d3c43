//! TaintToleration (upstream `plugins/tainttoleration`): every taint must be tolerated.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use crate::model::{Cluster, Taint, TaintEffect};
use crate::ocm::conditions::Status;
use crate::ocm::feasible::Feasible;
use crate::ocm::memo::Memo;
use crate::ocm::model::placement::{Toleration, TolerationOperator};
use crate::ocm::previous::OwnClusters;
use crate::ocm::trace::Verdict as PlacementVerdict;
use crate::selector::ClusterBits;

use super::{Filter, FilterContext, Filtered};

pub(crate) const NAME: &str = "TaintToleration";

/// The plugin.
pub(crate) struct TaintToleration;

impl Filter for TaintToleration {
    fn name(&self) -> &'static str {
        NAME
    }

    fn filter<'f>(
        &self,
        context: &FilterContext<'f>,
        clusters: Feasible,
        filtered: &mut Filtered<'f>,
    ) -> Result<Feasible, Status> {
        let input = context.input;
        let (feasible, until) = input
            .scheduler
            .taints
            .filter(
                clusters,
                &input.spec.tolerations,
                context.own,
                input.now,
                filtered.rejected(context),
            )
            .map_err(|error| Status::Misconfigured {
                plugin: NAME.to_string(),
                message: error.to_string(),
            })?;
        filtered.until = until;
        Ok(feasible)
    }

    /// The earliest future expiry of a toleration on a cluster of the placement's own
    /// previous decisions.
    fn requeue_at(&self, context: &FilterContext) -> Option<i64> {
        let own = context.own?;
        let fleet = context.fleet();
        let input = context.input;
        own.indices()
            .filter_map(|index| {
                match check(
                    fleet.cluster(index),
                    &input.spec.tolerations,
                    true,
                    input.now,
                ) {
                    Tolerance::Tolerated { until } => until,
                    Tolerance::NotTolerated { .. } | Tolerance::Expired { .. } => None,
                }
            })
            .min()
    }
}

/// Taints the registration controller puts on clusters that are not available.
pub(crate) const UNAVAILABLE_TAINT: &str = "cluster.open-cluster-management.io/unavailable";
pub(crate) const UNREACHABLE_TAINT: &str = "cluster.open-cluster-management.io/unreachable";
/// The ManagedCluster condition the registration controller keeps; not True means the cluster
/// is offline.
pub(crate) const AVAILABLE_CONDITION: &str = "ManagedClusterConditionAvailable";

/// Go's zero `time.Time` (0001-01-01T00:00:00Z) in Unix seconds: a taint without
/// `timeAdded` was added then, so any `tolerationSeconds` has long expired.
pub(crate) const ZERO_TIME: i64 = -62_135_596_800;

/// A toleration upstream's filter refuses (Misconfigured), with upstream's message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TolerationError {
    #[error("If the key is empty, operator must be Exists.")]
    EmptyKeyWithoutExists,
    #[error("If the operator is Exists, the value should be empty.")]
    ExistsWithValue,
}

/// The placement's tolerations are checked before any cluster, with upstream's messages.
pub(crate) fn validate(tolerations: &[Toleration]) -> Result<(), TolerationError> {
    for toleration in tolerations {
        if toleration.key.is_empty() && toleration.operator != TolerationOperator::Exists {
            return Err(TolerationError::EmptyKeyWithoutExists);
        }
        if toleration.operator == TolerationOperator::Exists && !toleration.value.is_empty() {
            return Err(TolerationError::ExistsWithValue);
        }
    }
    Ok(())
}

/// The cluster's taints plus the built-in one an offline cluster carries (unless its
/// exported `spec.taints` already has it). Borrowed: the filter runs over every candidate.
pub(crate) fn effective_taints(cluster: &Cluster) -> impl Iterator<Item = Cow<'_, Taint>> {
    let builtin = (!cluster.online)
        .then(|| {
            match cluster
                .conditions
                .get(AVAILABLE_CONDITION)
                .map(String::as_str)
            {
                Some("False") => UNAVAILABLE_TAINT,
                _ => UNREACHABLE_TAINT,
            }
        })
        .filter(|key| !cluster.taints.iter().any(|taint| taint.key == *key))
        .map(|key| {
            Cow::Owned(Taint {
                key: key.to_string(),
                value: String::new(),
                effect: TaintEffect::NoSelect,
                time_added: None,
            })
        });
    cluster.taints.iter().map(Cow::Borrowed).chain(builtin)
}

/// How a cluster's taints fare against the placement's tolerations. A refusal names the
/// taint; [`describe`] spells it out for a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tolerance<'a> {
    /// Every taint is tolerated; `until` is the earliest `tolerationSeconds` expiry.
    Tolerated {
        until: Option<i64>,
    },
    NotTolerated {
        taint: Cow<'a, Taint>,
    },
    /// A toleration matched but its `tolerationSeconds` ran out at `at`.
    Expired {
        taint: Cow<'a, Taint>,
        at: i64,
    },
}

/// Which clusters a toleration list admits at `now`, judged once per distinct list for the
/// whole fleet: a placement then tests a bit instead of reading each tainted cluster.
/// Judged as for a cluster outside the placement's own decisions (`NoSelectIfNew` refuses).
#[derive(Debug)]
pub(crate) struct Admitted {
    pub clusters: ClusterBits,
    /// Inventory index → earliest `tolerationSeconds` expiry, for admitted tainted clusters.
    pub until: HashMap<usize, i64>,
}

impl Admitted {
    pub(crate) fn new(clusters: &[Cluster], tolerations: &[Toleration], now: i64) -> Admitted {
        let mut until = HashMap::new();
        let admitted = clusters.iter().enumerate().filter_map(|(index, cluster)| {
            match check(cluster, tolerations, false, now) {
                Tolerance::Tolerated { until: expiry } => {
                    if let Some(at) = expiry {
                        until.insert(index, at);
                    }
                    Some(index)
                }
                Tolerance::NotTolerated { .. } | Tolerance::Expired { .. } => None,
            }
        });
        let clusters = ClusterBits::from_ids(clusters.len(), admitted);
        Admitted { clusters, until }
    }
}

/// What the filter keeps of the whole run: the clusters with nothing to tolerate, and per
/// distinct toleration list and time the clusters it admits (placements share a handful of
/// lists, so the filter then reads no cluster).
pub struct Taints<'a> {
    clusters: &'a [Cluster],
    /// Online with no taint.
    untainted: ClusterBits,
    admitted: Memo<(Vec<Toleration>, i64), Arc<Admitted>>,
}

/// The clusters that pass, and for tainted ones with an expiring toleration, when it expires.
pub(crate) type Tolerated = (Feasible, HashMap<usize, i64>);

impl<'a> Taints<'a> {
    pub fn new(clusters: &'a [Cluster]) -> Taints<'a> {
        let untainted = ClusterBits::from_ids(
            clusters.len(),
            clusters
                .iter()
                .enumerate()
                .filter(|(_, cluster)| cluster.online && cluster.taints.is_empty())
                .map(|(index, _)| index),
        );
        Taints {
            clusters,
            untainted,
            admitted: Memo::default(),
        }
    }

    /// The clusters `tolerations` admit at `now` (outside a placement's own decisions).
    fn admitted(&self, tolerations: &[Toleration], now: i64) -> Arc<Admitted> {
        self.admitted
            .get_or_insert_with(&(tolerations.to_vec(), now), || {
                Arc::new(Admitted::new(self.clusters, tolerations, now))
            })
    }

    /// The filter over `clusters` (a list keeps its order). A cluster of the placement's
    /// `own` decisions tolerates `NoSelectIfNew`, so it is judged alone; the others read the
    /// fleet-wide [`Admitted`] bits (a bitset is narrowed by them, never listed), and are
    /// judged one by one only to record why they failed. An invalid toleration is upstream's
    /// Misconfigured message.
    pub fn filter(
        &self,
        clusters: Feasible,
        tolerations: &[Toleration],
        own: Option<&OwnClusters>,
        now: i64,
        mut rejected: Option<&mut HashMap<usize, PlacementVerdict>>,
    ) -> Result<Tolerated, TolerationError> {
        let mut until = HashMap::new();
        if clusters.is_empty() {
            return Ok((clusters, until));
        }
        validate(tolerations)?;
        let admitted = self.admitted(tolerations, now);
        if own.is_none() && rejected.is_none() {
            // Nothing to judge alone and no reason to record: the fleet-wide bits decide
            // (they admit every untainted cluster too, and their expiries are only for
            // tainted clusters).
            let feasible = match clusters {
                Feasible::Bits { mut bits, .. } => {
                    bits.and_assign(&admitted.clusters);
                    Feasible::from_bits(bits)
                }
                listed @ (Feasible::List(_) | Feasible::Candidates(_)) => Feasible::List(
                    listed
                        .list()
                        .iter()
                        .copied()
                        .filter(|&index| admitted.clusters.contains(index))
                        .collect(),
                ),
            };
            if let Some(bits) = feasible.bits() {
                until.extend(
                    admitted
                        .until
                        .iter()
                        .filter(|(&index, _)| bits.contains(index))
                        .map(|(&index, &at)| (index, at)),
                );
            } else if !admitted.until.is_empty() {
                until.extend(
                    feasible
                        .list()
                        .iter()
                        .filter(|&&index| !self.untainted.contains(index))
                        .filter_map(|&index| Some((index, *admitted.until.get(&index)?))),
                );
            }
            return Ok((feasible, until));
        }
        let mut feasible = Vec::with_capacity(clusters.len());
        for &index in clusters.list() {
            if self.untainted.contains(index) {
                feasible.push(index);
                continue;
            }
            let in_own = own.is_some_and(|own| own.contains(index));
            if !in_own && admitted.clusters.contains(index) {
                feasible.push(index);
                if let Some(&expiry) = admitted.until.get(&index) {
                    until.insert(index, expiry);
                }
                continue;
            }
            if !in_own && rejected.is_none() {
                continue;
            }
            match check(&self.clusters[index], tolerations, in_own, now) {
                Tolerance::Tolerated { until: expiry } => {
                    feasible.push(index);
                    if let Some(expiry) = expiry {
                        until.insert(index, expiry);
                    }
                }
                Tolerance::NotTolerated { taint } => {
                    if let Some(rejected) = rejected.as_deref_mut() {
                        let taint = describe(&taint);
                        rejected.insert(index, PlacementVerdict::TaintNotTolerated { taint });
                    }
                }
                Tolerance::Expired { taint, at } => {
                    if let Some(rejected) = rejected.as_deref_mut() {
                        let taint = describe(&taint);
                        rejected.insert(index, PlacementVerdict::TolerationExpired { taint, at });
                    }
                }
            }
        }
        Ok((Feasible::List(feasible), until))
    }
}

pub(crate) fn check<'a>(
    cluster: &'a Cluster,
    tolerations: &[Toleration],
    in_decision: bool,
    now: i64,
) -> Tolerance<'a> {
    if cluster.online && cluster.taints.is_empty() {
        return Tolerance::Tolerated { until: None };
    }
    let mut until: Option<i64> = None;
    for taint in effective_taints(cluster) {
        match taint_tolerance(&taint, tolerations, in_decision, now) {
            Verdict::Tolerated(Some(at)) => {
                until = Some(until.map_or(at, |seen| seen.min(at)));
            }
            Verdict::Tolerated(None) => {}
            Verdict::NotTolerated => return Tolerance::NotTolerated { taint },
            Verdict::Expired(at) => return Tolerance::Expired { taint, at },
        }
    }
    Tolerance::Tolerated { until }
}

/// One taint's fate; [`check`] attaches the taint to a refusal.
enum Verdict {
    Tolerated(Option<i64>),
    NotTolerated,
    Expired(i64),
}

fn taint_tolerance(
    taint: &Taint,
    tolerations: &[Toleration],
    in_decision: bool,
    now: i64,
) -> Verdict {
    if taint.effect == TaintEffect::PreferNoSelect
        || (taint.effect == TaintEffect::NoSelectIfNew && in_decision)
    {
        return Verdict::Tolerated(None);
    }
    let mut expired = None;
    for toleration in tolerations
        .iter()
        .filter(|toleration| matches(taint, toleration))
    {
        let Some(seconds) = toleration.toleration_seconds else {
            return Verdict::Tolerated(None);
        };
        let at = taint
            .time_added
            .unwrap_or(ZERO_TIME)
            .saturating_add(seconds);
        if now < at {
            return Verdict::Tolerated(Some(at));
        }
        expired.get_or_insert(at);
    }
    match expired {
        Some(at) => Verdict::Expired(at),
        None => Verdict::NotTolerated,
    }
}

fn matches(taint: &Taint, toleration: &Toleration) -> bool {
    if toleration
        .effect
        .is_some_and(|effect| effect != taint.effect)
    {
        return false;
    }
    if !toleration.key.is_empty() && toleration.key != taint.key {
        return false;
    }
    match toleration.operator {
        TolerationOperator::Equal => toleration.value == taint.value,
        TolerationOperator::Exists => true,
    }
}

/// `key=value:Effect`, as kubectl prints taints.
pub(crate) fn describe(taint: &Taint) -> String {
    let mut text = taint.key.clone();
    if !taint.value.is_empty() {
        text.push('=');
        text.push_str(&taint.value);
    }
    text.push_str(&format!(":{:?}", taint.effect));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::cluster;

    fn tainted(effect: TaintEffect, time_added: Option<i64>) -> Cluster {
        let mut tainted = cluster("c").taint("key1", "value1", effect).build();
        tainted.taints[0].time_added = time_added;
        tainted
    }

    fn exists(key: &str, seconds: Option<i64>) -> Toleration {
        Toleration {
            key: key.into(),
            operator: TolerationOperator::Exists,
            value: String::new(),
            effect: None,
            toleration_seconds: seconds,
        }
    }

    #[test]
    fn untolerated_taint_is_named() {
        let cluster = tainted(TaintEffect::NoSelect, None);
        let verdict = check(&cluster, &[], false, 0);
        let Tolerance::NotTolerated { taint } = verdict else {
            panic!("expected a refusal, got {verdict:?}");
        };
        assert_eq!(describe(&taint), "key1=value1:NoSelect");
    }

    #[test]
    fn toleration_seconds_give_expiry() {
        let cluster = tainted(TaintEffect::NoSelect, Some(100));
        let verdict = check(&cluster, &[exists("key1", Some(10))], false, 105);
        assert_eq!(verdict, Tolerance::Tolerated { until: Some(110) });
    }

    #[test]
    fn expired_toleration_reports_when() {
        let cluster = tainted(TaintEffect::NoSelect, Some(100));
        let verdict = check(&cluster, &[exists("key1", Some(10))], false, 110);
        let Tolerance::Expired { taint, at } = verdict else {
            panic!("expected an expiry, got {verdict:?}");
        };
        assert_eq!(
            (describe(&taint).as_str(), at),
            ("key1=value1:NoSelect", 110)
        );
    }

    #[test]
    fn offline_cluster_is_unreachable_without_available_condition() {
        let cluster = cluster("c").offline().build();
        let taints: Vec<_> = effective_taints(&cluster).collect();
        assert_eq!(taints.len(), 1);
        assert_eq!(taints[0].key, UNREACHABLE_TAINT);
        assert_eq!(taints[0].effect, TaintEffect::NoSelect);
    }

    #[test]
    fn offline_cluster_with_available_false_is_unavailable() {
        let cluster = cluster("c")
            .offline()
            .condition(AVAILABLE_CONDITION, "False")
            .build();
        let first = effective_taints(&cluster)
            .next()
            .map(|taint| taint.key.clone());
        assert_eq!(first.as_deref(), Some(UNAVAILABLE_TAINT));
    }

    /// The untraced filter reads only the fleet-wide bits; it keeps the clusters, in order,
    /// and the expiries that judging each cluster (as a traced run does) keeps.
    #[test]
    fn the_bits_keep_what_judging_each_cluster_keeps() {
        let clusters = vec![
            cluster("a").build(),
            tainted(TaintEffect::NoSelect, Some(100)),
            cluster("c").offline().build(),
            tainted(TaintEffect::PreferNoSelect, None),
            cluster("e")
                .taint("other", "", TaintEffect::NoSelect)
                .build(),
        ];
        let taints = Taints::new(&clusters);
        for tolerations in [
            vec![],
            vec![exists("key1", Some(10))],
            vec![exists("", None)],
        ] {
            let order = vec![4, 3, 2, 1, 0];
            let listed = |clusters: Feasible| {
                let (feasible, until) = taints
                    .filter(clusters, &tolerations, None, 105, None)
                    .unwrap();
                (feasible.list().to_vec(), until)
            };
            let untraced = listed(Feasible::from(order.clone()));
            let mut rejected = HashMap::new();
            let (traced, traced_until) = taints
                .filter(
                    Feasible::from(order.clone()),
                    &tolerations,
                    None,
                    105,
                    Some(&mut rejected),
                )
                .unwrap();
            assert_eq!(untraced, (traced.list().to_vec(), traced_until));
            // A bitset is narrowed to the same clusters, listed in inventory order.
            let (mut sorted, until) = untraced;
            sorted.sort_unstable();
            let bits = Feasible::from_bits(ClusterBits::from_ids(clusters.len(), order));
            assert_eq!(listed(bits), (sorted, until), "{tolerations:?}");
        }
        let (tolerated, until) = taints
            .filter(
                Feasible::from(vec![1, 0]),
                &[exists("key1", Some(10))],
                None,
                105,
                None,
            )
            .unwrap();
        assert_eq!(
            (tolerated.list(), until),
            (&[1, 0][..], HashMap::from([(1, 110)]))
        );
    }

    #[test]
    fn offline_taint_is_tolerated_by_exists() {
        let cluster = cluster("c").offline().build();
        let verdict = check(&cluster, &[exists(UNREACHABLE_TAINT, None)], false, 0);
        assert_eq!(verdict, Tolerance::Tolerated { until: None });
    }
}
