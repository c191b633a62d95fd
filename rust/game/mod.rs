//! A match of Guandan as a checked state machine: rules, tricks, tribute,
//! levels, the position string and what each seat may see.

pub mod display;
pub mod encode;
pub mod levels;
pub mod observe;
pub mod position;
pub mod rules;
mod state;
pub mod tribute;
pub mod trick;

pub use state::{Action, DealRecord, Game, LogEntry, Origin, Phase, TributeState};
