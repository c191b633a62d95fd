//! Deal settlement and tribute planning as plain functions.

use super::*;
use crate::cards::card::rank_text;
use crate::game::levels::Settlement;
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

/// Levels after a deal finished in `finish_order` (docs/rules.md §7).
#[pyfunction]
#[pyo3(signature = (finish_order, *, levels = None, a_fails = None, declarer = None, rules = None))]
pub(crate) fn settle_deal<'py>(
    py: Python<'py>,
    finish_order: &Bound<'py, PyAny>,
    levels: Option<&Bound<'py, PyAny>>,
    a_fails: Option<&Bound<'py, PyAny>>,
    declarer: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let st = level_state_arg(levels, a_fails, declarer)?;
    let rules = rules_arg(rules)?;
    let finish = seats_arg(finish_order, "finish_order")?;
    settlement_dict(py, &st.settle(finish, &rules)?)
}

/// The tribute that opens a deal (docs/rules.md §6): kind, payments, cards each giver may pay, leader.
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

/// The cards a receiver holding `hand` may return at `level` (docs/rules.md §6).
#[pyfunction]
#[pyo3(signature = (hand, level, *, rules = None))]
pub(crate) fn return_options(hand: &Bound<'_, PyAny>, level: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<PyCard>> {
    let rules = rules_arg(rules)?;
    Ok(tribute::return_options(cards_arg(hand)?, level_arg(level)?, &rules).into_iter().map(PyCard).collect())
}
