//! Collecting decoded objects into a [`Model`], refusing duplicates and gathering every
//! error of the run.

use foldhash::{HashMap, HashSet};

use super::{LoadError, LoadErrors};
use crate::model::karmada::{KarmadaCluster, PropagationPolicy, ResourceBinding, ResourceTemplate};
use crate::model::{
    AddOnPlacementScore, Binding, Cluster, ClusterSet, Interner, Labels, Model, ObjectRef,
    PreviousDecision, Source, Workload, WorkloadKind,
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
    /// The model's distinct label and claim strings, stored once however many clusters share them.
    interner: Interner,
    /// The namespace of namespaced objects written without one.
    namespace: String,
    /// Objects a Karmada policy may select (or why one could not be read); kept once every
    /// policy is known.
    resource_templates: Vec<(ObjectRef, Result<ResourceTemplate, LoadError>)>,
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

    /// A document found by walking that is not a Kubernetes object.
    pub fn not_an_object(&mut self, source: Source) {
        self.model.not_objects.push(source);
    }

    /// Paths walking found that are not regular files.
    pub fn skip_files(&mut self, files: Vec<(String, String)>) {
        self.model.skipped_files.extend(files);
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

    /// The model's interner, for a reader that interns on several threads: each thread takes
    /// a clone, and the clones are absorbed back (`Interner::absorb`).
    pub fn interner(&mut self) -> &mut Interner {
        &mut self.interner
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

    pub fn karmada_cluster(&mut self, cluster: KarmadaCluster) {
        self.model.karmada.clusters.push(cluster);
    }

    pub fn karmada_policy(&mut self, policy: PropagationPolicy) {
        self.model.karmada.policies.push(policy);
    }

    pub fn karmada_binding(&mut self, binding: ResourceBinding) {
        self.model.karmada.bindings.push(binding);
    }

    /// An object of a kind no API defines, as a possible Karmada resource template.
    pub fn karmada_resource(
        &mut self,
        object: &ObjectRef,
        template: Result<ResourceTemplate, LoadError>,
    ) {
        self.resource_templates.push((object.clone(), template));
    }

    /// The resource templates of a kind some Karmada policy selects become workloads (and
    /// stop being skipped documents); reading errors count only for those.
    fn keep_selectable_resources(&mut self) {
        let templates = std::mem::take(&mut self.resource_templates);
        let kinds: HashSet<(String, String)> = self
            .model
            .karmada
            .policies
            .iter()
            .flat_map(|policy| &policy.resource_selectors)
            .map(|selector| (selector.api_version.clone(), selector.kind.clone()))
            .collect();
        // How many skipped entries each kept template takes back (a List's items share their
        // document): removed in one pass below, not searched for once per template.
        let mut unskipped: HashMap<(Source, String), usize> = HashMap::default();
        for (object, template) in templates {
            if !kinds.contains(&(object.api_version.clone(), object.kind.clone())) {
                continue;
            }
            let template = match template {
                Ok(template) => template,
                Err(error) => {
                    self.errors.push(error);
                    continue;
                }
            };
            if !self.claim(&object, &template.source) {
                continue;
            }
            let what = format!("{}/{}", object.api_version, object.kind);
            *unskipped
                .entry((template.source.clone(), what))
                .or_default() += 1;
            self.model.workloads.push(Workload {
                object,
                source: template.source.clone(),
                cluster_selector: None,
                labels: template.labels.clone(),
                kind: WorkloadKind::Karmada(Box::new(template)),
            });
        }
        if !unskipped.is_empty() {
            self.model
                .skipped
                .retain(|entry| match unskipped.get_mut(entry) {
                    Some(left) if *left > 0 => {
                        *left -= 1;
                        false
                    }
                    _ => true,
                });
        }
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
    pub fn finish_partial(mut self) -> (Model, Vec<LoadError>) {
        self.keep_selectable_resources();
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
