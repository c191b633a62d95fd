//! Built-in playout policies.

use crate::cards::cardset::CardSet;
use crate::game::rules::Rules;
use crate::game::trick::{partner, PlayState};
use crate::movegen::combo::Kind;
use crate::movegen::{Mode, Move};
use crate::rng::Rng;
use crate::search::sample::{Constraints, Sampler};
use crate::search::simulate::{deal_gain, playout};

/// A policy picks one of `moves` (index) or passes (`None`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Policy {
    /// Uniform over the legal actions (each move, and passing when legal).
    Random,
    /// Cheap baseline: lead the smallest combination, follow with the
    /// smallest play that beats, never over a partner, bomb only when an
    /// opponent is close to going out.
    Greedy,
    /// Monte Carlo: about `playouts` determinized playouts per decision,
    /// shared evenly between the candidate actions, rolled out with the
    /// greedy (or random) policy; picks the best mean outcome.
    Mc { playouts: u32, greedy_rollouts: bool },
}

/// Playouts per decision of the `mc` policy when none is given.
pub const MC_DEFAULT_PLAYOUTS: u32 = 200;

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
            Policy::Mc { playouts, greedy_rollouts } => monte_carlo(state, moves, rng, *playouts, *greedy_rollouts),
        }
    }

    /// Name used in the API (`random`, `greedy`, `mc:200`, `mc-random:200`).
    pub fn name(&self) -> String {
        match self {
            Policy::Random => "random".into(),
            Policy::Greedy => "greedy".into(),
            Policy::Mc { playouts, greedy_rollouts: true } => format!("mc:{playouts}"),
            Policy::Mc { playouts, greedy_rollouts: false } => format!("mc-random:{playouts}"),
        }
    }

    /// The policy with this name: `random`, `greedy`, `mc` / `mc:N`
    /// (greedy rollouts), `mc-random` / `mc-random:N` (random rollouts).
    pub fn from_name(name: &str) -> Option<Policy> {
        let (head, n) = match name.split_once(':') {
            Some((h, n)) => (h, Some(n.trim().parse::<u32>().ok().filter(|&n| n >= 1)?)),
            None => (name, None),
        };
        match head.trim() {
            "random" if n.is_none() => Some(Policy::Random),
            "greedy" if n.is_none() => Some(Policy::Greedy),
            "mc" => Some(Policy::Mc { playouts: n.unwrap_or(MC_DEFAULT_PLAYOUTS), greedy_rollouts: true }),
            "mc-random" => Some(Policy::Mc { playouts: n.unwrap_or(MC_DEFAULT_PLAYOUTS), greedy_rollouts: false }),
            _ => None,
        }
    }
}

/// Monte Carlo choice from the mover's knowledge: its own hand, the hand
/// sizes and the cards no longer held (tribute knowledge is not in a
/// `PlayState`, so this policy does not use it).
fn monte_carlo(state: &PlayState, moves: &[Move], rng: &mut Rng, playouts: u32, greedy_rollouts: bool) -> Option<usize> {
    let pass = state.can_pass();
    let n = moves.len() + pass as usize;
    if n <= 1 {
        return if moves.is_empty() { None } else { Some(0) };
    }
    // Going out at once cannot be improved on.
    let me = state.current;
    if let Some(i) = moves.iter().position(|m| m.cards.len() == state.hands[me as usize].len()) {
        return Some(i);
    }
    let Ok(sampler) = Sampler::new(&Constraints::from_play(state, me)) else { return greedy(state, moves) };
    let rollout = if greedy_rollouts { Policy::Greedy } else { Policy::Random };
    let policies = [rollout; 4];
    let per = (playouts as usize / n).max(1);
    let rules = Rules::default();
    let mut buf = Vec::new();
    let mut best = (f64::NEG_INFINITY, 0usize);
    // Candidate k: 0 = pass (when legal), then the moves.
    let worlds: Vec<[CardSet; 4]> = (0..per).map(|_| sampler.sample(rng)).collect();
    for k in 0..n {
        let mut total = 0i64;
        for (j, hands) in worlds.iter().enumerate() {
            let mut st = *state;
            st.hands = *hands;
            let chosen = if pass { k.checked_sub(1) } else { Some(k) };
            match chosen {
                None => st.pass_unchecked(),
                Some(i) => st.play_unchecked(moves[i]),
            }
            let mut r = Rng::new(crate::rng::derive_seed(rng.next_u64() ^ j as u64, k as u64));
            playout(&mut st, &policies, Mode::Pattern, &mut r, &mut buf);
            let (w, gain) = deal_gain(st.finish, &rules);
            total += if w == me % 2 { gain as i64 } else { -(gain as i64) };
        }
        let mean = total as f64 / per as f64;
        if mean > best.0 {
            best = (mean, k);
        }
    }
    if pass {
        best.1.checked_sub(1)
    } else {
        Some(best.1)
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
