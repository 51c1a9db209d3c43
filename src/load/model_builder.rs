//! Collecting decoded objects into a [`Model`], refusing duplicates and gathering every
//! error of the run.

use std::collections::HashMap;

use super::{LoadError, LoadErrors};
use crate::model::{
    AddOnPlacementScore, Binding, Cluster, ClusterSet, Interner, Labels, Model, ObjectRef,
    PreviousDecision, Source, Workload,
};

/// (API group, kind, namespace, name): the identity duplicates are judged by. The version
/// is left out: `Placement` v1alpha1 and v1beta1 with one name are the same object.
type ObjectKey = (String, String, Option<String>, String);

#[derive(Default)]
pub struct ModelBuilder {
    model: Model,
    errors: Vec<LoadError>,
    objects: HashMap<ObjectKey, Source>,
    /// Cluster name → its position in the inventory (whose `source` says where it was).
    clusters: HashMap<String, usize>,
    /// The model's distinct label and claim strings (issue 9).
    interner: Interner,
    /// The namespace of namespaced objects written without one.
    namespace: String,
}

impl ModelBuilder {
    pub fn new(namespace: &str) -> ModelBuilder {
        ModelBuilder {
            namespace: namespace.to_string(),
            ..ModelBuilder::default()
        }
    }

    /// The namespace of namespaced objects written without one (`-n`, else `default`).
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    pub fn error(&mut self, error: LoadError) {
        self.errors.push(error);
    }

    pub fn errors(&mut self, errors: impl IntoIterator<Item = LoadError>) {
        self.errors.extend(errors);
    }

    pub fn warn(&mut self, warning: String) {
        self.model.warnings.push(warning);
    }

    pub fn skip(&mut self, source: Source, what: String) {
        self.model.skipped.push((source, what));
    }

    /// Registers an object's identity; false (and an error naming both places) when it was
    /// seen before.
    pub fn claim(&mut self, object: &ObjectRef, source: &Source) -> bool {
        let key = (
            object.group().to_string(),
            object.kind.clone(),
            object.namespace.clone(),
            object.name.clone(),
        );
        if let Some(first) = self.objects.get(&key) {
            self.errors.push(LoadError::Duplicate {
                at: source.clone(),
                object: object.to_string(),
                first: first.clone(),
            });
            return false;
        }
        self.objects.insert(key, source.clone());
        true
    }

    /// A cluster's labels or claims, each distinct key and value shared across the model.
    pub fn labels<K: AsRef<str>, V: AsRef<str>>(
        &mut self,
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Labels {
        self.interner.labels(pairs)
    }

    /// Adds a cluster unless another cluster kind already defined that name.
    pub fn cluster(&mut self, cluster: Cluster) {
        let clusters = &mut self.model.inventory.clusters;
        if let Some(first) = self
            .clusters
            .get(&cluster.name)
            .and_then(|&at| clusters.get(at))
        {
            self.errors.push(LoadError::Duplicate {
                at: cluster.source.clone(),
                object: format!("cluster {}", cluster.name),
                first: first.source.clone(),
            });
            return;
        }
        self.clusters.insert(cluster.name.clone(), clusters.len());
        clusters.push(cluster);
    }

    pub fn cluster_set(&mut self, set: ClusterSet) {
        self.model.inventory.cluster_sets.push(set);
    }

    pub fn binding(&mut self, binding: Binding) {
        self.model.inventory.bindings.push(binding);
    }

    pub fn addon_score(&mut self, score: AddOnPlacementScore) {
        self.model.inventory.addon_scores.push(score);
    }

    pub fn decision(&mut self, decision: PreviousDecision) {
        self.model.decisions.push(decision);
    }

    pub fn workload(&mut self, workload: Workload) {
        self.model.workloads.push(workload);
    }

    /// The model, or every error found.
    pub fn finish(self) -> Result<Model, LoadErrors> {
        match self.finish_partial() {
            (model, errors) if errors.is_empty() => Ok(model),
            (_, errors) => Err(LoadErrors(errors)),
        }
    }

    /// Every object that loaded, and every error found: `check` plans what it could read
    /// and reports the rest. Workloads are sorted by (API group, kind, namespace, name),
    /// the order of the plan's items.
    pub fn finish_partial(self) -> (Model, Vec<LoadError>) {
        let mut model = self.model;
        model.workloads.sort_by(|a, b| {
            (
                a.object.group(),
                &a.object.kind,
                &a.object.namespace,
                &a.object.name,
            )
                .cmp(&(
                    b.object.group(),
                    &b.object.kind,
                    &b.object.namespace,
                    &b.object.name,
                ))
        });
        (model, self.errors)
    }
}
