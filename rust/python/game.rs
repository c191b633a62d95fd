//! `Game`: a match as a Python class, with pickling.

use super::*;
use crate::cards::card::rank_text;
use crate::cards::cardset::CardSet;
use crate::game::levels::LevelState;
use crate::game::tribute::TributeKind;
use crate::game::{Action, Game, LogEntry, Origin, Phase, TributeState};
use pyo3::types::{PyDict, PyList, PyTuple};

// ---------------------------------------------------------------- Game

/// A match of Guandan: deals, tribute, tricks, levels and games.
#[pyclass(module = "guandan_fast._core", name = "Game")]
#[derive(Clone)]
pub struct PyGame(pub Game);

pub(crate) fn tribute_dict<'py>(py: Python<'py>, t: Option<&TributeState>) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(t) = t else { return Ok(None) };
    let d = PyDict::new(py);
    d.set_item("kind", t.plan.kind.name())?;
    let n = t.plan.n_givers as usize;
    d.set_item("givers", t.plan.givers[..n].iter().map(|&s| s as u32).collect::<Vec<_>>())?;
    let paid = t.gifts[..n].iter().all(|x| x.is_some());
    let mut gifts = Vec::new();
    let mut rets = Vec::new();
    for i in 0..n {
        if let Some(c) = t.gifts[i] {
            gifts.push((t.plan.givers[i], if paid { Some(t.receivers[i]) } else { None }, PyCard(c)));
        }
        if let Some(c) = t.returns[i] {
            rets.push((t.receivers[i], t.plan.givers[i], PyCard(c)));
        }
    }
    d.set_item("tributes", gifts)?;
    d.set_item("returns", rets)?;
    d.set_item("leader", if paid || t.plan.kind == TributeKind::Resisted { Some(t.leader) } else { None })?;
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
    /// (the first deal is then played at the declarer's level, without tribute).
    #[new]
    #[pyo3(signature = (rules = None, seed = 0, *, hands = None, leader = None, levels = None, declarer = None, a_fails = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        rules: Option<&Bound<'_, PyAny>>,
        seed: i128,
        hands: Option<&Bound<'_, PyAny>>,
        leader: Option<i64>,
        levels: Option<(Bound<'_, PyAny>, Bound<'_, PyAny>)>,
        declarer: Option<i64>,
        a_fails: Option<(u8, u8)>,
    ) -> PyResult<Self> {
        let leader = leader.map(|l| seat_arg(l, "leader")).transpose()?;
        let seed = seed_arg(seed)?;
        let rules = rules_arg(rules)?;
        let hands = hands.map(hands_arg).transpose()?;
        let setup = if levels.is_some() || declarer.is_some() || a_fails.is_some() {
            let lv = match levels {
                None => [0, 0],
                Some((a, b)) => [level_arg(&a)?, level_arg(&b)?],
            };
            let declarer = match declarer {
                None => None,
                Some(d) if d == 0 || d == 1 => Some(d as u8),
                Some(d) => return Err(InvalidArgumentError::new_err(format!("declarer {d} is not a team 0, 1 or None"))),
            };
            let f = a_fails.unwrap_or((0, 0));
            Some(LevelState { levels: lv, a_fails: [f.0, f.1], declarer })
        } else {
            None
        };
        Ok(PyGame(Game::with_setup(rules, seed, hands, leader, setup)?))
    }

    /// Rebuilds a seeded match from its actions (starting each next deal
    /// when one ends); a `(seat, action)` pair must name the seat to act.
    #[staticmethod]
    #[pyo3(signature = (actions, *, seed = 0, rules = None))]
    fn replay(actions: &Bound<'_, PyAny>, seed: i128, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let seed = seed_arg(seed)?;
        let rules = rules_arg(rules)?;
        let mut g = Game::new(rules, seed)?;
        for (i, item) in actions.try_iter()?.enumerate() {
            let item = item?;
            let (seat, a) = match item.cast::<PyTuple>() {
                Ok(t) if t.len() == 2 => {
                    let s = t.get_item(0)?;
                    let seat = s.extract::<i64>().ok().filter(|_| !s.is_instance_of::<pyo3::types::PyBool>()).ok_or_else(|| {
                        InvalidArgumentError::new_err(format!("action {i}: a (seat, action) pair starts with a seat 0..3, not {}", short_repr(&s)))
                    })?;
                    (Some(seat_arg(seat, &format!("action {i}: seat"))?), t.get_item(1)?)
                }
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
    fn from_position(text: &str, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(PyGame(crate::game::position::from_position(text, rules_arg(rules)?)?))
    }

    /// The compact position string of the current state (no history).
    fn position(&self) -> String {
        crate::game::position::to_position(&self.0)
    }

    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.0.rules)
    }
    /// 'tribute', 'return', 'play', 'deal_over', 'game_over' or 'match_over'.
    #[getter]
    fn phase(&self) -> &'static str {
        self.0.phase.name()
    }
    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.0.current_player()
    }
    /// The rank played in this deal.
    #[getter]
    fn level(&self) -> &'static str {
        rank_text(self.0.play.level)
    }
    /// Each team's level (team 0 = seats 0 and 2).
    #[getter]
    fn levels(&self) -> (&'static str, &'static str) {
        (rank_text(self.0.lv.levels[0]), rank_text(self.0.lv.levels[1]))
    }
    /// Failed attempts at A of each team.
    #[getter]
    fn a_fails(&self) -> (u8, u8) {
        (self.0.lv.a_fails[0], self.0.lv.a_fails[1])
    }
    /// Team whose level is played in the current (or, between deals, the next) deal; None in a game's first deal.
    #[getter]
    fn declarer(&self) -> Option<u8> {
        self.0.lv.declarer
    }
    /// Seats out so far in this deal, in order (all four once it is over).
    #[getter]
    fn finish_order(&self) -> Vec<u32> {
        self.0.play.finish[..self.0.play.n_out as usize].iter().map(|&s| s as u32).collect()
    }
    /// All four hands (the full view, for analysis and tests).
    #[getter]
    fn hands(&self) -> (PyHand, PyHand, PyHand, PyHand) {
        let h = self.0.play.hands;
        (PyHand(h[0]), PyHand(h[1]), PyHand(h[2]), PyHand(h[3]))
    }
    /// The hands as dealt, before tribute.
    #[getter]
    fn dealt(&self) -> (PyHand, PyHand, PyHand, PyHand) {
        let h = self.0.dealt;
        (PyHand(h[0]), PyHand(h[1]), PyHand(h[2]), PyHand(h[3]))
    }
    /// Hand sizes (public).
    #[getter]
    fn hand_sizes(&self) -> (u32, u32, u32, u32) {
        let h = self.0.play.hands;
        (h[0].len(), h[1].len(), h[2].len(), h[3].len())
    }
    /// (seat, action) of every decision of this deal.
    #[getter]
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        history_list(py, &self.0.history, self.0.play.level)
    }
    /// Every action of the match in order (what `Game.replay` takes).
    #[getter]
    fn actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out: Vec<Action> = self.0.log.iter().filter_map(|e| if let LogEntry::Act(a) = e { Some(*a) } else { None }).collect();
        // Each play carries its own level for the Combo.
        let mut levels = Vec::new();
        for r in &self.0.records {
            levels.extend(std::iter::repeat_n(r.level, r.actions.len()));
        }
        if matches!(self.0.phase, Phase::Tribute | Phase::Return | Phase::Play) {
            levels.extend(std::iter::repeat_n(self.0.play.level, self.0.history.len()));
        }
        let items: Vec<Bound<'py, PyAny>> = out
            .iter()
            .zip(levels.iter().chain(std::iter::repeat(&self.0.play.level)))
            .map(|(&a, &l)| action_to_py(py, a, l))
            .collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }
    /// The play to beat (None when the current player leads).
    #[getter]
    fn top(&self) -> Option<PyCombo> {
        self.0.play.top.map(|mv| PyCombo { mv, level: self.0.play.level })
    }
    /// The seat that made the play to beat.
    #[getter]
    fn top_seat(&self) -> Option<u8> {
        self.0.play.top.map(|_| self.0.play.top_seat)
    }
    /// The first leader of this deal.
    #[getter]
    fn leader(&self) -> u8 {
        self.0.leader
    }
    #[getter]
    fn games_won(&self) -> (u8, u8) {
        (self.0.games_won[0], self.0.games_won[1])
    }
    #[getter]
    fn game_number(&self) -> u32 {
        self.0.game_number
    }
    #[getter]
    fn deal_number(&self) -> u32 {
        self.0.deal_number
    }
    /// The tribute of this deal (kind, tributes, returns, leader), or None.
    #[getter]
    fn tribute<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        tribute_dict(py, self.0.tribute.as_ref())
    }
    /// The result of the last finished deal (as `settle_deal`), or None.
    #[getter]
    fn last_result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.0.last_settlement().map(|s| settlement_dict(py, s)).transpose()
    }
    /// One dict per finished deal of the match.
    #[getter]
    fn deals<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.0
            .records
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
    fn game_winners(&self) -> Vec<u32> {
        self.0.game_winners.iter().map(|&s| s as u32).collect()
    }
    /// Whether the match is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.0.phase == Phase::MatchOver
    }

    /// The current player's legal actions: Combos, PASS when legal, Tribute / Return cards.
    #[pyo3(signature = (mode = "cards"))]
    fn legal_actions<'py>(&self, py: Python<'py>, mode: &str) -> PyResult<Bound<'py, PyList>> {
        let acts = self.0.legal_actions(mode_arg(mode)?);
        let items: Vec<Bound<'py, PyAny>> = acts.into_iter().map(|a| action_to_py(py, a, self.0.play.level)).collect::<PyResult<_>>()?;
        PyList::new(py, items)
    }

    /// The current player's legal plays as numpy arrays (as `legal_moves_array`), plus whether passing is legal.
    #[pyo3(signature = (mode = "cards"))]
    fn legal_actions_array<'py>(&self, py: Python<'py>, mode: &str) -> PyResult<Bound<'py, PyDict>> {
        let mut buf = Vec::new();
        if self.0.phase == Phase::Play {
            self.0.play.moves(mode_arg(mode)?, &mut buf);
        }
        let d = super::cards::moves_to_dict(py, &buf)?;
        d.set_item("can_pass", self.0.phase == Phase::Play && self.0.play.can_pass())?;
        Ok(d)
    }

    /// Applies the current player's action; an illegal one raises and changes nothing.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let a = action_arg(action, &self.0)?;
        Ok(self.0.apply(a)?)
    }

    /// Starts the next deal (or game) after 'deal_over' / 'game_over'.
    #[pyo3(signature = (hands = None, leader = None))]
    fn next_deal(&mut self, hands: Option<&Bound<'_, PyAny>>, leader: Option<i64>) -> PyResult<()> {
        let leader = leader.map(|l| seat_arg(l, "leader")).transpose()?;
        let hands = hands.map(hands_arg).transpose()?;
        Ok(self.0.next_deal(hands, leader)?)
    }

    /// What `seat` may know (§8).
    fn observation(&self, seat: i64) -> PyResult<PyObservation> {
        let seat = seat_arg(seat, "seat")?;
        Ok(PyObservation(self.0.observation(seat)))
    }

    /// An independent copy (cheap).
    fn clone(&self) -> Self {
        self.clone_inner()
    }
    fn __copy__(&self) -> Self {
        self.clone_inner()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone_inner()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let g = &slf.borrow().0;
        let origin = match &g.origin {
            Origin::Seed { seed, hands, leader, levels } => {
                let h = hands.map(|h| h.map(|x| x.to_string()));
                let lv = levels.map(|l| (l.levels[0], l.levels[1], l.a_fails[0], l.a_fails[1], l.declarer));
                (0u8, *seed, h.map(|h| h.to_vec()), *leader, String::new(), lv).into_pyobject(py)?.into_any()
            }
            Origin::Setup(s) => (1u8, 0u64, None::<Vec<String>>, None::<u8>, crate::game::position::to_text(s), None::<(u8, u8, u8, u8, Option<u8>)>)
                .into_pyobject(py)?
                .into_any(),
        };
        let mut log = Vec::new();
        for e in &g.log {
            log.push(match e {
                LogEntry::Act(a) => log_entry(py, a)?,
                LogEntry::NextDeal(h, l) => ("next", h.map(|h| h.map(|x| x.to_string()).to_vec()), *l).into_pyobject(py)?.into_any(),
            });
        }
        let rules = Bound::new(py, PyRules(g.rules))?;
        let f = py.import("guandan_fast._core")?.getattr("_rebuild_game")?;
        Ok((f, PyTuple::new(py, [rules.into_any(), origin, PyList::new(py, log)?.into_any()])?))
    }

    fn __repr__(&self) -> String {
        format!("Game.from_position('{}')", crate::game::position::to_position(&self.0))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }
}

impl PyGame {
    fn clone_inner(&self) -> Self {
        PyGame(self.0.clone())
    }
}

pub(crate) fn log_entry<'py>(py: Python<'py>, a: &Action) -> PyResult<Bound<'py, PyAny>> {
    Ok(match a {
        Action::Play(m) => ("play", m.cards.to_string(), m.combo.kind as u8, m.combo.rank, m.combo.suit, m.wild).into_pyobject(py)?.into_any(),
        Action::Pass => ("pass",).into_pyobject(py)?.into_any(),
        Action::Tribute(c) => ("tribute", c.index()).into_pyobject(py)?.into_any(),
        Action::Return(c) => ("return", c.index()).into_pyobject(py)?.into_any(),
    })
}

/// What is wrong with a pickled Game.
fn bad_pickle(what: impl std::fmt::Display) -> PyErr {
    InvalidStateError::new_err(format!("bad Game pickle: {what}"))
}

/// Item `i` of a pickled tuple, converted.
fn item<'py, T: for<'a> FromPyObject<'a, 'py>>(t: &Bound<'py, PyTuple>, i: usize, what: &str) -> PyResult<T> {
    let x = t.get_item(i).map_err(|_| bad_pickle(format!("{what} is missing")))?;
    x.extract().map_err(|_| bad_pickle(format!("{what} is {}", short_repr(&x))))
}

/// A repr of `x` cut to a readable length.
fn short_repr(x: &Bound<'_, PyAny>) -> String {
    let r = x.repr().map(|r| r.to_string()).unwrap_or_else(|_| "an object without repr".into());
    match r.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &r[..cut]),
        None => r,
    }
}

fn pickled_hands(h: Option<Vec<String>>) -> PyResult<Option<[CardSet; 4]>> {
    let Some(v) = h else { return Ok(None) };
    let [a, b, c, d] = &v[..] else { return Err(bad_pickle(format!("{} hands instead of 4", v.len()))) };
    Ok(Some([CardSet::parse(a)?, CardSet::parse(b)?, CardSet::parse(c)?, CardSet::parse(d)?]))
}

/// One entry of a pickled log.
pub(crate) fn parse_log_entry(e: &Bound<'_, PyAny>) -> PyResult<LogEntry> {
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
        _ => LogEntry::NextDeal(pickled_hands(item(t, 1, "next deal hands")?)?, item(t, 2, "next deal leader")?),
    })
}

/// Unpickles a Game (used by `Game.__reduce__`): `(rules, origin, log)`,
/// every part checked.
#[pyfunction]
#[pyo3(signature = (*args))]
pub(crate) fn _rebuild_game(args: &Bound<'_, PyTuple>) -> PyResult<PyGame> {
    if args.len() != 3 {
        return Err(bad_pickle(format!("{} arguments instead of (rules, origin, log)", args.len())));
    }
    let rules = args.get_item(0)?;
    let rules = rules.cast::<PyRules>().map_err(|_| bad_pickle(format!("rules {} is not a Rules", short_repr(&rules))))?.borrow().0;
    let origin = args.get_item(1)?;
    let origin = origin.cast::<PyTuple>().map_err(|_| bad_pickle(format!("origin {} is not a tuple", short_repr(&origin))))?;
    if origin.len() != 6 {
        return Err(bad_pickle(format!("origin has {} items, not 6", origin.len())));
    }
    let origin = match item::<u8>(origin, 0, "origin tag")? {
        0 => {
            let lv: Option<(u8, u8, u8, u8, Option<u8>)> = item(origin, 5, "origin levels")?;
            let levels = lv.map(|(a, b, fa, fb, d)| LevelState { levels: [a, b], a_fails: [fa, fb], declarer: d });
            Origin::Seed {
                seed: item(origin, 1, "origin seed")?,
                hands: pickled_hands(item(origin, 2, "origin hands")?)?,
                leader: item(origin, 3, "origin leader")?,
                levels,
            }
        }
        1 => Origin::Setup(Box::new(crate::game::position::parse(&item::<String>(origin, 4, "origin position")?)?)),
        x => return Err(bad_pickle(format!("origin tag {x} is not 0 or 1"))),
    };
    let log = args.get_item(2)?;
    let log = log.cast::<PyList>().map_err(|_| bad_pickle(format!("log {} is not a list", short_repr(&log))))?;
    let entries: Vec<LogEntry> = log.iter().map(|e| parse_log_entry(&e)).collect::<PyResult<_>>()?;
    Ok(PyGame(Game::rebuild(rules, &origin, &entries)?))
}
