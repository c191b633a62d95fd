//! Simulation, Monte Carlo evaluation, hidden-hand sampling and built-in policies.

use super::*;
use crate::game::observe::Observation;
use crate::game::{Action, Phase};
use crate::search::policy::Policy;
use crate::search::simulate as sim;
use numpy::ndarray::Array2;
use numpy::IntoPyArray;
use pyo3::types::{PyDict, PyList};

// ---------------------------------------------------------------- simulate

/// Plays `n` deals (or games) with built-in policies in Rust, on `threads`
/// threads (0: all cores), without the GIL; returns numpy arrays. Item `i`
/// is item `start + i` of the stream seeded by `seed`, so chunks of a long
/// run give the same result as the whole run.
#[pyfunction]
#[pyo3(signature = (n, *, seed = 0, start = 0, threads = 0, rules = None, unit = "deal", policy = None, mode = "pattern"))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn simulate<'py>(
    py: Python<'py>,
    n: usize,
    seed: i128,
    start: u64,
    threads: i64,
    rules: Option<&Bound<'py, PyAny>>,
    unit: &str,
    policy: Option<&Bound<'py, PyAny>>,
    mode: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_arg(threads)?;
    let seed = seed_arg(seed)?;
    let rules = rules_arg(rules)?;
    let mode = mode_arg(mode)?;
    let policies = match policy {
        None => [Policy::Random; 4],
        Some(p) => policies_arg(p)?,
    };
    let d = PyDict::new(py);
    match unit {
        "deal" => {
            let res = py.detach(|| sim::simulate_deals_from(n, seed, start, threads, &rules, &policies, mode))?;
            let mut finish = Vec::with_capacity(n * 4);
            for r in &res {
                finish.extend_from_slice(&r.finish);
            }
            let finish = Array2::from_shape_vec((n, 4), finish).map_err(|e| PyValueError::new_err(e.to_string()))?;
            d.set_item("finish", finish.into_pyarray(py))?;
            d.set_item("winner", res.iter().map(|r| r.winner).collect::<Vec<_>>().into_pyarray(py))?;
            d.set_item("gain", res.iter().map(|r| r.gain).collect::<Vec<_>>().into_pyarray(py))?;
            d.set_item("actions", res.iter().map(|r| r.actions).collect::<Vec<_>>().into_pyarray(py))?;
        }
        "game" => {
            let res = py.detach(|| sim::simulate_games_from(n, seed, start, threads, &rules, &policies, mode))?;
            let mut levels = Vec::with_capacity(n * 2);
            for r in &res {
                levels.extend_from_slice(&r.levels);
            }
            let levels = Array2::from_shape_vec((n, 2), levels).map_err(|e| PyValueError::new_err(e.to_string()))?;
            d.set_item("winner", res.iter().map(|r| r.winner).collect::<Vec<_>>().into_pyarray(py))?;
            d.set_item("deals", res.iter().map(|r| r.deals).collect::<Vec<_>>().into_pyarray(py))?;
            d.set_item("actions", res.iter().map(|r| r.actions).collect::<Vec<_>>().into_pyarray(py))?;
            d.set_item("levels", levels.into_pyarray(py))?;
        }
        u => return Err(InvalidArgumentError::new_err(format!("unit must be 'deal' or 'game', not {u:?}"))),
    }
    Ok(d)
}

/// One policy name for all seats, or four names (one per seat).
pub(crate) fn policies_arg(obj: &Bound<'_, PyAny>) -> PyResult<[Policy; 4]> {
    let one = |s: &str| {
        Policy::from_name(s)
            .ok_or_else(|| InvalidArgumentError::new_err(format!("unknown policy {s:?} (known: random, greedy, mc, mc:N, mc-random:N)")))
    };
    if let Ok(s) = obj.extract::<String>() {
        return Ok([one(&s)?; 4]);
    }
    let v: Vec<String> = obj.extract().map_err(|_| InvalidArgumentError::new_err("policy must be a name or a list of 4 names"))?;
    if v.len() != 4 {
        return Err(InvalidArgumentError::new_err("policy lists need one name per seat (4)"));
    }
    Ok([one(&v[0])?, one(&v[1])?, one(&v[2])?, one(&v[3])?])
}

/// Monte Carlo estimates for every legal action of the seat to move: hidden
/// hands sampled from that seat's knowledge, playouts to the end of the deal.
#[pyfunction]
#[pyo3(signature = (state, *, playouts = 200, seed = 0, threads = 0, policy = None, mode = "pattern"))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn evaluate<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    playouts: usize,
    seed: i128,
    threads: i64,
    policy: Option<&Bound<'py, PyAny>>,
    mode: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads_arg(threads)?;
    let seed = seed_arg(seed)?;
    let o: std::borrow::Cow<'_, Observation> = if let Ok(g) = state.extract::<PyRef<'_, PyGame>>() {
        std::borrow::Cow::Owned(g.0.observation(g.0.play.current))
    } else if let Ok(o) = state.cast::<PyObservation>() {
        let o = &o.get().0;
        if o.current != Some(o.seat) {
            return Err(IllegalMoveError::new_err(format!("the observation is seat {}'s but seat {:?} is to move", o.seat, o.current)));
        }
        std::borrow::Cow::Borrowed(o)
    } else {
        return Err(InvalidArgumentError::new_err("state must be a Game or an Observation"));
    };
    let mode = mode_arg(mode)?;
    let policies = match policy {
        None => [Policy::Random; 4],
        Some(p) => policies_arg(p)?,
    };
    if o.phase != Phase::Play {
        return Err(IllegalMoveError::new_err(format!("evaluate needs the play phase, not {}", o.phase.name())));
    }
    let mut hands = [crate::cards::cardset::CardSet::EMPTY; 4];
    hands[o.seat as usize] = o.hand;
    let st = o.play_state(hands);
    let mut moves = Vec::new();
    st.moves(mode, &mut moves);
    let mut acts: Vec<Option<crate::movegen::Move>> = Vec::new();
    if st.can_pass() {
        acts.push(None);
    }
    acts.extend(moves.iter().map(|&m| Some(m)));
    let stats = py.detach(|| crate::search::montecarlo::evaluate_observation(&o, &acts, playouts, seed, threads, &policies, mode))?;
    let level = o.level;
    let to_action = |a: &Option<crate::movegen::Move>| match a {
        None => Action::Pass,
        Some(m) => Action::Play(*m),
    };
    let items: Vec<Bound<'py, PyAny>> = acts.iter().map(|a| action_to_py(py, to_action(a), level)).collect::<PyResult<_>>()?;
    let mut best = 0usize;
    for (i, s) in stats.iter().enumerate() {
        let b = &stats[best];
        if s.mean > b.mean || (s.mean == b.mean && s.win_prob > b.win_prob) {
            best = i;
        }
    }
    let d = PyDict::new(py);
    d.set_item("best", items[best].clone())?;
    d.set_item("actions", PyList::new(py, items)?)?;
    d.set_item("mean", stats.iter().map(|s| s.mean).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("win_prob", stats.iter().map(|s| s.win_prob).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("stderr", stats.iter().map(|s| s.stderr).collect::<Vec<_>>().into_pyarray(py))?;
    d.set_item("count", stats.iter().map(|s| s.count).collect::<Vec<_>>().into_pyarray(py))?;
    Ok(d)
}

/// Deals the cards `observation`'s seat cannot see to the other seats, `n`
/// times, consistently with what it knows; returns an (n, 4, 54) uint8 array.
#[pyfunction]
#[pyo3(signature = (observation, n = 1, *, seed = 0))]
pub(crate) fn sample_hands<'py>(
    py: Python<'py>,
    observation: PyRef<'py, PyObservation>,
    n: usize,
    seed: i128,
) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
    let seed = seed_arg(seed)?;
    let c = crate::search::montecarlo::constraints_of(&observation.0);
    let sampler = crate::search::sample::Sampler::new(&c)?;
    let mut out = vec![0u8; n * 4 * 54];
    for (j, chunk) in out.chunks_exact_mut(4 * 54).enumerate() {
        let mut rng = crate::rng::Rng::new(crate::rng::derive_seed(seed, j as u64));
        let hands = sampler.sample(&mut rng);
        for (s, row) in chunk.chunks_exact_mut(54).enumerate() {
            super::cards::fill_counts(row, hands[s]);
        }
    }
    let arr = numpy::ndarray::Array3::from_shape_vec((n, 4, 54), out).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(arr.into_pyarray(py))
}

/// The action a built-in policy (`random`, `greedy`, `mc:N`, ...) takes in
/// `game` for the seat to move. Tribute: any highest card; return: the
/// weakest allowed card (random: any allowed).
#[pyfunction]
#[pyo3(signature = (game, policy = "greedy", *, seed = 0, mode = "pattern"))]
pub(crate) fn policy_action<'py>(py: Python<'py>, game: PyRef<'py, PyGame>, policy: &str, seed: i128, mode: &str) -> PyResult<Bound<'py, PyAny>> {
    let seed = seed_arg(seed)?;
    let g = &game.0;
    let p = Policy::from_name(policy)
        .ok_or_else(|| InvalidArgumentError::new_err(format!("unknown policy {policy:?} (known: random, greedy, mc, mc:N, mc-random:N)")))?;
    let mode = mode_arg(mode)?;
    let mut rng = crate::rng::Rng::new(seed);
    let level = g.play.level;
    let action = match g.phase {
        Phase::Play => {
            let mut moves = Vec::new();
            g.play.moves(mode, &mut moves);
            let state = g.play;
            let pick = py.detach(|| p.choose(&state, &moves, &mut rng));
            match pick {
                Some(i) => Action::Play(moves[i]),
                None => Action::Pass,
            }
        }
        Phase::Tribute | Phase::Return => {
            let acts = g.legal_actions(mode);
            if acts.is_empty() {
                return Err(IllegalMoveError::new_err("no legal action"));
            }
            if p == Policy::Random {
                acts[rng.below(acts.len() as u32) as usize]
            } else {
                let strength = |a: &Action| match a {
                    Action::Tribute(c) | Action::Return(c) => (crate::movegen::combo::rank_value(c.rank(), level), c.index()),
                    _ => (0, 0),
                };
                *acts.iter().min_by_key(|a| strength(a)).unwrap()
            }
        }
        ph => return Err(IllegalMoveError::new_err(format!("no action is expected in the {} phase", ph.name()))),
    };
    action_to_py(py, action, level)
}
