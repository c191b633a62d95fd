//! `VectorEnv` for Python: N native tables stepped without the GIL, their
//! outputs written into numpy arrays reused between steps. Conversion only.

use super::search::interruptible;
use super::*;
use crate::parallel::Stop;
use crate::rl::encodings::Encoding;
use crate::rl::episode::{episode_seed, Reward, Setting, Unit};
use crate::rl::vecenv::{Out, VectorEnv};
use crate::search::policy::Policy;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::types::PyDict;

/// N tables of Guandan stepped together natively (see docs/environments.md).
#[pyclass(module = "guandan_fast._core", name = "VectorEnv")]
pub struct PyVectorEnv {
    env: Option<VectorEnv>,
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<u8>>,
    seat: Py<PyArray1<i8>>,
    phase: Py<PyArray1<i8>>,
    reward: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    reset: Py<PyArray1<bool>>,
    episode: Py<PyArray1<i64>>,
    legal_count: Py<PyArray1<i64>>,
    legal_offset: Py<PyArray1<i64>>,
}

/// The native seats: None (every seat the caller's) or four entries, None or a policy name.
pub(crate) fn opponents_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<[Option<Policy>; 4]> {
    let Some(o) = obj.filter(|o| !o.is_none()) else { return Ok([None; 4]) };
    let v = items_arg(o, 4, "opponents", "None or four entries, None for a learner seat or a policy name")?;
    let mut out = [None; 4];
    for (i, x) in v.iter().enumerate() {
        if !x.is_none() {
            out[i] = Some(policy_arg(x, &format!("opponents[{i}]"))?);
        }
    }
    Ok(out)
}

/// The entries of `obj` as i64 when it is a 1-D numpy array of `T` (None
/// when it is not; an entry beyond i64, which no action index is, reads as -1).
fn integers<T: numpy::Element + Copy + TryInto<i64>>(obj: &Bound<'_, PyAny>) -> Option<PyResult<Vec<i64>>> {
    let a = obj.cast::<PyArray1<T>>().ok()?;
    Some(match a.try_readonly() {
        Ok(r) => Ok(r.as_array().iter().map(|&x| x.try_into().unwrap_or(-1)).collect()),
        Err(_) => Err(InvalidArgumentError::new_err("actions is being written elsewhere")),
    })
}

/// The actions of a step: a 1-D integer numpy array (or a list of ints) of one entry per table.
fn actions_arg(obj: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<i64>> {
    let expected = format!("a 1-D integer numpy array of shape ({n},)");
    let v: Vec<i64> = if let Some(v) = integers::<i64>(obj)
        .or_else(|| integers::<i32>(obj))
        .or_else(|| integers::<i16>(obj))
        .or_else(|| integers::<i8>(obj))
        .or_else(|| integers::<u8>(obj))
        .or_else(|| integers::<u16>(obj))
        .or_else(|| integers::<u32>(obj))
        .or_else(|| integers::<u64>(obj))
    {
        v?
    } else if let Ok(a) = obj.cast::<numpy::PyUntypedArray>() {
        return Err(InvalidArgumentError::new_err(format!(
            "actions must be {expected}, not an array of dtype {} and shape {:?}",
            a.dtype(),
            a.shape()
        )));
    } else if let Ok(l) = obj.cast::<pyo3::types::PyList>() {
        l.iter().map(|x| Ok(int_arg(&x, "actions[i]", i64::MIN as i128, i64::MAX as i128, "an int")? as i64)).collect::<PyResult<_>>()?
    } else {
        return Err(bad_arg("actions", &expected, obj));
    };
    if v.len() != n {
        return Err(InvalidArgumentError::new_err(format!("actions must be {expected}, not of length {}", v.len())));
    }
    Ok(v)
}

impl PyVectorEnv {
    fn env(&self) -> PyResult<&VectorEnv> {
        self.env.as_ref().ok_or_else(|| InvalidStateError::new_err("the VectorEnv is closed"))
    }

    fn table_arg(&self, i: &Bound<'_, PyAny>) -> PyResult<usize> {
        let n = self.env()?.tables.len();
        Ok(int_arg(i, "i", 0, n as i128 - 1, &format!("a table index 0..{}", n - 1))? as usize)
    }

    /// Runs `f` without the GIL on the buffers, then writes the per-table fields.
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        f: impl FnOnce(&mut VectorEnv, Out<'_>, &Stop) -> crate::error::Result<()> + Send,
    ) -> PyResult<Bound<'py, PyDict>> {
        let env = self.env.as_mut().ok_or_else(|| InvalidStateError::new_err("the VectorEnv is closed"))?;
        {
            let obs = self.obs.bind(py);
            let mask = self.mask.bind(py);
            let mut o = obs.try_readwrite().map_err(|_| in_use_buffer())?;
            let mut m = mask.try_readwrite().map_err(|_| in_use_buffer())?;
            let (o, m) = (o.as_slice_mut().map_err(|_| in_use_buffer())?, m.as_slice_mut().map_err(|_| in_use_buffer())?);
            if env.searches() {
                // A searching seat can make a step long: Ctrl-C stops it, and
                // the tables and buffers are put back as they were before the call.
                let saved = env.tables.clone();
                if let Err(e) = interruptible(py, |stop| f(env, Out { obs: &mut *o, mask: &mut *m }, stop)) {
                    env.restore(saved, Out { obs: o, mask: m });
                    return Err(e);
                }
            } else {
                py.detach(|| f(env, Out { obs: o, mask: m }, &Stop::new()))?;
            }
        }
        let env = self.env.as_ref().expect("open");
        let seat = self.seat.bind(py);
        let phase = self.phase.bind(py);
        let reward = self.reward.bind(py);
        let term = self.terminated.bind(py);
        let reset = self.reset.bind(py);
        let episode = self.episode.bind(py);
        let count = self.legal_count.bind(py);
        let offset = self.legal_offset.bind(py);
        let (mut s, mut p, mut r, mut t, mut rs, mut e, mut c, mut f) = (
            seat.try_readwrite().map_err(|_| in_use_buffer())?,
            phase.try_readwrite().map_err(|_| in_use_buffer())?,
            reward.try_readwrite().map_err(|_| in_use_buffer())?,
            term.try_readwrite().map_err(|_| in_use_buffer())?,
            reset.try_readwrite().map_err(|_| in_use_buffer())?,
            episode.try_readwrite().map_err(|_| in_use_buffer())?,
            count.try_readwrite().map_err(|_| in_use_buffer())?,
            offset.try_readwrite().map_err(|_| in_use_buffer())?,
        );
        let (s, p, r, t, rs, e, c, f) = (
            s.as_slice_mut().map_err(|_| in_use_buffer())?,
            p.as_slice_mut().map_err(|_| in_use_buffer())?,
            r.as_slice_mut().map_err(|_| in_use_buffer())?,
            t.as_slice_mut().map_err(|_| in_use_buffer())?,
            rs.as_slice_mut().map_err(|_| in_use_buffer())?,
            e.as_slice_mut().map_err(|_| in_use_buffer())?,
            c.as_slice_mut().map_err(|_| in_use_buffer())?,
            f.as_slice_mut().map_err(|_| in_use_buffer())?,
        );
        let mut total = 0usize;
        for (i, tb) in env.tables.iter().enumerate() {
            f[i] = total as i64;
            c[i] = tb.sorted.len() as i64;
            total += tb.sorted.len();
            s[i] = tb.episode.game().current_player().map_or(-1, |x| x as i8);
            p[i] = env.phase_code(i);
            r[4 * i..4 * i + 4].copy_from_slice(&tb.reward);
            t[i] = tb.terminated;
            rs[i] = tb.reset;
            e[i] = tb.number as i64;
        }
        f[env.tables.len()] = total as i64;
        let mut legal: Vec<i64> = Vec::with_capacity(total);
        for tb in &env.tables {
            legal.extend(tb.sorted.iter().map(|&x| x as i64));
        }
        let legal = PyArray1::from_vec(py, legal);
        self.dict(py, legal)
    }

    fn dict<'py>(&self, py: Python<'py>, legal: Bound<'py, PyArray1<i64>>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("obs", self.obs.bind(py))?;
        d.set_item("mask", self.mask.bind(py))?;
        d.set_item("seat", self.seat.bind(py))?;
        d.set_item("phase", self.phase.bind(py))?;
        d.set_item("reward", self.reward.bind(py))?;
        d.set_item("terminated", self.terminated.bind(py))?;
        d.set_item("truncated", self.truncated.bind(py))?;
        d.set_item("reset", self.reset.bind(py))?;
        d.set_item("episode", self.episode.bind(py))?;
        d.set_item("legal", legal)?;
        d.set_item("legal_count", self.legal_count.bind(py))?;
        d.set_item("legal_offset", self.legal_offset.bind(py))?;
        Ok(d)
    }
}

fn in_use_buffer() -> PyErr {
    InvalidStateError::new_err("the VectorEnv's arrays are in use by another call")
}

#[pymethods]
impl PyVectorEnv {
    /// `num_envs` tables; `opponents` None (self-play: every seat returned) or
    /// four entries, None for a learner seat, a policy name for a native one.
    #[new]
    #[pyo3(signature = (num_envs, *, seed = None, threads = None, rules = None, unit = LEFT_OUT, opponents = None, observation = LEFT_OUT, reward = LEFT_OUT))]
    #[pyo3(text_signature = "(num_envs, *, seed=0, threads=0, rules=None, unit='deal', opponents=None, observation='danzero', reward='deal')")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
        unit: Arg<'_>,
        opponents: Option<&Bound<'_, PyAny>>,
        observation: Arg<'_>,
        reward: Arg<'_>,
    ) -> PyResult<Self> {
        let n = count_arg(num_envs, "num_envs", 1, 1 << 20)? as usize;
        let seed = none_or(seed, 0, |o| seed_arg(o))?;
        let threads = none_or(threads, 0, |o| threads_arg(o))?;
        let rules = rules_arg(rules)?;
        let unit = unit.or(Unit::Deal, |o| name_arg(o, "unit", "'deal' or 'game'", Unit::from_name))?;
        let reward = reward.or(Reward::Deal, |o| name_arg(o, "reward", "'deal' or 'game'", Reward::from_name))?;
        let encoding = observation.or(Encoding::DanZero, |o| name_arg(o, "observation", "'danzero' or 'guandan'", Encoding::from_name))?;
        let natives = opponents_arg(opponents)?;
        let env = VectorEnv::new(n, Setting { rules, unit, reward, natives }, encoding, seed, threads)?;
        let k = env.obs_size();
        Ok(PyVectorEnv {
            env: Some(env),
            obs: PyArray2::<f32>::zeros(py, [n, k], false).unbind(),
            mask: PyArray2::<u8>::zeros(py, [n, crate::rl::SIZE], false).unbind(),
            seat: PyArray1::<i8>::zeros(py, n, false).unbind(),
            phase: PyArray1::<i8>::zeros(py, n, false).unbind(),
            reward: PyArray2::<f32>::zeros(py, [n, 4], false).unbind(),
            terminated: PyArray1::<bool>::zeros(py, n, false).unbind(),
            truncated: PyArray1::<bool>::zeros(py, n, false).unbind(),
            reset: PyArray1::<bool>::zeros(py, n, false).unbind(),
            episode: PyArray1::<i64>::zeros(py, n, false).unbind(),
            legal_count: PyArray1::<i64>::zeros(py, n, false).unbind(),
            legal_offset: PyArray1::<i64>::zeros(py, n + 1, false).unbind(),
        })
    }

    /// Starts the next episode of every table (episode 0 at the first reset;
    /// with `seed`, episode 0 of that seed's streams) and returns the first decisions.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyDict>> {
        let seed = match seed.filter(|s| !s.is_none()) {
            Some(s) => Some(seed_arg(s)?),
            None => None,
        };
        self.env()?;
        if let (Some(s), Some(env)) = (seed, self.env.as_mut()) {
            env.reseed(s);
        }
        self.run(py, |env, out, stop| env.reset(out, stop))
    }

    /// Plays `actions[i]` (an action index) at table `i` for its seat to act,
    /// then on to the next decision of a learner seat; an illegal index raises and changes no table.
    fn step<'py>(&mut self, py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
        let env = self.env()?;
        let a = actions_arg(actions, env.tables.len())?;
        self.run(py, move |env, out, stop| env.step(&a, out, stop))
    }

    /// As `step` with a uniformly random legal action at every table, drawn natively.
    fn step_random<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.env()?;
        self.run(py, |env, out, stop| env.step_random(out, stop))
    }

    /// The legal action index of highest score at each table, `scores` a
    /// float32 or float64 array (num_envs, action_size) (a policy's logits):
    /// the same as the argmax over the scores with the illegal entries set
    /// to -inf (lowest index on ties, a NaN counted highest), reading only
    /// the legal entries; the first legal index where every legal score is -inf.
    fn best_legal<'py>(&self, py: Python<'py>, scores: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let env = self.env()?;
        let n = env.tables.len();
        let shape = [n, crate::rl::SIZE];
        let mut out = vec![0i64; n];
        let busy = || InvalidArgumentError::new_err("scores is being written elsewhere");
        let bad_shape = |s: &[usize]| InvalidArgumentError::new_err(format!("scores must have shape ({}, {}), not {s:?}", shape[0], shape[1]));
        if let Ok(a) = scores.cast::<PyArray2<f32>>() {
            let ro = a.try_readonly().map_err(|_| busy())?;
            let v = ro.as_array();
            if v.shape() != shape {
                return Err(bad_shape(v.shape()));
            }
            env.best_legal(|t, i| v[[t, i]] as f64, &mut out)?;
        } else if let Ok(a) = scores.cast::<PyArray2<f64>>() {
            let ro = a.try_readonly().map_err(|_| busy())?;
            let v = ro.as_array();
            if v.shape() != shape {
                return Err(bad_shape(v.shape()));
            }
            env.best_legal(|t, i| v[[t, i]], &mut out)?;
        } else {
            return Err(bad_arg("scores", &format!("a float32 or float64 numpy array of shape ({}, {})", shape[0], shape[1]), scores));
        }
        Ok(PyArray1::from_vec(py, out))
    }

    /// DanZero's rows (as `danzero_actions`) of every table's decision, one
    /// table after another: row `legal_offset[i] + k` is for index
    /// `legal[legal_offset[i] + k]` of the last reset or step. Written into `out` when given.
    #[pyo3(signature = (out = None, *, card_order = LEFT_OUT))]
    #[pyo3(text_signature = "(self, out=None, *, card_order='rank-major')")]
    fn danzero_actions<'py>(
        &mut self,
        py: Python<'py>,
        out: Option<&Bound<'py, PyAny>>,
        card_order: Arg<'py>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let order = card_order_arg(&card_order)?;
        let env = self.env.as_mut().ok_or_else(|| InvalidStateError::new_err("the VectorEnv is closed"))?;
        let a = rows_out(py, out, env.legal_total())?;
        {
            let mut w = a.try_readwrite().map_err(|_| write_err())?;
            let s = w.as_slice_mut().map_err(|_| write_err())?;
            py.detach(|| env.danzero_rows(order, s));
        }
        Ok(a)
    }

    /// Releases the tables; every later call raises InvalidStateError.
    fn close(&mut self) {
        self.env = None;
    }

    /// Whether `close` was called.
    #[getter]
    fn closed(&self) -> bool {
        self.env.is_none()
    }

    #[getter]
    fn num_envs(&self) -> PyResult<usize> {
        Ok(self.env()?.tables.len())
    }

    /// Values per observation row.
    #[getter]
    fn observation_size(&self) -> PyResult<usize> {
        Ok(self.env()?.obs_size())
    }

    /// Entries per mask row (`actions.SIZE`).
    #[getter]
    fn action_size(&self) -> PyResult<usize> {
        self.env()?;
        Ok(crate::rl::SIZE)
    }

    /// The rules every table plays.
    #[getter]
    fn rules(&self) -> PyResult<PyRules> {
        Ok(PyRules(self.env()?.setting.rules))
    }

    /// Table `i`'s current episode as a Game (a copy).
    fn episode(&self, i: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let i = self.table_arg(i)?;
        Ok(PyGame(self.env()?.tables[i].episode.game().clone()))
    }

    /// Table `i`'s last finished episode as a Game (a copy), or None.
    fn finished(&self, i: &Bound<'_, PyAny>) -> PyResult<Option<PyGame>> {
        let i = self.table_arg(i)?;
        Ok(self.env()?.tables[i].finished.clone().map(PyGame))
    }

    /// The seed of episode `episode` of table `i` (default: its current one):
    /// `Game.replay(game.actions, seed=..., rules=env.rules)` rebuilds it.
    #[pyo3(signature = (i, episode = None))]
    fn episode_seed(&self, i: &Bound<'_, PyAny>, episode: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
        let t = self.table_arg(i)?;
        let env = self.env()?;
        let e = none_or(episode, env.tables[t].number, |o| count_arg(o, "episode", 0, u64::MAX))?;
        Ok(episode_seed(env.seed, t as u64, e))
    }

    fn __repr__(&self) -> String {
        match &self.env {
            None => "VectorEnv(closed)".into(),
            Some(e) => format!("VectorEnv({} tables, observation size {})", e.tables.len(), e.obs_size()),
        }
    }
}
