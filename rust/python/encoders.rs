//! The observation encoders for Python (`encode_observation`,
//! `danzero_state` and their batch forms): conversion only.

use super::*;
use crate::rl::encodings::{Encoding, View};
use crate::rl::fields::Field;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};

fn observation_arg<'py>(obs: &Bound<'py, PyAny>, what: &str) -> PyResult<Bound<'py, PyObservation>> {
    obs.cast::<PyObservation>()
        .cloned()
        .map_err(|_| InvalidArgumentError::new_err(format!("{what} must be an Observation (game.observation(seat)), not {}", describe(obs))))
}

/// `out=` of one vector: a writable C-contiguous numpy array of `n` values of
/// type `T` (named `dtype` in the error), or a new zeroed one.
pub(crate) fn vector_out<'py, T: numpy::Element>(
    py: Python<'py>,
    out: Option<&Bound<'py, PyAny>>,
    n: usize,
    dtype: &str,
) -> PyResult<Bound<'py, PyArray1<T>>> {
    match out.filter(|o| !o.is_none()) {
        None => Ok(PyArray1::<T>::zeros(py, n, false)),
        Some(o) => {
            let expected = format!("a writable C-contiguous {dtype} numpy array of shape ({n},)");
            let a = o.cast::<PyArray1<T>>().map_err(|_| bad_arg("out", &expected, o))?.clone();
            if a.len() != n || !a.is_c_contiguous() {
                return Err(bad_arg("out", &expected, o));
            }
            Ok(a)
        }
    }
}

/// `out=` of a batch: a writable C-contiguous float32 array of shape (b, n), or a new one.
fn batch_out<'py>(py: Python<'py>, out: Option<&Bound<'py, PyAny>>, b: usize, n: usize) -> PyResult<Bound<'py, PyArray2<f32>>> {
    match out.filter(|o| !o.is_none()) {
        None => Ok(PyArray2::<f32>::zeros(py, [b, n], false)),
        Some(o) => {
            let expected = format!("a writable C-contiguous float32 numpy array of shape ({b}, {n})");
            let a = o.cast::<PyArray2<f32>>().map_err(|_| bad_arg("out", &expected, o))?.clone();
            if a.shape() != [b, n] || !a.is_c_contiguous() {
                return Err(bad_arg("out", &expected, o));
            }
            Ok(a)
        }
    }
}

pub(crate) fn write_err() -> PyErr {
    InvalidArgumentError::new_err("out must be a writable array not in use by another call")
}

fn encode_one<'py>(py: Python<'py>, e: Encoding, obs: &Bound<'py, PyAny>, out: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyArray1<f32>>> {
    let o = observation_arg(obs, "obs")?;
    let a = vector_out::<f32>(py, out, e.size(), "float32")?;
    {
        let mut w = a.try_readwrite().map_err(|_| write_err())?;
        e.write(&View::of_observation(&o.get().0), w.as_slice_mut().map_err(|_| write_err())?);
    }
    Ok(a)
}

fn encode_many<'py>(
    py: Python<'py>,
    e: Encoding,
    observations: &Bound<'py, PyAny>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let iter = observations.try_iter().map_err(|_| bad_arg("observations", "an iterable of Observations", observations))?;
    let obs: Vec<Bound<'py, PyObservation>> = iter.map(|o| observation_arg(&o?, "every item of observations")).collect::<PyResult<_>>()?;
    let n = e.size();
    let a = batch_out(py, out, obs.len(), n)?;
    {
        let mut w = a.try_readwrite().map_err(|_| write_err())?;
        let s = w.as_slice_mut().map_err(|_| write_err())?;
        for (o, row) in obs.iter().zip(s.chunks_exact_mut(n)) {
            e.write(&View::of_observation(&o.get().0), row);
        }
    }
    Ok(a)
}

/// `obs` as this package's float32 encoding (`OBSERVATION_SIZE` values; layout in docs/encodings.md), into `out` when given.
#[pyfunction]
#[pyo3(signature = (obs, out = None))]
pub(crate) fn encode_observation<'py>(
    py: Python<'py>,
    obs: &Bound<'py, PyAny>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray1<f32>>> {
    encode_one(py, Encoding::Guandan, obs, out)
}

/// `obs` as DanZero's 513-value float32 state (layout in docs/encodings.md), into `out` when given.
#[pyfunction]
#[pyo3(signature = (obs, out = None))]
pub(crate) fn danzero_state<'py>(py: Python<'py>, obs: &Bound<'py, PyAny>, out: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyArray1<f32>>> {
    encode_one(py, Encoding::DanZero, obs, out)
}

/// `encode_observation` of each observation, as rows of a (B, OBSERVATION_SIZE) float32 array.
#[pyfunction]
#[pyo3(signature = (observations, out = None))]
pub(crate) fn encode_observations<'py>(
    py: Python<'py>,
    observations: &Bound<'py, PyAny>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    encode_many(py, Encoding::Guandan, observations, out)
}

/// `danzero_state` of each observation, as rows of a (B, 513) float32 array.
#[pyfunction]
#[pyo3(signature = (observations, out = None))]
pub(crate) fn danzero_states<'py>(
    py: Python<'py>,
    observations: &Bound<'py, PyAny>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    encode_many(py, Encoding::DanZero, observations, out)
}

/// A field table row for Python: `(name, offset, length, low, high)`.
type FieldRow = (&'static str, usize, usize, f32, f32);

/// The fields of the encoding `observation` ('danzero' or 'guandan', or
/// 'danzero567' for the rows of `danzero_actions`) in order:
/// `(name, offset, length, low, high)`, the values of a field lying in
/// `low..=high` (the bounds of the environments' observation spaces).
#[pyfunction]
pub(crate) fn observation_fields(observation: &Bound<'_, PyAny>) -> PyResult<Vec<FieldRow>> {
    let fields = name_arg(observation, "observation", "'danzero', 'guandan' or 'danzero567'", |name| match name {
        "danzero567" => Some(crate::rl::fields::danzero_row_fields()),
        _ => Encoding::from_name(name).map(|e| e.fields().to_vec()),
    })?;
    Ok(fields.iter().map(|f: &Field| (f.name, f.offset, f.len, f.low, f.high)).collect())
}
