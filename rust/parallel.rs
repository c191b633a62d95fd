//! One shared thread pool, work split into parts, and cooperative stopping.
//!
//! The pool has one thread per core and is built once. A `threads` argument
//! is the number of parts a batch is split into (0: one per core); parts
//! beyond the number of cores queue on the same pool, so no call starts
//! threads of its own. Every item is computed from its own index and seed,
//! so results do not depend on the number of parts.

use crate::error::{Error, Result};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

mod handoff;

/// A request to stop a long computation, checked between items.
#[derive(Debug, Default)]
pub struct Stop(AtomicBool);

impl Stop {
    /// A flag that is not set.
    pub fn new() -> Stop {
        Stop(AtomicBool::new(false))
    }

    /// Asks the computation to stop.
    pub fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    #[inline]
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The shared pool: one thread per core.
pub fn pool() -> Result<&'static rayon::ThreadPool> {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    if let Some(p) = POOL.get() {
        return Ok(p);
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(cores())
        .thread_name(|i| format!("guandan-{i}"))
        .build()
        .map_err(|e| Error::InvalidState(format!("cannot start the worker threads: {e}")))?;
    Ok(POOL.get_or_init(|| p))
}

/// The number of cores available to the process, read once: the pool is
/// built with it, and reading it costs a few system calls (the cgroup's
/// quota files), tens of microseconds that every call with `threads = 0`
/// would pay again.
pub fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The number of parts for a `threads` argument (0: one per core).
pub fn parts(threads: usize) -> usize {
    if threads == 0 {
        cores()
    } else {
        threads
    }
}

/// Runs `work` on the shared pool while the calling thread asks `poll`
/// every ~10 ms whether to go on; when `poll` says no, `work`'s `Stop` is
/// set and the result is `None` once `work` has returned.
pub fn supervise<T: Send>(work: impl FnOnce(&Stop) -> T + Send, poll: &mut dyn FnMut() -> bool) -> Result<Option<T>> {
    let stop = Stop::new();
    let p = pool()?;
    let (tx, rx) = std::sync::mpsc::channel();
    let mut out = None;
    p.in_place_scope(|s| {
        let stop = &stop;
        s.spawn(move |_| {
            let _ = tx.send(work(stop));
        });
        loop {
            match rx.recv_timeout(Duration::from_millis(10)) {
                Ok(v) => {
                    out = Some(v);
                    break;
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if !stop.is_set() && !poll() {
                        stop.set();
                    }
                }
                // `work` panicked: the scope passes the panic on.
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    Ok(if stop.is_set() { None } else { out })
}

/// Fills `out[i] = f(i, scratch)` for every slot, in `parts` contiguous
/// parts on the current pool (call it inside `supervise` or `pool().install`),
/// each part with its own scratch value `S` (a buffer, say); stops early
/// (leaving later slots as they were) once `stop` is set.
pub fn fill<T: Send, S: Default, F>(out: &mut [T], parts: usize, stop: &Stop, f: F) -> Result<()>
where
    F: Fn(u64, &mut S) -> Result<T> + Sync,
{
    if out.is_empty() {
        return Ok(());
    }
    let per = out.len().div_ceil(parts.max(1));
    out.par_chunks_mut(per).enumerate().try_for_each(|(p, chunk)| {
        let mut scratch = S::default();
        let base = (p * per) as u64;
        for (i, slot) in chunk.iter_mut().enumerate() {
            if stop.is_set() {
                break;
            }
            *slot = f(base + i as u64, &mut scratch)?;
        }
        Ok(())
    })
}

/// Runs `f` on every item, `workers` at a time: the calling thread and
/// `workers - 1` helpers take the items in turn, so the caller works
/// instead of waiting and a helper held back by a busy machine leaves the
/// items it has not taken to the others. Each worker first takes the items
/// of its own share (the caller the first `n / workers`, and so on), so a
/// caller sharing the same items batch after batch finds each item's data
/// in the cache of the core that worked on it last time; then it takes the
/// others' leftovers. After an error, no item past the failing one is
/// started; every earlier item is still run, and the error of the earliest
/// item that failed is returned.
///
/// The helpers are tasks on the shared pool that keep spinning a moment
/// after a batch (`handoff`), so that a caller sharing batch after batch
/// (a vector env stepped in a loop) finds them running instead of waking
/// a sleeping thread, which can take as long as the batch itself.
pub fn share<T: Send>(items: Vec<T>, workers: usize, f: impl Fn(T) -> Result<()> + Sync) -> Result<()> {
    let n = items.len();
    let workers = workers.clamp(1, n.max(1));
    if workers == 1 {
        return items.into_iter().try_for_each(f);
    }
    let slots: Vec<Mutex<Option<T>>> = items.into_iter().map(|x| Mutex::new(Some(x))).collect();
    // Share `w` is items `start(w)..start(w + 1)`; `next[w]` is its next item not taken.
    let start = |w: usize| w * n / workers;
    let next: Vec<AtomicUsize> = (0..workers).map(|w| AtomicUsize::new(start(w))).collect();
    // No item at or past `limit` is started (lowered to an item that failed).
    let limit = AtomicUsize::new(n);
    let failed: Mutex<Option<(usize, Error)>> = Mutex::new(None);
    let work = |me: usize| {
        for w in (0..workers).map(|k| (me + k) % workers) {
            loop {
                let i = next[w].fetch_add(1, Ordering::Relaxed);
                if i >= start(w + 1) || i >= limit.load(Ordering::Relaxed) {
                    break;
                }
                let item = slots[i].lock().unwrap_or_else(|e| e.into_inner()).take();
                if let Some(Err(e)) = item.map(&f) {
                    let mut fl = failed.lock().unwrap_or_else(|e| e.into_inner());
                    if fl.as_ref().is_none_or(|(j, _)| i < *j) {
                        *fl = Some((i, e));
                    }
                    limit.fetch_min(i, Ordering::Relaxed);
                }
            }
        }
    };
    let pool = pool()?;
    if !handoff::offer(pool, workers - 1, &work) {
        // Another caller holds the helpers: helpers of this call's own.
        pool.in_place_scope(|s| {
            for w in 1..workers {
                let work = &work;
                s.spawn(move |_| work(w));
            }
            work(0);
        });
    }
    match failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some((_, e)) => Err(e),
        None => Ok(()),
    }
}

/// A vector of `n` default values, or an error naming `what` when `n` is
/// above `max` or the memory cannot be had (never an abort).
pub fn try_vec<T: Default + Clone>(n: u64, max: u64, what: &str) -> Result<Vec<T>> {
    if n > max {
        return Err(Error::InvalidArgument(format!("{what} must be at most {max}, not {n}")));
    }
    let mut v = Vec::new();
    let bytes = (n as u128) * std::mem::size_of::<T>() as u128;
    usize::try_from(n)
        .ok()
        .and_then(|k| v.try_reserve_exact(k).ok())
        .ok_or_else(|| Error::InvalidArgument(format!("{what} = {n} needs {} MiB for its results: more memory than can be had", bytes >> 20)))?;
    v.resize(n as usize, T::default());
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_does_not_depend_on_parts() {
        let run = |parts| {
            let mut v = vec![0u64; 1000];
            pool().unwrap().install(|| fill(&mut v, parts, &Stop::new(), |i, _: &mut ()| Ok(crate::rng::derive_seed(7, i)))).unwrap();
            v
        };
        assert_eq!(run(1), run(3));
        assert_eq!(run(1), run(64));
    }

    #[test]
    fn share_does_every_item_once_and_reports_the_earliest_error() {
        for workers in [1, 2, 5] {
            let mut v = vec![0u64; 50];
            let items: Vec<(usize, &mut u64)> = v.iter_mut().enumerate().collect();
            share(items, workers, |(i, x)| {
                *x += crate::rng::derive_seed(3, i as u64);
                Ok(())
            })
            .unwrap();
            assert!(v.iter().enumerate().all(|(i, &x)| x == crate::rng::derive_seed(3, i as u64)));
            let r = share((0..50).collect(), workers, |i: usize| if i % 10 == 7 { Err(Error::InvalidState(format!("{i}"))) } else { Ok(()) });
            // Every item before a failing one is run, so item 7 always fails.
            assert!(matches!(r, Err(Error::InvalidState(ref m)) if m == "7"), "{r:?}");
            // A later item failing first (another worker's share) still
            // leaves every item before the earliest failure run.
            let ran = AtomicUsize::new(0);
            let r = share((0..50).collect(), workers, |i: usize| match i {
                7 => {
                    std::thread::sleep(Duration::from_millis(5));
                    Err(Error::InvalidState("7".into()))
                }
                30 => Err(Error::InvalidState("30".into())),
                _ => {
                    if i < 7 {
                        ran.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(())
                }
            });
            assert!(matches!(r, Err(Error::InvalidState(ref m)) if m == "7"), "{r:?}");
            assert_eq!(ran.load(Ordering::Relaxed), 7);
        }
        assert!(share(Vec::<u8>::new(), 2, |_| Ok(())).is_ok());
    }

    #[test]
    fn share_runs_batch_after_batch_and_side_by_side() {
        // Two callers at once (one gets the spinning helpers, the other its
        // own), each sharing many small batches: every item done once.
        std::thread::scope(|sc| {
            for caller in 0..2u64 {
                sc.spawn(move || {
                    for batch in 0..300u64 {
                        let mut v = vec![0u64; 64];
                        let items: Vec<(usize, &mut u64)> = v.iter_mut().enumerate().collect();
                        share(items, 2, |(i, x)| {
                            *x += crate::rng::derive_seed(caller * 1000 + batch, i as u64);
                            Ok(())
                        })
                        .unwrap();
                        assert!(v.iter().enumerate().all(|(i, &x)| x == crate::rng::derive_seed(caller * 1000 + batch, i as u64)));
                    }
                });
            }
        });
    }

    #[test]
    fn a_panic_in_shared_work_reaches_the_caller_and_leaves_share_usable() {
        for _ in 0..20 {
            let r = std::panic::catch_unwind(|| {
                share((0..64).collect(), 2, |i: usize| {
                    if i == 40 {
                        panic!("item 40");
                    }
                    Ok(())
                })
            });
            let p = r.expect_err("the panic goes on to the caller");
            assert_eq!(p.downcast_ref::<&str>(), Some(&"item 40"));
        }
        let mut v = vec![0u64; 64];
        let items: Vec<&mut u64> = v.iter_mut().collect();
        share(items, 2, |x| {
            *x = 1;
            Ok(())
        })
        .unwrap();
        assert!(v.iter().all(|&x| x == 1));
    }

    #[test]
    fn a_refused_poll_stops_the_work() {
        let r = supervise(
            |stop| {
                while !stop.is_set() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                1
            },
            &mut || false,
        )
        .unwrap();
        assert_eq!(r, None);
        assert_eq!(supervise(|_| 2, &mut || true).unwrap(), Some(2));
    }

    #[test]
    fn huge_counts_are_refused_not_allocated() {
        assert!(matches!(try_vec::<u64>(1 << 40, 1 << 32, "n"), Err(Error::InvalidArgument(_))));
        assert_eq!(try_vec::<u64>(3, 1 << 32, "n").unwrap(), vec![0; 3]);
    }
}
