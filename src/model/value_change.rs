//! A single value of a plan item before and after: how `diff` says a value field changed
//! (`changesAt`, and each API's own value fields, Karmada's claiming policy).

use serde::Serialize;

/// What a line says of a side that has no value.
const NONE: &str = "(none)";

/// A single value that changed; absent on the side that has none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ValueChange {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) before: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) after: Option<String>,
}

impl ValueChange {
    /// The change from `previous` to `current`, if they differ.
    pub(crate) fn of(previous: &Option<String>, current: &Option<String>) -> Option<ValueChange> {
        (previous != current).then(|| ValueChange {
            before: previous.clone(),
            after: current.clone(),
        })
    }

    /// `name: before → after`, the wording every diff format shares.
    pub(crate) fn line(&self, name: &str) -> String {
        format!(
            "{name}: {} → {}",
            self.before.as_deref().unwrap_or(NONE),
            self.after.as_deref().unwrap_or(NONE)
        )
    }
}
