//! The model layer of KubeFleet: what the reader builds and the engine, the plan step and
//! admission read.

use std::collections::HashSet;

/// `utilerrors.NewAggregate(…).Error()` over every message (nested aggregates flatten): one
/// as it is, several deduplicated and bracketed, as upstream's webhooks word a refusal.
pub(crate) fn aggregate(messages: &[String]) -> String {
    let mut seen = HashSet::new();
    let unique: Vec<&str> = messages
        .iter()
        .map(String::as_str)
        .filter(|message| seen.insert(*message))
        .collect();
    match unique.as_slice() {
        [one] => (*one).to_string(),
        many => format!("[{}]", many.join(", ")),
    }
}
