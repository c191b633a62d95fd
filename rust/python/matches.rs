//! Whole matches between two teams of built-in policies, in parallel, without the GIL.

use super::*;
use crate::game::trick::team;
use crate::parallel::Stop;
use crate::search::matches::{self as m, AtLimit, MatchRecord, MatchSpec};
use crate::search::policy::Policy;
use crate::search::run::Run;
use pyo3::types::{PyDict, PyList};

const SPEC: &str = "a tuple (policy_a, policy_b, rules, seed, limit, at_limit)";

/// One match spec: `(policy_a, policy_b, rules, seed, limit, at_limit)`.
fn spec_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<MatchSpec> {
    let v = items_arg(obj, 6, what, SPEC)?;
    let a = policy_arg(&v[0], &format!("{what} policy_a"))?;
    let b = policy_arg(&v[1], &format!("{what} policy_b"))?;
    spec_rest(&v, what, [a, b])
}

/// The rules, seed, limit and ending of spec items `v`.
fn spec_rest(v: &[Bound<'_, PyAny>], what: &str, policies: [Policy; 2]) -> PyResult<MatchSpec> {
    let rules = rules_arg(Some(&v[2]))?;
    let seed = seed_arg(&v[3])?;
    let limit = none_or(Some(&v[4]), None, |o| count_arg(o, &format!("{what} limit"), 1, u32::MAX as u64).map(|n| Some(n as u32)))?;
    let at_limit = name_arg(&v[5], &format!("{what} at_limit"), "'levels' or 'sudden_death'", |s| match s {
        "levels" => Some(AtLimit::Levels),
        "sudden_death" => Some(AtLimit::SuddenDeath),
        _ => None,
    })?;
    Ok(MatchSpec { policies, rules, seed, limit, at_limit })
}

/// Plays every match of `specs` (tuples `(policy_a, policy_b, rules, seed,
/// limit, at_limit)`: team 0 plays `policy_a`, team 1 `policy_b`; the match
/// stops after `limit` deals (None: no limit) and ends on `'levels'` or
/// switches to `'sudden_death'`) natively, split into `threads` parts (0:
/// one per core) without the GIL. Each result is a dict: `winner`,
/// `games_won`, `ending` (`'played'`, `'levels'` or `'sudden_death'`),
/// `deals`, `levels` (when regular play stopped), `games` (the Games as
/// played) and `seeds` (each game's seed: `Game.replay(game.actions,
/// seed=seed, rules=game.rules)` rebuilds it).
#[pyfunction]
#[pyo3(signature = (specs, *, threads = None, mode = LEFT_OUT), text_signature = "(specs, *, threads=0, mode='pattern')")]
pub(crate) fn simulate_matches<'py>(
    py: Python<'py>,
    specs: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
    mode: Arg<'py>,
) -> PyResult<Bound<'py, PyList>> {
    let items: Vec<Bound<'py, PyAny>> = if specs.is_instance_of::<PyString>() {
        return Err(bad_arg("specs", "a list of match specs", specs));
    } else {
        specs.try_iter().map_err(|_| bad_arg("specs", "a list of match specs", specs))?.collect::<PyResult<_>>()?
    };
    let specs: Vec<MatchSpec> = items.iter().enumerate().map(|(i, o)| spec_arg(o, &format!("specs[{i}]"))).collect::<PyResult<_>>()?;
    let parts = crate::parallel::parts(none_or(threads, 0, |o| threads_arg(o))?);
    let mode = mode_or(&mode, Mode::Pattern)?;
    let res = interruptible(py, |stop| m::play_matches(&specs, &Run::new(mode, parts, stop)))?;
    let out = PyList::empty(py);
    for r in res {
        out.append(record_dict(py, r)?)?;
    }
    Ok(out)
}

/// A played match as the dict `simulate_matches` returns.
fn record_dict(py: Python<'_>, r: MatchRecord) -> PyResult<Bound<'_, PyDict>> {
    {
        let d = PyDict::new(py);
        d.set_item("winner", r.winner)?;
        d.set_item("games_won", (r.games_won[0], r.games_won[1]))?;
        d.set_item("ending", r.ending.name())?;
        d.set_item("deals", r.deals)?;
        d.set_item("levels", (card::rank_text(r.levels[0]), card::rank_text(r.levels[1])))?;
        let seeds: Vec<u64> = r.games.iter().map(|g| if let crate::game::Origin::Seed { seed, .. } = g.origin { seed } else { 0 }).collect();
        d.set_item("seeds", seeds)?;
        let games: Vec<PyGame> = r.games.into_iter().map(PyGame).collect();
        d.set_item("games", games)?;
        Ok(d)
    }
}

/// A side of a match played in the calling thread: a built-in policy or a bot.
enum Side<'py> {
    Policy(Policy),
    Bot(Bound<'py, PyAny>),
}

fn side_arg<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Side<'py>> {
    if obj.is_instance_of::<PyString>() {
        return Ok(Side::Policy(policy_arg(obj, what)?));
    }
    match obj.getattr("act") {
        Ok(f) if f.is_callable() => Ok(Side::Bot(obj.clone())),
        _ => Err(bad_arg(what, "a policy name or a bot with an act(game) method", obj)),
    }
}

/// Plays one match as `simulate_matches` does, in the calling thread with
/// the GIL held, where each of `policy_a` and `policy_b` may also be a bot
/// (anything with `act(game) -> action`, given a copy of the match's game);
/// a built-in side decides exactly as it would in `simulate_matches`.
#[pyfunction]
#[pyo3(signature = (spec, *, mode = LEFT_OUT), text_signature = "(spec, *, mode='pattern')")]
pub(crate) fn play_bot_match<'py>(py: Python<'py>, spec: &Bound<'py, PyAny>, mode: Arg<'py>) -> PyResult<Bound<'py, PyDict>> {
    let v = items_arg(spec, 6, "spec", SPEC)?;
    let sides = [side_arg(&v[0], "spec policy_a")?, side_arg(&v[1], "spec policy_b")?];
    let spec = spec_rest(&v, "spec", [Policy::Random; 2])?;
    let mode = mode_or(&mode, Mode::Pattern)?;
    let stop = Stop::new();
    let mut raised: Option<PyErr> = None;
    let rec = m::play_match_with(&spec, &stop, &mut |g, rng| match &sides[team(g.play.current) as usize] {
        Side::Policy(p) => p.game_action(g, rng, &Run::new(mode, 1, &stop)),
        Side::Bot(b) => match b.call_method1("act", (PyGame(g.clone()),)).and_then(|a| action_arg(&a, g)) {
            Ok(a) => Ok(a),
            Err(e) => {
                raised = Some(e);
                Err(crate::error::Error::InvalidState("the bot raised".into()))
            }
        },
    });
    match rec {
        Ok(r) => record_dict(py, r),
        Err(e) => Err(raised.take().unwrap_or_else(|| e.into())),
    }
}
