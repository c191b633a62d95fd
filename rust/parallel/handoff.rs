//! `share`'s helpers: one batch at a time is offered to tasks on the pool
//! that spin between batches.

use std::any::Any;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a helper of `share` keeps looking for the next batch after its last one.
const SPIN: Duration = Duration::from_micros(200);

/// A batch's work lent to the helpers: valid while `Desk::lent` holds it
/// and until every helper that took it has left (`Desk::busy`).
#[derive(Clone, Copy)]
struct Lent(*const (dyn Fn(usize) + Sync + 'static));

// SAFETY: the pointee is `Sync`, and `offer` keeps it alive for as long
// as any helper may call it (see `offer`).
unsafe impl Send for Lent {}

/// The one batch on offer.
struct Desk {
    /// Whether a caller is offering a batch (one at a time).
    taken: AtomicBool,
    /// The batch's number, raised when one is offered.
    batch: AtomicU64,
    /// The work and how many more helpers may take it.
    lent: Mutex<Option<(Lent, usize)>>,
    /// Helpers inside the batch's work.
    busy: AtomicUsize,
    /// Helpers running (spinning or working).
    helpers: AtomicUsize,
    /// A panic of a helper inside the work, for the caller to raise.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

static DESK: Desk = Desk {
    taken: AtomicBool::new(false),
    batch: AtomicU64::new(0),
    lent: Mutex::new(None),
    busy: AtomicUsize::new(0),
    helpers: AtomicUsize::new(0),
    panic: Mutex::new(None),
};

/// Runs `work(0)` on the calling thread with up to `helpers` helpers
/// running it too (each `work(k)`, `k` in `1..=helpers` and different for
/// each), and returns once no one runs it any more; false (nothing run)
/// when another caller's batch is on offer.
pub(super) fn offer(pool: &rayon::ThreadPool, helpers: usize, work: &(dyn Fn(usize) + Sync)) -> bool {
    if DESK.taken.compare_exchange(false, true, SeqCst, SeqCst).is_err() {
        return false;
    }
    let back = Back;
    // SAFETY: only the lifetime is erased. `Back` takes the work off the
    // desk and waits until no helper is inside it before this function
    // returns or unwinds, and a helper calls it only after entering
    // (`busy`) while the desk holds it, so no call outlives `work`.
    let lent = Lent(unsafe { std::mem::transmute::<*const (dyn Fn(usize) + Sync + '_), *const (dyn Fn(usize) + Sync + 'static)>(work) });
    *DESK.lent.lock().unwrap_or_else(|e| e.into_inner()) = Some((lent, helpers));
    DESK.batch.fetch_add(1, SeqCst);
    let running = DESK.helpers.load(SeqCst);
    for _ in running..helpers {
        DESK.helpers.fetch_add(1, SeqCst);
        pool.spawn(help);
    }
    work(0);
    if let Some(p) = back.finish() {
        resume_unwind(p);
    }
    true
}

/// The caller's hold on the desk: on `finish`, or on unwinding (when the
/// caller's own panic is the one that goes on), takes the work off the
/// desk, waits for the helpers inside it and frees the desk.
struct Back;

impl Back {
    /// Frees the desk; a helper's panic inside the work, if any.
    fn finish(self) -> Option<Box<dyn Any + Send>> {
        let panic = Back::release();
        std::mem::forget(self);
        panic
    }

    fn release() -> Option<Box<dyn Any + Send>> {
        *DESK.lent.lock().unwrap_or_else(|e| e.into_inner()) = None;
        while DESK.busy.load(SeqCst) > 0 {
            std::hint::spin_loop();
        }
        let panic = DESK.panic.lock().unwrap_or_else(|e| e.into_inner()).take();
        DESK.taken.store(false, SeqCst);
        panic
    }
}

impl Drop for Back {
    fn drop(&mut self) {
        Back::release();
    }
}

/// A helper: runs each batch offered while it looks, until none came for `SPIN`.
fn help() {
    let mut seen = 0;
    let mut idle = Instant::now();
    loop {
        let batch = DESK.batch.load(SeqCst);
        if batch != seen {
            seen = batch;
            let job = {
                let mut lent = DESK.lent.lock().unwrap_or_else(|e| e.into_inner());
                match lent.as_mut() {
                    Some((job, seats)) if *seats > 0 => {
                        let me = *seats;
                        *seats -= 1;
                        DESK.busy.fetch_add(1, SeqCst);
                        Some((*job, me))
                    }
                    _ => None,
                }
            };
            if let Some((Lent(job), me)) = job {
                // SAFETY: entered (`busy`) while the desk held the work: see `offer`.
                let r = catch_unwind(AssertUnwindSafe(|| unsafe { (*job)(me) }));
                if let Err(p) = r {
                    DESK.panic.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(p);
                }
                DESK.busy.fetch_sub(1, SeqCst);
                idle = Instant::now();
                continue;
            }
        }
        if idle.elapsed() > SPIN {
            break;
        }
        for _ in 0..32 {
            std::hint::spin_loop();
        }
    }
    DESK.helpers.fetch_sub(1, SeqCst);
}
