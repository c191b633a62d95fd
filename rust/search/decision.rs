//! One decision to search: the position of the seat to move, what it knows,
//! and its candidate actions.

use crate::cards::cardset::CardSet;
use crate::error::Result;
use crate::game::trick::PlayState;
use crate::movegen::{Mode, Move};
use crate::search::context::Context;
use crate::search::sample::{Constraints, Sampler};

/// The decision of the seat to move in `state`: its candidate actions and
/// the sampler of the hands it cannot see.
pub struct Decision<'a> {
    /// The position; the hands of the other seats are not read.
    pub state: &'a PlayState,
    pub ctx: &'a Context,
    /// Every legal action (passing first when legal (`None`), then the plays
    /// in listing order), or those kept by `restricted`.
    pub actions: Vec<Option<Move>>,
    /// The choice among the moves (index; `None` = pass) each action is.
    choices: Vec<Option<usize>>,
    /// Deals the hidden hands from what the seat to move knows.
    pub sampler: Sampler,
}

impl<'a> Decision<'a> {
    /// The decision among `moves` (the plays of the seat to move), the hidden
    /// hands dealt under `seen`; errors when no deal satisfies `seen`.
    pub fn new(state: &'a PlayState, ctx: &'a Context, moves: &[Move], seen: &Constraints) -> Result<Decision<'a>> {
        let mut actions = Vec::with_capacity(moves.len() + 1);
        push_candidates(state, moves, &mut actions);
        let pass = state.can_pass() as usize;
        let choices = (0..actions.len()).map(|i| i.checked_sub(pass)).collect();
        Ok(Decision { state, ctx, actions, choices, sampler: Sampler::new(seen)? })
    }

    /// The same decision among `choices` only (choices among `moves`, as
    /// given to `new`: an index, `None` = pass), in that order.
    pub fn restricted(mut self, moves: &[Move], choices: Vec<Option<usize>>) -> Decision<'a> {
        self.actions = choices.iter().map(|c| c.map(|i| moves[i])).collect();
        self.choices = choices;
        self
    }

    /// The choice among the moves (index; `None` = pass) that candidate `i` is.
    #[inline]
    pub fn choice(&self, i: usize) -> Option<usize> {
        self.choices[i]
    }

    /// The position after `action` in the world `hands`, and the context
    /// with the action recorded when `track` (the rollout reads knowledge).
    #[inline]
    pub fn after(&self, action: Option<Move>, hands: [CardSet; 4], track: bool) -> (PlayState, Context) {
        let mut st = *self.state;
        st.hands = hands;
        let mut c = *self.ctx;
        if track {
            c.record(st.current, action.as_ref());
        }
        match action {
            Some(m) => st.play_unchecked(m),
            None => st.pass_unchecked(),
        }
        (st, c)
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

/// The actions of a tree node into `out` (cleared first): `roots` at the
/// root, else the candidates of the plays of the seat to move in `state`,
/// listed by `mode` into the scratch `buf`.
#[inline]
pub fn node_actions(at_root: bool, roots: &[Option<Move>], state: &PlayState, mode: Mode, buf: &mut Vec<Move>, out: &mut Vec<Option<Move>>) {
    out.clear();
    if at_root {
        out.extend_from_slice(roots);
    } else {
        buf.clear();
        state.moves(mode, buf);
        push_candidates(state, buf, out);
    }
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
