//! Playing a deal to its end with built-in policies, and scoring it by the
//! level rules.

use crate::error::Result;
use crate::game::levels::LevelState;
use crate::game::observe::{self, Knowledge};
use crate::game::rules::Rules;
use crate::game::trick::{team, PlayState};
use crate::game::Game;
use crate::movegen::{Mode, Move};
use crate::parallel::Stop;
use crate::rng::Rng;
use crate::search::policy::Policy;

/// What the players of a deal know besides its play state: the game's
/// rules and levels, and the public knowledge of the deal (cards played,
/// tribute and return cards known to be in a hand, tribute caps).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Context {
    pub rules: Rules,
    pub levels: LevelState,
    pub knowledge: Knowledge,
}

impl Context {
    /// The context of `g`'s current deal.
    pub fn of_game(g: &Game) -> Context {
        Context { rules: g.rules, levels: g.lv, knowledge: observe::knowledge(g) }
    }

    /// Records `seat` playing `m` (or passing).
    #[inline]
    pub fn record(&mut self, seat: u8, m: Option<&Move>) {
        if let Some(m) = m {
            self.knowledge.record_play(seat, m.cards);
        }
    }

    /// The score of a deal finished in `finish` order for `seat`'s team:
    /// the winner's level gain as the level rules settle it (`+gain` when
    /// the team's player went out first, `-gain` otherwise), and whether it won.
    #[inline]
    pub fn score(&self, finish: [u8; 4], seat: u8) -> Result<(i8, bool)> {
        let s = self.levels.settle(finish, &self.rules)?;
        let won = s.winner == team(seat);
        Ok((if won { s.gain as i8 } else { -(s.gain as i8) }, won))
    }
}

/// Plays a deal from `state` to its end with `policies[seat]`, keeping
/// `ctx`'s knowledge current when a policy uses it; returns the number of
/// actions taken. Returns early (the deal not over) once `stop` is set.
pub fn playout(
    state: &mut PlayState,
    ctx: &mut Context,
    policies: &[Policy; 4],
    mode: Mode,
    rng: &mut Rng,
    buf: &mut Vec<Move>,
    stop: &Stop,
) -> Result<u32> {
    let track = policies.iter().any(|p| p.uses_knowledge());
    let mut n = 0;
    while !state.over && !stop.is_set() {
        let seat = state.current;
        let chosen = if policies[seat as usize] == Policy::Random {
            // Uniform over moves + pass without building the list: the same
            // choice (and RNG use) as `Policy::choose` on the full list.
            let g = state.move_gen();
            let count = g.count(mode) as u32;
            let pass = state.can_pass() as u32;
            let k = rng.below(count + pass);
            if k < pass {
                None
            } else {
                Some(g.nth(mode, (k - pass) as usize).expect("k-th move exists"))
            }
        } else {
            buf.clear();
            state.moves(mode, buf);
            policies[seat as usize].choose(state, ctx, buf, mode, rng, stop)?.map(|i| buf[i])
        };
        if track {
            ctx.record(seat, chosen.as_ref());
        }
        match chosen {
            Some(m) => state.play_unchecked(m),
            None => state.pass_unchecked(),
        }
        n += 1;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Action, Phase};

    /// The knowledge kept current play by play is the knowledge read from the history.
    #[test]
    fn recorded_knowledge_matches_the_history() {
        let rules = Rules::default();
        for seed in 0..30u64 {
            let mut g = Game::new(rules, seed).unwrap();
            let mut rng = Rng::new(seed);
            let mut ctx = Context::of_game(&g);
            let mut checked = 0;
            while g.phase != Phase::MatchOver && g.records.len() < 4 {
                if matches!(g.phase, Phase::DealOver | Phase::GameOver) {
                    g.next_deal(None, None).unwrap();
                    ctx = Context::of_game(&g);
                    continue;
                }
                let acts = g.legal_actions(Mode::Pattern);
                let a = acts[rng.below(acts.len() as u32) as usize];
                let seat = g.play.current;
                let was_play = g.phase == Phase::Play;
                g.apply(a).unwrap();
                if !was_play {
                    ctx = Context::of_game(&g);
                    continue;
                }
                ctx.record(seat, if let Action::Play(m) = &a { Some(m) } else { None });
                if g.phase == Phase::Play {
                    assert_eq!(ctx, Context::of_game(&g), "seed {seed}");
                    checked += 1;
                } else {
                    ctx = Context::of_game(&g);
                }
            }
            assert!(checked > 0);
        }
    }

    #[test]
    fn scores_follow_the_level_rules() {
        let ctx = |rules: Rules, levels| Context { rules, levels, knowledge: Knowledge::default() };
        let fresh = LevelState::new();
        let table = Rules { upgrade: [4, 2, 1], ..Rules::default() };
        assert_eq!(ctx(table, fresh).score([0, 2, 1, 3], 0), Ok((4, true)));
        assert_eq!(ctx(table, fresh).score([0, 2, 1, 3], 1), Ok((-4, false)));
        assert_eq!(ctx(Rules::default(), fresh).score([1, 0, 2, 3], 0), Ok((-1, false)));
        let sudden = Rules { sudden_death: true, ..Rules::default() };
        assert_eq!(ctx(sudden, fresh).score([0, 2, 1, 3], 0), Ok((0, true)));
    }
}
