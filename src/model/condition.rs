use std::fmt;

use serde::{Deserialize, Serialize};

/// A `metav1.Condition` without the timestamps (plans record nothing time-dependent).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Condition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: ConditionStatus,
    pub reason: String,
    #[serde(default)]
    pub message: String,
}

/// `metav1.ConditionStatus`: the three values its CRD schema allows, spelled as written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConditionStatus {
    True,
    False,
    #[default]
    Unknown,
}

impl ConditionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ConditionStatus::True => "True",
            ConditionStatus::False => "False",
            ConditionStatus::Unknown => "Unknown",
        }
    }
}

impl From<bool> for ConditionStatus {
    fn from(holds: bool) -> ConditionStatus {
        if holds {
            ConditionStatus::True
        } else {
            ConditionStatus::False
        }
    }
}

impl fmt::Display for ConditionStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_is_one_of_the_three_metav1_spells() {
        for status in [
            ConditionStatus::True,
            ConditionStatus::False,
            ConditionStatus::Unknown,
        ] {
            let yaml = format!("{status}");
            assert_eq!(
                serde_yaml::from_str::<ConditionStatus>(&yaml).ok(),
                Some(status)
            );
        }
        assert!(serde_yaml::from_str::<ConditionStatus>("true").is_err());
        assert!(serde_yaml::from_str::<ConditionStatus>("Maybe").is_err());
    }
}
