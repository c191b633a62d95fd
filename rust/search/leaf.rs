//! How a playout ends: played to the deal's end by the rollout chooser, or
//! settled earlier by an evaluator of the position (every hand known), for
//! instance an exact endgame search once few cards are left.
//!
//! The search asks its `Leaf` before every rollout move; the answer is a
//! score by the decision's `Scores`, "not yet" (ask again after the next
//! move) or "never" (play this rollout to its end).

use crate::game::trick::PlayState;
use crate::search::endgame::{Budget, Solver};
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

/// Rollouts settled exactly (`search::endgame`) once at most `cards` cards
/// are left in the four hands, by a solve of at most `nodes` positions; a
/// rollout whose solve runs out of budget is played to its end.
#[derive(Clone, Copy, Debug)]
pub struct Exact {
    pub cards: u32,
    pub nodes: u64,
    /// Buckets (log2) of each worker's table.
    pub table_bits: u32,
}

/// What `+exact` means: solve from 20 cards left, at most 20,000 positions,
/// a 256 KiB table per worker (docs/bots.md, "Exact endgames").
pub const EXACT: Exact = Exact { cards: 20, nodes: 20_000, table_bits: 12 };

impl Leaf for Exact {
    type Scratch = Solver;

    fn scratch(&self) -> Solver {
        Solver::with_table_bits(Budget::nodes(self.nodes), self.table_bits)
    }

    fn settle(&self, state: &PlayState, _: u32, scores: &Scores, solver: &mut Solver) -> Settled {
        let left: u32 = state.hands.iter().map(|h| h.len()).sum();
        if left > self.cards.min(solver.max_cards()) {
            return Settled::NotYet;
        }
        solver.value_for(state, scores.team(), |f| scores.of(f)).map_or(Settled::Never, Settled::Score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::card::parse_level;
    use crate::cards::cardset::CardSet;
    use crate::game::levels::LevelState;
    use crate::game::rules::Rules;
    use crate::movegen::ComboRules;
    use crate::search::context::Context;
    use crate::search::policy::Value;

    fn state(hands: [&str; 4]) -> PlayState {
        PlayState::new(hands.map(|t| CardSet::parse(t).unwrap()), parse_level("2").unwrap(), 0, ComboRules::default())
    }

    #[test]
    fn exact_settles_small_positions_by_the_solver_and_waits_on_large_ones() {
        let ctx = Context { rules: Rules::default(), levels: LevelState::new(), knowledge: Default::default() };
        let scores = Scores::new(&ctx, 0, Value::Deal).unwrap();
        let small = state(["3s 3d 9c", "4s 5h", "Kd Kc", "7s 8s Ac"]);
        let mut solver = EXACT.scratch();
        let want = Solver::new(Budget::default()).value_for(&small, scores.team(), |f| scores.of(f)).unwrap();
        assert_eq!(EXACT.settle(&small, 0, &scores, &mut solver), Settled::Score(want));
        let large = state(["3s 4s 5s 6s 7s 8s", "9s Ts Js Qs Ks As", "3d 4d 5d 6d 7d 8d", "9d Td Jd Qd Kd Ad"]);
        assert_eq!(EXACT.settle(&large, 0, &scores, &mut solver), Settled::NotYet);
        let starved = Exact { cards: 30, nodes: 1, table_bits: 12 };
        assert_eq!(starved.settle(&large, 0, &scores, &mut starved.scratch()), Settled::Never);
    }
}
