//! `Observation`: what one seat may see.

use super::*;
use crate::cards::card::rank_text;
use crate::cards::cardset::CardSet;
use crate::game::observe;
use crate::game::Game;
use pyo3::types::{PyDict, PyList};

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
