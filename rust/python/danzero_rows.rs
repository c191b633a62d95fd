//! DanZero's 567-value rows for Python (`danzero_actions`,
//! `VectorEnv.danzero_actions`): conversion only.

use super::*;
use crate::rl::danzero_rows::{danzero_rows, CardOrder};
use crate::rl::encodings::View;
use crate::rl::fields::DANZERO_ROW_SIZE;
use numpy::{PyArray2, PyArrayMethods, PyUntypedArrayMethods};

/// `card_order=`: 'rank-major' (the default) or 'suit-major'.
pub(crate) fn card_order_arg(card_order: &Arg<'_>) -> PyResult<CardOrder> {
    card_order.or(CardOrder::RankMajor, |o| name_arg(o, "card_order", "'rank-major' or 'suit-major'", CardOrder::from_name))
}

/// `out=` of `k` rows: a writable C-contiguous float32 array of shape (k, 567), or a new one.
pub(crate) fn rows_out<'py>(py: Python<'py>, out: Option<&Bound<'py, PyAny>>, k: usize) -> PyResult<Bound<'py, PyArray2<f32>>> {
    match out.filter(|o| !o.is_none()) {
        None => Ok(PyArray2::<f32>::zeros(py, [k, DANZERO_ROW_SIZE], false)),
        Some(o) => {
            let expected = format!("a writable C-contiguous float32 numpy array of shape ({k}, {DANZERO_ROW_SIZE}) (one row per legal action)");
            let a = o.cast::<PyArray2<f32>>().map_err(|_| bad_arg("out", &expected, o))?.clone();
            if a.shape() != [k, DANZERO_ROW_SIZE] || !a.is_c_contiguous() {
                return Err(bad_arg("out", &expected, o));
            }
            Ok(a)
        }
    }
}

/// DanZero's Q-network input for every legal action of the seat to act in
/// `state` (a Game, or the Observation of the seat to act): one row of 567
/// float32 values per action, `danzero_state` then the action's 54 card
/// counts, in the order of `state.legal_action_indices()`; every card field
/// numbered as `card_order` says ('rank-major' or 'suit-major'; see
/// docs/encodings.md). Written into `out` when given.
#[pyfunction]
#[pyo3(signature = (state, out = None, *, card_order = LEFT_OUT))]
#[pyo3(text_signature = "(state, out=None, *, card_order='rank-major')")]
pub(crate) fn danzero_actions<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    out: Option<&Bound<'py, PyAny>>,
    card_order: Arg<'py>,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let order = card_order_arg(&card_order)?;
    let write = |v: &View, legal: &crate::rl::LegalSet| -> PyResult<Bound<'py, PyArray2<f32>>> {
        let a = rows_out(py, out, legal.len())?;
        {
            let mut w = a.try_readwrite().map_err(|_| write_err())?;
            danzero_rows(v, legal, order, w.as_slice_mut().map_err(|_| write_err())?);
        }
        Ok(a)
    };
    if let Ok(g) = state.cast::<PyGame>() {
        let g = game_of(g)?;
        let legal = legal_of_game(&g.0);
        let seat = g.0.current_player().unwrap_or(0);
        write(&View::of_game(&g.0, seat), &legal)
    } else if let Ok(o) = state.cast::<PyObservation>() {
        let o = &o.get().0;
        write(&View::of_observation(o), &legal_of_observation(o))
    } else {
        Err(bad_arg("state", "a Game or an Observation", state))
    }
}
