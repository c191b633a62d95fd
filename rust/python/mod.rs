//! The Rust/Python boundary: every PyO3 class, function and exception.
//!
//! Everything here converts arguments, calls the core and converts results;
//! no game logic lives here.

mod actions;
mod args;
mod cards;
mod collect;
mod danzero_rows;
mod encoders;
mod episode;
mod game;
mod infer;
mod learned;
mod matches;
mod observation;
mod results;
mod rl;
mod rules;
mod search;
mod vecenv;

use crate::cards::card::{self, Card};
use crate::error::Error;
use crate::movegen::combo::KINDS;
use crate::movegen::Mode;
use actions::*;
use args::*;
use cards::*;
use collect::*;
use danzero_rows::*;
use encoders::*;
use episode::*;
use game::*;
use infer::*;
use learned::*;
use matches::*;
use observation::*;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use results::*;
use rl::*;
use rules::*;
use search::*;
use vecenv::*;

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

/// Characters of a core error message kept in the Python exception.
const MAX_MESSAGE: usize = 500;

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        let mut msg = e.to_string();
        if msg.chars().count() > MAX_MESSAGE {
            // A message that quotes a huge input is cut rather than echoing it whole.
            msg = msg.chars().take(MAX_MESSAGE).collect::<String>() + "…";
        }
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

/// The name of a built-in policy as the engine writes it (`mc` is `mc:200`);
/// an unknown name raises `InvalidArgumentError`.
#[pyfunction]
fn _check_policy(name: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(policy_arg(name, "policy")?.name())
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
    m.add_function(wrap_pyfunction!(_declarations, m)?)?;
    m.add_function(wrap_pyfunction!(decompose, m)?)?;
    m.add_function(wrap_pyfunction!(_rule_value, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves_array, m)?)?;
    m.add_function(wrap_pyfunction!(legal_moves_batch, m)?)?;
    m.add_function(wrap_pyfunction!(count_moves, m)?)?;
    m.add_function(wrap_pyfunction!(deal, m)?)?;
    m.add_function(wrap_pyfunction!(_rank_order, m)?)?;
    m.add_function(wrap_pyfunction!(_check_policy, m)?)?;
    m.add_function(wrap_pyfunction!(_check_args, m)?)?;
    m.add("_RANKS", PyTuple::new(py, (0..15u8).map(card::rank_text))?)?;
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
    m.add_function(wrap_pyfunction!(_rebuild_observation, m)?)?;
    m.add_function(wrap_pyfunction!(_observation_from_public, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(_item_seed, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(sample_hands, m)?)?;
    m.add_function(wrap_pyfunction!(infer_hands, m)?)?;
    m.add_function(wrap_pyfunction!(hand_log_likelihood, m)?)?;
    m.add_function(wrap_pyfunction!(policy_action, m)?)?;
    m.add_function(wrap_pyfunction!(win_chance, m)?)?;
    m.add_function(wrap_pyfunction!(model_search, m)?)?;
    m.add_function(wrap_pyfunction!(_search_options, m)?)?;
    m.add_function(wrap_pyfunction!(_model_scores, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_matches, m)?)?;
    m.add_function(wrap_pyfunction!(play_bot_match, m)?)?;
    m.add_function(wrap_pyfunction!(action_index, m)?)?;
    m.add_function(wrap_pyfunction!(index_action, m)?)?;
    m.add_function(wrap_pyfunction!(describe_index, m)?)?;
    m.add_function(wrap_pyfunction!(index_fields, m)?)?;
    m.add_function(wrap_pyfunction!(encode_observation, m)?)?;
    m.add_function(wrap_pyfunction!(danzero_state, m)?)?;
    m.add_function(wrap_pyfunction!(encode_observations, m)?)?;
    m.add_function(wrap_pyfunction!(danzero_states, m)?)?;
    m.add("OBSERVATION_SIZE", crate::rl::encodings::OBSERVATION_SIZE)?;
    m.add("DANZERO_SIZE", crate::rl::encodings::DANZERO_SIZE)?;
    m.add_function(wrap_pyfunction!(danzero_actions, m)?)?;
    m.add("DANZERO_ROW_SIZE", crate::rl::fields::DANZERO_ROW_SIZE)?;
    m.add_function(wrap_pyfunction!(observation_fields, m)?)?;
    m.add_function(wrap_pyfunction!(action_features, m)?)?;
    m.add_class::<PyEpisode>()?;
    m.add_function(wrap_pyfunction!(_rebuild_episode, m)?)?;
    m.add_class::<PyVectorEnv>()?;
    m.add_function(wrap_pyfunction!(collect_trajectories, m)?)?;
    m.add("ACTION_SIZE", crate::rl::SIZE)?;
    m.add("PASS_INDEX", crate::rl::PASS_INDEX)?;
    m.add("KINDS", PyTuple::new(py, KINDS.map(|k| k.name()))?)?;
    m.add("PENALTY_KINDS", PyTuple::new(py, crate::game::referee::PenaltyKind::ALL.map(|k| k.name()))?)?;
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
