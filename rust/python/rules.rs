//! `Rules`: the rule options as a Python class.

use super::*;
use crate::cards::card::rank_text;
use crate::game::rules::{APass, Rules};
use pyo3::types::{PyDict, PyTuple};

pub(crate) fn rank_or_none(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<u8>> {
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
        Some(o) => Ok(o.extract::<PyRef<'_, PyRules>>().map_err(|_| InvalidRulesError::new_err("rules must be a Rules object or None"))?.0),
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
