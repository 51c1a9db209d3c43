//! The loss report: for every field of every migrated object, what it became, and whether
//! that carries the same meaning (exact), may select differently (approximate), or could not
//! be carried at all (lost). `--verify` then shows whether a possible difference is a real
//! one on the given inventory.

use std::fmt;

use serde::Serialize;

use crate::plan::ItemSource;

/// How faithfully one field was carried.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Fidelity {
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
pub struct FieldReport {
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
    pub fn exact(field: impl Into<String>, became: impl Into<String>) -> FieldReport {
        FieldReport {
            field: field.into(),
            became: became.into(),
            fidelity: Fidelity::Exact,
            reason: None,
        }
    }

    pub fn approximate(
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

    pub fn lost(field: impl Into<String>, reason: impl Into<String>) -> FieldReport {
        FieldReport {
            field: field.into(),
            became: "not carried".to_string(),
            fidelity: Fidelity::Lost,
            reason: Some(reason.into()),
        }
    }

    pub fn because(mut self, reason: impl Into<String>) -> FieldReport {
        self.reason = Some(reason.into());
        self
    }
}

/// What `--verify` compares for a conversion: the old object's item against the new one's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub aspect: Aspect,
    pub old: ItemSource,
    pub new: ItemSource,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Aspect {
    /// The selected clusters (for an annotated object: its cluster-selector alone).
    Clusters,
    /// The replica layout: per-cluster replicas and overflow.
    Replicas,
}

/// One old object and everything made from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Conversion {
    pub source: ItemSource,
    pub outputs: Vec<ItemSource>,
    /// Every field carried is exact.
    pub exact: bool,
    pub fields: Vec<FieldReport>,
    #[serde(skip)]
    pub comparisons: Vec<Comparison>,
}

impl Conversion {
    pub fn new(
        source: ItemSource,
        outputs: Vec<ItemSource>,
        fields: Vec<FieldReport>,
        comparisons: Vec<Comparison>,
    ) -> Conversion {
        Conversion {
            exact: fields.iter().all(|field| field.fidelity == Fidelity::Exact),
            source,
            outputs,
            fields,
            comparisons,
        }
    }
}

/// An object added only so the migrated ones work (a cluster set, a binding).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Added {
    pub object: ItemSource,
    pub reason: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
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

impl fmt::Display for Report {
    /// The text written to stderr: one block per conversion, one line per field.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for conversion in &self.conversions {
            let outputs: Vec<String> = conversion
                .outputs
                .iter()
                .map(ItemSource::to_string)
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
        for error in &self.errors {
            writeln!(f, "error: {error}")?;
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
