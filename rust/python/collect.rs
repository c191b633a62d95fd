//! `collect` for Python: trajectories of built-in policies as numpy arrays.
//! Conversion only.

use super::*;
use crate::rl::collect::collect as collect_core;
use crate::rl::encodings::Encoding;
use crate::rl::episode::{Reward, Setting, Unit};
use numpy::ndarray::Array2;
use numpy::IntoPyArray;
use pyo3::types::PyDict;

/// Plays episodes `start..start + n` of the seeded stream (`unit` 'deal': a
/// fresh deal, the deals `simulate` plays; 'game': a whole game) with
/// built-in policies, natively and in parallel, and returns one row per
/// decision: `obs`, `action` (index), `mask` (when `masks`), `reward_to_go`,
/// `seat`, `phase`, `deal` (the episode id).
#[pyfunction]
#[pyo3(name = "collect")]
#[pyo3(signature = (n, *, policy = None, seed = None, start = None, threads = None, rules = None, observation = LEFT_OUT, unit = LEFT_OUT, reward = LEFT_OUT, masks = LEFT_OUT))]
#[pyo3(
    text_signature = "(n, *, policy='random', seed=0, start=0, threads=0, rules=None, observation='danzero', unit='deal', reward='deal', masks=True)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn collect_trajectories<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    policy: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    start: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
    observation: Arg<'py>,
    unit: Arg<'py>,
    reward: Arg<'py>,
    masks: Arg<'py>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = count_arg(n, "n", 0, crate::search::simulate::MAX_ITEMS)?;
    let seed = none_or(seed, 0, |o| seed_arg(o))?;
    let start = none_or(start, 0, |o| count_arg(o, "start", 0, u64::MAX))?;
    let threads = none_or(threads, 0, |o| threads_arg(o))?;
    let rules = rules_arg(rules)?;
    let enc = observation.or(Encoding::DanZero, |o| name_arg(o, "observation", "'danzero' or 'guandan'", Encoding::from_name))?;
    let unit = unit.or(Unit::Deal, |o| name_arg(o, "unit", "'deal' or 'game'", Unit::from_name))?;
    let reward = reward.or(Reward::Deal, |o| name_arg(o, "reward", "'deal' or 'game'", Reward::from_name))?;
    let masks = flag_or(&masks, "masks", true)?;
    let policies = policies_or(policy)?;
    let s = Setting { rules, unit, reward, natives: [None; 4] };
    let t = interruptible(py, |stop| collect_core(n, seed, start, threads, &s, &policies, enc, masks, stop))?;
    let rows = t.len();
    let shape_err = |e: numpy::ndarray::ShapeError| InvalidStateError::new_err(e.to_string());
    let d = PyDict::new(py);
    d.set_item("obs", Array2::from_shape_vec((rows, enc.size()), t.obs).map_err(shape_err)?.into_pyarray(py))?;
    d.set_item("action", t.action.into_pyarray(py))?;
    if masks {
        d.set_item("mask", Array2::from_shape_vec((rows, crate::rl::SIZE), t.mask).map_err(shape_err)?.into_pyarray(py))?;
    }
    d.set_item("reward_to_go", t.reward_to_go.into_pyarray(py))?;
    d.set_item("seat", t.seat.into_pyarray(py))?;
    d.set_item("phase", t.phase.into_pyarray(py))?;
    d.set_item("deal", t.episode.into_pyarray(py))?;
    Ok(d)
}
