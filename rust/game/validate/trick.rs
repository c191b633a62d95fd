//! The trick: who is out and who acts in the play phase, the play to beat,
//! and nothing played before play begins.

use super::invalid;
use crate::error::Result;
use crate::game::observe::Observation;
use crate::game::trick::partner;
use crate::game::{Phase, Setup};

/// The seats out are exactly those without cards (`empty`), no team has
/// both seats out (the deal would be over), and `current` holds cards.
fn out_and_turn(empty: [bool; 4], is_out: &[bool; 4], current: Option<u8>) -> Result<()> {
    for i in 0..4 {
        match (empty[i], is_out[i]) {
            (true, false) => return Err(invalid(format!("seat {i} holds no cards but is not listed as out"))),
            (false, true) => return Err(invalid(format!("seat {i} is listed as out but holds cards"))),
            _ => {}
        }
    }
    if let Some(x) = (0..4u8).find(|&x| is_out[x as usize] && is_out[partner(x) as usize]) {
        return Err(invalid(format!("seats {x} and {} (partners) are both out: the deal is over", partner(x))));
    }
    if let Some(c) = current.filter(|&c| is_out[c as usize]) {
        return Err(invalid(format!("the seat to act ({c}) holds no cards")));
    }
    Ok(())
}

/// Before play (the tribute and return phases): no top, no seat out, no card played.
pub(super) fn before_play(s: &Setup) -> Result<()> {
    if s.top.is_some() || !s.out.is_empty() || s.played.iter().any(|p| !p.is_empty()) {
        return Err(invalid(format!("in the {} phase nothing is played yet: no top, no seat out, no card played", s.phase.name())));
    }
    Ok(())
}

/// The play phase of a setup: seats out and the seat to act as play leaves
/// them, the top a play of its seat, the leader to lead before any card.
pub(super) fn of_setup(s: &Setup, is_out: &[bool; 4]) -> Result<()> {
    out_and_turn(s.hands.map(|h| h.is_empty()), is_out, Some(s.current))?;
    if let Some(m) = &s.top {
        let t = s.top_seat;
        if t == s.current {
            return Err(invalid(format!("seat {t} is to act on its own play")));
        }
        if !s.played[t as usize].contains(m.cards) {
            return Err(invalid(format!("the top play {} is not among the cards seat {t} has played", m.cards)));
        }
        if is_out[t as usize] && s.out.last() != Some(&t) {
            return Err(invalid(format!("seat {t} went out with the top play, so it is the last seat out")));
        }
    }
    if s.played.iter().all(|p| p.is_empty()) && (s.top.is_some() || s.current != s.leader) {
        return Err(invalid(format!("no card is played yet, so the leader ({}) is to lead", s.leader)));
    }
    Ok(())
}

/// The trick of an observation: a play to beat only in play and not by the
/// seat to act; in play the seats out as their hand sizes say; before play
/// a tribute, full hands and no one out.
pub(super) fn of_observation(o: &Observation, is_out: &[bool; 4]) -> Result<()> {
    if let Some((_, s)) = o.top {
        if o.phase != Phase::Play || s > 3 || Some(s) == o.current {
            return Err(invalid("a play to beat outside play, or by the seat to act"));
        }
    }
    match o.phase {
        Phase::Play => out_and_turn(o.sizes.map(|n| n == 0), is_out, o.current),
        Phase::Tribute | Phase::Return => {
            if o.n_out != 0 || o.sizes.contains(&0) || o.tribute.is_none_or(|t| t.plan.n_givers == 0) {
                return Err(invalid(format!("the {} phase needs a tribute, full hands and no one out", o.phase.name())));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
