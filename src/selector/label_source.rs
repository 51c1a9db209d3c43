//! What a selector reads labels from: a cluster's interned [`Labels`](crate::model::Labels)
//! or any object's plain `String` map, matched alike.

use std::borrow::Borrow;
use std::collections::BTreeMap;

/// A key → value label map.
pub trait LabelSource {
    /// The value of `key`, if the map has it.
    fn label(&self, key: &str) -> Option<&str>;

    /// Every `(key, value)`, in key order.
    fn pairs(&self) -> impl Iterator<Item = (&str, &str)>;
}

impl<K: Borrow<str> + Ord, V: AsRef<str>> LabelSource for BTreeMap<K, V> {
    fn label(&self, key: &str) -> Option<&str> {
        self.get(key).map(AsRef::as_ref)
    }

    fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.iter()
            .map(|(key, value)| (key.borrow(), value.as_ref()))
    }
}
