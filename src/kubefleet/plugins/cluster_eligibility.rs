//! ClusterEligibility (`pkg/scheduler/clustereligibilitychecker/checker.go IsEligible`), at
//! the scheduler's default timeouts. Only the member agent's own status is read, never the
//! cluster's `status.conditions`; `now` is an input (engines never read the clock).

use std::fmt;

use crate::kubefleet::model::member_cluster::{MemberCluster, MEMBER_AGENT};

/// `clusterHeartbeatCheckTimeout` and `clusterHealthCheckTimeout`: five minutes each.
const TIMEOUT_NANOS: i128 = 5 * 60 * 1_000_000_000;

/// Why a cluster cannot take new placements, in the order upstream checks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Ineligible {
    Left,
    AgentNotOnline,
    NoRecentHeartbeat { minutes_ago: f64 },
    NotJoined,
    NoHealthCondition,
    Unhealthy { minutes_ago: f64 },
}

impl Ineligible {
    /// The reason without its `(last … minutes ago)` tail.
    pub(crate) fn prefix(self) -> &'static str {
        match self {
            Ineligible::Left => "cluster has left the fleet",
            Ineligible::AgentNotOnline => {
                "cluster is not connected to the fleet: member agent not online yet"
            }
            Ineligible::NoRecentHeartbeat { .. } => {
                "cluster is not connected to the fleet: no recent heartbeat signals"
            }
            Ineligible::NotJoined => "cluster is not connected to the fleet: member agent not joined yet",
            Ineligible::NoHealthCondition => {
                "cluster is not connected to the fleet: health condition from member agent is not available"
            }
            Ineligible::Unhealthy { .. } => {
                "cluster is not connected to the fleet: unhealthy for a prolonged period of time"
            }
        }
    }
}

impl fmt::Display for Ineligible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.prefix())?;
        match self {
            Ineligible::NoRecentHeartbeat { minutes_ago } => {
                write!(f, " (last received {minutes_ago:.2} minutes ago)")
            }
            Ineligible::Unhealthy { minutes_ago } => {
                write!(f, " (last transitioned {minutes_ago:.2} minutes ago)")
            }
            _ => Ok(()),
        }
    }
}

/// `IsEligible`: `Ok` when the cluster may take new placements at `now` (Unix seconds).
pub(crate) fn check(cluster: &MemberCluster, now: i64) -> Result<(), Ineligible> {
    if cluster.deletion_timestamp.is_some() {
        return Err(Ineligible::Left);
    }
    let Some(agent) = cluster.agent(MEMBER_AGENT) else {
        return Err(Ineligible::AgentNotOnline);
    };
    let since_heartbeat = since(now, agent.last_received_heartbeat);
    if since_heartbeat > TIMEOUT_NANOS {
        return Err(Ineligible::NoRecentHeartbeat {
            minutes_ago: minutes(since_heartbeat),
        });
    }
    if agent
        .condition("Joined")
        .is_none_or(|joined| joined.status != "True")
    {
        return Err(Ineligible::NotJoined);
    }
    let Some(healthy) = agent.condition("Healthy") else {
        return Err(Ineligible::NoHealthCondition);
    };
    let since_transition = since(now, healthy.last_transition_time);
    if healthy.status != "True" && since_transition > TIMEOUT_NANOS {
        return Err(Ineligible::Unhealthy {
            minutes_ago: minutes(since_transition),
        });
    }
    Ok(())
}

/// Go's `time.Since(t)` in nanoseconds, saturating as a `time.Duration` does; an absent time
/// is Go's zero time (year 1), which always saturates.
fn since(now: i64, then: Option<i64>) -> i128 {
    let max = i128::from(i64::MAX);
    match then {
        Some(then) => ((i128::from(now) - i128::from(then)) * 1_000_000_000).clamp(-max - 1, max),
        None => max,
    }
}

/// `Duration.Minutes()`: whole minutes plus the remainder, as Go computes it.
fn minutes(nanos: i128) -> f64 {
    let per_minute = 60 * 1_000_000_000;
    (nanos / per_minute) as f64 + (nanos % per_minute) as f64 / 60e9
}

/// The ClusterEligibility filter plugin: an ineligible cluster is unschedulable.
pub(crate) fn filter(
    cluster: &MemberCluster,
    now: i64,
) -> Option<crate::kubefleet::status::Status> {
    check(cluster, now)
        .err()
        .map(|reason| crate::kubefleet::status::Status::unschedulable(reason.to_string()))
}

#[cfg(test)]
#[cfg(test)]
mod tests {
    use super::*;
    use crate::kubefleet::model::member_cluster::{AgentStatus, Condition};

    const NOW: i64 = 1_780_315_200;

    fn cluster(heartbeat: Option<i64>, healthy: Option<(&str, i64)>) -> MemberCluster {
        let mut conditions = vec![Condition {
            condition_type: "Joined".to_string(),
            status: "True".to_string(),
            last_transition_time: None,
        }];
        if let Some((status, at)) = healthy {
            conditions.push(Condition {
                condition_type: "Healthy".to_string(),
                status: status.to_string(),
                last_transition_time: Some(at),
            });
        }
        MemberCluster {
            name: "a".to_string(),
            agent_status: vec![AgentStatus {
                agent_type: MEMBER_AGENT.to_string(),
                conditions,
                last_received_heartbeat: heartbeat,
            }],
            ..MemberCluster::default()
        }
    }

    #[test]
    fn a_heartbeat_exactly_five_minutes_old_is_still_fresh() {
        let fresh = cluster(Some(NOW - 300), Some(("True", NOW)));
        assert_eq!(check(&fresh, NOW), Ok(()));
        let stale = cluster(Some(NOW - 301), Some(("True", NOW)));
        assert_eq!(
            check(&stale, NOW).map_err(|reason| reason.to_string()),
            Err("cluster is not connected to the fleet: no recent heartbeat signals (last received 5.02 minutes ago)".to_string())
        );
    }

    #[test]
    fn an_absent_heartbeat_saturates_as_go_does() {
        assert_eq!(
            check(&cluster(None, None), NOW).map_err(|reason| reason.to_string()),
            Err("cluster is not connected to the fleet: no recent heartbeat signals (last received 153722867.28 minutes ago)".to_string())
        );
    }

    #[test]
    fn an_unhealthy_agent_keeps_its_cluster_for_five_minutes() {
        assert_eq!(
            check(&cluster(Some(NOW), Some(("False", NOW - 299))), NOW),
            Ok(())
        );
        assert!(check(&cluster(Some(NOW), Some(("False", NOW - 301))), NOW).is_err());
    }
}
