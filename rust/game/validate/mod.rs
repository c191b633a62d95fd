//! The one validator of the game's states: whether a `Setup` can occur
//! under the rules (a position string, the origin of a restored record, the
//! start of every game), and whether an `Observation` could come from a game
//! (an unpickled one, or one rebuilt from what a seat was told). Every
//! refusal is `InvalidState` (`InvalidRules` for the rules of an
//! observation), naming what is wrong.
//!
//! One file per section, each with the checks of a setup and of an
//! observation:
//!
//! - `seats`: seat numbers, the seats out, finishing orders;
//! - `cards`: sets of cards, the codes and declarations of plays, the
//!   cards held, played and known;
//! - `deals`: levels, games won, game and deal numbers, a finished deal;
//! - `trick`: the trick of each phase: who is out, who acts, the play to beat;
//! - `tribute`: the tribute state's shape, the hands as dealt, and its replay.

pub mod cards;
mod deals;
pub mod seats;
mod tribute;
mod trick;

use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::game::observe::Observation;
use crate::game::rules::Rules;
use crate::game::{Phase, Setup};

/// The error of a state that cannot occur.
pub(crate) fn invalid(m: impl Into<String>) -> Error {
    Error::InvalidState(m.into())
}

/// Checks everything about `s` under `rules` (which passed `validate`):
/// codes in range, cards within two decks, counts and phase consistent, the
/// trick one that play reaches, the tribute one that follows from the
/// previous finish and the hands. Returns the hands as dealt.
pub fn setup(rules: &Rules, s: &Setup) -> Result<[CardSet; 4]> {
    let is_out = seats::of_setup(s)?;
    deals::levels_of_setup(rules, s)?;
    let start = cards::of_setup(s)?;
    deals::of_setup(rules, s)?;
    if let Some(m) = &s.top {
        cards::declaration(m, s.level, rules.combo_rules(), "the top play")?;
    }
    match s.phase {
        Phase::Tribute | Phase::Return => trick::before_play(s)?,
        Phase::Play => trick::of_setup(s, &is_out)?,
        _ => deals::finished(s)?,
    }
    tribute::of_setup(rules, s, start)
}

/// Checks that `o` could come from a game: every field in range and
/// consistent with the others.
pub fn observation(o: &Observation) -> Result<()> {
    o.rules.validate()?;
    let checks = || -> Result<()> {
        let is_out = seats::of_observation(o)?;
        deals::of_observation(o)?;
        cards::of_observation(o)?;
        trick::of_observation(o, &is_out)?;
        tribute::of_observation(o)
    };
    checks().map_err(|e| e.context("observation"))
}
