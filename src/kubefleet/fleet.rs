//! What a run computes once over the MemberClusters, shared by every placement: the clusters
//! in name order, a name index, each cluster's eligibility at `now` (it does not depend on
//! the placement), and what the plugins read of a cluster in the form they compare it in:
//! the labels as an index of ids (a term's selector then costs a few word operations for the
//! whole fleet), each reported property parsed once, with its extremes over the fleet.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use super::model::member_cluster::MemberCluster;
use super::plugins::cluster_affinity::{extremes, Extremes};
use super::plugins::cluster_eligibility::{self, Ineligible};
use super::plugins::topology_spread_constraints::Domains;
use super::property::{self, PropertyError, PropertyReading, Reading};
use crate::selector::LabelIndex;

pub(crate) struct Fleet<'c> {
    /// In name order (the order the scheduler reports filtered clusters in).
    clusters: Vec<&'c MemberCluster>,
    index: HashMap<&'c str, usize>,
    eligibility: Vec<Result<(), Ineligible>>,
    /// The clusters' labels, by position.
    labels: LabelIndex,
    /// By property name: every name some cluster reports a value under.
    properties: HashMap<String, Column>,
    /// By position: whether the cluster has a taint.
    tainted: Vec<bool>,
    /// By label key id: each cluster's domain of the key, made on first use.
    domains: Vec<OnceLock<Domains<'c>>>,
    /// The domains of a key no cluster has.
    unlabelled: OnceLock<Domains<'c>>,
}

/// One property over the fleet, as [`property::reading`] reads it of each cluster.
pub(crate) struct Column {
    readings: Vec<Result<Option<Reading>, PropertyError>>,
    /// The smallest and largest value (`preparePluginState`), or the first error.
    extremes: Result<Extremes, PropertyError>,
}

impl<'c> Fleet<'c> {
    /// A later MemberCluster of the same name replaces an earlier one, as a second write of
    /// the object would.
    pub(crate) fn new(clusters: &'c [MemberCluster], now: i64) -> Fleet<'c> {
        let mut by_name: HashMap<&str, &MemberCluster> = HashMap::with_capacity(clusters.len());
        for cluster in clusters {
            by_name.insert(&cluster.name, cluster);
        }
        let mut clusters: Vec<&MemberCluster> = by_name.into_values().collect();
        clusters.sort_by(|a, b| a.name.cmp(&b.name));
        let index = clusters
            .iter()
            .enumerate()
            .map(|(position, cluster)| (cluster.name.as_str(), position))
            .collect();
        let eligibility = clusters
            .iter()
            .map(|cluster| cluster_eligibility::check(cluster, now))
            .collect();
        let mut properties = HashMap::new();
        for cluster in &clusters {
            for name in property::names(cluster) {
                if !properties.contains_key(name.as_ref()) {
                    let column = Column::new(&clusters, &name);
                    properties.insert(name.into_owned(), column);
                }
            }
        }
        let labels = LabelIndex::new(&clusters, |cluster| &cluster.labels);
        Fleet {
            domains: (0..labels.table().key_count())
                .map(|_| OnceLock::new())
                .collect(),
            unlabelled: OnceLock::new(),
            labels,
            tainted: clusters
                .iter()
                .map(|cluster| !cluster.taints.is_empty())
                .collect(),
            clusters,
            index,
            eligibility,
            properties,
        }
    }

    pub(crate) fn clusters(&self) -> &[&'c MemberCluster] {
        &self.clusters
    }

    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    pub(crate) fn get(&self, name: &str) -> Option<&'c MemberCluster> {
        self.position(name).map(|position| self.clusters[position])
    }

    pub(crate) fn eligibility(&self, position: usize) -> Result<(), Ineligible> {
        self.eligibility[position]
    }

    pub(crate) fn labels(&self) -> &LabelIndex {
        &self.labels
    }

    /// Each cluster's domain of the topology key `key` (its value of the label), worked out
    /// the first time a placement spreads over the key.
    pub(crate) fn domains(&self, key: &str) -> &Domains<'c> {
        let table = self.labels.table();
        let Some(key_id) = table.key_id(key) else {
            return self.unlabelled.get_or_init(|| Domains {
                of: vec![None; self.clusters.len()],
                names: Vec::new(),
            });
        };
        self.domains[key_id as usize].get_or_init(|| {
            let mut index: HashMap<u32, u32> = HashMap::new();
            let mut names = Vec::new();
            let of = (0..self.clusters.len())
                .map(|position| {
                    let label = table.label(position, key_id)?;
                    Some(*index.entry(label).or_insert_with(|| {
                        let value = self.clusters[position].labels.get(key);
                        names.push(value.map_or("", String::as_str));
                        (names.len() - 1) as u32
                    }))
                })
                .collect();
            Domains { of, names }
        })
    }

    pub(crate) fn tainted(&self, position: usize) -> bool {
        self.tainted[position]
    }

    /// Property `name`, parsed when the fleet was built.
    pub(crate) fn property<'a>(&'a self, name: &'a str) -> Property<'a> {
        match self.properties.get(name) {
            Some(column) => Property::Parsed(column),
            None => Property::Unreported(&self.clusters, name),
        }
    }

    /// The extremes of property `name` over every cluster, as `extremes` finds them.
    pub(crate) fn extremes(&self, name: &str) -> Result<Extremes, PropertyError> {
        match self.properties.get(name) {
            Some(column) => column.extremes.clone(),
            None => extremes(
                self.clusters
                    .iter()
                    .map(|cluster| property::reading(cluster, name)),
            ),
        }
    }
}

impl Column {
    fn new(clusters: &[&MemberCluster], name: &str) -> Column {
        let readings: Vec<_> = clusters
            .iter()
            .map(|cluster| {
                property::property_value(cluster, name).map(|value| value.map(Reading::new))
            })
            .collect();
        let extremes = extremes(readings.iter().map(|reading| match reading {
            Ok(reading) => Ok(reading.as_ref().map(Cow::Borrowed)),
            Err(error) => Err(error.clone()),
        }));
        Column { readings, extremes }
    }
}

/// One property of the fleet's clusters, looked up once per cycle.
#[derive(Clone, Copy)]
pub(crate) enum Property<'a> {
    Parsed(&'a Column),
    /// No cluster reports it: each reading is absent, or the name is an error.
    Unreported(&'a [&'a MemberCluster], &'a str),
}

impl<'a> Property<'a> {
    /// [`property::reading`] of the cluster at `position`.
    pub(crate) fn reading(self, position: usize) -> PropertyReading<'a> {
        match self {
            Property::Parsed(column) => match &column.readings[position] {
                Ok(reading) => Ok(reading.as_ref().map(Cow::Borrowed)),
                Err(error) => Err(error.clone()),
            },
            Property::Unreported(clusters, name) => property::reading(clusters[position], name),
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{json, Map, Value};

    use super::*;
    use crate::kubefleet::model::policy::PlacementPolicy;
    use crate::kubefleet::model::wire::read;
    use crate::kubefleet::plugins::cluster_affinity::{self, Filter, Scorer};
    use crate::kubefleet::plugins::topology_spread_constraints as spread;

    const VALUES: [&str; 6] = ["1", "2", "1500m", "3Gi", "1.30.2", "0"];
    const PROPERTIES: [&str; 4] = [
        "p",
        "resources.kubernetes-fleet.io/available-cpu",
        "q",
        "resources.kubernetes-fleet.io/spare-cpu",
    ];

    /// A cluster with some of the labels `zone` and `env`, property `p` and available CPU,
    /// each drawn from a few values (an unparsable one among them).
    fn cluster(
        index: usize,
        zone: Option<u8>,
        env: Option<u8>,
        p: Option<u8>,
        cpu: Option<u8>,
    ) -> MemberCluster {
        let mut labels = Map::new();
        if let Some(zone) = zone {
            labels.insert("zone".to_string(), json!(format!("z{zone}")));
        }
        if let Some(env) = env {
            labels.insert(
                "env".to_string(),
                json!(["prod", "dev"][usize::from(env % 2)]),
            );
        }
        let mut status = json!({});
        if let Some(p) = p {
            status["properties"] = json!({"p": {"value": VALUES[usize::from(p) % VALUES.len()]}});
        }
        if let Some(cpu) = cpu {
            status["resourceUsage"] =
                json!({"available": {"cpu": VALUES[usize::from(cpu) % (VALUES.len() - 2)]}});
        }
        read(
            &json!({"metadata": {"name": format!("c{index}"), "labels": labels}, "status": status}),
        )
        .unwrap_or_default()
    }

    fn term(zone: Option<u8>, not_env: bool, property: Option<(u8, u8, bool)>) -> Value {
        let mut term = json!({});
        let mut expressions = Vec::new();
        if let Some(zone) = zone {
            expressions.push(
                json!({"key": "zone", "operator": "In", "values": [format!("z{zone}"), "z9"]}),
            );
        }
        if not_env {
            expressions.push(json!({"key": "env", "operator": "NotIn", "values": ["dev"]}));
        }
        if !expressions.is_empty() {
            term["labelSelector"] = json!({"matchExpressions": expressions});
        }
        if let Some((name, operator, two_values)) = property {
            let operator = ["Gt", "Le", "Eq", "Between"][usize::from(operator) % 4];
            let values = if two_values {
                json!(["1", "2"])
            } else {
                json!(["1"])
            };
            term["propertySelector"] = json!({"matchExpressions": [{
                "name": PROPERTIES[usize::from(name) % PROPERTIES.len()],
                "operator": operator,
                "values": values,
            }]});
        }
        term
    }

    fn policy(required: Vec<Value>, sorter: Option<(u8, bool)>, spread: bool) -> PlacementPolicy {
        let mut preferred = vec![
            json!({"weight": 30, "preference": {"labelSelector": {"matchLabels": {"env": "prod"}}}}),
        ];
        if let Some((name, descending)) = sorter {
            preferred.push(json!({"weight": -20, "preference": {"propertySorter": {
                "name": PROPERTIES[usize::from(name) % PROPERTIES.len()],
                "sortOrder": if descending { "Descending" } else { "Ascending" },
            }}}));
        }
        let mut policy = json!({
            "placementType": "PickN",
            "numberOfClusters": 2,
            "affinity": {"clusterAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {"clusterSelectorTerms": required},
                "preferredDuringSchedulingIgnoredDuringExecution": preferred,
            }},
        });
        if spread {
            policy["topologySpreadConstraints"] = json!([
                {"topologyKey": "zone"},
                {"topologyKey": "env", "whenUnsatisfiable": "ScheduleAnyway"},
                {"topologyKey": "rack"},
            ]);
        }
        read(&policy).unwrap_or_default()
    }

    fn option<T: std::fmt::Debug>(
        inner: impl Strategy<Value = T>,
    ) -> impl Strategy<Value = Option<T>> {
        prop::option::of(inner)
    }

    proptest! {
        /// The fleet's index and parsed properties answer as each cluster's own maps do:
        /// the same filter verdicts and errors, scores, extremes and spread verdicts.
        #[test]
        fn the_fleet_reads_clusters_as_their_own_maps_do(
            clusters in prop::collection::vec(
                (option(0u8..3), option(0u8..2), option(0u8..6), option(0u8..4)), 0..12),
            terms in prop::collection::vec(
                (option(0u8..3), any::<bool>(), option((0u8..4, 0u8..4, any::<bool>()))), 1..3),
            sorter in option((0u8..4, any::<bool>())),
            current in prop::collection::vec(any::<bool>(), 12),
        ) {
            let clusters: Vec<MemberCluster> = clusters
                .into_iter()
                .enumerate()
                .map(|(index, (zone, env, p, cpu))| cluster(index, zone, env, p, cpu))
                .collect();
            let fleet = Fleet::new(&clusters, 0);
            let required = terms.into_iter().map(|(zone, env, property)| term(zone, env, property)).collect();
            let policy = policy(required, sorter, true);
            let current = &current[..clusters.len()];

            let filter = Filter::new(Some(&policy)).map_err(|status| status.to_string());
            prop_assert!(filter.is_ok());
            if let Ok(filter) = filter {
                let over = filter.over(&fleet);
                let matched: Result<Vec<usize>, _> = fleet
                    .clusters()
                    .iter()
                    .enumerate()
                    .filter_map(|(position, cluster)| match filter.filter(cluster) {
                        Ok(None) => Some(Ok(position)),
                        Ok(Some(_)) => None,
                        Err(error) => Some(Err(error)),
                    })
                    .collect();
                prop_assert_eq!(over.matched().map(|matched| matched.iter_ones().collect()), matched);
                for (position, cluster) in fleet.clusters().iter().enumerate() {
                    prop_assert_eq!(
                        over.rejects(position),
                        filter.filter(cluster).map(|status| status.is_some())
                    );
                }
            }
            let observed = cluster_affinity::observe(Some(&policy), fleet.clusters());
            prop_assert_eq!(&cluster_affinity::observe_fleet(Some(&policy), &fleet), &observed);
            if let Ok(Ok(observed)) = observed {
                let scorer = Scorer::new(&policy, observed);
                let over = scorer.over(&fleet);
                for (position, cluster) in fleet.clusters().iter().enumerate() {
                    prop_assert_eq!(over.score(position), scorer.score(cluster));
                }
            }
            prop_assert_eq!(
                spread::prepare_fleet(Some(&policy), &fleet, current),
                spread::prepare(Some(&policy), fleet.clusters(), current)
            );
        }
    }
}
