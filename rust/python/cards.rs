//! Python classes and functions of cards, hands, combinations and legal moves.

use super::*;
use crate::cards::card::{self, Card, NUM_FACES};
use crate::cards::cardset::CardSet;
use crate::movegen::combo::{rank_value, Combo, Kind, KINDS, NO_SUIT};
use crate::movegen::declare::{declare, declare_one, Claim};
use crate::movegen::{self, ComboRules, Move};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::cell::RefCell;

// ---------------------------------------------------------------- Card

/// One card face; the two copies of a face in the two decks are equal.
#[pyclass(module = "guandan_fast._core", name = "Card", frozen, eq, ord, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PyCard(pub Card);

#[pymethods]
impl PyCard {
    #[new]
    fn new(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyCard(card_arg(text)?))
    }

    /// The card with face index `index` (0..53).
    #[staticmethod]
    fn from_index(index: &Bound<'_, PyAny>) -> PyResult<Self> {
        let i = int_arg(index, "index", 0, NUM_FACES as i128 - 1, "a face index in 0..53")
            .map_err(|e| InvalidCardError::new_err(e.value(index.py()).to_string()))?;
        Ok(PyCard(Card::from_index(i as usize)?))
    }

    /// Face index in the documented 54-card order.
    #[getter]
    fn index(&self) -> usize {
        self.0.index()
    }

    /// Rank text: `2`..`9`, `T`, `J`, `Q`, `K`, `A`, `BJ`, `RJ`.
    #[getter]
    fn rank(&self) -> &'static str {
        card::rank_text(self.0.rank())
    }

    /// Suit letter `s`, `h`, `c`, `d`; None for a joker.
    #[getter]
    fn suit(&self) -> Option<&'static str> {
        self.0.suit().map(|s| ["h", "s", "c", "d"][s as usize])
    }

    /// Whether the card is a wildcard (逢人配) at `level`.
    fn is_wildcard(&self, level: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.0.is_wildcard(level_arg(level)?))
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Card('{}')", self.0)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().into_any(), (slf.get().0.to_string(),)))
    }
}

/// Parses whitespace- or comma-separated card text into a list of Cards.
#[pyfunction]
pub(crate) fn parse_cards(text: &Bound<'_, PyAny>) -> PyResult<Vec<PyCard>> {
    let st = text.cast::<PyString>().map_err(|_| InvalidCardError::new_err(format!("text must be card text (a str), not {}", describe(text))))?;
    let s = str_text(st)?;
    Ok(card::parse_card_list(&s).map_err(|e| cards_text_error(e, &s))?.into_iter().map(PyCard).collect())
}

// ---------------------------------------------------------------- Hand

/// An immutable multiset of cards, at most two of each face.
#[pyclass(module = "guandan_fast._core", name = "Hand", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyHand(pub CardSet);

#[pymethods]
impl PyHand {
    #[new]
    #[pyo3(signature = (cards = None))]
    fn new(cards: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(PyHand(match cards {
            None => CardSet::EMPTY,
            Some(c) => cards_arg(c)?,
        }))
    }

    /// A hand from 54 counts 0..2 in face-index order: any sequence of ints,
    /// or a 1-D integer numpy array of any memory layout.
    #[staticmethod]
    fn from_counts(counts: &Bound<'_, PyAny>) -> PyResult<Self> {
        let expected = "54 card counts 0..2 in face-index order";
        let v: Vec<u8> = if let Ok(a) = counts.extract::<PyReadonlyArray1<'_, u8>>() {
            a.as_array().iter().copied().collect()
        } else {
            let items = items_arg(counts, NUM_FACES, "counts", expected).map_err(|e| InvalidCardError::new_err(e.value(counts.py()).to_string()))?;
            items
                .iter()
                .enumerate()
                .map(|(i, x)| match x.int_value() {
                    Some(n) if (0..=255).contains(&n) => Ok(n as u8),
                    _ => Err(InvalidCardError::new_err(format!("counts[{i}] must be a count 0..2, not {}", describe(x)))),
                })
                .collect::<PyResult<_>>()?
        };
        Ok(PyHand(CardSet::from_counts(&v)?))
    }

    fn __len__(&self) -> usize {
        self.0.len() as usize
    }

    fn __contains__(&self, item: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.0.contains(cards_arg(item)?))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let list = PyList::new(py, self.0.cards().into_iter().map(PyCard))?;
        Ok(list.try_iter()?.into_any())
    }

    /// Copies of `card` in the hand (0, 1 or 2).
    fn count(&self, card: &Bound<'_, PyAny>) -> PyResult<u8> {
        Ok(self.0.count(card_arg(card)?))
    }

    /// The 54 counts in face-index order.
    fn counts(&self) -> Vec<u32> {
        self.0.counts().iter().map(|&c| c as u32).collect()
    }

    /// The 54 counts as a numpy uint8 array.
    #[allow(clippy::wrong_self_convention)]
    fn to_array<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.0.counts().to_vec().into_pyarray(py)
    }

    /// The cards from weakest to strongest at `level` (docs/rules.md §2 order; ties by face index).
    fn sorted(&self, level: &Bound<'_, PyAny>) -> PyResult<Vec<PyCard>> {
        let l = level_arg(level)?;
        let mut v = self.0.cards();
        v.sort_by_key(|c| (rank_value(c.rank(), l), c.index()));
        Ok(v.into_iter().map(PyCard).collect())
    }

    /// Number of wildcards (heart level cards) in the hand at `level`.
    fn wildcards(&self, level: &Bound<'_, PyAny>) -> PyResult<u8> {
        let l = level_arg(level)?;
        Ok(self.0.count(Card::natural(l, card::HEARTS)))
    }

    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        let o = cards_arg(other)?;
        self.0.plus(o).map(PyHand).ok_or_else(|| DuplicateCardError::new_err(format!("{} + {}: more than two copies of a card", self.0, o)))
    }

    fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<Self> {
        let o = cards_arg(other)?;
        if !self.0.contains(o) {
            return Err(CardsNotInHandError::new_err(format!("{o} is not all in {}", self.0)));
        }
        Ok(PyHand(self.0.minus(o)))
    }

    fn __bool__(&self) -> bool {
        !self.0.is_empty()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Hand('{}')", self.0)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().into_any(), (slf.get().0.to_string(),)))
    }
}

// ---------------------------------------------------------------- Combo

/// The cards, level and combination rules of a call about one set of
/// cards, read in one order (level, cards, flag) so that each such call
/// reports the same error for the same bad input.
fn cards_at_level(cards: &Bound<'_, PyAny>, level: &Bound<'_, PyAny>, joker_pair_in_full_house: &Arg<'_>) -> PyResult<(CardSet, u8, ComboRules)> {
    let l = level_arg(level)?;
    let set = cards_arg(cards)?;
    Ok((set, l, ComboRules { joker_pair_in_full_house: flag_or(joker_pair_in_full_house, "joker_pair_in_full_house", true)? }))
}

/// A play: its cards and what they are declared as, at a level.
#[pyclass(module = "guandan_fast._core", name = "Combo", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyCombo {
    pub mv: Move,
    pub level: u8,
}

#[pymethods]
impl PyCombo {
    /// Declares `cards` as `kind` (and `rank`) at `level`; kind and rank may be
    /// left out when the cards allow only one declaration.
    #[new]
    #[pyo3(signature = (cards, kind = None, rank = None, *, level, joker_pair_in_full_house = LEFT_OUT))]
    #[pyo3(text_signature = "(cards, kind=None, rank=None, *, level, joker_pair_in_full_house=True)")]
    fn new(
        cards: &Bound<'_, PyAny>,
        kind: Option<&Bound<'_, PyAny>>,
        rank: Option<&Bound<'_, PyAny>>,
        level: &Bound<'_, PyAny>,
        joker_pair_in_full_house: Arg<'_>,
    ) -> PyResult<Self> {
        let (set, l, rules) = cards_at_level(cards, level, &joker_pair_in_full_house)?;
        let combo_err = |e: PyErr| InvalidComboError::new_err(e.value(cards.py()).to_string());
        let kind = match kind.filter(|k| !k.is_none()) {
            None => None,
            Some(k) => {
                Some(name_arg(k, "kind", &format!("a kind name ({})", KINDS.map(|k| k.name()).join(", ")), Kind::from_name).map_err(combo_err)?)
            }
        };
        let rank = match rank.filter(|r| !r.is_none()) {
            None => None,
            Some(r) => Some(name_arg(r, "rank", "a rank such as '7', 'T', 'A', 'BJ' or 'RJ'", card::any_rank_code).map_err(combo_err)?),
        };
        let claim = Claim { kind, rank, ..Claim::default() };
        Ok(PyCombo { mv: declare_one(set, l, rules, &claim)?, level: l })
    }

    /// Kind name: Single, Pair, Triple, FullHouse, Straight, Tube, Plate, Bomb, StraightFlush, JokerBomb.
    #[getter]
    fn kind(&self) -> &'static str {
        self.mv.combo.kind.name()
    }

    /// The declaration as text, like `Pair(7)`, `Bomb(7x5)` or `StraightFlush(5h)`.
    #[getter]
    fn label(&self) -> String {
        self.mv.combo.to_string()
    }

    /// Kind code 0..9 in the order of `KINDS`.
    #[getter]
    fn kind_code(&self) -> u8 {
        self.mv.combo.kind as u8
    }

    /// Rank text (see the docs: lowest rank as played for runs, `A` for A-low).
    #[getter]
    fn rank(&self) -> &'static str {
        card::rank_text(self.mv.combo.rank)
    }

    /// Rank code 0..14 (2..A, BJ, RJ).
    #[getter]
    fn rank_code(&self) -> u8 {
        self.mv.combo.rank
    }

    /// Number of cards.
    #[getter]
    fn size(&self) -> u8 {
        self.mv.combo.size
    }

    /// The flush suit of a StraightFlush, else None.
    #[getter]
    fn suit(&self) -> Option<&'static str> {
        (self.mv.combo.suit != NO_SUIT).then(|| ["h", "s", "c", "d"][self.mv.combo.suit as usize])
    }

    /// The level the play was declared at.
    #[getter]
    fn level(&self) -> &'static str {
        card::rank_text(self.level)
    }

    /// The cards played.
    #[getter]
    fn cards(&self) -> PyHand {
        PyHand(self.mv.cards)
    }

    /// The card each wildcard stands for (hearts where suits do not matter).
    #[getter]
    fn wildcards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, movegen::wildcard_meaning(&self.mv, self.level).into_iter().map(PyCard))
    }

    /// Number of wildcards used.
    #[getter]
    fn wildcard_count(&self) -> u8 {
        self.mv.wild
    }

    /// Bomb, StraightFlush or JokerBomb.
    #[getter]
    fn is_bomb(&self) -> bool {
        self.mv.combo.kind.is_bomb()
    }

    /// Whether this play beats `other` (docs/rules.md §4); equal never beats.
    fn beats(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let other = other.cast::<PyCombo>().map_err(|_| bad_arg("other", "a Combo", other))?.get();
        if other.level != self.level {
            return Err(InvalidComboError::new_err("cannot compare plays declared at different levels"));
        }
        Ok(self.mv.combo.beats(other.mv.combo, self.level))
    }

    fn __len__(&self) -> usize {
        self.mv.combo.size as usize
    }

    fn __str__(&self) -> String {
        format!("{} {}", self.mv.combo, self.mv.cards)
    }

    fn __repr__(&self) -> String {
        format!(
            "Combo('{}', '{}', '{}', level='{}')",
            self.mv.cards,
            self.mv.combo.kind.name(),
            card::rank_text(self.mv.combo.rank),
            card::rank_text(self.level)
        )
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let c = slf.get();
        let kwargs = PyDict::new(py);
        kwargs.set_item("level", card::rank_text(c.level))?;
        let cls = slf.get_type().into_any();
        let args = PyTuple::new(py, [c.mv.cards.to_string(), c.mv.combo.kind.name().to_string(), card::rank_text(c.mv.combo.rank).to_string()])?;
        // functools.partial keeps the keyword-only level through pickle and copy.
        let partial = py.import("functools")?.getattr("partial")?;
        let f = partial.call((cls,), Some(&kwargs))?;
        Ok((f, args))
    }
}

// ---------------------------------------------------------------- functions

/// Every declaration the whole of `cards` can be played as at `level`.
#[pyfunction]
#[pyo3(signature = (cards, level, *, joker_pair_in_full_house = LEFT_OUT))]
#[pyo3(text_signature = "(cards, level, *, joker_pair_in_full_house=True)")]
pub(crate) fn classify(cards: &Bound<'_, PyAny>, level: &Bound<'_, PyAny>, joker_pair_in_full_house: Arg<'_>) -> PyResult<Vec<PyCombo>> {
    let (set, l, rules) = cards_at_level(cards, level, &joker_pair_in_full_house)?;
    Ok(movegen::classify(set, l, rules).into_iter().map(|mv| PyCombo { mv, level: l }).collect())
}

/// The declarations of the whole of `cards` at `level` that fit `label`: a
/// kind name, a label as a Combo shows it (`Straight(3)`, `Bomb(7x5)`), or
/// None for every declaration; `InvalidComboError` saying what the cards can
/// be when none fits.
#[pyfunction]
#[pyo3(signature = (cards, level, label = None, *, joker_pair_in_full_house = LEFT_OUT))]
#[pyo3(text_signature = "(cards, level, label=None, *, joker_pair_in_full_house=True)")]
pub(crate) fn _declarations(
    cards: &Bound<'_, PyAny>,
    level: &Bound<'_, PyAny>,
    label: Option<&Bound<'_, PyAny>>,
    joker_pair_in_full_house: Arg<'_>,
) -> PyResult<Vec<PyCombo>> {
    let (set, l, rules) = cards_at_level(cards, level, &joker_pair_in_full_house)?;
    let expected = "a kind name or a label such as 'Straight(3)', or None";
    let claim = match label.filter(|t| !t.is_none()) {
        None => Claim::default(),
        Some(t) => {
            let not_label = || InvalidComboError::new_err(format!("label must be {expected}, not {}", describe(t)));
            let text = t.cast::<PyString>().map_err(|_| not_label())?;
            Claim::parse(&str_text(text)?).ok_or_else(not_label)?
        }
    };
    Ok(declare(set, l, rules, &claim)?.into_iter().map(|mv| PyCombo { mv, level: l }).collect())
}

/// The fewest plays that empty `hand` at `level` (最少手数) and one
/// decomposition achieving it, as Combos; with `costs='rule'`, the rule
/// policy's plan of the hand and its cost in hundredths of a play.
#[pyfunction]
#[pyo3(signature = (hand, level, *, costs = LEFT_OUT, joker_pair_in_full_house = LEFT_OUT))]
#[pyo3(text_signature = "(hand, level, *, costs='plays', joker_pair_in_full_house=True)")]
pub(crate) fn decompose(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    level: &Bound<'_, PyAny>,
    costs: Arg<'_>,
    joker_pair_in_full_house: Arg<'_>,
) -> PyResult<(i32, Vec<PyCombo>)> {
    let (set, l, rules) = cards_at_level(hand, level, &joker_pair_in_full_house)?;
    let rule = costs.or(false, |c| {
        name_arg(c, "costs", "'plays' or 'rule'", |n| match n {
            "plays" => Some(false),
            "rule" => Some(true),
            _ => None,
        })
    })?;
    let table = if rule { crate::search::choosers::rule_based::value() } else { &movegen::decompose::Costs::PLAYS };
    let (cost, plays) = py.detach(|| movegen::decompose::decompose_by(set, l, rules, table));
    let first = if rule { cost } else { plays.len() as i32 };
    Ok((first, plays.into_iter().map(|mv| PyCombo { mv, level: l }).collect()))
}

/// The rule policy's plan costs as it plays them (`VALUE`, or under the
/// `tuning` feature the table `GUANDAN_RULE_VALUE` gives): 93 numbers in
/// hundredths of a play, in the order of benches/rule_value.py's `PARTS`.
#[pyfunction]
pub(crate) fn _rule_value() -> Vec<i16> {
    crate::search::choosers::rule_based::value().slots()
}

thread_local! {
    static BUF: RefCell<Vec<Move>> = const { RefCell::new(Vec::new()) };
}

/// The arguments of a move listing, read in one order so that every listing
/// function reports the same error for the same bad input.
fn move_args(
    hand: &Bound<'_, PyAny>,
    level: &Bound<'_, PyAny>,
    top: Option<&Bound<'_, PyAny>>,
    mode: &Arg<'_>,
    joker_pair_in_full_house: &Arg<'_>,
) -> PyResult<(CardSet, u8, Option<Combo>, Mode, ComboRules)> {
    let l = level_arg(level)?;
    let set = cards_arg(hand)?;
    let mode = mode_or(mode, Mode::Cards)?;
    let rules = ComboRules { joker_pair_in_full_house: flag_or(joker_pair_in_full_house, "joker_pair_in_full_house", true)? };
    let top = top_arg(top, l, rules)?;
    Ok((set, l, top, mode, rules))
}

fn with_moves<R>(
    hand: &Bound<'_, PyAny>,
    level: &Bound<'_, PyAny>,
    top: Option<&Bound<'_, PyAny>>,
    mode: &Arg<'_>,
    joker_pair_in_full_house: &Arg<'_>,
    f: impl FnOnce(&[Move], u8) -> PyResult<R>,
) -> PyResult<R> {
    let (set, l, top, mode, rules) = move_args(hand, level, top, mode, joker_pair_in_full_house)?;
    BUF.with(|b| {
        let mut buf = b.take();
        buf.clear();
        movegen::generate(set, l, top, mode, rules, &mut buf);
        let r = f(&buf, l);
        b.replace(buf);
        r
    })
}

/// Every legal play from `hand` at `level` against `top` (None: leading).
#[pyfunction]
#[pyo3(signature = (hand, level, top = None, *, mode = LEFT_OUT, joker_pair_in_full_house = LEFT_OUT))]
#[pyo3(text_signature = "(hand, level, top=None, *, mode='cards', joker_pair_in_full_house=True)")]
pub(crate) fn legal_moves(
    hand: &Bound<'_, PyAny>,
    level: &Bound<'_, PyAny>,
    top: Option<&Bound<'_, PyAny>>,
    mode: Arg<'_>,
    joker_pair_in_full_house: Arg<'_>,
) -> PyResult<Vec<PyCombo>> {
    with_moves(hand, level, top, &mode, &joker_pair_in_full_house, |ms, l| Ok(ms.iter().map(|&mv| PyCombo { mv, level: l }).collect()))
}

fn arrays_to_dict<'py>(py: Python<'py>, a: crate::movegen::arrays::MoveArrays, with_offsets: bool) -> PyResult<Bound<'py, PyDict>> {
    let n = a.kind.len();
    let d = PyDict::new(py);
    if n == 0 || !a.cards.is_empty() {
        let cards = Array2::from_shape_vec((n, NUM_FACES), a.cards).map_err(|e| PyValueError::new_err(e.to_string()))?;
        d.set_item("cards", cards.into_pyarray(py))?;
    }
    d.set_item("kind", a.kind.into_pyarray(py))?;
    d.set_item("rank", a.rank.into_pyarray(py))?;
    d.set_item("size", a.size.into_pyarray(py))?;
    d.set_item("wildcards", a.wild.into_pyarray(py))?;
    if with_offsets {
        d.set_item("offsets", a.offsets.into_pyarray(py))?;
    }
    Ok(d)
}

pub(crate) fn moves_to_dict<'py>(py: Python<'py>, ms: &[Move]) -> PyResult<Bound<'py, PyDict>> {
    arrays_to_dict(py, crate::movegen::arrays::move_arrays(ms), false)
}

/// The hands of `legal_moves_batch`: a (n, 54) uint8 numpy array of counts
/// (any memory layout), or an iterable of card arguments.
fn batch_hands_arg(hands: &Bound<'_, PyAny>) -> PyResult<Vec<CardSet>> {
    let bad = |h: &Bound<'_, PyAny>| {
        InvalidCardError::new_err(format!("hands must be a (n, 54) uint8 array of card counts or an iterable of hands, not {}", describe(h)))
    };
    if let Ok(a) = hands.cast::<numpy::PyUntypedArray>() {
        let Ok(a) = a.cast::<numpy::PyArray2<u8>>() else { return Err(bad(hands)) };
        let ro = a.try_readonly().map_err(|_| InvalidArgumentError::new_err("hands is being written elsewhere"))?;
        let v = ro.as_array();
        if v.ncols() != NUM_FACES {
            return Err(bad(hands));
        }
        return v.rows().into_iter().map(|r| CardSet::from_counts(&r.to_vec()).map_err(PyErr::from)).collect();
    }
    if hands.is_instance_of::<PyString>() || hands.is_instance_of::<PyHand>() {
        return Err(bad(hands));
    }
    let iter = hands.try_iter().map_err(|_| bad(hands))?;
    iter.map(|h| cards_arg(&h?)).collect()
}

/// The `out=` array of `legal_moves_batch`: C-contiguous, writable uint8 with 54 columns.
fn batch_out_arg<'py>(out: &Bound<'py, PyAny>) -> PyResult<Bound<'py, numpy::PyArray2<u8>>> {
    let expected = "a writable C-contiguous (rows, 54) uint8 numpy array";
    let a = out.cast::<numpy::PyArray2<u8>>().map_err(|_| bad_arg("out", expected, out))?;
    if a.shape()[1] != NUM_FACES || !a.is_c_contiguous() {
        return Err(bad_arg("out", expected, out));
    }
    Ok(a.clone())
}

/// The legal plays of many hands at once, as one set of numpy arrays plus
/// `offsets` (rows of hand `i` are `offsets[i]:offsets[i+1]`); parallel, without the GIL.
#[pyfunction]
#[pyo3(signature = (hands, level, top = None, *, mode = LEFT_OUT, threads = LEFT_OUT, out = None, joker_pair_in_full_house = LEFT_OUT))]
#[pyo3(text_signature = "(hands, level, top=None, *, mode='cards', threads=0, out=None, joker_pair_in_full_house=True)")]
#[allow(clippy::too_many_arguments)]
pub(crate) fn legal_moves_batch<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    level: &Bound<'py, PyAny>,
    top: Option<&Bound<'py, PyAny>>,
    mode: Arg<'py>,
    threads: Arg<'py>,
    out: Option<&Bound<'py, PyAny>>,
    joker_pair_in_full_house: Arg<'py>,
) -> PyResult<Bound<'py, PyDict>> {
    let threads = threads.or(0, |o| threads_arg(o))?;
    let l = level_arg(level)?;
    let mode = mode_or(&mode, Mode::Cards)?;
    let rules = ComboRules { joker_pair_in_full_house: flag_or(&joker_pair_in_full_house, "joker_pair_in_full_house", true)? };
    let top = top_arg(top, l, rules)?;
    let sets = batch_hands_arg(hands)?;
    let Some(out) = out.filter(|o| !o.is_none()) else {
        let a = py.detach(|| crate::movegen::arrays::batch_legal_moves(&sets, l, top, mode, rules, threads))?;
        return arrays_to_dict(py, a, true);
    };
    let out = batch_out_arg(out)?;
    let rows;
    let a = {
        let mut w = out.try_readwrite().map_err(|_| InvalidArgumentError::new_err("out must be a writable array not in use by another call"))?;
        let slice = w.as_slice_mut().map_err(|_| InvalidArgumentError::new_err("out must be C-contiguous"))?;
        rows = slice.len() / NUM_FACES;
        py.detach(|| crate::movegen::arrays::batch_legal_moves_into(&sets, l, top, mode, rules, threads, Some(slice)))
            .map_err(|e| InvalidArgumentError::new_err(format!("{e} (out has {rows} rows)")))?
    };
    let n = a.kind.len();
    let view = out.call_method1("__getitem__", (pyo3::types::PySlice::new(py, 0, n as isize, 1),))?;
    let d = arrays_to_dict(py, crate::movegen::arrays::MoveArrays { cards: Vec::new(), ..a }, true)?;
    d.set_item("cards", view)?;
    Ok(d)
}

/// The legal plays as numpy arrays (no Python object per move).
#[pyfunction]
#[pyo3(signature = (hand, level, top = None, *, mode = LEFT_OUT, joker_pair_in_full_house = LEFT_OUT))]
#[pyo3(text_signature = "(hand, level, top=None, *, mode='cards', joker_pair_in_full_house=True)")]
pub(crate) fn legal_moves_array<'py>(
    py: Python<'py>,
    hand: &Bound<'py, PyAny>,
    level: &Bound<'py, PyAny>,
    top: Option<&Bound<'py, PyAny>>,
    mode: Arg<'_>,
    joker_pair_in_full_house: Arg<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    with_moves(hand, level, top, &mode, &joker_pair_in_full_house, |ms, _| moves_to_dict(py, ms))
}

/// Number of legal plays (no objects built).
#[pyfunction]
#[pyo3(signature = (hand, level, top = None, *, mode = LEFT_OUT, joker_pair_in_full_house = LEFT_OUT))]
#[pyo3(text_signature = "(hand, level, top=None, *, mode='cards', joker_pair_in_full_house=True)")]
pub(crate) fn count_moves(
    hand: &Bound<'_, PyAny>,
    level: &Bound<'_, PyAny>,
    top: Option<&Bound<'_, PyAny>>,
    mode: Arg<'_>,
    joker_pair_in_full_house: Arg<'_>,
) -> PyResult<usize> {
    let (set, l, top, mode, rules) = move_args(hand, level, top, &mode, &joker_pair_in_full_house)?;
    Ok(movegen::count_moves(set, l, top, mode, rules))
}

/// The four 27-card hands of a seeded shuffle (stable across versions).
#[pyfunction]
pub(crate) fn deal(seed: &Bound<'_, PyAny>) -> PyResult<Vec<PyHand>> {
    let seed = seed_arg(seed)?;
    Ok(crate::cards::deck::deal(&mut crate::rng::Rng::new(seed)).into_iter().map(PyHand).collect())
}

/// The 15 ranks from weakest to strongest at `level` for singles, pairs,
/// triples, full houses and bombs (docs/rules.md §2: the level rank ranks above A).
#[pyfunction]
pub(crate) fn _rank_order(level: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
    let l = level_arg(level)?;
    let mut ranks: Vec<u8> = (0..15).collect();
    ranks.sort_by_key(|&r| rank_value(r, l));
    Ok(ranks.into_iter().map(card::rank_text).collect())
}
