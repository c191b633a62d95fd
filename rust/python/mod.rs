//! The Rust/Python boundary: every PyO3 class, function and exception.
//!
//! Everything here converts arguments, calls the core and converts results;
//! no game logic lives here.

mod actions;
mod cards;
mod game;
mod observation;
mod results;
mod rules;
mod search;

use crate::cards::card::{self, Card};
use crate::cards::cardset::CardSet;
use crate::error::Error;
use crate::movegen::combo::{Combo, KINDS};
use crate::movegen::{self, ComboRules, Mode};
use actions::*;
use cards::*;
use game::*;
use observation::*;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use results::*;
use rules::*;
use search::*;

pyo3::create_exception!(guandan_fast._core, GuandanError, PyValueError, "Base of every error the engine raises (a ValueError).");
pyo3::create_exception!(guandan_fast._core, InvalidCardError, GuandanError, "Text or an index that is not a card.");
pyo3::create_exception!(guandan_fast._core, DuplicateCardError, GuandanError, "A third copy of a card: two decks hold at most two of each face.");
pyo3::create_exception!(guandan_fast._core, InvalidLevelError, GuandanError, "A level that is not a rank 2..A.");
pyo3::create_exception!(guandan_fast._core, InvalidComboError, GuandanError, "Cards or a declaration that do not form the combination claimed.");
pyo3::create_exception!(guandan_fast._core, CardsNotInHandError, GuandanError, "Cards that are not in the hand they are played from.");
pyo3::create_exception!(guandan_fast._core, IllegalMoveError, GuandanError, "A move the rules do not allow in this position.");
pyo3::create_exception!(guandan_fast._core, InvalidRulesError, GuandanError, "An impossible rules option.");
pyo3::create_exception!(guandan_fast._core, InvalidStateError, GuandanError, "A position that cannot arise or be set up.");
pyo3::create_exception!(guandan_fast._core, UnsatisfiableError, GuandanError, "Hidden-card constraints that no deal satisfies.");
pyo3::create_exception!(
    guandan_fast._core,
    InvalidArgumentError,
    GuandanError,
    "An argument outside what a function accepts (a mode, a policy, a seat, a count)."
);

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        let msg = e.to_string();
        match e {
            Error::InvalidCard(_) => InvalidCardError::new_err(msg),
            Error::DuplicateCard(_) => DuplicateCardError::new_err(msg),
            Error::InvalidLevel(_) => InvalidLevelError::new_err(msg),
            Error::InvalidCombo(_) => InvalidComboError::new_err(msg),
            Error::CardsNotInHand(_) => CardsNotInHandError::new_err(msg),
            Error::IllegalMove(_) => IllegalMoveError::new_err(msg),
            Error::InvalidRules(_) => InvalidRulesError::new_err(msg),
            Error::InvalidState(_) => InvalidStateError::new_err(msg),
            Error::Unsatisfiable(_) => UnsatisfiableError::new_err(msg),
            Error::InvalidArgument(_) => InvalidArgumentError::new_err(msg),
        }
    }
}

// ---------------------------------------------------------------- arguments

/// A level from rank text (`"T"`, `"10"`) or a face value 2..=14 (A = 14).
pub(crate) fn level_arg(obj: &Bound<'_, PyAny>) -> PyResult<u8> {
    if let Ok(s) = obj.extract::<String>() {
        return Ok(card::parse_level(&s)?);
    }
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(InvalidLevelError::new_err("level must be a rank such as '2', 'T' or 'A', or 2..14"));
    }
    if let Ok(v) = obj.extract::<i64>() {
        if (2..=14).contains(&v) {
            return Ok((v - 2) as u8);
        }
        return Err(InvalidLevelError::new_err(format!("level {v} is not in 2..14 (A = 14)")));
    }
    Err(InvalidLevelError::new_err(format!("level must be a rank such as '2', 'T' or 'A', or 2..14, not {}", obj.get_type().name()?)))
}

pub(crate) fn card_arg(obj: &Bound<'_, PyAny>) -> PyResult<Card> {
    if let Ok(c) = obj.extract::<PyRef<'_, PyCard>>() {
        return Ok(c.0);
    }
    if let Ok(s) = obj.extract::<String>() {
        return Ok(Card::parse(&s)?);
    }
    Err(InvalidCardError::new_err(format!("expected a Card or card text, not {}", obj.get_type().name()?)))
}

/// A seat 0..3 from any Python int.
pub(crate) fn seat_arg(v: i64, what: &str) -> PyResult<u8> {
    if (0..4).contains(&v) {
        Ok(v as u8)
    } else {
        Err(InvalidArgumentError::new_err(format!("{what} {v} is not a seat 0..3")))
    }
}

/// A thread count: 0 for all cores, else 1..=256.
pub(crate) fn threads_arg(v: i64) -> PyResult<usize> {
    if (0..=256).contains(&v) {
        Ok(v as usize)
    } else {
        Err(InvalidArgumentError::new_err(format!("threads must be 0 (all cores) or 1..256, not {v}")))
    }
}

/// A seed from any Python int (negative seeds wrap to u64).
pub(crate) fn seed_arg(v: i128) -> PyResult<u64> {
    if v < i64::MIN as i128 || v > u64::MAX as i128 {
        return Err(InvalidArgumentError::new_err(format!("seed {v} does not fit in 64 bits")));
    }
    Ok(v as u64)
}

/// Cards from text, a Hand, a Combo, or an iterable of Cards / card text.
pub(crate) fn cards_arg(obj: &Bound<'_, PyAny>) -> PyResult<CardSet> {
    if let Ok(h) = obj.extract::<PyRef<'_, PyHand>>() {
        return Ok(h.0);
    }
    if let Ok(c) = obj.extract::<PyRef<'_, PyCombo>>() {
        return Ok(c.mv.cards);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(CardSet::parse(&s.to_cow()?)?);
    }
    if let Ok(c) = obj.extract::<PyRef<'_, PyCard>>() {
        return Ok(CardSet::single(c.0));
    }
    let iter = obj.try_iter().map_err(|_| {
        InvalidCardError::new_err(format!(
            "expected cards (text, Hand or iterable of Card), not {}",
            obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
        ))
    })?;
    let mut set = CardSet::EMPTY;
    for item in iter {
        set.try_add(card_arg(&item?)?)?;
    }
    Ok(set)
}

pub(crate) fn mode_arg(mode: &str) -> PyResult<Mode> {
    match mode {
        "cards" => Ok(Mode::Cards),
        "pattern" => Ok(Mode::Pattern),
        m => Err(InvalidArgumentError::new_err(format!("mode must be 'cards' or 'pattern', not {m:?}"))),
    }
}

pub(crate) fn top_arg(obj: Option<&Bound<'_, PyAny>>, level: u8, rules: ComboRules) -> PyResult<Option<Combo>> {
    let Some(obj) = obj else { return Ok(None) };
    if obj.is_none() {
        return Ok(None);
    }
    if let Ok(c) = obj.extract::<PyRef<'_, PyCombo>>() {
        if c.level != level {
            return Err(InvalidComboError::new_err(format!(
                "top was declared at level {} but the moves are for level {}",
                card::rank_text(c.level),
                card::rank_text(level)
            )));
        }
        return Ok(Some(c.mv.combo));
    }
    let cards = cards_arg(obj).map_err(|e| InvalidComboError::new_err(format!("top must be a Combo or cards: {e}")))?;
    let found = movegen::classify(cards, level, rules);
    match found.len() {
        1 => Ok(Some(found[0].combo)),
        0 => Err(InvalidComboError::new_err(format!("top {cards} is not a combination at level {}", card::rank_text(level)))),
        _ => Err(InvalidComboError::new_err(format!(
            "top {cards} can be declared {} ways ({}); pass a Combo",
            found.len(),
            found.iter().map(|m| m.combo.to_string()).collect::<Vec<_>>().join(", ")
        ))),
    }
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    // Load numpy's C API now: a first use later (after Ctrl-C, say) must not fail.
    py.import("numpy")?;
    let _ = numpy::PyArray1::<u8>::zeros(py, 0, false);
    m.add_class::<PyCard>()?;
    m.add_class::<PyHand>()?;
    m.add_class::<PyCombo>()?;
    m.add_function(wrap_pyfunction!(parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(classify, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves_array, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves_batch, m)?)?;
    m.add_function(wrap_pyfunction!(count_moves, m)?)?;
    m.add_function(wrap_pyfunction!(deal, m)?)?;
    m.add_class::<PyRules>()?;
    m.add_class::<PyPass>()?;
    m.add_class::<PyTribute>()?;
    m.add_class::<PyReturn>()?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyObservation>()?;
    m.add("PASS", PyPass)?;
    m.add_function(wrap_pyfunction!(settle_deal, m)?)?;
    m.add_function(wrap_pyfunction!(tribute_plan, m)?)?;
    m.add_function(wrap_pyfunction!(return_options, m)?)?;
    m.add_function(wrap_pyfunction!(_rebuild_game, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(sample_hands, m)?)?;
    m.add_function(wrap_pyfunction!(policy_action, m)?)?;
    m.add("KINDS", PyTuple::new(py, KINDS.map(|k| k.name()))?)?;
    m.add("GuandanError", py.get_type::<GuandanError>())?;
    m.add("InvalidCardError", py.get_type::<InvalidCardError>())?;
    m.add("DuplicateCardError", py.get_type::<DuplicateCardError>())?;
    m.add("InvalidLevelError", py.get_type::<InvalidLevelError>())?;
    m.add("InvalidComboError", py.get_type::<InvalidComboError>())?;
    m.add("CardsNotInHandError", py.get_type::<CardsNotInHandError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("InvalidRulesError", py.get_type::<InvalidRulesError>())?;
    m.add("InvalidStateError", py.get_type::<InvalidStateError>())?;
    m.add("UnsatisfiableError", py.get_type::<UnsatisfiableError>())?;
    m.add("InvalidArgumentError", py.get_type::<InvalidArgumentError>())?;
    Ok(())
}
