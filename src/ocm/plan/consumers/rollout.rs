//! A ManifestWorkReplicaSet's rollout over one placement's decision groups, as sdk-go's
//! rollout helper (`pkg/apis/cluster/v1alpha1/rollout.go`, `RolloutHandler`) hands the work
//! out from a clean start when every cluster succeeds: each call of `GetRolloutCluster`
//! gives the next wave once the clusters of the one before have succeeded.
//!
//! - `All`: every cluster at once.
//! - `Progressive`: the mandatory decision groups first, one group a wave in index order;
//!   then the other clusters, sorted by name across their groups, `maxConcurrency` at a time
//!   (absent, 0 or more than there are: all of them).
//! - `ProgressivePerGroup`: the mandatory groups, then every other group, one group a wave
//!   in index order.
//!
//! Groups with no cluster make no wave.

use std::collections::BTreeSet;

use crate::model::ClusterNames;
use crate::ocm::fields::{DecisionGroup, Wave};
use crate::ocm::model::consumer::{MandatoryGroup, RolloutStrategy, Threshold};

/// What the rollout helper refuses (the controller then rolls nothing out through the
/// placement).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}.{name}: failed to parse the provided {name}: {why}")]
pub(super) struct RolloutError {
    field: &'static str,
    name: &'static str,
    why: ThresholdError,
}

/// Why `calculateRolloutSize` refuses a threshold.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum ThresholdError {
    #[error("'{0}' is an invalid maximum threshold value: string is not a percentage")]
    NotAPercentage(String),
    #[error("'{0}' is not a percentage")]
    BadPercentage(String),
}

/// The waves of `strategy` over `groups` (a placement's decision groups, in index order).
pub(super) fn waves(
    strategy: &RolloutStrategy,
    groups: &[DecisionGroup],
) -> Result<Vec<Wave>, RolloutError> {
    let block = match strategy.type_.as_str() {
        "Progressive" => "progressive",
        "ProgressivePerGroup" => "progressivePerGroup",
        _ => return Ok(one_wave(groups.iter())),
    };
    let (mandatory, rest): (Vec<&DecisionGroup>, Vec<&DecisionGroup>) = groups
        .iter()
        .partition(|group| is_mandatory(&strategy.mandatory, group));
    // Only whether it parses matters while every cluster succeeds.
    size(&strategy.max_failures, 0, 0).map_err(|why| error(block, "maxFailures", why))?;
    let mut waves: Vec<Wave> = per_group(&mandatory, true);
    if block == "progressivePerGroup" {
        waves.extend(per_group(&rest, false));
        return Ok(waves);
    }
    let clusters: BTreeSet<&str> = rest
        .iter()
        .flat_map(|group| group.clusters.iter())
        .collect();
    let clusters: Vec<&str> = clusters.into_iter().collect();
    let at_a_time = size(&strategy.max_concurrency, clusters.len(), clusters.len())
        .map_err(|why| error(block, "maxConcurrency", why))?;
    waves.extend(clusters.chunks(at_a_time.max(1)).map(|chunk| Wave {
        clusters: chunk.iter().map(|name| name.to_string()).collect(),
        ..Wave::default()
    }));
    Ok(waves)
}

fn error(block: &'static str, name: &'static str, why: ThresholdError) -> RolloutError {
    RolloutError {
        field: block,
        name,
        why,
    }
}

fn one_wave<'g>(groups: impl Iterator<Item = &'g DecisionGroup>) -> Vec<Wave> {
    let clusters: BTreeSet<&str> = groups.flat_map(|group| group.clusters.iter()).collect();
    if clusters.is_empty() {
        return Vec::new();
    }
    vec![Wave {
        clusters: clusters.into_iter().map(str::to_string).collect(),
        ..Wave::default()
    }]
}

/// One wave per non-empty group, in index order (`GetOrderedGroupKeys`).
fn per_group(groups: &[&DecisionGroup], mandatory: bool) -> Vec<Wave> {
    let mut groups = groups.to_vec();
    groups.sort_by_key(|group| group.index);
    groups
        .into_iter()
        .filter(|group| !group.clusters.is_empty())
        .map(|group| {
            let mut clusters: Vec<String> = group.clusters.iter().map(str::to_string).collect();
            clusters.sort();
            Wave {
                mandatory,
                group: Some(group.index),
                clusters: ClusterNames::from(clusters),
            }
        })
        .collect()
}

/// A group is mandatory when an entry names it, or (without a name) gives its index.
fn is_mandatory(mandatory: &[MandatoryGroup], group: &DecisionGroup) -> bool {
    mandatory.iter().any(|entry| match entry {
        MandatoryGroup::Name(name) => *name == group.name,
        MandatoryGroup::Index(index) => usize::try_from(*index).is_ok_and(|at| at == group.index),
    })
}

/// `calculateRolloutSize`: a count, or a percentage of `total` rounded up; 0, negative or
/// more than `total` is `default`. A string that is not a percentage is refused (the CRD lets
/// `"5"` through, the helper does not).
fn size(
    threshold: &Option<Threshold>,
    total: usize,
    default: usize,
) -> Result<usize, ThresholdError> {
    let length = match threshold {
        None => return Ok(default),
        Some(Threshold::Count(count)) => *count,
        Some(Threshold::Text(text)) => {
            let echo = || crate::model::echo(text).to_string();
            let Some(percent) = text.strip_suffix('%') else {
                return Err(ThresholdError::NotAPercentage(echo()));
            };
            let percent: f64 = percent
                .parse()
                .map_err(|_| ThresholdError::BadPercentage(echo()))?;
            (percent / 100.0 * total as f64).ceil() as i64
        }
    };
    Ok(match usize::try_from(length) {
        Ok(length) if length > 0 && length <= total => length,
        _ => default,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(index: usize, name: &str, clusters: &[&str]) -> DecisionGroup {
        DecisionGroup {
            name: name.to_string(),
            index,
            clusters: clusters.iter().map(|c| c.to_string()).collect(),
        }
    }

    fn strategy(
        type_: &str,
        mandatory: Vec<MandatoryGroup>,
        at_a_time: Option<Threshold>,
    ) -> RolloutStrategy {
        RolloutStrategy {
            type_: type_.to_string(),
            mandatory,
            max_concurrency: at_a_time,
            max_failures: None,
        }
    }

    fn clusters(waves: &[Wave]) -> Vec<Vec<String>> {
        waves
            .iter()
            .map(|wave| wave.clusters.iter().map(str::to_string).collect())
            .collect()
    }

    fn fleet() -> Vec<DecisionGroup> {
        vec![
            group(0, "canary", &["c", "a"]),
            group(1, "", &["f", "b", "e"]),
            group(2, "", &[]),
            group(3, "", &["d"]),
        ]
    }

    #[test]
    fn all_is_one_wave_of_every_cluster() {
        let waves = waves(&strategy("All", vec![], None), &fleet()).unwrap_or_default();
        assert_eq!(clusters(&waves), [["a", "b", "c", "d", "e", "f"]]);
        assert!(!waves[0].mandatory && waves[0].group.is_none());
    }

    #[test]
    fn progressive_takes_the_mandatory_groups_then_the_rest_by_name_max_concurrency_at_a_time() {
        let mandatory = vec![MandatoryGroup::Name("canary".to_string())];
        let waves = waves(
            &strategy("Progressive", mandatory, Some(Threshold::Count(2))),
            &fleet(),
        )
        .unwrap_or_default();
        assert_eq!(
            clusters(&waves),
            vec![vec!["a", "c"], vec!["b", "d"], vec!["e", "f"]]
        );
        assert!(waves[0].mandatory && waves[0].group == Some(0));
        assert!(!waves[1].mandatory && waves[1].group.is_none());
    }

    #[test]
    fn a_percentage_of_the_remaining_clusters_is_rounded_up() {
        let waves = waves(
            &strategy(
                "Progressive",
                vec![MandatoryGroup::Index(0)],
                Some(Threshold::Text("50%".to_string())),
            ),
            &fleet(),
        )
        .unwrap_or_default();
        // 4 clusters after the mandatory group: 2 at a time.
        assert_eq!(clusters(&waves).len(), 3);
        let waves = waves_of("Progressive", Some(Threshold::Text("30%".to_string())));
        // 30% of 6 is 1.8: 2 at a time.
        assert_eq!(clusters(&waves).len(), 3);
    }

    fn waves_of(type_: &str, at_a_time: Option<Threshold>) -> Vec<Wave> {
        waves(&strategy(type_, vec![], at_a_time), &fleet()).unwrap_or_default()
    }

    #[test]
    fn progressive_without_max_concurrency_or_with_too_many_is_one_wave() {
        assert_eq!(waves_of("Progressive", None).len(), 1);
        assert_eq!(waves_of("Progressive", Some(Threshold::Count(0))).len(), 1);
        assert_eq!(waves_of("Progressive", Some(Threshold::Count(99))).len(), 1);
    }

    #[test]
    fn progressive_per_group_rolls_out_group_after_group_skipping_empty_ones() {
        let mandatory = vec![MandatoryGroup::Index(3)];
        let waves =
            waves(&strategy("ProgressivePerGroup", mandatory, None), &fleet()).unwrap_or_default();
        assert_eq!(
            clusters(&waves),
            vec![vec!["d"], vec!["a", "c"], vec!["b", "e", "f"]]
        );
        let groups: Vec<_> = waves
            .iter()
            .map(|wave| (wave.mandatory, wave.group))
            .collect();
        assert_eq!(
            groups,
            [(true, Some(3)), (false, Some(0)), (false, Some(1))]
        );
    }

    #[test]
    fn a_count_as_a_string_is_refused_as_the_helper_does() {
        let error = waves(
            &strategy(
                "Progressive",
                vec![],
                Some(Threshold::Text("5".to_string())),
            ),
            &fleet(),
        );
        assert_eq!(
            error.map_err(|error| error.to_string()),
            Err("progressive.maxConcurrency: failed to parse the provided maxConcurrency: '5' is an invalid maximum threshold value: string is not a percentage".to_string())
        );
    }
}
