//! Taints on a MemberCluster and the tolerations a placement carries
//! (`apis/placement/v1beta1` `Toleration`, `apis/cluster/v1beta1` `Taint`).

use std::fmt;

use serde::Deserialize;

/// `spec.taints[]` of a MemberCluster. The CRD allows the `NoSchedule` effect only.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub(crate) struct Taint {
    pub(crate) key: String,
    #[serde(default)]
    pub(crate) value: String,
    #[serde(default)]
    pub(crate) effect: String,
}

/// A toleration's operator; the CRD defaults it to `Equal`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
pub(crate) enum TolerationOperator {
    #[default]
    Equal,
    Exists,
}

/// `spec.policy.tolerations[]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
pub(crate) struct Toleration {
    #[serde(default)]
    pub(crate) key: String,
    #[serde(default)]
    pub(crate) operator: TolerationOperator,
    #[serde(default)]
    pub(crate) value: String,
    #[serde(default)]
    pub(crate) effect: String,
}

impl Toleration {
    /// `ToleratesTaint` (`apis/placement/v1beta1` toleration helpers): the effect must be
    /// equal or left empty; `Exists` needs an empty or equal key, `Equal` an equal key and value.
    pub(crate) fn tolerates(&self, taint: &Taint) -> bool {
        if !self.effect.is_empty() && self.effect != taint.effect {
            return false;
        }
        match self.operator {
            TolerationOperator::Exists => self.key.is_empty() || self.key == taint.key,
            TolerationOperator::Equal => self.key == taint.key && self.value == taint.value,
        }
    }
}

impl TolerationOperator {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            TolerationOperator::Equal => "Equal",
            TolerationOperator::Exists => "Exists",
        }
    }
}

/// Go's `%+v` of a `*Taint`, which is how upstream's TaintToleration reason prints it.
pub(crate) struct GoTaint<'t>(pub(crate) &'t Taint);

impl fmt::Display for GoTaint<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Taint { key, value, effect } = self.0;
        write!(f, "&{{Key:{key} Value:{value} Effect:{effect}}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taint(key: &str, value: &str) -> Taint {
        Taint {
            key: key.to_string(),
            value: value.to_string(),
            effect: "NoSchedule".to_string(),
        }
    }

    #[test]
    fn exists_with_an_empty_key_tolerates_every_taint() {
        let toleration = Toleration {
            operator: TolerationOperator::Exists,
            ..Toleration::default()
        };
        assert!(toleration.tolerates(&taint("a", "b")));
    }

    #[test]
    fn equal_needs_the_value_too() {
        let toleration = Toleration {
            key: "a".to_string(),
            value: "c".to_string(),
            ..Toleration::default()
        };
        assert!(!toleration.tolerates(&taint("a", "b")));
        assert!(toleration.tolerates(&taint("a", "c")));
    }

    #[test]
    fn the_taint_prints_as_go_prints_a_pointer() {
        assert_eq!(
            GoTaint(&taint("k", "")).to_string(),
            "&{Key:k Value: Effect:NoSchedule}"
        );
    }
}
