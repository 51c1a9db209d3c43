//! Plain data: what the loader produces and the engines consume. No I/O here.

mod cluster;
mod cluster_index;
mod cluster_names;
mod condition;
pub(crate) mod crd_strings;
mod decision;
mod decode_message;
mod echo;
mod label_selector;
mod labels;
mod object;
mod plan_document;
pub(crate) mod preferences;
pub(crate) mod quantity;
pub(crate) mod time;
mod value_change;
mod vec_map;
mod workload;

pub use crate::registry::WorkloadKind;
pub(crate) use cluster::{
    Binding, Cluster, ClusterSet, ClusterSetSelector, Inventory, Taint, TaintEffect,
    CLUSTERSET_LABEL,
};
pub use cluster_index::ClusterIndex;
pub use cluster_names::ClusterNames;
pub(crate) use cluster_names::{listed, written_as_json, HandedOverList, NameTable};
pub use condition::{Condition, ConditionStatus};
pub use decision::Previous;
pub(crate) use decision::PreviousDecision;
pub(crate) use decode_message::plain_decode_message;
pub(crate) use echo::{echo, shorten_quoted, MAX_LINE_CHARS};
pub(crate) use label_selector::{LabelSelectorRequirementSpec, LabelSelectorSpec};
pub(crate) use labels::{labels_from, Interned, Interner, Labels};
pub use object::ObjectRef;
pub(crate) use object::{object_name, Metadata, Source};
pub(crate) use plan_document::{join_keys, plan_item_keys, PLAN_API_VERSION, PLAN_KIND};
pub use plan_document::{Plan, PlanItem};
pub(crate) use quantity::Quantity;
pub(crate) use value_change::ValueChange;
pub(crate) use vec_map::VecMap;
pub(crate) use workload::Workload;

/// Everything one run reads: the fleet, the workloads that ask for placement, and the
/// previous decisions that keep placements stable.
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub inventory: Inventory,
    /// Sorted by (apiVersion group, kind, namespace, name), the plan's item order.
    pub workloads: Vec<Workload>,
    /// Decision objects read from the inputs (a live hub's export).
    pub decisions: Vec<PreviousDecision>,
    /// Documents that were read but not used: (where, apiVersion/kind). Shown with `--verbose`.
    pub skipped: Vec<(Source, String)>,
    /// Each API's objects besides its workloads (Karmada's fleet, OCM's objects between a
    /// consumer and its placement, KubeFleet's fleet): one store per API, listed in the
    /// registry.
    pub(crate) apis: crate::registry::Stores,
    /// Documents found by walking a directory or glob with neither apiVersion nor kind: not
    /// Kubernetes objects (CI files, templates). Counted by `check`, named with `--verbose`.
    pub not_objects: Vec<Source>,
    /// Paths walking found that are not regular files (FIFOs, sockets, devices), with what
    /// each is; never opened. Named with `--verbose`.
    pub skipped_files: Vec<(String, String)>,
    /// Input problems that do not stop a run (e.g. an inventory label value Kubernetes would
    /// reject). Shown on stderr.
    pub warnings: Vec<String>,
}

impl Model {
    /// Where [`Model::fleet_names`] looks for `workload`'s clusters, as a message says it.
    pub fn fleet_searched(workload: &Workload) -> &'static str {
        crate::registry::fleet_searched(&workload.kind)
    }

    /// The names of the clusters `workload` is placed over: its API's own fleet (Karmada's
    /// for a resource template a Karmada policy may select), the inventory for the others.
    pub fn fleet_names(&self, workload: &Workload) -> Vec<&str> {
        crate::registry::fleet_names(self, &workload.kind)
    }
}
