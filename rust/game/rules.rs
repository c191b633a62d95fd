//! `Rules`: every option on which the tournament rule books differ.

use crate::cards::card::{rank_text, RANK_A};
use crate::error::{Error, Result};
use crate::movegen::ComboRules;

/// What a team at A must do to pass A and win the game (过A).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum APass {
    /// Be first out with the partner not last (default).
    PartnerNotLast,
    /// Finish first and second (双下).
    DoubleDown,
}

/// The rule options of a game or match; `Rules::default()` is the marked default of every option.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Rules {
    /// Levels gained when f1's partner finishes 2nd, 3rd, 4th.
    pub upgrade: [u8; 3],
    pub a_pass: APass,
    /// Failed attempts at A before the team drops (None: unlimited).
    pub a_max_attempts: Option<u8>,
    /// Rank code the team drops to after `a_max_attempts` failures.
    pub a_fail_reset: u8,
    /// Highest rank code a return card (还贡) may have (None: any card).
    pub return_max_rank: Option<u8>,
    pub joker_pair_in_full_house: bool,
    /// Games in a match (odd); the first team to win a majority wins it.
    pub best_of: u8,
    /// Deals after which a game ends on levels (None: no limit).
    pub max_deals: Option<u32>,
    /// Every game is one deal at level A won by the team of f1 (突然死亡).
    pub sudden_death: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            upgrade: [3, 2, 1],
            a_pass: APass::PartnerNotLast,
            a_max_attempts: Some(3),
            a_fail_reset: 0,
            return_max_rank: Some(8),
            joker_pair_in_full_house: true,
            best_of: 1,
            max_deals: None,
            sudden_death: false,
        }
    }
}

impl Rules {
    /// Checks that the options describe a playable game.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidRules(m));
        if self.upgrade.iter().any(|&u| u == 0 || u > 12) {
            return bad(format!("upgrade gains must be 1..12 levels, got {:?}", self.upgrade));
        }
        if self.upgrade[0] < self.upgrade[1] || self.upgrade[1] < self.upgrade[2] {
            return bad(format!("upgrade gains must not grow as the partner finishes lower, got {:?}", self.upgrade));
        }
        if self.a_max_attempts == Some(0) {
            return bad("a_max_attempts must be at least 1 (or None for unlimited)".into());
        }
        if self.a_fail_reset >= RANK_A {
            return bad(format!("a_fail_reset must be a rank below A, got {}", rank_text(self.a_fail_reset)));
        }
        if let Some(r) = self.return_max_rank {
            if r > RANK_A {
                return bad("return_max_rank must be a rank 2..A or None".into());
            }
        }
        if self.best_of == 0 || self.best_of % 2 == 0 {
            return bad(format!("best_of must be an odd number of games, got {}", self.best_of));
        }
        if self.max_deals == Some(0) {
            return bad("max_deals must be at least 1 (or None)".into());
        }
        Ok(())
    }

    /// The options that decide which combinations exist.
    #[inline]
    pub fn combo_rules(&self) -> ComboRules {
        ComboRules { joker_pair_in_full_house: self.joker_pair_in_full_house }
    }

    /// Games a team must win to take the match.
    #[inline]
    pub fn games_to_win(&self) -> u8 {
        self.best_of / 2 + 1
    }
}
