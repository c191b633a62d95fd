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

impl APass {
    /// Every rule, in the order of [`APass::NAMES`].
    pub const ALL: [APass; 2] = [APass::PartnerNotLast, APass::DoubleDown];
    /// The names used in the API.
    pub const NAMES: [&'static str; 2] = ["partner_not_last", "double_down"];

    /// Name used in the API (`partner_not_last`, `double_down`).
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The rule named `name`.
    pub fn from_name(name: &str) -> Option<APass> {
        Self::NAMES.iter().position(|&n| n == name).map(|i| Self::ALL[i])
    }
}

/// Rule options as a caller gives them: wide integers, checked by
/// [`Rules::from_options`]. A field left `None` keeps the default, except
/// where `None` is itself a value (`a_max_attempts`, `return_max_rank`, `max_deals`).
#[derive(Clone, Debug, Default)]
pub struct RuleOptions {
    /// (partner place 2..4, levels gained 1..12), each place once.
    pub upgrade: Option<Vec<(i128, i128)>>,
    pub a_pass: Option<APass>,
    /// `Some(None)`: unlimited.
    pub a_max_attempts: Option<Option<i128>>,
    /// A rank code 0..12.
    pub a_fail_reset: Option<u8>,
    /// `Some(None)`: any card; else a rank code 0..12.
    pub return_max_rank: Option<Option<u8>>,
    pub joker_pair_in_full_house: Option<bool>,
    pub best_of: Option<i128>,
    /// `Some(None)`: no limit.
    pub max_deals: Option<Option<i128>>,
    pub sudden_death: Option<bool>,
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
    /// The rules of `o` over the defaults, every option checked (`InvalidRules` names the option).
    pub fn from_options(o: &RuleOptions) -> Result<Rules> {
        let bad = |m: String| Error::InvalidRules(m);
        let mut r = Rules::default();
        if let Some(pairs) = &o.upgrade {
            let mut seen = [false; 3];
            for &(place, gain) in pairs {
                if !(2..=4).contains(&place) {
                    return Err(bad(format!("upgrade: {place} is not a partner place 2..4")));
                }
                if !(1..=12).contains(&gain) {
                    return Err(bad(format!("upgrade: the gain for place {place} must be 1..12 levels, not {gain}")));
                }
                seen[(place - 2) as usize] = true;
                r.upgrade[(place - 2) as usize] = gain as u8;
            }
            if pairs.len() != 3 || seen.contains(&false) {
                return Err(bad("upgrade must give the gain for each partner place 2, 3 and 4 once".into()));
            }
        }
        if let Some(a) = o.a_pass {
            r.a_pass = a;
        }
        if let Some(n) = o.a_max_attempts {
            r.a_max_attempts = match n {
                None => None,
                Some(n) if (1..=255).contains(&n) => Some(n as u8),
                Some(n) => return Err(bad(format!("a_max_attempts must be 1..255 or None, not {n}"))),
            };
        }
        if let Some(x) = o.a_fail_reset {
            r.a_fail_reset = x;
        }
        if let Some(x) = o.return_max_rank {
            r.return_max_rank = x;
        }
        if let Some(x) = o.joker_pair_in_full_house {
            r.joker_pair_in_full_house = x;
        }
        if let Some(n) = o.best_of {
            if !(1..=255).contains(&n) || n % 2 == 0 {
                return Err(bad(format!("best_of must be an odd number of games 1..255, not {n}")));
            }
            r.best_of = n as u8;
        }
        if let Some(n) = o.max_deals {
            r.max_deals = match n {
                None => None,
                Some(n) if n >= 1 && n <= u32::MAX as i128 => Some(n as u32),
                Some(n) => return Err(bad(format!("max_deals must be 1..{} or None, not {n}", u32::MAX))),
            };
        }
        if let Some(x) = o.sudden_death {
            r.sudden_death = x;
        }
        r.validate()?;
        Ok(r)
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_names_round_trip() {
        for a in APass::ALL {
            assert_eq!(APass::from_name(a.name()), Some(a));
        }
        assert_eq!(APass::from_name("double-down"), None);
    }

    #[test]
    fn options_are_checked_and_name_the_option() {
        assert_eq!(Rules::from_options(&RuleOptions::default()), Ok(Rules::default()));
        let up = RuleOptions { upgrade: Some(vec![(2, 4), (3, 2), (4, 1)]), ..Default::default() };
        assert_eq!(Rules::from_options(&up).unwrap().upgrade, [4, 2, 1]);
        let twice = RuleOptions { upgrade: Some(vec![(2, 4), (2, 2), (4, 1)]), ..Default::default() };
        assert!(matches!(Rules::from_options(&twice), Err(Error::InvalidRules(m)) if m.contains("upgrade")));
        let huge = RuleOptions { best_of: Some(1 << 70), ..Default::default() };
        assert!(matches!(Rules::from_options(&huge), Err(Error::InvalidRules(m)) if m.contains("best_of")));
        let even = RuleOptions { best_of: Some(2), ..Default::default() };
        assert!(Rules::from_options(&even).is_err());
        let unlimited = RuleOptions { a_max_attempts: Some(None), max_deals: Some(Some(7)), ..Default::default() };
        let r = Rules::from_options(&unlimited).unwrap();
        assert_eq!((r.a_max_attempts, r.max_deals), (None, Some(7)));
        let dd = RuleOptions { a_pass: Some(APass::DoubleDown), ..Default::default() };
        assert_eq!(Rules::from_options(&dd).unwrap().a_pass, APass::DoubleDown);
    }
}
