//! A fixed pool of worker threads over a list of jobs: each worker takes the next job
//! until none are left (or one asks to stop), and results keep the jobs' order.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The processes at once a `-j` asks for: `jobs`, or as many as the machine has CPUs.
pub fn jobs_or_cpus(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1)
}

/// Run `work` on every item with `jobs` threads. A result for which `stop` is true ends
/// the hand-out of further items; the items never started come back as `None`.
pub fn run<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> R + Sync,
    stop: impl Fn(&R) -> bool + Sync,
) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = work(item);
                    if stop(&r) {
                        next.store(items.len(), Ordering::Relaxed);
                    }
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                }
            });
        }
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_keep_the_order_of_the_items() {
        let items: Vec<u32> = (0..50).collect();
        let out = super::run(&items, 4, |x| x * 2, |_| false);
        assert_eq!(out, items.iter().map(|x| Some(x * 2)).collect::<Vec<_>>());
    }

    #[test]
    fn a_stopping_result_ends_the_hand_out() {
        let items: Vec<u32> = (0..1000).collect();
        let out = super::run(&items, 1, |x| *x, |x| *x == 3);
        assert_eq!(out.iter().filter(|r| r.is_some()).count(), 4);
    }
}
