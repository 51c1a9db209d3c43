//! The Plan document: fleetplan's versioned, machine-readable output and `--previous` input.
//! Plain data, so `load` reads a previous plan without depending on `plan`, which builds one.
//!
//! Stability rules (formats.md): items sorted by (apiVersion group, kind, namespace, name),
//! cluster names sorted, maps with sorted keys, fields that do not apply omitted.

use std::collections::BTreeMap;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use super::{ClusterNames, Condition, ConditionStatus, ObjectRef};
use crate::registry::{
    ItemFields, ItemKey, SelectionFields, ITEM_KEYS, SELECTION_KEYS, TRUE_WHEN_BAD_CONDITIONS,
};

pub(crate) const PLAN_API_VERSION: &str = "fleetplan.io/v1alpha1";
pub(crate) const PLAN_KIND: &str = "Plan";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Plan {
    pub api_version: String,
    pub kind: String,
    #[serde(default)]
    pub items: Vec<PlanItem>,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            api_version: PLAN_API_VERSION.to_string(),
            kind: PLAN_KIND.to_string(),
            items: Vec::new(),
        }
    }
}

impl Plan {
    pub fn item(&self, source: &ObjectRef) -> Option<&PlanItem> {
        self.items.iter().find(|item| &item.source == source)
    }
}

/// One item of a plan. Written by serde's derived code, each API's own fields (`selection`,
/// `api`) inline where their slots are; read back by hand ([`Deserialize`] below), since serde cannot flatten
/// a field into a struct that refuses unknown fields.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanItem {
    pub source: ObjectRef,
    /// Selected clusters, sorted by name (ranks into the fleet's names when planned).
    pub clusters: ClusterNames,
    /// Replica workloads: non-zero counts only.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub replicas: BTreeMap<String, i64>,
    /// Replicas asked beyond a cluster's capacity (the controllers wrote plan + overflow).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub overflow: BTreeMap<String, i64>,
    /// Each API's fields about how the clusters were chosen (the registry's list), written
    /// here, each when not empty.
    #[serde(flatten)]
    pub selection: SelectionFields,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// Each API's own fields (the registry's list), written here, each when not empty.
    #[serde(flatten)]
    pub api: ItemFields,
    /// An item with errors selected nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
}

impl PlanItem {
    /// Conditions in their bad state: True for the registry's TRUE_WHEN_BAD_CONDITIONS
    /// (OCM's misconfigured condition), False for any other. `check` calls an item with such
    /// a condition (and no errors) unsatisfied.
    pub fn problems(&self) -> impl Iterator<Item = &Condition> {
        self.conditions.iter().filter(|condition| {
            let bad = if TRUE_WHEN_BAD_CONDITIONS.contains(&condition.type_.as_str()) {
                ConditionStatus::True
            } else {
                ConditionStatus::False
            };
            condition.status == bad
        })
    }
}

/// A plan item's keys, in the order they are written: its shared fields, with each API's own
/// in their slots, how the clusters were chosen before `conditions` and the others after
/// (the message about an unknown key lists them).
static FIELDS: [&str;
    BEFORE_SELECTION.len()
        + SELECTION_KEYS.len()
        + BEFORE_API.len()
        + ITEM_KEYS.len()
        + AFTER_API.len()] = join_keys(&[
    BEFORE_SELECTION,
    SELECTION_KEYS,
    BEFORE_API,
    ITEM_KEYS,
    AFTER_API,
]);
const BEFORE_SELECTION: &[&str] = &["source", "clusters", "replicas", "overflow"];
const BEFORE_API: &[&str] = &["conditions"];
const AFTER_API: &[&str] = &["errors"];

/// `parts` one after the other, in an array of their total length `N` (a plan item's keys,
/// and each slot's from its APIs' keys).
pub(crate) const fn join_keys<const N: usize>(parts: &[&[&'static str]]) -> [&'static str; N] {
    let mut joined = [""; N];
    let (mut part, mut at) = (0, 0);
    while part < parts.len() {
        let mut index = 0;
        while index < parts[part].len() {
            joined[at] = parts[part][index];
            at += 1;
            index += 1;
        }
        part += 1;
    }
    joined
}

/// A key of a plan item: one of its shared fields, or an API's own.
enum Key {
    Source,
    Clusters,
    Replicas,
    Overflow,
    Conditions,
    Api(ItemKey),
    Errors,
}

/// A key as read, with its place in [`FIELDS`] (which tells a repeated key).
struct Named {
    key: Key,
    at: usize,
}

impl<'de> Deserialize<'de> for Named {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Named, D::Error> {
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

struct KeyVisitor;

impl Visitor<'_> for KeyVisitor {
    type Value = Named;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        // serde's derived wording, which a previous plan's errors have always had.
        formatter.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Named, E> {
        let Some(at) = FIELDS.iter().position(|field| *field == name) else {
            return Err(E::unknown_field(name, &FIELDS));
        };
        let key = match name {
            "source" => Key::Source,
            "clusters" => Key::Clusters,
            "replicas" => Key::Replicas,
            "overflow" => Key::Overflow,
            "conditions" => Key::Conditions,
            "errors" => Key::Errors,
            _ => match ItemKey::of(name) {
                Some(key) => Key::Api(key),
                None => return Err(E::unknown_field(name, &FIELDS)),
            },
        };
        Ok(Named { key, at })
    }
}

/// As serde's derived code reads a struct that refuses unknown fields: a missing field is its
/// default (`source` is required), an unknown key is refused while it is read, so the error's
/// path ends at it, and a repeated key is refused with serde's `duplicate field` (`--previous`
/// reads a parsed document, whose parser refuses one first; a library caller may not).
impl<'de> Deserialize<'de> for PlanItem {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<PlanItem, D::Error> {
        deserializer.deserialize_struct("PlanItem", &FIELDS, ItemVisitor)
    }
}

struct ItemVisitor;

impl<'de> Visitor<'de> for ItemVisitor {
    type Value = PlanItem;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("struct PlanItem")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PlanItem, A::Error> {
        let mut source = None;
        let mut item = PlanItem::default();
        let mut seen = [false; FIELDS.len()];
        while let Some(Named { key, at }) = map.next_key()? {
            if std::mem::replace(&mut seen[at], true) {
                return Err(de::Error::duplicate_field(FIELDS[at]));
            }
            match key {
                Key::Source => source = Some(map.next_value()?),
                Key::Clusters => item.clusters = map.next_value()?,
                Key::Replicas => item.replicas = map.next_value()?,
                Key::Overflow => item.overflow = map.next_value()?,
                Key::Conditions => item.conditions = map.next_value()?,
                Key::Api(key) => key.read(&mut item, &mut map)?,
                Key::Errors => item.errors = map.next_value()?,
            }
        }
        item.source = source.ok_or_else(|| de::Error::missing_field("source"))?;
        Ok(item)
    }
}

/// An API's keys in a plan item's slot, and its fields' reader: `Fields { Variant => "key" =>
/// field, ... }` makes the `Key` enum, its `NAMES` (as written, in the order the fields are
/// written: keep them in the struct's order) and `Key::of`, and `Fields::read`, which reads
/// the value of a key just read into its field. One recipe for every API's slot fields.
macro_rules! plan_item_keys {
    ($fields:ident { $($variant:ident => $name:literal => $field:ident),+ $(,)? }) => {
        /// A key of the API's fields in a plan item.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Key {
            $($variant),+
        }

        impl Key {
            /// The keys as written, in the order the fields are written.
            pub(crate) const NAMES: &'static [&'static str] = &[$($name),+];

            pub(crate) fn of(name: &str) -> Option<Key> {
                Some(match name {
                    $($name => Key::$variant,)+
                    _ => return None,
                })
            }
        }

        impl $fields {
            /// Reads the value of `key`, the map's key just read, into its field.
            pub(crate) fn read<'de, A: ::serde::de::MapAccess<'de>>(
                &mut self,
                key: Key,
                map: &mut A,
            ) -> Result<(), A::Error> {
                match key {
                    $(Key::$variant => self.$field = map.next_value()?,)+
                }
                Ok(())
            }
        }
    };
}
pub(crate) use plan_item_keys;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{Rollout, Wave};

    /// An item's problems are its conditions in their bad state: OCM's misconfigured
    /// condition (the registry's TRUE_WHEN_BAD_CONDITIONS) when True, any other when False;
    /// Unknown is neither.
    #[test]
    fn problems_are_the_conditions_in_their_bad_state() {
        let condition = |type_: &str, status| Condition {
            type_: type_.to_string(),
            status,
            reason: String::new(),
            message: String::new(),
        };
        let item = PlanItem {
            conditions: vec![
                condition("PlacementSatisfied", ConditionStatus::True),
                condition("PlacementMisconfigured", ConditionStatus::False),
                condition("Scheduled", ConditionStatus::Unknown),
            ],
            ..PlanItem::default()
        };
        assert_eq!(item.problems().count(), 0);
        let item = PlanItem {
            conditions: vec![
                condition("PlacementSatisfied", ConditionStatus::False),
                condition("PlacementMisconfigured", ConditionStatus::True),
            ],
            ..PlanItem::default()
        };
        let problems: Vec<&str> = item.problems().map(|c| c.type_.as_str()).collect();
        assert_eq!(problems, ["PlacementSatisfied", "PlacementMisconfigured"]);
    }
    use crate::testing::{group, kubefleet_fields, replica_set, with_condition, with_replicas};

    /// An item with every field set, each API's too.
    fn every_field() -> PlanItem {
        let mut item = with_condition(
            with_replicas(replica_set("web", &["a", "b"]), &[("a", 2)]),
            "Scheduled",
            ConditionStatus::True,
            "Fulfilled",
            "found 2",
        );
        item.overflow = [("b".to_string(), 1)].into();
        item.selection.ocm.groups = vec![group(0, "canary", &["a"])];
        item.selection.karmada.policy = Some("PropagationPolicy/default/pp".to_string());
        item.selection.karmada.affinity_term = Some("primary".to_string());
        item.api.kubefleet = kubefleet_fields();
        item.api.ocm.changes_at = Some("2026-01-01T00:00:00Z".to_string());
        item.api.ocm.via = vec![vec!["PlacementBinding/default/b".to_string()]];
        item.api.ocm.rollout = vec![Rollout {
            placement: "Placement/default/p".to_string(),
            strategy: "All".to_string(),
            waves: vec![Wave {
                mandatory: false,
                group: None,
                clusters: vec!["a".to_string()].into(),
            }],
        }];
        item.errors = vec!["bad".to_string()];
        item
    }

    /// `text` read as `--previous` reads it: from a parsed document, the path tracked.
    fn read(text: &str) -> Result<PlanItem, (String, String)> {
        let value: serde_yaml::Value = serde_yaml::from_str(text).unwrap_or_default();
        serde_path_to_error::deserialize(&value)
            .map_err(|error| (error.path().to_string(), error.into_inner().to_string()))
    }

    #[test]
    fn an_item_writes_its_fields_in_the_plan_s_order_each_api_s_after_conditions() {
        let json = serde_json::to_string(&every_field()).unwrap_or_default();
        assert_eq!(
            json,
            concat!(
                r#"{"source":{"apiVersion":"apps/v1","kind":"ReplicaSet","namespace":"default","name":"web"},"#,
                r#""clusters":["a","b"],"replicas":{"a":2},"overflow":{"b":1},"#,
                r#""groups":[{"name":"canary","index":0,"clusters":["a"]}],"#,
                r#""policy":"PropagationPolicy/default/pp","affinityTerm":"primary","#,
                r#""conditions":[{"type":"Scheduled","status":"True","reason":"Fulfilled","message":"found 2"}],"#,
                r#""scores":{"a":{"affinityScore":-3,"priorityScore":1}},"removed":["c"],"#,
                r#""stages":[{"name":"ring1","clusters":["a"]}],"#,
                r#""overrides":{"a":{"clusterResourceOverrides":["cro"]}},"#,
                r#""changesAt":"2026-01-01T00:00:00Z","via":[["PlacementBinding/default/b"]],"#,
                r#""rollout":[{"placement":"Placement/default/p","strategy":"All","waves":[{"clusters":["a"]}]}],"#,
                r#""errors":["bad"]}"#,
            )
        );
        let yaml = serde_yaml::to_string(&every_field()).unwrap_or_default();
        let keys: Vec<&str> = yaml
            .lines()
            .filter(|line| !line.starts_with([' ', '-']))
            .filter_map(|line| line.split(':').next())
            .collect();
        assert_eq!(keys, FIELDS);
        // A field that is empty is not written: an item of another API has none of KubeFleet's.
        let plain = replica_set("web", &[]);
        assert_eq!(
            serde_json::to_string(&plain).unwrap_or_default(),
            r#"{"source":{"apiVersion":"apps/v1","kind":"ReplicaSet","namespace":"default","name":"web"},"clusters":[]}"#
        );
    }

    #[test]
    fn an_item_written_as_yaml_or_json_reads_back_the_same() {
        let item = every_field();
        let yaml = serde_yaml::to_string(&item).unwrap_or_default();
        assert_eq!(read(&yaml), Ok(item.clone()));
        let json = serde_json::to_string(&item).unwrap_or_default();
        assert_eq!(read(&json), Ok(item));
        let plain = replica_set("web", &["a"]);
        assert_eq!(
            read(&serde_yaml::to_string(&plain).unwrap_or_default()),
            Ok(plain)
        );
    }

    #[test]
    fn an_unknown_key_is_refused_where_it_is_with_every_key_the_item_takes() {
        let unknown = read("{source: {apiVersion: v1, kind: ConfigMap, name: x}, cluster: [a]}");
        assert_eq!(
            unknown,
            Err((
                "cluster".to_string(),
                "unknown field `cluster`, expected one of `source`, `clusters`, `replicas`, \
                 `overflow`, `groups`, `policy`, `affinityTerm`, `conditions`, `scores`, \
                 `removed`, `stages`, `overrides`, `changesAt`, `via`, `rollout`, `errors`"
                    .to_string()
            ))
        );
        let not_a_name = read("{1: x}");
        assert_eq!(
            not_a_name,
            Err((
                "?".to_string(),
                "invalid type: integer `1`, expected field identifier".to_string()
            ))
        );
    }

    #[test]
    fn an_api_s_key_is_read_by_its_api_and_refused_at_its_path() {
        let source = "source: {apiVersion: v1, kind: ConfigMap, name: x}";
        assert_eq!(
            read(&format!("{{{source}, scores: 3}}")),
            Err((
                "scores".to_string(),
                "invalid type: integer `3`, expected a map".to_string()
            ))
        );
        assert_eq!(
            read(&format!(
                "{{{source}, scores: {{a: {{affinityScore: x}}}}}}"
            )),
            Err((
                "scores.a.affinityScore".to_string(),
                "invalid type: string \"x\", expected i32".to_string()
            ))
        );
        assert_eq!(
            read(&format!(
                "{{{source}, stages: [{{name: r, clusters: [a], extra: 1}}]}}"
            )),
            Err((
                "stages[0].extra".to_string(),
                "unknown field `extra`, expected `name` or `clusters`".to_string()
            ))
        );
        let removed = read(&format!("{{{source}, removed: [a]}}")).map(|item| item.api);
        assert_eq!(
            removed.map(|api| api.kubefleet.removed),
            Ok(vec!["a".to_string()])
        );
    }

    /// A repeated key is refused as serde's derived code refuses it, with the same message at
    /// the same path and place: a shared field's and an API's field in either slot alike.
    #[test]
    fn a_repeated_key_is_refused_as_serde_s_derived_code_refuses_it() {
        #[derive(Debug, Deserialize)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        struct Derived {
            #[serde(rename = "source")]
            _source: ObjectRef,
            #[serde(default, rename = "clusters")]
            _clusters: Vec<String>,
            #[serde(default, rename = "groups")]
            _groups: Vec<serde_json::Value>,
            #[serde(default, rename = "scores")]
            _scores: BTreeMap<String, serde_json::Value>,
            #[serde(default, rename = "via")]
            _via: Vec<Vec<String>>,
            #[serde(default, rename = "errors")]
            _errors: Vec<String>,
        }
        fn read_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<(), (String, String)> {
            let deserializer = &mut serde_json::Deserializer::from_str(text);
            serde_path_to_error::deserialize::<_, T>(deserializer)
                .map(|_| ())
                .map_err(|error| (error.path().to_string(), error.into_inner().to_string()))
        }
        let source = r#""source":{"apiVersion":"v1","kind":"ConfigMap","name":"x"}"#;
        let keys = [
            ("clusters", "[]"),
            ("groups", "[]"),
            ("scores", "{}"),
            ("via", r#"[["a"]]"#),
            ("errors", r#"["e"]"#),
        ];
        for (key, value) in keys {
            let text = format!(r#"{{{source},"{key}":{value},"{key}":{value}}}"#);
            let derived = read_json::<Derived>(&text);
            assert!(
                derived
                    .as_ref()
                    .is_err_and(|(_, message)| message.starts_with("duplicate field")),
                "{derived:?}"
            );
            assert_eq!(read_json::<PlanItem>(&text), derived, "{key}");
        }
    }

    #[test]
    fn an_item_needs_its_source() {
        assert_eq!(
            read("{clusters: [a]}"),
            Err((".".to_string(), "missing field `source`".to_string()))
        );
        assert_eq!(
            read("[a]"),
            Err((
                ".".to_string(),
                "invalid type: sequence, expected struct PlanItem".to_string()
            ))
        );
    }
}
