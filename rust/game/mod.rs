//! A match of Guandan as a checked state machine: rules, tricks, tribute,
//! levels, the position string and what each seat may see.
//!
//! `setup`: a match at one moment as plain data (with the actions) and the
//! checks of its parts; `state`: the `Game` built from one, its transitions,
//! replay and rebuilding; `record`: finished deals, origin and log;
//! `position`: the text of a setup.

pub mod display;
pub mod levels;
pub mod observe;
pub mod position;
#[cfg(test)]
mod proptests;
pub mod public;
mod record;
pub mod rules;
pub mod setup;
mod state;
pub mod tribute;
pub mod trick;

pub use record::{DealRecord, LogEntry, Origin};
pub use setup::{Action, Phase, Setup, TributeState};
pub use state::Game;
