//! Collecting decoded objects into a [`Model`], refusing duplicates and gathering every
//! error of the run.

use std::collections::hash_map::Entry as Slot;
use std::collections::{BTreeMap, BTreeSet};

use foldhash::HashMap;

use super::clusters::ClusterRun;
use super::fingerprint::Print;
use super::inputs::Input;
use super::{LoadError, LoadErrors};
use crate::model::{
    object_name, Binding, Cluster, ClusterSet, Interner, Model, ObjectRef, PreviousDecision,
    Source, Workload,
};
use crate::registry::{ApiObject, Deferred, Selectors};

/// One object as its kind's reader decoded it (`load/kinds`). Decoding reads the object
/// alone, so a List's items are decoded on every core; [`ModelBuilder::add`] then adds them
/// one after the other in document order, which is where an object's identity is claimed
/// and the fleet's strings are interned: the model and its errors are the one-thread ones.
pub(crate) enum Decoded {
    /// An object kept under its identity: added unless an earlier object has it.
    Claimed {
        object: ObjectRef,
        source: Source,
        entry: Entry,
    },
    /// A cluster of its own object (OCM's, kubefed's, federation v1's `Cluster`),
    /// its labels and claims not yet interned. Cluster names are their own duplicate check.
    Cluster {
        cluster: Cluster,
        labels: BTreeMap<String, String>,
        claims: Vec<(String, String)>,
    },
    /// A ClusterInventory's entries in runs, interned into `strings` on the threads that
    /// decoded them (one interner and one run each).
    Clusters {
        strings: Vec<Interner>,
        runs: Vec<ClusterRun>,
    },
    /// An object its kind's reader refuses as the API server refuses it: every reason, each
    /// an error at its field, in the reader's order (a reader that stops at one reason
    /// returns it as its `Err`).
    Refused(Vec<LoadError>),
    /// An object of a kind no API defines: a skipped document (`skipped`: where, and its
    /// `apiVersion/kind`) unless, once every document is read, the API its reader kept it
    /// for selects it as a workload (the registry's `Selectors`).
    Deferred {
        object: ObjectRef,
        skipped: (Source, String),
        deferred: Deferred,
    },
}

impl Decoded {
    /// Whether this is one object with an identity (a duplicate of it may be the same object
    /// read twice); a ClusterInventory's entries are not objects of their own, and a refused
    /// object is never added.
    pub(super) fn identified(&self) -> bool {
        !matches!(self, Decoded::Clusters { .. } | Decoded::Refused(_))
    }
}

/// What a claimed object adds to the model.
pub(crate) enum Entry {
    /// With the previous decisions it carries (an older OCM placement's `status.decisions`).
    Workload {
        workload: Workload,
        decision: Option<PreviousDecision>,
    },
    ClusterSet(ClusterSet),
    Binding(Binding),
    Decision(PreviousDecision),
    /// An object an API keeps in a store of its own (the registry's list).
    Api(ApiObject),
}

/// (API group, kind, namespace, name): the identity duplicates are judged by. The version
/// is left out: `Placement` v1alpha1 and v1beta1 with one name are the same object.
type ObjectKey = (String, String, Option<String>, String);

/// Where an object was first read, and its content's fingerprint.
type FirstSeen = (Source, Kept);

/// A fingerprint as the builder keeps it (`load::fingerprint`): hashed, `None` when the
/// object has none (which no repetition matches), or where its text is in the inputs, hashed
/// only when a second object claims the identity.
#[derive(Clone, Copy, Debug)]
enum Kept {
    Hashed(Option<u64>),
    /// `len` bytes from `start` of the input at `input`.
    Text {
        input: usize,
        start: usize,
        len: usize,
    },
}

#[derive(Default)]
pub(super) struct ModelBuilder<'t> {
    model: Model,
    errors: Vec<LoadError>,
    /// The inputs being read, which a kept fingerprint's text is in, and the one being read.
    inputs: &'t [Input],
    reading: usize,
    objects: HashMap<ObjectKey, FirstSeen>,
    /// Cluster name → its position in the inventory (whose `source` says where it was) and
    /// its object's fingerprint.
    clusters: HashMap<String, (usize, Kept)>,
    /// The model's distinct label and claim strings, stored once however many clusters share them.
    interner: Interner,
    /// The namespace of namespaced objects written without one.
    namespace: String,
    /// Objects of kinds no API defines that an API may select as workloads (or why one
    /// could not be read), each with the skipped entry it takes back when selected; decided
    /// once every document is read.
    deferred: Vec<(ObjectRef, (Source, String), Deferred, Kept)>,
    /// What only the loading needs is left to the process's exit ([`LoadOptions`]'s).
    ///
    /// [`LoadOptions`]: super::LoadOptions
    left_to_exit: bool,
}

impl<'t> ModelBuilder<'t> {
    /// A builder for objects read from `inputs` (or from trees only, with none).
    pub(super) fn new(namespace: &str, inputs: &'t [Input]) -> ModelBuilder<'t> {
        ModelBuilder {
            namespace: namespace.to_string(),
            inputs,
            ..ModelBuilder::default()
        }
    }

    /// Whether what only the loading needs is left to the process's exit.
    pub(super) fn left_to_exit(&mut self, left: bool) {
        self.left_to_exit = left;
    }

    /// The objects added from now on are read from `inputs[index]`.
    pub(super) fn reading(&mut self, index: usize) {
        self.reading = index;
    }

    /// How `print` is kept: a text of the input being read by where it is in it, anything
    /// else hashed now (a text that is not in it, which no loader makes, still compares).
    fn keep(&self, print: Print<'_>) -> Kept {
        if let (Print::Text(text), Some(input)) = (print, self.inputs.get(self.reading)) {
            let start = (text.as_ptr() as usize).wrapping_sub(input.bytes.as_ptr() as usize);
            if start
                .checked_add(text.len())
                .is_some_and(|end| end <= input.bytes.len())
            {
                return Kept::Text {
                    input: self.reading,
                    start,
                    len: text.len(),
                };
            }
        }
        Kept::Hashed(print.hash())
    }

    /// The fingerprint `kept` stands for.
    fn hash(&self, kept: Kept) -> Option<u64> {
        match kept {
            Kept::Hashed(hash) => hash,
            Kept::Text { input, start, len } => {
                let bytes = self.inputs.get(input)?.bytes.get(start..start + len)?;
                Print::Text(std::str::from_utf8(bytes).ok()?).hash()
            }
        }
    }

    /// The namespace of namespaced objects written without one (`-n`, else `default`).
    pub(super) fn namespace(&self) -> &str {
        &self.namespace
    }

    pub(super) fn error(&mut self, error: LoadError) {
        self.errors.push(error);
    }

    pub(super) fn errors(&mut self, errors: impl IntoIterator<Item = LoadError>) {
        self.errors.extend(errors);
    }

    pub(super) fn warn(&mut self, warning: String) {
        self.model.warnings.push(warning);
    }

    /// A document found by walking that is not a Kubernetes object.
    pub(super) fn not_an_object(&mut self, source: Source) {
        self.model.not_objects.push(source);
    }

    /// Paths walking found that are not regular files.
    pub(super) fn skip_files(&mut self, files: Vec<(String, String)>) {
        self.model.skipped_files.extend(files);
    }

    pub(super) fn skip(&mut self, source: Source, what: String) {
        self.model.skipped.push((source, what));
    }

    /// Room for `items` more objects (a List's): the identity map grown a doubling at a time
    /// re-hashed every identity read so far, serial work that was a third of applying 10k
    /// Policies and their bindings beside 10k Placements. A List of clusters claims none:
    /// its room stays unwritten but for a control byte per slot. The workloads too: a
    /// workload is large, and 20k of them were copied at each doubling; what the List's
    /// other items leave of that room is never written, so never faulted in.
    ///
    /// At most [`MAX_RESERVED`] at once, and only what can be had: a hostile List of tens of
    /// millions of `{}` items must not ask for tens of gigabytes up front (an allocation
    /// that fails aborts); past that the map and the vector grow as they would have.
    pub(super) fn reserve_objects(&mut self, items: usize) {
        let room = items.min(MAX_RESERVED);
        let _ = self.objects.try_reserve(room);
        let _ = self.model.workloads.try_reserve(room);
    }

    /// Adds one decoded object, in document order; `print` is its content's fingerprint.
    pub(super) fn add(&mut self, decoded: Decoded, print: Print<'_>) {
        let fingerprint = self.keep(print);
        match decoded {
            Decoded::Claimed {
                object,
                source,
                entry,
            } => {
                if self.claim(object, source, fingerprint) {
                    self.entry(entry);
                }
            }
            Decoded::Cluster {
                mut cluster,
                labels,
                claims,
            } => {
                cluster.labels = self.interner.labels(&labels);
                cluster.claims = self.interner.labels(claims);
                self.cluster(cluster, fingerprint);
            }
            Decoded::Clusters { strings, runs } => {
                strings
                    .into_iter()
                    .for_each(|strings| self.interner.absorb(strings));
                // Room for the inventory's names at once: 100k names hashed one doubling at a
                // time were re-hashed on one core.
                self.clusters
                    .reserve(runs.iter().map(|run| run.clusters.len()).sum());
                runs.into_iter().for_each(|run| self.cluster_run(run));
            }
            Decoded::Refused(errors) => self.errors.extend(errors),
            Decoded::Deferred {
                object,
                skipped,
                deferred,
            } => {
                self.model.skipped.push(skipped.clone());
                self.deferred.push((object, skipped, deferred, fingerprint));
            }
        }
    }

    fn entry(&mut self, entry: Entry) {
        let model = &mut self.model;
        match entry {
            Entry::Workload { workload, decision } => {
                model.workloads.push(workload);
                model.decisions.extend(decision);
            }
            Entry::ClusterSet(set) => model.inventory.cluster_sets.push(set),
            Entry::Binding(binding) => model.inventory.bindings.push(binding),
            Entry::Decision(decision) => model.decisions.push(decision),
            Entry::Api(object) => object.add(model),
        }
    }

    /// Registers an object's identity; false when it was seen before: a warning naming both
    /// places when the content is the same (the object is kept once), else an error. The
    /// identity's strings move into the key: a claim copies none of them.
    fn claim(&mut self, object: ObjectRef, source: Source, fingerprint: Kept) -> bool {
        let group = object.group().len();
        let ObjectRef {
            // Cut to its group in place: the key's group without a string of its own.
            api_version: mut group_of,
            kind,
            namespace,
            name,
        } = object;
        group_of.truncate(group);
        let first = match self.objects.entry((group_of, kind, namespace, name)) {
            Slot::Vacant(slot) => {
                slot.insert((source, fingerprint));
                return true;
            }
            Slot::Occupied(first) => {
                let (_, kind, namespace, name) = first.key();
                // Named as `ObjectRef`'s `Display` names it (kind, namespace, name).
                (
                    object_name(kind, namespace.as_deref(), name),
                    first.get().clone(),
                )
            }
        };
        let (object, (first, first_fingerprint)) = first;
        let same = self.same(fingerprint, first_fingerprint);
        self.duplicate(&source, object, first, same);
        false
    }

    /// Adds a cluster unless another object already defined that name (the same object read
    /// again is a warning, anything else an error).
    fn cluster(&mut self, cluster: Cluster, fingerprint: Kept) {
        let at = self.model.inventory.clusters.len();
        let (first, first_fingerprint) = match self.clusters.entry(cluster.name.clone()) {
            Slot::Vacant(slot) => {
                slot.insert((at, fingerprint));
                self.model.inventory.clusters.push(cluster);
                return;
            }
            Slot::Occupied(first) => *first.get(),
        };
        let first = self
            .model
            .inventory
            .clusters
            .get(first)
            .map(|first| first.source.clone());
        self.duplicate_cluster(&cluster, fingerprint, first_fingerprint, first);
    }

    /// Adds an inventory's run of clusters as [`Self::cluster`] adds each, its refused
    /// entries' errors in their places among them. The run's vector is kept, not copied: it
    /// becomes the inventory's when the inventory is empty, and is appended to it otherwise.
    fn cluster_run(&mut self, run: ClusterRun) {
        let ClusterRun {
            mut clusters,
            warnings,
            refused,
        } = run;
        self.model.warnings.extend(warnings);
        let base = self.model.inventory.clusters.len();
        let mut refused = refused.into_iter().peekable();
        // The run's clusters another object already named, in order (rarely any).
        let mut dropped: Vec<usize> = Vec::new();
        for (at, cluster) in clusters.iter().enumerate() {
            while let Some((_, error)) = refused.next_if(|&(before, _)| before <= at) {
                self.errors.push(error);
            }
            // One look-up a name (an entry, not a get and then an insert): 100k of them are
            // made on the thread every other waits for.
            let (first, first_fingerprint) = match self.clusters.entry(cluster.name.clone()) {
                Slot::Vacant(slot) => {
                    slot.insert((base + at - dropped.len(), Kept::Hashed(None)));
                    continue;
                }
                Slot::Occupied(first) => *first.get(),
            };
            // A run's clusters are one object's entries: one first named earlier in the run
            // was defined where this one is.
            let first = match self.model.inventory.clusters.get(first) {
                Some(earlier) if first < base => Some(earlier.source.clone()),
                _ => Some(cluster.source.clone()),
            };
            self.duplicate_cluster(cluster, Kept::Hashed(None), first_fingerprint, first);
            dropped.push(at);
        }
        self.errors.extend(refused.map(|(_, error)| error));
        if !dropped.is_empty() {
            let mut at = 0;
            clusters.retain(|_| {
                at += 1;
                dropped.binary_search(&(at - 1)).is_err()
            });
        }
        if self.model.inventory.clusters.is_empty() {
            self.model.inventory.clusters = clusters;
        } else {
            self.model.inventory.clusters.append(&mut clusters);
        }
    }

    /// Reports `cluster` as a second object named as the one first read at `first`.
    fn duplicate_cluster(
        &mut self,
        cluster: &Cluster,
        fingerprint: Kept,
        first_fingerprint: Kept,
        first: Option<Source>,
    ) {
        let same = self.same(fingerprint, first_fingerprint);
        let object = format!("cluster {}", cluster.name);
        self.duplicate(&cluster.source, object, first.unwrap_or_default(), same);
    }

    /// Whether two fingerprints are of the same content (neither missing).
    fn same(&self, one: Kept, other: Kept) -> bool {
        let one = self.hash(one);
        one.is_some() && one == self.hash(other)
    }

    /// An identity read a second time, at `at`: the same content is the same object read
    /// twice (a generator's input and its output), kept once with a warning; different content
    /// is two objects claiming one identity, an error.
    fn duplicate(&mut self, at: &Source, object: String, first: Source, same: bool) {
        if same {
            self.model.warnings.push(format!(
                "{at}: {object}: the same object as at {first}, read once"
            ));
        } else {
            self.errors.push(LoadError::Duplicate {
                at: at.clone(),
                object,
                first,
            });
        }
    }

    /// The deferred objects their API selects become workloads (and stop being skipped
    /// documents), claimed in the order they were read; reading errors count only for those.
    fn keep_selected(&mut self) {
        let deferred = std::mem::take(&mut self.deferred);
        let selectors = Selectors::new(&self.model);
        // How many skipped entries each kept object takes back (a List's items share their
        // document): removed in one pass below, not searched for once per object.
        let mut unskipped: HashMap<(Source, String), usize> = HashMap::default();
        for (object, skipped, deferred, fingerprint) in deferred {
            let workload = match selectors.select(&object, deferred) {
                None => continue,
                Some(Ok(workload)) => workload,
                Some(Err(error)) => {
                    self.errors.push(error);
                    continue;
                }
            };
            if !self.claim(object, workload.source.clone(), fingerprint) {
                continue;
            }
            *unskipped.entry(skipped).or_default() += 1;
            self.model.workloads.push(workload);
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
    pub(super) fn finish(self) -> Result<Model, LoadErrors> {
        match self.finish_partial() {
            (model, errors) if errors.is_empty() => Ok(model),
            (_, errors) => Err(LoadErrors(errors)),
        }
    }

    /// Every object that loaded, and every error found: `check` plans what it could read
    /// and reports the rest. Workloads are sorted by (API group, kind, namespace, name),
    /// the order of the plan's items.
    pub(super) fn finish_partial(mut self) -> (Model, Vec<LoadError>) {
        self.keep_selected();
        let ModelBuilder {
            mut model,
            errors,
            objects,
            clusters,
            interner,
            left_to_exit,
            ..
        } = self;
        // What only the loading needed (an entry per object and per cluster read, each with
        // its strings) is left to a process that exits after its run. Otherwise it is freed on
        // a thread of its own, which nothing waits for: it is serial work of every run (10k
        // placement consumers and the objects binding them made it ~10 ms), done while the
        // workloads are sorted and the run's indexes built. A small model's are freed here, in
        // less time than a thread takes to start; no thread to be had, the failed spawn drops
        // them here too.
        let entries = objects.len() + clusters.len();
        let loading_only = (objects, clusters, interner);
        if left_to_exit {
            std::mem::forget(loading_only);
        } else if entries >= FREED_APART {
            let _freeing = std::thread::Builder::new().spawn(move || drop(loading_only));
        } else {
            drop(loading_only);
        }
        model.workloads = in_plan_order(std::mem::take(&mut model.workloads));
        (model, errors)
    }
}

/// The most objects a List reserves room for ([`ModelBuilder::reserve_objects`]): ten times
/// the 100k objects of a large hub's dump.
const MAX_RESERVED: usize = 1 << 20;

/// Loading entries (objects and clusters read) from which their maps are freed on a thread of
/// their own ([`ModelBuilder::finish_partial`]).
const FREED_APART: usize = 4096;

/// A workload's namespace and name.
type Named<'a> = (Option<&'a str>, &'a str);

/// Workloads of one kind from which two such kinds are sorted on two cores
/// ([`in_plan_order`]): fewer sort in less time than a thread takes to start.
const SORTED_APART: usize = 4096;

/// The workloads sorted by (API group, kind, namespace, name), as a stable sort would.
/// Sorted as keys and positions, then moved once: a workload is large to move, and the sort
/// was ~7% of the main thread's instructions at 100k clusters × 10k placements. A run holds
/// few (group, kind) pairs: each workload's is replaced by its rank among them, so a
/// comparison reads strings only within a kind (10k placement consumers beside 10k
/// placements made the sort 3.5 times as long, every comparison reading both workloads'
/// group and kind in full).
fn in_plan_order(workloads: Vec<Workload>) -> Vec<Workload> {
    // Each workload's kind, read once (its group is cut from its apiVersion).
    let kind_of: Vec<(&str, &str)> = workloads
        .iter()
        .map(|workload| (workload.object.group(), workload.object.kind.as_str()))
        .collect();
    // In order, each once: found in a set, as an input may hold any number of kinds; a run
    // of one kind (as Lists and files hold them) is one look-up.
    let mut kinds = BTreeSet::new();
    let mut previous = None;
    for &kind in &kind_of {
        if previous != Some(kind) {
            kinds.insert(kind);
            previous = Some(kind);
        }
    }
    let kinds: Vec<(&str, &str)> = kinds.into_iter().collect();
    // Workloads of one kind are compared only among themselves: each kind's are sorted
    // apart, two large kinds on two cores (10k Policies beside their 10k Placements, sorted
    // together, were ~4 ms of the thread every other waits for). Positions are distinct, so
    // equal keys keep their order.
    let mut by_kind: Vec<Vec<(Named, usize)>> = vec![Vec::new(); kinds.len()];
    for (at, (workload, kind)) in workloads.iter().zip(&kind_of).enumerate() {
        let object = &workload.object;
        // Every workload's kind is among them.
        let rank = kinds.binary_search(kind).unwrap_or_default();
        if let Some(of_kind) = by_kind.get_mut(rank) {
            of_kind.push(((object.namespace.as_deref(), object.name.as_str()), at));
        }
    }
    let large = by_kind
        .iter()
        .filter(|of_kind| of_kind.len() >= SORTED_APART)
        .count();
    let by_kind = if large >= 2 {
        crate::parallel::map_in_order(&by_kind, |of_kind| {
            let mut of_kind = of_kind.clone();
            of_kind.sort_unstable();
            of_kind
        })
    } else {
        by_kind
            .iter_mut()
            .for_each(|of_kind| of_kind.sort_unstable());
        by_kind
    };
    let order: Vec<usize> = by_kind.into_iter().flatten().map(|(_key, at)| at).collect();
    let mut workloads = workloads;
    permute(&mut workloads, &order);
    workloads
}

/// Puts at each position `i` the item that was at `from[i]` (`from` a permutation of the
/// positions), in place: each cycle of the permutation is walked once, an item swapped into
/// its place at each step. Moving the items out into slots and back into a new vector wrote
/// every large item twice and faulted in two fresh vectors.
fn permute<T>(items: &mut [T], from: &[usize]) {
    let mut placed = vec![false; items.len()];
    for start in 0..items.len() {
        let mut at = start;
        while !placed[at] {
            placed[at] = true;
            let source = from.get(at).copied().unwrap_or(at);
            if source == start || placed.get(source).is_none_or(|&done| done) {
                break;
            }
            items.swap(at, source);
            at = source;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{in_plan_order, permute, SORTED_APART};
    use crate::model::{ObjectRef, Source, Workload};

    /// The order is a stable sort's by (group, kind, namespace, name), whether one kind's
    /// workloads are sorted here or two large kinds' on two cores: names and namespaces in a
    /// scrambled order, kinds interleaved, an identity twice.
    #[test]
    fn workloads_are_in_a_stable_sorts_order_with_one_large_kind_or_two() {
        let workload = |api_version: &str, kind: &str, at: usize| {
            let object = ObjectRef {
                api_version: api_version.to_string(),
                kind: kind.to_string(),
                namespace: (at % 7 != 0).then(|| format!("ns-{}", at * 31 % 5)),
                name: format!("w-{}", at * 7919 % 1013),
            };
            let source = Source {
                document: at,
                ..Source::default()
            };
            crate::testing::annotated(object, source)
        };
        let kinds = [
            ("policy.open-cluster-management.io/v1", "Policy"),
            ("cluster.open-cluster-management.io/v1beta1", "Placement"),
            ("apps/v1", "Deployment"),
        ];
        // How many of each kind: one large kind, two, three.
        let large = SORTED_APART + 10;
        for counts in [
            [large, 30, 5],
            [large, large + 3, 20],
            [large, large, large],
        ] {
            let mut workloads: Vec<Workload> = Vec::new();
            for ((api_version, kind), count) in kinds.iter().zip(counts) {
                for _ in 0..count {
                    let at = workloads.len();
                    workloads.push(workload(api_version, kind, at));
                }
            }
            // Kinds interleaved, as inputs may hold them.
            let scrambled: Vec<usize> = {
                let mut order: Vec<usize> = (0..workloads.len()).collect();
                order.sort_by_key(|&at| at * 7919 % workloads.len());
                order
            };
            permute(&mut workloads, &scrambled);
            let mut expected = workloads.clone();
            expected.sort_by(|one, other| {
                let key = |w: &Workload| {
                    let object = &w.object;
                    (
                        object.group().to_string(),
                        object.kind.clone(),
                        object.namespace.clone(),
                        object.name.clone(),
                    )
                };
                key(one).cmp(&key(other))
            });
            let sorted = in_plan_order(workloads);
            let documents = |workloads: &[Workload]| -> Vec<usize> {
                workloads.iter().map(|w| w.source.document).collect()
            };
            assert_eq!(documents(&sorted), documents(&expected), "{counts:?}");
        }
    }

    /// Each position gets the item `from` names, whatever the cycles: one long cycle, fixed
    /// points, swaps, and every permutation of five items.
    #[test]
    fn permute_puts_each_item_where_its_position_says() {
        fn check(from: &[usize]) {
            let mut items: Vec<String> = (0..from.len()).map(|at| at.to_string()).collect();
            permute(&mut items, from);
            let expected: Vec<String> = from.iter().map(|at| at.to_string()).collect();
            assert_eq!(items, expected, "{from:?}");
        }
        check(&[]);
        check(&[0]);
        check(&[1, 2, 3, 4, 0]);
        check(&[4, 0, 1, 2, 3]);
        check(&[0, 2, 1, 3, 5, 4]);
        // Every permutation of five: the five-digit numbers in base 5 whose digits differ.
        let mut permutations = 0;
        for number in 0..5usize.pow(5) {
            let from: Vec<usize> = (0..5).map(|digit| number / 5usize.pow(digit) % 5).collect();
            if (0..5).all(|at| from.contains(&at)) {
                check(&from);
                permutations += 1;
            }
        }
        assert_eq!(permutations, 120);
    }
}
