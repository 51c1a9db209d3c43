//! TaintToleration (upstream `plugins/tainttoleration`): every taint must be tolerated.

use std::fmt;

use crate::model::placement::{Toleration, TolerationOperator};
use crate::model::{Cluster, Taint, TaintEffect};

pub const NAME: &str = "TaintToleration";

/// Taints the registration controller puts on clusters that are not available.
pub const UNAVAILABLE_TAINT: &str = "cluster.open-cluster-management.io/unavailable";
pub const UNREACHABLE_TAINT: &str = "cluster.open-cluster-management.io/unreachable";
const AVAILABLE_CONDITION: &str = "ManagedClusterConditionAvailable";

/// Go's zero `time.Time` (0001-01-01T00:00:00Z) in Unix seconds: a taint without
/// `timeAdded` was added then, so any `tolerationSeconds` has long expired.
pub const ZERO_TIME: i64 = -62_135_596_800;

/// The placement's tolerations are checked before any cluster, with upstream's messages.
pub fn validate(tolerations: &[Toleration]) -> Result<(), String> {
    for toleration in tolerations {
        if toleration.key.is_empty() && toleration.operator != TolerationOperator::Exists {
            return Err("If the key is empty, operator must be Exists.".to_string());
        }
        if toleration.operator == TolerationOperator::Exists && !toleration.value.is_empty() {
            return Err("If the operator is Exists, the value should be empty.".to_string());
        }
    }
    Ok(())
}

/// The cluster's taints plus the built-in one an offline cluster carries (unless its
/// exported `spec.taints` already has it).
pub fn effective_taints(cluster: &Cluster) -> Vec<Taint> {
    let mut taints = cluster.taints.clone();
    if !cluster.online {
        let key = match cluster
            .conditions
            .get(AVAILABLE_CONDITION)
            .map(String::as_str)
        {
            Some("False") => UNAVAILABLE_TAINT,
            _ => UNREACHABLE_TAINT,
        };
        if !taints.iter().any(|taint| taint.key == key) {
            taints.push(Taint {
                key: key.to_string(),
                value: String::new(),
                effect: TaintEffect::NoSelect,
                time_added: None,
            });
        }
    }
    taints
}

/// How a cluster's taints fare against the placement's tolerations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tolerance {
    /// Every taint is tolerated; `until` is the earliest `tolerationSeconds` expiry.
    Tolerated {
        until: Option<i64>,
    },
    NotTolerated {
        taint: String,
    },
    /// A toleration matched but its `tolerationSeconds` ran out at `at`.
    Expired {
        taint: String,
        at: i64,
    },
}

pub fn check(
    cluster: &Cluster,
    tolerations: &[Toleration],
    in_decision: bool,
    now: i64,
) -> Tolerance {
    if cluster.online && cluster.taints.is_empty() {
        return Tolerance::Tolerated { until: None };
    }
    let mut until: Option<i64> = None;
    for taint in effective_taints(cluster) {
        match taint_tolerance(&taint, tolerations, in_decision, now) {
            Tolerance::Tolerated { until: Some(at) } => {
                until = Some(until.map_or(at, |seen| seen.min(at)));
            }
            Tolerance::Tolerated { until: None } => {}
            refused => return refused,
        }
    }
    Tolerance::Tolerated { until }
}

fn taint_tolerance(
    taint: &Taint,
    tolerations: &[Toleration],
    in_decision: bool,
    now: i64,
) -> Tolerance {
    if taint.effect == TaintEffect::PreferNoSelect
        || (taint.effect == TaintEffect::NoSelectIfNew && in_decision)
    {
        return Tolerance::Tolerated { until: None };
    }
    let mut expired = None;
    for toleration in tolerations
        .iter()
        .filter(|toleration| matches(taint, toleration))
    {
        let Some(seconds) = toleration.toleration_seconds else {
            return Tolerance::Tolerated { until: None };
        };
        let at = taint
            .time_added
            .unwrap_or(ZERO_TIME)
            .saturating_add(seconds);
        if now < at {
            return Tolerance::Tolerated { until: Some(at) };
        }
        expired.get_or_insert(at);
    }
    match expired {
        Some(at) => Tolerance::Expired {
            taint: TaintText(taint).to_string(),
            at,
        },
        None => Tolerance::NotTolerated {
            taint: TaintText(taint).to_string(),
        },
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
struct TaintText<'t>(&'t Taint);

impl fmt::Display for TaintText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let taint = self.0;
        f.write_str(&taint.key)?;
        if !taint.value.is_empty() {
            write!(f, "={}", taint.value)?;
        }
        write!(f, ":{:?}", taint.effect)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tainted(effect: TaintEffect, time_added: Option<i64>) -> Cluster {
        Cluster {
            name: "c".into(),
            online: true,
            taints: vec![Taint {
                key: "key1".into(),
                value: "value1".into(),
                effect,
                time_added,
            }],
            ..Cluster::default()
        }
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
        let verdict = check(&tainted(TaintEffect::NoSelect, None), &[], false, 0);
        assert_eq!(
            verdict,
            Tolerance::NotTolerated {
                taint: "key1=value1:NoSelect".into()
            }
        );
    }

    #[test]
    fn toleration_seconds_give_expiry() {
        let verdict = check(
            &tainted(TaintEffect::NoSelect, Some(100)),
            &[exists("key1", Some(10))],
            false,
            105,
        );
        assert_eq!(verdict, Tolerance::Tolerated { until: Some(110) });
    }

    #[test]
    fn expired_toleration_reports_when() {
        let verdict = check(
            &tainted(TaintEffect::NoSelect, Some(100)),
            &[exists("key1", Some(10))],
            false,
            110,
        );
        assert_eq!(
            verdict,
            Tolerance::Expired {
                taint: "key1=value1:NoSelect".into(),
                at: 110
            }
        );
    }

    #[test]
    fn offline_cluster_is_unreachable_without_available_condition() {
        let cluster = Cluster {
            name: "c".into(),
            online: false,
            ..Cluster::default()
        };
        let taints = effective_taints(&cluster);
        assert_eq!(taints.len(), 1);
        assert_eq!(taints[0].key, UNREACHABLE_TAINT);
        assert_eq!(taints[0].effect, TaintEffect::NoSelect);
    }

    #[test]
    fn offline_cluster_with_available_false_is_unavailable() {
        let mut cluster = Cluster {
            name: "c".into(),
            online: false,
            ..Cluster::default()
        };
        cluster
            .conditions
            .insert(AVAILABLE_CONDITION.into(), "False".into());
        assert_eq!(effective_taints(&cluster)[0].key, UNAVAILABLE_TAINT);
    }

    #[test]
    fn offline_taint_is_tolerated_by_exists() {
        let cluster = Cluster {
            name: "c".into(),
            online: false,
            ..Cluster::default()
        };
        let verdict = check(&cluster, &[exists(UNREACHABLE_TAINT, None)], false, 0);
        assert_eq!(verdict, Tolerance::Tolerated { until: None });
    }
}
