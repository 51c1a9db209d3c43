//! Mapping independent items on every core, with the results in input order: the output is
//! the same as one thread's, byte for byte.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock, PoisonError};

/// The stack of every thread that plans: CEL's parser and evaluator recurse once per level of
/// an expression (up to cel-go's 250, see `placement::filters::cel_limits`), at up to ~40 KB
/// a level in a debug build. Only the pages a thread touches are ever allocated.
pub(crate) const STACK_BYTES: usize = 256 * 1024 * 1024;

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

/// `f` of every item, in `items` order, on every core (see [`for_each_in_order`]). Nothing
/// bounds how far the workers run ahead: every result is kept anyway.
pub(crate) fn map_in_order<'a, T, R, F>(items: &'a [T], f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&'a T) -> R + Sync,
{
    let mut shape = Shape::new(items.len());
    shape.window = usize::MAX;
    let mut results = Vec::with_capacity(items.len());
    let Ok(()) = stream(items, shape, f, |result| {
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
/// core sat idle while the other finished the expensive half. The workers stay at most a few
/// blocks per thread ahead of `consume` (`Shape::window`): with a slow reader
/// (`fleetplan plan | less`, a stalled pipe) what is rendered and not yet written stays
/// bounded instead of growing to the whole plan. The first error of `consume` stops the
/// workers taking more blocks and is returned.
pub(crate) fn for_each_in_order<'a, T, R, E, F, C>(
    items: &'a [T],
    f: F,
    consume: C,
) -> Result<(), E>
where
    T: Sync,
    R: Send,
    F: Fn(&'a T) -> R + Sync,
    C: FnMut(R) -> Result<(), E>,
{
    stream(items, Shape::new(items.len()), f, consume)
}

/// The threads a run maps its items on: the cores this process may use, asked once. Asking
/// reads the cgroup's CPU quota from files (three opened each time), and a run with 10k
/// Policies asked ~40 times, mostly on the thread the others wait for.
pub(crate) fn threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// How many consecutive items of `items` to treat as one (at most `most`): few enough that
/// every thread still takes [`BLOCKS_PER_THREAD`] of them on average, so a short list is
/// spread over every core too.
pub(crate) fn group_size(items: usize, most: usize) -> usize {
    let threads = threads();
    (items / (threads * BLOCKS_PER_THREAD)).clamp(1, most.max(1))
}

/// How [`stream`] splits its items among threads.
#[derive(Clone, Copy, Debug)]
struct Shape {
    threads: usize,
    /// Items a worker takes at a time.
    block: usize,
    /// Items past the last one consumed that a worker may have mapped: a block ending beyond
    /// it waits. At least `block`, so the earliest block, the one the consumer waits for, is
    /// never the one held back.
    window: usize,
}

impl Shape {
    fn new(items: usize) -> Shape {
        let threads = threads();
        // Enough blocks per thread to even out the tail, few enough that taking one costs
        // nothing.
        let block = group_size(items, MAX_BLOCK);
        Shape {
            threads,
            block,
            window: block * threads * BLOCKS_AHEAD_PER_THREAD,
        }
    }
}

/// [`for_each_in_order`] with its threads, blocks and window given.
fn stream<'a, T, R, E, F, C>(items: &'a [T], shape: Shape, f: F, mut consume: C) -> Result<(), E>
where
    T: Sync,
    R: Send,
    F: Fn(&'a T) -> R + Sync,
    C: FnMut(R) -> Result<(), E>,
{
    let Shape { block, window, .. } = shape;
    let next = AtomicUsize::new(0);
    let progress = Progress::new(window.max(block));
    let work = |done: Sender<(usize, Vec<R>)>| {
        let _stop = StopOnPanic(&progress);
        loop {
            // Blocks are taken in order, so a worker waiting here holds a later block than
            // every block not yet consumed: the one the consumer waits for is being mapped.
            let start = next.fetch_add(block, Ordering::Relaxed);
            if start >= items.len() {
                return;
            }
            let end = (start + block).min(items.len());
            if !progress.admit(end) {
                return;
            }
            let results = items[start..end].iter().map(&f).collect();
            if done.send((start, results)).is_err() {
                return;
            }
        }
    };
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let work = &work;
        let handles: Vec<_> = (0..shape.threads.min(items.len()))
            .filter_map(|_| {
                let sender = sender.clone();
                std::thread::Builder::new()
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, move || work(sender))
                    .ok()
            })
            .collect();
        drop(sender);
        // No thread to be had: each item is mapped and consumed here, one after the other.
        if handles.is_empty() {
            return items.iter().try_for_each(|item| consume(f(item)));
        }
        // A panicking consumer must not leave workers waiting for it: the scope joins them
        // before the panic goes on.
        let _stop = StopOnPanic(&progress);
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
                    progress.stop();
                    outcome = Err(error);
                    break;
                }
                progress.consumed(expected);
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

/// How far the consumer has got, which the workers wait on.
struct Progress {
    state: Mutex<Consumed>,
    moved: Condvar,
    window: usize,
}

#[derive(Clone, Copy)]
struct Consumed {
    items: usize,
    /// The consumer failed or a thread panicked: no more blocks are mapped.
    stopped: bool,
}

impl Progress {
    fn new(window: usize) -> Progress {
        Progress {
            state: Mutex::new(Consumed {
                items: 0,
                stopped: false,
            }),
            moved: Condvar::new(),
            window,
        }
    }

    /// Waits until items up to `end` are within the window; false when the run has stopped.
    fn admit(&self, end: usize) -> bool {
        let mut state = self.lock();
        while !state.stopped && state.items.saturating_add(self.window) < end {
            state = self
                .moved
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        !state.stopped
    }

    fn consumed(&self, items: usize) {
        self.lock().items = items;
        self.moved.notify_all();
    }

    fn stop(&self) {
        self.lock().stopped = true;
        self.moved.notify_all();
    }

    fn lock(&self) -> MutexGuard<'_, Consumed> {
        // Nothing panics while holding the lock; a poisoned one still holds a valid count.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Stops the run when the thread holding it unwinds, so no other thread waits for it.
struct StopOnPanic<'p>(&'p Progress);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}

/// `f` of contiguous chunks of `items`, one per core and each of at least `min_chunk` items
/// (fewer items stay on one thread: this one), in order: for work that keeps state across the
/// items of a chunk (a loading thread's own interner), or whose items are too cheap to hand
/// out in blocks (checking a List's small items, judging the objects that bind consumers).
pub(crate) fn chunks_in_order<'a, T, R, F>(items: &'a [T], min_chunk: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&'a [T]) -> R + Sync,
{
    let threads = threads();
    let size = items.len().div_ceil(threads).max(min_chunk).max(1);
    let chunks: Vec<&[T]> = items.chunks(size).collect();
    // One chunk is mapped here: a thread would cost more than it could save.
    if chunks.len() < 2 {
        return chunks.into_iter().map(f).collect();
    }
    map_in_order(&chunks, |chunk| f(chunk))
}

/// Blocks each thread takes on average, and the largest block (items).
const BLOCKS_PER_THREAD: usize = 32;
const MAX_BLOCK: usize = 256;
/// Blocks per thread the workers may map ahead of the consumer: enough that a worker rarely
/// waits while the consumer keeps up (it waits only behind a slow earliest block), few enough
/// that a stalled reader holds at most this many blocks per thread of rendered output.
const BLOCKS_AHEAD_PER_THREAD: usize = 4;

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

    /// The shape of a run on `threads` threads taking `block` items at a time, at most
    /// `window` items ahead of the consumer.
    fn shape(threads: usize, block: usize, window: usize) -> Shape {
        Shape {
            threads,
            block,
            window,
        }
    }

    /// Items mapped and not yet consumed, the most of it seen by a slow consumer, for `items`
    /// streamed with `shape`; the results must come in order.
    fn most_ahead_of_a_slow_consumer(items: usize, shape: Shape) -> usize {
        let items: Vec<usize> = (0..items).collect();
        let mapped = AtomicUsize::new(0);
        let mut consumed = 0;
        let mut most_ahead = 0;
        let Ok(()) = stream(
            &items,
            shape,
            |n| {
                mapped.fetch_add(1, Ordering::SeqCst);
                *n
            },
            |n| {
                assert_eq!(n, consumed);
                if n % 16 == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                most_ahead = most_ahead.max(mapped.load(Ordering::SeqCst) - consumed);
                consumed += 1;
                Ok::<(), Infallible>(())
            },
        );
        assert_eq!(consumed, items.len());
        most_ahead
    }

    #[test]
    fn workers_stay_within_the_window_of_a_slow_consumer() {
        // Unbounded, the workers map all 2,000 items while the consumer sleeps on the first.
        let most_ahead = most_ahead_of_a_slow_consumer(2000, shape(3, 4, 12));
        assert!((1..=12).contains(&most_ahead), "{most_ahead} items ahead");
    }

    #[test]
    fn the_plan_writers_window_holds_a_few_blocks_per_thread() {
        let shape = Shape::new(20_000);
        assert_eq!(
            shape.window,
            shape.block * shape.threads * BLOCKS_AHEAD_PER_THREAD
        );
        let most_ahead = most_ahead_of_a_slow_consumer(20_000, shape);
        assert!(
            most_ahead <= shape.window,
            "{most_ahead} > {}",
            shape.window
        );
    }

    /// The consumer waits for the earliest block; a window of one block never holds back the
    /// worker mapping it, however slow it is.
    #[test]
    fn a_slow_earliest_item_in_a_one_block_window_does_not_deadlock() {
        let items: Vec<u64> = (0..200).collect();
        let work = |n: &u64| {
            if n % 50 == 0 {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            n * 2
        };
        let mut results = Vec::new();
        let Ok(()) = stream(&items, shape(4, 1, 1), work, |n| {
            results.push(n);
            Ok::<(), Infallible>(())
        });
        assert_eq!(results, items.iter().map(work).collect::<Vec<_>>());
    }

    /// Whether `stream` of 1,000 items on two threads, two items ahead of `consume`, panics
    /// (rather than hangs with a thread waiting for one that unwound).
    fn a_panic_ends_the_run(
        f: impl Fn(&u32) -> u32 + Sync,
        consume: impl FnMut(u32) -> Result<(), Infallible>,
    ) -> bool {
        let items: Vec<u32> = (0..1000).collect();
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            stream(&items, shape(2, 1, 2), f, consume)
        }))
        .is_err()
    }

    #[test]
    fn a_panicking_consumer_does_not_leave_workers_waiting() {
        assert!(a_panic_ends_the_run(
            |n| *n,
            |n| {
                assert!(n < 10, "consumer fails at {n}");
                Ok(())
            },
        ));
    }

    #[test]
    fn a_panicking_worker_does_not_leave_the_others_waiting() {
        assert!(a_panic_ends_the_run(
            |n| {
                assert!(*n != 10, "worker fails at {n}");
                *n
            },
            |_| Ok(()),
        ));
    }
}
