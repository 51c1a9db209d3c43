//! Mapping independent items on every core, with the results in input order: the output is
//! the same as one thread's, byte for byte.

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

/// `f` of every item, in `items` order, computed in contiguous chunks, one per core.
pub fn map_in_order<'a, T, R, F>(items: &'a [T], f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&'a T) -> R + Sync,
{
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = items.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|chunk| {
                let f = &f;
                let thread = std::thread::Builder::new()
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, move || chunk.iter().map(f).collect::<Vec<R>>());
                // No thread to be had: that chunk is mapped here, after the others started.
                thread.map_err(|_| chunk)
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| match handle {
                Ok(handle) => handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(chunk) => chunk.iter().map(&f).collect(),
            })
            .collect()
    })
}

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
}
