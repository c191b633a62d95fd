//! `Observation`: what one seat may see, and its pickling.

use super::*;
use crate::cards::card::rank_text;
use crate::cards::cardset::CardSet;
use crate::game::levels::LevelState;
use crate::game::observe::Observation;
use crate::game::tribute::{TributeKind, TributePlan};
use crate::game::{Action, Phase, TributeState};
use crate::movegen::{self, ComboRules, Move};
use pyo3::types::{PyDict, PyList, PyTuple};

// ---------------------------------------------------------------- Observation

/// What one seat may know (§8): its hand and everything public.
#[pyclass(module = "guandan_fast._core", name = "Observation", frozen)]
pub struct PyObservation(pub Observation);

fn hands4(h: [CardSet; 4]) -> (PyHand, PyHand, PyHand, PyHand) {
    (PyHand(h[0]), PyHand(h[1]), PyHand(h[2]), PyHand(h[3]))
}

#[pymethods]
impl PyObservation {
    #[getter]
    fn seat(&self) -> u8 {
        self.0.seat
    }
    /// The seat's own cards.
    #[getter]
    fn hand(&self) -> PyHand {
        PyHand(self.0.hand)
    }
    #[getter]
    fn hand_sizes(&self) -> (u32, u32, u32, u32) {
        let h = self.0.sizes;
        (h[0], h[1], h[2], h[3])
    }
    #[getter]
    fn level(&self) -> &'static str {
        rank_text(self.0.level)
    }
    #[getter]
    fn levels(&self) -> (&'static str, &'static str) {
        (rank_text(self.0.lv.levels[0]), rank_text(self.0.lv.levels[1]))
    }
    #[getter]
    fn a_fails(&self) -> (u8, u8) {
        (self.0.lv.a_fails[0], self.0.lv.a_fails[1])
    }
    #[getter]
    fn declarer(&self) -> Option<u8> {
        self.0.lv.declarer
    }
    #[getter]
    fn phase(&self) -> &'static str {
        self.0.phase.name()
    }
    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.0.current
    }
    #[getter]
    fn top(&self) -> Option<PyCombo> {
        self.0.top.map(|(mv, _)| PyCombo { mv, level: self.0.level })
    }
    #[getter]
    fn top_seat(&self) -> Option<u8> {
        self.0.top.map(|(_, s)| s)
    }
    #[getter]
    fn finish_order(&self) -> Vec<u32> {
        self.0.finish_order().iter().map(|&s| s as u32).collect()
    }
    /// Public plays and passes of this deal, with tribute and return cards.
    #[getter]
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        history_list(py, &self.0.history, self.0.level)
    }
    #[getter]
    fn tribute<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        tribute_dict(py, self.0.tribute.as_ref())
    }
    /// Cards each seat has played this deal.
    #[getter]
    fn played(&self) -> (PyHand, PyHand, PyHand, PyHand) {
        hands4(self.0.played)
    }
    /// Cards known to be in each seat's hand (tribute / return cards not played since); own seat: its hand.
    #[getter]
    fn known(&self) -> (PyHand, PyHand, PyHand, PyHand) {
        hands4(self.0.known_cards())
    }
    /// Per seat, the §2 strength above which a tribute giver holds no other non-wildcard card (or None).
    #[getter]
    fn tribute_caps(&self) -> (Option<u8>, Option<u8>, Option<u8>, Option<u8>) {
        let c = self.0.caps;
        (c[0], c[1], c[2], c[3])
    }
    /// Cards this seat cannot see: neither in its hand nor played.
    #[getter]
    fn unseen(&self) -> PyHand {
        PyHand(self.0.unseen())
    }
    /// 1 on the action-space index of each legal action when the observer is the seat to act (uint8, `actions.SIZE`).
    #[pyo3(signature = (out = None))]
    fn legal_action_mask<'py>(&self, py: Python<'py>, out: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, numpy::PyArray1<u8>>> {
        mask_out(py, out, &legal_of_observation(&self.0))
    }

    /// The indices of the observer's legal actions, sorted (int64).
    fn legal_action_indices<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<i64>> {
        indices_array(py, &legal_of_observation(&self.0))
    }

    /// The observer's legal actions as rows: `index` (K,) int64 sorted, `cards` (K, 54) uint8 counts.
    fn legal_action_rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        rows_dict(py, &legal_of_observation(&self.0))
    }

    fn __repr__(&self) -> String {
        format!("<Observation seat={} phase={} level={}>", self.0.seat, self.0.phase.name(), rank_text(self.0.level))
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyObservation>().is_ok_and(|o| o.get().0 == self.0)
    }
    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }
    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyTuple>,))> {
        let f = py.import("guandan_fast._core")?.getattr("_rebuild_observation")?;
        Ok((f, (observation_state(py, &self.0)?,)))
    }
}

// ---------------------------------------------------------------- pickling

/// Version of the pickled observation state.
const STATE_VERSION: u8 = 1;

fn move_state<'py>(py: Python<'py>, m: &Move) -> PyResult<Bound<'py, PyAny>> {
    Ok((m.cards.to_string(), m.combo.kind as u8, m.combo.rank, m.combo.suit, m.wild).into_pyobject(py)?.into_any())
}

fn action_state<'py>(py: Python<'py>, a: &Action) -> PyResult<Bound<'py, PyAny>> {
    Ok(match a {
        Action::Play(m) => ("play", move_state(py, m)?).into_pyobject(py)?.into_any(),
        Action::Pass => ("pass", py.None()).into_pyobject(py)?.into_any(),
        Action::Tribute(c) => ("tribute", c.index()).into_pyobject(py)?.into_any(),
        Action::Return(c) => ("return", c.index()).into_pyobject(py)?.into_any(),
    })
}

/// Plain Python data that `_rebuild_observation` turns back into `o`.
fn observation_state<'py>(py: Python<'py>, o: &Observation) -> PyResult<Bound<'py, PyTuple>> {
    let sets = |s: [CardSet; 4]| s.map(|x| x.to_string());
    let top = match &o.top {
        None => None,
        Some((m, s)) => Some((move_state(py, m)?, *s)),
    };
    let history: Vec<(u8, Bound<'py, PyAny>)> = o.history.iter().map(|(s, a)| Ok((*s, action_state(py, a)?))).collect::<PyResult<_>>()?;
    let tribute = o.tribute.map(|t| {
        (
            (t.plan.kind as u8, t.plan.givers, t.plan.n_givers, t.plan.leader),
            (t.gifts.map(|c| c.map(|c| c.index())), t.receivers, t.returns.map(|c| c.map(|c| c.index()))),
            (t.return_order, t.step, t.leader),
        )
    });
    let items: Vec<Bound<'py, PyAny>> = vec![
        STATE_VERSION.into_pyobject(py)?.into_any(),
        o.seat.into_pyobject(py)?.into_any(),
        Bound::new(py, PyRules(o.rules))?.into_any(),
        o.phase.name().into_pyobject(py)?.into_any(),
        (o.lv.levels, o.lv.a_fails, o.lv.declarer, o.level).into_pyobject(py)?.into_any(),
        (o.current, o.hand.to_string(), o.sizes).into_pyobject(py)?.into_any(),
        top.into_pyobject(py)?.into_any(),
        o.finish_order().to_vec().into_pyobject(py)?.into_any(),
        PyList::new(py, history)?.into_any(),
        tribute.into_pyobject(py)?.into_any(),
        (sets(o.played), sets(o.known), o.caps, o.gone.to_string()).into_pyobject(py)?.into_any(),
    ];
    PyTuple::new(py, items)
}

fn bad_state(what: &str) -> PyErr {
    InvalidStateError::new_err(format!("not a pickled Observation: bad {what}"))
}

/// Extracts `T` from `obj`, naming `what` when it is not one.
fn get<'py, T: pyo3::conversion::FromPyObjectOwned<'py>>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<T> {
    obj.extract::<T>().map_err(|_| bad_state(what))
}

fn cards_state(text: &str, what: &str) -> PyResult<CardSet> {
    CardSet::parse(text).map_err(|e| InvalidStateError::new_err(format!("not a pickled Observation: bad {what}: {e}")))
}

fn card_state(index: usize, what: &str) -> PyResult<Card> {
    Card::from_index(index).map_err(|_| bad_state(what))
}

fn move_from_state(obj: &Bound<'_, PyAny>, level: u8, rules: ComboRules) -> PyResult<Move> {
    let (cards, kind, rank, suit, wild): (String, u8, u8, u8, u8) = get(obj, "play")?;
    let cards = cards_state(&cards, "play")?;
    movegen::classify(cards, level, rules)
        .into_iter()
        .find(|m| m.combo.kind as u8 == kind && m.combo.rank == rank && m.combo.suit == suit && m.wild == wild)
        .ok_or_else(|| bad_state("play (not a declaration of its cards)"))
}

fn action_from_state(obj: &Bound<'_, PyAny>, level: u8, rules: ComboRules) -> PyResult<Action> {
    let (tag, arg): (String, Bound<'_, PyAny>) = get(obj, "history action")?;
    Ok(match tag.as_str() {
        "play" => Action::Play(move_from_state(&arg, level, rules)?),
        "pass" => Action::Pass,
        "tribute" => Action::Tribute(card_state(get(&arg, "tribute card")?, "tribute card")?),
        "return" => Action::Return(card_state(get(&arg, "return card")?, "return card")?),
        _ => return Err(bad_state("history action")),
    })
}

type TributeTuple = ((u8, [u8; 2], u8, u8), ([Option<usize>; 2], [u8; 2], [Option<usize>; 2]), ([u8; 2], u8, u8));

fn tribute_from_state(t: TributeTuple) -> PyResult<TributeState> {
    let ((kind, givers, n_givers, plan_leader), (gifts, receivers, returns), (return_order, step, leader)) = t;
    let kind = match kind {
        0 => TributeKind::None,
        1 => TributeKind::Resisted,
        2 => TributeKind::Single,
        3 => TributeKind::Double,
        _ => return Err(bad_state("tribute kind")),
    };
    let card = |c: Option<usize>| c.map(|i| card_state(i, "tribute card")).transpose();
    Ok(TributeState {
        plan: TributePlan { kind, givers, n_givers, leader: plan_leader },
        gifts: [card(gifts[0])?, card(gifts[1])?],
        receivers,
        returns: [card(returns[0])?, card(returns[1])?],
        return_order,
        step,
        leader,
    })
}

/// Unpickles an Observation (used by `Observation.__reduce__`).
#[pyfunction]
pub(crate) fn _rebuild_observation(state: &Bound<'_, PyAny>) -> PyResult<PyObservation> {
    let t = state.cast::<PyTuple>().map_err(|_| bad_state("state (not a tuple)"))?;
    if t.len() != 11 || get::<u8>(&t.get_item(0)?, "version")? != STATE_VERSION {
        return Err(bad_state("state (length or version)"));
    }
    let item = |i: usize| t.get_item(i);
    let seat: u8 = get(&item(1)?, "seat")?;
    let rules = get::<PyRef<'_, PyRules>>(&item(2)?, "rules")?.0;
    let phase = match get::<String>(&item(3)?, "phase")?.as_str() {
        "tribute" => Phase::Tribute,
        "return" => Phase::Return,
        "play" => Phase::Play,
        "deal_over" => Phase::DealOver,
        "game_over" => Phase::GameOver,
        "match_over" => Phase::MatchOver,
        _ => return Err(bad_state("phase")),
    };
    let (levels, a_fails, declarer, level): ([u8; 2], [u8; 2], Option<u8>, u8) = get(&item(4)?, "levels")?;
    if level > crate::cards::card::RANK_A {
        return Err(bad_state("level"));
    }
    let (current, hand, sizes): (Option<u8>, String, [u32; 4]) = get(&item(5)?, "hand")?;
    let combo_rules = rules.combo_rules();
    let top = match get::<Option<(Bound<'_, PyAny>, u8)>>(&item(6)?, "top")? {
        None => None,
        Some((m, s)) => Some((move_from_state(&m, level, combo_rules)?, s)),
    };
    let out: Vec<u8> = get(&item(7)?, "finish order")?;
    if out.len() > 4 {
        return Err(bad_state("finish order"));
    }
    let mut finish = [0u8; 4];
    finish[..out.len()].copy_from_slice(&out);
    let history = item(8)?
        .cast::<PyList>()
        .map_err(|_| bad_state("history"))?
        .iter()
        .map(|e| {
            let (s, a): (u8, Bound<'_, PyAny>) = get(&e, "history entry")?;
            Ok((s, action_from_state(&a, level, combo_rules)?))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let tribute = get::<Option<TributeTuple>>(&item(9)?, "tribute")?.map(tribute_from_state).transpose()?;
    let (played, known, caps, gone): ([String; 4], [String; 4], [Option<u8>; 4], String) = get(&item(10)?, "knowledge")?;
    let sets = |v: &[String; 4], what: &str| -> PyResult<[CardSet; 4]> {
        Ok([cards_state(&v[0], what)?, cards_state(&v[1], what)?, cards_state(&v[2], what)?, cards_state(&v[3], what)?])
    };
    let o = Observation {
        seat,
        rules,
        phase,
        lv: LevelState { levels, a_fails, declarer },
        level,
        current,
        hand: cards_state(&hand, "hand")?,
        sizes,
        top,
        finish,
        n_out: out.len() as u8,
        history,
        tribute,
        played: sets(&played, "played cards")?,
        known: sets(&known, "known cards")?,
        caps,
        gone: cards_state(&gone, "cards gone")?,
    };
    o.check()?;
    Ok(PyObservation(o))
}
