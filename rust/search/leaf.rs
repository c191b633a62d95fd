//! How a playout ends: played to the deal's end by the rollout chooser, or
//! settled earlier by an evaluator of the position (every hand known), for
//! instance an exact endgame search once few cards are left.
//!
//! The search asks its `Leaf` before every rollout move; the answer is a
//! score by the decision's `Scores`, "not yet" (ask again after the next
//! move) or "never" (play this rollout to its end).

use crate::game::trick::PlayState;
use crate::search::value::Scores;

/// What a leaf evaluator says of a rollout's position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Settled {
    /// The deal's score for the `Scores` team, as `Scores::of` would give it.
    Score(i32),
    /// Not settled here: ask again after the next move.
    NotYet,
    /// Not settled in this rollout: do not ask again.
    Never,
}

/// An evaluator of rollout positions in which every hand is known.
pub trait Leaf: Sync {
    /// What one worker reuses between positions (a solver's table, say).
    type Scratch;

    /// A fresh scratch for one worker.
    fn scratch(&self) -> Self::Scratch;

    /// The value of `state` (not over; `moves` rollout moves after the
    /// searched action) for the team of `scores`.
    fn settle(&self, state: &PlayState, moves: u32, scores: &Scores, scratch: &mut Self::Scratch) -> Settled;
}

/// Every rollout played to the deal's end.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlayToEnd;

impl Leaf for PlayToEnd {
    type Scratch = ();

    fn scratch(&self) {}

    #[inline]
    fn settle(&self, _: &PlayState, _: u32, _: &Scores, _: &mut ()) -> Settled {
        Settled::Never
    }
}
