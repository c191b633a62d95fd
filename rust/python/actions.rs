//! The actions other than plays (`Pass`, `Tribute`, `Return`) and action conversion.

use super::*;
use crate::cards::card::rank_text;
use crate::game::{Action, Game, Phase};
use pyo3::types::PyTuple;

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

/// A card-carrying action class: `$py_name(card)` wrapping one `Card`.
macro_rules! card_action {
    ($(#[$doc:meta])* $ty:ident, $py_name:literal) => {
        $(#[$doc])*
        #[pyclass(module = "guandan_fast._core", name = $py_name, frozen, eq, hash)]
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        pub struct $ty(pub Card);

        #[pymethods]
        impl $ty {
            #[new]
            fn new(card: &Bound<'_, PyAny>) -> PyResult<Self> {
                Ok($ty(card_arg(card)?))
            }
            #[getter]
            fn card(&self) -> PyCard {
                PyCard(self.0)
            }
            fn __repr__(&self) -> String {
                format!(concat!($py_name, "('{}')"), self.0)
            }
            fn __getnewargs__(&self) -> (String,) {
                (self.0.to_string(),)
            }
        }
    };
}

card_action!(
    /// Paying `card` as tribute (进贡).
    PyTribute,
    "Tribute"
);
card_action!(
    /// Returning `card` to the tribute giver (还贡).
    PyReturn,
    "Return"
);

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
    if let Ok(c) = obj.cast::<PyCombo>() {
        let c = c.get();
        if c.level != g.play.level {
            return Err(IllegalMoveError::new_err(format!(
                "the play was declared at level {} but this deal is played at {}",
                rank_text(c.level),
                rank_text(g.play.level)
            )));
        }
        return Ok(Action::Play(c.mv));
    }
    if obj.is_instance_of::<PyPass>() || obj.is_none() {
        return Ok(Action::Pass);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        if str_text(s)?.eq_ignore_ascii_case("pass") {
            return Ok(Action::Pass);
        }
    }
    if let Ok(t) = obj.cast::<PyTribute>() {
        return Ok(Action::Tribute(t.get().0));
    }
    if let Ok(t) = obj.cast::<PyReturn>() {
        return Ok(Action::Return(t.get().0));
    }
    match g.phase {
        Phase::Tribute => Ok(Action::Tribute(card_arg(obj)?)),
        Phase::Return => Ok(Action::Return(card_arg(obj)?)),
        _ => Err(IllegalMoveError::new_err(format!(
            "an action is a Combo (from legal_actions or Combo(cards, level=...)), PASS, Tribute(card) or Return(card), not {}",
            describe(obj)
        ))),
    }
}
