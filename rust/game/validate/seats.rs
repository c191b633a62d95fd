//! Seats: every seat number 0..3, the seats out and finishing orders
//! listing each seat at most once.

use super::invalid;
use crate::error::Result;
use crate::game::observe::Observation;
use crate::game::{Action, Setup};

/// `s` is a seat 0..3.
pub fn seat(s: u8, what: &str) -> Result<()> {
    if s > 3 {
        return Err(invalid(format!("{what} {s} is not a seat 0..3")));
    }
    Ok(())
}

/// `v` lists at most four seats, each once; returns which it lists.
pub fn distinct(v: &[u8], what: &str) -> Result<[bool; 4]> {
    if v.len() > 4 {
        return Err(invalid(format!("{what} lists {} seats", v.len())));
    }
    let mut listed = [false; 4];
    for &x in v {
        if x > 3 {
            return Err(invalid(format!("{what} {v:?} lists {x}, not a seat 0..3")));
        }
        if std::mem::replace(&mut listed[x as usize], true) {
            return Err(invalid(format!("{what} {v:?} lists seat {x} twice")));
        }
    }
    Ok(listed)
}

/// The seats of each decision in `history`.
pub fn of_history(history: &[(u8, Action)]) -> Result<()> {
    history.iter().try_for_each(|&(s, _)| seat(s, "history seat"))
}

/// The seats of a setup; returns which seats are out.
pub(super) fn of_setup(s: &Setup) -> Result<[bool; 4]> {
    seat(s.current, "current seat")?;
    seat(s.top_seat, "top seat")?;
    seat(s.leader, "leader")?;
    let is_out = distinct(&s.out, "the seats out")?;
    if let Some(p) = s.prev_finish {
        distinct(&p, "the previous finish")?;
    }
    Ok(is_out)
}

/// The seats of an observation: the observer, the finishing order, the
/// seat to act (exactly while a deal is in progress), the history's seats;
/// returns which seats are out.
pub(super) fn of_observation(o: &Observation) -> Result<[bool; 4]> {
    seat(o.seat, "seat")?;
    if o.n_out > 4 {
        return Err(invalid(format!("{} seats out", o.n_out)));
    }
    let is_out = distinct(o.finish_order(), "finish order")?;
    match o.current {
        Some(c) if !o.phase.is_live() || c > 3 => return Err(invalid(format!("seat {c} cannot be to act in the {} phase", o.phase.name()))),
        None if o.phase.is_live() => return Err(invalid(format!("no seat to act in the {} phase", o.phase.name()))),
        _ => {}
    }
    of_history(&o.history)?;
    Ok(is_out)
}
