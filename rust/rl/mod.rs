//! The reinforcement-learning core: a fixed action space over every action
//! a seat can take (`index`), legal-action masks and rows (`legal`).
//!
//! - [`index`]: the table of actions, a move's index and an index's entry;
//! - [`legal`]: the legal actions of a game or an observation as indices.

pub mod index;
pub mod legal;

pub use index::{action_index, describe, entry, play_index, Entry, PASS_INDEX, RETURN_BASE, SIZE, TRIBUTE_BASE};
pub use legal::LegalSet;
