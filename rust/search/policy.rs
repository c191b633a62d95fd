//! Built-in playout policies.

use crate::error::{Error, Result};
use crate::game::observe::Observation;
use crate::game::tribute;
use crate::game::trick::{partner, PlayState};
use crate::game::{Action, Game, Phase};
use crate::movegen::combo::{rank_value, Kind};
use crate::movegen::{Mode, Move};
use crate::parallel::Stop;
use crate::rng::Rng;
use crate::search::montecarlo;
use crate::search::playout::Context;
use crate::search::sample::{Constraints, Sampler};

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
    /// greedy (or random) policy; picks the best estimate
    /// (`montecarlo::decide`, seeded by one draw of the policy's generator).
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
    /// Chooses an action in `state` among `moves` (the current player's
    /// plays; index, `None` = pass), knowing `ctx`; Monte Carlo rollouts list moves by `mode`.
    #[inline]
    pub fn choose(&self, state: &PlayState, ctx: &Context, moves: &[Move], mode: Mode, rng: &mut Rng, stop: &Stop) -> Result<Option<usize>> {
        self.choose_on(state, ctx, moves, mode, rng, 1, stop)
    }

    /// As `choose`, a Monte Carlo decision split into `parts` parts on the shared pool.
    #[allow(clippy::too_many_arguments)]
    fn choose_on(
        &self,
        state: &PlayState,
        ctx: &Context,
        moves: &[Move],
        mode: Mode,
        rng: &mut Rng,
        parts: usize,
        stop: &Stop,
    ) -> Result<Option<usize>> {
        Ok(match self {
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
            Policy::Mc { playouts, greedy_rollouts } => {
                let rollout = if *greedy_rollouts { Policy::Greedy } else { Policy::Random };
                montecarlo::decide(state, ctx, moves, *playouts as u64, rollout, mode, rng.next_u64(), parts, stop)?
            }
        })
    }

    /// Whether the policy reads the deal's knowledge (so playouts keep it current).
    #[inline]
    pub fn uses_knowledge(&self) -> bool {
        matches!(self, Policy::Mc { .. })
    }

    /// The tribute or return card the policy gives among `options` (the
    /// legal ones): random: any, uniformly; the others: the weakest
    /// (tribute options are all of the highest strength).
    pub fn tribute_choice(&self, options: &[Action], level: u8, rng: &mut Rng) -> Option<Action> {
        if options.is_empty() {
            return None;
        }
        if *self == Policy::Random {
            return Some(options[rng.below(options.len() as u32) as usize]);
        }
        let strength = |a: &Action| match a {
            Action::Tribute(c) | Action::Return(c) => (rank_value(c.rank(), level), c.index()),
            _ => (u8::MAX, usize::MAX),
        };
        options.iter().min_by_key(|a| strength(a)).copied()
    }

    /// The action the policy takes for the seat to move in `g`, exactly as a
    /// native playout or game would with generator `rng`; a Monte Carlo
    /// decision is split into `parts` parts on the shared pool.
    pub fn game_action(&self, g: &Game, mode: Mode, rng: &mut Rng, parts: usize, stop: &Stop) -> Result<Action> {
        match g.phase {
            Phase::Play => {
                let mut moves = Vec::new();
                g.play.moves(mode, &mut moves);
                let pick = self.choose_on(&g.play, &Context::of_game(g), &moves, mode, rng, parts, stop)?;
                Ok(pick.map_or(Action::Pass, |i| Action::Play(moves[i])))
            }
            Phase::Tribute | Phase::Return => {
                let acts = g.legal_actions(mode);
                self.tribute_choice(&acts, g.play.level, rng).ok_or_else(|| Error::IllegalMove("no legal action".into()))
            }
            ph => Err(Error::IllegalMove(format!("no action is expected in the {} phase", ph.name()))),
        }
    }

    /// The action the policy takes for the observer of `o`, who must be the
    /// seat to move: what `game_action` takes in any game this seat sees as
    /// `o` (the other hands, which no policy reads, are one consistent deal).
    pub fn observation_action(&self, o: &Observation, mode: Mode, rng: &mut Rng, parts: usize, stop: &Stop) -> Result<Action> {
        if o.current != Some(o.seat) {
            return Err(Error::IllegalMove(format!("the observation is seat {}'s, who is not to move", o.seat)));
        }
        match o.phase {
            Phase::Play => {
                let hands = Sampler::new(&Constraints::of_observation(o))?.sample(&mut Rng::new(0));
                let state = o.play_state(hands);
                let ctx = Context { rules: o.rules, levels: o.lv, knowledge: o.knowledge() };
                let mut moves = Vec::new();
                state.moves(mode, &mut moves);
                let pick = self.choose_on(&state, &ctx, &moves, mode, rng, parts, stop)?;
                Ok(pick.map_or(Action::Pass, |i| Action::Play(moves[i])))
            }
            Phase::Tribute | Phase::Return => {
                let acts: Vec<Action> = if o.phase == Phase::Tribute {
                    tribute::tribute_options(o.hand, o.level).into_iter().map(Action::Tribute).collect()
                } else {
                    tribute::return_options(o.hand, o.level, &o.rules).into_iter().map(Action::Return).collect()
                };
                self.tribute_choice(&acts, o.level, rng).ok_or_else(|| Error::IllegalMove("no legal action".into()))
            }
            ph => Err(Error::IllegalMove(format!("no action is expected in the {} phase", ph.name()))),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;

    /// A policy deciding from a seat's observation alone decides as it does in the game.
    #[test]
    fn observation_actions_are_the_game_actions() {
        let stop = Stop::new();
        let policies = [Policy::Random, Policy::Greedy, Policy::Mc { playouts: 16, greedy_rollouts: true }];
        let mut checked = 0;
        for seed in 0..2 {
            let mut g = Game::new(Rules::default(), seed).unwrap();
            let mut rng = Rng::new(seed + 3);
            for step in 0..700 {
                match g.phase {
                    Phase::MatchOver => break,
                    Phase::DealOver | Phase::GameOver => {
                        g.next_deal(None, None).unwrap();
                        continue;
                    }
                    _ => {}
                }
                let o = g.observation(g.play.current);
                if step % 5 == 0 || g.phase != Phase::Play {
                    for p in &policies {
                        let a = p.game_action(&g, Mode::Pattern, &mut Rng::new(step), 1, &stop).unwrap();
                        let b = p.observation_action(&o, Mode::Pattern, &mut Rng::new(step), 1, &stop).unwrap();
                        assert_eq!(a, b, "{p:?} at step {step}");
                        checked += 1;
                    }
                }
                let acts = g.legal_actions(Mode::Pattern);
                g.apply(acts[rng.below(acts.len() as u32) as usize]).unwrap();
            }
        }
        assert!(checked > 100);
        let g = Game::new(Rules::default(), 1).unwrap();
        let o = g.observation((g.play.current + 1) % 4);
        assert!(Policy::Greedy.observation_action(&o, Mode::Pattern, &mut Rng::new(0), 1, &stop).is_err());
    }
}
