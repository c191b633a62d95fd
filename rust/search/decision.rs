//! One decision to search: the position of the seat to move, what it knows,
//! and its candidate actions.

use crate::error::Result;
use crate::game::trick::PlayState;
use crate::movegen::Move;
use crate::search::context::Context;
use crate::search::sample::{Constraints, Sampler};

/// The decision of the seat to move in `state`: its candidate actions and
/// the sampler of the hands it cannot see.
pub struct Decision<'a> {
    /// The position; the hands of the other seats are not read.
    pub state: &'a PlayState,
    pub ctx: &'a Context,
    /// Passing first when legal (`None`), then the plays in listing order.
    pub actions: Vec<Option<Move>>,
    /// Deals the hidden hands from what the seat to move knows.
    pub sampler: Sampler,
}

impl<'a> Decision<'a> {
    /// The decision among `moves` (the plays of the seat to move), the hidden
    /// hands dealt under `seen`; errors when no deal satisfies `seen`.
    pub fn new(state: &'a PlayState, ctx: &'a Context, moves: &[Move], seen: &Constraints) -> Result<Decision<'a>> {
        let mut actions = Vec::with_capacity(moves.len() + 1);
        push_candidates(state, moves, &mut actions);
        Ok(Decision { state, ctx, actions, sampler: Sampler::new(seen)? })
    }

    /// The choice among the moves (index; `None` = pass) that candidate `i` is.
    #[inline]
    pub fn choice(&self, i: usize) -> Option<usize> {
        if self.state.can_pass() {
            i.checked_sub(1)
        } else {
            Some(i)
        }
    }
}

/// Appends the candidate actions of the seat to move to `out`: passing
/// first when legal (`None`), then `moves` in order.
#[inline]
pub fn push_candidates(state: &PlayState, moves: &[Move], out: &mut Vec<Option<Move>>) {
    if state.can_pass() {
        out.push(None);
    }
    out.extend(moves.iter().map(|&m| Some(m)));
}

/// The decision no search is needed for: the only legal action, or a play
/// that empties the hand at once; `None` when there is a real choice.
pub fn obvious(state: &PlayState, moves: &[Move]) -> Option<Option<usize>> {
    if moves.len() + state.can_pass() as usize <= 1 {
        return Some(if moves.is_empty() { None } else { Some(0) });
    }
    let hand = state.hands[state.current as usize].len();
    moves.iter().position(|m| m.cards.len() == hand).map(Some)
}
