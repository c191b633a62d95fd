//! guandan_fast: a rule-exact, fast Guandan (掼蛋) engine.
//!
//! - [`cards`]: faces, card sets and dealing;
//! - [`movegen`]: combinations, the wildcard search (逢人配) and legal moves;
//! - [`game`]: the match state machine, rules, tribute, levels, positions;
//! - [`search`]: policies, playouts, sampling, Monte Carlo and simulation;
//! - [`rl`]: the action space, observation encodings, the episode every
//!   environment steps, the vector env and trajectory collection;
//! - [`parallel`], [`rng`], [`error`]: the thread pool and stop flag, the
//!   seeded generator, the one error type.
//!
//! Each module imports only those listed before it (docs/architecture.md).
//! The core is plain Rust; the Python bindings live in `python` behind the
//! `python` feature.

pub mod cards;
pub mod error;
pub mod game;
pub mod movegen;
pub mod parallel;
pub mod rl;
pub mod rng;
pub mod search;

pub use cards::{Card, CardSet};
pub use error::{Error, Result};
pub use movegen::combo::{Combo, Kind};
pub use movegen::{classify, legal_moves, ComboRules, Mode, Move};

#[cfg(feature = "python")]
pub mod python;
