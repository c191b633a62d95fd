//! The tribute: its shape (kind, givers, receivers, cards and step agree
//! with each other and the phase), the hands as dealt before it, and in a
//! deal in progress its replay from the previous finish and those hands.

use super::{invalid, seats};
use crate::cards::cardset::CardSet;
use crate::error::{Error, Result};
use crate::game::observe::Observation;
use crate::game::rules::Rules;
use crate::game::tribute::{move_card, TributeKind};
use crate::game::trick::team;
use crate::game::{Action, Game, Phase, Setup, TributeState};

/// The seats of `t` are seats and its return order indexes 0 or 1.
fn codes(t: &TributeState) -> Result<()> {
    for &x in t.plan.givers.iter().chain(&t.receivers).chain([&t.plan.leader, &t.leader]) {
        seats::seat(x, "seat of the tribute")?;
    }
    if t.return_order.iter().any(|&i| i > 1) {
        return Err(invalid("return order indexes are 0 or 1"));
    }
    Ok(())
}

/// Kind, givers, receivers, cards and step agree with each other and the phase.
fn shape(t: &TributeState, phase: Phase) -> Result<()> {
    let p = &t.plan;
    let n = p.n_givers as usize;
    let shape = match p.kind {
        TributeKind::None => return Err(invalid("a deal without tribute has no tribute state")),
        TributeKind::Resisted => n == 0,
        TributeKind::Single => n == 1 && p.givers[0] == p.givers[1],
        TributeKind::Double => n == 2 && p.givers[0] != p.givers[1],
    };
    if !shape {
        return Err(invalid(format!("a {} tribute does not have {n} giver(s) {:?}", p.kind.name(), &p.givers[..n.min(2)])));
    }
    codes(t)?;
    let step = t.step as usize;
    let (gifts, returns) = match phase {
        Phase::Tribute if step < n => (step, 0),
        Phase::Return if step < n => (n, step),
        Phase::Tribute | Phase::Return => return Err(invalid(format!("tribute step {step} is not below the {n} giver(s)"))),
        _ if step == n => (n, n),
        _ => return Err(invalid(format!("once tribute is done its step is the number of givers ({n}), not {step}"))),
    };
    let paid = t.gifts.iter().filter(|g| g.is_some()).count();
    if t.gifts[..gifts].iter().any(|g| g.is_none()) || paid != gifts {
        return Err(invalid(format!("the tribute has {paid} card(s) paid where the {} phase has {gifts}", phase.name())));
    }
    let done: Vec<usize> = if n == 2 { t.return_order[..returns].iter().map(|&i| i as usize).collect() } else { (0..returns).collect() };
    if (0..2).any(|i| t.returns[i].is_some() != done.contains(&i)) {
        return Err(invalid(format!("the tribute has other cards returned than its {returns} return(s) so far")));
    }
    if !phase.is_live() && n > 0 && !receivers_fit(t) {
        return Err(invalid("the tribute's receivers and return order do not fit its givers"));
    }
    Ok(())
}

/// Once tribute is done: a single's one receiver is not its giver, a
/// double's two receivers are the other team's two seats, each returning once.
fn receivers_fit(t: &TributeState) -> bool {
    let (p, r) = (&t.plan, t.receivers);
    match p.kind {
        TributeKind::Single => r[0] == r[1] && r[0] != p.givers[0] && t.return_order == [0, 0],
        _ => {
            r[0] != r[1]
                && team(r[0]) == team(r[1])
                && team(r[0]) != team(p.givers[0])
                && team(p.givers[0]) == team(p.givers[1])
                && t.return_order[0] != t.return_order[1]
        }
    }
}

/// The hands as dealt: `start` (hands and cards played) with the cards
/// that changed hands in tribute and return moved back.
fn undo(start: [CardSet; 4], t: &TributeState, phase: Phase) -> Result<[CardSet; 4]> {
    let mut h = start;
    if phase == Phase::Tribute {
        return Ok(h); // cards change hands once every giver has paid
    }
    let n = t.plan.n_givers as usize;
    for i in 0..n {
        if let Some(c) = t.returns[i] {
            move_card(&mut h, t.plan.givers[i], t.receivers[i], CardSet::single(c), "return")?;
        }
    }
    for i in 0..n {
        if let Some(c) = t.gifts[i] {
            move_card(&mut h, t.receivers[i], t.plan.givers[i], CardSet::single(c), "tribute")?;
        }
    }
    Ok(h)
}

/// Replays the tribute of `s` from the hands as dealt: each card paid and
/// returned must be one the rules allow, and the result `s` itself.
fn replay(rules: &Rules, s: &Setup, t: &TributeState, dealt: [CardSet; 4], start: [CardSet; 4]) -> Result<()> {
    let mut g = Game::at_deal_start(rules, s, dealt);
    let n = t.plan.n_givers as usize;
    let (gifts, returns) = match s.phase {
        Phase::Tribute => (t.step as usize, 0),
        Phase::Return => (n, t.step as usize),
        _ => (n, n),
    };
    let why = |e: Error| e.context("the tribute does not follow from the previous finish and the hands");
    for i in 0..gifts.min(2) {
        if let Some(c) = t.gifts[i] {
            g.apply(Action::Tribute(c)).map_err(why)?;
        }
    }
    for j in 0..returns.min(2) {
        if let Some(c) = t.returns[t.return_order[j] as usize & 1] {
            g.apply(Action::Return(c)).map_err(why)?;
        }
    }
    let hands = if s.phase == Phase::Play { start } else { s.hands };
    if g.phase != s.phase || g.tribute != s.tribute || g.play.hands != hands || (s.phase != Phase::Play && g.play.current != s.current) {
        return Err(invalid("the tribute state does not follow from the previous finish and the hands"));
    }
    Ok(())
}

/// The tribute of a setup: its shape, the leader it gives, and in a deal in
/// progress that it follows from the previous finish and the hands as
/// dealt. Returns the hands as dealt (`start` when there is no tribute).
pub(super) fn of_setup(rules: &Rules, s: &Setup, start: [CardSet; 4]) -> Result<[CardSet; 4]> {
    let Some(t) = &s.tribute else { return Ok(start) };
    shape(t, s.phase)?;
    if !matches!(s.phase, Phase::Tribute | Phase::Return) && s.leader != t.leader {
        return Err(invalid(format!("the leader {} is not the one the tribute gives ({})", s.leader, t.leader)));
    }
    let dealt = undo(start, t, s.phase)?;
    if s.phase.is_live() {
        replay(rules, s, t, dealt, start)?;
    }
    Ok(dealt)
}

/// The tribute of an observation: its codes, as many givers as its kind
/// has, its step at most that.
pub(super) fn of_observation(o: &Observation) -> Result<()> {
    let Some(t) = &o.tribute else { return Ok(()) };
    let n = match t.plan.kind {
        TributeKind::None | TributeKind::Resisted => 0,
        TributeKind::Single => 1,
        TributeKind::Double => 2,
    };
    codes(t)?;
    if t.plan.n_givers != n || t.step > n {
        return Err(invalid("inconsistent tribute"));
    }
    Ok(())
}
