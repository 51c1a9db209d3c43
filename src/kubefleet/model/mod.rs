//! The model layer of KubeFleet: the CRD types as the API stores them (MemberCluster,
//! bindings, the placement policy with its taints and tolerations, override rules, strategy
//! stages, every object of a run in `objects`), decoded with `wire`; the reader builds them
//! and the engine, the plan step and admission read them.

use std::collections::HashSet;

pub(crate) mod binding;
pub(crate) mod member_cluster;
pub(crate) mod objects;
pub(crate) mod override_rules;
pub(crate) mod policy;
pub(crate) mod stage_config;
pub(crate) mod taint;
pub(crate) mod wire;

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
