//! `--verify`: plan the old objects and the migrated ones against the same inventory and
//! compare, per converted object, what each side selects.
//!
//! - The old side is the inputs as loaded. For a cluster-selector the clusters federation
//!   chose (selector ∩ online) are compared, so an object that also had replica preferences
//!   is planned a second time without them; for replica preferences the layout (clusters,
//!   replicas, overflow) of the annotated object is compared with the RSP's, which has the
//!   same `namespace/name` and so the same hash order.
//! - The new side is the inputs with every migrated object replaced or removed, plus the
//!   created objects, loaded through the loader like any input: a migrated object the loader
//!   rejects fails the run, one it warns about is reported. Stand-ins (Karmada Clusters made
//!   from an inventory without them) are loaded with them.
//! - Nothing is hidden: item errors on either side are differences too.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt;

use serde::Serialize;

use crate::load::{self, Document, LoadErrors};
use crate::model::{Model, WorkloadKind};
use crate::plan::{self, ObjectRef, PlanItem, PlanOptions};

use super::objects;
use super::report::{Aspect, Comparison};
use super::Migration;

/// One converted object: identical when every comparison is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Verification {
    pub source: ObjectRef,
    pub identical: bool,
    pub checks: Vec<Check>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Check {
    pub aspect: Aspect,
    pub new: ObjectRef,
    /// How many clusters the two sides were planned over (the union of both fleets): each
    /// one's membership, and for replicas its count, was compared.
    pub compared: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<Difference>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub(crate) enum Difference {
    /// Selected before the migration, not after.
    OnlyBefore {
        cluster: String,
    },
    /// Selected after the migration, not before.
    OnlyAfter {
        cluster: String,
    },
    Replicas {
        cluster: String,
        before: i64,
        after: i64,
    },
    Overflow {
        cluster: String,
        before: i64,
        after: i64,
    },
    ErrorBefore {
        message: String,
    },
    ErrorAfter {
        message: String,
    },
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Difference::OnlyBefore { cluster } => write!(f, "- {cluster} (selected before only)"),
            Difference::OnlyAfter { cluster } => write!(f, "+ {cluster} (selected after only)"),
            Difference::Replicas {
                cluster,
                before,
                after,
            } => write!(f, "~ {cluster} replicas {before} -> {after}"),
            Difference::Overflow {
                cluster,
                before,
                after,
            } => write!(f, "~ {cluster} overflow {before} -> {after}"),
            Difference::ErrorBefore { message } => write!(f, "! error before: {message}"),
            Difference::ErrorAfter { message } => write!(f, "! error after: {message}"),
        }
    }
}

/// The verification, plus warnings the migrated objects load with.
pub(crate) struct Verified {
    pub items: Vec<Verification>,
    pub warnings: Vec<String>,
}

/// The inputs as migrated: each converted object replaced by what it became, the objects
/// made for them and the stand-in clusters added, loaded again.
fn migrated(
    documents: &[Document],
    migration: &Migration,
    namespace: &str,
) -> Result<Model, LoadErrors> {
    let mut new_documents = objects::replace(documents, &migration.replaced);
    new_documents.extend(
        migration
            .created
            .iter()
            .chain(&migration.stand_ins)
            .enumerate()
            .map(|(index, value)| Document {
                source: crate::model::Source {
                    file: "<migrated>".to_string(),
                    document: index + 1,
                    line: None,
                },
                value: value.clone(),
                misread: Vec::new(),
                item_lines: Vec::new(),
            }),
    );
    // The namespace the inputs were read with: a migrated object written into another
    // namespace than its input would land in plans as a different item, not as identical.
    load::load_documents(&new_documents, namespace)
}

/// The inputs without the replica-set-preferences annotations: what the cluster selection
/// alone chose, which a Placement made from the cluster-selector is compared with.
fn selection_only(model: &Model) -> Model {
    let mut selection_model = model.clone();
    for workload in &mut selection_model.workloads {
        if let WorkloadKind::Annotated {
            replica_set_preferences,
            ..
        } = &mut workload.kind
        {
            *replica_set_preferences = None;
        }
    }
    selection_model
}

/// `--verify`: each conversion's comparisons, and each placement consumer's clusters, planned
/// from the inputs and from the inputs as migrated.
pub(crate) fn verify(
    model: &Model,
    documents: &[Document],
    migration: &Migration,
    namespace: &str,
    options: &PlanOptions,
) -> Result<Verified, LoadErrors> {
    let new_model = migrated(documents, migration, namespace)?;
    let known: HashSet<&String> = model.warnings.iter().collect();
    let warnings = new_model
        .warnings
        .iter()
        .filter(|warning| !known.contains(warning))
        .map(|warning| format!("migrated objects: {warning}"))
        .collect();

    let selection_model = selection_only(model);
    let before = plan::build(model, options);
    let selection = plan::build(&selection_model, options);
    let after = plan::build(&new_model, options);
    let index = |items: &[PlanItem]| -> HashMap<ObjectRef, PlanItem> {
        items
            .iter()
            .map(|item| (item.source.clone(), item.clone()))
            .collect()
    };
    let before = index(&before.plan.items);
    let selection = index(&selection.plan.items);
    let after = index(&after.plan.items);
    let fleets = Fleets::new(model, &new_model);

    let items = migration
        .report
        .conversions
        .iter()
        .filter(|conversion| !conversion.comparisons.is_empty())
        .map(|conversion| {
            let checks: Vec<Check> = conversion
                .comparisons
                .iter()
                .map(|comparison| {
                    let old = match comparison.aspect {
                        Aspect::Clusters => selection.get(&comparison.old),
                        Aspect::Replicas => before.get(&comparison.old),
                    };
                    let mut check = check(comparison, old, after.get(&comparison.new));
                    check.compared = fleets.compared(comparison);
                    check
                })
                .collect();
            Verification {
                source: conversion.source.clone(),
                identical: checks.iter().all(|check| check.differences.is_empty()),
                checks,
            }
        })
        .collect::<Vec<_>>();
    // Placement consumers (a Policy through its policy binding, an application…) must land
    // on the same clusters before and after, whatever their placement was migrated to.
    let mut items = items;
    items.extend(
        model
            .workloads
            .iter()
            .filter(|workload| matches!(workload.kind, WorkloadKind::Consumer(_)))
            .map(|workload| {
                let source = workload.object.clone();
                let comparison = Comparison {
                    aspect: Aspect::Clusters,
                    old: source.clone(),
                    new: source.clone(),
                };
                let mut check = check(&comparison, before.get(&source), after.get(&source));
                check.compared = fleets.compared(&comparison);
                Verification {
                    identical: check.differences.is_empty(),
                    source,
                    checks: vec![check],
                }
            }),
    );
    Ok(Verified { items, warnings })
}

fn check(comparison: &Comparison, old: Option<&PlanItem>, new: Option<&PlanItem>) -> Check {
    let empty = PlanItem::default();
    let mut differences = Vec::new();
    if new.is_none() {
        differences.push(Difference::ErrorAfter {
            message: format!("{} was not planned", comparison.new),
        });
    }
    let old = old.unwrap_or(&empty);
    let new = new.unwrap_or(&empty);
    let before: BTreeSet<&str> = old.clusters.iter().collect();
    let after: BTreeSet<&str> = new.clusters.iter().collect();
    differences.extend(
        before
            .difference(&after)
            .map(|cluster| Difference::OnlyBefore {
                cluster: cluster.to_string(),
            }),
    );
    differences.extend(
        after
            .difference(&before)
            .map(|cluster| Difference::OnlyAfter {
                cluster: cluster.to_string(),
            }),
    );
    if comparison.aspect == Aspect::Replicas {
        for (cluster, before, after) in changed(&old.replicas, &new.replicas) {
            differences.push(Difference::Replicas {
                cluster,
                before,
                after,
            });
        }
        for (cluster, before, after) in changed(&old.overflow, &new.overflow) {
            differences.push(Difference::Overflow {
                cluster,
                before,
                after,
            });
        }
    }
    differences.extend(old.errors.iter().map(|message| Difference::ErrorBefore {
        message: message.clone(),
    }));
    differences.extend(new.errors.iter().map(|message| Difference::ErrorAfter {
        message: message.clone(),
    }));
    Check {
        aspect: comparison.aspect,
        new: comparison.new.clone(),
        compared: 0,
        differences,
    }
}

/// The fleets each side is planned over: the inventory, or the Karmada Clusters for a
/// resource template a Karmada policy places ([`Model::fleet_names`]).
struct Fleets {
    /// The items of each side that Karmada places.
    karmada_before: HashSet<ObjectRef>,
    karmada_after: HashSet<ObjectRef>,
    /// The union's size for (old side Karmada, new side Karmada).
    sizes: [[usize; 2]; 2],
}

impl Fleets {
    fn new(before: &Model, after: &Model) -> Fleets {
        let karmada = |model: &Model| -> HashSet<ObjectRef> {
            model
                .workloads
                .iter()
                .filter(|workload| matches!(workload.kind, WorkloadKind::Karmada(_)))
                .map(|workload| workload.object.clone())
                .collect()
        };
        let names = |model: &Model, karmada: bool| -> HashSet<String> {
            if karmada {
                model
                    .apis
                    .karmada
                    .clusters
                    .iter()
                    .map(|c| c.name.clone())
                    .collect()
            } else {
                model
                    .inventory
                    .clusters
                    .iter()
                    .map(|c| c.name.clone())
                    .collect()
            }
        };
        let mut sizes = [[0; 2]; 2];
        for (old, row) in sizes.iter_mut().enumerate() {
            let old_names = names(before, old == 1);
            for (new, size) in row.iter_mut().enumerate() {
                *size = old_names.union(&names(after, new == 1)).count();
            }
        }
        Fleets {
            karmada_before: karmada(before),
            karmada_after: karmada(after),
            sizes,
        }
    }

    fn compared(&self, comparison: &Comparison) -> usize {
        let old = usize::from(self.karmada_before.contains(&comparison.old));
        let new = usize::from(self.karmada_after.contains(&comparison.new));
        self.sizes[old][new]
    }
}

/// Clusters whose count differs (a missing entry is 0), by name.
fn changed(
    before: &BTreeMap<String, i64>,
    after: &BTreeMap<String, i64>,
) -> Vec<(String, i64, i64)> {
    let names: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    names
        .into_iter()
        .filter_map(|name| {
            let old = before.get(name).copied().unwrap_or(0);
            let new = after.get(name).copied().unwrap_or(0);
            (old != new).then(|| (name.clone(), old, new))
        })
        .collect()
}

fn aspect(aspect: Aspect) -> &'static str {
    match aspect {
        Aspect::Clusters => "clusters",
        Aspect::Replicas => "replicas",
    }
}

/// The text `--verify` prints: one line per object, then each difference.
pub(crate) fn render(verifications: &[Verification]) -> String {
    let mut out = String::new();
    for verification in verifications {
        let verdict = if verification.identical {
            "identical"
        } else {
            "different"
        };
        let compared: Vec<String> = verification
            .checks
            .iter()
            .map(|check| {
                let what = match check.aspect {
                    Aspect::Clusters => "selection",
                    Aspect::Replicas => "replicas",
                };
                format!("{what} compared on {} clusters", check.compared)
            })
            .collect();
        out.push_str(&format!(
            "{}: {verdict} ({})\n",
            verification.source,
            compared.join("; ")
        ));
        for check in &verification.checks {
            if check.differences.is_empty() {
                continue;
            }
            out.push_str(&format!("  {} of {}:\n", aspect(check.aspect), check.new));
            for difference in &check.differences {
                out.push_str(&format!("    {difference}\n"));
            }
        }
    }
    out
}
