//! Karmada's part of `fleetplan diff`: another claiming policy, another affinity term (its
//! clusters and replicas are the diff's shared fields). Every format words it with
//! [`KarmadaChange::lines`].

use serde::Serialize;

use super::fields::KarmadaFields;
use crate::model::ValueChange;
use crate::registry::Mark;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct KarmadaChange {
    /// The policy that claims the resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) policy: Option<ValueChange>,
    /// The affinity term the result came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) affinity_term: Option<ValueChange>,
}

pub(crate) fn compare(previous: &KarmadaFields, current: &KarmadaFields) -> KarmadaChange {
    KarmadaChange {
        policy: ValueChange::of(&previous.policy, &current.policy),
        affinity_term: ValueChange::of(&previous.affinity_term, &current.affinity_term),
    }
}

impl KarmadaChange {
    pub(crate) fn is_empty(&self) -> bool {
        self.policy.is_none() && self.affinity_term.is_none()
    }

    /// One line per change, the wording every diff format shares.
    pub(crate) fn lines(&self) -> Vec<(String, Option<Mark>)> {
        let values = [
            ("policy", &self.policy),
            ("affinityTerm", &self.affinity_term),
        ];
        values
            .into_iter()
            .filter_map(|(name, value)| Some((value.as_ref()?.line(name), None)))
            .collect()
    }
}
