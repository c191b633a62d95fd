//! What the players of a deal know besides its play state, and the score
//! of a finished deal by the level rules or by the game situation.

use crate::error::Result;
use crate::game::levels::LevelState;
use crate::game::observe::{self, Knowledge};
use crate::game::rules::Rules;
use crate::game::trick::team;
use crate::game::Game;
use crate::movegen::Move;

/// Every finishing order (each seat once).
pub fn finish_orders() -> impl Iterator<Item = [u8; 4]> {
    (0..256u32).map(|x| [(x & 3) as u8, (x >> 2 & 3) as u8, (x >> 4 & 3) as u8, (x >> 6) as u8]).filter(|f| (0..4).all(|s| f.contains(&s)))
}

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
        Context { rules: g.rules, levels: g.levels, knowledge: observe::knowledge(g) }
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

    /// The score of a deal finished in `finish` order for `seat`'s team by
    /// the game situation: `situation` after the deal minus before it, a
    /// game won or lost counting `GAME_WON` / `-GAME_WON`; and whether the deal was won.
    #[inline]
    pub fn game_score(&self, finish: [u8; 4], seat: u8) -> Result<(i32, bool)> {
        let s = self.levels.settle(finish, &self.rules)?;
        let t = team(seat);
        let after = match s.game_winner {
            Some(w) if w == t => GAME_WON,
            Some(_) => -GAME_WON,
            None => situation(&s.after, t, &self.rules),
        };
        Ok((after - situation(&self.levels, t, &self.rules), s.winner == t))
    }
}

/// The `game_score` of a game won.
pub const GAME_WON: i32 = 2000;

/// How far team `t` is ahead in the level state `lv`, in hundredths of a
/// level: each team's level (a team at A less a quarter level for each
/// failed attempt, as its chances at A shrink), plus half a level for
/// declaring the next deal (its level is played).
pub fn situation(lv: &LevelState, t: u8, rules: &Rules) -> i32 {
    let progress = |u: u8| {
        let l = lv.levels[u as usize];
        let mut p = 100 * l as i32;
        if l == crate::cards::card::RANK_A {
            let left = rules.a_max_attempts.map_or(3, |m| m.saturating_sub(lv.a_fails[u as usize]).min(3)) as i32;
            p -= 25 * (3 - left);
        }
        if lv.declarer == Some(u) {
            p += 50;
        }
        p
    };
    progress(t) - progress(1 - t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Action, Phase, Step};
    use crate::rng::Rng;

    /// The knowledge kept current play by play is the knowledge read from the history.
    #[test]
    fn recorded_knowledge_matches_the_history() {
        let rules = Rules::default();
        for seed in 0..30u64 {
            let mut g = Game::new(rules, seed).unwrap();
            let mut rng = Rng::new(seed);
            let mut ctx = Context::of_game(&g);
            let mut checked = 0;
            while g.records.len() < 4 {
                let seat = g.play.current;
                let was_play = g.phase == Phase::Play;
                let a = match g.random_step(&mut rng) {
                    Step::Over => break,
                    Step::NextDeal => {
                        ctx = Context::of_game(&g);
                        continue;
                    }
                    Step::Acted(a) => a,
                };
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
        // The game value counts a sudden-death win as a game won.
        assert_eq!(ctx(sudden, fresh).game_score([0, 2, 1, 3], 0), Ok((GAME_WON, true)));
    }

    #[test]
    fn the_game_value_knows_the_situation() {
        let rules = Rules::default();
        let ctx = |levels| Context { rules, levels, knowledge: Knowledge::default() };
        // +1 from 5 (declaring again) is worth one level; losing +2 to the other team, three.
        let five = LevelState { levels: [3, 3], a_fails: [0, 0], declarer: Some(0) };
        assert_eq!(ctx(five).game_score([0, 1, 3, 2], 0), Ok((100, true)));
        let lost = ctx(five).game_score([1, 0, 3, 2], 0).unwrap();
        assert_eq!(lost, (-300, false));
        // At A, winning with the partner not last wins the game: not a +0.
        let at_a = LevelState { levels: [12, 3], a_fails: [0, 0], declarer: Some(0) };
        let (won, _) = ctx(at_a).game_score([0, 2, 1, 3], 0).unwrap();
        assert_eq!(won, GAME_WON - situation(&at_a, 0, &rules));
        assert!(won > 500);
        // Failing at A costs more than the level change says.
        let (failed, _) = ctx(at_a).game_score([0, 1, 3, 2], 0).unwrap();
        assert!(failed < 0, "{failed}");
    }
}
