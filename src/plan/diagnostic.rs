//! What planning says about an object besides its plan: each warning and error a value (the
//! document and object it is about, what kind of problem, the field), formatted only where it
//! is reported. `explain` picks out an item's own by comparing objects, never by reading the
//! text back.

use std::fmt;

use crate::model::{ObjectRef, Source, Workload};

/// One warning or error of a plan run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub source: Source,
    pub object: ObjectRef,
    pub kind: Kind,
    /// The field it is about (`placementRef`), when it names one apart from the message.
    pub field: Option<&'static str>,
    pub message: String,
}

/// What sort of problem a [`Diagnostic`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The item was not planned: its error, as the plan document records it.
    ItemFailed,
    /// A reference that resolves to nothing (a policy binding's placementRef, a policy
    /// set's member).
    Unresolved,
    /// A Placement field the API accepts and the hub does not enforce (spreadPolicy).
    NotEnforced,
    /// An upstream plugin's Warning status (an AddOn prioritizer without a valid score).
    PluginWarning,
    /// What Karmada's resource detector never propagates.
    NotPropagated,
    /// An upstream behaviour that shapes the result in a way a reader would not expect.
    UpstreamQuirk,
    /// Inconsistent, and accepted as upstream accepts it (minReplicas above maxReplicas).
    Inconsistent,
    /// A consumer no policy binding, ref or subject places anywhere.
    PlacedNowhere,
    /// A policy binding's subjects that are not in the inputs.
    MissingSubjects,
}

impl Diagnostic {
    /// A diagnostic about `workload`.
    pub fn about(workload: &Workload, kind: Kind, message: String) -> Diagnostic {
        Diagnostic {
            source: workload.source.clone(),
            object: workload.object.clone(),
            kind,
            field: None,
            message,
        }
    }

    /// Whether it is about `workload` (read from the same document).
    pub fn is_about(&self, workload: &Workload) -> bool {
        self.object == workload.object && self.source == workload.source
    }

    /// What is wrong, without where: `field: message`, or the message.
    pub fn detail(&self) -> String {
        match self.field {
            Some(field) => format!("{field}: {}", self.message),
            None => self.message.clone(),
        }
    }
}

/// `file#document: Kind/namespace/name: field: message`, as every error is reported.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: ", self.source, self.object)?;
        if let Some(field) = self.field {
            write!(f, "{field}: ")?;
        }
        f.write_str(&self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workload(file: &str, name: &str) -> Workload {
        let object = crate::testing::source(
            "cluster.open-cluster-management.io/v1beta1",
            "Placement",
            Some("ns"),
            name,
        );
        let source = Source {
            file: file.to_string(),
            document: 1,
            line: None,
        };
        crate::testing::annotated(object, source)
    }

    #[test]
    fn it_reads_file_document_object_field_then_message() {
        let about = Diagnostic::about(&workload("a.yaml", "p"), Kind::Unresolved, "gone".into());
        assert_eq!(about.to_string(), "a.yaml#1: Placement/ns/p: gone");
        let field = Diagnostic {
            field: Some("placementRef"),
            ..about
        };
        assert_eq!(
            field.to_string(),
            "a.yaml#1: Placement/ns/p: placementRef: gone"
        );
        assert_eq!(field.detail(), "placementRef: gone");
    }

    /// Its object is compared, not its text: a file whose name reads like another object's
    /// prefix (`a.yaml#1: Placement/ns/p: b.yaml`) is not that object.
    #[test]
    fn it_is_about_its_own_object_whatever_the_text() {
        let p = workload("a.yaml", "p");
        let lookalike = workload("a.yaml#1: Placement/ns/p: b.yaml", "q");
        let warning = Diagnostic::about(&lookalike, Kind::NotEnforced, "x".into());
        assert!(warning
            .to_string()
            .starts_with("a.yaml#1: Placement/ns/p: "));
        assert!(!warning.is_about(&p));
        assert!(warning.is_about(&lookalike));
    }
}
