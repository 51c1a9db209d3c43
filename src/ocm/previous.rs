//! The placements' previous decisions: those a run takes (the inputs', or `--previous`'s),
//! indexed once per run: which clusters each placement decided before (Steady keeps them,
//! Balance discounts them, `NoSelectIfNew` spares them, and upstream requeues on their
//! toleration expiries).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use crate::model::{ObjectRef, Plan, PlanItem, Previous, PreviousDecision, Source};
use crate::ocm::model::decision::{
    is_placement_decision, owner, DECISION_KIND, PLACEMENT_KIND, RULE_KIND,
};
use crate::ocm::model::placement::PLACEMENT_API_VERSION;
use crate::selector::ClusterBits;

use super::fleet::FleetIndex;
use super::groups::named_slices;

/// The previous decisions a run takes: the inputs' (PlacementDecisions, PlacementRules'
/// `status.decisions`), except those of an object `--previous` holds decisions for, whose
/// `--previous` decisions stand for all of them. Decisions `--previous` read from a hub are
/// taken as they are; a previous Plan's items stand for the decisions [`from_plan`] says.
pub(crate) fn of_run<'d>(
    inputs: &'d [PreviousDecision],
    previous: Option<&'d Previous>,
) -> Cow<'d, [PreviousDecision]> {
    let previous: Cow<'d, [PreviousDecision]> = match previous {
        None => return Cow::Borrowed(inputs),
        Some(Previous::Decisions(decisions)) => Cow::Borrowed(decisions),
        Some(Previous::Plan(plan)) => Cow::Owned(from_plan(plan)),
    };
    let replaced: HashSet<ObjectRef> = previous.iter().map(owner).collect();
    let mut decisions: Vec<PreviousDecision> = inputs
        .iter()
        .filter(|decision| !replaced.contains(&owner(decision)))
        .cloned()
        .collect();
    decisions.extend(previous.into_owned());
    Cow::Owned(decisions)
}

/// The decisions a previous Plan's items stand for: a Placement's PlacementDecisions as
/// upstream's controller writes them ([`written_for`]), a PlacementRule's clusters as its
/// `status.decisions`. An item with errors was not scheduled: it stands for no decision, and
/// the inputs' decisions of its object stay.
fn from_plan(plan: &Plan) -> Vec<PreviousDecision> {
    let mut decisions = Vec::new();
    for item in plan.items.iter().filter(|item| item.errors.is_empty()) {
        match item.source.kind.as_str() {
            PLACEMENT_KIND => decisions.extend(written_for(item)),
            RULE_KIND => decisions.push(PreviousDecision {
                object: item.source.clone(),
                placement: item.source.name.clone(),
                clusters: item.clusters.to_vec(),
                source: Source::default(),
            }),
            _ => {}
        }
    }
    decisions
}

/// The PlacementDecisions upstream's controller writes for a planned Placement: the item's
/// clusters in its decision groups (in index order, a cluster in the first group that lists
/// it; the clusters no group lists in a last group, as upstream's rest), each group in
/// slices of at most 100 clusters named `<placement>-decision-<n>` ([`named_slices`]). A
/// plan without groups (written by hand) is one group.
fn written_for(item: &PlanItem) -> Vec<PreviousDecision> {
    let clusters: Vec<&str> = item.clusters.iter().collect();
    let mut groups: Vec<_> = item.selection.ocm.groups.iter().collect();
    groups.sort_by_key(|group| group.index);
    let listed: Vec<&str> = groups
        .iter()
        .flat_map(|group| group.clusters.iter())
        .collect();
    // What fleetplan writes without named groups: the groups divide the clusters, in order.
    let grouped: Vec<Vec<&str>> = if !groups.is_empty() && listed == clusters {
        groups
            .iter()
            .map(|group| group.clusters.iter().collect())
            .collect()
    } else {
        let mut group_of: HashMap<&str, usize> = HashMap::new();
        for (position, group) in groups.iter().enumerate() {
            for cluster in group.clusters.iter() {
                group_of.entry(cluster).or_insert(position);
            }
        }
        let mut grouped = vec![Vec::new(); groups.len() + 1];
        for cluster in clusters {
            let position = group_of.get(cluster).copied().unwrap_or(groups.len());
            grouped[position].push(cluster);
        }
        if grouped.len() > 1 && grouped[groups.len()].is_empty() {
            grouped.pop();
        }
        grouped
    };
    let slices: Vec<&[&str]> = grouped.iter().map(Vec::as_slice).collect();
    named_slices(&item.source.name, &slices)
        .into_iter()
        .flatten()
        .map(|(name, clusters)| PreviousDecision {
            object: ObjectRef {
                api_version: PLACEMENT_API_VERSION.to_string(),
                kind: DECISION_KIND.to_string(),
                namespace: item.source.namespace.clone(),
                name,
            },
            placement: item.source.name.clone(),
            clusters: clusters.iter().map(|cluster| cluster.to_string()).collect(),
            source: Source::default(),
        })
        .collect()
}

/// Namespace → placement → cluster name → how often it appears in the placement's decisions.
pub struct PreviousDecisions<'a> {
    own: HashMap<&'a str, HashMap<&'a str, HashMap<&'a str, i64>>>,
    /// Each PlacementRule's `status.decisions`, by the rule (the first the run holds).
    rules: HashMap<&'a ObjectRef, &'a [String]>,
}

impl<'a> PreviousDecisions<'a> {
    pub fn new(previous: &'a [PreviousDecision]) -> PreviousDecisions<'a> {
        let mut own: HashMap<&str, HashMap<&str, HashMap<&str, i64>>> = HashMap::new();
        for decision in placement_decisions(previous) {
            let namespace = decision.object.namespace.as_deref().unwrap_or("");
            let mine = own
                .entry(namespace)
                .or_default()
                .entry(decision.placement.as_str())
                .or_default();
            for cluster in &decision.clusters {
                *mine.entry(cluster.as_str()).or_default() += 1;
            }
        }
        let mut rules = HashMap::new();
        for decision in previous
            .iter()
            .filter(|decision| decision.object.kind == RULE_KIND)
        {
            rules
                .entry(&decision.object)
                .or_insert(decision.clusters.as_slice());
        }
        PreviousDecisions { own, rules }
    }

    /// A PlacementRule's previous decisions, in their order (none when the run has none).
    pub(crate) fn of_rule(&self, rule: &ObjectRef) -> &'a [String] {
        self.rules.get(rule).copied().unwrap_or_default()
    }

    /// Clusters named in this placement's own previous PlacementDecisions.
    pub fn own_decisions(
        &self,
        namespace: &str,
        placement: &str,
    ) -> Option<&HashMap<&'a str, i64>> {
        self.own.get(namespace)?.get(placement)
    }

    /// [`PreviousDecisions::own_decisions`] by inventory index, for the prioritizers and
    /// filters that ask about every feasible cluster (names of clusters not in the inventory
    /// drop out).
    pub fn own_clusters(
        &self,
        fleet: &FleetIndex,
        namespace: &str,
        placement: &str,
    ) -> Option<OwnClusters> {
        let own = self.own_decisions(namespace, placement)?;
        let counts: HashMap<usize, i64> = own
            .iter()
            .filter_map(|(name, &count)| Some((fleet.index_of(name)?, count)))
            .collect();
        let clusters = ClusterBits::from_ids(fleet.len(), counts.keys().copied());
        Some(OwnClusters { clusters, counts })
    }
}

/// The decisions that are PlacementDecisions.
pub(crate) fn placement_decisions(
    previous: &[PreviousDecision],
) -> impl Iterator<Item = &PreviousDecision> {
    previous
        .iter()
        .filter(|decision| is_placement_decision(decision))
}

/// One placement's own previous decisions by inventory index: a bit test per cluster
/// instead of hashing its name (10k placements × 15k feasible clusters each).
pub struct OwnClusters {
    clusters: ClusterBits,
    counts: HashMap<usize, i64>,
}

impl OwnClusters {
    pub fn contains(&self, index: usize) -> bool {
        self.clusters.contains(index)
    }

    /// The clusters, by inventory index (in no particular order).
    pub fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.counts.keys().copied()
    }

    /// How often the cluster at `index` appears in the placement's own decisions.
    pub fn count(&self, index: usize) -> i64 {
        if self.contains(index) {
            self.counts.get(&index).copied().unwrap_or(0)
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ocm::fields::DecisionGroup;
    use crate::testing::{group, plan, source};

    fn placement(name: &str, clusters: &[&str], groups: Vec<DecisionGroup>) -> PlanItem {
        let mut item = PlanItem {
            source: source(PLACEMENT_API_VERSION, PLACEMENT_KIND, Some("apps"), name),
            clusters: clusters.iter().map(|cluster| cluster.to_string()).collect(),
            ..PlanItem::default()
        };
        item.selection.ocm.groups = groups;
        item
    }

    /// `(name, clusters)` of each decision.
    fn named(decisions: &[PreviousDecision]) -> Vec<(&str, Vec<&str>)> {
        decisions
            .iter()
            .map(|decision| {
                let clusters = decision.clusters.iter().map(String::as_str).collect();
                (decision.object.name.as_str(), clusters)
            })
            .collect()
    }

    /// Two groups, 150 clusters in the first: upstream's controller writes it as
    /// `p-decision-1` (100) and `p-decision-2` (50) for group 0, `p-decision-3` for group 1.
    #[test]
    fn a_planned_placement_stands_for_the_decisions_upstream_writes() {
        let first: Vec<String> = (0..150).map(|n| format!("c{n:03}")).collect();
        let first: Vec<&str> = first.iter().map(String::as_str).collect();
        let clusters: Vec<&str> = first.iter().copied().chain(["d0", "d1"]).collect();
        let item = placement(
            "p",
            &clusters,
            vec![group(0, "canary", &first), group(1, "", &["d0", "d1"])],
        );
        let decisions = from_plan(&plan(vec![item]));
        assert_eq!(
            named(&decisions),
            [
                ("p-decision-1", first[..100].to_vec()),
                ("p-decision-2", first[100..].to_vec()),
                ("p-decision-3", vec!["d0", "d1"]),
            ]
        );
        assert!(decisions.iter().all(|decision| decision.placement == "p"
            && decision.object.kind == DECISION_KIND
            && decision.object.namespace.as_deref() == Some("apps")));
    }

    /// A named group whose clusters come after the rest by name still comes first; a plan
    /// written by hand without groups, or with clusters no group lists, still stands for
    /// every cluster it lists, once; an empty placement for one empty decision.
    #[test]
    fn a_planned_placement_s_clusters_are_its_decisions_whatever_its_groups_say() {
        let canary_last = placement(
            "p",
            &["a", "b", "z"],
            vec![group(1, "", &["a", "b"]), group(0, "canary", &["z"])],
        );
        let by_hand = placement("q", &["a", "b"], Vec::new());
        let partly = placement("r", &["a", "b", "c"], vec![group(0, "canary", &["b", "x"])]);
        let empty = placement("s", &[], Vec::new());
        let decisions = from_plan(&plan(vec![canary_last, by_hand, partly, empty]));
        assert_eq!(
            named(&decisions),
            [
                ("p-decision-1", vec!["z"]),
                ("p-decision-2", vec!["a", "b"]),
                ("q-decision-1", vec!["a", "b"]),
                ("r-decision-1", vec!["b"]),
                ("r-decision-2", vec!["a", "c"]),
                ("s-decision-1", vec![]),
            ]
        );
    }

    /// `--previous`'s decisions, as exported, replace the inputs' of the placements and
    /// rules they belong to; the others' stay.
    #[test]
    fn previous_decisions_replace_the_inputs_of_their_objects_only() {
        let decision = |name: &str, placement: &str, clusters: &[&str]| PreviousDecision {
            object: source(PLACEMENT_API_VERSION, DECISION_KIND, Some("apps"), name),
            placement: placement.to_string(),
            clusters: clusters.iter().map(|cluster| cluster.to_string()).collect(),
            source: Source::default(),
        };
        let inputs = [
            decision("p-decision-1", "p", &["a"]),
            decision("q-decision-1", "q", &["b"]),
        ];
        let exported = Previous::Decisions(vec![
            decision("p-decision-3", "p", &["c", "a"]),
            decision("p-decision-2", "p", &["b"]),
        ]);
        assert_eq!(
            named(&of_run(&inputs, Some(&exported))),
            [
                ("q-decision-1", vec!["b"]),
                ("p-decision-3", vec!["c", "a"]),
                ("p-decision-2", vec!["b"]),
            ]
        );
        assert!(matches!(of_run(&inputs, None), Cow::Borrowed(taken) if taken == inputs));
        // A previous Plan's item that failed was not scheduled: the inputs' decisions stay.
        let mut failed = placement("p", &[], Vec::new());
        failed.errors = vec!["spec.predicates[0]: invalid".to_string()];
        let planned = Previous::Plan(plan(vec![failed]));
        assert_eq!(
            named(&of_run(&inputs, Some(&planned))),
            [("p-decision-1", vec!["a"]), ("q-decision-1", vec!["b"])]
        );
    }
}
