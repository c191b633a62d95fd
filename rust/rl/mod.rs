//! The reinforcement-learning core: a fixed action space over every action
//! a seat can take (`index`), legal-action masks and rows (`legal`).
//!
//! - [`index`]: the table of actions, a move's index and an index's entry;
//! - [`legal`]: the legal actions of a game or an observation as indices;
//! - [`encode`]: the observation encodings written into float slices;
//! - [`episode`]: one seeded episode with native seats and rewards;
//! - [`vecenv`]: N tables stepped together;
//! - [`collect`]: trajectories of native policies, one row a decision.

pub mod collect;
pub mod encode;
pub mod episode;
pub mod index;
pub mod legal;
pub mod vecenv;

pub use index::{action_index, describe, entry, play_index, Entry, PASS_INDEX, RETURN_BASE, SIZE, TRIBUTE_BASE};
pub use legal::LegalSet;
