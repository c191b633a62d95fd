//! `Episode` for Python: the one-table episode of rust/rl/episode.rs that
//! the framework adapters step, its observations and masks written straight
//! into numpy arrays. Conversion only.

use super::*;
use crate::parallel::Stop;
use crate::rl::encodings::Encoding;
use crate::rl::episode::{Draws, Episode, Reward, Setting, Unit};
use crate::rng::Rng;
use numpy::{IntoPyArray, PyArray1, PyArrayMethods};
use pyo3::intern;
use pyo3::types::PyDict;

/// A deal or a game played one decision at a time (see docs/environments.md).
#[pyclass(module = "guandan_fast._core", name = "Episode")]
#[derive(Clone)]
pub struct PyEpisode {
    setting: Setting,
    encoding: Encoding,
    episode: Option<Episode>,
    seed: Option<u64>,
}

fn not_started() -> PyErr {
    InvalidStateError::new_err("the episode has not started: call reset() first")
}

/// Where a call's native moves draw their seeds: the episode's own
/// generator, a numpy Generator's bit generator called directly (its C
/// `next_uint64`, under the bit generator's lock), or any other object with
/// an `integers` method (asked once a move).
enum Source<'py> {
    Own,
    Numpy { lock: Bound<'py, PyAny>, bitgen: BitGen },
    Python(Py<PyAny>),
}

/// numpy's `bitgen_t` (numpy/random/bitgen.h), the struct a bit
/// generator's `capsule` holds.
#[repr(C)]
struct BitGenT {
    state: *mut std::ffi::c_void,
    next_uint64: unsafe extern "C" fn(*mut std::ffi::c_void) -> u64,
    next_uint32: unsafe extern "C" fn(*mut std::ffi::c_void) -> u32,
    next_double: unsafe extern "C" fn(*mut std::ffi::c_void) -> f64,
    next_raw: unsafe extern "C" fn(*mut std::ffi::c_void) -> u64,
}

/// A numpy bit generator's `bitgen_t`, used only while its owner is alive
/// and its lock is held (`Source::Numpy`), from whichever thread the call
/// runs on, as numpy's own nogil draws do.
struct BitGen(std::ptr::NonNull<BitGenT>);

// SAFETY: the pointer is dereferenced only while the bit generator's lock
// is held by this call, which keeps every other user out.
unsafe impl Send for BitGen {}

impl BitGen {
    /// numpy's `integers(0, 2**63)`: Lemire's method on a power-of-two
    /// range never rejects and keeps the top 63 bits of `next_uint64`.
    fn seed(&mut self) -> u64 {
        // SAFETY: see `BitGen`.
        unsafe {
            let b = self.0.as_ref();
            (b.next_uint64)(b.state) >> 1
        }
    }
}

impl<'py> Source<'py> {
    fn of(draws: Option<&Bound<'py, PyAny>>) -> PyResult<Source<'py>> {
        let Some(g) = draws.filter(|d| !d.is_none()) else { return Ok(Source::Own) };
        let py = g.py();
        let bad = || bad_arg("draws", "a numpy.random.Generator or None", g);
        let bits = g.getattr(intern!(py, "bit_generator")).map_err(|_| bad())?;
        static GENERATOR: pyo3::sync::PyOnceLock<Py<pyo3::types::PyType>> = pyo3::sync::PyOnceLock::new();
        if !g.get_type().is(GENERATOR.import(py, "numpy.random", "Generator")?) {
            return Ok(Source::Python(g.clone().unbind()));
        }
        let capsule = bits.getattr(intern!(py, "capsule")).map_err(|_| bad())?;
        let capsule = capsule.cast::<pyo3::types::PyCapsule>().map_err(|_| bad())?;
        let ptr = capsule.pointer_checked(Some(c"BitGenerator")).map_err(|_| bad())?;
        let lock = bits.getattr(intern!(py, "lock")).map_err(|_| bad())?;
        Ok(Source::Numpy { lock, bitgen: BitGen(ptr.cast()) })
    }
}

type Rewards = (f32, f32, f32, f32);

impl PyEpisode {
    fn running(&self) -> PyResult<&Episode> {
        self.episode.as_ref().ok_or_else(not_started)
    }

    /// Runs `f` on the episode, the native moves drawing from `draws`; the rewards it gave.
    fn drive<F>(&mut self, py: Python<'_>, draws: Option<&Bound<'_, PyAny>>, f: F) -> PyResult<Rewards>
    where
        F: FnOnce(&mut Episode, &Setting, &mut [f32; 4], &mut Draws, &Stop) -> crate::error::Result<()> + Send,
    {
        let mut source = Source::of(draws)?;
        let s = self.setting;
        let searches = s.natives.iter().flatten().any(|p| p.searches());
        let e = self.episode.as_mut().ok_or_else(not_started)?;
        let mut r = [0.0f32; 4];
        match &mut source {
            Source::Own => released(py, searches, |stop| f(e, &s, &mut r, &mut Draws::Own, stop))?,
            Source::Numpy { lock, bitgen } => {
                lock.call_method0(intern!(py, "acquire"))?;
                let mut next = || Ok(bitgen.seed());
                let done = released(py, searches, |stop| f(e, &s, &mut r, &mut Draws::Seeded(&mut next), stop));
                lock.call_method0(intern!(py, "release"))?;
                done?
            }
            Source::Python(g) => {
                let mut raised: Option<PyErr> = None;
                let mut next = || {
                    Python::attach(|py| g.bind(py).call_method1("integers", (0u64, 1u64 << 63))?.extract::<u64>()).map_err(|e| {
                        raised = Some(e);
                        crate::error::Error::InvalidArgument("draws: a seed could not be drawn".into())
                    })
                };
                let done = released(py, searches, |stop| f(e, &s, &mut r, &mut Draws::Seeded(&mut next), stop));
                if let Some(e) = raised {
                    return Err(e);
                }
                done?
            }
        }
        Ok((r[0], r[1], r[2], r[3]))
    }
}

#[pymethods]
impl PyEpisode {
    /// An episode of `unit` ('deal' or 'game') rewarded per `reward` ('deal'
    /// or 'game'), observed as `observation` ('danzero' or 'guandan');
    /// `opponents` None or four entries, a policy name for a seat played
    /// natively. Not started: `reset(seed)` deals it.
    #[new]
    #[pyo3(signature = (*, rules = None, unit = LEFT_OUT, reward = LEFT_OUT, observation = LEFT_OUT, opponents = None))]
    #[pyo3(text_signature = "(*, rules=None, unit='deal', reward='deal', observation='danzero', opponents=None)")]
    fn new(
        rules: Option<&Bound<'_, PyAny>>,
        unit: Arg<'_>,
        reward: Arg<'_>,
        observation: Arg<'_>,
        opponents: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let rules = rules_arg(rules)?;
        let unit = unit.or(Unit::Deal, |o| name_arg(o, "unit", "'deal' or 'game'", Unit::from_name))?;
        let reward = reward.or(Reward::Deal, |o| name_arg(o, "reward", "'deal' or 'game'", Reward::from_name))?;
        if reward == Reward::Game && unit == Unit::Deal {
            return Err(InvalidArgumentError::new_err("reward='game' needs unit='game' (a deal alone has no game winner)"));
        }
        let encoding = observation.or(Encoding::DanZero, |o| name_arg(o, "observation", "'danzero' or 'guandan'", Encoding::from_name))?;
        let natives = opponents_arg(opponents)?;
        Ok(PyEpisode { setting: Setting { rules, unit, reward, natives }, encoding, episode: None, seed: None })
    }

    /// Starts the episode whose first deal is `Game(rules, seed=seed)`'s, the
    /// native seats playing until a caller's seat is to act (their seeds
    /// drawn from the numpy Generator `draws`, one a move, else the episode's own).
    #[pyo3(signature = (seed, draws = None))]
    fn reset(&mut self, py: Python<'_>, seed: &Bound<'_, PyAny>, draws: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let seed = seed_arg(seed)?;
        let fresh = Episode::new(&self.setting, seed)?;
        let old = self.episode.replace(fresh);
        if let Err(e) = self.drive(py, draws, |e, s, r, d, stop| e.advance(s, r, d, stop)) {
            self.episode = old;
            return Err(e);
        }
        self.seed = Some(seed);
        Ok(())
    }

    /// Starts the episode from a copy of `game` (its seed unknown: `seed` is None).
    #[pyo3(signature = (game, draws = None))]
    fn start(&mut self, py: Python<'_>, game: &Bound<'_, PyAny>, draws: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let g = game_ref(game, "game")?.0.clone();
        let old = self.episode.replace(Episode::of_game(g, Rng::new(0)));
        if let Err(e) = self.drive(py, draws, |e, s, r, d, stop| e.advance(s, r, d, stop)) {
            self.episode = old;
            return Err(e);
        }
        self.seed = None;
        Ok(())
    }

    /// Plays the action index `action` for the seat to act, then the native
    /// seats until a caller's seat acts or the episode ends; returns each
    /// seat's reward. Not an index: InvalidArgumentError; over or not
    /// started: InvalidStateError; not legal now: IllegalMoveError (nothing changed).
    #[pyo3(signature = (action, draws = None))]
    fn step(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>, draws: Option<&Bound<'_, PyAny>>) -> PyResult<Rewards> {
        let i = index_arg(action)?;
        self.running()?;
        self.drive(py, draws, move |e, s, r, d, stop| e.step(s, i, r, d, stop))
    }

    /// As `step` with an action (a Combo, PASS, Tribute, Return), checked as `Game.apply` checks it.
    #[pyo3(signature = (action, draws = None))]
    fn play(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>, draws: Option<&Bound<'_, PyAny>>) -> PyResult<Rewards> {
        let a = action_arg(action, self.running()?.game())?;
        self.drive(py, draws, move |e, s, r, d, stop| e.play(s, a, r, d, stop))
    }

    /// `seat`'s view in the episode's encoding (float32), written into `out` when given.
    #[pyo3(signature = (seat, out = None))]
    fn observe<'py>(&self, py: Python<'py>, seat: &Bound<'py, PyAny>, out: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = seat_arg(seat, "seat")?;
        let e = self.running()?;
        let k = self.encoding.size();
        if out.is_none_or(|o| o.is_none()) {
            let mut v = vec![0.0f32; k];
            e.write_observation(self.encoding, seat, &mut v);
            return Ok(v.into_pyarray(py));
        }
        let a = vector_out::<f32>(py, out, k, "float32")?;
        e.write_observation(self.encoding, seat, a.try_readwrite().map_err(|_| write_err())?.as_slice_mut().map_err(|_| write_err())?);
        Ok(a)
    }

    /// The legal-action mask (int8, `ACTION_SIZE` entries) of the seat to
    /// act; all zero once over, or when `seat` is given and is not to act.
    #[pyo3(signature = (seat = None))]
    fn action_mask<'py>(&mut self, py: Python<'py>, seat: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let seat = opt_seat_arg(seat, "seat")?;
        let s = self.setting;
        let e = self.episode.as_mut().ok_or_else(not_started)?;
        let mut v = vec![0i8; crate::rl::SIZE];
        let due = e.to_act(&s);
        if due.is_some() && seat.is_none_or(|x| Some(x) == due) {
            for &i in e.legal().indices() {
                v[i as usize] = 1;
            }
        }
        Ok(v.into_pyarray(py))
    }

    /// The legal indices of the seat to act, sorted (int64; empty once over).
    fn legal_indices<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let e = self.episode.as_mut().ok_or_else(not_started)?;
        Ok(indices_array(py, e.legal()))
    }

    /// Whether the action index `action` is legal now.
    fn is_legal(&mut self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let i = index_arg(action)?;
        let e = self.episode.as_mut().ok_or_else(not_started)?;
        Ok(e.legal().find(i).is_some())
    }

    /// `seat`'s `Observation` (what it may know) of the game being played.
    fn view(&self, seat: &Bound<'_, PyAny>) -> PyResult<PyObservation> {
        let seat = seat_arg(seat, "seat")?;
        Ok(PyObservation(self.running()?.game().observation(seat)))
    }

    /// The rank the deal being played is played at.
    #[getter]
    fn level(&self) -> PyResult<&'static str> {
        Ok(crate::cards::card::rank_text(self.running()?.game().play.level))
    }

    /// Whether `reset` (or `start`) was called.
    #[getter]
    fn started(&self) -> bool {
        self.episode.is_some()
    }

    /// Whether the episode has ended.
    #[getter]
    fn over(&self) -> PyResult<bool> {
        Ok(self.running()?.is_over(&self.setting))
    }

    /// The seat to act, None once the episode is over.
    #[getter]
    fn current_player(&self) -> PyResult<Option<u8>> {
        Ok(self.running()?.to_act(&self.setting))
    }

    /// The seed of the episode's first deal (None before `reset`, or after `start`).
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Each seat's rewards summed over the episode.
    #[getter]
    fn returns(&self) -> PyResult<Rewards> {
        let r = self.running()?.returns;
        Ok((r[0], r[1], r[2], r[3]))
    }

    /// The game being played (a copy).
    #[getter]
    fn game(&self) -> PyResult<PyGame> {
        Ok(PyGame(self.running()?.game().clone()))
    }

    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.setting.rules)
    }

    #[getter]
    fn unit(&self) -> &'static str {
        self.setting.unit.name()
    }

    #[getter]
    fn reward(&self) -> &'static str {
        self.setting.reward.name()
    }

    #[getter]
    fn observation(&self) -> &'static str {
        self.encoding.name()
    }

    /// The policy name of each native seat, None for a caller's seat.
    #[getter]
    fn opponents(&self) -> Vec<Option<String>> {
        self.setting.natives.iter().map(|p| p.map(|p| p.name())).collect()
    }

    /// Values per observation.
    #[getter]
    fn observation_size(&self) -> usize {
        self.encoding.size()
    }

    /// The largest |reward| a seat can get in one step.
    #[getter]
    fn reward_bound(&self) -> f32 {
        match self.setting.reward {
            Reward::Game => 1.0,
            Reward::Deal => self.setting.rules.upgrade.iter().copied().max().unwrap_or(0) as f32,
        }
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let f = py.import("guandan_fast._core")?.getattr("_rebuild_episode")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("rules", PyRules(self.setting.rules))?;
        kwargs.set_item("unit", self.unit())?;
        kwargs.set_item("reward", self.reward())?;
        kwargs.set_item("observation", self.observation())?;
        kwargs.set_item("opponents", self.opponents())?;
        let state = self.episode.as_ref().map(|e| (PyGame(e.game().clone()), e.rng.state(), e.returns));
        Ok((f, (kwargs, self.seed, state).into_pyobject(py)?.into_any()))
    }

    fn __repr__(&self) -> String {
        format!("Episode(unit={:?}, reward={:?}, observation={:?}, seed={:?})", self.unit(), self.reward(), self.observation(), self.seed)
    }
}

/// Unpickles an Episode (used by `Episode.__reduce__`).
#[pyfunction]
#[pyo3(signature = (kwargs, seed, state))]
pub(crate) fn _rebuild_episode(
    kwargs: &Bound<'_, PyDict>,
    seed: Option<u64>,
    state: Option<(PyRef<'_, PyGame>, [u64; 4], [f32; 4])>,
) -> PyResult<PyEpisode> {
    let get = |k: &str| kwargs.get_item(k).ok().flatten();
    let (rules, unit, reward, obs, opp) = (get("rules"), get("unit"), get("reward"), get("observation"), get("opponents"));
    let mut e = PyEpisode::new(rules.as_ref(), Arg(unit), Arg(reward), Arg(obs), opp.as_ref())?;
    if let Some((game, rng, returns)) = state {
        let rng = Rng::from_state(rng).ok_or_else(|| InvalidStateError::new_err("an Episode's generator state is all zero"))?;
        let mut ep = Episode::of_game(game.0.clone(), rng);
        ep.returns = returns;
        e.episode = Some(ep);
    }
    e.seed = seed;
    Ok(e)
}
