//! Deals: the levels, the games won and the game and deal numbers of the
//! phase, and a finished deal as play leaves it.

use super::invalid;
use crate::cards::card::{rank_text, RANK_A};
use crate::error::Result;
use crate::game::observe::Observation;
use crate::game::rules::Rules;
use crate::game::trick::{partner, team};
use crate::game::{Phase, Setup};

/// The levels of a setup can occur under `rules`, and its level is a rank.
pub(super) fn levels_of_setup(rules: &Rules, s: &Setup) -> Result<()> {
    s.levels.check(rules)?;
    if s.level > RANK_A {
        return Err(invalid(format!("level rank code {} is not a rank 2..A", s.level)));
    }
    Ok(())
}

/// Games won, game and deal numbers fit the phase, the previous finish,
/// the tribute and the rules.
pub(super) fn of_setup(rules: &Rules, s: &Setup) -> Result<()> {
    let gtw = rules.games_to_win();
    let [a, b] = s.games_won;
    let game_over = matches!(s.phase, Phase::GameOver | Phase::MatchOver);
    if s.phase == Phase::MatchOver {
        if !((a == gtw && b < gtw) || (b == gtw && a < gtw)) {
            return Err(invalid(format!("a match over has one team with {gtw} games won and the other fewer, not {a},{b}")));
        }
    } else if a >= gtw || b >= gtw {
        return Err(invalid(format!("games won {a},{b}: a team with {gtw} has won the match, so the phase is match_over")));
    }
    let won = a as u32 + b as u32;
    let game = if game_over { won.checked_sub(1).ok_or_else(|| invalid("a game over needs a game won"))? } else { won };
    if s.game_number != game {
        return Err(invalid(format!("game number {} does not follow from the games won {a},{b} (it is {game})", s.game_number)));
    }
    referee(s)?;
    if s.phase.is_live() {
        live_deal(s)?;
    } else if s.referee.abandoned {
        if s.prev_finish.is_some() || s.tribute.is_some() {
            return Err(invalid("an abandoned deal has no finishing order and no tribute left"));
        }
    } else if s.referee.after_abandoned {
        if s.deal_number == 0 || s.tribute.is_some() {
            return Err(invalid("a finished deal after an abandoned one was counted and had no tribute"));
        }
    } else {
        if s.deal_number == 0 {
            return Err(invalid("a finished deal makes the deal number at least 1"));
        }
        // A game's first deal has a tribute only when the game started
        // after a given finishing order (`Game::with_setup`'s `after`).
        if s.deal_number > 1 && s.tribute.is_none() {
            return Err(invalid("a finished deal that was not its game's first had a tribute (or a resisted one)"));
        }
    }
    if rules.sudden_death && (s.phase == Phase::DealOver || s.deal_number > game_over as u32) {
        return Err(invalid("under sudden death every game is one deal"));
    }
    if let Some(m) = rules.max_deals {
        if s.deal_number > m || (s.deal_number == m && !game_over) {
            return Err(invalid(format!("deal number {} is beyond max_deals ({m}): the game would be over", s.deal_number)));
        }
    }
    Ok(())
}

/// The referee's part: counts below 3, an abandoned deal over, a
/// relevelled one in progress, and a deal not both abandoned and after one.
fn referee(s: &Setup) -> Result<()> {
    let r = &s.referee;
    if r.counts.iter().flatten().any(|&c| c >= 3) {
        return Err(invalid("a referee's count triggers on the third time, so it is below 3"));
    }
    if r.abandoned && (s.phase.is_live() || r.after_abandoned) {
        return Err(invalid("an abandoned deal is over and does not follow an abandoned one"));
    }
    if r.relevelled && !s.phase.is_live() {
        return Err(invalid("only a deal in progress is played at a level a decision changed"));
    }
    Ok(())
}

/// A deal in progress: its number can grow, it has a previous finish and a
/// tribute when it is not its game's first (a first deal has them only when
/// its game started after a given finishing order), and it is played at
/// the declarer's level.
fn live_deal(s: &Setup) -> Result<()> {
    if s.deal_number == u32::MAX {
        return Err(invalid(format!("deal number {} cannot grow when this deal ends", s.deal_number)));
    }
    if s.referee.after_abandoned {
        if s.prev_finish.is_some() || s.tribute.is_some() {
            return Err(invalid("a deal after an abandoned one has no previous finishing order and no tribute"));
        }
    } else if s.deal_number > 0 && s.prev_finish.is_none() {
        return Err(invalid("a deal that is not the first of its game (deal number above 0) has the previous finishing order"));
    }
    if s.prev_finish.is_some() != s.tribute.is_some() {
        return Err(invalid("a deal after a finished one (with its finishing order) has a tribute (or a resisted one), any other none"));
    }
    if s.level != s.levels.level() && !s.referee.relevelled {
        return Err(invalid(format!("the deal is played at {}, not at the declarer's level {}", rank_text(s.level), rank_text(s.levels.level()))));
    }
    if s.prev_finish.is_some() && s.levels.declarer.is_none() {
        return Err(invalid("after a finished deal the declarer is a team"));
    }
    if let Some(d) = s.levels.a_fails_full() {
        return Err(invalid(format!("team {d} has failed at A {} times, the most the count of A failures holds", u8::MAX)));
    }
    Ok(())
}

/// A finished deal: the finishing order as play makes it, and the level
/// state the settlement leaves.
pub(super) fn finished(s: &Setup) -> Result<()> {
    if s.out.len() != 4 {
        return Err(invalid("a finished deal lists all four seats as out, in finishing order"));
    }
    let f = [s.out[0], s.out[1], s.out[2], s.out[3]];
    if s.prev_finish != Some(f) {
        return Err(invalid("after a deal the previous finishing order is the deal's"));
    }
    if s.top.is_some() {
        return Err(invalid("no play is to beat once the deal is over"));
    }
    // The seats that went out by playing come first; the deal ended when
    // the last of them joined its partner.
    let k = s.hands.iter().filter(|h| h.is_empty()).count();
    if !(2..=3).contains(&k) || (0..4).any(|i| s.hands[f[i] as usize].is_empty() != (i < k)) {
        return Err(invalid("a finished deal's order starts with the two or three seats out of cards"));
    }
    let last = f[k - 1];
    if !f[..k - 1].contains(&partner(last)) || f[..k - 1].iter().any(|&x| f[..k - 1].contains(&partner(x))) {
        return Err(invalid("a deal ends as soon as both seats of a team are out"));
    }
    let rest: Vec<u8> = (1..4).map(|i| (last + i) % 4).filter(|x| !f[..k].contains(x)).collect();
    if f[k..] != rest[..] {
        return Err(invalid("the seats left with cards rank in order of play after the last one out"));
    }
    if s.current != last || s.top_seat != last {
        return Err(invalid(format!("the deal ended with seat {last}'s play: it is the current and top seat")));
    }
    if s.levels.declarer != Some(team(f[0])) {
        return Err(invalid(format!("after a deal the declarer is the team of its first out ({})", team(f[0]))));
    }
    Ok(())
}

/// The levels of an observation can occur under its rules, and a finished
/// deal lists the four seats in finishing order.
pub(super) fn of_observation(o: &Observation) -> Result<()> {
    if o.level > RANK_A {
        return Err(invalid(format!("level rank code {} is not a rank 2..A", o.level)));
    }
    o.levels.check(&o.rules)?;
    if !o.phase.is_live() && o.n_out != 4 {
        return Err(invalid("a finished deal needs the four seats in finish order"));
    }
    Ok(())
}
