//! A match of Guandan as a checked state machine: rules, tricks, tribute,
//! levels, the position string and what each seat may see.

pub mod display;
pub mod levels;
pub mod observe;
pub mod position;
#[cfg(test)]
mod proptests;
pub mod rules;
pub mod setup;
mod state;
pub mod tribute;
pub mod trick;

pub use setup::{Phase, Setup, TributeState};
pub use state::{Action, DealRecord, Game, LogEntry, Origin};
