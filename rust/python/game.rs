//! `Game`: a match as a Python class, with pickling.

use super::*;
use crate::cards::card::rank_text;
use crate::game::levels::LevelState;
use crate::game::observe::public_tribute;
use crate::game::referee::{Penalty, PenaltyKind};
use crate::game::{Action, Game, Phase, TributeState};
use crate::movegen::Mode;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

// ---------------------------------------------------------------- Game

/// A match of Guandan: deals, tribute, tricks, levels and games.
#[pyclass(module = "guandan_fast._core", name = "Game")]
#[derive(Clone)]
pub struct PyGame(pub Game);

pub(crate) fn tribute_dict<'py>(py: Python<'py>, t: Option<&TributeState>) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(t) = t else { return Ok(None) };
    let p = public_tribute(t);
    let d = PyDict::new(py);
    d.set_item("kind", p.kind.name())?;
    d.set_item("givers", p.givers.iter().map(|&s| s as u32).collect::<Vec<_>>())?;
    d.set_item("tributes", p.tributes.into_iter().map(|(g, r, c)| (g, r, PyCard(c))).collect::<Vec<_>>())?;
    d.set_item("returns", p.returns.into_iter().map(|(r, g, c)| (r, g, PyCard(c))).collect::<Vec<_>>())?;
    d.set_item("leader", p.leader)?;
    Ok(Some(d))
}

pub(crate) fn history_list<'py>(py: Python<'py>, h: &[(u8, Action)], level: u8) -> PyResult<Bound<'py, PyList>> {
    let items: Vec<Bound<'py, PyTuple>> =
        h.iter().map(|&(s, a)| PyTuple::new(py, [s.into_pyobject(py)?.into_any(), action_to_py(py, a, level)?])).collect::<PyResult<_>>()?;
    PyList::new(py, items)
}

#[pymethods]
impl PyGame {
    /// A match dealt from `seed`, or with `hands` (and `leader`) for its first
    /// deal; `levels`, `declarer` and `a_fails` set the game's state before it
    /// (the first deal is then played at the declarer's level, without
    /// tribute); `after`, a finishing order (the seats 0..3 each once), starts
    /// the first deal as one after a deal finished in that order: the same
    /// hands, then tribute and return (or tribute resisted) and the leader
    /// they give. With `after` the declarer must be the team of `after[0]`.
    #[new]
    #[pyo3(signature = (rules = None, seed = LEFT_OUT, *, hands = None, leader = None, levels = None, declarer = None, a_fails = None, after = None))]
    #[pyo3(text_signature = "(rules=None, seed=0, *, hands=None, leader=None, levels=None, declarer=None, a_fails=None, after=None)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        rules: Option<&Bound<'_, PyAny>>,
        seed: Arg<'_>,
        hands: Option<&Bound<'_, PyAny>>,
        leader: Option<&Bound<'_, PyAny>>,
        levels: Option<&Bound<'_, PyAny>>,
        declarer: Option<&Bound<'_, PyAny>>,
        a_fails: Option<&Bound<'_, PyAny>>,
        after: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let leader = opt_seat_arg(leader, "leader")?;
        let seed = seed.or(0, |o| seed_arg(o))?;
        let rules = rules_arg(rules)?;
        let hands = none_or(hands, None, |h| hands_arg(h).map(Some))?;
        let levels = none_or(levels, None, |l| levels_arg(l).map(Some))?;
        let declarer = team_arg(declarer, "declarer")?;
        let a_fails = none_or(a_fails, None, |f| a_fails_arg(f).map(Some))?;
        let after = none_or(after, None, |a| seats_arg(a, "after").map(Some))?;
        let setup = if levels.is_some() || declarer.is_some() || a_fails.is_some() {
            Some(LevelState { levels: levels.unwrap_or([0, 0]), a_fails: a_fails.unwrap_or([0, 0]), declarer })
        } else {
            None
        };
        Ok(PyGame(Game::with_setup(rules, seed, hands, leader, setup, after)?))
    }

    /// Rebuilds a seeded match from its actions (starting each next deal
    /// when one ends); a `(seat, action)` pair must name the seat to act, a
    /// `('penalize', team, kind[, seat])` item is a referee's decision (`penalize`).
    #[staticmethod]
    #[pyo3(signature = (actions, *, seed = LEFT_OUT, rules = None), text_signature = "(actions, *, seed=0, rules=None)")]
    fn replay(actions: &Bound<'_, PyAny>, seed: Arg<'_>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let seed = seed.or(0, |o| seed_arg(o))?;
        let rules = rules_arg(rules)?;
        let expected = "an iterable of actions or (seat, action) pairs";
        if actions.is_instance_of::<PyString>() || actions.is_instance_of::<pyo3::types::PyBytes>() {
            return Err(bad_arg("actions", expected, actions));
        }
        let iter = actions.try_iter().map_err(|_| bad_arg("actions", expected, actions))?;
        let mut g = Game::new(rules, seed)?;
        for (i, item) in iter.enumerate() {
            let item = item?;
            if let Some(p) = replayed_penalty(&item)? {
                g.penalize(p).map_err(|e| IllegalMoveError::new_err(format!("action {i}: {e}")))?;
                continue;
            }
            let (seat, a) = match item.cast::<PyTuple>() {
                Ok(t) if t.len() == 2 => (Some(seat_arg(&t.get_item(0)?, &format!("actions[{i}] seat"))?), t.get_item(1)?),
                _ => (None, item),
            };
            g.continue_match().map_err(|e| IllegalMoveError::new_err(format!("action {i}: {e}")))?;
            let act = action_arg(&a, &g)?;
            match seat {
                Some(s) => g.apply_as(s, act),
                None => g.apply(act),
            }
            .map_err(|e| IllegalMoveError::new_err(format!("action {i}: {e}")))?;
        }
        Ok(PyGame(g))
    }

    /// Restores a position string (see `position()`); the history starts there.
    #[staticmethod]
    #[pyo3(signature = (text, rules = None))]
    fn from_position(text: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let text = text.cast::<PyString>().map_err(|_| bad_arg("text", "a position string", text))?;
        let text = text.to_cow().map_err(|_| InvalidStateError::new_err("a position string is ASCII, not text with a lone surrogate"))?;
        Ok(PyGame(crate::game::position::from_position(&text, rules_arg(rules)?)?))
    }

    /// The compact position string of the current state (no history).
    fn position(slf: &Bound<'_, Self>) -> PyResult<String> {
        let g = game_of(slf)?;
        Ok(crate::game::position::to_position(&g.0))
    }

    /// The rules of the match.
    #[getter]
    fn rules(slf: &Bound<'_, Self>) -> PyResult<PyRules> {
        let g = game_of(slf)?;
        Ok(PyRules(g.0.rules))
    }
    /// 'tribute', 'return', 'play', 'deal_over', 'game_over' or 'match_over'.
    #[getter]
    fn phase(slf: &Bound<'_, Self>) -> PyResult<&'static str> {
        let g = game_of(slf)?;
        Ok(g.0.phase.name())
    }
    /// Seat to act, or None between deals and at the end.
    #[getter]
    fn current_player(slf: &Bound<'_, Self>) -> PyResult<Option<u8>> {
        let g = game_of(slf)?;
        Ok(g.0.current_player())
    }
    /// The rank played in this deal.
    #[getter]
    fn level(slf: &Bound<'_, Self>) -> PyResult<&'static str> {
        let g = game_of(slf)?;
        Ok(rank_text(g.0.play.level))
    }
    /// Each team's level (team 0 = seats 0 and 2).
    #[getter]
    fn levels(slf: &Bound<'_, Self>) -> PyResult<(&'static str, &'static str)> {
        let g = game_of(slf)?;
        Ok((rank_text(g.0.levels.levels[0]), rank_text(g.0.levels.levels[1])))
    }
    /// Failed attempts at A of each team.
    #[getter]
    fn a_fails(slf: &Bound<'_, Self>) -> PyResult<(u8, u8)> {
        let g = game_of(slf)?;
        Ok((g.0.levels.a_fails[0], g.0.levels.a_fails[1]))
    }
    /// Team whose level is played in the current (or, between deals, the next) deal; None in a game's first deal.
    #[getter]
    fn declarer(slf: &Bound<'_, Self>) -> PyResult<Option<u8>> {
        let g = game_of(slf)?;
        Ok(g.0.levels.declarer)
    }
    /// Seats out so far in this deal, in order (all four once it is over).
    #[getter]
    fn finish_order(slf: &Bound<'_, Self>) -> PyResult<Vec<u32>> {
        let g = game_of(slf)?;
        Ok(g.0.play.finish[..g.0.play.n_out as usize].iter().map(|&s| s as u32).collect())
    }
    /// All four hands (the full view, for analysis and tests).
    #[getter]
    fn hands(slf: &Bound<'_, Self>) -> PyResult<(PyHand, PyHand, PyHand, PyHand)> {
        let g = game_of(slf)?;
        let h = g.0.play.hands;
        Ok((PyHand(h[0]), PyHand(h[1]), PyHand(h[2]), PyHand(h[3])))
    }
    /// The hands as dealt, before tribute.
    #[getter]
    fn dealt(slf: &Bound<'_, Self>) -> PyResult<(PyHand, PyHand, PyHand, PyHand)> {
        let g = game_of(slf)?;
        let h = g.0.dealt;
        Ok((PyHand(h[0]), PyHand(h[1]), PyHand(h[2]), PyHand(h[3])))
    }
    /// Hand sizes (public).
    #[getter]
    fn hand_sizes(slf: &Bound<'_, Self>) -> PyResult<(u32, u32, u32, u32)> {
        let g = game_of(slf)?;
        let h = g.0.play.hands;
        Ok((h[0].len(), h[1].len(), h[2].len(), h[3].len()))
    }
    /// (seat, action) of every decision of this deal.
    #[getter]
    fn history<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let g = game_of(slf)?;
        history_list(py, &g.0.history, g.0.play.level)
    }
    /// Every action of the match in order (what `Game.replay` takes).
    #[getter]
    fn actions<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let g = game_of(slf)?;
        let items: Vec<Bound<'py, PyAny>> = g.0.actions().into_iter().map(|(a, l)| action_to_py(py, a, l)).collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }
    /// The play to beat (None when the current player leads).
    #[getter]
    fn top(slf: &Bound<'_, Self>) -> PyResult<Option<PyCombo>> {
        let g = game_of(slf)?;
        Ok(g.0.play.top.map(|mv| PyCombo { mv, level: g.0.play.level }))
    }
    /// The seat that made the play to beat.
    #[getter]
    fn top_seat(slf: &Bound<'_, Self>) -> PyResult<Option<u8>> {
        let g = game_of(slf)?;
        Ok(g.0.play.top.map(|_| g.0.play.top_seat))
    }
    /// The first leader of this deal.
    #[getter]
    fn leader(slf: &Bound<'_, Self>) -> PyResult<u8> {
        let g = game_of(slf)?;
        Ok(g.0.leader)
    }
    /// Games won by each team in the match.
    #[getter]
    fn games_won(slf: &Bound<'_, Self>) -> PyResult<(u8, u8)> {
        let g = game_of(slf)?;
        Ok((g.0.games_won[0], g.0.games_won[1]))
    }
    /// Index of the current game in the match (0-based).
    #[getter]
    fn game_number(slf: &Bound<'_, Self>) -> PyResult<u32> {
        let g = game_of(slf)?;
        Ok(g.0.game_number)
    }
    /// Deals finished in the current game.
    #[getter]
    fn deal_number(slf: &Bound<'_, Self>) -> PyResult<u32> {
        let g = game_of(slf)?;
        Ok(g.0.deal_number)
    }
    /// The tribute of this deal (kind, tributes, returns, leader), or None.
    #[getter]
    fn tribute<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let g = game_of(slf)?;
        tribute_dict(py, g.0.tribute.as_ref())
    }
    /// The result of the last finished deal (as `settle_deal`), or None.
    #[getter]
    fn last_result<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let g = game_of(slf)?;
        g.0.last_settlement().map(|s| settlement_dict(py, s)).transpose()
    }
    /// One dict per finished deal of the match.
    #[getter]
    fn deals<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let g = game_of(slf)?;
        g.0.records
            .iter()
            .map(|r| {
                let d = settlement_dict(py, &r.settlement)?;
                d.set_item("game_number", r.game_number)?;
                d.set_item("deal_number", r.deal_number)?;
                d.set_item("level", rank_text(r.level))?;
                d.set_item("finish_order", r.finish.map(|s| s as u32).to_vec())?;
                d.set_item("actions", r.actions.len())?;
                Ok(d)
            })
            .collect()
    }
    /// Winner team of each finished game.
    #[getter]
    fn game_winners(slf: &Bound<'_, Self>) -> PyResult<Vec<u32>> {
        let g = game_of(slf)?;
        Ok(g.0.game_winners.iter().map(|&s| s as u32).collect())
    }
    /// Whether the match is over.
    #[getter]
    fn is_over(slf: &Bound<'_, Self>) -> PyResult<bool> {
        let g = game_of(slf)?;
        Ok(g.0.phase == Phase::MatchOver)
    }

    /// The current player's legal actions: Combos, PASS when legal, Tribute / Return cards.
    #[pyo3(signature = (mode = LEFT_OUT), text_signature = "(self, mode='cards')")]
    fn legal_actions<'py>(slf: &Bound<'py, Self>, py: Python<'py>, mode: Arg<'py>) -> PyResult<Bound<'py, PyList>> {
        let mode = mode_or(&mode, Mode::Cards)?;
        let g = game_of(slf)?;
        let acts = g.0.legal_actions(mode);
        let items: Vec<Bound<'py, PyAny>> = acts.into_iter().map(|a| action_to_py(py, a, g.0.play.level)).collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }

    /// The current player's legal plays as numpy arrays (as `legal_moves_array`), plus whether passing is legal.
    #[pyo3(signature = (mode = LEFT_OUT), text_signature = "(self, mode='cards')")]
    fn legal_actions_array<'py>(slf: &Bound<'py, Self>, py: Python<'py>, mode: Arg<'py>) -> PyResult<Bound<'py, PyDict>> {
        let mode = mode_or(&mode, Mode::Cards)?;
        let g = game_of(slf)?;
        let mut buf = Vec::new();
        if g.0.phase == Phase::Play {
            g.0.play.moves(mode, &mut buf);
        }
        let d = super::cards::moves_to_dict(py, &buf)?;
        d.set_item("can_pass", g.0.phase == Phase::Play && g.0.play.can_pass())?;
        Ok(d)
    }

    /// Applies the current player's action; an illegal one raises and changes nothing.
    fn apply(slf: &Bound<'_, Self>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut g = game_mut(slf)?;
        let a = action_arg(action, &g.0)?;
        Ok(g.0.apply(a)?)
    }

    /// 1 on the action-space index of each legal action of the seat to act (uint8, `actions.SIZE`).
    #[pyo3(signature = (out = None))]
    fn legal_action_mask<'py>(slf: &Bound<'py, Self>, py: Python<'py>, out: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, numpy::PyArray1<u8>>> {
        let legal = legal_of_game(&game_of(slf)?.0);
        mask_out(py, out, &legal)
    }

    /// The indices of the legal actions, sorted (int64).
    fn legal_action_indices<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray1<i64>>> {
        Ok(indices_array(py, &legal_of_game(&game_of(slf)?.0)))
    }

    /// The legal actions as rows: `index` (K,) int64 sorted, `cards` (K, 54) uint8 counts.
    fn legal_action_rows<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        rows_dict(py, &legal_of_game(&game_of(slf)?.0))
    }

    /// Applies the legal action of action-space index `i`; not legal raises and changes nothing.
    fn apply_index(slf: &Bound<'_, Self>, i: &Bound<'_, PyAny>) -> PyResult<()> {
        apply_index(&mut game_mut(slf)?.0, i)
    }

    /// Starts the next deal (or game) after 'deal_over' / 'game_over'.
    #[pyo3(signature = (hands = None, leader = None))]
    fn next_deal(slf: &Bound<'_, Self>, hands: Option<&Bound<'_, PyAny>>, leader: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let leader = opt_seat_arg(leader, "leader")?;
        let hands = none_or(hands, None, |h| hands_arg(h).map(Some))?;
        Ok(game_mut(slf)?.0.next_deal(hands, leader)?)
    }

    /// Applies a referee's decision against `team` (docs/rules.md §10):
    /// 'minus_two', 'back_to_two', 'opponents_up' (the deal abandoned, the
    /// opponents up one and declaring), 'hidden_card', 'out_of_turn',
    /// 'illegal_signal' (counted; the third time triggers) or 'forfeit' (the
    /// opponents win the match). `seat`, of `team`, is the offender (default
    /// seat `team`): the declarers' player after it leads the next deal.
    /// Refused, changing nothing, when it cannot apply.
    #[pyo3(signature = (team, kind, *, seat = None))]
    fn penalize(slf: &Bound<'_, Self>, team: &Bound<'_, PyAny>, kind: &Bound<'_, PyAny>, seat: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let p = penalty_arg(team, kind, seat)?;
        Ok(game_mut(slf)?.0.penalize(p)?)
    }

    /// Every referee's decision of the match: team, seat, kind, and when
    /// (game_number, deal_number, actions into the deal).
    #[getter]
    fn penalties<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let g = game_of(slf)?;
        g.0.penalties
            .iter()
            .map(|r| {
                let d = PyDict::new(py);
                d.set_item("team", r.penalty.team())?;
                d.set_item("seat", r.penalty.seat)?;
                d.set_item("kind", r.penalty.kind.name())?;
                d.set_item("game_number", r.game_number)?;
                d.set_item("deal_number", r.deal_number)?;
                d.set_item("actions", r.actions)?;
                Ok(d)
            })
            .collect()
    }

    /// Each team's counted offences since their last trigger (each below 3):
    /// 'hidden_card', 'out_of_turn', 'illegal_signal' → (team 0, team 1).
    #[getter]
    fn penalty_counts<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let c = game_of(slf)?.0.referee.counts;
        let d = PyDict::new(py);
        for (i, k) in [PenaltyKind::HiddenCard, PenaltyKind::OutOfTurn, PenaltyKind::IllegalSignal].iter().enumerate() {
            d.set_item(k.name(), (c[0][i], c[1][i]))?;
        }
        Ok(d)
    }

    /// What `seat` may know (docs/rules.md §8).
    fn observation(slf: &Bound<'_, Self>, seat: &Bound<'_, PyAny>) -> PyResult<PyObservation> {
        let seat = seat_arg(seat, "seat")?;
        let g = game_of(slf)?;
        Ok(PyObservation(g.0.observation(seat)))
    }

    /// An independent copy (cheap).
    fn clone(slf: &Bound<'_, Self>) -> PyResult<Self> {
        let g = game_of(slf)?;
        Ok(g.clone_inner())
    }
    fn __copy__(slf: &Bound<'_, Self>) -> PyResult<Self> {
        let g = game_of(slf)?;
        Ok(g.clone_inner())
    }
    fn __deepcopy__(slf: &Bound<'_, Self>, _memo: &Bound<'_, PyAny>) -> PyResult<Self> {
        let g = game_of(slf)?;
        Ok(g.clone_inner())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (PyRules, String))> {
        let g = &game_of(slf)?.0;
        let f = py.import("guandan_fast._core")?.getattr("_rebuild_game")?;
        Ok((f, (PyRules(g.rules), g.record())))
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let g = game_of(slf)?;
        Ok(format!("Game.from_position('{}')", crate::game::position::to_position(&g.0)))
    }

    fn __str__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let g = game_of(slf)?;
        Ok(g.0.to_string())
    }
}

/// A `('penalize', team, kind[, seat])` item of `Game.replay`'s actions, if `item` is one.
fn replayed_penalty(item: &Bound<'_, PyAny>) -> PyResult<Option<Penalty>> {
    let Ok(t) = item.cast::<PyTuple>() else { return Ok(None) };
    if !(3..=4).contains(&t.len()) || !t.get_item(0)?.cast::<PyString>().is_ok_and(|s| s.to_cow().is_ok_and(|s| s == "penalize")) {
        return Ok(None);
    }
    let seat = if t.len() == 4 { Some(t.get_item(3)?) } else { None };
    penalty_arg(&t.get_item(1)?, &t.get_item(2)?, seat.as_ref()).map(Some)
}

/// A referee's decision from its arguments: `team` 0 or 1, `kind` a
/// `PenaltyKind` name, `seat` None or a seat of `team`.
pub(crate) fn penalty_arg(team: &Bound<'_, PyAny>, kind: &Bound<'_, PyAny>, seat: Option<&Bound<'_, PyAny>>) -> PyResult<Penalty> {
    let team = int_arg(team, "team", 0, 1, "a team 0 or 1")? as u8;
    let names = PenaltyKind::ALL.map(|k| format!("'{}'", k.name())).join(", ");
    let kind = name_arg(kind, "kind", &format!("one of {names}"), PenaltyKind::from_name)?;
    let seat = opt_seat_arg(seat, "seat")?.unwrap_or(team);
    if seat & 1 != team {
        return Err(InvalidArgumentError::new_err(format!("seat {seat} is not of team {team}")));
    }
    Ok(Penalty { seat, kind })
}

impl PyGame {
    fn clone_inner(&self) -> Self {
        PyGame(self.0.clone())
    }
}

// ---------------------------------------------------------------- unpickling

/// What is wrong with a pickled Game.
fn bad_pickle(what: impl std::fmt::Display) -> PyErr {
    InvalidStateError::new_err(format!("bad Game pickle: {what}"))
}

/// A repr of `x` cut to a readable length.
fn short_repr(x: &Bound<'_, PyAny>) -> String {
    let r = x.repr().map(|r| r.to_string()).unwrap_or_else(|_| "an object without repr".into());
    match r.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &r[..cut]),
        None => r,
    }
}

/// Unpickles a Game (used by `Game.__reduce__`): `(rules, record)`, the
/// record text replayed and every entry checked; also reads the
/// `(rules, origin, log)` pickles of release 0.1.0.
#[pyfunction]
#[pyo3(signature = (*args))]
pub(crate) fn _rebuild_game(args: &Bound<'_, PyTuple>) -> PyResult<PyGame> {
    if args.len() != 2 && args.len() != 3 {
        return Err(bad_pickle(format!("{} arguments instead of (rules, record)", args.len())));
    }
    let rules = args.get_item(0)?;
    let rules = rules.cast::<PyRules>().map_err(|_| bad_pickle(format!("rules {} is not a Rules", short_repr(&rules))))?.borrow().0;
    if args.len() == 3 {
        let (origin, log) = release_0_1::origin_and_log(&args.get_item(1)?, &args.get_item(2)?)?;
        return Ok(PyGame(Game::rebuild(rules, &origin, &log)?));
    }
    let record = args.get_item(1)?;
    let text = record.cast::<PyString>().map_err(|_| bad_pickle(format!("record {} is not a str", short_repr(&record))))?;
    let text = text.to_cow().map_err(|_| bad_pickle("the record is not valid text"))?;
    Ok(PyGame(Game::from_record(rules, &text)?))
}

/// The Game pickles of release 0.1.0: `(rules, origin, log)` as Python tuples.
mod release_0_1 {
    use super::{bad_pickle, short_repr};
    use crate::cards::card::Card;
    use crate::cards::cardset::CardSet;
    use crate::game::levels::LevelState;
    use crate::game::{Action, LogEntry, Origin};
    use pyo3::prelude::*;
    use pyo3::types::{PyList, PyTuple};

    /// Item `i` of a pickled tuple, converted.
    fn item<'py, T: for<'a> FromPyObject<'a, 'py>>(t: &Bound<'py, PyTuple>, i: usize, what: &str) -> PyResult<T> {
        let x = t.get_item(i).map_err(|_| bad_pickle(format!("{what} is missing")))?;
        x.extract().map_err(|_| bad_pickle(format!("{what} is {}", short_repr(&x))))
    }

    fn hands(h: Option<Vec<String>>) -> PyResult<Option<[CardSet; 4]>> {
        let Some(v) = h else { return Ok(None) };
        let [a, b, c, d] = &v[..] else { return Err(bad_pickle(format!("{} hands instead of 4", v.len()))) };
        Ok(Some([CardSet::parse(a)?, CardSet::parse(b)?, CardSet::parse(c)?, CardSet::parse(d)?]))
    }

    /// One entry of a pickled log.
    fn log_entry(e: &Bound<'_, PyAny>) -> PyResult<LogEntry> {
        let t = e.cast::<PyTuple>().map_err(|_| bad_pickle(format!("log entry {} is not a tuple", short_repr(e))))?;
        let tag: String = item(t, 0, "log entry tag")?;
        let len = match tag.as_str() {
            "play" => 6,
            "pass" => 1,
            "tribute" | "return" => 2,
            "next" => 3,
            x => return Err(bad_pickle(format!("unknown log entry {x:?}"))),
        };
        if t.len() != len {
            return Err(bad_pickle(format!("a {tag:?} log entry has {len} items, not {}", t.len())));
        }
        let card = |i| -> PyResult<Card> { Ok(Card::from_index(item::<usize>(t, i, "card index")?)?) };
        Ok(match tag.as_str() {
            "play" => {
                let cards = CardSet::parse(&item::<String>(t, 1, "played cards")?)?;
                let code: u8 = item(t, 2, "kind code")?;
                let kind = crate::movegen::combo::Kind::from_code(code).ok_or_else(|| bad_pickle(format!("kind code {code} is unknown")))?;
                let combo =
                    crate::movegen::combo::Combo { kind, rank: item(t, 3, "rank code")?, size: cards.len() as u8, suit: item(t, 4, "suit code")? };
                LogEntry::Act(Action::Play(crate::movegen::Move { cards, combo, wild: item(t, 5, "wildcard count")? }))
            }
            "pass" => LogEntry::Act(Action::Pass),
            "tribute" => LogEntry::Act(Action::Tribute(card(1)?)),
            "return" => LogEntry::Act(Action::Return(card(1)?)),
            _ => LogEntry::NextDeal(hands(item(t, 1, "next deal hands")?)?, item(t, 2, "next deal leader")?),
        })
    }

    /// The origin and log of a pickle of release 0.1.0.
    pub(super) fn origin_and_log(origin: &Bound<'_, PyAny>, log: &Bound<'_, PyAny>) -> PyResult<(Origin, Vec<LogEntry>)> {
        let origin = origin.cast::<PyTuple>().map_err(|_| bad_pickle(format!("origin {} is not a tuple", short_repr(origin))))?;
        if origin.len() != 6 {
            return Err(bad_pickle(format!("origin has {} items, not 6", origin.len())));
        }
        let origin = match item::<u8>(origin, 0, "origin tag")? {
            0 => {
                let lv: Option<(u8, u8, u8, u8, Option<u8>)> = item(origin, 5, "origin levels")?;
                let levels = lv.map(|(a, b, fa, fb, d)| LevelState { levels: [a, b], a_fails: [fa, fb], declarer: d });
                Origin::Seed {
                    seed: item(origin, 1, "origin seed")?,
                    hands: hands(item(origin, 2, "origin hands")?)?,
                    leader: item(origin, 3, "origin leader")?,
                    levels,
                    after: None,
                }
            }
            1 => Origin::Setup(Box::new(crate::game::position::parse(&item::<String>(origin, 4, "origin position")?)?)),
            x => return Err(bad_pickle(format!("origin tag {x} is not 0 or 1"))),
        };
        let log = log.cast::<PyList>().map_err(|_| bad_pickle(format!("log {} is not a list", short_repr(log))))?;
        let entries: Vec<LogEntry> = log.iter().map(|e| log_entry(&e)).collect::<PyResult<_>>()?;
        Ok((origin, entries))
    }
}
