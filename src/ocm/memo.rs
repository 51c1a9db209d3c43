//! A computed-once map shared by the threads planning items: many placements ask for the
//! same binding sets and toleration lists.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;

pub(super) struct Memo<K, V>(Mutex<HashMap<K, V>>);

impl<K, V> Default for Memo<K, V> {
    fn default() -> Memo<K, V> {
        Memo(Mutex::new(HashMap::new()))
    }
}

impl<K: Hash + Eq, V: Clone> Memo<K, V> {
    /// The value for `key`, made when missing. It is made outside the lock, so threads
    /// asking for other keys do not wait on it; two threads that miss the same key at once
    /// both make it and the first stored is kept (a value depends only on its key).
    pub(super) fn get_or_insert_with<Q>(&self, key: &Q, make: impl FnOnce() -> V) -> V
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        if let Some(found) = self.lock().get(key) {
            return found.clone();
        }
        let made = make();
        self.lock().entry(key.to_owned()).or_insert(made).clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, V>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
