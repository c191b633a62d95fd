//! The action space and legal-action masks for Python (`guandan_fast.actions`,
//! `Game.legal_action_mask` and friends): conversion only.

use super::*;
use crate::game::observe::Observation;
use crate::game::{Action, Game};
use crate::rl::{self, LegalSet};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods};
use pyo3::types::PyDict;

/// An index argument: an int in 0..SIZE.
pub(crate) fn index_arg(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    Ok(int_arg(obj, "index", 0, rl::SIZE as i128 - 1, &format!("an action index 0..{}", rl::SIZE - 1))? as usize)
}

/// The error for an index that is not legal now.
pub(crate) fn not_legal(i: usize) -> PyErr {
    IllegalMoveError::new_err(format!("action index {i} ({}) is not legal now", rl::describe(i).unwrap_or_default()))
}

/// `out=` for a mask: a writable C-contiguous uint8 array of `SIZE` entries
/// (zeroed here), or a new one.
pub(crate) fn mask_out<'py>(py: Python<'py>, out: Option<&Bound<'py, PyAny>>, legal: &LegalSet) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let a = vector_out::<u8>(py, out, rl::SIZE, "uint8")?;
    {
        let mut w = a.try_readwrite().map_err(|_| write_err())?;
        let s = w.as_slice_mut().map_err(|_| write_err())?;
        s.fill(0);
        legal.set_mask(s);
    }
    Ok(a)
}

pub(crate) fn legal_of_game(g: &Game) -> LegalSet {
    let mut l = LegalSet::new();
    l.fill_game(g);
    l
}

pub(crate) fn legal_of_observation(o: &Observation) -> LegalSet {
    let mut l = LegalSet::new();
    l.fill_observation(o);
    l
}

/// The legal indices, sorted, as int64.
pub(crate) fn indices_array<'py>(py: Python<'py>, legal: &LegalSet) -> Bound<'py, PyArray1<i64>> {
    let mut v: Vec<i64> = legal.indices().iter().map(|&i| i as i64).collect();
    v.sort_unstable();
    v.into_pyarray(py)
}

/// `{"index": (K,) int64, "cards": (K, 54) uint8}` sorted by index.
pub(crate) fn rows_dict<'py>(py: Python<'py>, legal: &LegalSet) -> PyResult<Bound<'py, PyDict>> {
    let (mut index, mut cards) = (Vec::new(), Vec::new());
    legal.rows(&mut index, &mut cards);
    let k = index.len();
    let d = PyDict::new(py);
    d.set_item("index", index.into_pyarray(py))?;
    d.set_item("cards", cards.into_pyarray(py).reshape([k, crate::cards::card::NUM_FACES])?)?;
    Ok(d)
}

/// Applies the legal action of index `i` to `g`; not legal: `IllegalMoveError`, `g` unchanged.
pub(crate) fn apply_index(g: &mut Game, i: &Bound<'_, PyAny>) -> PyResult<()> {
    let i = index_arg(i)?;
    let a = legal_of_game(g).find(i).ok_or_else(|| not_legal(i))?;
    Ok(g.apply(a)?)
}

/// The index of an action: a Combo (at its pattern), PASS, Tribute(card) or Return(card).
#[pyfunction]
#[pyo3(signature = (action, level = None))]
pub(crate) fn action_index(action: &Bound<'_, PyAny>, level: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let level = match level.filter(|l| !l.is_none()) {
        Some(l) => Some(level_arg(l)?),
        None => None,
    };
    let (a, l) = if let Ok(c) = action.cast::<PyCombo>() {
        let c = c.get();
        if let Some(l) = level {
            if l != c.level {
                return Err(InvalidArgumentError::new_err(format!(
                    "level {} differs from the level {} the Combo was declared at",
                    crate::cards::card::rank_text(l),
                    crate::cards::card::rank_text(c.level)
                )));
            }
        }
        (Action::Play(c.mv), c.level)
    } else if action.is_instance_of::<PyPass>() {
        (Action::Pass, 0)
    } else if let Ok(t) = action.cast::<PyTribute>() {
        (Action::Tribute(t.get().0), 0)
    } else if let Ok(t) = action.cast::<PyReturn>() {
        (Action::Return(t.get().0), 0)
    } else {
        return Err(bad_arg("action", "a Combo, PASS, Tribute(card) or Return(card)", action));
    };
    rl::action_index(&a, l).ok_or_else(|| InvalidComboError::new_err(format!("{} is not a play of the action space", describe(action))))
}

/// The legal action of index `i` in `state` (a Game, or the Observation of the seat to act).
#[pyfunction]
pub(crate) fn index_action<'py>(py: Python<'py>, i: &Bound<'py, PyAny>, state: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let i = index_arg(i)?;
    let (legal, level) = if let Ok(g) = state.cast::<PyGame>() {
        let g = game_of(g)?;
        (legal_of_game(&g.0), g.0.level())
    } else if let Ok(o) = state.cast::<PyObservation>() {
        let o = &o.get().0;
        (legal_of_observation(o), o.level)
    } else {
        return Err(bad_arg("state", "a Game or an Observation", state));
    };
    let a = legal.find(i).ok_or_else(|| not_legal(i))?;
    action_to_py(py, a, level)
}

/// A short text of what index `i` stands for.
#[pyfunction]
pub(crate) fn describe_index(i: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(rl::describe(index_arg(i)?).unwrap_or_default())
}

/// The fields of index `i` as a dict: `type` ("pass", "play", "tribute",
/// "return"), and for a play `kind`, `rank`, `size`, `suit`, `wildcards`,
/// `naturals` (15 counts by rank), for a tribute or return `card`.
#[pyfunction]
pub(crate) fn index_fields<'py>(py: Python<'py>, i: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match rl::entry(index_arg(i)?).expect("an index below SIZE") {
        rl::Entry::Pass => d.set_item("type", "pass")?,
        rl::Entry::Tribute(c) => {
            d.set_item("type", "tribute")?;
            d.set_item("card", PyCard(c))?;
        }
        rl::Entry::Return(c) => {
            d.set_item("type", "return")?;
            d.set_item("card", PyCard(c))?;
        }
        rl::Entry::Play { combo, wild, naturals } => {
            d.set_item("type", "play")?;
            d.set_item("kind", combo.kind.name())?;
            d.set_item("rank", crate::cards::card::rank_text(combo.rank))?;
            d.set_item("size", combo.size)?;
            d.set_item(
                "suit",
                if combo.suit == crate::movegen::combo::NO_SUIT {
                    None
                } else {
                    Some(crate::cards::card::SUIT_CHARS[combo.suit as usize].to_string())
                },
            )?;
            d.set_item("wildcards", wild)?;
            d.set_item("naturals", naturals.iter().map(|&n| n as u32).collect::<Vec<_>>())?;
        }
    }
    Ok(d)
}

/// The card feature of every index at `level` (RLCard's action feature,
/// `rl::action_space::feature`), as rows of a (SIZE, 54) int8 array.
#[pyfunction]
pub(crate) fn action_features<'py>(py: Python<'py>, level: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArray2<i8>>> {
    let level = level_arg(level)?;
    let mut rows = Array2::<i8>::zeros((rl::SIZE, crate::cards::card::NUM_FACES));
    for (i, mut row) in rows.rows_mut().into_iter().enumerate() {
        let f = rl::action_space::feature(i, level).expect("an index below SIZE");
        row.iter_mut().zip(f).for_each(|(x, y)| *x = y as i8);
    }
    Ok(rows.into_pyarray(py))
}
