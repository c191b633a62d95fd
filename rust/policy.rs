//! Built-in playout policies.

use crate::combo::Kind;
use crate::moves::Move;
use crate::rng::Rng;
use crate::trick::{partner, PlayState};

/// A policy picks one of `moves` (index) or passes (`None`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Policy {
    /// Uniform over the legal actions (each move, and passing when legal).
    Random,
    /// Cheap baseline: lead the smallest combination, follow with the
    /// smallest play that beats, never over a partner, bomb only when an
    /// opponent is close to going out.
    Greedy,
}

/// An opponent with this many cards or fewer is "close to going out".
pub const GREEDY_BOMB_THRESHOLD: u32 = 6;

#[inline]
fn cost(m: &Move, level: u8) -> (bool, u8, u8, std::cmp::Reverse<u8>) {
    (m.combo.kind.is_bomb(), m.wild, m.combo.value(level), std::cmp::Reverse(m.combo.size))
}

impl Policy {
    /// Chooses an action in `state` among `moves` (the current player's plays).
    #[inline]
    pub fn choose(&self, state: &PlayState, moves: &[Move], rng: &mut Rng) -> Option<usize> {
        match self {
            Policy::Random => {
                let pass = state.can_pass() as u32;
                let k = rng.below(moves.len() as u32 + pass);
                if k < pass {
                    None
                } else {
                    Some((k - pass) as usize)
                }
            }
            Policy::Greedy => greedy(state, moves),
        }
    }

    /// Name used in the API.
    pub fn name(&self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::Greedy => "greedy",
        }
    }

    /// The policy with this name.
    pub fn from_name(name: &str) -> Option<Policy> {
        match name {
            "random" => Some(Policy::Random),
            "greedy" => Some(Policy::Greedy),
            _ => None,
        }
    }
}

fn greedy(state: &PlayState, moves: &[Move]) -> Option<usize> {
    let level = state.level;
    let me = state.current;
    let hand = state.hands[me as usize].len();
    // Going out at once wins everything else.
    if let Some(i) = moves.iter().position(|m| m.cards.len() == hand) {
        return Some(i);
    }
    let danger = (0..4u8)
        .filter(|&s| s % 2 != me % 2)
        .any(|s| !state.is_out(s) && state.hands[s as usize].len() <= GREEDY_BOMB_THRESHOLD);
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
