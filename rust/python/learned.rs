//! The learned search (`model_search`) for Python: a Python callable as the
//! search's `Evaluator`, called once per wave with the GIL taken back for
//! that call only. The checks of a model's answer (`_model_scores`) and of
//! the search's options (`_search_options`) are the ones the Python players
//! of guandan_fast.models use too; conversion only.

use super::*;
use crate::error::Error;
use crate::game::observe::Observation;
use crate::parallel;
use crate::rl::fields::DANZERO_ROW_SIZE;
use crate::rl::puct::{self, Evaluator, Puct};
use crate::search::policy::Rollout;
use crate::search::run::Run;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyList};
use std::sync::Mutex;

/// A model's fault: the error naming the model and, when the model raised,
/// its exception.
struct Fault {
    error: Error,
    raised: Option<PyErr>,
}

/// The error `e` about a model as Python sees it: a `KeyboardInterrupt` or
/// `SystemExit` the model `raised` as it is, else `e` with the model's
/// exception as its cause.
fn chain(py: Python<'_>, e: PyErr, raised: Option<PyErr>) -> PyErr {
    match raised {
        Some(raised) if !raised.is_instance_of::<pyo3::exceptions::PyException>(py) => raised,
        Some(raised) => {
            e.set_cause(py, Some(raised));
            e
        }
        None => e,
    }
}

/// The first 200 characters of an exception's message.
fn short(text: &str) -> String {
    text.chars().take(200).collect()
}

/// `model(rows)`, `n` rows, as one float64 score per row (a `(n,)` or
/// `(n, 1)` answer), each finite and within float32's range (the search's
/// values); else the fault naming the model as `name`.
fn checked_scores<'py>(model: &Bound<'py, PyAny>, rows: &Bound<'py, PyAny>, n: usize, name: &str) -> Result<Bound<'py, PyArray1<f64>>, Fault> {
    let py = model.py();
    let bad = |m: String| Fault { error: Error::InvalidState(format!("model {name} {m}")), raised: None };
    let answer = model.call1((rows,)).map_err(|e| {
        let kind = e.get_type(py).name().map(|t| t.to_string()).unwrap_or_else(|_| "an exception".into());
        let msg = short(&e.value(py).to_string());
        Fault { error: Error::InvalidState(format!("model {name} raised {kind} scoring {n} rows: {msg}")), raised: Some(e) }
    })?;
    static ASARRAY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let numbers = ASARRAY
        .import(py, "numpy", "asarray")
        .and_then(|asarray| asarray.call1((answer, "float64")))
        .map_err(|e| bad(format!("did not return numbers for {n} rows: {}", short(&e.value(py).to_string()))))?;
    let a = numbers.cast::<PyArrayDyn<f64>>().map_err(|_| bad(format!("did not return numbers for {n} rows")))?;
    let scores = match a.shape() {
        [k] if *k == n => a.cast::<PyArray1<f64>>().map_err(|_| bad(format!("did not return numbers for {n} rows")))?.clone(),
        [k, 1] if *k == n => a.reshape([n]).map_err(|e| bad(format!("returned scores that cannot be read: {}", short(&e.to_string()))))?,
        shape => {
            let shown = match shape {
                [k] => format!("({k},)"),
                s => format!("({})", s.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(", ")),
            };
            return Err(bad(format!("returned shape {shown} for {n} rows; expected one score per row, ({n},) or ({n}, 1)")));
        }
    };
    let view = scores.try_readonly().map_err(|_| bad("returned an array it is still writing".into()))?;
    if !view.as_array().iter().all(|x| x.abs() <= f32::MAX as f64) {
        return Err(bad("returned a NaN or infinite score (or one beyond float32's range)".into()));
    }
    drop(view);
    Ok(scores)
}

/// `model(rows)` as one score per row: a float64 array of shape `(n,)` for
/// `rows` of shape `(n, 567)`. A model's fault is an `InvalidStateError`
/// naming it as `name`: an answer that is not numbers, not one per row
/// (`(n,)` or `(n, 1)`), a NaN, an infinite score or one beyond float32's
/// range, or an exception it raised (chained as the error's cause;
/// `KeyboardInterrupt` and `SystemExit` are raised as they are).
#[pyfunction]
pub(crate) fn _model_scores<'py>(model: &Bound<'py, PyAny>, rows: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let expected = format!("a float32 numpy array of shape (n, {DANZERO_ROW_SIZE})");
    let n = match rows.cast::<PyArray2<f32>>().map(|a| a.shape().to_vec()) {
        Ok(shape) if shape[1] == DANZERO_ROW_SIZE => shape[0],
        _ => return Err(bad_arg("rows", &expected, rows)),
    };
    checked_scores(model, rows, n, name).map_err(|f| chain(rows.py(), f.error.into(), f.raised))
}

/// A Python callable scoring `(rows, 567)` float32 arrays as an `Evaluator`.
struct PyModel {
    model: Py<PyAny>,
    name: String,
    /// The exception the callable raised, for the caller to chain or re-raise.
    raised: Mutex<Option<PyErr>>,
}

impl PyModel {
    /// `model(rows)` appended to `out`, one score per row, else the error naming what was wrong.
    fn scores(&self, py: Python<'_>, rows: &[f32], out: &mut Vec<f32>) -> crate::error::Result<()> {
        let n = rows.len() / DANZERO_ROW_SIZE;
        let input = Array2::from_shape_vec((n, DANZERO_ROW_SIZE), rows.to_vec())
            .map_err(|e| Error::InvalidState(format!("model {} {e}", self.name)))?
            .into_pyarray(py);
        match checked_scores(self.model.bind(py), input.as_any(), n, &self.name) {
            Ok(scores) => {
                let view = scores.readonly();
                out.extend(view.as_array().iter().map(|&x| x as f32));
                Ok(())
            }
            Err(Fault { error, raised }) => {
                if let (Some(e), Ok(mut r)) = (raised, self.raised.lock()) {
                    *r = Some(e);
                }
                Err(error)
            }
        }
    }
}

impl Evaluator for PyModel {
    fn evaluate(&self, rows: &[f32], out: &mut Vec<f32>) -> crate::error::Result<()> {
        Python::attach(|py| self.scores(py, rows, out))
    }
}

/// A real-number option (an int or a float, not a bool); its range is the search's to check.
fn real_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(bad_arg(what, "a number", obj));
    }
    obj.extract::<f64>().map_err(|_| bad_arg(what, "a number", obj))
}

/// The options of `model_search`.
#[allow(clippy::too_many_arguments)]
fn options(
    playouts: Option<&Bound<'_, PyAny>>,
    wave: Option<&Bound<'_, PyAny>>,
    prior: &Arg<'_>,
    value: &Arg<'_>,
    rollout: &Arg<'_>,
    c_puct: Option<&Bound<'_, PyAny>>,
    temperature: Option<&Bound<'_, PyAny>>,
    card_order: &Arg<'_>,
    think_ms: Option<&Bound<'_, PyAny>>,
) -> PyResult<Puct> {
    let d = Puct::default();
    let opts = Puct {
        playouts: none_or(playouts, d.playouts as u64, |o| count_arg(o, "playouts", 1, puct::MAX_PLAYOUTS as u64))? as u32,
        wave: none_or(wave, d.wave as u64, |o| count_arg(o, "wave", 1, puct::MAX_WAVE as u64))? as u32,
        prior: flag_or(prior, "prior", d.prior)?,
        value: flag_or(value, "value", d.value)?,
        rollout: rollout.or(d.rollout, |o| name_arg(o, "rollout", "'rule', 'greedy', 'random' or 'mix'", Rollout::from_name))?,
        c_puct: none_or(c_puct, d.c_puct, |o| real_arg(o, "c_puct"))?,
        temperature: none_or(temperature, d.temperature, |o| real_arg(o, "temperature"))?,
        card_order: card_order_arg(card_order)?,
        think_ms: none_or(think_ms, 0, |o| count_arg(o, "think_ms", 0, u32::MAX as u64))? as u32,
    };
    opts.check()?;
    Ok(opts)
}

/// The options of a `ModelSearch` checked as `model_search` checks them
/// (`model_threads`, the threads of an ONNX model's session, 1..256): a dict
/// of `playouts`, `wave`, `prior`, `value`, `rollout`, `c_puct`,
/// `temperature`, `card_order`, `seed` (as given), `threads`, `think_ms` and
/// `model_threads`, each left out or None its default.
#[pyfunction]
#[pyo3(signature = (*, playouts = None, wave = None, prior = LEFT_OUT, value = LEFT_OUT, rollout = LEFT_OUT, c_puct = None, temperature = None, card_order = LEFT_OUT, seed = None, threads = None, think_ms = None, model_threads = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _search_options<'py>(
    py: Python<'py>,
    playouts: Option<&Bound<'py, PyAny>>,
    wave: Option<&Bound<'py, PyAny>>,
    prior: Arg<'py>,
    value: Arg<'py>,
    rollout: Arg<'py>,
    c_puct: Option<&Bound<'py, PyAny>>,
    temperature: Option<&Bound<'py, PyAny>>,
    card_order: Arg<'py>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    think_ms: Option<&Bound<'py, PyAny>>,
    model_threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = options(playouts, wave, &prior, &value, &rollout, c_puct, temperature, &card_order, think_ms)?;
    let seed = none_or(seed, 0, |o| seed_arg(o).map(|_| o.int_value().unwrap_or_default()))?;
    let threads = none_or(threads, 0, |o| threads_arg(o))?;
    let model_threads = none_or(model_threads, 1, |o| count_arg(o, "model_threads", 1, MAX_THREADS as u64))?;
    let d = PyDict::new(py);
    d.set_item("playouts", opts.playouts)?;
    d.set_item("wave", opts.wave)?;
    d.set_item("prior", opts.prior)?;
    d.set_item("value", opts.value)?;
    d.set_item("rollout", opts.rollout.name())?;
    d.set_item("c_puct", opts.c_puct)?;
    d.set_item("temperature", opts.temperature)?;
    d.set_item("card_order", opts.card_order.name())?;
    d.set_item("seed", seed)?;
    d.set_item("threads", threads)?;
    d.set_item("think_ms", opts.think_ms)?;
    d.set_item("model_threads", model_threads)?;
    Ok(d)
}

/// The learned search's decision for the seat to act in `state` (a Game,
/// or the Observation of that seat; never changed): information-set MCTS
/// whose priors (softmax of the scores / `temperature`) and leaf values
/// (the best score) come from `model`, a callable taking a `(rows, 567)`
/// float32 array of DanZero rows and returning one score per row (the
/// deal points the mover's team expects), called once per wave of `wave`
/// leaves; with `value=False` the leaves are valued by rollouts of the
/// policy `rollout`, with `prior=False` the priors are uniform. Returns a
/// dict: the action, whether it searched (not for tribute, return or an
/// obvious play), the root's actions with their visits, mean values (deal
/// points) and priors, and the playouts, waves, model calls and rows.
#[pyfunction]
#[pyo3(signature = (state, model, *, playouts = None, wave = None, prior = LEFT_OUT, value = LEFT_OUT, rollout = LEFT_OUT, c_puct = None, temperature = None, card_order = LEFT_OUT, seed = None, threads = None, think_ms = None, name = None))]
#[pyo3(
    text_signature = "(state, model, *, playouts=200, wave=16, prior=True, value=True, rollout='rule', c_puct=1.5, temperature=1.0, card_order='rank-major', seed=0, threads=0, think_ms=0, name=None)"
)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn model_search<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    model: &Bound<'py, PyAny>,
    playouts: Option<&Bound<'py, PyAny>>,
    wave: Option<&Bound<'py, PyAny>>,
    prior: Arg<'py>,
    value: Arg<'py>,
    rollout: Arg<'py>,
    c_puct: Option<&Bound<'py, PyAny>>,
    temperature: Option<&Bound<'py, PyAny>>,
    card_order: Arg<'py>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    think_ms: Option<&Bound<'py, PyAny>>,
    name: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = options(playouts, wave, &prior, &value, &rollout, c_puct, temperature, &card_order, think_ms)?;
    let seed = none_or(seed, 0, |o| seed_arg(o))?;
    let parts = parallel::parts(none_or(threads, 0, |o| threads_arg(o))?);
    if !model.is_callable() {
        return Err(bad_arg("model", "a callable (rows -> scores)", model));
    }
    let name = match name.filter(|n| !n.is_none()) {
        Some(n) => n.cast::<PyString>().map_err(|_| bad_arg("name", "a str", n))?.to_cow()?.into_owned(),
        None => model.get_type().name()?.to_string(),
    };
    let o: Observation = if let Ok(g) = state.cast::<PyGame>() {
        let g = game_of(g)?;
        g.0.observation(
            g.0.current_player().ok_or_else(|| IllegalMoveError::new_err(format!("no action is expected in the {} phase", g.0.phase.name())))?,
        )
    } else if let Ok(o) = state.cast::<PyObservation>() {
        o.get().0.clone()
    } else {
        return Err(bad_arg("state", "a Game or an Observation", state));
    };
    let ev = PyModel { model: model.clone().unbind(), name, raised: Mutex::new(None) };
    let done = interruptible(py, |stop| puct::act(&o, &ev, &opts, seed, &Run::new(Mode::Pattern, parts, stop)));
    let (action, report) = match done {
        Ok(x) => x,
        Err(e) => return Err(chain(py, e, ev.raised.lock().ok().and_then(|mut r| r.take()))),
    };
    let level = o.level;
    let report = report.unwrap_or_default();
    let d = PyDict::new(py);
    d.set_item("action", action_to_py(py, action, level)?)?;
    d.set_item("searched", !report.actions.is_empty())?;
    let items: Vec<Bound<'py, PyAny>> = report
        .actions
        .iter()
        .map(|a| action_to_py(py, a.map_or(crate::game::Action::Pass, crate::game::Action::Play), level))
        .collect::<PyResult<_>>()?;
    d.set_item("actions", PyList::new(py, items)?)?;
    d.set_item("visits", report.visits.into_pyarray(py))?;
    d.set_item("q", report.q.into_pyarray(py))?;
    d.set_item("prior", report.prior.into_pyarray(py))?;
    d.set_item("playouts", report.playouts)?;
    d.set_item("waves", report.waves)?;
    d.set_item("calls", report.calls)?;
    d.set_item("rows", report.rows)?;
    Ok(d)
}
