//! Python classes and functions of rules, games, observations and simulation.

use super::*;
use crate::card::{rank_text, RANK_A};
use crate::cardset::CardSet;
use crate::game::{Action, Game, LogEntry, Origin, Phase};
use crate::levels::{LevelState, Settlement};
use crate::observe;
use crate::policy::Policy;
use crate::rules::{APass, Rules};
use crate::simulate as sim;
use crate::tribute::{self, TributeKind};
use numpy::ndarray::Array2;
use numpy::IntoPyArray;
use pyo3::types::{PyDict, PyList, PyTuple};

fn rank_or_none(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<u8>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => level_arg(o).map(Some).map_err(|e| InvalidRulesError::new_err(format!("{what}: {e}"))),
    }
}

// ---------------------------------------------------------------- Rules

/// A rank given as text (`"T"`, `"10"`) or a face value 2..=14.
#[derive(FromPyObject)]
pub(crate) enum RankArg {
    Text(String),
    Int(i64),
}

/// Every rule option on which the rule books differ, with the marked defaults.
#[pyclass(module = "guandan_fast._core", name = "Rules", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyRules(pub Rules);

pub(crate) fn rules_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
    match obj {
        None => Ok(Rules::default()),
        Some(o) if o.is_none() => Ok(Rules::default()),
        Some(o) => Ok(o
            .extract::<PyRef<'_, PyRules>>()
            .map_err(|_| InvalidRulesError::new_err("rules must be a Rules object or None"))?
            .0),
    }
}

#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (*, upgrade = None, a_pass = "partner_not_last", a_max_attempts = Some(3), a_fail_reset = None,
        return_max_rank = Some(RankArg::Text("T".to_string())), joker_pair_in_full_house = true, best_of = 1, max_deals = None, sudden_death = false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        upgrade: Option<&Bound<'_, PyAny>>,
        a_pass: &str,
        a_max_attempts: Option<i64>,
        a_fail_reset: Option<&Bound<'_, PyAny>>,
        return_max_rank: Option<RankArg>,
        joker_pair_in_full_house: bool,
        best_of: i64,
        max_deals: Option<i64>,
        sudden_death: bool,
    ) -> PyResult<Self> {
        let mut r = Rules::default();
        if let Some(u) = upgrade {
            let d = u.cast::<PyDict>().map_err(|_| InvalidRulesError::new_err("upgrade must be a dict {2: gain, 3: gain, 4: gain}"))?;
            if d.len() != 3 {
                return Err(InvalidRulesError::new_err("upgrade must give the gain for partner places 2, 3 and 4"));
            }
            for (k, v) in d.iter() {
                let k: i64 = k.extract().map_err(|_| InvalidRulesError::new_err("upgrade keys must be the places 2, 3, 4"))?;
                let v: i64 = v.extract().map_err(|_| InvalidRulesError::new_err("upgrade gains must be integers"))?;
                if !(2..=4).contains(&k) {
                    return Err(InvalidRulesError::new_err(format!("upgrade key {k} is not a place 2..4")));
                }
                if !(1..=12).contains(&v) {
                    return Err(InvalidRulesError::new_err(format!("upgrade gain {v} is not 1..12")));
                }
                r.upgrade[(k - 2) as usize] = v as u8;
            }
        }
        r.a_pass = match a_pass {
            "partner_not_last" => APass::PartnerNotLast,
            "double_down" => APass::DoubleDown,
            x => return Err(InvalidRulesError::new_err(format!("a_pass must be 'partner_not_last' or 'double_down', not {x:?}"))),
        };
        r.a_max_attempts = match a_max_attempts {
            None => None,
            Some(n) if (1..=255).contains(&n) => Some(n as u8),
            Some(n) => return Err(InvalidRulesError::new_err(format!("a_max_attempts must be 1..255 or None, not {n}"))),
        };
        if let Some(x) = rank_or_none(a_fail_reset, "a_fail_reset")? {
            r.a_fail_reset = x;
        }
        r.return_max_rank = match return_max_rank {
            None => None,
            Some(RankArg::Text(t)) => Some(card::parse_level(&t).map_err(|e| InvalidRulesError::new_err(format!("return_max_rank: {e}")))?),
            Some(RankArg::Int(v)) if (2..=14).contains(&v) => Some((v - 2) as u8),
            Some(RankArg::Int(v)) => return Err(InvalidRulesError::new_err(format!("return_max_rank {v} is not in 2..14 (A = 14)"))),
        };
        r.joker_pair_in_full_house = joker_pair_in_full_house;
        if !(1..=255).contains(&best_of) {
            return Err(InvalidRulesError::new_err(format!("best_of must be an odd number of games, not {best_of}")));
        }
        r.best_of = best_of as u8;
        r.max_deals = match max_deals {
            None => None,
            Some(n) if n >= 1 && n <= u32::MAX as i64 => Some(n as u32),
            Some(n) => return Err(InvalidRulesError::new_err(format!("max_deals must be at least 1 or None, not {n}"))),
        };
        r.sudden_death = sudden_death;
        r.validate()?;
        Ok(PyRules(r))
    }

    #[getter]
    fn upgrade<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (i, g) in self.0.upgrade.iter().enumerate() {
            d.set_item(i + 2, g)?;
        }
        Ok(d)
    }
    #[getter]
    fn a_pass(&self) -> &'static str {
        match self.0.a_pass {
            APass::PartnerNotLast => "partner_not_last",
            APass::DoubleDown => "double_down",
        }
    }
    #[getter]
    fn a_max_attempts(&self) -> Option<u8> {
        self.0.a_max_attempts
    }
    #[getter]
    fn a_fail_reset(&self) -> &'static str {
        rank_text(self.0.a_fail_reset)
    }
    #[getter]
    fn return_max_rank(&self) -> Option<&'static str> {
        self.0.return_max_rank.map(rank_text)
    }
    #[getter]
    fn joker_pair_in_full_house(&self) -> bool {
        self.0.joker_pair_in_full_house
    }
    #[getter]
    fn best_of(&self) -> u8 {
        self.0.best_of
    }
    #[getter]
    fn max_deals(&self) -> Option<u32> {
        self.0.max_deals
    }
    #[getter]
    fn sudden_death(&self) -> bool {
        self.0.sudden_death
    }

    /// The options as keyword arguments of `Rules(...)`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("upgrade", self.upgrade(py)?)?;
        d.set_item("a_pass", self.a_pass())?;
        d.set_item("a_max_attempts", self.0.a_max_attempts)?;
        d.set_item("a_fail_reset", self.a_fail_reset())?;
        d.set_item("return_max_rank", self.return_max_rank())?;
        d.set_item("joker_pair_in_full_house", self.0.joker_pair_in_full_house)?;
        d.set_item("best_of", self.0.best_of)?;
        d.set_item("max_deals", self.0.max_deals)?;
        d.set_item("sudden_death", self.0.sudden_death)?;
        Ok(d)
    }

    fn __getnewargs_ex__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        Ok((PyTuple::empty(py), self.to_dict(py)?))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let d = self.to_dict(py)?;
        let mut parts = Vec::new();
        for (k, v) in d.iter() {
            parts.push(format!("{}={}", k.str()?, v.repr()?));
        }
        Ok(format!("Rules({})", parts.join(", ")))
    }
}

// ---------------------------------------------------------------- actions

/// Passing (过). `PASS` is its one instance; all passes are equal.
#[pyclass(module = "guandan_fast._core", name = "Pass", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyPass;

#[pymethods]
impl PyPass {
    #[new]
    fn new() -> Self {
        PyPass
    }
    fn __repr__(&self) -> &'static str {
        "PASS"
    }
    fn __getnewargs__<'py>(&self, py: Python<'py>) -> Bound<'py, PyTuple> {
        PyTuple::empty(py)
    }
}

/// Paying `card` as tribute (进贡).
#[pyclass(module = "guandan_fast._core", name = "Tribute", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyTribute(pub Card);

#[pymethods]
impl PyTribute {
    #[new]
    fn new(card: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyTribute(card_arg(card)?))
    }
    #[getter]
    fn card(&self) -> PyCard {
        PyCard(self.0)
    }
    fn __repr__(&self) -> String {
        format!("Tribute('{}')", self.0)
    }
    fn __getnewargs__(&self) -> (String,) {
        (self.0.to_string(),)
    }
}

/// Returning `card` to the tribute giver (还贡).
#[pyclass(module = "guandan_fast._core", name = "Return", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyReturn(pub Card);

#[pymethods]
impl PyReturn {
    #[new]
    fn new(card: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyReturn(card_arg(card)?))
    }
    #[getter]
    fn card(&self) -> PyCard {
        PyCard(self.0)
    }
    fn __repr__(&self) -> String {
        format!("Return('{}')", self.0)
    }
    fn __getnewargs__(&self) -> (String,) {
        (self.0.to_string(),)
    }
}

pub(crate) fn action_to_py<'py>(py: Python<'py>, a: Action, level: u8) -> PyResult<Bound<'py, PyAny>> {
    Ok(match a {
        Action::Play(mv) => Bound::new(py, PyCombo { mv, level })?.into_any(),
        Action::Pass => Bound::new(py, PyPass)?.into_any(),
        Action::Tribute(c) => Bound::new(py, PyTribute(c))?.into_any(),
        Action::Return(c) => Bound::new(py, PyReturn(c))?.into_any(),
    })
}

/// An action from Python: a Combo, PASS (or None / "pass"), Tribute, Return,
/// or in the tribute and return phases a bare card.
pub(crate) fn action_arg(obj: &Bound<'_, PyAny>, g: &Game) -> PyResult<Action> {
    if let Ok(c) = obj.extract::<PyRef<'_, PyCombo>>() {
        if c.level != g.play.level {
            return Err(IllegalMoveError::new_err(format!(
                "the play was declared at level {} but this deal is played at {}",
                rank_text(c.level),
                rank_text(g.play.level)
            )));
        }
        return Ok(Action::Play(c.mv));
    }
    if obj.extract::<PyRef<'_, PyPass>>().is_ok() || obj.is_none() {
        return Ok(Action::Pass);
    }
    if let Ok(s) = obj.extract::<String>() {
        if s.eq_ignore_ascii_case("pass") {
            return Ok(Action::Pass);
        }
    }
    if let Ok(t) = obj.extract::<PyRef<'_, PyTribute>>() {
        return Ok(Action::Tribute(t.0));
    }
    if let Ok(t) = obj.extract::<PyRef<'_, PyReturn>>() {
        return Ok(Action::Return(t.0));
    }
    match g.phase {
        Phase::Tribute => Ok(Action::Tribute(card_arg(obj)?)),
        Phase::Return => Ok(Action::Return(card_arg(obj)?)),
        _ => Err(IllegalMoveError::new_err(format!(
            "an action is a Combo (from legal_actions or Combo(cards, level=...)), PASS, Tribute(card) or Return(card), not {}",
            obj.repr()?
        ))),
    }
}

// ---------------------------------------------------------------- results

fn settlement_dict<'py>(py: Python<'py>, s: &Settlement) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("winner", s.winner)?;
    d.set_item("partner_place", s.partner_place)?;
    d.set_item("gain", s.gain)?;
    d.set_item("a_failed", s.a_failed)?;
    d.set_item("a_reset", s.a_reset)?;
    d.set_item("levels", (rank_text(s.after.levels[0]), rank_text(s.after.levels[1])))?;
    d.set_item("a_fails", (s.after.a_fails[0], s.after.a_fails[1]))?;
    d.set_item("declarer", s.after.declarer)?;
    d.set_item("game_winner", s.game_winner)?;
    Ok(d)
}

fn seats_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<[u8; 4]> {
    let v: Vec<i64> = obj.extract().map_err(|_| InvalidStateError::new_err(format!("{what} must be 4 seats")))?;
    let mut sorted = v.clone();
    sorted.sort();
    if sorted != [0, 1, 2, 3] {
        return Err(InvalidStateError::new_err(format!("{what} must be the seats 0..3 each once, got {v:?}")));
    }
    Ok([v[0] as u8, v[1] as u8, v[2] as u8, v[3] as u8])
}

/// Levels after a deal finished in `finish_order` (§7).
#[pyfunction]
#[pyo3(signature = (finish_order, *, levels = None, a_fails = (0, 0), declarer = None, rules = None))]
fn settle_deal<'py>(
    py: Python<'py>,
    finish_order: &Bound<'py, PyAny>,
    levels: Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>,
    a_fails: (u8, u8),
    declarer: Option<i64>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let declarer = match declarer {
        None => None,
        Some(d) if d == 0 || d == 1 => Some(d as u8),
        Some(d) => return Err(InvalidArgumentError::new_err(format!("declarer {d} is not a team 0, 1 or None"))),
    };
    let rules = rules_arg(rules)?;
    let finish = seats_arg(finish_order, "finish_order")?;
    let lv = match levels {
        None => [0, 0],
        Some((a, b)) => [level_arg(&a)?, level_arg(&b)?],
    };
    if declarer.is_some_and(|d| d > 1) {
        return Err(InvalidStateError::new_err("declarer must be team 0, 1 or None"));
    }
    let st = LevelState { levels: lv, a_fails: [a_fails.0, a_fails.1], declarer };
    settlement_dict(py, &st.settle(finish, &rules))
}

fn hands_arg(obj: &Bound<'_, PyAny>) -> PyResult<[CardSet; 4]> {
    let v: Vec<Bound<'_, PyAny>> = obj.try_iter()?.collect::<PyResult<_>>()?;
    if v.len() != 4 {
        return Err(InvalidStateError::new_err(format!("expected 4 hands, got {}", v.len())));
    }
    Ok([cards_arg(&v[0])?, cards_arg(&v[1])?, cards_arg(&v[2])?, cards_arg(&v[3])?])
}

/// The tribute that opens a deal (§6): kind, payments, cards each giver may pay, leader.
#[pyfunction]
#[pyo3(signature = (hands, prev_finish, level, *, rules = None))]
fn tribute_plan<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    prev_finish: &Bound<'py, PyAny>,
    level: &Bound<'py, PyAny>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let _ = rules_arg(rules)?;
    let hands = hands_arg(hands)?;
    let prev = seats_arg(prev_finish, "prev_finish")?;
    let l = level_arg(level)?;
    let plan = tribute::plan(prev, &hands);
    let d = PyDict::new(py);
    d.set_item("kind", plan.kind.name())?;
    let options = PyDict::new(py);
    let mut payments = Vec::new();
    let mut leader = plan.leader;
    match plan.kind {
        TributeKind::Single => {
            payments.push((plan.givers[0], prev[0]));
            leader = plan.givers[0];
        }
        TributeKind::Double => {
            let best = |s: u8| tribute::tribute_options(hands[s as usize], l).first().copied();
            let (g0, g1) = (best(plan.givers[0]), best(plan.givers[1]));
            match (g0, g1) {
                (Some(a), Some(b)) => {
                    let (r0, r1, ld) = tribute::assign_double(prev, [a, b], l);
                    payments.push((plan.givers[0], r0));
                    payments.push((plan.givers[1], r1));
                    leader = ld;
                }
                _ => return Err(InvalidStateError::new_err("a giver holds nothing it could pay")),
            }
        }
        _ => {}
    }
    for &(g, _) in &payments {
        let opts: Vec<PyCard> = tribute::tribute_options(hands[g as usize], l).into_iter().map(PyCard).collect();
        options.set_item(g, opts)?;
    }
    d.set_item("payments", payments)?;
    d.set_item("options", options)?;
    d.set_item("leader", leader)?;
    Ok(d)
}

/// The cards a receiver holding `hand` may return at `level` (§6).
#[pyfunction]
#[pyo3(signature = (hand, level, *, rules = None))]
fn return_options(hand: &Bound<'_, PyAny>, level: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<PyCard>> {
    let rules = rules_arg(rules)?;
    Ok(tribute::return_options(cards_arg(hand)?, level_arg(level)?, &rules).into_iter().map(PyCard).collect())
}

// ---------------------------------------------------------------- Game

/// A match of Guandan: deals, tribute, tricks, levels and games.
#[pyclass(module = "guandan_fast._core", name = "Game")]
#[derive(Clone)]
pub struct PyGame(pub Game);

fn tribute_dict<'py>(py: Python<'py>, g: &Game) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(t) = &g.tribute else { return Ok(None) };
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

fn history_list<'py>(py: Python<'py>, h: &[(u8, Action)], level: u8) -> PyResult<Bound<'py, PyList>> {
    let items: Vec<Bound<'py, PyTuple>> = h
        .iter()
        .map(|&(s, a)| Ok(PyTuple::new(py, [s.into_pyobject(py)?.into_any(), action_to_py(py, a, level)?])?))
        .collect::<PyResult<_>>()?;
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

    /// Rebuilds a seeded match from its actions (starting each next deal when one ends).
    #[staticmethod]
    #[pyo3(signature = (actions, *, seed = 0, rules = None))]
    fn replay(actions: &Bound<'_, PyAny>, seed: i128, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let seed = seed_arg(seed)?;
        let rules = rules_arg(rules)?;
        let mut g = Game::new(rules, seed)?;
        for (i, item) in actions.try_iter()?.enumerate() {
            let item = item?;
            let a = match item.cast::<PyTuple>() {
                Ok(t) if t.len() == 2 => t.get_item(1)?,
                _ => item,
            };
            if matches!(g.phase, Phase::DealOver | Phase::GameOver) {
                g.next_deal(None, None)?;
            }
            let act = action_arg(&a, &g)?;
            g.apply(act).map_err(|e| IllegalMoveError::new_err(format!("action {i}: {e}")))?;
        }
        Ok(PyGame(g))
    }

    /// Restores a position string (see `position()`); the history starts there.
    #[staticmethod]
    #[pyo3(signature = (text, rules = None))]
    fn from_position(text: &str, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(PyGame(crate::position::from_position(text, rules_arg(rules)?)?))
    }

    /// The compact position string of the current state (no history).
    fn position(&self) -> String {
        crate::position::to_position(&self.0)
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
        tribute_dict(py, &self.0)
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
        Ok(PyObservation { g: self.0.clone(), seat })
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
            Origin::Position(p) => (1u8, 0u64, None::<Vec<String>>, None::<u8>, p.clone(), None::<(u8, u8, u8, u8, Option<u8>)>)
                .into_pyobject(py)?
                .into_any(),
        };
        let mut log = Vec::new();
        for e in &g.log {
            log.push(match e {
                LogEntry::Act(a) => log_entry(py, a)?,
                LogEntry::NextDeal(h, l) => {
                    ("next", h.map(|h| h.map(|x| x.to_string()).to_vec()), *l).into_pyobject(py)?.into_any()
                }
            });
        }
        let rules = Bound::new(py, PyRules(g.rules))?;
        let f = py.import("guandan_fast._core")?.getattr("_rebuild_game")?;
        Ok((f, PyTuple::new(py, [rules.into_any(), origin, PyList::new(py, log)?.into_any()])?))
    }

    fn __repr__(&self) -> String {
        format!("Game.from_position('{}')", crate::position::to_position(&self.0))
    }

    fn __str__(&self) -> String {
        table(&self.0)
    }
}

impl PyGame {
    fn clone_inner(&self) -> Self {
        PyGame(self.0.clone())
    }
}

fn log_entry<'py>(py: Python<'py>, a: &Action) -> PyResult<Bound<'py, PyAny>> {
    Ok(match a {
        Action::Play(m) => ("play", m.cards.to_string(), m.combo.kind as u8, m.combo.rank, m.combo.suit, m.wild).into_pyobject(py)?.into_any(),
        Action::Pass => ("pass",).into_pyobject(py)?.into_any(),
        Action::Tribute(c) => ("tribute", c.index()).into_pyobject(py)?.into_any(),
        Action::Return(c) => ("return", c.index()).into_pyobject(py)?.into_any(),
    })
}

fn parse_log_entry(e: &Bound<'_, PyAny>) -> PyResult<LogEntry> {
    let t = e.cast::<PyTuple>()?;
    let tag: String = t.get_item(0)?.extract()?;
    Ok(match tag.as_str() {
        "play" => {
            let cards = CardSet::parse(&t.get_item(1)?.extract::<String>()?)?;
            let kind = crate::combo::Kind::from_code(t.get_item(2)?.extract()?).ok_or_else(|| InvalidStateError::new_err("bad kind"))?;
            let combo = crate::combo::Combo { kind, rank: t.get_item(3)?.extract()?, size: cards.len() as u8, suit: t.get_item(4)?.extract()? };
            LogEntry::Act(Action::Play(crate::moves::Move { cards, combo, wild: t.get_item(5)?.extract()? }))
        }
        "pass" => LogEntry::Act(Action::Pass),
        "tribute" => LogEntry::Act(Action::Tribute(Card::from_index(t.get_item(1)?.extract()?)?)),
        "return" => LogEntry::Act(Action::Return(Card::from_index(t.get_item(1)?.extract()?)?)),
        "next" => {
            let h: Option<Vec<String>> = t.get_item(1)?.extract()?;
            let hands = match h {
                None => None,
                Some(v) => Some([CardSet::parse(&v[0])?, CardSet::parse(&v[1])?, CardSet::parse(&v[2])?, CardSet::parse(&v[3])?]),
            };
            LogEntry::NextDeal(hands, t.get_item(2)?.extract()?)
        }
        x => return Err(InvalidStateError::new_err(format!("bad log entry {x:?}"))),
    })
}

/// Unpickles a Game (used by `Game.__reduce__`).
#[pyfunction]
fn _rebuild_game(rules: PyRef<'_, PyRules>, origin: &Bound<'_, PyTuple>, log: &Bound<'_, PyList>) -> PyResult<PyGame> {
    let tag: u8 = origin.get_item(0)?.extract()?;
    let origin = if tag == 0 {
        let h: Option<Vec<String>> = origin.get_item(2)?.extract()?;
        let hands = match h {
            None => None,
            Some(v) => Some([CardSet::parse(&v[0])?, CardSet::parse(&v[1])?, CardSet::parse(&v[2])?, CardSet::parse(&v[3])?]),
        };
        let lv: Option<(u8, u8, u8, u8, Option<u8>)> = origin.get_item(5)?.extract()?;
        let levels = lv.map(|(a, b, fa, fb, d)| LevelState { levels: [a, b], a_fails: [fa, fb], declarer: d });
        Origin::Seed { seed: origin.get_item(1)?.extract()?, hands, leader: origin.get_item(3)?.extract()?, levels }
    } else {
        Origin::Position(origin.get_item(4)?.extract()?)
    };
    let entries: Vec<LogEntry> = log.iter().map(|e| parse_log_entry(&e)).collect::<PyResult<_>>()?;
    Ok(PyGame(Game::rebuild(rules.0, &origin, &entries)?))
}

const SEAT_NAMES: [&str; 4] = ["S0", "S1", "S2", "S3"];

fn pretty(c: CardSet, level: u8) -> String {
    let mut v = c.cards();
    v.sort_by_key(|x| (crate::combo::rank_value(x.rank(), level), x.index()));
    v.iter()
        .map(|x| match x.suit() {
            None => x.to_string(),
            Some(s) => format!("{}{}", crate::card::RANK_CHARS[x.rank() as usize], ['♥', '♠', '♣', '♦'][s as usize]),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A readable Unicode table of the game.
fn table(g: &Game) -> String {
    let p = &g.play;
    let mut s = format!(
        "Guandan — game {}, deal {}, level {} — levels {}:{} — phase {}\n",
        g.game_number + 1,
        g.deal_number + 1 - matches!(g.phase, Phase::DealOver | Phase::GameOver | Phase::MatchOver) as u32,
        rank_text(p.level),
        rank_text(g.lv.levels[0]),
        rank_text(g.lv.levels[1]),
        g.phase.name()
    );
    for seat in 0..4u8 {
        let mark = if g.current_player() == Some(seat) { "▶" } else { " " };
        let out = p.finish[..p.n_out as usize].iter().position(|&x| x == seat).map_or(String::new(), |i| format!(" (out #{})", i + 1));
        s += &format!("{mark} {} team {} [{:>2}]{}: {}\n", SEAT_NAMES[seat as usize], seat % 2, p.hands[seat as usize].len(), out, pretty(p.hands[seat as usize], p.level));
    }
    if let Some(t) = p.top {
        s += &format!("  to beat: {} by {} ({})\n", pretty(t.cards, p.level), SEAT_NAMES[p.top_seat as usize], t.combo);
    }
    s
}

// ---------------------------------------------------------------- Observation

/// What one seat may know (§8): its hand and everything public.
#[pyclass(module = "guandan_fast._core", name = "Observation", frozen)]
pub struct PyObservation {
    pub g: Game,
    pub seat: u8,
}

#[pymethods]
impl PyObservation {
    #[getter]
    fn seat(&self) -> u8 {
        self.seat
    }
    /// The seat's own cards.
    #[getter]
    fn hand(&self) -> PyHand {
        PyHand(self.g.play.hands[self.seat as usize])
    }
    #[getter]
    fn hand_sizes(&self) -> (u32, u32, u32, u32) {
        let h = self.g.play.hands;
        (h[0].len(), h[1].len(), h[2].len(), h[3].len())
    }
    #[getter]
    fn level(&self) -> &'static str {
        rank_text(self.g.play.level)
    }
    #[getter]
    fn levels(&self) -> (&'static str, &'static str) {
        (rank_text(self.g.lv.levels[0]), rank_text(self.g.lv.levels[1]))
    }
    #[getter]
    fn a_fails(&self) -> (u8, u8) {
        (self.g.lv.a_fails[0], self.g.lv.a_fails[1])
    }
    #[getter]
    fn declarer(&self) -> Option<u8> {
        self.g.lv.declarer
    }
    #[getter]
    fn phase(&self) -> &'static str {
        self.g.phase.name()
    }
    #[getter]
    fn current_player(&self) -> Option<u8> {
        self.g.current_player()
    }
    #[getter]
    fn top(&self) -> Option<PyCombo> {
        self.g.play.top.map(|mv| PyCombo { mv, level: self.g.play.level })
    }
    #[getter]
    fn top_seat(&self) -> Option<u8> {
        self.g.play.top.map(|_| self.g.play.top_seat)
    }
    #[getter]
    fn finish_order(&self) -> Vec<u32> {
        self.g.play.finish[..self.g.play.n_out as usize].iter().map(|&s| s as u32).collect()
    }
    /// Public plays and passes of this deal, with tribute and return cards.
    #[getter]
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        history_list(py, &self.g.history, self.g.play.level)
    }
    #[getter]
    fn tribute<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        tribute_dict(py, &self.g)
    }
    /// Cards each seat has played this deal.
    #[getter]
    fn played(&self) -> (PyHand, PyHand, PyHand, PyHand) {
        let k = observe::knowledge(&self.g).played;
        (PyHand(k[0]), PyHand(k[1]), PyHand(k[2]), PyHand(k[3]))
    }
    /// Cards known to be in each seat's hand (tribute / return cards not played since); own seat: its hand.
    #[getter]
    fn known(&self) -> (PyHand, PyHand, PyHand, PyHand) {
        let mut k = observe::knowledge(&self.g).known;
        k[self.seat as usize] = self.g.play.hands[self.seat as usize];
        (PyHand(k[0]), PyHand(k[1]), PyHand(k[2]), PyHand(k[3]))
    }
    /// Per seat, the §2 strength above which a tribute giver holds no other non-wildcard card (or None).
    #[getter]
    fn tribute_caps(&self) -> (Option<u8>, Option<u8>, Option<u8>, Option<u8>) {
        let c = observe::knowledge(&self.g).caps;
        (c[0], c[1], c[2], c[3])
    }
    /// Cards this seat cannot see: neither in its hand nor played.
    #[getter]
    fn unseen(&self) -> PyHand {
        // In a hand-made deal of fewer than 108 cards this includes the cards
        // dealt to nobody; the sampler (sample_hands, evaluate) treats those as out of play.
        let k = observe::knowledge(&self.g);
        let mut u = CardSet::FULL_DECK.minus(self.g.play.hands[self.seat as usize]);
        for p in k.played {
            if u.contains(p) {
                u = u.minus(p);
            }
        }
        PyHand(u)
    }
    fn __repr__(&self) -> String {
        format!("<Observation seat={} phase={} level={}>", self.seat, self.g.phase.name(), rank_text(self.g.play.level))
    }
}

// ---------------------------------------------------------------- simulate

/// Plays `n` deals (or games) with built-in policies in Rust, on `threads`
/// threads (0: all cores), without the GIL; returns numpy arrays. Item `i`
/// is item `start + i` of the stream seeded by `seed`, so chunks of a long
/// run give the same result as the whole run.
#[pyfunction]
#[pyo3(signature = (n, *, seed = 0, start = 0, threads = 0, rules = None, unit = "deal", policy = None, mode = "pattern"))]
#[allow(clippy::too_many_arguments)]
fn simulate<'py>(
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
    let one = |s: &str| Policy::from_name(s).ok_or_else(|| InvalidArgumentError::new_err(format!("unknown policy {s:?} (known: random, greedy, mc, mc:N, mc-random:N)")));
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
fn evaluate<'py>(
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
    let g: Game = if let Ok(g) = state.extract::<PyRef<'_, PyGame>>() {
        g.0.clone()
    } else if let Ok(o) = state.extract::<PyRef<'_, PyObservation>>() {
        if o.g.current_player() != Some(o.seat) {
            return Err(IllegalMoveError::new_err(format!("the observation is seat {}'s but seat {:?} is to move", o.seat, o.g.current_player())));
        }
        o.g.clone()
    } else {
        return Err(InvalidArgumentError::new_err("state must be a Game or an Observation"));
    };
    let mode = mode_arg(mode)?;
    let policies = match policy {
        None => [Policy::Random; 4],
        Some(p) => policies_arg(p)?,
    };
    if g.phase != Phase::Play {
        return Err(IllegalMoveError::new_err(format!("evaluate needs the play phase, not {}", g.phase.name())));
    }
    let mut moves = Vec::new();
    g.play.moves(mode, &mut moves);
    let mut acts: Vec<Option<crate::moves::Move>> = Vec::new();
    if g.play.can_pass() {
        acts.push(None);
    }
    acts.extend(moves.iter().map(|&m| Some(m)));
    let stats = py.detach(|| crate::montecarlo::evaluate(&g, &acts, playouts, seed, threads, &policies, mode))?;
    let level = g.play.level;
    let to_action = |a: &Option<crate::moves::Move>| match a {
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
fn sample_hands<'py>(py: Python<'py>, observation: PyRef<'py, PyObservation>, n: usize, seed: i128) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
        let seed = seed_arg(seed)?;
    let c = crate::montecarlo::constraints_for(&observation.g, observation.seat);
    let sampler = crate::sample::Sampler::new(&c)?;
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
fn policy_action<'py>(py: Python<'py>, game: PyRef<'py, PyGame>, policy: &str, seed: i128, mode: &str) -> PyResult<Bound<'py, PyAny>> {
    let seed = seed_arg(seed)?;
    let g = &game.0;
    let p = Policy::from_name(policy).ok_or_else(|| InvalidArgumentError::new_err(format!("unknown policy {policy:?} (known: random, greedy, mc, mc:N, mc-random:N)")))?;
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
                    Action::Tribute(c) | Action::Return(c) => (crate::combo::rank_value(c.rank(), level), c.index()),
                    _ => (0, 0),
                };
                *acts.iter().min_by_key(|a| strength(a)).unwrap()
            }
        }
        ph => return Err(IllegalMoveError::new_err(format!("no action is expected in the {} phase", ph.name()))),
    };
    action_to_py(py, action, level)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(policy_action, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(sample_hands, m)?)?;
    m.add_class::<PyRules>()?;
    m.add_class::<PyPass>()?;
    m.add_class::<PyTribute>()?;
    m.add_class::<PyReturn>()?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyObservation>()?;
    m.add_function(wrap_pyfunction!(settle_deal, m)?)?;
    m.add_function(wrap_pyfunction!(tribute_plan, m)?)?;
    m.add_function(wrap_pyfunction!(return_options, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(_rebuild_game, m)?)?;
    m.add("PASS", PyPass)?;
    let _ = RANK_A;
    Ok(())
}
