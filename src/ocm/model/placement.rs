//! OCM `Placement` and `PlacementRule` specs, with the CRD defaults applied on load.
//
// Unknown fields are rejected (what `kubectl apply --validate=strict` does), so a typo such as
// `claimSelector.matchLabels` is an error instead of a silently empty selector.

use serde::de::{self, DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

use crate::model::crd_strings::{at_most_characters, qualified_key, MAX_TAINT_VALUE};
use crate::model::{LabelSelectorRequirementSpec, LabelSelectorSpec, TaintEffect};

/// The Placement version fleetplan reads every Placement as and `migrate` writes.
pub(crate) const PLACEMENT_API_VERSION: &str = "cluster.open-cluster-management.io/v1beta1";
/// The label OCM puts on PlacementDecisions to name their Placement.
pub(crate) const PLACEMENT_LABEL: &str = "cluster.open-cluster-management.io/placement";
/// The decision group name label of a PlacementDecision.
pub(crate) const DECISION_GROUP_NAME_LABEL: &str =
    "cluster.open-cluster-management.io/decision-group-name";
/// The decision group index label of a PlacementDecision.
pub(crate) const DECISION_GROUP_INDEX_LABEL: &str =
    "cluster.open-cluster-management.io/decision-group-index";

/// `spec` of a Placement, v1alpha1 and v1beta1 normalised to the v1beta1 shape: read from
/// manifests, and written (as v1beta1) by `migrate`. Written, a field at its CRD default is
/// left out, except the lists `clusterSets`, `predicates` and `tolerations`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlacementSpec {
    #[serde(default)]
    pub cluster_sets: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number_of_clusters: Option<i32>,
    #[serde(default)]
    pub predicates: Vec<ClusterPredicate>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub prioritizer_policy: PrioritizerPolicy,
    #[serde(default, skip_serializing_if = "is_default")]
    pub spread_policy: SpreadPolicy,
    #[serde(default)]
    pub tolerations: Vec<Toleration>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub decision_strategy: DecisionStrategy,
    /// How PlacementDecisions order their decisions. The OCM scheduler (ocm HEAD 00f84c32) does
    /// not read it: validated as the CRD does (an enum), kept as written so `explain` can say
    /// it does not change the selection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_by: Option<SortBy>,
    /// How often score-only changes are written to decisions; not read by the scheduler
    /// either. The CRD's pattern `^[0-9]+[hms]$` is checked.
    #[serde(
        default,
        deserialize_with = "score_rate_limit",
        skip_serializing_if = "Option::is_none"
    )]
    pub score_rate_limit: Option<String>,
    /// The seed's v1alpha1 `affinity.clusterAntiAffinity.requiredDuringSchedulingRequiredDuringExecution`
    /// terms. v1beta1 has no such field; fleetplan evaluates them as an extension.
    #[serde(skip)]
    pub anti_affinity: Vec<AffinityTerm>,
}

/// A field at its default is left out of what `migrate` writes.
fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

impl PlacementSpec {
    /// Some predicate is written in the seed's v1alpha1 per-predicate form: each predicate
    /// then selects on its own and the placement takes the union.
    pub fn per_predicate(&self) -> bool {
        self.predicates
            .iter()
            .any(ClusterPredicate::is_per_predicate)
    }
}

/// `spec.sortBy`: the CRD's enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SortBy {
    ClusterName,
    Score,
}

impl<'de> Deserialize<'de> for SortBy {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match String::deserialize(deserializer)?.as_str() {
            "ClusterName" => Ok(SortBy::ClusterName),
            "Score" => Ok(SortBy::Score),
            other => Err(de::Error::custom(format!(
                "expected ClusterName or Score, found {:?}",
                crate::model::echo(other)
            ))),
        }
    }
}

/// `spec.scoreRateLimit`, which the CRD constrains to `^[0-9]+[hms]$`.
fn score_rate_limit<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<String>, D::Error> {
    let Some(text) = Option::<String>::deserialize(deserializer)? else {
        return Ok(None);
    };
    let digits = text.strip_suffix(['h', 'm', 's']).unwrap_or("");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(de::Error::custom(format!(
            "expected a duration matching '^[0-9]+[hms]$' (e.g. 1m), found {:?}",
            crate::model::echo(&text)
        )));
    }
    Ok(Some(text))
}

/// One ORed predicate: its selectors are ANDed.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClusterPredicate {
    #[serde(default)]
    pub required_cluster_selector: ClusterSelector,
    /// The seed's v1alpha1 per-predicate `clusterSets` (v1beta1 has none): this predicate
    /// picks only from these sets ∩ the placement's eligible sets; empty = all of them.
    #[serde(skip)]
    pub cluster_sets: Vec<String>,
    /// The seed's v1alpha1 per-predicate `numberOfClusters` (v1beta1 has none).
    #[serde(skip)]
    pub number_of_clusters: Option<i32>,
}

impl ClusterPredicate {
    /// Written in the seed's per-predicate form (own clusterSets or numberOfClusters).
    pub fn is_per_predicate(&self) -> bool {
        !self.cluster_sets.is_empty() || self.number_of_clusters.is_some()
    }
}

/// `requiredClusterSelector`. The label selector is a value upstream, so an absent one is
/// empty and matches every cluster (`labels`); whether it was written is kept, so `migrate`
/// writes `labelSelector: {}` only where it means to.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClusterSelector {
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub label_selector: Option<LabelSelectorSpec>,
    #[serde(
        default,
        deserialize_with = "claim_selector",
        serialize_with = "write_claim_selector",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub claim_selector: Vec<LabelSelectorRequirementSpec>,
    #[serde(
        default,
        deserialize_with = "cel_selector",
        serialize_with = "write_cel_selector",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub cel_selector: Vec<String>,
}

/// The empty label selector, which matches every cluster.
static EVERY_CLUSTER: LabelSelectorSpec = LabelSelectorSpec {
    match_labels: None,
    match_expressions: None,
};

impl ClusterSelector {
    /// The label selector, empty (every cluster) when none is written.
    pub fn labels(&self) -> &LabelSelectorSpec {
        self.label_selector.as_ref().unwrap_or(&EVERY_CLUSTER)
    }
}

/// A field that may be absent but not null (null is refused as the field's own type refuses
/// it).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PrioritizerPolicy {
    /// `Additive` (also `""`) or `Exact`; anything else makes the placement Misconfigured,
    /// as upstream's scheduler does (the CRD has no enum for it).
    #[serde(default = "additive")]
    pub mode: String,
    #[serde(default)]
    pub configurations: Vec<PrioritizerConfig>,
}

impl Default for PrioritizerPolicy {
    fn default() -> Self {
        PrioritizerPolicy {
            mode: additive(),
            configurations: Vec::new(),
        }
    }
}

fn additive() -> String {
    "Additive".to_string()
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PrioritizerConfig {
    /// Required by the CRD, so the API server refuses a configuration without one.
    pub score_coordinate: ScoreCoordinate,
    #[serde(default = "one", deserialize_with = "weight")]
    pub weight: i32,
}

/// The CRD's bounds of a prioritizer's `weight`.
const WEIGHT_RANGE: std::ops::RangeInclusive<i32> = -10..=10;

fn weight<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i32, D::Error> {
    let weight = i32::deserialize(deserializer)?;
    if !WEIGHT_RANGE.contains(&weight) {
        return Err(de::Error::custom(format!(
            "expected at least {} and at most {}, found {weight}",
            WEIGHT_RANGE.start(),
            WEIGHT_RANGE.end()
        )));
    }
    Ok(weight)
}

fn one() -> i32 {
    1
}

/// Which prioritizer a configuration weighs.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScoreCoordinate {
    #[serde(default, rename = "type")]
    pub kind: ScoreCoordinateType,
    #[serde(default)]
    pub built_in: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub add_on: Option<AddOnScore>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum ScoreCoordinateType {
    #[default]
    BuiltIn,
    AddOn,
}

impl<'de> Deserialize<'de> for ScoreCoordinateType {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // The API documents "" as BuiltIn.
        match String::deserialize(deserializer)?.as_str() {
            "" | "BuiltIn" => Ok(ScoreCoordinateType::BuiltIn),
            "AddOn" => Ok(ScoreCoordinateType::AddOn),
            other => Err(de::Error::custom(format!(
                "expected BuiltIn or AddOn, found {:?}",
                crate::model::echo(other)
            ))),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AddOnScore {
    pub resource_name: String,
    pub score_name: String,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SpreadPolicy {
    #[serde(default, deserialize_with = "spread_constraints")]
    pub spread_constraints: Vec<SpreadConstraint>,
}

/// The CRD allows at most this many spread constraints.
const MAX_SPREAD_CONSTRAINTS: usize = 8;

fn spread_constraints<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<SpreadConstraint>, D::Error> {
    let constraints =
        Option::<Vec<SpreadConstraint>>::deserialize(deserializer)?.unwrap_or_default();
    if constraints.len() > MAX_SPREAD_CONSTRAINTS {
        return Err(de::Error::custom(format!(
            "expected at most {MAX_SPREAD_CONSTRAINTS} items, found {}",
            constraints.len()
        )));
    }
    Ok(constraints)
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SpreadConstraint {
    #[serde(deserialize_with = "qualified_key")]
    pub topology_key: String,
    pub topology_key_type: TopologyKeyType,
    #[serde(default = "one", deserialize_with = "max_skew")]
    pub max_skew: i32,
    #[serde(default)]
    pub when_unsatisfiable: WhenUnsatisfiable,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub enum TopologyKeyType {
    Label,
    Claim,
}

/// `maxSkew`: the CRD's minimum is 1.
fn max_skew<'de, D: Deserializer<'de>>(deserializer: D) -> Result<i32, D::Error> {
    let skew = i32::deserialize(deserializer)?;
    if skew < 1 {
        return Err(de::Error::custom(format!(
            "expected at least 1, found {skew}"
        )));
    }
    Ok(skew)
}

/// The CRD default is `ScheduleAnyway`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub enum WhenUnsatisfiable {
    DoNotSchedule,
    #[default]
    ScheduleAnyway,
}

/// A seed `ClusterAffinityTerm`: at most one selected cluster per topology value.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AffinityTerm {
    pub topology_key: String,
    pub topology_key_type: TopologyKeyType,
}

/// A toleration, read from a Placement and written by `migrate` (empty fields left out).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Toleration {
    #[serde(
        default,
        deserialize_with = "qualified_key",
        skip_serializing_if = "String::is_empty"
    )]
    pub key: String,
    #[serde(default)]
    pub operator: TolerationOperator,
    #[serde(
        default,
        deserialize_with = "toleration_value",
        skip_serializing_if = "String::is_empty"
    )]
    pub value: String,
    /// `None` matches every effect.
    #[serde(
        default,
        deserialize_with = "taint_effect",
        serialize_with = "write_taint_effect",
        skip_serializing_if = "Option::is_none"
    )]
    pub effect: Option<TaintEffect>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toleration_seconds: Option<i64>,
}

impl Toleration {
    /// Empty key with `Exists`: tolerates every taint.
    pub(crate) fn everything() -> Toleration {
        Toleration {
            key: String::new(),
            operator: TolerationOperator::Exists,
            value: String::new(),
            effect: None,
            toleration_seconds: None,
        }
    }
}

fn toleration_value<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let value = String::deserialize(deserializer)?;
    at_most_characters::<D>(&value, MAX_TAINT_VALUE)?;
    Ok(value)
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum TolerationOperator {
    #[default]
    Equal,
    Exists,
}

impl<'de> Deserialize<'de> for TolerationOperator {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Upstream treats "" as Equal.
        match String::deserialize(deserializer)?.as_str() {
            "" | "Equal" => Ok(TolerationOperator::Equal),
            "Exists" => Ok(TolerationOperator::Exists),
            other => Err(de::Error::custom(format!(
                "expected Equal or Exists, found {other:?}"
            ))),
        }
    }
}

fn taint_effect<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<TaintEffect>, D::Error> {
    match Option::<String>::deserialize(deserializer)?.as_deref() {
        None | Some("") => Ok(None),
        Some(text) => parse_taint_effect(text)
            .map(Some)
            .map_err(de::Error::custom),
    }
}

fn write_taint_effect<S: Serializer>(
    effect: &Option<TaintEffect>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match effect {
        Some(TaintEffect::NoSelect) => serializer.serialize_str("NoSelect"),
        Some(TaintEffect::PreferNoSelect) => serializer.serialize_str("PreferNoSelect"),
        Some(TaintEffect::NoSelectIfNew) => serializer.serialize_str("NoSelectIfNew"),
        None => serializer.serialize_none(),
    }
}

/// A taint effect OCM does not define (the text found).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected NoSelect, PreferNoSelect or NoSelectIfNew, found {0:?}")]
pub(crate) struct UnknownTaintEffect(pub String);

/// Reads a taint effect as OCM spells it.
pub(crate) fn parse_taint_effect(text: &str) -> Result<TaintEffect, UnknownTaintEffect> {
    match text {
        "NoSelect" => Ok(TaintEffect::NoSelect),
        "PreferNoSelect" => Ok(TaintEffect::PreferNoSelect),
        "NoSelectIfNew" => Ok(TaintEffect::NoSelectIfNew),
        other => Err(UnknownTaintEffect(other.to_string())),
    }
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DecisionStrategy {
    #[serde(default)]
    pub group_strategy: GroupStrategy,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GroupStrategy {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decision_groups: Vec<DecisionGroup>,
    #[serde(
        default = "all_clusters",
        deserialize_with = "clusters_per_decision_group"
    )]
    pub clusters_per_decision_group: IntOrString,
}

impl Default for GroupStrategy {
    fn default() -> Self {
        GroupStrategy {
            decision_groups: Vec::new(),
            clusters_per_decision_group: all_clusters(),
        }
    }
}

fn all_clusters() -> IntOrString {
    IntOrString::String("100%".to_string())
}

/// `clustersPerDecisionGroup`: a string must match the CRD's pattern
/// `^((100|[1-9][0-9]{0,1})%|[1-9][0-9]*)$` (1% to 100%, or a positive count written as a
/// string, which upstream's scheduler then finds Misconfigured as not a percentage).
fn clusters_per_decision_group<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<IntOrString, D::Error> {
    let value = IntOrString::deserialize(deserializer)?;
    if let IntOrString::String(text) = &value {
        let digits = text.strip_suffix('%').unwrap_or(text);
        let positive = !digits.is_empty()
            && !digits.starts_with('0')
            && digits.bytes().all(|b| b.is_ascii_digit());
        let percent_ok = digits.len() <= 2 || digits == "100";
        if !positive || (text.ends_with('%') && !percent_ok) {
            return Err(de::Error::custom(format!(
                "expected a percentage from 1% to 100% or a positive count, found {:?}",
                crate::model::echo(text)
            )));
        }
    }
    Ok(value)
}

/// `intstr.IntOrString`. A string that is not `N%` is Misconfigured at scheduling time,
/// as upstream does.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum IntOrString {
    Int(i64),
    String(String),
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DecisionGroup {
    /// Required, 2 to 63 characters matching `^[a-zA-Z0-9][-A-Za-z0-9_.]{0,61}[a-zA-Z0-9]$`.
    #[serde(deserialize_with = "group_name")]
    pub group_name: String,
    /// Required by the CRD, even when empty.
    pub group_cluster_selector: GroupClusterSelector,
}

fn group_name<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    let name = String::deserialize(deserializer)?;
    let bytes = name.as_bytes();
    let valid = (2..=63).contains(&bytes.len())
        && bytes[0].is_ascii_alphanumeric()
        && bytes[bytes.len() - 1].is_ascii_alphanumeric()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(b));
    if !valid {
        return Err(de::Error::custom(format!(
            "expected 2 to 63 alphanumeric characters, '-', '_' or '.', starting and ending with an alphanumeric character, found {:?}",
            crate::model::echo(&name)
        )));
    }
    Ok(name)
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GroupClusterSelector {
    #[serde(default, skip_serializing_if = "is_default")]
    pub label_selector: LabelSelectorSpec,
    #[serde(
        default,
        deserialize_with = "claim_selector",
        serialize_with = "write_claim_selector",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub claim_selector: Vec<LabelSelectorRequirementSpec>,
}

/// A selector written as a mapping with one list field, read as the list (the mapping or
/// its field absent or null: empty) and written back in that shape: `claimSelector`
/// (`matchExpressions`) and `celSelector` (`celExpressions`). The field's name is part of the
/// serde shape, so each selector gets one made here: its shape type (whose unknown fields
/// are refused), its reader and its writer.
macro_rules! one_list_selector {
    ($shape:ident, $field:ident, $read:ident, $write:ident, $item:ty) => {
        #[derive(Deserialize, Serialize)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        struct $shape<E> {
            #[serde(default)]
            $field: E,
        }

        fn $read<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<$item>, D::Error> {
            Ok(Option::<$shape<Vec<$item>>>::deserialize(deserializer)?
                .map(|shape| shape.$field)
                .unwrap_or_default())
        }

        fn $write<S: Serializer>(items: &[$item], serializer: S) -> Result<S::Ok, S::Error> {
            $shape { $field: items }.serialize(serializer)
        }
    };
}

one_list_selector!(
    ClaimSelectorShape,
    match_expressions,
    claim_selector,
    write_claim_selector,
    LabelSelectorRequirementSpec
);
one_list_selector!(
    CelSelectorShape,
    cel_expressions,
    cel_selector,
    write_cel_selector,
    String
);

/// A manifest field that could not be read: where (`predicates[0].requiredClusterSelector`)
/// and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("spec.{path}: {message}")]
pub(crate) struct SpecError {
    pub path: String,
    pub message: String,
}

/// `T` from `spec`, a tree or a text as the loader hands it (taking structs only from
/// mappings, as the API server does), with the path of what it refuses when `TRACKED`.
/// Untracked, an error has no path: it is never reported ([`decode_placement_spec_untracked`]).
fn decode<'de, T: Deserialize<'de>, const TRACKED: bool>(
    spec: impl SpecInput<'de>,
) -> Result<T, SpecError> {
    if !TRACKED {
        return T::deserialize(spec).map_err(|err| SpecError {
            path: String::new(),
            message: crate::model::plain_decode_message(&err),
        });
    }
    serde_path_to_error::deserialize(spec).map_err(|err| SpecError {
        path: err.path().to_string(),
        message: crate::model::plain_decode_message(err.inner()),
    })
}

/// What a spec is decoded from: a `serde_json::Value` tree, or the JSON text itself.
pub(crate) trait SpecInput<'de>: Deserializer<'de, Error = serde_json::Error> {}

impl<'de, D: Deserializer<'de, Error = serde_json::Error>> SpecInput<'de> for D {}

/// `T` from `spec`, or from `{}` when it is null or absent (its CRD defaults).
fn decode_or_empty<'de, T: DeserializeOwned, const TRACKED: bool>(
    spec: impl SpecInput<'de>,
) -> Result<T, SpecError> {
    match decode::<Option<T>, TRACKED>(spec)? {
        Some(spec) => Ok(spec),
        None => decode::<T, TRACKED>(serde_json::Value::Object(serde_json::Map::new())),
    }
}

/// Reads a Placement's `spec` (null or absent: `{}`) for its apiVersion
/// (`cluster.open-cluster-management.io/v1alpha1` or `v1beta1`), applying the CRD defaults.
pub(crate) fn decode_placement_spec<'de>(
    api_version: &str,
    spec: impl SpecInput<'de>,
) -> Result<PlacementSpec, SpecError> {
    placement_spec::<true>(api_version, spec)
}

/// [`decode_placement_spec`] without tracking the path of each field it decodes, `None` where
/// that refuses the spec: the caller decodes it again, tracked, to report why (an untracked
/// error has no path to report). Tracking the path of every field was a fifth of decoding
/// 10k Placements.
pub(crate) fn decode_placement_spec_untracked<'de>(
    api_version: &str,
    spec: impl SpecInput<'de>,
) -> Option<PlacementSpec> {
    placement_spec::<false>(api_version, spec).ok()
}

fn placement_spec<'de, const TRACKED: bool>(
    api_version: &str,
    spec: impl SpecInput<'de>,
) -> Result<PlacementSpec, SpecError> {
    let spec: PlacementSpec = match version(api_version) {
        Some("v1alpha1") => decode_or_empty::<alpha::PlacementSpec, TRACKED>(spec)?.normalise()?,
        _ => decode_or_empty::<_, TRACKED>(spec)?,
    };
    counts_checked(spec)
}

/// The version of an `apiVersion` (`v1beta1` of `cluster.open-cluster-management.io/v1beta1`).
fn version(api_version: &str) -> Option<&str> {
    api_version
        .rsplit_once('/')
        .map(|(_group, version)| version)
}

/// The counts a decoded spec must not have negative (see [`non_negative`]).
fn counts_checked(spec: PlacementSpec) -> Result<PlacementSpec, SpecError> {
    non_negative("numberOfClusters", spec.number_of_clusters)?;
    for (index, predicate) in spec.predicates.iter().enumerate() {
        non_negative(
            &format!("predicates[{index}].numberOfClusters"),
            predicate.number_of_clusters,
        )?;
    }
    Ok(spec)
}

/// The CRD sets no minimum, so the API server stores a negative count, but the placement
/// controller (`selectClusters` at ocm 00f84c32) slices its feasible clusters to that length
/// and panics, stopping scheduling for every placement of the hub: a dry run must fail.
fn non_negative(path: &str, count: Option<i32>) -> Result<(), SpecError> {
    match count {
        Some(count) if count < 0 => Err(SpecError {
            path: path.to_string(),
            message: format!(
                "expected a count of 0 or more, found {count}: the placement controller panics on a negative numberOfClusters"
            ),
        }),
        _ => Ok(()),
    }
}

/// The seed's v1alpha1 shape: per-predicate `clusterSets`/`numberOfClusters`, the selector
/// under `requiredDuringSchedulingRequiredDuringExecution`, and `affinity`.
mod alpha {
    use serde::Deserialize;

    use super::{
        AffinityTerm, ClusterPredicate, ClusterSelector, PrioritizerPolicy, SpecError, Toleration,
    };

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    pub(super) struct PlacementSpec {
        #[serde(default)]
        cluster_sets: Vec<String>,
        #[serde(default)]
        number_of_clusters: Option<i32>,
        #[serde(default)]
        predicates: Vec<Predicate>,
        #[serde(default)]
        prioritizer_policy: PrioritizerPolicy,
        #[serde(default)]
        tolerations: Vec<Toleration>,
        #[serde(default)]
        affinity: Affinity,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Predicate {
        #[serde(default)]
        cluster_sets: Vec<String>,
        #[serde(default)]
        number_of_clusters: Option<i32>,
        #[serde(default)]
        required_during_scheduling_required_during_execution: Option<ClusterSelector>,
        #[serde(default)]
        required_cluster_selector: Option<ClusterSelector>,
    }

    #[derive(Default, Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Affinity {
        #[serde(default)]
        cluster_anti_affinity: AntiAffinity,
    }

    #[derive(Default, Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct AntiAffinity {
        #[serde(default)]
        required_during_scheduling_required_during_execution: Vec<AffinityTerm>,
    }

    impl PlacementSpec {
        /// The seed's per-predicate `clusterSets`/`numberOfClusters` stay on the predicates
        /// (the scheduler evaluates each predicate on its own); a placement-level
        /// `numberOfClusters` beside them would be ambiguous, so it is an error.
        pub(super) fn normalise(self) -> Result<super::PlacementSpec, SpecError> {
            if self.number_of_clusters.is_some() {
                if let Some(index) = self.predicates.iter().position(|predicate| {
                    !predicate.cluster_sets.is_empty() || predicate.number_of_clusters.is_some()
                }) {
                    return Err(SpecError {
                        path: "numberOfClusters".to_string(),
                        message: format!(
                            "expected no placement-level numberOfClusters beside the per-predicate clusterSets/numberOfClusters of predicates[{index}]"
                        ),
                    });
                }
            }
            let predicates = self
                .predicates
                .into_iter()
                .map(|predicate| ClusterPredicate {
                    required_cluster_selector: predicate
                        .required_during_scheduling_required_during_execution
                        .or(predicate.required_cluster_selector)
                        .unwrap_or_default(),
                    cluster_sets: predicate.cluster_sets,
                    number_of_clusters: predicate.number_of_clusters,
                })
                .collect();
            Ok(super::PlacementSpec {
                cluster_sets: self.cluster_sets,
                number_of_clusters: self.number_of_clusters,
                predicates,
                prioritizer_policy: self.prioritizer_policy,
                tolerations: self.tolerations,
                anti_affinity: self
                    .affinity
                    .cluster_anti_affinity
                    .required_during_scheduling_required_during_execution,
                ..super::PlacementSpec::default()
            })
        }
    }
}

/// `spec` of a PlacementRule (`apps.open-cluster-management.io/v1`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlacementRuleSpec {
    #[serde(default)]
    pub scheduler_name: String,
    #[serde(default)]
    pub cluster_replicas: Option<i32>,
    /// `clusters[].name`; when non-empty it replaces `clusterSelector`.
    #[serde(default, deserialize_with = "cluster_names")]
    pub clusters: Vec<String>,
    /// `None` (absent) selects every cluster, as the PlacementRule controller did.
    #[serde(default)]
    pub cluster_selector: Option<LabelSelectorSpec>,
    #[serde(default)]
    pub cluster_conditions: Vec<ClusterConditionFilter>,
    #[serde(default)]
    pub resource_hint: Option<ResourceHint>,
    /// Object references; the controller's policy filter never filtered anything.
    #[serde(default)]
    pub policies: Vec<serde_json::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClusterReference {
    name: String,
}

fn cluster_names<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    Ok(Option::<Vec<ClusterReference>>::deserialize(deserializer)?
        .unwrap_or_default()
        .into_iter()
        .map(|reference| reference.name)
        .collect())
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterConditionFilter {
    #[serde(default, rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub status: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceHint {
    /// `None` for "" (no sorting).
    #[serde(default, rename = "type", deserialize_with = "resource_type")]
    pub resource: Option<HintResource>,
    #[serde(default)]
    pub order: SelectionOrder,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HintResource {
    Cpu,
    Memory,
}

impl HintResource {
    /// The resource name in `status.allocatable`.
    pub fn resource_name(self) -> &'static str {
        match self {
            HintResource::Cpu => "cpu",
            HintResource::Memory => "memory",
        }
    }
}

fn resource_type<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<HintResource>, D::Error> {
    match Option::<String>::deserialize(deserializer)?.as_deref() {
        None | Some("") => Ok(None),
        Some("cpu") => Ok(Some(HintResource::Cpu)),
        Some("memory") => Ok(Some(HintResource::Memory)),
        Some(other) => Err(de::Error::custom(format!(
            "expected cpu or memory, found {other:?}"
        ))),
    }
}

/// The controller sorted descending unless `asc` was given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SelectionOrder {
    Asc,
    #[default]
    Desc,
}

impl<'de> Deserialize<'de> for SelectionOrder {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match String::deserialize(deserializer)?.as_str() {
            "asc" => Ok(SelectionOrder::Asc),
            "" | "desc" => Ok(SelectionOrder::Desc),
            other => Err(de::Error::custom(format!(
                "expected asc or desc, found {other:?}"
            ))),
        }
    }
}

/// Reads a PlacementRule's `spec`.
pub(crate) fn decode_placement_rule_spec<'de>(
    spec: impl SpecInput<'de>,
) -> Result<PlacementRuleSpec, SpecError> {
    Ok(decode::<Option<PlacementRuleSpec>, true>(spec)?.unwrap_or_default())
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RuleStatus {
    #[serde(default)]
    decisions: Vec<RuleDecision>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RuleDecision {
    cluster_name: String,
}

/// The cluster names of a PlacementRule's `status.decisions`, in their order: the previous
/// decisions the rule keeps first.
pub(crate) fn decode_placement_rule_decisions<'de>(
    status: impl SpecInput<'de>,
) -> Result<Vec<String>, SpecError> {
    let status: Option<RuleStatus> = decode::<_, true>(status).map_err(|err| SpecError {
        // serde_path_to_error names the root `.`.
        path: match err.path.as_str() {
            "" | "." => "status".to_string(),
            path => format!("status.{path}"),
        },
        ..err
    })?;
    Ok(status
        .map(|status| status.decisions)
        .unwrap_or_default()
        .into_iter()
        .map(|decision| decision.cluster_name)
        .collect())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::load::Strict;

    use super::*;

    const V1BETA1: &str = "cluster.open-cluster-management.io/v1beta1";
    const V1ALPHA1: &str = "cluster.open-cluster-management.io/v1alpha1";

    /// A spec decoded from its JSON text is the spec decoded from its tree, error or not;
    /// a text that does not decode leaves the tree to report why.
    #[test]
    fn a_spec_read_from_its_text_is_the_spec_read_from_its_tree() {
        let specs = [
            (V1BETA1, json!({})),
            (
                V1BETA1,
                json!({
                    "clusterSets": ["a", "b"],
                    "numberOfClusters": 3,
                    "predicates": [{"requiredClusterSelector": {
                        "labelSelector": {"matchExpressions": [
                            {"key": "region", "operator": "In", "values": ["eu", "us"]}]},
                        "claimSelector": {"matchExpressions": [
                            {"key": "platform", "operator": "Exists"}]},
                        "celSelector": {"celExpressions": ["true"]}}}],
                    "prioritizerPolicy": {"mode": "Exact", "configurations": [
                        {"scoreCoordinate": {"builtIn": "ResourceAllocatableCPU"}, "weight": 2},
                        {"scoreCoordinate": {"type": "AddOn",
                            "addOn": {"resourceName": "r", "scoreName": "s"}}, "weight": -1}]},
                    "tolerations": [{"key": "gpu", "operator": "Exists",
                        "tolerationSeconds": 30}],
                    "spreadPolicy": {"spreadConstraints": [
                        {"topologyKey": "zone", "topologyKeyType": "Label", "maxSkew": 2}]},
                    "decisionStrategy": {"groupStrategy": {
                        "clustersPerDecisionGroup": "25%",
                        "decisionGroups": [{"groupName": "canary",
                            "groupClusterSelector": {"labelSelector": {
                                "matchLabels": {"canary": "true"}}}}]}}
                }),
            ),
            (V1BETA1, json!({"numberOfClusters": -1})),
            (
                V1ALPHA1,
                json!({"predicates": [{"clusterSets": ["a"], "numberOfClusters": -2}]}),
            ),
            (V1BETA1, json!({"numberOfClusters": 1.5})),
            (V1BETA1, json!({"unknownField": true})),
            (V1BETA1, json!(null)),
            (V1BETA1, json!({"prioritizerPolicy": ["Exact", []]})),
            (
                V1ALPHA1,
                json!({"predicates": [{"clusterSets": ["a"], "numberOfClusters": 2,
                    "requiredDuringSchedulingRequiredDuringExecution": {
                        "labelSelector": {"matchLabels": {"env": "prod"}}}}]}),
            ),
            (
                V1ALPHA1,
                json!({"numberOfClusters": 1, "predicates": [{"clusterSets": ["a"]}]}),
            ),
        ];
        let mut decoded = 0;
        for (api_version, spec) in specs {
            let tree = decode_placement_spec(api_version, Strict(spec.clone()));
            let text = spec.to_string();
            let tracked = decode_placement_spec(
                api_version,
                Strict(&mut serde_json::Deserializer::from_str(&text)),
            );
            let untracked = decode_placement_spec_untracked(
                api_version,
                Strict(&mut serde_json::Deserializer::from_str(&text)),
            );
            match (tracked, untracked, tree) {
                (Ok(tracked), Some(untracked), Ok(tree)) => {
                    decoded += 1;
                    assert_eq!(tracked, tree, "{spec}");
                    assert_eq!(untracked, tree, "{spec}");
                }
                (tracked, untracked, tree) => assert!(
                    tracked.is_err() && untracked.is_none() && tree.is_err(),
                    "{spec}"
                ),
            }
        }
        assert_eq!(decoded, 4, "the empty, full, null and alpha specs");
    }

    /// A struct written as a list (its fields in order) is what serde would take and the API
    /// server refuses: the Placement CRD's schema wants an object there.
    #[test]
    fn a_struct_written_as_a_list_is_refused_as_the_api_server_refuses_it() {
        for spec in [
            json!({"prioritizerPolicy": ["Exact", []]}),
            json!({"predicates": [[{"labelSelector": {}}]]}),
            json!(["a"]),
        ] {
            let error = decode_placement_spec(V1BETA1, Strict(spec.clone()));
            assert!(
                error
                    .as_ref()
                    .is_err_and(|error| error.message.contains("expected")),
                "{spec}: {error:?}"
            );
        }
        let rule = decode_placement_rule_spec(Strict(json!({"clusterSelector": [{}]})));
        assert!(rule.is_err(), "{rule:?}");
        let status = decode_placement_rule_decisions(Strict(json!({"decisions": [["c1"]]})));
        assert!(status.is_err(), "{status:?}");
    }

    #[test]
    fn empty_spec_gets_crd_defaults() {
        let spec = decode_placement_spec(V1BETA1, json!({})).unwrap();
        assert_eq!(spec.prioritizer_policy.mode, "Additive");
        assert_eq!(
            spec.decision_strategy
                .group_strategy
                .clusters_per_decision_group,
            IntOrString::String("100%".into())
        );
        assert_eq!(spec.number_of_clusters, None);
    }

    #[test]
    fn configuration_defaults_weight_and_type() {
        let spec = decode_placement_spec(
            V1BETA1,
            json!({"prioritizerPolicy": {"configurations": [{"scoreCoordinate": {"builtIn": "Steady"}}]}}),
        )
        .unwrap();
        let config = &spec.prioritizer_policy.configurations[0];
        assert_eq!(config.weight, 1);
        let coordinate = &config.score_coordinate;
        assert_eq!(coordinate.kind, ScoreCoordinateType::BuiltIn);
        assert_eq!(coordinate.built_in, "Steady");
    }

    #[test]
    fn toleration_and_spread_defaults() {
        let spec = decode_placement_spec(
            V1BETA1,
            json!({
                "tolerations": [{"key": "k"}],
                "spreadPolicy": {"spreadConstraints": [{"topologyKey": "zone", "topologyKeyType": "Label"}]}
            }),
        )
        .unwrap();
        assert_eq!(spec.tolerations[0].operator, TolerationOperator::Equal);
        assert_eq!(spec.tolerations[0].effect, None);
        let constraint = &spec.spread_policy.spread_constraints[0];
        assert_eq!(constraint.max_skew, 1);
        assert_eq!(
            constraint.when_unsatisfiable,
            WhenUnsatisfiable::ScheduleAnyway
        );
    }

    #[test]
    fn a_toleration_is_written_with_only_the_fields_it_sets_and_reads_back() {
        let written = |toleration: &Toleration| serde_yaml::to_string(toleration).unwrap();
        assert_eq!(written(&Toleration::everything()), "operator: Exists\n");
        let spec = decode_placement_spec(
            V1BETA1,
            json!({"tolerations": [{"key": "gpu", "value": "a", "effect": "NoSelectIfNew", "tolerationSeconds": 5}]}),
        )
        .unwrap();
        let text = written(&spec.tolerations[0]);
        assert_eq!(
            text,
            "key: gpu\noperator: Equal\nvalue: a\neffect: NoSelectIfNew\ntolerationSeconds: 5\n"
        );
        let read: Toleration = serde_yaml::from_str(&text).unwrap();
        assert_eq!(read, spec.tolerations[0]);
    }

    #[test]
    fn a_spec_written_reads_back_the_same_and_leaves_out_its_defaults() {
        let spec = decode_placement_spec(
            V1BETA1,
            json!({
                "clusterSets": ["global"],
                "numberOfClusters": 2,
                "predicates": [{"requiredClusterSelector": {
                    "labelSelector": {},
                    "claimSelector": {"matchExpressions": [{"key": "region", "operator": "Exists"}]},
                    "celSelector": {"celExpressions": ["true"]}
                }}],
                "prioritizerPolicy": {"mode": "Exact", "configurations": [
                    {"scoreCoordinate": {"type": "AddOn", "addOn": {"resourceName": "r", "scoreName": "s"}}, "weight": 2}
                ]},
                "spreadPolicy": {"spreadConstraints": [{"topologyKey": "zone", "topologyKeyType": "Label"}]},
                "decisionStrategy": {"groupStrategy": {"clustersPerDecisionGroup": 3}},
                "sortBy": "Score",
                "scoreRateLimit": "1m"
            }),
        )
        .unwrap();
        let written = serde_json::to_value(&spec).unwrap();
        assert_eq!(
            decode_placement_spec(V1BETA1, written.clone()).unwrap(),
            spec
        );
        assert_eq!(
            written["predicates"][0]["requiredClusterSelector"]["labelSelector"],
            json!({}),
            "a label selector written empty stays written"
        );
        assert!(decode_placement_spec(
            V1BETA1,
            json!({"predicates": [{"requiredClusterSelector": {"labelSelector": null}}]})
        )
        .is_err());
        assert_eq!(
            serde_json::to_value(PlacementSpec::default()).unwrap(),
            json!({"clusterSets": [], "predicates": [], "tolerations": []})
        );
    }

    #[test]
    fn clusters_per_decision_group_reads_int_or_string() {
        let spec = decode_placement_spec(
            V1BETA1,
            json!({"decisionStrategy": {"groupStrategy": {"clustersPerDecisionGroup": 3}}}),
        )
        .unwrap();
        assert_eq!(
            spec.decision_strategy
                .group_strategy
                .clusters_per_decision_group,
            IntOrString::Int(3)
        );
    }

    #[test]
    fn error_carries_field_path() {
        let err = decode_placement_spec(
            V1BETA1,
            json!({"predicates": [{"requiredClusterSelector": {"claimSelector": {"matchLabels": {"a": "b"}}}}]}),
        )
        .unwrap_err();
        assert_eq!(
            err.path,
            "predicates[0].requiredClusterSelector.claimSelector.matchLabels"
        );
        assert!(
            err.message.contains("unknown field `matchLabels`"),
            "{}",
            err.message
        );
    }

    #[test]
    fn bad_toleration_effect_is_rejected() {
        let err =
            decode_placement_spec(V1BETA1, json!({"tolerations": [{"effect": "NoSchedule"}]}))
                .unwrap_err();
        assert_eq!(err.path, "tolerations[0].effect");
        assert!(err.message.contains("expected NoSelect"), "{}", err.message);
    }

    #[test]
    fn cel_expressions_are_read() {
        let spec = decode_placement_spec(
            V1BETA1,
            json!({"predicates": [{"requiredClusterSelector": {"celSelector": {"celExpressions": ["true"]}}}]}),
        )
        .unwrap();
        assert_eq!(
            spec.predicates[0].required_cluster_selector.cel_selector,
            vec!["true"]
        );
    }

    #[test]
    fn alpha_predicate_selector_and_anti_affinity_are_normalised() {
        let spec = decode_placement_spec(
            V1ALPHA1,
            json!({
                "predicates": [{
                    "clusterSets": ["set1"],
                    "numberOfClusters": 3,
                    "requiredDuringSchedulingRequiredDuringExecution": {"labelSelector": {"matchLabels": {"vendor": "OpenShift"}}}
                }],
                "affinity": {"clusterAntiAffinity": {"requiredDuringSchedulingRequiredDuringExecution": [
                    {"topologyKey": "region.open-cluster-management.io", "topologyKeyType": "Claim"}
                ]}}
            }),
        )
        .unwrap();
        assert_eq!(spec.predicates[0].cluster_sets, vec!["set1"]);
        assert_eq!(spec.predicates[0].number_of_clusters, Some(3));
        assert!(spec.per_predicate());
        let labels = spec.predicates[0]
            .required_cluster_selector
            .labels()
            .match_labels
            .clone()
            .unwrap();
        assert_eq!(labels.get("vendor").map(String::as_str), Some("OpenShift"));
        assert_eq!(
            spec.anti_affinity,
            vec![AffinityTerm {
                topology_key: "region.open-cluster-management.io".into(),
                topology_key_type: TopologyKeyType::Claim
            }]
        );
    }

    #[test]
    fn alpha_per_predicate_counts_stay_on_their_predicates() {
        let spec = decode_placement_spec(
            V1ALPHA1,
            json!({"predicates": [{"numberOfClusters": 2}, {"numberOfClusters": 1}]}),
        )
        .unwrap();
        let counts: Vec<Option<i32>> = spec
            .predicates
            .iter()
            .map(|predicate| predicate.number_of_clusters)
            .collect();
        assert_eq!(counts, vec![Some(2), Some(1)]);
        assert_eq!(spec.number_of_clusters, None);
    }

    #[test]
    fn a_negative_count_is_an_error_as_the_controller_panics_on_it() {
        for (version, spec, path) in [
            (V1BETA1, json!({"numberOfClusters": -1}), "numberOfClusters"),
            (
                V1ALPHA1,
                json!({"predicates": [{}, {"numberOfClusters": -2}]}),
                "predicates[1].numberOfClusters",
            ),
        ] {
            let err = decode_placement_spec(version, spec).unwrap_err();
            assert_eq!(err.path, path);
            assert!(
                err.message
                    .starts_with("expected a count of 0 or more, found -"),
                "{}",
                err.message
            );
        }
        let zero = decode_placement_spec(V1BETA1, json!({"numberOfClusters": 0})).unwrap();
        assert_eq!(zero.number_of_clusters, Some(0));
    }

    #[test]
    fn alpha_placement_count_beside_predicate_counts_is_an_error() {
        let err = decode_placement_spec(
            V1ALPHA1,
            json!({"numberOfClusters": 3, "predicates": [{}, {"numberOfClusters": 1}]}),
        )
        .unwrap_err();
        assert_eq!(err.path, "numberOfClusters");
        assert!(err.message.contains("predicates[1]"), "{}", err.message);
    }

    #[test]
    fn beta_predicates_are_never_per_predicate() {
        let spec = decode_placement_spec(
            V1BETA1,
            json!({"numberOfClusters": 2, "predicates": [{"requiredClusterSelector": {}}]}),
        )
        .unwrap();
        assert!(!spec.per_predicate());
    }

    #[test]
    fn rule_spec_reads_cluster_names_and_hint() {
        let spec = decode_placement_rule_spec(json!({
            "clusters": [{"name": "a"}, {"name": "b"}],
            "clusterReplicas": 1,
            "resourceHint": {"type": "cpu", "order": "asc"},
            "clusterConditions": [{"type": "ManagedClusterConditionAvailable", "status": "True"}]
        }))
        .unwrap();
        assert_eq!(spec.clusters, vec!["a", "b"]);
        assert_eq!(spec.cluster_replicas, Some(1));
        let hint = spec.resource_hint.unwrap();
        assert_eq!(hint.resource, Some(HintResource::Cpu));
        assert_eq!(hint.order, SelectionOrder::Asc);
        assert_eq!(spec.cluster_conditions[0].status, "True");
    }

    #[test]
    fn rule_hint_order_defaults_to_desc() {
        let spec = decode_placement_rule_spec(json!({"resourceHint": {"type": "memory"}})).unwrap();
        assert_eq!(spec.resource_hint.unwrap().order, SelectionOrder::Desc);
    }

    #[test]
    fn rule_status_decisions_keep_their_order() {
        let names = decode_placement_rule_decisions(json!({
            "decisions": [{"clusterName": "b", "clusterNamespace": "b"}, {"clusterName": "a"}]
        }))
        .unwrap();
        assert_eq!(names, vec!["b", "a"]);
    }
}
