//! Cluster labels and claims with every distinct key and value stored once per model: a
//! 100k-cluster fleet carries ~1.6M label strings but only a few hundred distinct ones.

use std::borrow::Borrow;

use foldhash::HashSet;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use serde::{Serialize, Serializer};

/// A shared, immutable string: cloning copies a pointer. Compares, orders and hashes by
/// its text, so it behaves as the `String` it replaces.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Interned(Arc<str>);

/// A cluster's labels or claims, key → value. `get("region")` works through `Borrow<str>`.
pub(crate) type Labels = super::VecMap<Interned, Interned>;

impl Interned {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Where the shared copy is: two strings of one [`Interner`] have the same address
    /// exactly when they have the same text, so it keys what is known about a string
    /// without hashing the text.
    pub fn address(&self) -> usize {
        Arc::as_ptr(&self.0).cast::<u8>() as usize
    }
}

impl Deref for Interned {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Interned {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Interned {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Interned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl fmt::Debug for Interned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl Serialize for Interned {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl From<&str> for Interned {
    fn from(text: &str) -> Interned {
        Interned(Arc::from(text))
    }
}

impl From<String> for Interned {
    fn from(text: String) -> Interned {
        Interned(Arc::from(text))
    }
}

/// Labels from `(key, value)` pairs without sharing: for tests and one-off clusters. The
/// loader goes through an [`Interner`] instead.
pub(crate) fn labels_from<K: Into<Interned>, V: Into<Interned>>(
    pairs: impl IntoIterator<Item = (K, V)>,
) -> Labels {
    pairs
        .into_iter()
        .map(|(key, value)| (key.into(), value.into()))
        .collect()
}

/// The distinct strings of one model. Owned by whoever builds the model, never global, so
/// a model's strings are freed with it.
///
/// A reader that interns on several threads gives each a clone and absorbs the clones back:
/// a string first seen by two threads at once then has one copy per thread.
#[derive(Clone, Debug, Default)]
pub(crate) struct Interner {
    strings: HashSet<Arc<str>>,
}

impl Interner {
    /// The one shared copy of `text`, allocated the first time it is seen.
    pub(crate) fn intern(&mut self, text: &str) -> Interned {
        if let Some(shared) = self.strings.get(text) {
            return Interned(Arc::clone(shared));
        }
        let shared: Arc<str> = Arc::from(text);
        self.strings.insert(Arc::clone(&shared));
        Interned(shared)
    }

    /// Takes in the strings `other` has and this one lacks (those it has stay as they are).
    pub(crate) fn absorb(&mut self, other: Interner) {
        self.strings.extend(other.strings);
    }

    /// The `(key, value)` pairs as labels, every key and value interned.
    pub(crate) fn labels<K: AsRef<str>, V: AsRef<str>>(
        &mut self,
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Labels {
        pairs
            .into_iter()
            .map(|(key, value)| (self.intern(key.as_ref()), self.intern(value.as_ref())))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn interning_equal_strings_shares_one_allocation() {
        let mut interner = Interner::default();
        let first = interner.intern("region");
        let second = interner.intern(&String::from("region"));
        assert!(Arc::ptr_eq(&first.0, &second.0));
    }

    #[test]
    fn interning_different_strings_keeps_them_apart() {
        let mut interner = Interner::default();
        let eu = interner.intern("eu");
        let us = interner.intern("us");
        assert!(!Arc::ptr_eq(&eu.0, &us.0));
        assert_eq!((eu.as_str(), us.as_str()), ("eu", "us"));
    }

    #[test]
    fn interned_labels_share_values_across_maps() {
        let mut interner = Interner::default();
        let map = |value: &str| BTreeMap::from([("region".to_string(), value.to_string())]);
        let a = interner.labels(map("eu"));
        let b = interner.labels(map("eu"));
        let (key_a, value_a) = a.iter().next().expect("one label");
        let (key_b, value_b) = b.iter().next().expect("one label");
        assert!(Arc::ptr_eq(&key_a.0, &key_b.0));
        assert!(Arc::ptr_eq(&value_a.0, &value_b.0));
    }

    #[test]
    fn absorbing_a_clone_keeps_the_first_copy_and_adds_the_new_strings() {
        let mut interner = Interner::default();
        let eu = interner.intern("eu");
        let mut clone = interner.clone();
        let us = clone.intern("us");
        assert!(Arc::ptr_eq(&clone.intern("eu").0, &eu.0));
        interner.absorb(clone);
        assert!(Arc::ptr_eq(&interner.intern("us").0, &us.0));
        assert!(Arc::ptr_eq(&interner.intern("eu").0, &eu.0));
    }

    #[test]
    fn one_interners_strings_share_an_address_exactly_when_their_texts_are_equal() {
        let mut interner = Interner::default();
        let eu = interner.intern("eu");
        assert_eq!(interner.intern("eu").address(), eu.address());
        assert_ne!(interner.intern("us").address(), eu.address());
    }

    #[test]
    fn labels_are_looked_up_by_str() {
        let labels = labels_from([("region", "eu")]);
        assert_eq!(labels.get("region").map(Interned::as_str), Some("eu"));
    }

    #[test]
    fn interned_orders_by_text_like_string() {
        let mut interner = Interner::default();
        let mut interned = ["b", "a", "B", "aa"].map(|text| interner.intern(text));
        interned.sort();
        let mut strings = ["b", "a", "B", "aa"];
        strings.sort();
        assert_eq!(
            interned.map(|text| text.to_string()),
            strings.map(str::to_string)
        );
    }

    #[test]
    fn interned_serializes_and_debugs_as_a_string() {
        let labels = labels_from([("region", "eu \"west\"")]);
        assert_eq!(
            serde_json::to_string(&labels).ok(),
            Some(r#"{"region":"eu \"west\""}"#.to_string())
        );
        assert_eq!(
            format!("{labels:?}"),
            r#"{"region": "eu \"west\""}"#.to_string()
        );
    }
}
