//! Mapping independent items on every core, with the results in input order: the output is
//! the same as one thread's, byte for byte.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};

/// The stack of every thread that plans: CEL's parser and evaluator recurse once per level of
/// an expression (up to cel-go's 250, see `placement::filters::cel_limits`), at up to ~40 KB
/// a level in a debug build. Only the pages a thread touches are ever allocated.
pub const STACK_BYTES: usize = 256 * 1024 * 1024;

/// `f` on a thread with a [`STACK_BYTES`] stack (the main thread's is fixed by the OS); an
/// error when no such thread can be had.
pub fn with_deep_stack<R: Send>(f: impl FnOnce() -> R + Send) -> std::io::Result<R> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, f)?;
        Ok(handle
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

/// `f` of every item, in `items` order, on every core (see [`for_each_in_order`]).
pub fn map_in_order<'a, T, R, F>(items: &'a [T], f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&'a T) -> R + Sync,
{
    let mut results = Vec::with_capacity(items.len());
    let Ok(()) = for_each_in_order(items, f, |result| {
        results.push(result);
        Ok::<(), Infallible>(())
    });
    results
}

/// `f` of every item on every core, each result handed to `consume` on the calling thread in
/// `items` order as soon as the items before it are done, so a writer streams what the
/// workers render instead of waiting for all of it. Items are handed out in small blocks as
/// threads come free rather than split in one chunk per core up front: items differ in cost
/// (a placement over the whole fleet next to one pinned to a zone), and with fixed chunks one
/// core sat idle while the other finished the expensive half. The first error of `consume`
/// stops the workers taking more blocks and is returned.
pub fn for_each_in_order<'a, T, R, E, F, C>(items: &'a [T], f: F, mut consume: C) -> Result<(), E>
where
    T: Sync,
    R: Send,
    F: Fn(&'a T) -> R + Sync,
    C: FnMut(R) -> Result<(), E>,
{
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Enough blocks per thread to even out the tail, few enough that taking one costs nothing.
    let block = (items.len() / (threads * BLOCKS_PER_THREAD)).clamp(1, MAX_BLOCK);
    let next = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    let work = |done: Sender<(usize, Vec<R>)>| loop {
        let start = next.fetch_add(block, Ordering::Relaxed);
        if start >= items.len() || stopped.load(Ordering::Relaxed) {
            return;
        }
        let end = (start + block).min(items.len());
        let results = items[start..end].iter().map(&f).collect();
        if done.send((start, results)).is_err() {
            return;
        }
    };
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let work = &work;
        let handles: Vec<_> = (0..threads.min(items.len()))
            .filter_map(|_| {
                let sender = sender.clone();
                std::thread::Builder::new()
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, move || work(sender))
                    .ok()
            })
            .collect();
        // No thread to be had: the items are mapped here, then consumed.
        if handles.is_empty() {
            work(sender);
        } else {
            drop(sender);
        }
        let mut outcome = Ok(());
        let mut waiting = BTreeMap::new();
        let mut expected = 0;
        // Ends when every worker is done (or has panicked, which the joins below re-raise).
        for (start, results) in receiver {
            if outcome.is_err() {
                continue;
            }
            waiting.insert(start, results);
            while let Some(results) = waiting.remove(&expected) {
                expected += results.len();
                if let Err(error) = results.into_iter().try_for_each(&mut consume) {
                    stopped.store(true, Ordering::Relaxed);
                    outcome = Err(error);
                    break;
                }
            }
        }
        for handle in handles {
            handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        }
        outcome
    })
}

/// `f` of contiguous chunks of `items`, one per core and each of at least `min_chunk` items
/// (fewer items stay on one thread), in order: for work that keeps state across the items of
/// a chunk (a loading thread's own interner).
pub fn chunks_in_order<'a, T, R, F>(items: &'a [T], min_chunk: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&'a [T]) -> R + Sync,
{
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let size = items.len().div_ceil(threads).max(min_chunk).max(1);
    let chunks: Vec<&[T]> = items.chunks(size).collect();
    map_in_order(&chunks, |chunk| f(chunk))
}

/// Blocks each thread takes on average, and the largest block (items).
const BLOCKS_PER_THREAD: usize = 32;
const MAX_BLOCK: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_input_order() {
        let items: Vec<u32> = (0..1001).collect();
        let doubled = map_in_order(&items, |n| n * 2);
        assert_eq!(doubled, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        assert!(map_in_order(&[] as &[u32], |n| *n).is_empty());
    }

    #[test]
    fn chunks_cover_every_item_in_order() {
        let items: Vec<u32> = (0..1001).collect();
        let chunks = chunks_in_order(&items, 1, <[u32]>::to_vec);
        assert_eq!(chunks.concat(), items);
        assert_eq!(chunks_in_order(&items, 2000, <[u32]>::len), vec![1001]);
        assert!(chunks_in_order(&[] as &[u32], 1, <[u32]>::len).is_empty());
    }

    #[test]
    fn uneven_items_keep_the_input_order() {
        // Costs that differ by item, so threads finish their blocks out of order.
        let items: Vec<u64> = (0..5000).map(|n| (n * 7919) % 97).collect();
        let work = |n: &u64| (0..*n * 50).fold(*n, |acc, k| acc.wrapping_mul(31).wrapping_add(k));
        let expected: Vec<u64> = items.iter().map(work).collect();
        assert_eq!(map_in_order(&items, work), expected);
    }

    #[test]
    fn a_failed_consumer_stops_the_workers_and_says_why() {
        let items: Vec<u32> = (0..20_000).collect();
        let mapped = AtomicUsize::new(0);
        let mut consumed = Vec::new();
        let outcome = for_each_in_order(
            &items,
            |n| {
                // Slow enough that stopping shows: a block takes 25 ms, every item 2 s.
                std::thread::sleep(std::time::Duration::from_micros(100));
                mapped.fetch_add(1, Ordering::Relaxed);
                *n
            },
            |n| {
                if n == 10 {
                    return Err("full");
                }
                consumed.push(n);
                Ok(())
            },
        );
        assert_eq!(outcome, Err("full"));
        assert_eq!(consumed, (0..10).collect::<Vec<_>>());
        // Blocks already taken are finished, no more are taken.
        assert!(mapped.load(Ordering::Relaxed) < items.len() / 2);
    }
}
