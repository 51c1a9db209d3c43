//! What a selector reads labels from: a cluster's interned [`Labels`](crate::model::Labels)
//! or any object's plain `String` map, matched alike.

use std::borrow::Borrow;
use std::collections::BTreeMap;

use crate::model::VecMap;

/// Up to this many labels, a lookup scans them instead of searching the tree.
const LINEAR_SCAN_MAX: usize = 16;

/// A key → value label map.
pub trait LabelSource {
    /// The value of `key`, if the map has it.
    fn label(&self, key: &str) -> Option<&str>;

    /// Every `(key, value)`, in key order.
    fn pairs(&self) -> impl Iterator<Item = (&str, &str)>;
}

/// Both maps, each through its own `len`, `get` and `iter`.
macro_rules! label_source {
    ($map:ident) => {
        impl<K: Borrow<str> + Ord, V: AsRef<str>> LabelSource for $map<K, V> {
            fn label(&self, key: &str) -> Option<&str> {
                // A cluster carries a handful of labels: one pass that compares lengths first
                // beats an ordered search, whose every step compares bytes (a 100k-cluster
                // fleet is matched label set by label set in `explain` and older OCM
                // placements).
                if self.len() > LINEAR_SCAN_MAX {
                    return self.get(key).map(AsRef::as_ref);
                }
                self.iter()
                    .find(|(candidate, _)| Borrow::<str>::borrow(*candidate) == key)
                    .map(|(_, value)| value.as_ref())
            }

            fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
                self.iter()
                    .map(|(key, value)| (key.borrow(), value.as_ref()))
            }
        }
    };
}

label_source!(BTreeMap);
label_source!(VecMap);
