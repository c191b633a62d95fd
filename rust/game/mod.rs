//! A match of Guandan as a checked state machine: rules, tricks, tribute,
//! levels, the position string and what each seat may see.
//!
//! `setup`: a match at one moment as plain data (with the actions);
//! `validate`: the one check of a setup and of an observation, by section;
//! `state`: the `Game` built from a setup, its transitions, replay and
//! rebuilding; `record`: finished deals, origin and log, and their text;
//! `position`: the text of a setup; `observation_text`: the text of an
//! observation; `fields`: the fields those texts are made of.

pub mod display;
pub mod fields;
pub mod levels;
pub mod observation_text;
pub mod observe;
pub mod position;
#[cfg(test)]
mod proptests;
pub mod public;
pub mod record;
pub mod rules;
pub mod setup;
mod state;
pub mod tribute;
pub mod trick;
pub mod validate;

pub use record::{DealRecord, LogEntry, Origin};
pub use setup::{Action, Phase, Setup, TributeState};
pub use state::Game;
#[cfg(test)]
pub(crate) use state::Step;
