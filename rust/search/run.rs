//! How a decision, playout or batch is computed: one value passed down
//! instead of the same arguments at every call.

use crate::movegen::Mode;
use crate::parallel::Stop;
use std::time::{Duration, Instant};

/// How a computation runs: the listing mode of the moves, the number of
/// parts of the shared pool it is split into (1: on the calling thread),
/// the stop flag it watches and the clock a timed search stops at.
#[derive(Clone, Copy, Debug)]
pub struct Run<'a> {
    pub mode: Mode,
    pub parts: usize,
    pub stop: &'a Stop,
    /// A timed search ends at its first look at the clock past this.
    pub deadline: Option<Instant>,
}

impl<'a> Run<'a> {
    /// A run in `parts` parts watching `stop`, with no clock.
    pub fn new(mode: Mode, parts: usize, stop: &'a Stop) -> Run<'a> {
        Run { mode, parts, stop, deadline: None }
    }

    /// The same run on the calling thread alone.
    #[inline]
    pub fn serial(&self) -> Run<'a> {
        Run { parts: 1, ..*self }
    }

    /// The same run with a clock `think_ms` milliseconds from now (none for 0).
    pub fn timed(&self, think_ms: u32) -> Run<'a> {
        Run { deadline: (think_ms > 0).then(|| Instant::now() + Duration::from_millis(think_ms as u64)), ..*self }
    }

    /// Whether the run's clock has passed its deadline.
    #[inline]
    pub fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}
