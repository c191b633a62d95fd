//! Deal settlement and tribute planning as plain functions.

use super::*;
use crate::cards::card::rank_text;
use crate::cards::cardset::CardSet;
use crate::game::levels::{LevelState, Settlement};
use crate::game::tribute;
use pyo3::types::PyDict;

// ---------------------------------------------------------------- results

pub(crate) fn settlement_dict<'py>(py: Python<'py>, s: &Settlement) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("winner", s.winner)?;
    d.set_item("partner_place", s.partner_place)?;
    d.set_item("gain", s.gain)?;
    d.set_item("a_failed", s.a_failed)?;
    d.set_item("a_reset", s.a_reset)?;
    d.set_item("levels", (rank_text(s.after.levels[0]), rank_text(s.after.levels[1])))?;
    d.set_item("a_fails", (s.after.a_fails[0], s.after.a_fails[1]))?;
    d.set_item("declarer", s.after.declarer)?;
    d.set_item("game_winner", s.game_winner)?;
    Ok(d)
}

pub(crate) fn seats_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<[u8; 4]> {
    let v: Vec<i64> = obj.extract().map_err(|_| InvalidStateError::new_err(format!("{what} must be 4 seats")))?;
    let mut sorted = v.clone();
    sorted.sort();
    if sorted != [0, 1, 2, 3] {
        return Err(InvalidStateError::new_err(format!("{what} must be the seats 0..3 each once, got {v:?}")));
    }
    Ok([v[0] as u8, v[1] as u8, v[2] as u8, v[3] as u8])
}

/// Levels after a deal finished in `finish_order` (§7).
#[pyfunction]
#[pyo3(signature = (finish_order, *, levels = None, a_fails = (0, 0), declarer = None, rules = None))]
pub(crate) fn settle_deal<'py>(
    py: Python<'py>,
    finish_order: &Bound<'py, PyAny>,
    levels: Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>,
    a_fails: (u8, u8),
    declarer: Option<i64>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let declarer = match declarer {
        None => None,
        Some(d) if d == 0 || d == 1 => Some(d as u8),
        Some(d) => return Err(InvalidArgumentError::new_err(format!("declarer {d} is not a team 0, 1 or None"))),
    };
    let rules = rules_arg(rules)?;
    let finish = seats_arg(finish_order, "finish_order")?;
    let lv = match levels {
        None => [0, 0],
        Some((a, b)) => [level_arg(&a)?, level_arg(&b)?],
    };
    if declarer.is_some_and(|d| d > 1) {
        return Err(InvalidStateError::new_err("declarer must be team 0, 1 or None"));
    }
    let st = LevelState { levels: lv, a_fails: [a_fails.0, a_fails.1], declarer };
    settlement_dict(py, &st.settle(finish, &rules)?)
}

pub(crate) fn hands_arg(obj: &Bound<'_, PyAny>) -> PyResult<[CardSet; 4]> {
    let v: Vec<Bound<'_, PyAny>> = obj.try_iter()?.collect::<PyResult<_>>()?;
    if v.len() != 4 {
        return Err(InvalidStateError::new_err(format!("expected 4 hands, got {}", v.len())));
    }
    Ok([cards_arg(&v[0])?, cards_arg(&v[1])?, cards_arg(&v[2])?, cards_arg(&v[3])?])
}

/// The tribute that opens a deal (§6): kind, payments, cards each giver may pay, leader.
#[pyfunction]
#[pyo3(signature = (hands, prev_finish, level, *, rules = None))]
pub(crate) fn tribute_plan<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    prev_finish: &Bound<'py, PyAny>,
    level: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let _ = rules_arg(rules)?;
    let hands = hands_arg(hands)?;
    let prev = seats_arg(prev_finish, "prev_finish")?;
    let l = level_arg(level)?;
    let f = tribute::forecast(prev, &hands, l)?;
    let d = PyDict::new(py);
    d.set_item("kind", f.plan.kind.name())?;
    let options = PyDict::new(py);
    for (g, opts) in f.options {
        options.set_item(g, opts.into_iter().map(PyCard).collect::<Vec<_>>())?;
    }
    d.set_item("payments", f.payments)?;
    d.set_item("options", options)?;
    d.set_item("leader", f.leader)?;
    Ok(d)
}

/// The cards a receiver holding `hand` may return at `level` (§6).
#[pyfunction]
#[pyo3(signature = (hand, level, *, rules = None))]
pub(crate) fn return_options(hand: &Bound<'_, PyAny>, level: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<PyCard>> {
    let rules = rules_arg(rules)?;
    Ok(tribute::return_options(cards_arg(hand)?, level_arg(level)?, &rules).into_iter().map(PyCard).collect())
}
