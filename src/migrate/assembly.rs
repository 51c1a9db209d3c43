//! What a migration has made so far. Both targets record each converted input object
//! through [`Assembly::record`], so identity collisions, namespaces left out as the input left
//! them out, and what `--verify` replaces are handled in one place.

use std::collections::HashSet;

use serde_yaml::Value;

use crate::model::{Model, ObjectRef, Workload};

use super::manifest::Emitted;
use super::objects::Location;
use super::report::{Comparison, Conversion, Report};
use super::{Converted, Migration};

/// The identity duplicates are judged by (the loader's rule: group, kind, namespace, name).
type Key = (String, String, Option<String>, String);

fn key(object: &ObjectRef) -> Key {
    (
        object.group().to_string(),
        object.kind.clone(),
        object.namespace.clone(),
        object.name.clone(),
    )
}

/// One input object's conversion, ready to record.
pub(crate) struct Recorded {
    pub converted: Converted,
    /// The input object re-emitted (an annotation removed), or `None` when the migration
    /// deletes it.
    pub stripped: Option<Value>,
    pub location: Location,
    /// `metadata.namespace` was written on the input: the outputs keep theirs only then.
    pub written: bool,
    pub comparisons: Vec<Comparison>,
    /// Objects another conversion writes that carry this one too (the policy a replica
    /// division's weights go into).
    pub carried_by: Vec<ObjectRef>,
    /// Other input objects an output takes the place of (a federated namespace's Namespace
    /// is the plain Namespace of the inputs, labelled).
    pub replaces: Vec<Location>,
}

pub(crate) struct Assembly {
    taken: HashSet<Key>,
    pub report: Report,
    objects: Vec<Emitted>,
    /// Input objects replaced (`Some`) or deleted (`None`) by the migration.
    replaced: Vec<(Location, Option<Value>)>,
    /// Objects the migration creates.
    created: Vec<Value>,
    /// What each converted input object became, as written, by its location (`--in-place`
    /// puts them where it was).
    made: Vec<(Location, Vec<Value>)>,
}

impl Assembly {
    /// Every workload of the inputs is taken: nothing made may reuse its identity.
    pub(crate) fn new(model: &Model) -> Assembly {
        Assembly {
            taken: model.workloads.iter().map(|w| key(&w.object)).collect(),
            report: Report::default(),
            objects: Vec::new(),
            replaced: Vec::new(),
            created: Vec::new(),
            made: Vec::new(),
        }
    }

    /// Records `recorded` as what `workload` became; `false` (with an error in the report)
    /// when an object it would make already exists.
    pub(crate) fn record(&mut self, workload: &Workload, recorded: Recorded) -> bool {
        let object = &workload.object;
        let Recorded {
            mut converted,
            stripped,
            location,
            written,
            comparisons,
            carried_by,
            replaces,
        } = recorded;
        let collision = converted
            .outputs
            .iter()
            .map(|emitted| &emitted.object)
            .find(|made| self.taken.contains(&key(made)));
        if let Some(made) = collision {
            self.report.errors.push(format!(
                "{}: {object}: {made} already exists in the inputs or another migration",
                workload.source
            ));
            return false;
        }
        if !written {
            for emitted in &mut converted.outputs {
                emitted.drop_namespace();
            }
        }
        let mut outputs: Vec<ObjectRef> = Vec::new();
        for emitted in &converted.outputs {
            self.taken.insert(key(&emitted.object));
            outputs.push(emitted.object.clone());
            self.created.push(emitted.value.clone());
        }
        self.made.push((
            location.clone(),
            converted.outputs.iter().map(|e| e.value.clone()).collect(),
        ));
        self.objects.extend(converted.outputs);
        if let Some(stripped) = &stripped {
            // Written back, maybe in the apiVersion that replaced a removed one.
            let mut written = object.clone();
            if let Some(api_version) = stripped.get("apiVersion").and_then(Value::as_str) {
                written.api_version = api_version.to_string();
            }
            outputs.push(written.clone());
            self.objects.push(Emitted {
                object: written,
                value: stripped.clone(),
            });
        }
        outputs.extend(carried_by.iter().cloned());
        self.replaced.push((location, stripped));
        self.replaced
            .extend(replaces.into_iter().map(|location| (location, None)));
        self.report.conversions.push(Conversion::new(
            object.clone(),
            outputs,
            converted.fields,
            comparisons,
        ));
        true
    }

    /// An input object rewritten in place (a consumer's reference), kept in input order
    /// after the conversions.
    pub(crate) fn rewrite(
        &mut self,
        emitted: Emitted,
        location: Location,
        mut conversion: Conversion,
    ) {
        conversion.reference = true;
        self.replaced.push((location, Some(emitted.value.clone())));
        self.report.conversions.push(conversion);
        self.objects.push(emitted);
    }

    /// The migration: `first` (objects the others need, such as cluster sets) before the
    /// recorded ones.
    pub(crate) fn finish(self, first: Vec<Emitted>) -> Migration {
        let mut created = self.created;
        created.extend(first.iter().map(|emitted| emitted.value.clone()));
        let support = first.clone();
        let mut objects = first;
        objects.extend(self.objects);
        Migration {
            objects,
            report: self.report,
            verification: None,
            replaced: self.replaced,
            created,
            stand_ins: Vec::new(),
            made: self.made,
            support,
            copies: Vec::new(),
            rewrite: None,
        }
    }
}
