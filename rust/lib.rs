//! guandan_fast: a rule-exact, fast Guandan (掼蛋) engine.
//!
//! The core is plain Rust; the Python bindings live in [`python`] behind the
//! `python` feature.

pub mod card;
pub mod cardset;
pub mod combo;
pub mod deck;
pub mod encode;
pub mod error;
pub mod game;
pub mod levels;
pub mod montecarlo;
pub mod moves;
pub mod observe;
pub mod policy;
pub mod position;
pub mod rng;
pub mod rules;
pub mod sample;
pub mod simulate;
pub mod trick;
pub mod tribute;
mod tables;

pub use card::Card;
pub use cardset::CardSet;
pub use combo::{Combo, Kind};
pub use error::{Error, Result};
pub use moves::{classify, legal_moves, ComboRules, Mode, Move};

#[cfg(feature = "python")]
pub mod python;
