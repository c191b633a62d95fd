//! `Observation`: what one seat may see, and its pickling.

use super::*;
use crate::cards::card::rank_text;
use crate::cards::cardset::CardSet;
use crate::game::levels::LevelState;
use crate::game::observation_text;
use crate::game::observe::Observation;
use crate::game::{Action, Phase};
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

// ---------------------------------------------------------------- Observation

/// What one seat may know (docs/rules.md §8): its hand and everything public.
#[pyclass(module = "guandan_fast._core", name = "Observation", frozen)]
pub struct PyObservation(pub Observation);

fn hands4(h: [CardSet; 4]) -> (PyHand, PyHand, PyHand, PyHand) {
    (PyHand(h[0]), PyHand(h[1]), PyHand(h[2]), PyHand(h[3]))
}

#[pymethods]
impl PyObservation {
    /// The observing seat.
    #[getter]
    fn seat(&self) -> u8 {
        self.0.seat
    }
    /// The seat's own cards.
    #[getter]
    fn hand(&self) -> PyHand {
        PyHand(self.0.hand)
    }
    /// Hand sizes of the four seats.
    #[getter]
    fn hand_sizes(&self) -> (u32, u32, u32, u32) {
        let h = self.0.sizes;
        (h[0], h[1], h[2], h[3])
    }
    /// The rank played in this deal.
    #[getter]
    fn level(&self) -> &'static str {
        rank_text(self.0.level)
    }
    /// Each team's level.
    #[getter]
    fn levels(&self) -> (&'static str, &'static str) {
        (rank_text(self.0.levels.levels[0]), rank_text(self.0.levels.levels[1]))
    }
    /// Failed attempts at A of each team.
    #[getter]
    fn a_fails(&self) -> (u8, u8) {
        (self.0.levels.a_fails[0], self.0.levels.a_fails[1])
    }
    /// Team whose level is played (None in a game's first deal).
    #[getter]
    fn declarer(&self) -> Option<u8> {
        self.0.levels.declarer
    }
    /// The game's phase.
    #[getter]
    fn phase(&self) -> &'static str {
        self.0.phase.name()
    }
    /// Seat to act, or None.
    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.0.current
    }
    /// The play to beat, or None.
    #[getter]
    fn top(&self) -> Option<PyCombo> {
        self.0.top.map(|(mv, _)| PyCombo { mv, level: self.0.level })
    }
    /// The seat that made the play to beat, or None.
    #[getter]
    fn top_seat(&self) -> Option<u8> {
        self.0.top.map(|(_, s)| s)
    }
    /// Seats out so far in this deal, in order.
    #[getter]
    fn finish_order(&self) -> Vec<u32> {
        self.0.finish_order().iter().map(|&s| s as u32).collect()
    }
    /// Public plays and passes of this deal, with tribute and return cards.
    #[getter]
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        history_list(py, &self.0.history, self.0.level)
    }
    /// The tribute of this deal, or None.
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
    /// Per seat, the docs/rules.md §2 strength above which a tribute giver holds no other non-wildcard card (or None).
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
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (PyRules, String))> {
        let f = py.import("guandan_fast._core")?.getattr("_rebuild_observation")?;
        Ok((f, (PyRules(self.0.rules), observation_text::to_text(&self.0))))
    }
}

// ---------------------------------------------------------------- unpickling

/// Unpickles an Observation (used by `Observation.__reduce__`): `(rules,
/// text)`, the observation text checked; also reads the one state tuple
/// of the pickles of release 0.1.0.
#[pyfunction]
#[pyo3(signature = (*args))]
pub(crate) fn _rebuild_observation(args: &Bound<'_, PyTuple>) -> PyResult<PyObservation> {
    match args.len() {
        1 => release_0_1::observation(&args.get_item(0)?),
        2 => {
            let rules = get::<PyRef<'_, PyRules>>(&args.get_item(0)?, "rules")?.0;
            let text = args.get_item(1)?;
            let text = text.cast::<PyString>().map_err(|_| bad_state("text (not a str)"))?;
            let text = text.to_cow().map_err(|_| bad_state("text (not valid text)"))?;
            Ok(PyObservation(observation_text::from_text(&text, rules)?))
        }
        n => Err(bad_state(&format!("arguments ({n} instead of rules and text)"))),
    }
}

fn bad_state(what: &str) -> PyErr {
    InvalidStateError::new_err(format!("not a pickled Observation: bad {what}"))
}

/// Extracts `T` from `obj`, naming `what` when it is not one.
fn get<'py, T: pyo3::conversion::FromPyObjectOwned<'py>>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<T> {
    obj.extract::<T>().map_err(|_| bad_state(what))
}

/// The Observation pickles of release 0.1.0: one tuple of plain Python data.
mod release_0_1 {
    use super::{bad_state, get, PyObservation};
    use crate::cards::card::Card;
    use crate::cards::cardset::CardSet;
    use crate::game::levels::LevelState;
    use crate::game::observe::Observation;
    use crate::game::tribute::{TributeKind, TributePlan};
    use crate::game::{Action, Phase, TributeState};
    use crate::movegen::{self, ComboRules, Move};
    use crate::python::{InvalidStateError, PyRules};
    use pyo3::prelude::*;
    use pyo3::types::{PyList, PyTuple};

    /// Version of the pickled observation state.
    const STATE_VERSION: u8 = 1;

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

    /// An Observation from the state tuple of a pickle of release 0.1.0.
    pub(super) fn observation(state: &Bound<'_, PyAny>) -> PyResult<PyObservation> {
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
            levels: LevelState { levels, a_fails, declarer },
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
        crate::game::validate::observation(&o)?;
        Ok(PyObservation(o))
    }
}

// ---------------------------------------------------------------- from what a seat is told

/// One public action of a deal: a Combo at `level`, PASS, Tribute or Return.
fn public_action(obj: &Bound<'_, PyAny>, level: u8, what: &str) -> PyResult<Action> {
    if let Ok(c) = obj.cast::<PyCombo>() {
        let c = c.get();
        if c.level != level {
            return Err(InvalidArgumentError::new_err(format!(
                "{what} was declared at level {} but the deal is played at {}",
                rank_text(c.level),
                rank_text(level)
            )));
        }
        return Ok(Action::Play(c.mv));
    }
    if obj.is_instance_of::<PyPass>() {
        return Ok(Action::Pass);
    }
    if let Ok(t) = obj.cast::<PyTribute>() {
        return Ok(Action::Tribute(t.get().0));
    }
    if let Ok(t) = obj.cast::<PyReturn>() {
        return Ok(Action::Return(t.get().0));
    }
    Err(bad_arg(what, "a Combo, PASS, Tribute or Return", obj))
}

/// The Observation of `seat` from what it has been told about the deal:
/// the levels before it, the phase and seat to act, its hand, the hand
/// sizes, the play to beat as `(Combo, seat)` or None, who is out, every
/// public action as `(seat, action)`, the previous finishing order (None in
/// a game's first deal) and whether the tribute was resisted; checked.
#[pyfunction]
#[pyo3(signature = (*, seat, rules, levels, a_fails, declarer, phase, current, hand, sizes, top, finish, history, prev_finish, resisted))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn _observation_from_public(
    seat: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyAny>,
    levels: &Bound<'_, PyAny>,
    a_fails: &Bound<'_, PyAny>,
    declarer: &Bound<'_, PyAny>,
    phase: &Bound<'_, PyAny>,
    current: &Bound<'_, PyAny>,
    hand: &Bound<'_, PyAny>,
    sizes: &Bound<'_, PyAny>,
    top: &Bound<'_, PyAny>,
    finish: &Bound<'_, PyAny>,
    history: &Bound<'_, PyAny>,
    prev_finish: &Bound<'_, PyAny>,
    resisted: &Bound<'_, PyAny>,
) -> PyResult<PyObservation> {
    let lv = LevelState { levels: levels_arg(levels)?, a_fails: a_fails_arg(a_fails)?, declarer: team_arg(Some(declarer), "declarer")? };
    let level = lv.level();
    let phase_name: String = phase.extract().map_err(|_| bad_arg("phase", "a phase name", phase))?;
    let phase = Phase::ALL.into_iter().find(|p| p.name() == phase_name).ok_or_else(|| bad_arg("phase", "a phase name", phase))?;
    let size_items = items_arg(sizes, 4, "sizes", "four hand sizes")?;
    let mut hand_sizes = [0u32; 4];
    for (i, s) in size_items.iter().enumerate() {
        hand_sizes[i] = int_arg(s, "sizes", 0, 108, "a hand size 0..108")? as u32;
    }
    let top = if top.is_none() {
        None
    } else {
        let t = items_arg(top, 2, "top", "(Combo, seat) or None")?;
        let Action::Play(m) = public_action(&t[0], level, "top")? else { return Err(bad_arg("top", "(Combo, seat) or None", top)) };
        Some((m, seat_arg(&t[1], "top seat")?))
    };
    let out = finish
        .try_iter()
        .map_err(|_| bad_arg("finish", "a sequence of seats", finish))?
        .map(|s| seat_arg(&s?, "finish"))
        .collect::<PyResult<Vec<u8>>>()?;
    let history = history
        .try_iter()
        .map_err(|_| bad_arg("history", "a sequence of (seat, action)", history))?
        .map(|e| {
            let e = items_arg(&e?, 2, "history entry", "(seat, action)")?;
            Ok((seat_arg(&e[0], "history seat")?, public_action(&e[1], level, "history action")?))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let deal = crate::game::public::PublicDeal {
        seat: seat_arg(seat, "seat")?,
        rules: rules_arg(Some(rules))?,
        levels: lv,
        phase,
        current: opt_seat_arg(Some(current), "current")?,
        hand: cards_arg(hand)?,
        sizes: hand_sizes,
        top,
        finish: out,
        history,
        prev_finish: if prev_finish.is_none() { None } else { Some(seats_arg(prev_finish, "prev_finish")?) },
        resisted: flag_arg(resisted, "resisted")?,
    };
    Ok(PyObservation(deal.observation()?))
}
