//! `Rules`: the rule options as a Python class.

use super::*;
use crate::cards::card::rank_text;
use crate::game::rules::{APass, RuleOptions, Rules};
use pyo3::types::{PyDict, PyTuple};

// ---------------------------------------------------------------- Rules

/// Every rule option on which the rule books differ, with the marked defaults.
#[pyclass(module = "guandan_fast._core", name = "Rules", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyRules(pub Rules);

/// A rule option's error: `InvalidRulesError` with the converter's message.
fn rules_err(e: PyErr, py: Python<'_>) -> PyErr {
    InvalidRulesError::new_err(e.value(py).to_string())
}

/// The upgrade table `{2: gain, 3: gain, 4: gain}` as (place, gain) pairs.
fn upgrade_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<(i128, i128)>> {
    let expected = "a dict {2: gain, 3: gain, 4: gain}";
    let d = obj.cast::<PyDict>().map_err(|_| rules_err(bad_arg("upgrade", expected, obj), obj.py()))?;
    let mut pairs = Vec::new();
    for (k, v) in d.iter() {
        let place = int_arg(&k, "an upgrade key", 2, 4, "a partner place 2..4").map_err(|e| rules_err(e, obj.py()))?;
        let gain = int_arg(&v, "an upgrade gain", 1, 12, "1..12 levels").map_err(|e| rules_err(e, obj.py()))?;
        pairs.push((place, gain));
    }
    Ok(pairs)
}

#[pymethods]
impl PyRules {
    /// Keywords left out keep the default rule; `None` means "no limit" /
    /// "any card" for `a_max_attempts`, `return_max_rank` and `max_deals`,
    /// and the default for `upgrade` and `a_fail_reset`.
    #[new]
    #[pyo3(signature = (*, upgrade = LEFT_OUT, a_pass = LEFT_OUT, a_max_attempts = LEFT_OUT, a_fail_reset = LEFT_OUT,
        return_max_rank = LEFT_OUT, joker_pair_in_full_house = LEFT_OUT, best_of = LEFT_OUT, max_deals = LEFT_OUT, sudden_death = LEFT_OUT))]
    #[pyo3(
        text_signature = "(*, upgrade=None, a_pass='partner_not_last', a_max_attempts=3, a_fail_reset='2', return_max_rank='T', joker_pair_in_full_house=True, best_of=1, max_deals=None, sudden_death=False)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        upgrade: Arg<'_>,
        a_pass: Arg<'_>,
        a_max_attempts: Arg<'_>,
        a_fail_reset: Arg<'_>,
        return_max_rank: Arg<'_>,
        joker_pair_in_full_house: Arg<'_>,
        best_of: Arg<'_>,
        max_deals: Arg<'_>,
        sudden_death: Arg<'_>,
    ) -> PyResult<Self> {
        let e = |r: PyErr| rules_err(r, py);
        let opt_int = |a: &Arg<'_>, what: &str, expected: &str| -> PyResult<Option<Option<i128>>> {
            a.or(None, |o| if o.is_none() { Ok(Some(None)) } else { int_arg(o, what, i128::MIN, i128::MAX, expected).map(|v| Some(Some(v))) })
        };
        let opts = RuleOptions {
            upgrade: upgrade.or(None, |o| if o.is_none() { Ok(None) } else { upgrade_arg(o).map(Some) })?,
            a_pass: a_pass.or(None, |o| name_arg(o, "a_pass", "'partner_not_last' or 'double_down'", APass::from_name).map(Some)).map_err(e)?,
            a_max_attempts: opt_int(&a_max_attempts, "a_max_attempts", "1..255 or None").map_err(e)?,
            a_fail_reset: a_fail_reset.or(None, |o| opt_rank_arg(Some(o), "a_fail_reset")).map_err(e)?,
            return_max_rank: return_max_rank.or(None, |o| opt_rank_arg(Some(o), "return_max_rank").map(Some)).map_err(e)?,
            joker_pair_in_full_house: joker_pair_in_full_house.or(None, |o| flag_arg(o, "joker_pair_in_full_house").map(Some)).map_err(e)?,
            best_of: best_of.or(None, |o| int_arg(o, "best_of", i128::MIN, i128::MAX, "an odd number of games").map(Some)).map_err(e)?,
            max_deals: opt_int(&max_deals, "max_deals", "at least 1 or None").map_err(e)?,
            sudden_death: sudden_death.or(None, |o| flag_arg(o, "sudden_death").map(Some)).map_err(e)?,
        };
        Ok(PyRules(Rules::from_options(&opts)?))
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
        self.0.a_pass.name()
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
    #[allow(clippy::wrong_self_convention)]
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
