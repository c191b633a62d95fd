//! The greedy policy (`"greedy"`): a cheap baseline, and the rollouts of `mc`.

use crate::error::Result;
use crate::game::trick::{partner, PlayState};
use crate::game::Action;
use crate::movegen::combo::{rank_value, Kind};
use crate::movegen::Move;
use crate::rng::Rng;
use crate::search::choosers::Chooser;
use crate::search::context::Context;
use crate::search::run::Run;

/// An opponent with this many cards or fewer is "close to going out".
pub const GREEDY_BOMB_THRESHOLD: u32 = 6;

/// Lead the smallest combination, follow with the smallest play that beats,
/// never over a partner, bomb only when an opponent is close to going out.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Chooser for Greedy {
    #[inline]
    fn choose(&self, state: &PlayState, _: &Context, moves: &[Move], _: &mut Rng, _: &Run) -> Result<Option<usize>> {
        Ok(choose(state, moves))
    }
}

#[inline]
fn cost(m: &Move, level: u8) -> (bool, u8, u8, std::cmp::Reverse<u8>) {
    (m.combo.kind.is_bomb(), m.wild, m.combo.value(level), std::cmp::Reverse(m.combo.size))
}

/// The greedy choice among `moves` for the seat to move (`None` = pass).
pub fn choose(state: &PlayState, moves: &[Move]) -> Option<usize> {
    let level = state.level;
    let me = state.current;
    let hand = state.hands[me as usize].len();
    // Going out at once wins everything else.
    if let Some(i) = moves.iter().position(|m| m.cards.len() == hand) {
        return Some(i);
    }
    let danger = (0..4u8).filter(|&s| s % 2 != me % 2).any(|s| !state.is_out(s) && state.hands[s as usize].len() <= GREEDY_BOMB_THRESHOLD);
    if state.top.is_some() && state.top_seat == partner(me) && !danger {
        return None;
    }
    let mut best: Option<usize> = None;
    for (i, m) in moves.iter().enumerate() {
        if m.combo.kind.is_bomb() && !danger && (state.top.is_some() || moves.iter().any(|x| !x.combo.kind.is_bomb())) {
            continue;
        }
        if m.combo.kind == Kind::JokerBomb && !danger && state.top.is_some() {
            continue;
        }
        if best.is_none_or(|b| cost(m, level) < cost(&moves[b], level)) {
            best = Some(i);
        }
    }
    best
}

/// The weakest tribute or return card among `options` (tribute options are
/// all of the highest strength).
pub fn tribute_choice(options: &[Action], level: u8) -> Option<Action> {
    let strength = |a: &Action| match a {
        Action::Tribute(c) | Action::Return(c) => (rank_value(c.rank(), level), c.index()),
        _ => (u8::MAX, usize::MAX),
    };
    options.iter().min_by_key(|a| strength(a)).copied()
}
