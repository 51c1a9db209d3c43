//! TaintToleration (`plugins/tainttoleration`): the first `NoSchedule`/`NoExecute` taint that no
//! `clusterTolerations` entry tolerates filters the cluster out, unless the binding already
//! targets it. `PreferNoSchedule` is ignored. Toleration matching is Kubernetes'
//! `Toleration.ToleratesTaint` (comparison operators off).

use std::borrow::Cow;

use crate::karmada::model::{ClusterTaint, KarmadaCluster, Toleration};

use super::FilterContext;

pub(super) const NAME: &str = "TaintToleration";

pub(super) fn filter(
    context: &FilterContext,
    cluster: &KarmadaCluster,
) -> Option<Cow<'static, str>> {
    let binding = context.binding;
    if binding.targets(&cluster.name) {
        return None;
    }
    let tolerations = &binding.placement.cluster_tolerations;
    cluster
        .taints
        .iter()
        .filter(|taint| taint.effect == "NoSchedule" || taint.effect == "NoExecute")
        .find(|taint| {
            !tolerations
                .iter()
                .any(|toleration| tolerates(toleration, taint))
        })
        .map(|taint| {
            Cow::Owned(format!(
                "cluster(s) had untolerated taint {{{}}}",
                taint_string(taint)
            ))
        })
}

/// `Toleration.ToleratesTaint`.
pub(super) fn tolerates(toleration: &Toleration, taint: &ClusterTaint) -> bool {
    if !toleration.effect.is_empty() && toleration.effect != taint.effect {
        return false;
    }
    if !toleration.key.is_empty() && toleration.key != taint.key {
        return false;
    }
    match toleration.operator.as_str() {
        "" | "Equal" => toleration.value == taint.value,
        "Exists" => true,
        _ => false,
    }
}

/// `Taint.ToString`: `key=value:Effect`, or `key:Effect` without a value.
pub(super) fn taint_string(taint: &ClusterTaint) -> String {
    if taint.value.is_empty() {
        format!("{}:{}", taint.key, taint.effect)
    } else {
        format!("{}={}:{}", taint.key, taint.value, taint.effect)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taint(key: &str, value: &str, effect: &str) -> ClusterTaint {
        ClusterTaint {
            key: key.to_string(),
            value: value.to_string(),
            effect: effect.to_string(),
        }
    }

    fn toleration(key: &str, operator: &str, value: &str, effect: &str) -> Toleration {
        Toleration {
            key: key.to_string(),
            operator: operator.to_string(),
            value: value.to_string(),
            effect: effect.to_string(),
        }
    }

    #[test]
    fn empty_key_with_exists_tolerates_every_taint() {
        assert!(tolerates(
            &toleration("", "Exists", "", ""),
            &taint("a", "b", "NoSchedule")
        ));
    }

    #[test]
    fn equal_is_the_default_operator_and_compares_values() {
        assert!(tolerates(
            &toleration("a", "", "b", ""),
            &taint("a", "b", "NoExecute")
        ));
        assert!(!tolerates(
            &toleration("a", "Equal", "c", ""),
            &taint("a", "b", "NoExecute")
        ));
    }

    #[test]
    fn a_set_effect_must_be_equal() {
        assert!(!tolerates(
            &toleration("a", "Exists", "", "NoExecute"),
            &taint("a", "", "NoSchedule")
        ));
    }

    #[test]
    fn taints_print_like_kubernetes() {
        assert_eq!(
            taint_string(&taint("k", "v", "NoSchedule")),
            "k=v:NoSchedule"
        );
        assert_eq!(taint_string(&taint("k", "", "NoExecute")), "k:NoExecute");
    }
}
