//! Hidden hands inferred from the play: deals weighted by the likelihood of
//! the deal's public actions under the softened rule policy.

use super::*;
use crate::cards::card::NUM_FACES;
use crate::cards::cardset::CardSet;
use crate::search::infer::{Inference, Model};
use numpy::ndarray::{Array1, Array3};
use numpy::{IntoPyArray, PyArray3, PyArrayMethods, PyUntypedArrayMethods};

/// The default ε of the opponents (and of the partner when not given).
const EPSILON: f64 = 0.3;

/// An ε: a real number in (0, 1].
fn epsilon_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    let expected = "a number in (0, 1]";
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(bad_arg(what, expected, obj));
    }
    let e: f64 = obj.extract().map_err(|_| bad_arg(what, expected, obj))?;
    if !(e > 0.0 && e <= 1.0) {
        return Err(bad_arg(what, expected, obj));
    }
    Ok(e)
}

/// The model of `epsilon`, `partner_epsilon` (ε when None) and
/// `max_cards` (every decision when None).
fn model_arg(epsilon: Option<&Bound<'_, PyAny>>, partner: Option<&Bound<'_, PyAny>>, max_cards: Option<&Bound<'_, PyAny>>) -> PyResult<Model> {
    let e = none_or(epsilon, EPSILON, |o| epsilon_arg(o, "epsilon"))?;
    let p = none_or(partner, e, |o| epsilon_arg(o, "partner_epsilon"))?;
    let m = none_or(max_cards, u32::MAX as u64, |o| count_arg(o, "max_cards", 0, 108))?;
    Ok(Model::new(e, p)?.up_to(m as u32))
}

/// `n` deals of the cards `observation`'s seat cannot see: `batch` drawn
/// as `sample_hands` draws them (uniformly), resampled by the likelihood of
/// the deal's public actions, then each moved by `moves` Metropolis–Hastings
/// card swaps; an (n, 4, 54) uint8 array.
#[pyfunction]
#[pyo3(signature = (observation, n = None, *, seed = None, epsilon = None, partner_epsilon = None, max_cards = None, batch = None, moves = None, threads = None))]
#[pyo3(text_signature = "(observation, n=1, *, seed=0, epsilon=0.3, partner_epsilon=None, max_cards=None, batch=None, moves=0, threads=0)")]
#[allow(clippy::too_many_arguments)]
pub(crate) fn infer_hands<'py>(
    py: Python<'py>,
    observation: &Bound<'py, PyAny>,
    n: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    epsilon: Option<&Bound<'py, PyAny>>,
    partner_epsilon: Option<&Bound<'py, PyAny>>,
    max_cards: Option<&Bound<'py, PyAny>>,
    batch: Option<&Bound<'py, PyAny>>,
    moves: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray3<u8>>> {
    let o = &observation.cast::<PyObservation>().map_err(|_| bad_arg("observation", "an Observation", observation))?.get().0;
    let n = none_or(n, 1, |x| count_arg(x, "n", 0, crate::search::simulate::MAX_ITEMS))?;
    let seed = none_or(seed, 0, |x| seed_arg(x))?;
    let model = model_arg(epsilon, partner_epsilon, max_cards)?;
    let batch = none_or(batch, n.saturating_mul(4).max(1), |x| count_arg(x, "batch", 1, crate::search::simulate::MAX_ITEMS))?;
    let moves = none_or(moves, 0, |x| count_arg(x, "moves", 0, u32::MAX as u64))? as u32;
    let parts = crate::parallel::parts(none_or(threads, 0, |x| threads_arg(x))?);
    let inf = Inference::new(o, model)?;
    let r = interruptible(py, |stop| inf.resample(seed, n, batch, moves, parts, stop))?;
    let mut out = Vec::with_capacity(r.hands.len() * 4 * NUM_FACES);
    for h in &r.hands {
        for s in h {
            out.extend_from_slice(&s.counts());
        }
    }
    let arr = Array3::from_shape_vec((r.hands.len(), 4, NUM_FACES), out).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(arr.into_pyarray(py))
}

/// The log-likelihood (natural log, 0 at most) of `observation`'s deal's
/// public actions for each deal of `hands`, an (n, 4, 54) array of card
/// counts (as `sample_hands` returns); every deal must fit what the seat knows.
#[pyfunction]
#[pyo3(signature = (observation, hands, *, epsilon = None, partner_epsilon = None, max_cards = None, threads = None))]
#[pyo3(text_signature = "(observation, hands, *, epsilon=0.3, partner_epsilon=None, max_cards=None, threads=0)")]
pub(crate) fn hand_log_likelihood<'py>(
    py: Python<'py>,
    observation: &Bound<'py, PyAny>,
    hands: &Bound<'py, PyAny>,
    epsilon: Option<&Bound<'py, PyAny>>,
    partner_epsilon: Option<&Bound<'py, PyAny>>,
    max_cards: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, numpy::PyArray1<f64>>> {
    let o = &observation.cast::<PyObservation>().map_err(|_| bad_arg("observation", "an Observation", observation))?.get().0;
    let model = model_arg(epsilon, partner_epsilon, max_cards)?;
    let parts = crate::parallel::parts(none_or(threads, 0, |x| threads_arg(x))?);
    let deals = deals_arg(hands)?;
    let inf = Inference::new(o, model)?;
    let logs = interruptible(py, |stop| inf.log_likelihoods(&deals, parts, stop))?;
    Ok(Array1::from_vec(logs).into_pyarray(py))
}

/// Deals from an (n, 4, 54) uint8 array of card counts.
fn deals_arg(hands: &Bound<'_, PyAny>) -> PyResult<Vec<[CardSet; 4]>> {
    let expected = "an (n, 4, 54) uint8 array of card counts";
    let a = hands.cast::<PyArray3<u8>>().map_err(|_| bad_arg("hands", expected, hands))?;
    let ro = a.try_readonly().map_err(|_| InvalidArgumentError::new_err("hands is being written elsewhere"))?;
    if a.shape()[1..] != [4, NUM_FACES] {
        return Err(bad_arg("hands", expected, hands));
    }
    let v = ro.as_array();
    v.outer_iter()
        .map(|deal| {
            let mut d = [CardSet::EMPTY; 4];
            for (s, row) in deal.outer_iter().enumerate() {
                d[s] = CardSet::from_counts(&row.to_vec())?;
            }
            Ok(d)
        })
        .collect()
}
