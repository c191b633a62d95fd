//! Levels after a deal (升级), the A rules (过A, A attempts) and game ends.

use crate::cards::card::RANK_A;
use crate::error::{Error, Result};
use crate::game::rules::{APass, Rules};
use crate::game::trick::{partner, team};

/// The level state of a game between deals.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LevelState {
    /// Each team's level (rank code; 12 = A).
    pub levels: [u8; 2],
    /// Failed attempts at A of each team since its last reset.
    pub a_fails: [u8; 2],
    /// The team whose level is played (None: the game's first deal, both at 2).
    pub declarer: Option<u8>,
}

/// What one deal changed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Settlement {
    /// Team of f1.
    pub winner: u8,
    /// Finishing place (2..=4) of f1's partner.
    pub partner_place: u8,
    /// Levels gained by the winner (after the cap at A).
    pub gain: u8,
    /// Whether the deal was played at the declarer's A and the declarer failed to pass it.
    pub a_failed: bool,
    /// Whether that failure dropped the team to `a_fail_reset`.
    pub a_reset: bool,
    /// The state for the next deal.
    pub after: LevelState,
    /// The team that won the game with this deal, if any.
    pub game_winner: Option<u8>,
}

impl LevelState {
    /// A new game: both teams at 2.
    pub fn new() -> LevelState {
        LevelState { levels: [0, 0], a_fails: [0, 0], declarer: None }
    }

    /// The rank played in the next deal.
    pub fn level(&self) -> u8 {
        match self.declarer {
            Some(t) => self.levels[t as usize],
            None => self.levels[0].max(self.levels[1]),
        }
    }

    /// Checks that the state can occur under `rules`: levels 2..A, the
    /// declarer a team or None, A failures below `a_max_attempts`.
    pub fn check(&self, rules: &Rules) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidState(m));
        if let Some(&l) = self.levels.iter().find(|&&l| l > RANK_A) {
            return bad(format!("levels must be ranks 2..A, got rank code {l}"));
        }
        if let Some(d) = self.declarer.filter(|&d| d > 1) {
            return bad(format!("declarer {d} is not a team 0, 1 or None"));
        }
        if let Some(m) = rules.a_max_attempts {
            if let Some(&f) = self.a_fails.iter().find(|&&f| f >= m) {
                return bad(format!("A failures must be below a_max_attempts ({m}), got {f}"));
            }
        }
        Ok(())
    }

    /// Whether a deal played now would count one more failure at A than
    /// `a_fails` can hold (only with unlimited attempts): the declarer is at
    /// A with 255 failures.
    pub fn a_fails_full(&self) -> Option<u8> {
        self.declarer.filter(|&d| self.levels[d as usize] == RANK_A && self.a_fails[d as usize] == u8::MAX)
    }

    /// Applies the result of a deal finished in `finish` order (a
    /// permutation of the seats) to a state that passes `check`; a declarer
    /// at A with 255 failures is refused (`a_fails_full`), not wrapped.
    pub fn settle(&self, finish: [u8; 4], rules: &Rules) -> Result<Settlement> {
        self.check(rules)?;
        let mut seen = [false; 4];
        for &s in &finish {
            if s > 3 || std::mem::replace(&mut seen[s as usize], true) {
                return Err(Error::InvalidState(format!("finish order {finish:?} is not the seats 0..3 each once")));
            }
        }
        let f1 = finish[0];
        let w = team(f1);
        let place = finish.iter().position(|&s| s == partner(f1)).map_or(4, |i| i as u8 + 1);
        let mut after = *self;
        after.declarer = Some(w);
        if rules.sudden_death {
            return Ok(Settlement { winner: w, partner_place: place, gain: 0, a_failed: false, a_reset: false, after, game_winner: Some(w) });
        }
        let at_a = self.declarer.filter(|&d| self.levels[d as usize] == RANK_A);
        if let Some(d) = at_a {
            let passed = d == w
                && match rules.a_pass {
                    APass::PartnerNotLast => place != 4,
                    APass::DoubleDown => place == 2,
                };
            if passed {
                return Ok(Settlement { winner: w, partner_place: place, gain: 0, a_failed: false, a_reset: false, after, game_winner: Some(w) });
            }
        }
        let before = after.levels[w as usize];
        let up = rules.upgrade[(place - 2) as usize];
        after.levels[w as usize] = (before + up).min(RANK_A);
        let gain = after.levels[w as usize] - before;
        let mut a_failed = false;
        let mut a_reset = false;
        if let Some(d) = at_a {
            a_failed = true;
            after.a_fails[d as usize] = after.a_fails[d as usize]
                .checked_add(1)
                .ok_or_else(|| Error::InvalidState(format!("team {d} has failed at A {} times, the most the count of A failures holds", u8::MAX)))?;
            if rules.a_max_attempts.is_some_and(|m| after.a_fails[d as usize] >= m) {
                after.levels[d as usize] = rules.a_fail_reset;
                after.a_fails[d as usize] = 0;
                a_reset = true;
            }
        }
        Ok(Settlement { winner: w, partner_place: place, gain, a_failed, a_reset, after, game_winner: None })
    }
}

impl Default for LevelState {
    fn default() -> Self {
        LevelState::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upgrades_and_cap() {
        let r = Rules::default();
        let s = LevelState::new();
        assert_eq!(s.settle([0, 2, 1, 3], &r).unwrap().after.levels, [3, 0]);
        assert_eq!(s.settle([1, 0, 3, 2], &r).unwrap().after.levels, [0, 2]);
        assert_eq!(s.settle([1, 0, 2, 3], &r).unwrap().after.levels, [0, 1]);
        let near = LevelState { levels: [11, 0], a_fails: [0, 0], declarer: Some(0) };
        let x = near.settle([0, 2, 1, 3], &r).unwrap();
        assert_eq!(x.after.levels, [RANK_A, 0]);
        assert_eq!(x.gain, 1);
    }

    #[test]
    fn a_passed_failed_and_reset() {
        let r = Rules::default();
        let at_a = LevelState { levels: [RANK_A, 5], a_fails: [0, 0], declarer: Some(0) };
        assert_eq!(at_a.settle([0, 1, 2, 3], &r).unwrap().game_winner, Some(0));
        let last = at_a.settle([0, 1, 3, 2], &r).unwrap();
        assert_eq!(last.game_winner, None);
        assert!(last.a_failed);
        assert_eq!(last.after.levels, [RANK_A, 5]);
        assert_eq!(last.after.a_fails, [1, 0]);
        let third = LevelState { levels: [RANK_A, 5], a_fails: [2, 0], declarer: Some(0) };
        let lost = third.settle([1, 3, 0, 2], &r).unwrap();
        assert!(lost.a_reset);
        assert_eq!(lost.after.levels, [0, 8]);
        assert_eq!(lost.after.a_fails, [0, 0]);
        // A team at A winning the other's deal does not pass.
        let other = LevelState { levels: [RANK_A, 5], a_fails: [0, 0], declarer: Some(1) };
        let x = other.settle([0, 2, 1, 3], &r).unwrap();
        assert_eq!(x.game_winner, None);
        assert_eq!(x.after.declarer, Some(0));
        assert_eq!(x.after.levels, [RANK_A, 5]);
    }

    #[test]
    fn a_failure_count_is_refused_not_wrapped() {
        let r = Rules { a_max_attempts: None, ..Rules::default() };
        let full = LevelState { levels: [RANK_A, 5], a_fails: [255, 0], declarer: Some(0) };
        assert_eq!(full.a_fails_full(), Some(0));
        assert!(matches!(full.settle([1, 0, 2, 3], &r), Err(Error::InvalidState(_))));
        // Passing A needs no count; the other team's deal does not touch it.
        assert_eq!(full.settle([0, 2, 1, 3], &r).unwrap().game_winner, Some(0));
        let other = LevelState { declarer: Some(1), ..full };
        assert_eq!(other.a_fails_full(), None);
        assert_eq!(other.settle([1, 0, 2, 3], &r).unwrap().after.a_fails, [255, 0]);
        let almost = LevelState { a_fails: [254, 0], ..full };
        assert_eq!(almost.settle([1, 0, 2, 3], &r).unwrap().after.a_fails, [255, 0]);
    }

    #[test]
    fn bad_states_and_orders_are_refused() {
        let r = Rules::default();
        let ok = LevelState::new();
        for finish in [[0, 0, 1, 2], [0, 1, 2, 4]] {
            assert!(ok.settle(finish, &r).is_err(), "{finish:?}");
        }
        for bad in [LevelState { levels: [13, 0], ..ok }, LevelState { declarer: Some(2), ..ok }, LevelState { a_fails: [0, 3], ..ok }] {
            assert!(bad.check(&r).is_err() && bad.settle([0, 1, 2, 3], &r).is_err(), "{bad:?}");
        }
    }
}
