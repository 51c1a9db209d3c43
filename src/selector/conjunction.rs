//! `Selector`: the AND of requirements kept sorted by key (apimachinery `internalSelector`),
//! plus the "nothing" selector an absent `LabelSelector` stands for.
use std::fmt;

use super::label_source::LabelSource;
use super::requirement::Requirement;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selector {
    /// Stably sorted by key, so equal keys keep the order they were given in.
    requirements: Vec<Requirement>,
    /// `labels.Nothing()`; then `requirements` is empty.
    nothing: bool,
}

impl Selector {
    /// Matches every label set (`labels.Everything()`).
    pub fn everything() -> Selector {
        Selector {
            requirements: Vec::new(),
            nothing: false,
        }
    }

    /// Matches no label set (`labels.Nothing()`), e.g. for an absent `LabelSelector`.
    pub fn nothing() -> Selector {
        Selector {
            requirements: Vec::new(),
            nothing: true,
        }
    }

    /// The AND of `requirements`, sorted by key like `Selector.Add`.
    pub fn from_requirements(mut requirements: Vec<Requirement>) -> Selector {
        requirements.sort_by(|a, b| a.key().cmp(b.key()));
        Selector {
            requirements,
            nothing: false,
        }
    }

    /// Both selectors must match. Nothing stays nothing.
    pub fn and(self, other: Selector) -> Selector {
        if self.nothing || other.nothing {
            return Selector::nothing();
        }
        let mut requirements = self.requirements;
        requirements.extend(other.requirements);
        Selector::from_requirements(requirements)
    }

    pub fn requirements(&self) -> &[Requirement] {
        &self.requirements
    }

    /// Every requirement matches (no allocation; one map lookup per requirement).
    pub fn matches(&self, labels: &impl LabelSource) -> bool {
        !self.nothing && self.requirements.iter().all(|r| r.matches(labels))
    }

    /// Why the selector does not match `labels` (the first failing requirement in key
    /// order); `None` when it matches.
    pub fn first_mismatch(&self, labels: &impl LabelSource) -> Option<String> {
        self.first_mismatch_of(|requirement| labels.label(self.requirements[requirement].key()))
    }

    /// [`Selector::first_mismatch`] on a label set whose value of requirement `i`'s key is
    /// `value(i)`: the same words whichever store the values are read from.
    pub(crate) fn first_mismatch_of<'v>(
        &self,
        value: impl Fn(usize) -> Option<&'v str>,
    ) -> Option<String> {
        if self.nothing {
            return Some("the selector matches nothing".to_string());
        }
        self.requirements
            .iter()
            .enumerate()
            .find_map(|(at, requirement)| requirement.mismatch_of(value(at)))
    }

    /// No requirement restricts the selection (`Selector.Empty()`).
    pub fn is_everything(&self) -> bool {
        !self.nothing && self.requirements.is_empty()
    }

    pub fn is_nothing(&self) -> bool {
        self.nothing
    }
}

impl fmt::Display for Selector {
    /// `Selector.String()`: requirements joined by `,`; empty for everything and nothing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, requirement) in self.requirements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{requirement}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selector::Operator;
    use crate::testing::{labels, req};

    #[test]
    fn requirements_sort_stably_by_key() {
        let s = Selector::from_requirements(vec![
            req("z", Operator::NotEquals, &["a"]),
            req("x", Operator::Equals, &["abc"]),
            req("z", Operator::Exists, &[]),
        ]);
        assert_eq!(s.to_string(), "x=abc,z!=a,z");
    }

    #[test]
    fn nothing_matches_nothing_and_absorbs_and() {
        let s = Selector::nothing().and(Selector::everything());
        assert!(s.is_nothing());
        assert!(!s.matches(&labels(&[])));
        assert_eq!(s.to_string(), "");
    }

    #[test]
    fn everything_matches_empty_labels() {
        assert!(Selector::everything().matches(&labels(&[])));
        assert!(Selector::everything().is_everything());
    }

    #[test]
    fn and_merges_in_key_order() {
        let a = Selector::from_requirements(vec![req("b", Operator::Exists, &[])]);
        let b = Selector::from_requirements(vec![req("a", Operator::DoesNotExist, &[])]);
        assert_eq!(a.and(b).to_string(), "!a,b");
    }

    #[test]
    fn first_mismatch_reports_the_first_failing_key() {
        let s = Selector::from_requirements(vec![
            req("b", Operator::Exists, &[]),
            req("a", Operator::In, &["x"]),
        ]);
        let labels = labels(&[("a", "y")]);
        assert_eq!(
            s.first_mismatch(&labels).as_deref(),
            Some(r#"a: got "y", wanted in (x)"#)
        );
    }
}
