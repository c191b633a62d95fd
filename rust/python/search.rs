//! Simulation, Monte Carlo evaluation, hidden-hand sampling and built-in policies.
//!
//! Long calls run on the shared pool without the GIL while this thread
//! checks for signals every ~10 ms, so Ctrl-C raises `KeyboardInterrupt`.

use super::*;
use crate::game::observe::Observation;
use crate::parallel::{self, Stop};
use crate::search::decide;
use crate::search::policy::Policy;
use crate::search::run::Run;
use crate::search::simulate as sim;
use numpy::ndarray::{Array2, Array3};
use numpy::IntoPyArray;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::types::{PyDict, PyList};

// ---------------------------------------------------------------- arguments

/// A seed, 0 when left out or None.
fn seed_or(obj: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    none_or(obj, 0, |o| seed_arg(o))
}

/// A `threads` argument, 0 (one part per core) when left out or None.
fn threads_or(obj: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    none_or(obj, 0, |o| threads_arg(o))
}

/// The policy of each seat, random when left out or None.
pub(crate) fn policies_or(obj: Option<&Bound<'_, PyAny>>) -> PyResult<[Policy; 4]> {
    none_or(obj, [Policy::Random; 4], seat_policies_arg)
}

/// Runs `work` on the shared pool without the GIL, checking for signals
/// meanwhile: a signal handler's exception (Ctrl-C: `KeyboardInterrupt`)
/// stops the work and is raised.
pub(crate) fn interruptible<T: Send>(py: Python<'_>, work: impl FnOnce(&Stop) -> crate::error::Result<T> + Send) -> PyResult<T> {
    let mut raised: Option<PyErr> = None;
    let out = py.detach(|| {
        parallel::supervise(work, &mut || match Python::attach(|py| py.check_signals()) {
            Ok(()) => true,
            Err(e) => {
                raised = Some(e);
                false
            }
        })
    })?;
    match out {
        Some(r) => Ok(r?),
        None => Err(raised.unwrap_or_else(|| PyKeyboardInterrupt::new_err(()))),
    }
}

/// Runs `work` without the GIL: when it may take long, on the shared pool
/// under `interruptible`'s watch; else on this thread at once, sparing the
/// hand-off to a pool thread and back (20-70 us, more than such work takes).
pub(crate) fn released<T: Send>(py: Python<'_>, long: bool, work: impl FnOnce(&Stop) -> crate::error::Result<T> + Send) -> PyResult<T> {
    if long {
        return interruptible(py, work);
    }
    Ok(py.detach(|| work(&Stop::new()))?)
}

/// Most deals `sample_hands` makes on the calling thread (about 0.7 ms at
/// most); more go to the pool, where Ctrl-C is watched.
const QUICK_SAMPLES: u64 = 1024;

/// An empty column with room for `n * width` values, refused (not aborted)
/// when the memory cannot be had; filled after the work.
fn column<T>(n: u64, width: u64) -> PyResult<Vec<T>> {
    let len = n.saturating_mul(width);
    let mut v = Vec::new();
    usize::try_from(len).ok().and_then(|k| v.try_reserve_exact(k).ok()).ok_or_else(|| {
        InvalidArgumentError::new_err(format!(
            "n = {n} needs {} MiB for its results: more memory than can be had",
            (len as u128 * std::mem::size_of::<T>() as u128) >> 20
        ))
    })?;
    Ok(v)
}

// ---------------------------------------------------------------- simulate

/// Plays `n` deals (or games) with built-in policies in Rust, split into
/// `threads` parts (0: one per core) on a pool of one thread per core,
/// without the GIL; returns numpy arrays. Item `i` is item `start + i` of
/// the stream seeded by `seed`, so chunks of a long run give the same
/// result as the whole run.
#[pyfunction]
#[pyo3(signature = (n, *, seed = None, start = None, threads = None, rules = None, unit = LEFT_OUT, policy = None, mode = LEFT_OUT), text_signature = "(n, *, seed=0, start=0, threads=0, rules=None, unit='deal', policy=None, mode='pattern')")]
#[allow(clippy::too_many_arguments)]
pub(crate) fn simulate<'py>(
    py: Python<'py>,
    n: &Bound<'py, PyAny>,
    seed: Option<&Bound<'py, PyAny>>,
    start: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
    unit: Arg<'py>,
    policy: Option<&Bound<'py, PyAny>>,
    mode: Arg<'py>,
) -> PyResult<Bound<'py, PyDict>> {
    let n = count_arg(n, "n", 0, sim::MAX_ITEMS)?;
    let seed = seed_or(seed)?;
    let start = none_or(start, 0, |o| count_arg(o, "start", 0, u64::MAX))?;
    let parts = parallel::parts(threads_or(threads)?);
    let rules = rules_arg(rules)?;
    let games = unit.or(false, |o| unit_arg(o))?;
    let mode = mode_or(&mode, Mode::Pattern)?;
    let policies = policies_or(policy)?;
    let d = PyDict::new(py);
    let shape = |n: u64, w: usize| (n as usize, w);
    if !games {
        let (mut finish, mut winner, mut gain, mut actions): (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u32>) =
            (column(n, 4)?, column(n, 1)?, column(n, 1)?, column(n, 1)?);
        let res = interruptible(py, |stop| sim::simulate_deals_from(&rules, &policies, n, seed, start, &Run::new(mode, parts, stop)))?;
        for r in &res {
            finish.extend_from_slice(&r.finish);
            winner.push(r.winner);
            gain.push(r.gain);
            actions.push(r.actions);
        }
        drop(res);
        let finish = Array2::from_shape_vec(shape(n, 4), finish).map_err(|e| PyValueError::new_err(e.to_string()))?;
        d.set_item("finish", finish.into_pyarray(py))?;
        d.set_item("winner", winner.into_pyarray(py))?;
        d.set_item("gain", gain.into_pyarray(py))?;
        d.set_item("actions", actions.into_pyarray(py))?;
    } else {
        let (mut winner, mut deals, mut actions, mut levels): (Vec<u8>, Vec<u32>, Vec<u32>, Vec<u8>) =
            (column(n, 1)?, column(n, 1)?, column(n, 1)?, column(n, 2)?);
        let res = interruptible(py, |stop| sim::simulate_games_from(&rules, &policies, n, seed, start, &Run::new(mode, parts, stop)))?;
        for r in &res {
            winner.push(r.winner);
            deals.push(r.deals);
            actions.push(r.actions);
            levels.extend_from_slice(&r.levels);
        }
        drop(res);
        let levels = Array2::from_shape_vec(shape(n, 2), levels).map_err(|e| PyValueError::new_err(e.to_string()))?;
        d.set_item("winner", winner.into_pyarray(py))?;
        d.set_item("deals", deals.into_pyarray(py))?;
        d.set_item("actions", actions.into_pyarray(py))?;
        d.set_item("levels", levels.into_pyarray(py))?;
    }
    Ok(d)
}

/// The seed of item `index` of `simulate`'s stream seeded by `seed`: the
/// item's deal (or game) is the first of ``Game(rules, seed=...)``.
#[pyfunction]
pub(crate) fn _item_seed(seed: &Bound<'_, PyAny>, index: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(crate::rng::derive_seed(seed_arg(seed)?, count_arg(index, "index", 0, u64::MAX)?))
}

// ---------------------------------------------------------------- evaluate

/// Monte Carlo estimates for every legal action of the seat to move: hidden
/// hands sampled from that seat's knowledge, playouts to the end of the deal.
#[pyfunction]
#[pyo3(signature = (state, *, playouts = None, seed = None, threads = None, policy = None, mode = LEFT_OUT), text_signature = "(state, *, playouts=200, seed=0, threads=0, policy=None, mode='pattern')")]
#[allow(clippy::too_many_arguments)]
pub(crate) fn evaluate<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    playouts: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
    threads: Option<&Bound<'py, PyAny>>,
    policy: Option<&Bound<'py, PyAny>>,
    mode: Arg<'py>,
) -> PyResult<Bound<'py, PyDict>> {
    let playouts = none_or(playouts, 200, |o| count_arg(o, "playouts", 1, u64::MAX))?;
    let seed = seed_or(seed)?;
    let parts = parallel::parts(threads_or(threads)?);
    let game;
    let o: std::borrow::Cow<'_, Observation> = if let Ok(g) = state.cast::<PyGame>() {
        game = game_of(g)?;
        std::borrow::Cow::Owned(game.0.observation(game.0.play.current))
    } else if let Ok(o) = state.cast::<PyObservation>() {
        std::borrow::Cow::Borrowed(&o.get().0)
    } else {
        return Err(bad_arg("state", "a Game or an Observation", state));
    };
    let mode = mode_or(&mode, Mode::Pattern)?;
    let policies = policies_or(policy)?;
    let e = interruptible(py, |stop| decide::evaluate(&o, &policies, playouts, seed, &Run::new(mode, parts, stop)))?;
    let level = o.level;
    let items: Vec<Bound<'py, PyAny>> = e.actions.iter().map(|&a| action_to_py(py, a, level)).collect::<PyResult<_>>()?;
    let d = PyDict::new(py);
    d.set_item("best", items[e.best].clone())?;
    d.set_item("actions", PyList::new(py, items)?)?;
    d.set_item("mean", e.stats.iter().map(|s| s.mean).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("win_prob", e.stats.iter().map(|s| s.win_prob).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("stderr", e.stats.iter().map(|s| s.stderr).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("count", e.stats.iter().map(|s| s.count).collect::<Vec<_>>().into_pyarray(py))?;
    Ok(d)
}

/// Deals the cards `observation`'s seat cannot see to the other seats, `n`
/// times, consistently with what it knows; returns an (n, 4, 54) uint8 array.
#[pyfunction]
#[pyo3(signature = (observation, n = None, *, seed = None), text_signature = "(observation, n=1, *, seed=0)")]
pub(crate) fn sample_hands<'py>(
    py: Python<'py>,
    observation: &Bound<'py, PyAny>,
    n: Option<&Bound<'py, PyAny>>,
    seed: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
    let observation = observation.cast::<PyObservation>().map_err(|_| bad_arg("observation", "an Observation", observation))?;
    let n = none_or(n, 1, |o| count_arg(o, "n", 0, sim::MAX_ITEMS))?;
    let seed = seed_or(seed)?;
    let c = crate::search::sample::Constraints::of_observation(&observation.get().0);
    let sampler = crate::search::sample::Sampler::new(&c)?;
    let mut out = column::<u8>(n, 4 * 54)?;
    out.resize((n * 4 * 54) as usize, 0);
    released(py, n > QUICK_SAMPLES, |stop| {
        sampler.sample_counts(seed, 0, &mut out, stop);
        Ok(())
    })?;
    let arr = Array3::from_shape_vec((n as usize, 4, 54), out).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(arr.into_pyarray(py))
}

/// The action a built-in policy (`random`, `greedy`, `mc:N`, ...) takes in
/// `game` (or in the Observation of the seat to move) for the seat to move,
/// as a native playout would with a generator seeded by `seed`; a Monte Carlo decision is split into `threads` parts.
#[pyfunction]
#[pyo3(signature = (game, policy = LEFT_OUT, *, seed = None, mode = LEFT_OUT, threads = None), text_signature = "(game, policy='greedy', *, seed=0, mode='pattern', threads=0)")]
pub(crate) fn policy_action<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    policy: Arg<'py>,
    seed: Option<&Bound<'py, PyAny>>,
    mode: Arg<'py>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let seed = seed_or(seed)?;
    let parts = parallel::parts(threads_or(threads)?);
    let p = policy.or(Policy::Greedy, |o| policy_arg(o, "policy"))?;
    let mode = mode_or(&mode, Mode::Pattern)?;
    if let Ok(o) = game.cast::<PyObservation>() {
        let o = &o.get().0;
        let action = released(py, p.searches(), |stop| p.observation_action(o, &mut crate::rng::Rng::new(seed), &Run::new(mode, parts, stop)))?;
        return action_to_py(py, action, o.level);
    }
    if !game.is_instance_of::<PyGame>() {
        return Err(bad_arg("game", "a Game or an Observation", game));
    }
    let game = game_ref(game, "game")?;
    let g = &game.0;
    let action = released(py, p.searches(), |stop| p.game_action(g, &mut crate::rng::Rng::new(seed), &Run::new(mode, parts, stop)))?;
    action_to_py(py, action, g.play.level)
}

/// The chance that `team` (default 0) wins the game as a deal begins at
/// this level state, after the deal that finished in `after` (its tribute;
/// None: none to count), by the game model `+win` searches score deals with.
#[pyfunction]
#[pyo3(signature = (*, levels = None, a_fails = None, declarer = None, after = None, team = None, rules = None))]
pub(crate) fn win_chance(
    py: Python<'_>,
    levels: Option<&Bound<'_, PyAny>>,
    a_fails: Option<&Bound<'_, PyAny>>,
    declarer: Option<&Bound<'_, PyAny>>,
    after: Option<&Bound<'_, PyAny>>,
    team: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<f64> {
    let lv = level_state_arg(levels, a_fails, declarer)?;
    let team = team_arg(team, "team")?.unwrap_or(0);
    let rules = rules_arg(rules)?;
    let after = after.filter(|o| !o.is_none()).map(|o| seats_arg(o, "after")).transpose()?;
    let model = py.detach(|| crate::search::value::WinModel::of(&rules));
    Ok(model.chance_from(&lv, after, team)?)
}
