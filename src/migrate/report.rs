//! The loss report: for every field of every migrated object, what it became, and whether
//! that carries the same meaning (exact), may select differently (approximate), or could not
//! be carried at all (lost). `--verify` then shows whether a possible difference is a real
//! one on the given inventory.

use std::fmt;

use serde::Serialize;

use crate::plan::ObjectRef;

use super::verify::Verification;

/// How faithfully one field was carried, from best to worst (a conversion is as faithful as
/// its worst field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Fidelity {
    /// Same meaning under the new scheduler.
    Exact,
    /// Carried, but the new scheduler can decide differently (the reason says when).
    Approximate,
    /// Not carried.
    Lost,
}

impl fmt::Display for Fidelity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fidelity::Exact => "exact",
            Fidelity::Approximate => "approximate",
            Fidelity::Lost => "lost",
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FieldReport {
    /// The field of the old object (`spec.clusterSelector`), or a behaviour in parentheses
    /// (`(taints)`) where the old scheduler had a rule but no field.
    pub field: String,
    /// What it became in the new objects, or why nothing.
    pub became: String,
    pub fidelity: Fidelity,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl FieldReport {
    pub(crate) fn exact(field: impl Into<String>, became: impl Into<String>) -> FieldReport {
        FieldReport {
            field: field.into(),
            became: became.into(),
            fidelity: Fidelity::Exact,
            reason: None,
        }
    }

    pub(crate) fn approximate(
        field: impl Into<String>,
        became: impl Into<String>,
        reason: impl Into<String>,
    ) -> FieldReport {
        FieldReport {
            field: field.into(),
            became: became.into(),
            fidelity: Fidelity::Approximate,
            reason: Some(reason.into()),
        }
    }

    pub(crate) fn lost(field: impl Into<String>, reason: impl Into<String>) -> FieldReport {
        FieldReport {
            field: field.into(),
            became: "not carried".to_string(),
            fidelity: Fidelity::Lost,
            reason: Some(reason.into()),
        }
    }

    pub(crate) fn because(mut self, reason: impl Into<String>) -> FieldReport {
        self.reason = Some(reason.into());
        self
    }
}

/// What `--verify` compares for a conversion: the old object's item against the new one's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Comparison {
    pub aspect: Aspect,
    pub old: ObjectRef,
    pub new: ObjectRef,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Aspect {
    /// The selected clusters (for an annotated object: its cluster-selector alone).
    Clusters,
    /// The replica layout: per-cluster replicas and overflow.
    Replicas,
}

/// One old object and everything made from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Conversion {
    pub source: ObjectRef,
    pub outputs: Vec<ObjectRef>,
    /// Every field carried is exact.
    pub exact: bool,
    /// A consumer whose reference to a migrated object was rewritten (a policy binding, an
    /// application subscription), not an object migrated itself; the summary counts it apart.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reference: bool,
    pub fields: Vec<FieldReport>,
    #[serde(skip)]
    pub comparisons: Vec<Comparison>,
}

impl Conversion {
    pub(crate) fn new(
        source: ObjectRef,
        outputs: Vec<ObjectRef>,
        fields: Vec<FieldReport>,
        comparisons: Vec<Comparison>,
    ) -> Conversion {
        Conversion {
            exact: fields.iter().all(|field| field.fidelity == Fidelity::Exact),
            reference: false,
            source,
            outputs,
            fields,
            comparisons,
        }
    }
}

impl Conversion {
    /// Its worst field's fidelity (exact when it has none).
    pub(crate) fn fidelity(&self) -> Fidelity {
        self.fields
            .iter()
            .map(|field| field.fidelity)
            .max()
            .unwrap_or(Fidelity::Exact)
    }
}

/// An object added only so the migrated ones work (a cluster set, a binding).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Added {
    pub object: ObjectRef,
    pub reason: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Report {
    pub conversions: Vec<Conversion>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<Added>,
    /// Problems that do not stop the migration (a `--set` missing from the inputs).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Objects that could not be migrated (`file#document: Kind/ns/name: message`); the
    /// others still are.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
}

impl Report {
    /// The counts the summary line states; `verification` when `--verify` ran.
    pub(crate) fn summary(&self, verification: Option<&[Verification]>) -> Summary {
        let mut summary = Summary::default();
        for conversion in &self.conversions {
            if conversion.reference {
                summary.references += 1;
                continue;
            }
            summary.migrated += 1;
            match conversion.fidelity() {
                Fidelity::Exact => summary.exact += 1,
                Fidelity::Approximate => summary.approximate += 1,
                Fidelity::Lost => summary.lost += 1,
            }
        }
        summary.failed = self.errors.len();
        summary.verified = verification.map(|items| {
            let identical = items.iter().filter(|item| item.identical).count();
            (identical, items.len() - identical)
        });
        summary
    }

    /// One `error:` line per object or input that could not be migrated, in input order.
    pub(crate) fn errors(&self) -> String {
        self.errors
            .iter()
            .map(|error| format!("error: {error}\n"))
            .collect()
    }

    /// The conversions as faithful as `threshold` or worse (what `--fail-on` refuses).
    pub(crate) fn at_or_below(&self, threshold: Fidelity) -> Vec<&Conversion> {
        self.conversions
            .iter()
            .filter(|conversion| conversion.fidelity() >= threshold)
            .collect()
    }
}

/// The last line of the report: how many objects were migrated, how faithfully, and what
/// `--verify` found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Summary {
    /// Input objects converted (not counting rewritten references).
    pub migrated: usize,
    pub exact: usize,
    pub approximate: usize,
    pub lost: usize,
    /// Consumers whose reference was rewritten.
    pub references: usize,
    /// Input objects that could not be migrated.
    pub failed: usize,
    /// `--verify`: (identical, different).
    #[serde(skip)]
    pub verified: Option<(usize, usize)>,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} migrated: {} exact, {} approximate, {} lost",
            self.migrated, self.exact, self.approximate, self.lost
        )?;
        if self.references > 0 {
            write!(f, "; {} references rewritten", self.references)?;
        }
        if self.failed > 0 {
            write!(f, "; {} failed", self.failed)?;
        }
        if let Some((identical, different)) = self.verified {
            write!(f, "; verified {identical} identical")?;
            if different > 0 {
                write!(f, ", {different} different")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Report {
    /// The text written to stderr: one block per conversion, one line per field. The errors
    /// are said last, after the summary line (`errors()`), so the list of what failed ends
    /// the output however long the report.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for conversion in &self.conversions {
            let outputs: Vec<String> = conversion
                .outputs
                .iter()
                .map(ObjectRef::to_string)
                .collect();
            writeln!(
                f,
                "{} -> {}: {}",
                conversion.source,
                outputs.join(", "),
                if conversion.exact { "exact" } else { "lossy" }
            )?;
            for field in &conversion.fields {
                write!(
                    f,
                    "  {}: {} -> {}",
                    field.fidelity, field.field, field.became
                )?;
                if let Some(reason) = &field.reason {
                    write!(f, " ({reason})")?;
                }
                writeln!(f)?;
            }
        }
        for added in &self.added {
            writeln!(f, "added {}: {}", added.object, added.reason)?;
        }
        for warning in &self.warnings {
            writeln!(f, "warning: {warning}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::source;

    #[test]
    fn a_conversion_is_exact_only_when_every_field_is() {
        let exact = Conversion::new(
            source("v1", "PlacementRule", Some("shop"), "a"),
            vec![],
            vec![FieldReport::exact(
                "spec.clusterReplicas",
                "spec.numberOfClusters",
            )],
            vec![],
        );
        let lossy = Conversion::new(
            source("v1", "PlacementRule", Some("shop"), "a"),
            vec![],
            vec![
                FieldReport::exact("spec.clusterReplicas", "spec.numberOfClusters"),
                FieldReport::lost("spec.schedulerName", "no such field"),
            ],
            vec![],
        );
        assert!(exact.exact);
        assert!(!lossy.exact);
    }

    #[test]
    fn text_names_each_field_with_its_fidelity_and_reason() {
        let report = Report {
            conversions: vec![Conversion::new(
                source("v1", "PlacementRule", Some("shop"), "a"),
                vec![source("v1", "Placement", Some("shop"), "a")],
                vec![FieldReport::lost("spec.schedulerName", "no such field")],
                vec![],
            )],
            ..Report::default()
        };
        assert_eq!(
            report.to_string(),
            "PlacementRule/shop/a -> Placement/shop/a: lossy\n  lost: spec.schedulerName -> not carried (no such field)\n"
        );
    }
}
